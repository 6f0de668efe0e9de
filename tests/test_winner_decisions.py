"""A decision `by winner` when a hand has several winners: asked of each winner in turn, with `winner` (its
score, its reading) bound to that winner — at the hand's end (`hand_end`) in the order they won, which for
one tile's winners is play order from its discarder, the order their payments are made in; at the events
of one win, of that win's winner only. (Before: every winner was asked at once, with `winner` bound to the
first winner for all of them, so a later winner chose from the first one's score and its effect on
`winner.S` changed the first winner's state.) Small rule sets: tests/test_multiple_wins.py's 一炮多响 and
tests/rules/xuezhan.pai (血战到底), each with a decision added."""
from __future__ import annotations

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game
from paili.runtime.rules import Rules
from test_multiple_wins import SEAT3_PURE, SOURCE, discarded
from test_xuezhan import ONE_SHOT, ONE_SHOT_GIFTS, begin, move

# at the hand's end each winner chooses a number up to its own score; the one who wins is told its own at its win
DECISIONS = """
state player 报的分 num = 0
state player 亮的分 num = 0
action 报分 {
  on hand_end
  by winner
  choices [1, 2, 3, 4, 8, 16] when choice <= score
  effect { set winner.报的分 = choice }
}
action 亮分 {
  on win
  by winner
  choices [score]
  effect { set winner.亮的分 = choice }
}
"""


def compiled(text: str) -> Rules:
    res = compile_text(text + DECISIONS, "winners.pai")
    assert res.ok and not res.diagnostics, res.render()
    return Rules(res.ruleset)


OFFERED = [1, 2, 3, 4, 8, 16]


def upto(score) -> list:
    return [c for c in OFFERED if c <= score]


def choices(g: Game, seat: int, action: str) -> list:
    return [m.choice for m in g.legal_moves(seat) if m.action == action]


def answer(g: Game, seat: int, action: str, choice) -> None:
    g.apply(seat, next(m for m in g.legal_moves(seat) if m.action == action and m.choice == choice))


@pytest.fixture(scope="module")
def multiple() -> Rules:
    return compiled(SOURCE)


@pytest.fixture(scope="module")
def xuezhan() -> Rules:
    return compiled((ROOT / "tests" / "rules" / "xuezhan.pai").read_text(encoding="utf-8"))


def test_one_discard_won_by_two_asks_each_winner_in_turn_with_its_own_score(multiple):
    g = discarded(multiple, SEAT3_PURE)
    assert g.current_seats() == [1, 3]
    for s in (1, 3):
        g.apply(s, next(m for m in g.legal_moves(s) if m.action == "胡"))
    for s in (1, 3):  # the events of one win ask that win's winner only, its own score offered
        assert g.current_seats() == [s] and choices(g, s, "亮分") == [g.infos[s].result.score]
        answer(g, s, "亮分", g.infos[s].result.score)
    assert g.st.winners == [1, 3] and g.st.results[1]["score"] == 1 and g.st.results[3]["score"] == 3
    # the hand's end: seat 1 (next from the discarder) first, alone, up to its own score; then seat 3
    assert g.current_seats() == [1] and choices(g, 1, "报分") == [1]
    answer(g, 1, "报分", 1)
    assert g.current_seats() == [3] and choices(g, 3, "报分") == [1, 2, 3]
    answer(g, 3, "报分", 2)
    assert g.is_over()
    assert [s.vars["报的分"] for s in g.st.seats] == [0, 1, 0, 2]
    assert [s.vars["亮的分"] for s in g.st.seats] == [0, 1, 0, 3]
    assert g.check_invariants() == []


def test_under_winners_leave_each_winner_is_asked_in_the_order_they_won(xuezhan):
    """血战到底: two win on one discard (seats 1, 2), seat 3 then wins by itself; at the hand's end the
    three are asked in that order, each from its own score."""
    g = begin(xuezhan, ONE_SHOT, ONE_SHOT_GIFTS, draws="5m", extra="5s")
    g.apply(0, move(g, 0, "discard", "5s"))
    for s in (1, 2):
        g.apply(s, move(g, s, "胡"))
    for s in (1, 2):
        assert g.current_seats() == [s]
        answer(g, s, "亮分", g.infos[s].result.score)
    g.apply(3, move(g, 3, "自摸"))
    answer(g, 3, "亮分", g.infos[3].result.score)
    assert g.st.winners == [1, 2, 3]
    scores = {s: g.st.results[s]["score"] for s in (1, 2, 3)}
    assert scores[3] != scores[1]  # 清一色: the last winner's score differs from the first's
    asked = []
    while not g.is_over():
        (s,) = g.current_seats()
        asked.append((s, choices(g, s, "报分")))
        answer(g, s, "报分", asked[-1][1][-1])
    assert asked == [(s, upto(scores[s])) for s in (1, 2, 3)]
    assert [s.vars["报的分"] for s in g.st.seats] == [0] + [upto(scores[s])[-1] for s in (1, 2, 3)]
    assert g.check_invariants() == []


def test_one_winner_is_asked_as_before(multiple):
    """A hand of one winner: one decision at its end, the winner's own score (as it always was)."""
    g = discarded(multiple, "123p456p789p222s6s")  # seat 3 waits on 6s, not on the discard
    assert g.current_seats() == [1]
    g.apply(1, next(m for m in g.legal_moves(1) if m.action == "胡"))
    answer(g, 1, "亮分", 1)
    assert g.current_seats() == [1] and choices(g, 1, "报分") == [1]
    answer(g, 1, "报分", 1)
    assert g.is_over() and g.st.winners == [1]
