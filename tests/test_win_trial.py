"""A win is offered by the score it would really get (runtime/game/win_trial.py, docs/engine.md "### Wins"):
the context values its action's effects, the hooks on the action's name and the `win` hooks set are applied
to a trial copy of the context before the offer is decided. 国标 (rules/guobiao.pai) sets the winner's seat
wind and the round wind in a `win` hook and 杠上/和绝张 in its win actions' effects, and asks for 8 番."""
from __future__ import annotations

from functools import cache

import pytest
from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS, play

# Hands are dealt in play order from the dealer (seat 0): the dealer's 13, seat 1's, seat 2's, seat 3's,
# then the dealer's extra tile; the tail gives the replacement draws.
DEALER = "1p2p4p5p7p8p1s4s7s中发白北"
SEAT2 = "1m1m2m2m3m3m4m4m6m6m7m7m8m"
SEAT3 = "1s1s2s2s3s3s7s7s8s8s9s9s3p"
NO_SUCH_ERROR = "the win no longer scores"


@cache
def guobiao():
    return load(ROOT / "rules" / "guobiao.pai")


def rig(hands: list[str], extra: str, tail: str = "") -> Game:
    return Game(guobiao(), {}, 11, dealer=0, wall=["".join(hands) + extra], tail=[tail] if tail else None)


def moves(g: Game, seat: int, action: str):
    return [m for m in g.legal_moves(seat) if m.action == action]


def discard(g: Game, seat: int, name: str) -> None:
    g.apply(seat, next(m for m in moves(g, seat, "discard") if m.tiles == (name,)))


def test_the_seat_wind_lifts_a_claimed_win_to_the_minimum_and_it_pays_that_score():
    """Seat 1 (south) holds 南南南: 7 番 with the defaults (幺九刻), 8 with its own wind (门风刻)."""
    g = rig([DEALER, "南南南1m2m3m4m5m6m1p2p3p9p", SEAT2, SEAT3], "9p")
    discard(g, 0, "九饼")
    assert g.current_seats() == [1] and moves(g, 1, "点和")
    g.apply(1, moves(g, 1, "点和")[0])
    res = g.result()
    assert res["winners"] == [1] and res["scores"][1]["total"] == 8
    assert {f["name"] for f in res["scores"][1]["fans"]} >= {"门风刻"}
    assert not g.errors
    assert res["deltas"] == [-16, 32, -8, -8]  # the discarder 8 + 8, the others 8 each


def test_a_win_the_defaults_reach_but_the_real_seat_wind_sinks_is_not_offered():
    """Seat 1 holds 东东东: 8 番 if it were east (圈风刻 and 门风刻), 6 as south — no win to offer."""
    g = rig([DEALER, "东东东1m2m3m4m5m6m7p8p9p9s", SEAT2, SEAT3], "9s")
    discard(g, 0, "九条")
    assert 1 not in g.current_seats() or not moves(g, 1, "点和")
    assert not g.errors


def test_a_flag_a_win_action_sets_lifts_a_win_to_the_minimum():
    """The dealer's replacement draw after a concealed kong: 7 番 without 杠上开花 (set by 自摸和's effect
    from the seat's 杠后), 15 with it."""
    g = rig(["5m5m5m5m2p3p4p4s5s6s7m8m9m", "1p1p4p5p7p8p1s4s7s中发白北", SEAT2, SEAT3], "东", tail="东")
    g.apply(0, moves(g, 0, "暗杠")[0])
    assert moves(g, 0, "自摸和")
    g.apply(0, moves(g, 0, "自摸和")[0])
    res = g.result()
    assert res["winners"] == [0] and res["scores"][0]["total"] == 15
    assert "杠上开花" in {f["name"] for f in res["scores"][0]["fans"]} and not g.errors


def test_the_offer_carries_the_score_the_win_gets():
    """The offered win's score (what a guard reads as `score`) is the trial's, not the defaults'."""
    g = rig([DEALER, "南南南1m2m3m4m5m6m1p2p3p9p", SEAT2, SEAT3], "9p")
    discard(g, 0, "九饼")
    info = g.win_offered(1, "claimed", g.cat.by_name["九饼"], (), 0, None, "点和")
    assert info is not None and info.result.score == 8 and info.trial["门风"].name == "南"
    assert g.win_offered(1, "claimed", g.cat.by_name["九饼"], (), 0, None) is None  # untried: the defaults


@pytest.mark.parametrize("bots", ["efficiency", "random"])
def test_a_seeded_sample_of_games_notes_no_win_that_stops_scoring(bots):
    rules = guobiao()
    for seed in range(6):
        g = Game(rules, {}, 900 + seed)
        play(g, [BOTS[bots](seed * 4 + i) for i in range(4)])
        assert not [e for e in g.errors if NO_SUCH_ERROR in e], g.errors


# ---------------------------------------------------------------- the native hand tries the same wins

SCENARIOS = {  # (hands, the dealer's extra tile, the tail, the moves: (seat, action, tile or None))
    "wind lifts": ([DEALER, "南南南1m2m3m4m5m6m1p2p3p9p", SEAT2, SEAT3], "9p", "",
                   [(0, "discard", "九饼"), (1, "点和", None)]),
    "wind sinks": ([DEALER, "东东东1m2m3m4m5m6m7p8p9p9s", SEAT2, SEAT3], "9s", "", [(0, "discard", "九条")]),
    "flag lifts": (["5m5m5m5m2p3p4p4s5s6s7m8m9m", "1p1p4p5p7p8p1s4s7s中发白北", SEAT2, SEAT3], "东", "东",
                   [(0, "暗杠", None), (0, "自摸和", None)]),
}


@native_engine_only()
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_native_hand_offers_and_pays_the_same_wins(name):
    """Each situation above played on the native hand beside the reference: equal at every point (state,
    payments, continuation, decision), the native hand never handing the hand back."""
    from paili.runtime.game.native_offers import plain_move
    from paili.runtime.game.native_play import PlayCheck, difference, text
    from paili.runtime.game.native_scope import set_scoring

    hands, extra, tail, script = SCENARIOS[name]
    check = PlayCheck(load(ROOT / "rules" / "guobiao.pai", backend="native"), {})
    wall, tails = ["".join(hands) + extra], [tail] if tail else None
    g = Game(check.rules, {}, 11, dealer=0, wall=wall, tail=tails)
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(11, 0, None, None, None, wall, tails)
    for seat, action, tile in script:
        assert hand.refused() is None and difference(g, hand) is None
        mv = next(m for m in g.legal_moves(seat) if m.action == action and (tile is None or m.tiles == (tile,)))
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))
    assert hand.refused() is None and difference(g, hand) is None
    assert not g.errors
