"""The native game engine's foundation (runtime/native/src/engine/, docs/engine-native.md) against the
Python engine: its generator draws what `random.Random` draws, and the hand it sets up is the Python
engine's at the same point (`Game.setup_state`); a construct it does not execute yet is refused, named.
bench/engine_equivalence.py native-setup runs the setup check over 1,000 seeds per configuration."""
from __future__ import annotations

import json
import random

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from paili import load
from paili.runtime import backend
from paili.runtime.game.flow import Game
from paili.runtime.game.simulate import seeds_of

pytestmark = native_engine_only()

SEEDS = [0, 1, 2, 7, -1, -12345, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**53 + 5, 2**63 - 1, 2**64 - 1, 2**64,
         2**64 + 12345, 3**100, -(7**90), 10**300]
# the configurations of bench/engine_equivalence.py, and the options that change the tiles
CONFIGS = [*ENGINE_CONFIGS, ("rules/chehuzi.pai", {"王数": 0})]


def _native():
    return backend.native_module()


def _derived_seeds() -> list[int]:
    """The seeds `paili simulate` (and a session) gives its games, from a few run seeds."""
    return [s for run in (0, 1, 42, 2**40) for _, s in seeds_of(20, run)]


@pytest.mark.parametrize("seed", SEEDS + _derived_seeds()[:40])
def test_the_generator_draws_what_python_draws(seed):
    py, nat = random.Random(seed), _native().EngineRandom(seed)
    assert [nat.random() for _ in range(700)] == [py.random() for _ in range(700)]  # past one refill of 624
    assert [nat.getrandbits(k) for k in range(65)] == [py.getrandbits(k) for k in range(65)]
    bounds = [1, 2, 3, 5, 8, 13, 136, 144, 1 << 31, (1 << 31) + 1, 10**12, (1 << 64) - 1]
    assert [nat.randrange(n) for n in bounds * 20] == [py.randrange(n) for n in bounds * 20]
    assert [nat.choice(n) for n in range(1, 60)] == [py.choice(range(n)) for n in range(1, 60)]
    assert nat.random() == py.random()  # still in step after every kind of draw


@pytest.mark.parametrize("words", [622, 623, 624, 625, 700])
def test_seeds_of_about_the_generators_length_seed_as_python_seeds(words):
    """`init_by_array` with a key of about the generator's 624 words (its first pass runs over max(624,
    key length) steps and wraps at the end of the array; the native one runs it in stretches between
    the wraps): the same draws as Python's."""
    for seed in (2 ** (32 * words) - 3, 2 ** (32 * (words - 1)) + 12345, -(3 ** (20 * words))):
        py, nat = random.Random(seed), _native().EngineRandom(seed)
        assert [nat.random() for _ in range(700)] == [py.random() for _ in range(700)]


def test_shuffles_of_every_wall_length_are_pythons():
    lengths = set(range(0, 200))
    for path, options in CONFIGS:
        cat, _ = load(ROOT / path).catalog_for(load(ROOT / path).settings_env(options))
        lengths.add(sum(k.copies for k in cat.kinds))
    assert {100, 108, 136, 144} <= lengths  # the walls of the bundled variants are among them
    for seed in SEEDS[:8] + _derived_seeds()[:8]:
        py, nat = random.Random(seed), _native().EngineRandom(seed)
        for n in sorted(lengths):
            ids = list(range(n))
            py.shuffle(ids)
            assert nat.shuffled(n) == ids, (seed, n)


@pytest.mark.parametrize("path,options", CONFIGS, ids=[f"{p.split('/')[-1]}{o or ''}" for p, o in CONFIGS])
def test_the_native_setup_is_the_python_engines(path, options):
    from paili.runtime.game.native import table

    rules = load(ROOT / path)
    tab = table(rules, options)
    seeds = list(range(100)) + _derived_seeds()[:100] + [2**64 + 3, -9]
    for seed in seeds:
        assert json.loads(tab.setup(seed)) == Game.setup_state(rules, options, seed), seed
    # a dealer and balances given, as a session carries them from the hand before
    n = tab.players()
    for seed in range(12):
        dealer, balances = seed % n, [1000 + 10 * i - seed for i in range(n)]
        assert json.loads(tab.setup(seed, dealer, balances)) == \
            Game.setup_state(rules, options, seed, dealer=dealer, balances=balances)
    # the values a session carries into its next hand (only states that live for the session take them;
    # a number changed, a seat as a session carries it, and a name that is no state, both ignored alike)
    g = Game(rules, options, 0, check=False)
    values = {k: (v + 3 if type(v) is int else v) for k, v in g.table_values().items()}
    values.update({"no such state": 1})
    players = [{**p, "no such state": {"seat": 0}} for p in g.player_values()]
    for seed in range(6):
        assert json.loads(tab.setup(seed, None, None, values, players)) == \
            Game.setup_state(rules, options, seed, table=values, players=players)


