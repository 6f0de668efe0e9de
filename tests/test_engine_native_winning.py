"""The win and wait questions of the native game (runtime/native/src/engine/winning.rs; docs/engine-native.md
step 5) against the reference (runtime/game/winning.py): a seat's `waits`, `group_waits`, `waits_without`,
`group_waits_without`, `best_score`, `best_fans`, `best_tile` in game scope, and the efficiency bot's
questions (`Ask`: waits, waits without a tile, a win on a tile, the copies in sight) as
runtime/game/native_bot.py `SeatOracle` answers them — at every decision of seeded games, and on
hand-made hands; what is not answered natively is refused (at lowering) or declined (on a state) by
name. bench/engine_equivalence.py native-scope and bench/native_ask.py run 1,000 games per configuration."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native import table
from paili.runtime.game.native_ask import AskCheck, AskTally, play_checked
from paili.runtime.game.native_bot import SeatOracle
from paili.runtime.game.native_scope import ScopeCheck, Tally, moments, native_snapshot, set_scoring
from paili.runtime.game.session import Session
from paili.runtime.ir import expr as E

pytestmark = native_engine_only()

ACTOR, TILE = E.Name(name="actor", ref="builtin:actor"), E.Name(name="tile", ref="builtin:tile")


def _call(f: str, *args) -> E.Call:
    return E.Call(func=f, args=tuple(args))


WIN_QUESTIONS = [
    ("actor.waits", E.Attr(obj=ACTOR, name="waits")),
    ("actor.group_waits", E.Attr(obj=ACTOR, name="group_waits")),
    ("waits_without(actor, tile)", _call("waits_without", ACTOR, TILE)),
    ("group_waits_without(actor, tile)", _call("group_waits_without", ACTOR, TILE)),
    *((f"{f}(actor, {d})", _call(f, ACTOR, E.Bool(value=d)))
      for f in ("best_score", "best_fans", "best_tile") for d in (True, False)),
    ("waits_without(none, tile)", _call("waits_without", E.NoneLit(), TILE)),
    ("best_score(1, true)", _call("best_score", E.Num(text="1"), E.Bool(value=True))),  # a seat's number
    ("best_tile(9, true)", _call("best_tile", E.Num(text="9"), E.Bool(value=True))),  # no such seat
]


def _rules(path: str):
    # the whole-hand scoring the win questions are handed is the native backend's (under
    # PAILI_BACKEND=python too)
    return load(ROOT / path, backend="native")


def _play_scope(check: ScopeCheck, rules, options, seed: int, tally: Tally, bots: str) -> None:
    g = Session(rules, options, seed, 1).new_hand()
    players = [BOTS[bots](seed * 31 + i) for i in range(g.n)]
    while True:
        check.check(g, tally)
        if g.is_over():
            return
        seat = g.current_seats()[0]
        g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))


@pytest.mark.parametrize("path", ["rules/baijindao.pai", "rules/guobiao.pai"])
def test_the_win_questions_agree_at_every_decision(path):
    """Rule sets without wildcards: every win question lowered, evaluated natively at every decision
    (each seat as the actor) and equal to the reference's; the rule set's own expressions reading them
    too (白金岛's `waits`)."""
    rules = _rules(path)
    check = ScopeCheck(rules, {}, extra=WIN_QUESTIONS)
    first = len(check.labels) - len(WIN_QUESTIONS)
    assert check.refusals[first:] == [None] * len(WIN_QUESTIONS)
    assert all(why is None or "reading of a win" in why for why in check.refusals[:first])
    tally = Tally()
    for seed in (2, 31):
        _play_scope(check, rules, {}, seed, tally, "efficiency")
    assert tally.differences == []
    assert not tally.declined  # every hand of these games is answered natively
    assert tally.equal > 1000


# what stays declined in a rule set with wildcards or stand-ins: a hand with more free tiles than the
# native tables hold; without the signature search handed over, a hand the reference reads by signature
SIGNATURE = "a hand whose wildcards (of one kind) the reference reads by signature"
TOO_FREE = "a hand with more free tiles (wildcards, stand-ins) than the native tables hold"
WILD_DECLINES = {f"{q}: {TOO_FREE}" for q in ("waits", "waits_without", "wins")}

def _reading_names(rules) -> list[tuple[str, object]]:
    """Expressions reading the win of the moment: its form, self-draw, tiles, suits, groups (and their
    fields), every pattern's raw count and every quantity of the rule set."""
    n = lambda ref: E.Name(name=ref.split(":")[1], ref=ref)  # noqa: E731 - a name by its reference
    m = E.Name(name="m", ref="binder:m")
    out = [(ref, n(ref)) for ref in ("builtin:form", "builtin:self_drawn", "builtin:menqing", "builtin:tiles",
                                      "builtin:suits", "builtin:melds", "builtin:pairs", "builtin:pair")]
    out.append(("count(m in melds: m.triplet)", E.Comp(func="count", binders=("m",), source=n("builtin:melds"),
                                                        body=E.Attr(obj=m, name="triplet"))))
    out += [(f"pattern {p.name}", n(f"pattern:{p.name}")) for p in rules.ir.patterns]
    out += [(f"quantity {q.name}", n(f"quantity:{q.name}")) for q in rules.ir.quantities]
    return out


@pytest.mark.parametrize("path", ["rules/baijindao.pai", "rules/guobiao.pai"])
def test_a_reading_of_a_win_is_read_natively_as_the_reference_reads_it(path):
    """Game scope reading the win of the moment (the reading-scope names a payment, a hook or a guard on a
    win reads): at every decision of seeded games, each seat with a win on a wait has that win's reading
    bound (`WinInfo.reading_env`: found by the reference, and scored natively from the win); its form,
    groups, every pattern's raw count and every quantity evaluated natively equal the reference's."""
    rules = _rules(path)
    extra = _reading_names(rules)
    check = ScopeCheck(rules, {}, extra=extra)
    first = len(check.labels) - len(extra)
    assert check.refusals[first:] == [None] * len(extra)
    assert not any(check.refusals)  # the rule set's own readings of a win are lowered too
    tally, read = Tally(), 0
    for seed in (2, 31, 5, 7):
        g = Session(rules, {}, seed, 1).new_hand()
        players = [BOTS["efficiency"](seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            check.check(g, tally)
            read += sum("reading" in b for b in moments(g, True))
            seat = g.current_seats()[0]
            g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
    assert tally.differences == []
    # declined by name only: a pattern reading units (国标's), whose count only the scoring knows
    assert set(tally.declined) <= {"a pattern reading units, counted only inside the scoring"}
    assert read > 10, read  # moments with a win's reading, each evaluated with every name above
    assert tally.equal > read * len(extra) // 2


@pytest.mark.parametrize("path,options", [("rules/baijindao.pai", {}), ("rules/guobiao.pai", {}),
                                          ("rules/baicheng.pai", {}), ("rules/longyan.pai", {"人数": 4}),
                                          ("rules/longyan.pai", {"人数": 2}), ("rules/chehuzi.pai", {}),
                                          ("bench/rules/joker.pai", {})])
def test_the_bot_questions_agree_with_the_seat_oracle(path, options):
    """At every decision of seeded efficiency-bot games, the native answers to the seat's questions equal
    `SeatOracle`'s; in a rule set with wildcards or stand-ins too — its waits and its wins on hands
    holding a tile that may be wild or stand in answered natively (hands read by signature included),
    only a hand with more free tiles than the native tables hold declined, by name."""
    rules = _rules(path)
    check = AskCheck(rules, options)
    tally = AskTally()
    play_checked(rules, options, 4, check, tally, BOTS["efficiency"])
    assert tally.differences == []
    assert tally.equal > 100
    assert set(tally.declined) <= WILD_DECLINES
    if path.endswith(("baijindao.pai", "guobiao.pai", "baicheng.pai", "joker.pai")):
        assert not tally.declined
    assert sum(tally.declined.values()) < tally.equal / 100


@pytest.mark.parametrize("path,options,seed", [("rules/baicheng.pai", {}, 2), ("rules/longyan.pai", {"人数": 4}, 5),
                                               ("rules/chehuzi.pai", {}, 3)])
def test_the_win_questions_of_wildcard_rule_sets_agree_at_every_decision(path, options, seed):
    """Rule sets with wildcards or stand-ins: every win question lowered (none refused), evaluated
    natively at every decision of a seeded game (each seat as the actor) and equal to the reference's,
    the rule set's own expressions reading them too (龙岩's `group_waits`, 风雷白城's `waits_without`);
    at most a hand with more free tiles than the native tables hold declined."""
    rules = _rules(path)
    check = ScopeCheck(rules, options, extra=WIN_QUESTIONS)
    first = len(check.labels) - len(WIN_QUESTIONS)
    assert check.refusals[first:] == [None] * len(WIN_QUESTIONS)
    assert all(why is None or "reading of a win" in why for why in check.refusals[:first])
    tally = Tally()
    _play_scope(check, rules, options, seed, tally, "efficiency")
    assert tally.differences == []
    assert all(TOO_FREE in why for why in tally.declined), tally.declined
    assert tally.equal > 300


def _game(path="rules/guobiao.pai", seed=1):
    rules = _rules(path)
    g = Session(rules, {}, seed, 1).new_hand()
    t = table(rules, {})
    t.lower_scope([])
    assert set_scoring(t, g)
    return g, t


def _set_hand(g, seat: int, names: str) -> None:
    s = g.st.seats[seat]
    s.hand = [g.cat.by_name[n] for n in names.split()]
    s.version += 1  # the reference's memo is kept per seat version


def _ask(g, t, seat: int, asks: list) -> list:
    return json.loads(t.ask_seat(native_snapshot(g), seat, json.dumps(asks)))


def _idx(g, names: str) -> list[int]:
    return [g.cat.by_name[n].index for n in names.split()]


# a straight of characters, a sequence of bamboos, waiting on one dot (a single wait)
SINGLE = "一万 二万 三万 四万 五万 六万 七万 八万 九万 一条 二条 三条 五饼"
# one of each terminal and honour: completed by any of them only by the form that builds no split
ORPHANS = "一万 九万 一条 九条 一饼 九饼 东 南 西 北 白 发 中"


def test_waits_and_waits_without_on_hand_made_hands():
    g, t = _game()
    _set_hand(g, 0, SINGLE)
    seat, oracle = g.st.seats[0], SeatOracle(g, g.st.seats[0])
    assert _ask(g, t, 0, [["waits"]]) == [_idx(g, "五饼")] == [oracle.waits()]
    _set_hand(g, 0, SINGLE + " 北")  # fourteen tiles: give one up
    got = _ask(g, t, 0, [["waits_without", g.cat.by_name["北"].index, False],
                         ["waits_without", g.cat.by_name["五饼"].index, False],
                         ["waits_without", g.cat.by_name["发"].index, False]])  # not held: no waits
    assert got == [_idx(g, "五饼"), _idx(g, "北"), []]
    assert got[:2] == [[k.index for k in g.waits_without(seat, g.cat.by_name[n])] for n in ("北", "五饼")]
    _set_hand(g, 0, ORPHANS)
    by_all, by_groups = _ask(g, t, 0, [["waits"], ["waits_without", g.cat.by_name["中"].index, True]])
    assert by_all == _idx(g, ORPHANS) == [k.index for k in g.waits(seat)]  # thirteen ways
    assert by_groups == [] == g.waits_without(seat, g.cat.by_name["中"], groups=True)


def test_waits_kept_across_states_are_not_reused_for_other_melds():
    """A seat's waits are kept across states by its concealed tiles (winning/seat_memo.rs): the same
    tiles with other melds (none, another) are tried again, never answered from the kept list."""
    from paili.runtime.game.state import GMeld

    g, t = _game()
    seat = g.st.seats[0]
    ten = "一万 二万 三万 四万 五万 六万 七万 八万 九万 五饼"

    def melds(*names):
        seat.melds = [GMeld("碰", [g.cat.by_name[n]] * 3, True, 1) for n in names]
        _set_hand(g, 0, ten)

    got = []
    for ms in (("东",), (), ("东",), ("北",), ("东", "北")):
        melds(*ms)
        native = _ask(g, t, 0, [["waits"]])[0]
        assert native == [k.index for k in g.waits(seat)], ms
        got.append(native)
    assert got == [_idx(g, "五饼"), [], _idx(g, "五饼"), _idx(g, "五饼"), []]


def test_group_waits_leave_out_the_forms_that_build_no_split():
    g, t = _game()
    _set_hand(g, 1, ORPHANS)
    check = ScopeCheck(g.rules, {}, extra=WIN_QUESTIONS[:2])
    check.hand_scoring(g)
    i = len(check.labels) - 2
    asks = [[i, {"actor": {"seat": 1}}], [i + 1, {"actor": {"seat": 1}}]]
    waits, group_waits = json.loads(check.table.eval_scope(native_snapshot(g), json.dumps(asks)))
    assert [w["tile"] for w in waits] == ORPHANS.split()
    assert group_waits == [] == g.waits(g.st.seats[1], groups=True)


def test_wins_and_the_best_win_on_hand_made_hands():
    g, t = _game()
    _set_hand(g, 0, SINGLE + " 北")
    north, five, one = (g.cat.by_name[n].index for n in ("北", "五饼", "一饼"))
    oracle = SeatOracle(g, g.st.seats[0])
    asks = [["wins", north, five, True], ["wins", north, five, False], ["wins", north, one, True],
            ["wins", five, north, False]]
    got = _ask(g, t, 0, asks)
    assert got == [True, True, False, True]
    assert got == [oracle.wins(*a[1:]) for a in asks]
    _set_hand(g, 0, SINGLE)
    check = ScopeCheck(g.rules, {}, extra=WIN_QUESTIONS[4:10])
    check.hand_scoring(g)
    first = len(check.labels) - 6
    asks = [[first + k, {"actor": {"seat": 0}}] for k in range(6)]
    native = json.loads(check.table.eval_scope(native_snapshot(g), json.dumps(asks)))
    for drawn, (score, fans, tile) in ((True, native[0::2]), (False, native[1::2])):
        info = g.best_win(g.st.seats[0], drawn)
        assert tile == {"tile": "五饼", "wild": False} and info.tile.name == "五饼"
        assert score == info.result.score > 0
        assert [f["str"] for f in fans] == list(dict.fromkeys(f.pattern for f in info.result.fans))
    assert native[0] != native[1] or native[2] != native[3]  # self-drawn scores its own patterns
    _set_hand(g, 2, "一万 一万 一万 三条 五条 七条 九条 二饼 四饼 东 南 西 中")  # far from ready
    asks = [[first, {"actor": {"seat": 2}}], [first + 2, {"actor": {"seat": 2}}], [first + 4, {"actor": {"seat": 2}}]]
    assert json.loads(check.table.eval_scope(native_snapshot(g), json.dumps(asks))) == [0, [], None]


# 国标's 全不靠 (an instant form: it builds no split): 147 of characters, 258 of bamboos, 369 of dots and
# four honours, completed by any honour it does not hold
KNITTED = "一万 四万 七万 二条 五条 八条 三饼 六饼 九饼 东 南 西 北"


def test_a_win_by_an_instant_form_alone_is_found_natively():
    """A win's structural test scores the hand under the instant forms alone when it does not split (as
    `_could_win` does) before the whole hand is scored: the 全不靠 hand wins on the three honours it does not
    hold, claimed and self-drawn, and on no other tile (a second 一万 breaks it: not 14 distinct tiles);
    each answer (kept per hand, tile and self-drawn) equals the reference's, through the legal moves'
    question (`EngineTable.win`) and the bot's (`wins`)."""
    g, t = _game()
    wins = table(g.rules, {})
    assert set_scoring(wins, g)
    for drawn in (False, True):
        for _ in range(2):  # the second time from the kept answers
            found = set()
            for kind in g.cat.kinds:
                if kind.category == "flower":
                    continue
                if drawn:
                    _set_hand(g, 0, f"{KNITTED} {kind.name}")
                    mode, held = "drawn", g.st.seats[0].hand[-1]
                else:
                    _set_hand(g, 0, KNITTED)
                    mode, held = "claimed", kind
                why, got = wins.win(native_snapshot(g), 0, mode, held.index, [])
                info = g.win_offered(0, mode, held, ())
                assert why is None and (got is None) == (info is None), (drawn, kind.name)
                if got is not None:
                    found.add(kind.name)
                    assert Fraction(got[1], got[2]) == Fraction(info.result.score)
            assert found == {"白", "发", "中"}
    _set_hand(g, 0, f"{KNITTED} 北")  # one to give up
    kinds = [k.index for k in g.cat.kinds if k.category != "flower"]
    north = g.cat.by_name["北"].index
    asks = [["wins", north, k, d] for k in kinds for d in (False, True)]
    native = _ask(g, t, 0, asks)
    assert native == _oracle_answers(g, 0, asks)
    assert sorted({g.cat.kinds[a[2]].name for a, w in zip(asks, native) if w}) == ["中", "发", "白"]


def _oracle_answers(g, seat: int, asks: list) -> list:
    from paili.runtime.game.native_ask import answer

    oracle = SeatOracle(g, g.st.seats[seat])
    return [answer(oracle, a) for a in asks]


def _every_question(g, seat: int) -> list:
    held = list(dict.fromkeys(t.index for t in g.st.seats[seat].hand))
    asks = [["waits"]]
    for k in held:
        asks += [["waits_without", k, False], ["waits_without", k, True]]
        asks += [["wins", k, w, d] for w in range(len(g.cat.kinds)) for d in (False, True)]
    return asks


def test_wildcard_hands_made_by_hand_agree_with_the_reference():
    """joker.pai: a hand holding one wildcard (王) waits on whatever pairs with it, and wins on it,
    claimed and self-drawn; a hand whose wildcard is the winning tile; answered natively, equal to
    `SeatOracle`'s (and to `Game.waits`)."""
    g, t = _game("bench/rules/joker.pai")
    _set_hand(g, 0, "1万 2万 3万 4万 5万 6万 7万 8万 9万 1条 2条 3条 王")
    seat = g.st.seats[0]
    got = _ask(g, t, 0, [["waits"]])[0]
    assert got == [k.index for k in g.waits(seat)]
    assert len(got) == 34  # every kind but the wildcard pairs with it
    _set_hand(g, 0, "1万 2万 3万 4万 5万 6万 7万 8万 9万 1条 2条 3条 王 5筒")
    asks = _every_question(g, 0)
    native = _ask(g, t, 0, asks)
    assert native == _oracle_answers(g, 0, asks)  # a win on a second 王 too, read by signature
    assert True in native and False in native
    wild, five = g.cat.by_name["王"].index, g.cat.by_name["5筒"].index
    assert _ask(g, t, 0, [["wins", five, wild, False]]) == [True]  # the wildcard as the winning tile


HAND = "一万 二万 三万 五条 六条 七条 东 东 东 南 南"


def _gold_hand(rules, used, seeds: int):
    """The first seeded 4-player hand (seeds 1 .. seeds-1) whose revealed 金牌 is none of the kinds `used`
    (the test's hands hold them), with its kind and a native table scoring it."""
    for seed in range(1, seeds):
        g = Session(rules, {"人数": 4}, seed, 1).new_hand()
        gold = g.st.reveals.get("金牌")
        if gold is not None and gold.name not in used:
            break
    t = table(rules, {"人数": 4})
    t.lower_scope([])
    assert set_scoring(t, g)
    return g, gold, t


def _drawn_wins(g, t, hand: str) -> set[str]:
    """The kinds seat 1 wins on by drawing them onto `hand` natively, each answer (a win or none, and the
    win's score) asserted equal to the reference's `win_offered`."""
    seat = g.st.seats[1]
    found = set()
    for kind in g.cat.kinds:
        if kind.category == "flower":
            continue
        _set_hand(g, 1, f"{hand} {kind.name}")
        tile = seat.hand[-1]
        why, got = t.win(native_snapshot(g), 1, "drawn", tile.index, [])
        info = g.win_offered(1, "drawn", tile, ())
        assert why is None and (got is None) == (info is None), (hand, kind.name)
        if got is not None:
            found.add(kind.name)
            assert Fraction(got[1], got[2]) == Fraction(info.result.score)
    return found


def test_a_stand_in_plays_as_the_wildcard_kind_natively():
    """龙岩: 白 stands in for the kind the revealed 金牌 names (not when that is 白 itself); with one
    金 in the hand too. The waits, waits without each tile and the wins on them equal the reference's."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, HAND.split() + ["白", "九万"], 40)
    _set_hand(g, 1, f"{HAND} 白 {gold.name}")
    seat = g.st.seats[1]
    assert _ask(g, t, 1, [["waits"]])[0] == [k.index for k in g.waits(seat)] != []
    _set_hand(g, 1, f"{HAND} 白 九万 {gold.name}")  # one to give up
    asks = _every_question(g, 1)
    native = _ask(g, t, 1, asks)
    assert native == _oracle_answers(g, 1, asks)
    assert True in native


# 龙岩: eleven tiles no two of which form a group or its start (short of two blocks and more)
APART = "一万 四万 七万 一条 四条 七条 一筒 四筒 东 南 西"
# 龙岩: four melds and a single 南, waiting on it
READY = "一万 二万 三万 五条 六条 七条 一筒 二筒 三筒 东 东 东 南"


def test_a_hand_found_short_still_wins_by_the_instant_form_natively():
    """龙岩: a hand of two 金 and eleven tiles apart is found short of two blocks by its waits, kept for the
    win questions on it with one more tile (their split test is not made then); drawing the third 金 it
    still wins by the form that builds no split (three wildcards), and on no other tile. With 白 standing in
    for the 金's kind in place of one 金 it wins on none: the instant form counts wildcards, and 白 plays as
    a natural tile (the test scores no such hand). Every answer, before and after the kept ones, equals
    the reference's. Then a hand that splits with its tile on the same seat (the kept short hands are
    another's tiles) wins on it."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, APART.split() + READY.split() + ["白"], 60)
    seat = g.st.seats[1]
    cases = [(f"{APART} {gold.name} {gold.name}", {gold.name}), (f"{APART} {gold.name} 白", set()), (READY, None)]
    for hand, wins_on in cases:
        for _ in range(2):  # the second time from the kept answers
            _set_hand(g, 1, hand)
            assert _ask(g, t, 1, [["waits"]])[0] == [k.index for k in g.waits(seat)]
            found = _drawn_wins(g, t, hand)
            assert found == wins_on if wins_on is not None else "南" in found, (hand, found)


def test_what_is_not_answered_natively_is_declined_by_name():
    """A hand holding two wildcards of one kind, which the reference reads by signature: answered through
    the signature search handed over (`set_scoring`), declined by name by a table given none; a table
    without the whole-hand scoring declines every win it would score."""
    g, t = _game("bench/rules/joker.pai")
    _set_hand(g, 0, "1万 2万 3万 4万 5万 6万 7万 8万 9万 1条 2条 王 王 5筒")
    five, one = g.cat.by_name["5筒"].index, g.cat.by_name["1万"].index
    asks = [["wins", five, one, False], ["waits_without", five, False], ["visible", one]]
    assert _ask(g, t, 0, asks) == _oracle_answers(g, 0, asks)
    nh = g.rules.native_hands_for(g.cat, g.dec)
    bare = table(g.rules, {})
    bare.set_scoring(nh.hands_native, list(nh.form_positions(g.rules)),
                     lambda kind, kinds: nh.batch_meld(g.rules, g.cat, kind, kinds), nh.group_info_for(g.rules, g.cat))
    got = _ask(g, bare, 0, asks)
    assert got[0] == f"declined: {SIGNATURE}"
    assert got[1:] == _oracle_answers(g, 0, asks)[1:]  # joker.pai's waits: by structure, no signature read
    g, _ = _game()
    bare = table(g.rules, {})
    _set_hand(g, 0, SINGLE + " 北")
    north, five = g.cat.by_name["北"].index, g.cat.by_name["五饼"].index
    assert _ask(g, bare, 0, [["wins", north, five, True], ["waits_without", north, False]]) == [
        "declined: no native scoring of whole hands", _idx(g, "五饼")]


def test_ask_seat_refuses_malformed_questions():
    g, t = _game()
    snap = native_snapshot(g)
    for bad in ([["waits_without", 10_000, False]], [["wins", 0, 1]], [["nothing"]], [["visible", -1]]):
        with pytest.raises(ValueError):
            t.ask_seat(snap, 0, json.dumps(bad))
    with pytest.raises(ValueError, match="seat"):
        t.ask_seat(snap, 9, "[]")
    nh = g.rules.native_hands_for(g.cat, g.dec)
    with pytest.raises(ValueError, match="form position"):
        t.set_scoring(nh.hands_native, [len(g.rules.ir.forms)], lambda kind, kinds: False)


# 龙岩 hands of thirteen tiles by their blocks: one block changed from one to the next (its tile count the
# same), the others as they were
BLOCKS_SHORT = "一万 二万 四万 五条 六条 七条 一筒 二筒 三筒 东 东 东 南"  # 万 and the honours split by none
BLOCKS_READY = "一万 二万 三万 五条 六条 七条 一筒 二筒 三筒 东 东 东 南"  # 万 mended: waits on 南
BLOCKS_SHORT_2 = "一万 二万 三万 五条 六条 八条 一筒 二筒 三筒 东 东 东 南"  # 条 and the honours
BLOCKS_READY_2 = "一万 二万 三万 五条 六条 七条 一筒 二筒 三筒 东 东 东 西"  # 条 and the honours changed


def test_the_not_ready_check_asks_again_the_blocks_whose_tiles_changed():
    """The not-ready check keeps each seat's blocks (their tile counts) and how far each is from splitting,
    and asks the tables only for the blocks whose tiles changed: a hand found short of two blocks whose one
    block is then mended — the same number of tiles in it, other kinds — waits on its tile, as the
    reference says; answered from the kept block (or the kept shortfall) it would wait on none. Seats keep
    their own blocks."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, (BLOCKS_SHORT + " " + BLOCKS_SHORT_2 + " 西 白").split(), 60)
    steps = [(1, BLOCKS_SHORT, []), (2, BLOCKS_READY, ["南"]), (1, BLOCKS_READY, ["南"]),
             (2, BLOCKS_SHORT_2, []), (1, BLOCKS_SHORT_2, []), (1, BLOCKS_READY_2, ["西"]),
             (2, BLOCKS_READY_2, ["西"]), (1, BLOCKS_SHORT, [])]
    for s, hand, waits in steps:
        _set_hand(g, s, hand)
        got = _ask(g, t, s, [["waits"]])[0]
        assert got == [k.index for k in g.waits(g.st.seats[s])], (s, hand)
        assert got == _idx(g, " ".join(waits)), (s, hand, got)


def test_a_single_stand_in_waits_on_the_free_kinds_natively():
    """龙岩: four melds and a single 白 (standing in for the 金牌's kind, a natural tile in the readings) wait
    on the 金牌's kind and on 白: both are free tiles in the split test, whose answer with one more free tile
    is known from a kind that completes the hand naturally (wildcards play any kind in any group), not
    asked of the tables. With the single 白 replaced by 南 the hand waits on 南 alone. Each as the reference
    says; a free tile's split test answered no would lose both waits."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, (BLOCKS_READY + " 白").split(), 60)
    seat = g.st.seats[1]
    melds = BLOCKS_READY.rsplit(" ", 1)[0]
    for hand, expect in ((f"{melds} 白", {gold.name, "白"}), (BLOCKS_READY, {"南"})):
        _set_hand(g, 1, hand)
        got = _ask(g, t, 1, [["waits"]])[0]
        assert got == [k.index for k in g.waits(seat)], hand
        names = {g.cat.kinds[k].name for k in got}
        assert names == expect, (hand, names)


def test_group_waits_with_two_stand_ins_are_the_readings_not_the_free_split_natively():
    """龙岩: three melds, a pair of 东 and two 白 (standing in for the 金牌's kind), by the forms that split a
    hand into groups. `_could_win` counts the 白 free, so one more tile of any kind passes its split test; the
    readings play them as the 金牌's kind, so only 东, the 金牌's kind and 白 (a natural tile there, playing
    that kind) complete the hand. Answered before the readings by their own split test for every other
    kind; each answer the reference's. With 南 for the two 白 the hand waits on 东 and 南 (no stand-in: the
    readings' tiles are the split test's)."""
    rules = _rules("rules/longyan.pai")
    melds = "一万 二万 三万 五条 六条 七条 一筒 二筒 三筒 东 东"
    g, gold, t = _gold_hand(rules, (melds + " 白 南 西").split(), 60)
    seat = g.st.seats[1]
    for hand, expect in ((f"{melds} 白 白 西", {"东", gold.name, "白"}), (f"{melds} 南 南 西", {"东", "南"})):
        _set_hand(g, 1, hand)
        got = _ask(g, t, 1, [["waits_without", g.cat.by_name["西"].index, True]])[0]
        assert got == [k.index for k in g.waits_without(seat, g.cat.by_name["西"], groups=True)], hand
        assert {g.cat.kinds[k].name for k in got} == expect, hand


# 龙岩: one of each terminal and honour (十三幺's kinds)
LY_ORPHANS = "一万 九万 一条 九条 一筒 九筒 东 南 西 北 白 发 中"


def test_a_short_hand_without_melds_wins_by_the_orphans_form_only_when_its_tiles_are_orphans_natively():
    """龙岩: a hand without melds short of two blocks may still win by the form that builds no split (十三幺):
    the thirteen orphans win on each of them drawn; with 二万 for 中 no tile drawn wins — the win's shortcut
    reads that a natural tile is no orphan (and that the hand holds too few 金 for 三金倒) before any
    structural test. Every answer equals the reference's."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, LY_ORPHANS.split() + ["二万"], 60)
    seat = g.st.seats[1]
    assert not seat.melds
    for hand, wins in ((LY_ORPHANS, True), (LY_ORPHANS.replace("中", "二万"), False)):
        found = _drawn_wins(g, t, hand)
        if wins:
            assert set(LY_ORPHANS.split()) <= found, found
        else:
            assert found == set(), found


# 龙岩: three melds, a pair of 东 and a single 南 beside one free tile (the 金): the honours' block does not
# split alone, the free tile mends it; 一万 more leaves the characters' block unsplit too
GOLD_SHORT = "一万 二万 三万 五条 六条 七条 一筒 二筒 三筒 东 东 南"


def test_waiting_on_every_kind_is_answered_by_a_kind_the_blocks_rule_out_as_the_reference_says():
    """龙岩's phases ask `len(actor.group_waits) == table.牌种数` (waits on every kind) after each discard: one
    kind the hand's blocks rule out decides it (more blocks that do not split alone than free tiles with
    that kind added), before any trial. Four melds and a single 南 (no free tile: a kind of another block
    is ruled out at once), three melds with 东 东 南 and a 金 (one lookup: the characters' block with 一万
    more), each no; four melds and a single 金 (nothing ruled out: the walk in order) waits on every
    kind. Each comparison equals the reference's, natively."""
    rules = _rules("rules/longyan.pai")
    g, gold, t = _gold_hand(rules, (READY + " " + GOLD_SHORT).split() + ["白"], 60)
    every = E.Compare(ops=("==",), operands=(E.Call(func="len", args=(E.Attr(obj=ACTOR, name="group_waits"),)),
                                             E.Num(text="34")))
    check = ScopeCheck(rules, {"人数": 4}, extra=[("len(actor.group_waits) == 34", every)])
    check.hand_scoring(g)
    i = len(check.labels) - 1
    assert check.refusals[i] is None
    melds = READY.rsplit(" ", 1)[0]
    cases = ((READY, False), (f"{GOLD_SHORT} {gold.name}", False), (f"{melds} {gold.name}", True))
    for hand, expect in cases:
        _set_hand(g, 1, hand)
        got = json.loads(check.table.eval_scope(native_snapshot(g), json.dumps([[i, {"actor": {"seat": 1}}]])))[0]
        ref = len(g.waits(g.st.seats[1], groups=True)) == 34
        assert got == ref == expect, (hand, got, ref)
