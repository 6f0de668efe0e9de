"""The hand played natively (runtime/native/src/engine/steps.rs, turn.rs, claims.rs, ending.rs,
hand_binding.rs; docs/engine-native.md, steps 4 and 7) against the reference: seeded games of every
configuration driven move by move on both engines (runtime/game/native_play.py), the state, the
continuation and the decision compared at every point until the native hand's first refusal; the
continuation's JSON at the first decision; an illegal move refused with the state unchanged.
bench/engine_equivalence.py `native-play` runs the same over 1,000 games per configuration."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from native_lockstep import lockstep
from paili import load
from paili.dsl.compiler import compile_text
from paili.runtime.game import steps
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_offers import plain_move
from paili.runtime.game.native_play import PlayCheck, PlayTally, difference, text
from paili.runtime.game.native_scope import set_scoring
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

IDS = [f"{p.split('/')[-1]}-{'-'.join(f'{k}{v}' for k, v in o.items())}" for p, o in ENGINE_CONFIGS]


# the whole-hand scoring the native hand's win questions are handed is the native backend's (under
# PAILI_BACKEND=python too: the reference game plays the same either way)


def _bots(seed):
    return lambda g: [BOTS["random"](seed * 31 + i) for i in range(g.n)]


def _started(path: str, options: dict, seed: int):
    """A reference game and the native hand beside it, both at their first decision."""
    check = PlayCheck(load(ROOT / path, backend="native"), options)
    session = Session(check.rules, options, seed, 1)
    g = session.new_hand()
    set_scoring(check.hand, g)
    check.hand.start(g.seed, None, None)
    return g, check.hand


@pytest.mark.parametrize("path,options", ENGINE_CONFIGS, ids=IDS)
def test_games_played_natively_equal_the_reference(path, options):
    """Three seeded games per configuration: every point compared before the first refusal is equal."""
    check = PlayCheck(load(ROOT / path, backend="native"), options)
    tally = PlayTally()
    for seed in (11, 12, 13):
        check.play(seed, _bots(seed), tally)
    assert tally.differences == []
    assert tally.games == 3
    # every game either played to its end natively or stopped by a sentence naming what is not ported
    assert tally.over + sum(tally.refused.values()) == 3
    assert all(why for why in tally.refused)


@pytest.mark.parametrize("path,options", ENGINE_CONFIGS, ids=IDS)
def test_first_decision_continuation_is_the_references(path, options):
    """At the first decision the native continuation is the reference's, byte for byte (or the hand stops
    before it with a sentence naming what is not ported)."""
    for seed in (5, 6):
        g, hand = _started(path, options, seed)
        if hand.refused() is not None:
            assert "native" in hand.refused()
            continue
        got = json.loads(hand.snapshot())["continuation"]
        assert text(got) == text(steps.continuation(g))
        assert got[0]["step"] == "hand"
        assert difference(g, hand) is None


def test_some_configurations_play_whole_hands_natively():
    """国标 and joker.pai hands (no win taken) are played to their end natively: exhaustion, the hand's
    end events and the next dealer as the reference has them."""
    for path in ("rules/guobiao.pai", "bench/rules/joker.pai"):
        check = PlayCheck(load(ROOT / path, backend="native"), {})
        tally = PlayTally()
        for seed in (1, 2, 3, 4):
            check.play(seed, _bots(seed), tally)
        assert tally.differences == []
        assert tally.over >= 1
        assert tally.moves > 100


def test_an_illegal_move_is_refused_and_nothing_changes():
    g, hand = _started("rules/guobiao.pai", {}, 7)
    assert hand.refused() is None
    before = hand.snapshot()
    seat = g.current_seats()[0]
    assert hand.current_seats() == [seat]
    other = (seat + 1) % g.n
    held = g.st.seats[seat].hand[0].name
    not_held = next(k.name for k in g.cat.kinds if k not in g.st.seats[seat].hand)
    for who, move, words in [
        (seat, ["discard", [not_held], None, None], "not a legal move"),
        # an action the rule set does not declare is named as it was given (moves carry actions by id)
        (seat, ["no such action", [held], None, None], re.escape(f"`no such action {held}` is not a legal move")),
        (other, ["discard", [held], None, None], "may not act now"),
        (seat, ["discard", ["no such tile"], None, None], "tiles of this rule set"),
        (seat, "not json", "a move is"),
    ]:
        with pytest.raises(ValueError, match=words):
            hand.apply(who, move if isinstance(move, str) else json.dumps(move, ensure_ascii=False))
        assert hand.snapshot() == before
        assert hand.current_seats() == [seat]
    # the legal move is taken, and the reference agrees after it
    mv = g.legal_moves(seat)[0]
    g.apply(seat, mv)
    hand.apply(seat, text(plain_move(mv)))
    assert hand.snapshot() != before
    assert difference(g, hand) is None


def test_legal_moves_and_pending_are_the_references():
    g, hand = _started("rules/baijindao.pai", {}, 3)
    seat = g.current_seats()[0]
    assert json.loads(hand.legal_moves(seat)) == [plain_move(m) for m in g.legal_moves(seat)]
    assert json.loads(hand.legal_moves((seat + 1) % g.n)) == []
    p = json.loads(hand.pending())
    assert p["kind"] == g.pending.kind and p["decision"] == 1
    assert not hand.is_over()


def test_a_hand_not_started_is_refused():
    check = PlayCheck(load(ROOT / "rules/guobiao.pai", backend="native"), {})
    with pytest.raises(ValueError, match="not started"):
        check.hand.snapshot()
    with pytest.raises(ValueError, match="not started"):
        check.hand.apply(0, json.dumps(["pass", [], None, None]))


def _played(path: str, seed: int):
    """A seeded game (random bots) played by the reference with the native hand beside it, compared at
    every point (state with its payments, continuation, decision); the reference game and the native hand."""
    check = PlayCheck(load(ROOT / path, backend="native"), {})
    session = Session(check.rules, {}, seed, 1)
    g = session.new_hand()
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(g.seed, session.dealer, session.balances)
    players = _bots(seed)(g)
    discarder = None
    while True:
        assert hand.refused() is None
        assert difference(g, hand) is None
        if g.is_over():
            return g, hand, discarder
        seat = g.current_seats()[0]
        mv = players[seat].choose(g, seat, g.legal_moves(seat))
        if mv.action == "discard":
            discarder = seat
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))


WIN_RULES = "tests/rules/best_wait_pay.pai"  # wins claimed and self-drawn, paid `on win`, next_dealer the winner


@pytest.mark.parametrize("seed,self_drawn", [(1, False), (6, True), (27, True), (89, False)])
def test_a_won_hand_is_played_natively_to_its_end(seed, self_drawn):
    """A hand won by a claim on a discard, and one won on a self-drawn tile: played natively to the end,
    equal to the reference at every point — the winner, the discarder, the win's payments (its final
    score), the hand's end events and the next dealer (the winner)."""
    g, hand, last_discarder = _played(WIN_RULES, seed)
    assert hand.is_over()
    state = json.loads(hand.snapshot())["state"]
    (w,) = g.st.winners
    assert state["winners"] == [w] and state["finished"] and not state["exhausted"]
    assert g.st.results[w]["self_drawn"] is self_drawn
    score = g.st.results[w]["score"]
    wins = [p for p in state["payments"] if p["event"] == "win"]
    assert [(p["payee"], p["amount"]) for p in wins] == [(w, score)] * (g.n - 1)
    assert sorted(p["payer"] for p in wins) == [s for s in range(g.n) if s != w]
    assert state["next_dealer"] == w
    assert state["events"]["hand_end"] == 1 and state["events"]["settled"] == 1
    if not self_drawn:
        # the discarder is the seat whose discard was claimed (seed 89: the same tile was passed on
        # another seat's discard first — the win found then is not the one claimed)
        assert state["discarder"] == last_discarder != w


