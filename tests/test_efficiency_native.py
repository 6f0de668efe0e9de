"""The efficiency bot natively: its measure (engine/distance.rs `DistanceTables`, the seam in
runtime/distance.py) gives the same distances, settled distances and wanted tiles as the reference on
seeded hands of every bundled variant and bench/rules/joker.pai, with and without a floor on the groups'
worth, and a hand past the native tables' packed keys is answered by the reference and counted; its
choice (engine/bots.rs, the seam in runtime/game/native_bot.py) is the reference policy's at every
decision of seeded games; `paili simulate` games with efficiency bots write the same logs and summary on
both backends (bench/bot_backends.py runs 1,000 games a configuration); data out of range is refused."""
from __future__ import annotations

import random

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.distance import Distance
from paili.runtime.game import Game
from paili.runtime.game.bots import EfficiencyBot, measure_fallbacks, set_partners
from paili.runtime.game.group_values import value_floor, valued_kinds
from paili.runtime.game.native_bot import encoding
from paili.runtime.game.session import Session
from paili.runtime.game.simulate import play_games, seeds_of, summarize

pytestmark = pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                                "without a Rust toolchain): there is no native side to compare")

NAMES = ["baijindao", "baicheng", "longyan", "guobiao", "chehuzi", "joker"]
_RULES: dict = {}


def rules(name: str, which: str = "native"):
    key = (name, which)
    if key not in _RULES:
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        _RULES[key] = load(path, backend=which)
    return _RULES[key]


def pair(name: str, floor: bool) -> tuple[Distance, Distance]:
    """The measure twice over the native backend's decomposer: natively, and with the reference answering."""
    r = rules(name)
    cat, dec = r.catalog_for({})
    f = value_floor(r)
    if floor:
        def make():
            return Distance(r.forms, dec, values=f and f[1], floor_forms=f[2] if f else ())
    else:
        def make():
            return Distance(r.forms, dec, valued_kinds(r.ir))
    nat, ref = make(), make()
    ref.native = None
    return nat, ref


def hands(dist: Distance, n: int, seed: int):
    """Seeded hands of sizes some form measures (or one tile over, as before a discard), with wildcards,
    melds laid down and a worth still needed."""
    cat = dist.dec.cat
    deck = [k.index for k in cat.kinds if k.category != "flower" for _ in range(k.copies)]
    rng = random.Random(seed)
    made = 0
    while made < n:
        melds = rng.randrange(5)
        wilds = rng.choice([0, 0, 0, 1, 2])
        fits = [s for s in range(1, 31) if dist.targets(melds, s)]
        if not fits:
            continue
        size = max(0, rng.choice(fits) + rng.choice([0, 0, 1]) - wilds)
        counts = [0] * dist.n
        for k in rng.sample(deck, size):
            counts[k] += 1
        made += 1
        yield counts, wilds, melds, rng.choice([0, 0, 3, 6, 9, 12, 15, 20, 30])


@pytest.mark.parametrize("floor", [True, False], ids=["floor", "valued"])
@pytest.mark.parametrize("name", NAMES)
def test_native_measure_answers_as_the_reference(name, floor):
    nat, ref = pair(name, floor)
    assert nat.native is not None  # the native backend's decomposer: the native tables answer
    measured = wanted = 0
    n = 60 if name == "chehuzi" else 150  # its floored tables are the reference's slowest
    for counts, wilds, melds, need in hands(nat, n, 17):
        for ask in ("distance", "settled", "improving"):
            got = getattr(nat, ask)(list(counts), wilds, melds, need)
            want = getattr(ref, ask)(list(counts), wilds, melds, need)
            assert (list(got) if ask == "improving" else got) == (list(want) if ask == "improving" else want), \
                (name, ask, counts, wilds, melds, need)
        d = ref.distance(counts, wilds, melds, need)
        measured += d < 99
        wanted += bool(ref.improving(counts, wilds, melds, need)[1])
    assert nat.fallbacks == 0
    assert measured > n // 2 and wanted > n // 2  # most of the sample reaches the tables


def test_a_hand_past_the_packed_keys_is_answered_by_the_reference():
    nat, ref = pair("chehuzi", True)
    cat = nat.dec.cat
    k = next(k.index for k in cat.kinds if k.category != "flower")
    counts = [0] * nat.n
    counts[k] = 16  # more of a kind than the native keys hold (4 bits a kind)
    size = next(s for s in range(16, 40) if nat.targets(0, s))
    other = next(i for i, kk in enumerate(cat.kinds) if i != k and kk.category != "flower")
    counts[other] = size - 16
    assert nat.distance(counts, 0, 0, 6) == ref.distance(counts, 0, 0, 6)
    assert nat.improving(counts, 0, 0, 6) == ref.improving(counts, 0, 0, 6)
    assert nat.fallbacks == 2


