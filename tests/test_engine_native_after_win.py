"""The hand played natively through what comes after a win and through choices (runtime/native/src/engine/
window.rs, win.rs, turn_card.rs, claims.rs `take`; docs/engine-native.md, "The hand played natively"):
the decisions an event of a won hand opens (白金岛's doubling at the hand's end, answered by the loser),
an action taken with a choice (a number, a suit), a win on a turned card with the reveal it turns
(扯胡子), each hand driven move by move on both engines and compared at every point (state with its
payments, continuation, decision) to its end."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_offers import plain_move
from paili.runtime.game.native_play import PlayCheck, PlayTally, difference, text
from paili.runtime.game.native_scope import set_scoring
from paili.runtime.game.session import Session

pytestmark = native_engine_only()


def _played(path: str, seed: int, pick=None):
    """A seeded game played by the reference (random bots; `pick(game, seat, moves)` chooses instead
    where it returns a move) with the native hand beside it, equal at every point and played natively to
    its end; the reference game, the native hand's final state and the moves made."""
    check = PlayCheck(load(ROOT / path, backend="native"), {})
    session = Session(check.rules, {}, seed, 1)
    g = session.new_hand()
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(g.seed, session.dealer, session.balances)
    bots = [BOTS["random"](seed * 31 + i) for i in range(g.n)]
    made = []
    while True:
        assert hand.refused() is None
        assert difference(g, hand) is None
        if g.is_over():
            assert hand.is_over()
            return g, json.loads(hand.snapshot())["state"], made
        seat = g.current_seats()[0]
        moves = g.legal_moves(seat)
        mv = (pick(g, seat, moves) if pick else None) or bots[seat].choose(g, seat, moves)
        made.append((g.pending.event, seat, str(mv)))
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))


def _doubling(offer: str, answer: str):
    """At the hand's end the winner answers `offer` (a move's text); the loser answers `answer`."""
    def pick(g, seat, moves):
        ev = g.pending.event
        want = offer if ev == "hand_end" else answer if ev == "起始加倍" else None
        return next((m for m in moves if str(m) == want), None)
    return pick


@pytest.mark.parametrize("seed", [2, 20])
def test_a_doubling_accepted_after_a_win_forgoes_the_payment(seed):
    """白金岛: the winner proposes to double the next hand (`起始加倍`, a choice of 2, 4 or 8, opened by the
    hand's end once the hand is won) and the loser accepts (`应答起始加倍`, opened by the proposal's own
    event): the hand's payment is forgone and the doubling carried to the next hand, natively as in the
    reference."""
    g, state, made = _played("rules/baijindao.pai", seed, _doubling("起始加倍 =4", "应答起始加倍"))
    (w,) = g.st.winners
    assert ("hand_end", w, "起始加倍 =4") in made and ("起始加倍", 1 - w, "应答起始加倍") in made
    assert state["table"]["放弃本局"] is True and state["table"]["下局起始加倍"] == 4
    assert [p for p in state["payments"] if p["name"] == "胡牌"] == []
    assert state["events"]["起始加倍"] == 1 and state["events"]["应答起始加倍"] == 1


@pytest.mark.parametrize("seed", [3, 37])
def test_a_doubling_declined_after_a_win_pays_the_hand(seed):
    """白金岛: the loser declines the proposal (its `decline` effects run natively): the hand is paid at
    the win's score, deferred until the decisions are made (`after`), and the proposal cleared."""
    g, state, made = _played("rules/baijindao.pai", seed, _doubling("起始加倍 =8", "pass"))
    (w,) = g.st.winners
    assert ("hand_end", w, "起始加倍 =8") in made and ("起始加倍", 1 - w, "pass") in made
    assert state["table"]["放弃本局"] is False and state["table"]["起始加倍提议"] == 1
    paid = [(p["payer"], p["payee"], p["amount"]) for p in state["payments"] if p["name"] == "胡牌"]
    assert paid == [(1 - w, w, g.st.results[w]["score"])]
    assert state["events"]["decline:应答起始加倍"] == 1


def test_a_winner_that_does_not_propose_is_paid():
    """白金岛: the winner passes at the hand's end: no proposal, the loser is not asked, the hand is paid."""
    g, state, made = _played("rules/baijindao.pai", 5, _doubling("pass", "pass"))
    (w,) = g.st.winners
    assert [m for m in made if m[0] in ("hand_end", "起始加倍")] == [("hand_end", w, "pass")]
    assert [p["payee"] for p in state["payments"] if p["name"] == "胡牌"] == [w]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_suit_chosen_at_the_deal_is_taken_natively(seed):
    """tests/rules/dingque.pai: every seat chooses a suit at the deal (`choices [万, 条, 筒]`, the choice
    set into a state), then plays under the restriction reading it; equal to the reference to the end."""
    def pick(g, seat, moves):  # each seat a suit of its own choosing (the random bots may pass)
        choices = [m for m in moves if m.action == "定缺"]
        return choices[(seat + seed) % len(choices)] if choices else None

    g, state, made = _played("tests/rules/dingque.pai", seed, pick)
    chosen = {s: m.split("=")[1] for ev, s, m in made if m.startswith("定缺")}
    assert sorted(chosen) == list(range(g.n))
    assert [state["seats"][s]["vars"]["定缺"] for s in range(g.n)] == [chosen[s] for s in range(g.n)]


