"""The native legal moves (runtime/native/src/engine/offers.rs and its neighbours; docs/engine-native.md
step 6) against the reference: at every decision of seeded games, the options of every seat asked,
worked out natively from the state and the decision, equal `Game.legal_moves` (the same moves in the same
order); hand-made decisions (a restricted discard, a wildcard barred from a meld, a computed choice list,
a compulsory claim); the refusals by name. bench/engine_equivalence.py native-offers runs 1,000 games per
configuration."""
from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from paili import load
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native import table
from paili.runtime.game.native_offers import NOT_PORTED, OffersCheck, Tally, decision_of, plain_move
from paili.runtime.game.native_scope import native_snapshot, set_scoring
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

CONFIGS = ENGINE_CONFIGS
# the only refusal the bundled rule sets may meet: a win's guard reading the reading of the win
READING = "the native game scope does not evaluate a reading of a win yet"


def _play(rules, options, seed, check: OffersCheck, tally: Tally) -> None:
    g = Session(rules, options, seed, 1).new_hand()
    bots = [BOTS["random"](seed * 31 + i) for i in range(g.n)]
    while not g.is_over():
        check.check(g, tally)
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))


@pytest.mark.parametrize("path, options", CONFIGS, ids=[f"{p.split('/')[-1]}-{o}" for p, o in CONFIGS])
def test_the_native_legal_moves_equal_the_reference_at_every_decision(path, options):
    rules = load(ROOT / path)
    check = OffersCheck(rules, options)
    tally = Tally()
    for seed in (3, 1234567):
        _play(rules, options, seed, check, tally)
    assert tally.differences == []
    assert tally.stops == 0
    assert set(tally.refused) <= {READING}, tally.refused
    assert tally.compared >= 0.9 * tally.decisions and tally.moves > tally.compared


# ------------------------------------------------------------------ hand-made decisions

HEAD = """variant 手 "手造" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 }; honor 白 { code "5z" } }
table { players 2; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
action 自摸 { on draw; by self; wins true; win_tile drawn }
payment 胡 { on win; amount = score }
"""
# dealt in play order from the dealer (seat 0): its 4 tiles, seat 1's 4, its extra tile, then the draws
WALL = "1m 1m 5m 5z 5z 5z 4s 7m 5s 2m 3m 6m 8m 2s 3s 4m 6s 8s".split()


