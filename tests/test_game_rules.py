"""Rule-file mechanisms that only show in play: the engine plays 风雷白城 (rules/baicheng.pai) with bots
and rigged walls, and these tests check that what the rule file declares actually happens — the
three-tile special kongs keep the tile count, 听牌 is set so that 宝 is wild (摸宝, 宝中宝), 分张 takes
exactly the last four tiles, 换宝 waits for all three other copies, and the dealer factor applies."""
from __future__ import annotations

from fractions import Fraction

import pytest

from runtime.game import Game
from runtime.game.bots import GreedyBot, play
from runtime.rules import load

from .conftest import ROOT

SPECIAL = ("幺杠", "九杠", "喜杠")


@pytest.fixture(scope="module")
def bc():
    return load(ROOT / "rules" / "baicheng.pai")


def names(r, text: str) -> tuple[str, ...]:
    return tuple(r.notation.parse(text))


def move(g: Game, seat: int, action: str, tiles: str | None = None):
    want = sorted(names(g.rules, tiles)) if tiles else None
    for m in g.legal_moves(seat):
        if m.action == action and (want is None or sorted(m.tiles) == want):
            return m
    raise AssertionError(f"seat {seat} has no legal {action} {tiles or ''}: {list(map(str, g.legal_moves(seat)))}")


def count(seat) -> int:
    """Concealed tiles + 3 per meld (a kong counts as one meld): 13 while waiting, 14 on the own turn."""
    return len(seat.hand) + 3 * len(seat.melds)


class KongGreedyBot(GreedyBot):
    """The greedy bot, but it also lays down the special kongs (幺九杠, 喜杠) and their 补杠."""

    def choose(self, game, seat, moves):
        for m in moves:
            a = game.prog.actions.get(m.action)
            if a is not None and a.wins:
                return m
        for m in moves:
            if m.action in SPECIAL or m.action in ("攒喜杠", "补杠"):
                return m
        return super().choose(game, seat, moves)


def fenzhang_turns(g: Game) -> list[tuple[int, bool]]:
    """Record, for every turn played in 分张, the tiles left in the wall (after that turn's draw) and
    whether 分张 had already begun before it."""
    turns: list[tuple[int, bool]] = []
    orig = g._phases

    def wrapped(event, bind):
        before = g.st.table.get("分张", False)
        orig(event, bind)
        if event == "turn" and g.st.table.get("分张", False):
            turns.append((len(g.st.wall), before))
    g._phases = wrapped
    return turns


# ---------------------------------------------------------------------- seeded bot games

def test_special_kong_hands_keep_the_tile_count_and_win(bc):
    special_seats = special_wins = topped_up = 0
    for seed in range(40):
        g = Game(bc, {}, seed)
        bots = [KongGreedyBot(seed * 7 + i) for i in range(g.n)]
        while not g.is_over():
            s = g.current_seats()[0]
            mv = bots[s].choose(g, s, g.legal_moves(s))
            g.apply(s, mv)
            if mv.action == "discard" and not g.is_over() and not g.st.table.get("分张"):
                assert count(g.st.seats[s]) == 13, (seed, s, [m.kind for m in g.st.seats[s].melds])
        assert not g.violations and not g.errors
        res = g.result()
        holders = {i for i, seat in enumerate(g.st.seats) if any(m.kind in SPECIAL for m in seat.melds)}
        special_seats += len(holders)
        special_wins += len(holders & set(res["winners"]))
        topped_up += g.st.events["补杠"]
    assert special_seats >= 10
    assert special_wins >= 3  # a hand with a three-tile kong can win
    assert topped_up >= 5


def test_bao_is_wild_for_a_ready_player_in_play(bc):
    mobao = wins = 0
    for seed in range(60):
        g = Game(bc, {}, seed)
        res = play(g, [GreedyBot(seed * 7 + i) for i in range(g.n)])
        assert not g.violations and not g.errors
        for sc in res["scores"].values():
            wins += 1
            fans = {f["pattern"] for f in sc["fans"]}
            if "摸宝" in fans:
                mobao += 1
                assert sc["self_drawn"] and g.st.context["听牌"]
    assert wins >= 20 and mobao >= 3


def test_fenzhang_takes_exactly_the_last_four_tiles(bc):
    entered = exhausted = 0
    for seed in range(40):
        g = Game(bc, {}, seed, check=False)
        turns = fenzhang_turns(g)
        play(g, [GreedyBot(seed * 7 + i) for i in range(g.n)])
        if not turns:
            continue
        entered += 1
        assert [w for w, before in turns if not before] == [3]  # entered on the draw that left 3 of 4
        assert all(w <= 3 for w, _ in turns)
        if g.st.exhausted:
            exhausted += 1
            assert len(turns) == 4  # one tile each, then the exhaustive draw
    assert entered >= 5 and exhausted >= 5


