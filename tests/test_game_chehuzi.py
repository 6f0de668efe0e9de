"""扯胡子 in the game engine: cards turned from the stock (`reveal`), follow-ups (`follow`), the 醒
reveal after a win — complete bot hands with invariants checked, and a rigged-wall priority scenario."""
from __future__ import annotations

from runtime.game import PASS, Game
from runtime.game.bots import GreedyBot, RandomBot, play
from runtime.game.log import lines, replay
from runtime.game.session import Session

from .test_game import move, rules


def _hands(bot, n):
    r = rules("chehuzi")
    wins = violations = 0
    errors = []
    events = {}
    for seed in range(n):
        g = Game(r, {}, seed)
        res = play(g, [bot(seed * 3 + i) for i in range(3)])
        assert g.is_over()
        wins += bool(res["winners"])
        if res["winners"] and g.st.wall:  # 翻醒: the next stock card is flipped after a win
            assert g.st.reveals["醒牌"] is not None
        violations += len(g.violations)
        errors.extend(g.errors)
        for k, v in res["events"].items():
            events[k] = events.get(k, 0) + v
    return wins, violations, errors, events


def test_random_bots_play_complete_hands():
    wins, violations, errors, events = _hands(RandomBot, 100)
    assert violations == 0 and errors == []
    assert events.get("reveal", 0) > 1000 and events.get("吃", 0) > 0 and events.get("比牌", 0) > 0


def test_greedy_bots_play_complete_hands_and_win():
    wins, violations, errors, events = _hands(GreedyBot, 100)
    assert violations == 0 and errors == []
    assert wins >= 1 and events.get("胡", 0) == wins


# dealer 0 holds 五五 (can 碰 a turned 五); seat 1 holds 四六 and draws 五 (can 吃 it)
_WALL = ("五五壹贰叁肆伍陆柒捌玖拾一二三七八九十十"     # seat 0 (dealer)
         "四六壹贰叁肆伍陆柒捌玖拾一二三七八九十十"     # seat 1
         "四六壹贰叁肆伍陆柒捌玖拾一二三七八九壹贰"     # seat 2
         "拾"                                             # the dealer's 21st card
         "五")                                            # seat 1's first draw


def test_a_turned_card_goes_to_peng_before_chi():
    g = Game(rules("chehuzi"), {"王数": 0}, 1, dealer=0, wall=_WALL)
    g.apply(0, move(g, 0, "discard", "拾"))
    while g.pending is not None and g.pending.event != "reveal":  # nobody claims the discard
        for s in g.current_seats():
            g.apply(s, PASS if PASS in g.legal_moves(s) else g.legal_moves(s)[0])
    assert g.pending.event == "reveal" and g.st.seats[1].discards[-1].name == "5小"
    assert set(g.current_seats()) >= {0, 1}
    g.apply(1, move(g, 1, "吃", "四五六"))
    g.apply(0, move(g, 0, "碰", "五五五"))
    for s in g.current_seats():
        g.apply(s, PASS)
    assert [m.kind for m in g.st.seats[0].melds] == ["碰"]
    assert g.st.seats[1].melds == [] and g.current_seats() == [0]  # 碰 then discard
    assert all(m.action == "discard" for m in g.legal_moves(0))
    assert g.violations == []


def test_unclaimed_turned_card_stays_on_the_drawers_pile_and_the_next_seat_draws():
    g = Game(rules("chehuzi"), {"王数": 0}, 1, dealer=0, wall=_WALL)
    g.apply(0, move(g, 0, "discard", "拾"))
    while g.pending is not None and g.pending.event != "reveal":
        for s in g.current_seats():
            g.apply(s, PASS if PASS in g.legal_moves(s) else g.legal_moves(s)[0])
    for s in g.current_seats():
        g.apply(s, PASS)
    assert [t.name for t in g.st.seats[1].discards] == ["5小"]
    assert len(g.st.seats[1].hand) == 20 and g.st.last_drawer == 2
    assert g.violations == []


def test_a_session_of_turned_card_hands_replays():
    r = rules("chehuzi")
    s = Session(r, {}, 5, 4)
    s.play([RandomBot(1), GreedyBot(2), RandomBot(3)])
    again = replay(lines(s), r)
    assert [h["result"] for h in again.played] == [h["result"] for h in s.played]