def _rules(body: str) -> Rules:
    res = compile_text(HEAD + body, "手.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def _same(check: OffersCheck, g: Game) -> dict:
    """The native options of the decision now asked, checked equal to the reference's; returned by seat."""
    decision = decision_of(g)
    assert decision is not None
    got = check.native_options(g, decision)
    reference = {s: [plain_move(m) for m in ms] for s, ms in g.pending.options.items()}
    assert got == {"moves": reference}
    return reference


def test_a_restricted_discard_is_not_offered():
    rules = _rules("restrict 不打五 { actions [discard]; when tile.rank == 5 }\n")
    g = Game(rules, seed=1, dealer=0, wall=WALL)
    moves = _same(OffersCheck(rules), g)[0]
    assert [m[1] for m in moves if m[0] == "discard"] == [["1万"], ["白"]]  # not 5万 nor 5条


def test_a_restriction_chain_whose_first_operand_reads_no_tile_is_the_reference_s():
    """`A and B and C` parses as `(A and B) and C`: with A reading no tile, A is asked once per seat of a
    decision natively; where it is false nothing is barred, where true the tile decides."""
    for first, barred in (("len(actor.hand) > 9", False), ("len(actor.hand) > 1", True)):
        rules = _rules(f"restrict 不打五 {{ actions [discard]; when {first} and tile.rank == 5 and tile.rank > 4 }}\n")
        g = Game(rules, seed=1, dealer=0, wall=WALL)
        moves = _same(OffersCheck(rules), g)[0]
        discards = [m[1] for m in moves if m[0] == "discard"]
        assert discards == ([["1万"], ["白"]] if barred else [["1万"], ["5万"], ["5条"], ["白"]])


def test_a_wildcard_barred_from_a_meld_makes_no_claim():
    """Seat 1 holds two 白: with 白 a wildcard `no_meld [碰]`, a discarded 白 offers no pung (the reference
    asks nothing; natively the claim window has no options); without the wildcard the pung is offered."""
    body = "action 碰 { on discard; by others; forms 碰 }\n"
    wild = _rules("wild 百搭 { tiles 白; no_meld [碰] }\n" + body)
    g = Game(wild, seed=1, dealer=0, wall=WALL)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
    assert decision_of(g)["kind"] == "turn" and g.current_seats() == [1]  # no claim was asked
    assert OffersCheck(wild).native_options(g, {"kind": "claim", "seat": 0, "tile": "白"}) == {"moves": {}}
    plain = _rules(body)
    g = Game(plain, seed=1, dealer=0, wall=WALL)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
    assert _same(OffersCheck(plain), g) == {1: [["碰", ["白", "白", "白"], None, None], ["pass", [], None, None]]}


def test_a_computed_choice_list_offers_one_move_per_distinct_open_choice():
    rules = _rules("action 留 { on draw; by self; choices = distinct(actor.hand) when choice.rank > 4 }\n")
    check = OffersCheck(rules)
    g = Game(rules, seed=1, dealer=0, wall=WALL)
    assert [m[2] for m in _same(check, g)[0] if m[0] == "留"] == ["5万", "5条"]
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("1万",)))
    moves = _same(check, g)[1]  # seat 1 drew 2m: 白 白 4s 7m 2m
    assert [m[2] for m in moves if m[0] == "留"] == ["7万"]


def test_a_compulsory_claim_is_taken_without_asking():
    """A compulsory pung ranked first is taken without asking: natively the window has no options, where
    the same pung not compulsory is offered with the pass."""
    body = "action 碰 { on discard; by others; forms 碰 }\n"
    compulsory = _rules(body.replace("forms 碰", "forms 碰; compulsory true"))
    g = Game(compulsory, seed=1, dealer=0, wall=WALL)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
    assert [m.kind for m in g.st.seats[1].melds] == ["碰"]  # taken, never asked
    plain = _rules(body)
    g = Game(plain, seed=1, dealer=0, wall=WALL)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
    assert decision_of(g) == {"kind": "claim", "seat": 0, "tile": "白"}
    assert OffersCheck(compulsory).native_options(g, decision_of(g)) == {"moves": {}}
    assert [m[0] for m in _same(OffersCheck(plain), g)[1]] == ["碰", "pass"]


# ------------------------------------------------------------------ refusals by name

def test_a_guard_reading_a_wait_question_is_refused_by_name_without_the_oracle():
    rules = load(ROOT / "rules/longyan.pai")
    check = OffersCheck(rules, {"人数": 4}, questions=False)
    assert "the native game scope does not evaluate the function `group_waits_without` yet" in check.refusals()
    tally = Tally()
    _play(rules, {"人数": 4}, 3, check, tally)
    assert tally.refused["the native game scope does not evaluate the function `group_waits_without` yet"] > 0
    assert tally.differences == []


def test_a_hook_on_win_offer_refuses_the_decisions_offering_a_win():
    """A hook on `win_offer` changes the state while the moves are worked out (step 3's): a decision
    offering a win is refused by name; one offering none is still compared."""
    rules = _rules("state player 提示 int = 0\non win_offer {\n  set actor.提示 = actor.提示 + 1\n}\n")
    check = OffersCheck(rules)
    # seat 1 holds 2m 3m 4s 4s and draws 4m: a self-drawn win
    g = Game(rules, seed=1, dealer=0, wall="1m 1m 5m 5z 2m 3m 4s 4s 5s 4m".split() + WALL[10:])
    tally = Tally()
    check.check(g, tally)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
    assert any(m.action == "自摸" for m in g.legal_moves(1))
    check.check(g, tally)
    assert tally.compared == tally.equal == 1
    assert tally.refused == {"the native legal moves do not take hooks on `win_offer` yet": 1}


