"""Rule-file mechanisms that only show in play: the engine plays 风雷白城 (rules/baicheng.pai) with bots
and rigged walls, and these tests check that what the rule file declares actually happens — the
three-tile special kongs keep the tile count, 听牌 is set so that 宝 is wild (摸宝, 宝中宝), 分张 takes
exactly the last four tiles, 换宝 waits for all three other copies, and the dealer factor applies."""
from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.bots import GreedyBot, play

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


class FenzhangGame(Game):
    """A game that records, for every turn played in 分张, the tiles left in the wall (after that turn's
    draw) and whether 分张 had already begun before it (`turns`)."""

    def __init__(self, *args, **kw):
        self.turns: list[tuple[int, bool]] = []  # set before the hand starts: its first turn is played at once
        super().__init__(*args, **kw)

    def _phases(self, event, bind):
        before = self.st.table.get("分张", False)
        super()._phases(event, bind)
        if event == "turn" and self.st.table.get("分张", False):
            self.turns.append((len(self.st.wall), before))


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
        g = FenzhangGame(bc, {}, seed, check=False)
        play(g, [GreedyBot(seed * 7 + i) for i in range(g.n)])
        turns = g.turns
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


# ---------------------------------------------------------------------- 白金岛: situation fans in play
# rules/baijindao.pai sets 海底, 杠上, 抢杠, 天和, 地和, 人和 and 和绝张 in an `on win` hook, so the fans
# 妙手回春, 海底捞月, 杠上开花, 抢杠和, 天和, 地和, 人和 and 和绝张 happen in simulated games too.

@pytest.fixture(scope="module")
def bjd():
    return load(ROOT / "rules" / "baijindao.pai")


class PatientBot(GreedyBot):
    """The greedy bot, but it neither wins nor doubles while the wall still holds tiles."""

    def choose(self, game, seat, moves):
        if game.st.wall:
            keep = [m for m in moves if m.action not in ("胡", "加倍")]
            moves = keep or moves
        return super().choose(game, seat, moves)


def visible(g: Game, tile: str) -> int:
    """Copies of `tile` in the discards and the exposed melds (a concealed kong shows nothing)."""
    return sum(t.name == tile for s in g.st.seats for t in s.discards) + sum(
        t.name == tile for s in g.st.seats for m in s.melds if m.exposed for t in m.tiles)


def test_baijindao_kong_robbing_and_last_copy_contexts_in_greedy_play(bjd):
    seen: dict[str, int] = {}
    for seed in range(300):
        g = Game(bjd, {}, seed)
        res = play(g, [GreedyBot(seed * 7 + i) for i in range(g.n)])
        assert not g.violations and not g.errors
        ctx = g.st.context
        for w, sc in res["scores"].items():
            fans = {f["pattern"] for f in sc["fans"]}
            for f in fans & {"杠上开花", "抢杠和", "和绝张", "妙手回春", "海底捞月"}:
                seen[f] = seen.get(f, 0) + 1
            robbed = res["robbed"] is not None
            assert ctx["抢杠"] == robbed and ("抢杠和" in fans) == robbed
            assert ctx["海底"] == (not g.st.wall and not robbed)
            if ctx["杠上"]:
                assert sc["self_drawn"] and any(m.kind in ("明杠", "暗杠", "补杠") for m in g.st.seats[int(w)].melds)
                assert "杠上开花" in fans
            if not robbed:
                assert ctx["和绝张"] == (visible(g, sc["tile"]) == (3 if sc["self_drawn"] else 4))
            else:
                assert "和绝张" not in fans
            assert not (ctx["天和"] or ctx["地和"] or ctx["人和"]) or g.st.turn <= 2
    assert seen.get("杠上开花", 0) >= 3 and seen.get("和绝张", 0) >= 3 and seen.get("抢杠和", 0) >= 1


def test_baijindao_last_tile_wins_in_play(bjd):
    self_drawn = claimed = 0
    for seed in range(40):
        g = Game(bjd, {}, seed)
        res = play(g, [PatientBot(seed * 7 + i) for i in range(g.n)])
        assert not g.violations and not g.errors
        for sc in res["scores"].values():
            fans = {f["pattern"] for f in sc["fans"]}
            assert not g.st.wall and g.st.context["海底"]
            if sc["self_drawn"]:
                self_drawn += 1
                assert "妙手回春" in fans and "自摸" not in fans and "海底捞月" not in fans
            else:
                claimed += 1
                assert "海底捞月" in fans and "妙手回春" not in fans
    assert self_drawn >= 1 and claimed >= 1


def _rigged(r, hands: list[str], extra: str, draws: str = "", **kw) -> Game:
    return Game(r, {}, 11, dealer=0, wall=["".join(hands) + extra + draws], **kw)


def _fans(g: Game, seat: int) -> set[str]:
    return {f["pattern"] for f in g.result()["scores"][seat]["fans"]}


def test_baijindao_heavenly_earthly_and_human_wins(bjd):
    # 天和: the dealer wins with the fourteen tiles dealt; the table's 死听保护 is reset at the deal
    g = _rigged(bjd, ["123m456m789m东东东南", "22m33m44m66m77m88m9m"], "南", table={"死听保护": True})
    assert g.st.table["死听保护"] is False
    g.apply(0, move(g, 0, "胡"))
    assert g.is_over()
    fans = _fans(g, 0)
    assert "天和" in fans and not fans & {"地和", "人和", "自摸", "杠上开花", "妙手回春"}

    # 人和: the other player wins on the dealer's first discard
    g = _rigged(bjd, ["123m456m789m东东东南", "22m33m44m66m77m88m西"], "西")
    g.apply(0, move(g, 0, "discard", "西"))
    if 0 in g.current_seats():  # the dealer may declare ready now
        g.apply(0, move(g, 0, "pass"))
    g.apply(1, move(g, 1, "胡"))
    fans = _fans(g, 1)
    assert "人和" in fans and not fans & {"天和", "地和", "海底捞月", "和绝张"}

    # 地和: the other player wins on the first tile it draws
    g = _rigged(bjd, ["123m456m789m东东南西", "22m33m44m66m77m88m西"], "北", draws="西")
    g.apply(0, move(g, 0, "discard", "北"))
    assert g.current_seats() == [1]
    g.apply(1, move(g, 1, "胡"))
    fans = _fans(g, 1)
    assert "地和" in fans and not fans & {"天和", "人和", "自摸"}

    # the dealer's second discard is no longer 人和
    g = _rigged(bjd, ["123m456m789m东东南西", "22m33m44m66m77m88m北"], "中", draws="白北")
    g.apply(0, move(g, 0, "discard", "中"))
    g.apply(1, move(g, 1, "discard", "白"))
    if 1 in g.current_seats():  # seat 1 may declare ready now
        g.apply(1, move(g, 1, "pass"))
    g.apply(0, move(g, 0, "discard", "北"))
    g.apply(1, move(g, 1, "胡"))
    fans = _fans(g, 1)
    assert not fans & {"天和", "地和", "人和"}
