"""A win question that reads only whether the hand wins (runtime/native/src/score/choose.rs `choose_with`'s
`lean`, hand/mod.rs `score_hand_reading`, engine/winning/win_now.rs `win_found_past`): a reading failing a
requirement is not scored past its requirements, and a hand that does not win is not scored further — but
every requirement of every reading is still evaluated, so a win that a requirement on the hand's score
decides is decided as the reference decides it. 扯胡子 wins from 15 胡息 (`require 起胡 = 胡息 >= 15`); seat 1's
hand holds exactly 15. Made to ask for 16, the same hand must be offered no win, natively as in the reference;
asked for 15 or less, it wins and is paid the same. Played beside the reference, every point equal."""
from __future__ import annotations

import pytest
from conftest import native_engine_only, rules_edited
from paili.runtime.game import PASS, Game
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

REQUIRE = "require 起胡 = 胡息 >= 15 {"

# as tests/test_engine_native_trial_first.py deals them: seat 1 holds 15 胡息 and waits on 五
WIN1 = "壹贰叁二七十肆肆肆四六伍陆柒八九十三三叁"
WIN_DEALER = "一一一捌捌捌玖玖玖拾拾拾五六六二二七七九"
WIN_OTHER = "壹壹壹贰贰贰陆陆陆伍伍伍柒柒八八四四十叁"


def _rules(least: int) -> Rules:
    return rules_edited("rules/chehuzi.pai", REQUIRE, f"require 起胡 = 胡息 >= {least} {{")


def _play(least: int):
    """The hand played with seat 1 winning where it may, beside the reference: (how often seat 1 was
    offered a win, the result)."""
    from paili.runtime.game.native_offers import plain_move
    from paili.runtime.game.native_play import PlayCheck, difference, text
    from paili.runtime.game.native_scope import set_scoring

    options = {"王数": 0}
    check = PlayCheck(_rules(least), options)
    wall = [WIN_DEALER + WIN1 + WIN_OTHER + "九五肆"]
    g = Game(check.rules, options, 3, dealer=0, wall=wall)
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(3, 0, None, None, None, wall, None)
    offered = 0
    while not g.is_over():
        assert hand.refused() is None and difference(g, hand) is None
        seat = g.current_seats()[0]
        moves = g.legal_moves(seat)
        wins = [m for m in moves if m.action == "胡"]
        offered += seat == 1 and bool(wins)
        mv = wins[0] if wins else (PASS if PASS in moves else moves[0])
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))
    assert hand.is_over() and hand.refused() is None and difference(g, hand) is None
    assert not g.errors
    return offered, g.result()


@pytest.mark.parametrize("least", [14, 15])
def test_a_hand_meeting_the_score_requirement_wins_as_the_reference_scores_it(least):
    offered, res = _play(least)
    assert offered >= 1 and res["winners"] == [1]
    assert res["scores"][1]["score"] > 0


@pytest.mark.parametrize("least", [16, 30])
def test_a_hand_short_of_the_score_requirement_is_offered_no_win(least):
    offered, res = _play(least)
    assert offered == 0 and 1 not in res["winners"]