def test_a_decision_the_port_does_not_read_is_counted_and_a_malformed_one_refused():
    rules = _rules("")
    check = OffersCheck(rules)
    g = Game(rules, seed=1, dealer=0, wall=WALL)
    tally = Tally()
    g.pending_steps[-1].name = "no such step"  # a decision the check cannot read: counted, not compared
    check.check(g, tally)
    assert tally.refused == {NOT_PORTED: 1} and tally.compared == 0
    snap = json.dumps(g.st.snapshot(), ensure_ascii=False)
    for bad, why in (("{", "not JSON"), ('{"kind": "turn"}', "seat"), ('{"kind": "claim", "seat": 0, "tile": "x"}',
                                                                         "tile"), ('{"kind": "nothing"}', "kind")):
        with pytest.raises(ValueError, match=why) as exc:
            check.native.legal_moves(snap, bad, None)
        assert "\n" not in str(exc.value)


# ------------------------------------------------------------------ the wins answered natively

def _native_rules(path: str):
    # the whole-hand scoring the native wins are handed is the native backend's (under
    # PAILI_BACKEND=python too)
    return load(ROOT / path, backend="native")


@pytest.mark.parametrize("path", ["rules/baijindao.pai", "rules/guobiao.pai"])
def test_the_native_wins_equal_the_reference_at_every_decision(path):
    """Every win the legal moves ask (`StateWins`) is answered natively and equals `Game.win_offered`'s
    answer, and the options worked out with them equal the reference's."""
    rules = _native_rules(path)
    check = OffersCheck(rules, native_wins=True)
    tally = Tally()
    for seed in (3, 1234567):
        _play(rules, {}, seed, check, tally)
    assert tally.win_differences == [] and tally.differences == []
    assert tally.wins_declined == {} and tally.wins_native > 50
    assert not tally.refused  # a guard reading the win's reading (白金岛's 起始加倍 `大和`) is evaluated natively


def test_a_win_guard_reading_the_form_of_the_win_is_evaluated_natively():
    """龙岩's 自摸 and 抢杠胡 read the form (`form == "三金倒"`) and a quantity of the win they offer: with the
    native wins, a win on a hand holding no wildcard is found natively with its reading, and the guard
    evaluated on it gives the reference's options; a win on a hand holding one is declined (the reference
    answers it), and only a guard reading such a win's reading is refused, by name."""
    rules = _native_rules("rules/longyan.pai")
    check = OffersCheck(rules, native_wins=True)
    tally = Tally()
    for seed in (3, 1234567, 11, 12):
        _play(rules, {}, seed, check, tally)
    assert tally.win_differences == [] and tally.differences == [] and tally.stops == 0
    assert tally.wins_native > 20 and tally.compared > 300
    assert set(tally.refused) <= {"a reading of a win (a win found by the reference)"}