@pytest.mark.parametrize("path,wall,tail", [
    ("rules/guobiao.pai", "1m1m1m2m3m 东东", "春"), ("rules/guobiao.pai", ["1m", "9s", "中"], None),
    ("rules/longyan.pai", None, "1p 春 夏"), ("rules/chehuzi.pai", "", "")])
def test_scenario_walls(path, wall, tail):
    """`wall` / `tail` fix the ends of the shuffled wall, as the Python engine fixes them."""
    rules = load(ROOT / path)
    tab = _native().EngineTable(rules.ruleset_json(), {})
    for seed in range(8):
        got = json.loads(tab.setup(seed, None, None, None, None, wall, tail))
        assert got == Game.setup_state(rules, {}, seed, wall=wall, tail=tail)


def test_a_scenario_wall_the_tiles_cannot_make_is_refused():
    rules = load(ROOT / "rules/guobiao.pai")
    tab = _native().EngineTable(rules.ruleset_json(), {})
    with pytest.raises(ValueError, match="more copies of"):
        tab.setup(1, None, None, None, None, "1m1m1m1m1m")
    with pytest.raises(ValueError, match="not tile notation"):
        tab.setup(1, None, None, None, None, "1x")


def test_carried_seats_and_lists():
    rules = load(ROOT / "rules/guobiao.pai")  # its table state 局数 lives for the session
    tab = _native().EngineTable(rules.ruleset_json(), {})
    for value in ({"seat": 2}, ["1m", 3, True], None, "x"):
        got = json.loads(tab.setup(4, None, None, {"局数": value}))
        assert got == Game.setup_state(rules, {}, 4, table={"局数": value})
        assert got["table"]["局数"] == value
    with pytest.raises(ValueError, match="seat the table does not have"):
        tab.setup(4, None, None, {"局数": {"seat": 4}})
    # a value of a state that does not live for the session, or of no state, is ignored whatever it is;
    # a seat's entry may be None, and entries past the table's seats are not read
    ignored = {"局数": 2, "杠后": 1.5, "no such state": {"x": [1.5]}}
    players = [None, {"杠后": {"seat": 99}}, {}, {}, {"局数": 1.5}]
    assert json.loads(tab.setup(4, None, None, ignored, players)) == \
        Game.setup_state(rules, {}, 4, table=ignored, players=players)
    # a value the port does not hold (a float, a seat counted from the end, a dict in a list) is not ported
    for value in (1.5, {"seat": -1}, [{"seat": 1}], 2**70):
        with pytest.raises(_native().NotCovered, match="carried values"):
            tab.setup(4, None, None, {"局数": value})


def test_the_setup_exercises_what_it_ports():
    """The sample above is not vacuous: flowers replaced with their action's effects, reveals flipped
    (kept in the wall, or taken out past skipped tiles), tasks drawn, the owner's deal."""
    from paili.runtime.game.native import setup_state

    longyan = load(ROOT / "rules/longyan.pai")
    s = setup_state(longyan, {"人数": 4}, 3)
    assert s["events"].get("补花", 0) > 0 and any(seat["vars"]["花牌"] for seat in s["seats"])
    assert s["reveals"]["金牌"] is not None and s["out"]
    assert any(setup_state(longyan, {"人数": 4}, k)["events"].get("reveal_skip:金牌") for k in range(60))
    baicheng = setup_state(load(ROOT / "rules/baicheng.pai"), {}, 5)
    assert baicheng["pinned"] and baicheng["dealer"] == 0
    assert setup_state(load(ROOT / "rules/baijindao.pai"), {}, 5)["task"]


def _refused(edit) -> str:
    rules = load(ROOT / "rules/longyan.pai")
    doc = json.loads(rules.ruleset_json())
    edit(doc["ruleset"])
    with pytest.raises(_native().NotCovered) as exc:
        _native().EngineTable(json.dumps(doc, ensure_ascii=False), {}).setup(1)
    return str(exc.value)