def test_a_guobiao_hand_won_natively_pays_by_its_reading():
    """A 国标 hand won by a claim, played natively to its end: the payment `8 + score` from the discarder
    and 8 from the others reads the win's `self_drawn` and its discarder, as the reference pays it."""
    g, hand, last_discarder = _played("rules/guobiao.pai", 80)
    assert hand.is_over()
    state = json.loads(hand.snapshot())["state"]
    (w,) = g.st.winners
    assert not g.st.results[w]["self_drawn"] and state["discarder"] == last_discarder
    score = g.st.results[w]["score"]
    paid = {p["payer"]: p["amount"] for p in state["payments"] if p["event"] == "win"}
    assert paid == {s: 8 + (score if s == last_discarder else 0) for s in range(g.n) if s != w}


def test_claims_after_a_discard_with_and_without_an_own_declaration():
    """The others' claims on a discard are worked out with the discarder's own declarations when none is
    offered (one decision's work on one state); where one is offered (白金岛's 报听/立直 on a discard
    into a ready hand) they are worked out again after it is declared or passed. Seeds 2 and 22 play both
    (报听 declared, then passed, before a claim on the same discard): every point equals the reference."""
    check = PlayCheck(load(ROOT / "rules/baijindao.pai", backend="native"), {})
    seen = Counter()
    for seed in (2, 22):
        before = None
        for _g, p, _seat, _moves, mv in lockstep(check, seed, _bots(seed)):
            now = (p["kind"], p["event"])
            if now == ("claim", "discard") and before is not None:
                seen[before] += 1
            before = (now[0], mv.action) if now == ("self", "discard") else now
    # a claim after a turn's discard (no own declaration), after 报听 declared, after it was passed
    assert seen[("turn", "turn")] >= 5
    assert seen[("self", "报听")] >= 2
    assert seen[("self", "pass")] >= 1