# a seed whose game reaches a hand with a win on a wait (a 国标-like minimum makes them rare)
@pytest.mark.parametrize("path, seed", [("rules/baijindao.pai", 3), ("rules/guobiao.pai", 5)])
def test_every_mode_of_a_native_win_equals_the_reference(path, seed):
    """`EngineTable.win` in each mode (drawn, claimed, revealed, none, best_wait; limited to a form) on
    every seat at every decision of a seeded game, against `Game.win_offered`: the same wins, some found."""
    rules = _native_rules(path)
    wins = table(rules, {})
    g = Session(rules, {}, seed, 1).new_hand()
    assert set_scoring(wins, g)
    bots = [BOTS["random"](seed * 31 + i) for i in range(g.n)]
    form = rules.forms[0][0].name
    found = Counter()
    while not g.is_over():
        snap = native_snapshot(g)
        for s in range(g.n):
            hand = g.st.seats[s].hand
            asks = [("none", None, ()), ("best_wait", None, ()), ("none", None, (form,)), ("drawn", hand[-1], ())]
            asks += [(m, k, ()) for m in ("claimed", "revealed") for k in g.cat.kinds[::5]]
            for mode, tile, forms in asks:
                why, got = wins.win(snap, s, mode, tile.index if tile is not None else None, list(forms))
                info = g.win_offered(s, mode, tile, forms)
                score = Fraction(info.result.score) if info is not None else None
                ref = None if info is None else (info.tile.index if info.tile is not None else None,
                                                 score.numerator, score.denominator)
                assert (why, got) == (None, ref), (s, mode, tile, forms)
                found[mode] += got is not None
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
    assert sum(found.values()) > 0


def test_a_win_on_a_hand_holding_a_wildcard_is_answered_natively():
    """风雷白城: every win the legal moves ask, hands holding a tile that may be wild (its 宝牌) included,
    answered natively (engine/winning/wild.rs) and equal to the reference's; none declined."""
    rules = _native_rules("rules/baicheng.pai")
    check = OffersCheck(rules, native_wins=True)
    tally = Tally()
    for seed in (3, 1234567):
        _play(rules, {}, seed, check, tally)
    assert tally.win_differences == [] and tally.differences == []
    assert not tally.wins_declined and tally.wins_native > 0


# ------------------------------------------------------------------ claims refused before their candidates

CLAIMS = """meld 老少 { shape ranks [1, 2, 3]; hand true }
meld 同点 { shape same_rank 3 mixed; hand true }
meld 刻 { shape same 3; hand true }
meld 明杠 { shape same 4; exposed true; kong true; upgrades [刻] }
action 吃 { on discard; by others; forms [老少, 同点]; when tile.rank != 9 }
action 杠 { on discard; by others; forms 明杠 }
"""
REST = "6m 8m 2s 3s 4m 6s 8s 7s 9s 9m 4m 4s 6m 6s".split()


def _claim(seat1: str, dealt0: str, discard: str):
    """Seat 0 (dealer) holds `dealt0` (5 tiles) and discards `discard`; seat 1 holds `seat1` (4 tiles)."""
    d0 = dealt0.split()
    rules = _rules(CLAIMS)
    g = Game(rules, seed=1, dealer=0, wall=d0[:4] + seat1.split() + d0[4:] + REST)
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == (_name(discard),)))
    return OffersCheck(rules), g


def _name(code: str) -> str:
    return "白" if code == "5z" else code[0] + {"m": "万", "s": "条"}[code[1]]


def _claimed(seat1: str, dealt0: str, discard: str) -> list:
    check, g = _claim(seat1, dealt0, discard)
    d = decision_of(g)
    if d["kind"] != "claim":  # the reference asked nothing: natively the window has no options either
        assert check.native_options(g, {"kind": "claim", "seat": 0, "tile": _name(discard)}) == {"moves": {}}
        return []
    return [(m[0], m[1]) for m in _same(check, g)[1]]


def test_a_ranks_claim_needs_the_other_ranks_of_the_tiles_suit_held():
    """`ranks [1, 2, 3]` with a claimed 1万: offered only with 2万 and 3万 held (2条 does not stand for
    2万); a claimed 4万 is of none of the ranks."""
    assert _claimed("2m 3m 5z 5z", "1m 1m 5m 5z 7s", "1m") == [("吃", ["1万", "2万", "3万"]), ("pass", [])]
    assert _claimed("2s 3m 5z 5z", "1m 1m 5m 5z 7s", "1m") == []
    assert _claimed("2m 3m 5z 5z", "4m 1m 5m 5z 7s", "4m") == []