@pytest.mark.parametrize("holds", [True, False])
def test_an_unless_condition_over_settings_at_the_deal(tmp_path, holds):
    """A reveal of the deal with `unless` over a room option: flipped or not, as the Python engine does."""
    doc = json.loads(load(ROOT / "rules/longyan.pai").ruleset_json())
    doc["ruleset"]["reveals"][0]["unless"] = {"_": "Name", "name": "有筒子", "ref": "option:有筒子"}
    path = tmp_path / "unless.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    rules = load(path)
    tab = _native().EngineTable(rules.ruleset_json(), {"有筒子": holds})
    for seed in range(20):
        got = json.loads(tab.setup(seed))
        assert got == Game.setup_state(rules, {"有筒子": holds}, seed)
        assert (got["reveals"]["金牌"] is None) == holds


def _variant(tmp_path, edit) -> object:
    """longyan's compiled rule set with `edit` applied, loaded (for constructs no bundled file has)."""
    doc = json.loads(load(ROOT / "rules/longyan.pai").ruleset_json())
    edit(doc["ruleset"])
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return load(path)


def test_tile_initial_values_and_python_equality_in_effects(tmp_path):
    """States whose initial value is a tile literal (one tile; several, one of a kind not in play), and a
    flower action removing `true` from a carried list holding 1 (Python's `True == 1` removes it), as the
    Python engine runs them."""
    def edit(rs):
        states = {s["name"]: s for s in rs["states"]}
        states["饼牌"]["init"] = {"_": "TileLit", "text": "东", "tiles": ["东"]}
        states["过手杠"]["init"] = {"_": "TileLit", "text": "东南一筒", "tiles": ["东", "南", "一筒"], "single": False}
        states["花牌"]["lives"] = "session"
        flower = next(a for a in rs["actions"] if a.get("on") == "draw" and a.get("effects"))
        flower["effects"].append({"_": "Effect", "op": "remove", "target": ["actor", "花牌"],
                                  "value": {"_": "Bool", "value": True}})

    rules = _variant(tmp_path, edit)
    for options in ({}, {"有筒子": False}):
        tab = _native().EngineTable(rules.ruleset_json(), options)
        players = [{"花牌": [1, 2, "x"]} for _ in range(tab.players())]
        for seed in range(15):
            got = json.loads(tab.setup(seed, None, None, None, players))
            assert got == Game.setup_state(rules, options, seed, players=players)
        assert got["table"]["饼牌"] == "东"
        assert got["seats"][0]["vars"]["过手杠"] == (["东", "南", "一筒"] if not options else ["东", "南", None])
        assert any(seat["vars"]["花牌"][:2] == [2, "x"] for seat in got["seats"])  # a flower replaced: 1 removed


def test_a_rule_set_games_do_not_execute_is_refused_by_both_engines(tmp_path):
    """What runtime/game/engine_limits.py lists (W605) is refused by the native setup as `Game` refuses it."""
    from paili.runtime.game.records import GameError

    edits = {
        "restrict": lambda rs: rs["restricts"].append(
            {"_": "Restrict", "name": "no_draw", "actions": ["draw"], "when": {"_": "Bool", "value": True}}),
        "emit": lambda rs: rs["hooks"].append(
            {"_": "Hook", "event": "discard", "effects": [{"_": "Effect", "op": "emit", "target": ["deal"]}]}),
    }
    for word, edit in edits.items():
        rules = _variant(tmp_path, edit)
        with pytest.raises(GameError, match="does not execute"):
            Game.setup_state(rules, {}, 1)
        with pytest.raises(ValueError, match=f"does not execute `{word}"):
            _native().EngineTable(rules.ruleset_json(), {})


def test_more_wildcards_than_a_hand_may_hold_are_refused_by_both_engines(tmp_path):
    """The loader refuses such a rule set (E706); the native engine, handed its JSON directly, too."""
    doc = json.loads(load(ROOT / "rules/longyan.pai").ruleset_json())
    # two more wildcard kinds of four copies each beside the revealed tile (any kind: four)
    doc["ruleset"]["wilds"] += [{"_": "Wild", "name": "东王", "tiles": "东"},
                                {"_": "Wild", "name": "南王", "tiles": "南"}]
    path = tmp_path / "wild.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError, match="could hold 12 wildcards"):
        load(path)
    with pytest.raises(ValueError, match="could hold 12 wildcards"):
        _native().EngineTable(json.dumps(doc, ensure_ascii=False), {})


