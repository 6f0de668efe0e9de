"""A tried win's first scoring on the native hand (engine/winning/trial.rs `win_tried`): 扯胡子's 胡 is tried
(a hook on 胡 sets 海底 on the last stock card), and its trial reads no name of the win's reading, so the
hand scored on the context of the moment is the one the win question just scored, taken as it is rather
than scored again. Played beside the reference, the native hand must offer, score and pay the same wins at
every point: a win mid-stock (the trial changes nothing: the win as found), a win on the last card (海底
set on the trial: scored again) and a hand short of 15 胡息 (seat 1 is offered no win)."""
from __future__ import annotations

import pytest
from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game import PASS, Game

# rules/chehuzi.pai, as tests/test_game_chehuzi.py deals them (dealer's 20 and seat 1's waiting on 五)
WIN1 = "壹贰叁二七十肆肆肆四六伍陆柒八九十三三叁"  # 15 胡息, waits on 五 (四五六)
WIN_DEALER = "一一一捌捌捌玖玖玖拾拾拾五六六二二七七九"
WIN_OTHER = "壹壹壹贰贰贰陆陆陆伍伍伍柒柒八八四四十叁"
SHORT1 = "壹贰叁二七十一二三四六伍陆柒八九十三三叁"  # groups on 五 too, but 一二三 instead of 肆肆肆: short of 15


def _wins_on(last_only: bool):
    """A chooser: wins where it may (only once the stock is empty with `last_only`), else passes where it
    may, else the first move."""
    def choose(g: Game, seat: int, moves):
        wins = [m for m in moves if m.action == "胡"]
        if wins and (not last_only or not g.st.wall):
            return wins[0]
        return PASS if PASS in moves else moves[0]
    return choose


SCENARIOS = {  # (seat 1's hand, the stock after the dealt hands, the tail, win only on the last card)
    "mid-stock": (WIN1, "九五肆", None, False),
    "last card": (WIN1, "九", "五", True),
    "short": (SHORT1, "九五肆", None, False),
}


@native_engine_only()
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_tried_win_is_offered_scored_and_paid_as_the_reference_does(name):
    from paili.runtime.game.native_offers import plain_move
    from paili.runtime.game.native_play import PlayCheck, difference, text
    from paili.runtime.game.native_scope import set_scoring

    seat1, stock, tail, last_only = SCENARIOS[name]
    options = {"王数": 0}
    check = PlayCheck(load(ROOT / "rules" / "chehuzi.pai", backend="native"), options)
    wall, tails = [WIN_DEALER + seat1 + WIN_OTHER + stock], [tail] if tail else None
    g = Game(check.rules, options, 3, dealer=0, wall=wall, tail=tails)
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(3, 0, None, None, None, wall, tails)
    choose = _wins_on(last_only)
    offered = 0
    while not g.is_over():
        assert hand.refused() is None and difference(g, hand) is None
        seat = g.current_seats()[0]
        moves = g.legal_moves(seat)
        offered += seat == 1 and any(m.action == "胡" for m in moves)
        mv = choose(g, seat, moves)
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))
    assert hand.is_over() and hand.refused() is None and difference(g, hand) is None
    assert not g.errors
    res = g.result()
    if name == "short":
        assert offered == 0 and 1 not in res["winners"]  # seat 1 is never offered a win
    else:
        assert offered >= 1 and res["winners"] == [1]
        assert g.st.context["海底"] is last_only
        if last_only:  # 15 胡息 = 2 囤; the won 五 is the 醒牌 (1 醒); 自摸 ×2 (tests/test_game_chehuzi.py)
            assert res["scores"][1]["score"] == (2 + 1) * 2