LOCK = """variant 锁 "锁测试" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..5 } }
table { players 2; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
state table 锁 bool = false
action 自摸 { on draw; by self; wins true; win_tile drawn }
action 碰 { on discard; by others; forms 碰; then discard }
action 锁 { on discard; by self; when not table.锁; effect { set table.锁 = true } }
restrict 锁后不碰 { actions [碰]; when table.锁 }
"""


def test_claims_are_not_kept_across_an_own_declaration():
    """An own declaration on a discard (锁) that bars the others' claim on it (碰): declared while the
    other seat holds a pair of the discarded tile, no claim is offered — the claims worked out before the
    declaration (which offered 碰) must not be the ones asked. Seeds 2 and 11 declare it so; every point
    equals the reference."""
    res = compile_text(LOCK, "锁.pai")
    assert res.ok, res.render()
    check = PlayCheck(Rules(res.ruleset, backend="native"), {})
    barred = 0
    for seed in (2, 11):
        for g, p, seat, _moves, mv in lockstep(check, seed, _bots(seed)):
            if (p["kind"], p["event"], mv.action) == ("self", "discard", "锁"):
                barred += sum(t.name == p["tile"] for t in g.st.seats[1 - seat].hand) >= 2
    assert barred == 2


def test_a_moving_reveal_is_asked_again_once_the_tiles_it_counts_change():
    """风雷白城's 宝牌 moves once all four copies are seen (`moves_when = visible_count(宝牌) >= 4`), a
    condition asked after every event that is false most of the time: an answer kept from an earlier
    event (any keeping of it, to save its evaluation) must not be reused once a discard or a meld shows
    another copy. In these seeded games the reference moves the reveal several times; the native hand,
    compared at every point (its events' counts included), moves it at the same moments."""
    path = "rules/baicheng.pai"
    rules = load(ROOT / path, backend="native")
    moved = {}
    for seed in (8, 22):
        g = Session(rules, {}, seed, 1, backend="python").new_hand()
        players = _bots(seed)(g)
        while not g.is_over():
            seat = g.current_seats()[0]
            g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
        moved[seed] = g.st.events["reveal_move:宝牌"]
    assert moved == {8: 6, 22: 4}
    check = PlayCheck(rules, {})
    tally = PlayTally()
    for seed in (8, 22):
        check.play(seed, _bots(seed), tally)
    assert tally.differences == []
    assert tally.over == 2