def test_what_the_port_does_not_execute_is_refused_by_name():
    def unless(rs):  # a condition that reads the game (a seat), not only settings
        rs["reveals"][0]["unless"] = {"_": "Name", "name": "dealer", "ref": "builtin:dealer"}

    assert "`unless`" in _refused(unless)

    def emit(rs):
        action = next(a for a in rs["actions"] if a.get("on") == "draw" and a.get("effects"))
        action["effects"] = [{"_": "Effect", "op": "emit", "target": ["x"]}]

    assert "the effect `emit`" in _refused(emit)

    def hooked(rs):
        action = next(a for a in rs["actions"] if a.get("on") == "draw" and a.get("effects"))
        rs["hooks"].append({"_": "Hook", "event": action["name"], "effects": []})

    assert "hooks, payments or phases" in _refused(hooked)


def test_arguments_the_python_engine_refuses_are_refused():
    rules = load(ROOT / "rules/longyan.pai")
    with pytest.raises(ValueError, match="not a room option"):
        _native().EngineTable(rules.ruleset_json(), {"no such option": 1})
    with pytest.raises(_native().NotCovered, match="as text"):
        _native().EngineTable(rules.ruleset_json(), {"人数": "3"})
    with pytest.raises(ValueError, match="not one of its values"):
        _native().EngineTable(rules.ruleset_json(), {"人数": 5})
    tab = _native().EngineTable(rules.ruleset_json(), {"人数": 2})
    with pytest.raises(ValueError, match="not a seat"):
        tab.setup(1, 2)
    with pytest.raises(ValueError, match="whole number"):
        tab.setup(1.5)


def test_the_equivalence_tool_checks_the_native_setup(capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location("paili_engine_equivalence", ROOT / "bench" / "engine_equivalence.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["native-setup", "--games", "5", "--configs", "longyan-2,joker"]) == 0
    out = capsys.readouterr().out
    assert "longyan-2: 5 setups, 0 different" in out and "total: 10 setups, 0 different, 0 refused" in out


def _mutated(doc: dict, rng: random.Random) -> None:
    rs = doc["ruleset"]
    k = rng.randrange(8)
    if k == 0:
        rs["table"]["hand"] = rng.choice([0, -1, 10**6, 2**70, "x", None])
    elif k == 1:
        rs["table"]["players"] = {"_": "Num", "text": str(rng.choice([0, 1, 300, 10**30, -5]))}
    elif k == 2:
        kind = rs["tiles"]["kinds"][rng.randrange(len(rs["tiles"]["kinds"]))]
        kind["copies"] = {"_": "Num", "text": str(rng.choice([0, 65, 10**9, -3]))}
    elif k == 3:
        rs["reveals"][0]["offset"] = rng.choice([-1, 10**9, 500])
    elif k == 4:
        rs["table"]["dealer_extra"] = rng.choice([-1, 300, 10**12])
    elif k == 5:
        rs["table"]["exhaust_at"] = rng.choice([-5, 10**9, 200])
    elif k == 6:
        state = rs["states"][rng.randrange(len(rs["states"]))]
        one, zero = {"_": "Num", "text": "1"}, {"_": "Num", "text": "0"}
        state["init"] = {"_": "Binary", "op": "//", "left": one, "right": zero}
    else:
        rs["actions"] = rng.choice([[], None, "x", [{"on": "draw", "compulsory": True, "effects": [
            {"op": "add", "target": ["actor", "nope"], "value": {"_": "Num", "text": "1"}}]}]])


def test_a_mutated_rule_set_is_refused_in_one_sentence_never_a_panic():
    """Compiled rule sets come from strangers: sizes past the limits, malformed records and expressions
    the port does not evaluate are each a ValueError (NotCovered among them), never the core failing."""
    base = load(ROOT / "rules/longyan.pai").ruleset_json()
    rng = random.Random(3)
    outcomes = set()
    for i in range(150):
        doc = json.loads(base)
        _mutated(doc, rng)
        try:
            _native().EngineTable(json.dumps(doc, ensure_ascii=False), {}).setup(i)
            outcomes.add("set up")
        except _native().NativeError:
            raise
        except ValueError as exc:
            assert str(exc).count(". ") == 0 and len(str(exc)) < 200
            outcomes.add("refused")
    assert outcomes == {"set up", "refused"}