def test_a_same_rank_claim_needs_two_more_tiles_of_the_rank():
    """`same_rank 3 mixed` with a claimed 5万: 5条 5条 or 5万 5条 held make it, one 5条 alone does not."""
    got = _claimed("5s 5s 1s 9s", "5m 1m 5m 5z 7s", "5m")
    assert got == [("吃", ["5万", "5条", "5条"]), ("pass", [])]
    got = _claimed("5s 5m 1s 9s", "5m 1m 2m 5z 7s", "5m")
    assert got == [("吃", ["5万", "5万", "5条"]), ("pass", [])]
    assert _claimed("5s 1s 7m 9s", "5m 1m 5m 5z 7s", "5m") == []


def test_a_claims_guard_refuses_before_its_later_forms_and_a_kong_needs_its_three():
    """吃's guard refuses a 9: neither its `ranks` nor its `same_rank` form is offered though both could be
    made; 明杠 on a claimed 白 needs three 白 held (it upgrades a concealed 刻), two are not enough."""
    assert _claimed("9s 9s 1s 2s", "9m 1m 5m 5z 7s", "9m") == []
    assert _claimed("5z 5z 5z 2s", "5z 1m 5m 4m 7s", "5z") == [("杠", ["白", "白", "白", "白"]), ("pass", [])]
    assert _claimed("5z 5z 1s 2s", "5z 1m 5m 4m 7s", "5z") == []


def test_the_usable_tiles_kept_for_one_barred_wildcard_are_not_lent_to_another():
    """Two wildcards, each barred from one kong kind (an upgrade of a concealed 刻, so its usable tiles are
    worked out whatever is held); seat 1 holds three of one and one of the other. The usable tiles without
    白 (kept for the first action asked) must not serve the action barring 发: three 白 held, a claimed 白
    offers 杠二 only; three 发 held, a claimed 发 杠 only."""
    body = """wild 甲 { tiles 白; no_meld [明杠] }
wild 乙 { tiles 发; no_meld [明杠二] }
meld 刻 { shape same 3; hand true }
meld 明杠 { shape same 4; exposed true; kong true; upgrades [刻] }
meld 明杠二 { shape same 4; exposed true; kong true; upgrades [刻] }
action 杠 { on discard; by others; forms 明杠 }
action 杠二 { on discard; by others; forms 明杠二 }
"""
    two = HEAD.replace('honor 白 { code "5z" }', 'honor 白 { code "5z" }; honor 发 { code "6z" }')
    res = compile_text(two + body, "手.pai")
    assert res.ok, res.render()
    rules = Rules(res.ruleset)
    for three, one, action in (("5z", "6z", "杠二"), ("6z", "5z", "杠")):
        wall = ["1m", "2m", "3m", three, three, three, three, one, "7m"] + REST
        g = Game(rules, seed=1, dealer=0, wall=wall)
        g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ({"5z": "白", "6z": "发"}[three],)))
        assert decision_of(g)["kind"] == "claim"
        assert [m[0] for m in _same(OffersCheck(rules), g)[1]] == [action, "pass"]


def test_the_kinds_kept_for_one_revealed_wildcard_are_not_lent_to_another():
    """Two revealed wildcards (白 then 发 from the tail), each barred from one pung kind: the kinds of the
    first barred set asked (碰's, the revealed 白) are kept for the decision and must not serve 碰二, which
    bars 发. Seat 1 holds two of the claimed kind: a claimed 白 offers 碰二 only, a claimed 发 碰 only."""
    body = """reveal 甲牌 { from tail }
reveal 乙牌 { from tail }
wild 甲 { tiles 甲牌; no_meld [碰] }
wild 乙 { tiles 乙牌; no_meld [碰二] }
meld 碰二 { shape same 3; exposed true }
action 碰 { on discard; by others; forms 碰 }
action 碰二 { on discard; by others; forms 碰二 }
"""
    two = HEAD.replace('honor 白 { code "5z" }', 'honor 白 { code "5z" }; honor 发 { code "6z" }')
    res = compile_text(two + body, "手.pai")
    assert res.ok, res.render()
    rules = Rules(res.ruleset)
    for three, action in (("5z", "碰二"), ("6z", "碰")):
        wall = ["1m", "2m", "3m", three, three, three, "9m", "9s", "7m"] + REST
        g = Game(rules, seed=1, dealer=0, wall=wall, tail=["6z", "5z"])
        g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ({"5z": "白", "6z": "发"}[three],)))
        assert decision_of(g)["kind"] == "claim"
        assert [m[0] for m in _same(OffersCheck(rules), g)[1]] == [action, "pass"]