@pytest.mark.parametrize("seed,self_drawn", [(5, True), (7, True), (42, False), (70, False)])
def test_wins_on_a_turned_card_are_played_natively(seed, self_drawn):
    """扯胡子: a card turned from the stock won by its drawer (self-drawn) and by another seat (claimed,
    no discarder); the reveal `at win` (醒牌) turned unless the win was the last card, the win paid at its
    final score (which reads the reveal) by each loser, the next dealer the winner."""
    g, state, _ = _played("rules/chehuzi.pai", seed)
    (w,) = g.st.winners
    assert g.st.results[w]["self_drawn"] is self_drawn
    assert state["discarder"] is None and state["next_dealer"] == w
    assert (state["reveals"].get("醒牌") is not None) is not g.st.context.get("海底", False)
    assert state["events"].get("reveal:醒牌", 0) == (0 if g.st.context.get("海底") else 1)
    paid = sorted((p["payer"], p["amount"]) for p in state["payments"] if p["name"] == "胡牌")
    assert paid == [(s, g.st.results[w]["score"]) for s in range(g.n) if s != w]


def test_baijindao_and_chehuzi_sample_play_to_their_end():
    """Twenty seeded games of each play natively to their end (before these constructs were ported, about
    one in seven 白金岛 and one in three 扯胡子 hands stopped at them)."""
    for path in ("rules/baijindao.pai", "rules/chehuzi.pai"):
        check = PlayCheck(load(ROOT / path, backend="native"), {})
        tally = PlayTally()
        for seed in range(100, 120):
            check.play(seed, lambda g, s=seed: [BOTS["random"](s * 31 + i) for i in range(g.n)], tally)
        assert tally.differences == [] and not tally.refused and tally.over == 20


WIN_DECISIONS = "tests/rules/win_decisions.pai"  # decisions opened by a win's own events, a choice among them


@pytest.mark.parametrize("seed,action", [(3, "胡"), (6, "自摸")])
def test_decisions_a_wins_events_open_are_played_natively(seed, action):
    """tests/rules/win_decisions.pai: the winning action's own event asks the winner (`亮牌`, by winner),
    the `win` event asks each loser a choice (`加注`, by loser), and the payment waits for them (`after`):
    played natively, equal at every point; each loser pays the score, the raises and the show."""
    def pick(g, seat, moves):
        want = {action: "亮牌", "win": f"加注 ={1 + seat % 2}"}.get(g.pending.event)
        return next((m for m in moves if str(m) == want), None)

    g, state, made = _played(WIN_DECISIONS, seed, pick)
    (w,) = g.st.winners
    losers = [s for s in range(g.n) if s != w]
    assert (action, w, "亮牌") in made
    assert sorted((s, m) for ev, s, m in made if ev == "win") == [(s, f"加注 ={1 + s % 2}") for s in losers]
    raised = sum(1 + s % 2 for s in losers)
    assert state["table"] == {"加注": raised, "亮牌": True}
    paid = sorted((p["payer"], p["amount"]) for p in state["payments"])
    assert paid == [(s, g.st.results[w]["score"] + raised + 1) for s in losers]


def test_a_win_whose_decisions_are_passed_pays_its_score():
    """tests/rules/win_decisions.pai: every loser passes; the deferred payment is the win's score alone."""
    g, state, made = _played(WIN_DECISIONS, 1, lambda g, seat, moves: next(m for m in moves if m.action == "pass")
                             if g.pending.event == "win" else None)
    (w,) = g.st.winners
    assert [m for ev, _, m in made if ev == "win"] == ["pass", "pass"]
    assert sorted((p["payer"], p["amount"]) for p in state["payments"]) == \
        [(s, g.st.results[w]["score"]) for s in range(g.n) if s != w]


def test_the_hands_end_asks_each_of_several_winners_in_turn():
    """tests/rules/winners_in_turn.pai: one discard won by two seats (`multiple`); at the hand's end each
    winner in turn (in the order they won) is asked its `by winner` choice, the second turn with that
    decision alone (`others` false); the payment waiting for them (`after`) reads their sum. Played
    natively, equal at every point."""
    def pick(g, seat, moves):
        if g.pending.event == "hand_end":
            return next(m for m in moves if str(m) == "报喜 =2")
        return next((m for m in moves if m.action == "胡"), None)

    g, state, made = _played("tests/rules/winners_in_turn.pai", 142, pick)
    assert g.st.winners == [2, 0]
    assert [(s, m) for ev, s, m in made if ev == "hand_end"] == [(2, "报喜 =2"), (0, "报喜 =2")]
    assert state["table"]["喜"] == 4
    assert sorted((p["payer"], p["payee"], p["amount"]) for p in state["payments"] if p["name"] == "喜钱") == \
        [(1, 0, 4), (1, 2, 4)]