def test_the_python_backend_measures_in_python():
    r = rules("baijindao", "python")
    cat, dec = r.catalog_for({})
    assert Distance(r.forms, dec).native is None


@pytest.mark.parametrize("name,options,games", [("baijindao", {}, 4), ("baicheng", {}, 4), ("longyan", {"人数": 3}, 3),
                                                ("chehuzi", {}, 2), ("guobiao", {}, 3), ("joker", {}, 4)])
def test_simulate_writes_the_same_logs_on_both_backends(name, options, games, tmp_path):
    seeds = seeds_of(games, 5)
    parts, logs = {}, {}
    for which in ("python", "native"):
        d = tmp_path / which
        parts[which] = summarize([play_games(rules(name, which), seeds, "efficiency", options, d)], games,
                                 "efficiency", 1.0)
        logs[which] = {p.name: p.read_bytes() for p in sorted(d.iterdir())}
    assert len(logs["native"]) == games and logs["native"] == logs["python"]
    # (the native backend plays them on the native simulate path, logs included: its own keys besides)
    assert parts["native"].pop("native_hands") + parts["native"].pop("native_fallbacks") == games
    parts["native"].pop("native_refusals")
    assert parts["native"] == parts["python"]
    assert measure_fallbacks(rules(name).ir) == 0


CONFIGS = [("baijindao", {}), ("baicheng", {}), ("longyan", {"人数": 4}), ("longyan", {"人数": 2}), ("chehuzi", {}),
           ("guobiao", {}), ("joker", {})]


@pytest.mark.parametrize("name,options", CONFIGS)
def test_the_native_policy_makes_every_choice_of_the_reference(name, options):
    """At every decision of seeded games on the native backend, the native policy and the reference policy
    (each bot with its own state, as `simulate` seeds it) choose the same move; the game goes on with it."""
    r = rules(name)
    decisions = 0
    for _, seed in seeds_of(3, 11):
        g = Session(r, options, seed, 1).new_hand()
        mine = [EfficiencyBot(seed * 31 + i) for i in range(g.n)]
        ref = [EfficiencyBot(seed * 31 + i) for i in range(g.n)]
        for b in ref:
            b.native = False
        while not g.is_over():
            seat = g.current_seats()[0]
            legal = g.legal_moves(seat)
            got, want = mine[seat].choose(g, seat, legal), ref[seat].choose(g, seat, legal)
            assert got == want and mine[seat].gated == ref[seat].gated, (name, seed, seat, legal)
            decisions += 1
            g.apply(seat, want)
        assert any(b.state(g).policy is not None for b in mine)  # the native policy chose
    assert decisions > 40


def test_the_native_policy_refuses_data_out_of_range():
    r = rules("baijindao")
    g = Game(r, {}, 3)
    enc = encoding(g, set_partners(g.rs))
    bot = EfficiencyBot(0)
    policy = backend.native_module().EfficiencyPolicy()
    n = len(g.cat.kinds)
    move = (False, False, False, True, False, False, False, -1, [n])  # a discard of a kind past the catalog
    with pytest.raises(ValueError, match="out of range"):
        policy.choose(enc.rules, [0], [], -1, [], -1, g.n, [move], None, bot.measure(g), bot.value_measure(g))
    with pytest.raises(ValueError, match="out of range"):
        policy.choose(enc.rules, [n + 5], [], -1, [], -1, g.n, [(False,) * 7 + (-1, [])], None, bot.measure(g),
                      bot.value_measure(g))


def test_native_tables_hand_back_what_they_do_not_hold():
    """One kind, groups of one tile: a form of 5,000 meld slots needs a table of 5,001 entries, past what
    the native tables hold, so they answer None (the Python `Distance` then answers); a count past 15 the
    same; a small form is answered."""
    mod = backend.native_module()
    parts = [[[([(0, 1)], 1, False, 0)]]]

    def tables(melds):
        return mod.DistanceTables([False], [4], [[0]], parts, None, [1], [2], 1, 0, False,
                                  [(melds, (0, 0), None, False, [], True)])
    assert tables(5000).distance([3], 4996, 0, 0) is None
    assert tables(4).distance([3], 0, 0, 0) == 1  # three of the four slots filled: one tile short
    assert tables(4).improving([3], 0, 0, 0) == (1, [0])
    assert tables(17).distance([16], 0, 0, 0) is None
    with pytest.raises(ValueError, match="out of its block"):
        mod.DistanceTables([False], [4], [[0]], [[[([(1, 1)], 1, False, 0)]]], None, [1], [2], 1, 0, False, [])