def test_a_concealed_kong_needs_four_usable_tiles_of_its_kind():
    """The dealer's turn: four 1万 (or 白) held offer the concealed kong, three do not; with 白 a wildcard
    barred from the kong, four 白 offer none (natively no candidate is made where no usable kind is held
    four times). Each the reference's."""
    body = "meld 暗杠 { shape same 4; kong true }\naction 暗杠 { on turn; by self; forms 暗杠 }\n"
    for wild in ("", "wild 百搭 { tiles 白; no_meld [暗杠] }\n"):
        rules = _rules(wild + body)
        for four, name in (("1m", "1万"), ("5z", "白")):
            for n in (4, 3):
                wall = [four] * n + ["2m"] * (4 - n) + ["3m", "4m", "6m", "8m", "7m"] + REST
                g = Game(rules, seed=1, dealer=0, wall=wall)
                kongs = [m[1] for m in _same(OffersCheck(rules), g)[0] if m[0] == "暗杠"]
                assert kongs == ([[name] * 4] if n == 4 and not (wild and four == "5z") else [])


def test_an_added_kong_needs_the_pungs_kind_held_at_the_turn():
    """Seat 1 pungs a discarded 白 and draws: drawing the fourth 白 its turn offers the added kong
    (no kind is held four times: the pung it grows is what makes it possible), drawing 9条 it does not; a
    concealed kong is offered with four of a kind held. Each the reference's."""
    body = """meld 补杠 { shape same 4; exposed true; kong true; upgrades 碰 }
meld 暗杠 { shape same 4; kong true }
action 碰 { on discard; by others; forms 碰 }
action 补杠 { on turn; by self; forms 补杠 }
action 暗杠 { on turn; by self; forms 暗杠 }
"""
    rules = _rules(body)
    for draw, offered in (("5z", [("补杠", ["白"] * 4)]), ("9s", [])):
        wall = ["1m", "4m", "6m", "8m", "5z", "5z", "2m", "3m", "5z", draw] + REST
        g = Game(rules, seed=1, dealer=0, wall=wall)
        g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("白",)))
        g.apply(1, next(m for m in g.legal_moves(1) if m.action == "碰"))  # then it draws
        assert decision_of(g)["kind"] == "turn" and decision_of(g)["seat"] == 1
        kongs = [(m[0], m[1]) for m in _same(OffersCheck(rules), g)[1] if m[0] in ("补杠", "暗杠")]
        assert kongs == offered
    wall = ["1m", "1m", "1m", "1m", "6m", "5z", "2m", "3m", "4s", "7s"] + REST
    g = Game(rules, seed=1, dealer=0, wall=wall)
    kongs = [(m[0], m[1]) for m in _same(OffersCheck(rules), g)[0] if m[0] in ("补杠", "暗杠")]
    assert kongs == [("暗杠", ["1万"] * 4)]


RUNS = """meld 吃 { shape run 3; exposed true }
action 吃 { on discard; by others; forms 吃 }
"""