def test_the_dealer_factor_applies_when_the_dealer_wins(bc):
    dealer_wins = 0
    for seed in range(60):
        g = Game(bc, {}, seed)
        res = play(g, [GreedyBot(seed * 7 + i) for i in range(g.n)])
        for w in res["winners"]:
            score = Fraction(str(res["scores"][w]["score"]))
            for p in res["payments"]:
                if p["name"] != "胡牌" or p["payee"] != w:
                    continue
                factor = 2 if (w == res["dealer"] or p["payer"] == res["dealer"]) else 1
                factor *= 2 if p["payer"] == res["discarder"] else 1
                assert Fraction(str(p["amount"])) == score * factor
            if w == res["dealer"]:
                dealer_wins += 1
                assert g.st.context["庄家"]
    assert dealer_wins >= 3


# ---------------------------------------------------------------------- rigged walls
# Hands are dealt in play order from the dealer (seat 0): the dealer's 13, seat 1's 13, …, then the
# dealer's extra tile; the tiles after that are the draws. `tail` fixes the last tiles (宝 is the last).

DEALER = "3m6m8m2p4p8p6s8s7m3p4m7p7s"
OTHER2 = "2s3m6m8m2p4p8p6s8s7m3p4m6p"
OTHER3 = "222m567p789s55m34s"


def rig(r, seat1: str, draws: str, tail: str) -> Game:
    return Game(r, {}, 11, dealer=0, wall=[DEALER + seat1 + OTHER2 + OTHER3 + "白" + draws], tail=[tail])


def test_a_three_tile_kong_takes_no_replacement_and_its_top_up_does(bc):
    g = rig(bc, "1m1p1s234m567p99p78s", "1m", tail="6s9m")
    wall = len(g.st.wall)
    assert g.current_seats() == [1]
    g.apply(1, move(g, 1, "幺杠", "1m1p1s"))
    seat = g.st.seats[1]
    assert len(g.st.wall) == wall and len(seat.hand) == 10 and count(seat) == 13
    g.apply(0, move(g, 0, "discard", "白"))
    g.apply(1, move(g, 1, "补杠", "1m1m1p1s"))  # drew 1m, tops up the 幺杠, replaces from the tail: 6s
    assert len(seat.melds[0].tiles) == 4 and count(seat) == 14
    assert g.st.context["听牌"]
    g.apply(1, move(g, 1, "自摸"))
    res = g.result()
    assert res["winners"] == [1] and res["scores"][1]["tile"] == names(bc, "6s")[0]
    assert {p["name"] for p in res["payments"]} >= {"幺杠分", "补杠分", "胡牌"}


def test_a_ready_player_wins_on_a_drawn_bao(bc):
    g = rig(bc, "1m1p1s234m567p99p78s", "5m", tail="5m")  # 宝 = 5m; seat 1 waits on 6s / 9s
    g.apply(1, move(g, 1, "幺杠"))
    g.apply(0, move(g, 0, "discard", "白"))
    g.apply(1, move(g, 1, "自摸"))
    fans = {f["pattern"] for f in g.result()["scores"][1]["fans"]}
    assert {"自摸", "摸宝"} <= fans and "宝中宝" not in fans


def test_bao_zhong_bao(bc):
    g = rig(bc, "1m1p1s234m46m567p99p", "5m", tail="5m")  # 宝 = 5m, and 46m waits on 5m only
    g.apply(1, move(g, 1, "幺杠"))
    g.apply(0, move(g, 0, "discard", "白"))
    g.apply(1, move(g, 1, "自摸"))
    sc = g.result()["scores"][1]
    assert {f["pattern"] for f in sc["fans"]} == {"夹胡", "自摸", "摸宝", "宝中宝"}
    assert sc["score"] == 16


def test_bao_moves_only_when_all_three_other_copies_are_seen(bc):
    g = rig(bc, "1m1p1s234m567p99p78s", "", tail="8m9m")
    st = g.st
    nine = g.cat.by_name[names(bc, "9m")[0]]
    assert st.reveals["宝牌"] == nine
    st.seats[2].discards += [nine, nine]
    g._moves_reveals()
    assert st.reveals["宝牌"] == nine  # the flipped copy and two more: it stays
    st.seats[2].discards += [nine]
    g._moves_reveals()
    assert st.reveals["宝牌"].name == names(bc, "8m")[0]  # all four seen: the next tile from the tail