def _run_claims(seat1: str, wild: str = "") -> list:
    """Seat 0 (dealer) discards 3万; seat 1 holds `seat1` (4 tiles): its claims, the native's the reference's."""
    rules = _rules(wild + RUNS)
    wall = "3m 1s 7s 9s".split() + seat1.split() + ["8s"] + REST
    g = Game(rules, seed=1, dealer=0, wall=wall, tail=["2m"])
    g.apply(0, next(m for m in g.legal_moves(0) if m.tiles == ("3万",)))
    check = OffersCheck(rules)
    if decision_of(g)["kind"] != "claim":  # the reference asked nothing: natively the window has no options either
        assert check.native_options(g, {"kind": "claim", "seat": 0, "tile": "3万"}) == {"moves": {}}
        return []
    return [m[1] for m in _same(check, g)[1] if m[0] == "吃"]


def test_a_run_claim_needs_as_many_usable_kinds_of_its_suit_near_the_tile_as_it_takes():
    """A claimed 3万 makes a run with two distinct kinds of 万 within two ranks of it, held and usable:
    2万 twice is one kind, 2条 4条 are of another suit, 6万 is too far, a 2万 barred from the meld (a
    revealed wildcard) does not count. Each the reference's."""
    assert _run_claims("2m 4m 5z 5z") == [["2万", "3万", "4万"]]
    assert _run_claims("1m 2m 4m 5m") == [["1万", "2万", "3万"], ["2万", "3万", "4万"], ["3万", "4万", "5万"]]
    assert _run_claims("2m 2m 5z 5z") == []
    assert _run_claims("2s 4s 5z 5z") == []
    assert _run_claims("6m 1m 5z 5z") == []
    barred = "reveal 百搭牌 { from tail }\nwild 百搭 { tiles 百搭牌; no_meld [吃] }\n"  # 2万 from the tail
    assert _run_claims("2m 4m 5z 5z", barred) == []
    assert _run_claims("2m 4m 5m 5z", barred) == [["3万", "4万", "5万"]]


GROWS = """meld 杂 { shape tiles '1m 1s 5z'; exposed true; kong true; grows 3 }
action 亮 { on turn; by self; forms 杂; grow new }
action 补 { on turn; by self; forms 杂; grow extend }
"""


def _grown_turn(dealt0: str, wild: str = "") -> list:
    """The dealer's first turn holding `dealt0` (5 tiles): its meld actions, the native's the reference's."""
    rules = _rules(wild + GROWS)
    d0 = dealt0.split()
    g = Game(rules, seed=1, dealer=0, wall=d0[:4] + "2m 3m 4s 9s".split() + d0[4:] + REST, tail=["5z"])
    return [(m[0], m[1]) for m in _same(OffersCheck(rules), g)[0] if m[0] in ("亮", "补")]


def test_a_growing_kind_offers_new_melds_only_with_its_tiles_held_and_growths_only_on_its_melds():
    """`grow new`: the shape's three tiles held and usable (a 白 barred from the meld, a revealed wildcard,
    is not); `grow extend`: never without a meld of the kind to grow. Each the reference's."""
    assert _grown_turn("1m 1s 5z 7m 8m") == [("亮", ["1万", "1条", "白"])]
    assert _grown_turn("1m 1s 7m 7m 8m") == []
    barred = "reveal 百搭牌 { from tail }\nwild 百搭 { tiles 百搭牌; no_meld [杂] }\n"
    assert _grown_turn("1m 1s 5z 7m 8m", barred) == []
    rules = _rules(GROWS)  # the meld laid down, the turn goes on: a 1万 held grows it
    d0 = "1m 1s 5z 1m 8m".split()
    g = Game(rules, seed=1, dealer=0, wall=d0[:4] + "2m 3m 4s 9s".split() + d0[4:] + REST, tail=["5z"])
    g.apply(0, next(m for m in g.legal_moves(0) if m.action == "亮"))
    grown = [m for m in _same(OffersCheck(rules), g)[0] if m[0] in ("亮", "补")]
    assert grown == [["补", ["1万", "1万", "1条", "白"], None, None]]
