"""龙岩麻将 (rules/longyan.pai) in the game engine: rigged-wall scenarios written from the seed text
(../shared/seeds/004_b433142e63c93c06.txt). Each test quotes the sentence it checks.

Walls: hands are dealt in play order from the dealer (seat 0): seat 0's 13, seat 1's 13, …, then the
dealer's 14th tile; the tiles after that are the draws. `tail` fixes the last tiles of the wall: the gold
(金牌) is flipped from the very end, and flower replacements are taken from the end too."""
from __future__ import annotations

from paili.runtime.game import PASS, Game, Move
from paili.runtime.game.bots import play
from test_game import discard, move, names, rules

GOLD = "8p"
# Hands that are far from ready and hold no 8p (the gold) — fillers for seats a scenario does not use.
JUNK = ["147m257p369s1z2z3z4z", "147p258s369m4z5z6z7z", "258m369p147s1z2z3z5z"]


def rig(hands: list[str], extra: str, draws: str = "", tail: str = GOLD, players: int = 4, **kw) -> Game:
    n = len(hands)
    assert n == players
    return Game(rules("longyan"), {"人数": players}, 11, dealer=0, wall=["".join(hands) + extra + draws],
                tail=[tail], **kw)


def paid(g: Game, name: str) -> dict[tuple[int, int], int]:
    """(payer, payee) -> amount of the payments of one name."""
    return {(p["payer"], p["payee"]): p["amount"] for p in g.result()["payments"] if p["name"] == name}


def actions(g: Game, seat: int) -> set[str]:
    return {m.action for m in g.legal_moves(seat)}


def pass_all(g: Game) -> None:
    for s in g.current_seats():
        g.apply(s, PASS)


# ---------------------------------------------------------------------- 开金, 补花

def test_the_gold_is_flipped_from_the_tail_and_a_flower_is_flipped_again():
    """“金牌只有3张，翻出来的金牌剔出牌墙，不计入牌局；金牌如果翻出来是花牌，则需要替换，即花牌不可以作为金牌。”"""
    g = rig(["123m456m789m234p5s", *JUNK], "6z", tail="5s春")
    st = g.st
    assert st.reveals["金牌"].name == names(g.rules, "5s")[0]
    assert [t.name for t in st.out] == ["春", "五条"]  # the flower and the flipped copy leave play
    in_wall = sum(st.kind_of[i].name == "五条" for i in st.wall)
    held = sum(t.name == "五条" for s in st.seats for t in s.hand)
    assert held + in_wall == 3  # 金牌只有3张
    assert g.check_invariants() == []


def test_flowers_are_replaced_in_rounds_dealer_first_from_the_tail():
    """“补花从庄家按顺序开始补，若补花过程任然进花，要等到本轮4家补完花再进行补花，再次补花的顺序任以庄家为首
    …补花从开牌出按逆时针方向补”; “补花优先级>任何胡牌操作”."""
    dealer = "123m456m789m23p春5z"
    seat1 = "123s456s789s1p夏2z3z"  # 14th tile 5z: with 4p the dealer's hand is complete
    # tail, read from the end: the gold 8p, then 梅 (the dealer's replacement — a flower again), then 1s for
    # seat 1, then (next round, dealer first) 4p for the dealer
    g = rig([dealer, seat1, JUNK[1], JUNK[2]], "5z", tail="4p1s梅" + GOLD)
    st = g.st
    assert [t.name for t in st.seats[0].aside] == ["春", "梅"]
    assert [t.name for t in st.seats[1].aside] == ["夏"]
    assert names(g.rules, "4p")[0] in [t.name for t in st.seats[0].hand]
    assert names(g.rules, "1s")[0] in [t.name for t in st.seats[1].hand]
    assert st.seats[0].vars["花牌"] and [t.name for t in st.seats[0].vars["花牌"]] == ["春", "梅"]
    assert [len(s.hand) for s in st.seats] == [14, 13, 13, 13]
    # the dealer's hand is complete only after the flowers were replaced (4p completes 234p): 天胡 is offered
    assert "天胡" in actions(g, 0)


# ---------------------------------------------------------------------- opening checks, in priority

TIANHU = "123m456m789m234p5s"      # + the dealer's 14th 5s: a complete hand without gold
GAIBAO = "123m456m789m234p" + GOLD  # four sets and a lone gold: 游金 from the start (盖宝抢金)
SANJIN = GOLD * 3 + "147m25p147s2z3z"  # three golds
READY_9P = "111s222s333s444s9p"   # ready (天听), no gold
READY_6P = "123m456m789s11z45p"   # ready on 3p/6p, no gold


def test_tianhu_beats_a_non_dealers_sanjindao():
    """“庄家天胡、闲家三金倒，庄家天胡优先”; “优先级为：天胡>闲家三金倒>闲家抢金>庄家抢金”."""
    g = rig([TIANHU, JUNK[0], SANJIN, JUNK[1]], "5s")
    assert g.current_seats() == [0, 2]  # the opening wins are offered to every seat at once
    assert actions(g, 0) == {"天胡", "庄家抢金", "pass"} and actions(g, 2) == {"闲家三金倒", "pass"}
    g.apply(2, move(g, 2, "闲家三金倒"))
    g.apply(0, move(g, 0, "天胡"))
    res = g.result()
    assert res["winners"] == [0]
    assert [f["pattern"] for f in res["scores"][0]["fans"]] == ["天胡"] and res["scores"][0]["score"] == 4
    # every loser pays 底分 2 × 4, doubled because the dealer wins
    assert paid(g, "胡牌") == {(1, 0): 16, (2, 0): 16, (3, 0): 16}
    assert res["next_dealer"] == 0  # 庄家胡牌 … 下一局可以连庄


def test_sanjindao_when_the_dealer_passes_tianhu():
    """“三金倒：玩家起手…只要手里握着3张金牌，不管其他牌型，直接胡牌；13张牌就可以胡牌，起手时不需要等到自已的回合”."""
    g = rig([TIANHU, JUNK[0], SANJIN, JUNK[1]], "5s")
    g.apply(0, PASS)
    g.apply(2, move(g, 2, "闲家三金倒"))
    res = g.result()
    assert res["winners"] == [2] and res["scores"][2]["form"] == "三金倒" and res["scores"][2]["score"] == 3
    assert paid(g, "胡牌") == {(0, 2): 12, (1, 2): 6, (3, 2): 6}
    assert res["next_dealer"] == 1  # 其他则由庄家下家坐庄


def test_gaibao_qiangjin_beats_tianhu():
    """“盖宝抢金优先天胡…胡牌算双游分”; “闲家起手就是游金状态，算盖宝抢金”."""
    g = rig([TIANHU, GAIBAO, JUNK[0], JUNK[1]], "5s")
    assert g.current_seats() == [0, 1]
    assert "闲家盖宝抢金" in actions(g, 1)
    g.apply(0, move(g, 0, "天胡"))
    g.apply(1, move(g, 1, "闲家盖宝抢金"))
    res = g.result()
    assert res["winners"] == [1]
    assert [f["pattern"] for f in res["scores"][1]["fans"]] == ["盖宝抢金"] and res["scores"][1]["score"] == 10
    assert paid(g, "胡牌") == {(0, 1): 40, (2, 1): 20, (3, 1): 20}


def test_passing_gaibao_qiangjin_passes_qiangjin_too():
    """“盖宝抢金点击过后，就直接过了天胡和抢金。”"""
    g = rig([TIANHU, GAIBAO, JUNK[0], JUNK[1]], "5s")
    g.apply(1, PASS)
    g.apply(0, move(g, 0, "天胡"))
    assert g.result()["winners"] == [0]
    assert g.st.seats[1].vars["放弃起手胡"] and not g.st.seats[0].vars["放弃起手胡"]


def test_sanjindao_beats_qiangjin():
    """“优先级为：天胡>闲家三金倒>闲家抢金>庄家抢金”."""
    g = rig([JUNK[0], READY_9P, SANJIN, JUNK[1]], "6z")
    assert g.current_seats() == [1, 2]
    g.apply(1, move(g, 1, "闲家抢金"))
    g.apply(2, move(g, 2, "闲家三金倒"))
    assert g.result()["winners"] == [2]


def test_only_one_non_dealer_may_qiangjin_in_turn_from_the_dealers_next():
    """“若有多个闲家天听，则按先后顺序，只能胡一家”."""
    g = rig([JUNK[0], READY_9P, JUNK[1], READY_6P], "6z")
    assert g.current_seats() == [1, 3]
    g.apply(1, move(g, 1, "闲家抢金"))
    g.apply(3, move(g, 3, "闲家抢金"))
    res = g.result()
    assert res["winners"] == [1]
    assert [f["pattern"] for f in res["scores"][1]["fans"]] == ["抢金"] and res["scores"][1]["score"] == 4
    assert paid(g, "胡牌") == {(0, 1): 16, (2, 1): 8, (3, 1): 8}
    # when the first passes, the next may take it
    g = rig([JUNK[0], READY_9P, JUNK[1], READY_6P], "6z")
    g.apply(1, PASS)
    g.apply(3, move(g, 3, "闲家抢金"))
    assert g.result()["winners"] == [3]


def test_dealer_qiangjin_without_really_discarding():
    """“庄家如果打出一张牌后也听牌了，且没有闲家天听（抢金）、三金倒，则庄家直接胡，算庄家抢金…不需要庄家真的打出一张牌。”"""
    g = rig(["123m456m789m234p5s", *JUNK], "6z")
    assert g.current_seats() == [0] and actions(g, 0) == {"庄家抢金", "pass"}
    hand = sorted(t.name for t in g.st.seats[0].hand)
    g.apply(0, move(g, 0, "庄家抢金"))
    res = g.result()
    assert res["winners"] == [0] and [f["pattern"] for f in res["scores"][0]["fans"]] == ["抢金"]
    assert sorted(t.name for t in g.st.seats[0].hand) == hand  # nothing was discarded
    assert paid(g, "胡牌") == {(1, 0): 16, (2, 0): 16, (3, 0): 16}


def test_two_golds_are_not_tianting():
    """“玩家起手有两张金牌，即摸到第三张可以三金倒不算天听，不可以直接胡牌，也不可以抢金”."""
    g = rig([JUNK[0], GOLD * 2 + "147m25p147s1z2z3z", JUNK[1], JUNK[2]], "6z")
    assert g.current_seats() == [0]  # nobody has an opening win: the dealer plays its first turn
    assert all(m.action == "discard" for m in g.legal_moves(0))


# ---------------------------------------------------------------------- 游金, 双游, 三游 (two players)

YJ_DEALER = "159m159p159s1z2z3z4z"  # far from ready, no gold
YJ_SEAT1 = "123m456m789m23p1z2z"    # draws 4p, gives up 2z: waiting on 1z alone


def youjin_game(draws: str) -> Game:
    """Seat 1 draws 4p (discards 2z: waits on 东), then the draws given (seat 1's every other)."""
    return rig([YJ_DEALER, YJ_SEAT1], "5z", draws="4p6z" + draws, players=2)


def phases(g: Game, seat: int) -> tuple[bool, bool, bool]:
    v = g.st.seats[seat].vars
    return v["游金中"], v["双游中"], v["三游中"]


def to_youjin(g: Game) -> None:
    discard(g, 0, "5z")
    discard(g, 1, "2z")
    discard(g, 0, "6z")
    assert {"自摸", "discard"} <= actions(g, 1)  # drew the gold: may win now, or swim
    discard(g, 1, "1z")  # the gold is left alone: any tile wins
    assert phases(g, 1) == (True, False, False)


def test_youjin_single_swim_scores_danyou():
    """“游金：当可以胡牌时，如果金牌刚好可以当做对子中的其中一张，可以将对子中的另一张牌打出，下一圈到自己摸牌时
    将金牌现开”; “点游金之后，只能打可构成单吊金牌的牌”."""
    g = youjin_game(GOLD + "7z9s")
    to_youjin(g)
    discard(g, 0, "7z")
    # drew 9s: it wins (单吊金); the only discard that keeps the lone gold is the 9s itself
    assert {m.action for m in g.legal_moves(1)} == {"自摸", "discard"}
    assert [m.tiles for m in g.legal_moves(1) if m.action == "discard"] == [names(g.rules, "9s")]
    g.apply(1, move(g, 1, "自摸"))
    res = g.result()
    assert [f["pattern"] for f in res["scores"][1]["fans"]] == ["单游"] and res["scores"][1]["score"] == 5
    assert paid(g, "胡牌") == {(0, 1): 20}  # 底分 2 × 5, doubled: the dealer loses


def test_shuangyou_and_sanyou_by_discarding_drawn_golds():
    """“双游：当游金时，摸到的牌正好是另一张金，可以将金牌打出，做双游牌型”; “三游：当双游时，摸到的牌又是一张金，
    可以再次将金牌打出，下一回合胡牌算三游”."""
    g = youjin_game(GOLD + "7z" + GOLD + "6z" + GOLD + "7z3s")
    to_youjin(g)
    discard(g, 0, "7z")
    discard(g, 1, GOLD)  # the second gold is thrown: 双游
    assert phases(g, 1) == (True, True, False)
    assert g.st.table["金限制"] is g.st.seats[1] and g.st.table["严金限制"] is None
    discard(g, 0, "6z")
    discard(g, 1, GOLD)  # the third gold, thrown right after the second: 三游
    assert phases(g, 1) == (True, True, True)
    assert g.st.table["严金限制"] is g.st.seats[1]
    discard(g, 0, "7z")
    g.apply(1, move(g, 1, "自摸"))
    res = g.result()
    assert [f["pattern"] for f in res["scores"][1]["fans"]] == ["三游"] and res["scores"][1]["score"] == 20
    assert paid(g, "胡牌") == {(0, 1): 80}


def test_passing_the_win_in_shuangyou_falls_back_to_youjin():
    """“双游时，若玩家过胡，则后面胡牌只算游金（满足游金的条件下）”."""
    g = youjin_game(GOLD + "7z" + GOLD + "6z" + "3s" + "7z" + "4s")
    to_youjin(g)
    discard(g, 0, "7z")
    discard(g, 1, GOLD)
    discard(g, 0, "6z")
    discard(g, 1, "3s")  # drew 3s and passed the 双游 win
    assert phases(g, 1) == (True, False, False)
    discard(g, 0, "7z")
    g.apply(1, move(g, 1, "自摸"))
    sc = g.result()["scores"][1]
    assert [f["pattern"] for f in sc["fans"]] == ["单游"] and sc["score"] == 5


def test_a_thrown_gold_restricts_the_others_until_its_thrower_discards_again():
    """“打出金牌后，其他玩家不能自摸胡，不能点炮胡，不能碰牌…只能胡游金及游金以上的牌型…或者胡杠上自摸”;
    “轮到打金牌出去的玩家打牌了…则牌局恢复正常”; “打出去的金牌…不可以被吃，也不可以被碰、杠”."""
    dealer = "159m159p1s3s3s1z2z3z4z"     # holds a pair of 3s
    seat2 = "234m567m234p99p12s"          # waits on 3s (ready from the start: it passes 抢金)
    draws = "4p7z6z" + GOLD + "7z6z" + GOLD + "3s7z9s3s"
    g = rig([dealer, YJ_SEAT1, seat2], "5z", draws=draws, players=3)
    assert g.current_seats() == [2]
    g.apply(2, PASS)
    discard(g, 0, "5z")
    discard(g, 1, "2z")
    discard(g, 2, "7z")
    discard(g, 0, "6z")
    discard(g, 1, "1z")  # drew the gold: 游金
    discard(g, 2, "7z")
    discard(g, 0, "6z")
    discard(g, 1, GOLD)  # 双游: the gold is thrown; nobody may take it
    assert g.current_seats() == [2] and g.st.table["金限制"] is g.st.seats[1]
    assert "自摸" not in actions(g, 2)  # drew its winning 3s, but a plain win is not allowed now
    discard(g, 2, "3s")
    assert g.current_seats() == [0] and "碰" not in actions(g, 0)  # no pung while the gold restricts
    discard(g, 0, "7z")
    discard(g, 1, "9s")  # seat 1 passes its 双游 win and throws a plain tile: the restriction ends
    assert g.st.table["金限制"] is None and phases(g, 1) == (True, False, False)
    assert "自摸" in actions(g, 2)
    discard(g, 2, "3s")
    assert "碰" in actions(g, 0)


def test_only_self_drawn_wins_no_win_on_a_discard():
    """“胡牌方式：自摸胡牌，抢杠胡”; “不能吃，可以碰、杠”."""
    seat1 = "123m456m789m1p1p45s"  # waits on 3s / 6s
    g = rig(["3s147m257p69s1z2z3z4z", seat1, JUNK[1], JUNK[2]], "5z", draws="7z")
    g.apply(1, PASS)  # 抢金 declined
    discard(g, 0, "3s")
    # seat 1's hand wins on the 3s, but it is not offered: play goes on, seat 1 draws
    assert g.current_seats() == [1] and g.pending.kind == "turn"
    assert g.st.seats[1].drawn.name == "中" and g.st.seats[0].discards[-1].name == "三条"


ROB_SEAT1 = "3s3s258m369p1s7s4z5z6z"   # a pair of 3s to pung
ROB_SEAT2 = "123m456m789m1p1p45s"       # waits on 3s / 6s
ROB_SEAT3 = "234m567m234p99p12s"        # waits on 3s


def test_robbing_a_kong_the_robbed_pays_all_one_robber_only():
    """“抢杠胡…被抢杠全赔…不可以一炮多响。只包胡牌分，若存在多家可以抢杠，则优先被抢杠者的下家胡牌”;
    “4人场抢杠胡…闲家抢闲家的杠，闲家得8分”; “被抢杠的杠不算分”."""
    g = rig(["3s147m257p69s1z2z3z4z", ROB_SEAT1, ROB_SEAT2, ROB_SEAT3], "5z", draws="7z7z6z3s")
    assert g.current_seats() == [2, 3]
    pass_all(g)
    discard(g, 0, "3s")
    assert g.current_seats() == [1] and actions(g, 1) == {"碰", "pass"}
    g.apply(1, move(g, 1, "碰"))
    discard(g, 1, "4z")
    discard(g, 2, "7z")
    discard(g, 3, "7z")
    discard(g, 0, "6z")
    g.apply(1, move(g, 1, "补杠"))  # drew the last 3s
    assert g.current_seats() == [2, 3]
    g.apply(3, move(g, 3, "抢杠胡"))
    g.apply(2, move(g, 2, "抢杠胡"))
    res = g.result()
    assert res["winners"] == [2] and res["robbed"] == 1
    assert [m.kind for m in g.st.seats[1].melds] == ["碰"]  # the robbed kong is not made
    assert paid(g, "抢杠全赔") == {(1, 2): 8}
    assert {p["name"] for p in res["payments"]} == {"抢杠全赔"}  # no 胡牌 from the others, no 杠分
    assert res["next_dealer"] == 1


def test_a_robbed_dealer_pays_double_for_everyone_three_players():
    """“3人的抢杠胡: 闲家抢庄家的杠，庄家出8分”."""
    dealer = "3s3s147m257p69s1z2z3z"  # a pair of 3s
    seat2 = "159m159p1s7s4z5z6z7z3s"  # throws a 3s
    g = rig([dealer, ROB_SEAT3, seat2], "5z", draws="7z6z" "2z6z" "3s", players=3)
    assert g.current_seats() == [1]
    g.apply(1, PASS)
    discard(g, 0, "5z")
    discard(g, 1, "7z")
    discard(g, 2, "3s")
    g.apply(0, move(g, 0, "碰"))
    discard(g, 0, "1z")
    discard(g, 1, "2z")
    discard(g, 2, "6z")
    g.apply(0, move(g, 0, "补杠"))
    g.apply(1, move(g, 1, "抢杠胡"))
    res = g.result()
    assert res["winners"] == [1] and res["robbed"] == 0
    assert paid(g, "抢杠全赔") == {(0, 1): 8}


def test_guoshougang_no_kong_after_choosing_the_pung():
    """“有过手杠：过手杠是指如果玩家可以明杠，但选择了碰，之后就不允许再补杠”; “无过手碰”."""
    seat1 = "3s3s3s258m369p1s4z5z6z"
    g = rig(["3s147m257p69s1z2z3z4z", seat1, JUNK[1], JUNK[2]], "5z", draws="7z7z6z7z")
    discard(g, 0, "3s")
    assert actions(g, 1) == {"碰", "明杠", "pass"}
    g.apply(1, move(g, 1, "碰"))
    assert g.st.seats[1].vars["过手杠"] == [g.cat.by_name[names(g.rules, "3s")[0]]]
    discard(g, 1, "4z")
    discard(g, 2, "7z")
    discard(g, 3, "7z")
    discard(g, 0, "6z")
    assert "补杠" not in actions(g, 1)  # holds the fourth 3s beside its pung, but may not kong it


def test_no_guoshoupeng_a_passed_pung_is_offered_again():
    """“无过手碰”: passing a pung does not forbid a later pung of the same tile."""
    g = rig(["3s3s147m257p69s1z2z3z", ROB_SEAT1, JUNK[1], JUNK[2]], "4z", draws="8s8s8s6z")
    discard(g, 0, "3s")
    assert actions(g, 1) == {"碰", "pass"}
    g.apply(1, PASS)
    discard(g, 1, "8s")
    discard(g, 2, "8s")
    discard(g, 3, "8s")
    discard(g, 0, "3s")
    assert actions(g, 1) == {"碰", "pass"}


# ---------------------------------------------------------------------- 分饼 (four players only)

FB_DEALER = "5m1z1m9m1p9p1s9s2z3z4z5z6z"  # with its 14th tile 6m: twelve orphan kinds, not ready
FB_SEATS = ["5m1z2m7m2p7p2s7s3p3s2z3z4z", "5m1z3m6m4p6p4s6s5z6z7z1m9m", "5m1z4m7m5p9p5s8s2z3z4z5z6z"]


def test_fenbing_the_dealer_pays_when_everyone_follows_doubling_each_round():
    """“分饼：类似跟庄，仅限第一轮开始，在第一轮庄家出牌，其他家均打出同一张牌…第一轮，跟的是序数牌，庄家每家每家支付2分，
    跟的是字牌，庄家每家给1分。以后每轮翻倍”."""
    g = rig([FB_DEALER, *FB_SEATS], "6m", draws="3m4m6m" "2m" "2m3m4m")
    discard(g, 0, "5m")
    for s in (1, 2):
        discard(g, s, "5m")
        assert paid(g, "分饼") == {}
    discard(g, 3, "5m")  # the round is complete: the dealer pays each other player 2
    assert paid(g, "分饼") == {(0, 1): 2, (0, 2): 2, (0, 3): 2}
    discard(g, 0, "1z")
    for s in (1, 2, 3):
        discard(g, s, "1z")
    # second round, an honour: 1, doubled
    assert [p["amount"] for p in g.result()["payments"]] == [2, 2, 2, 2, 2, 2]
    assert g.st.table["分饼"]


def test_fenbing_stops_for_good_once_a_round_breaks():
    """“从A-D为一圈，只要BCD任意一圈出现和打出和A不一样的牌，则分饼效果中止，之前分饼分生效，后续再出现分饼效果则无效”."""
    g = rig([FB_DEALER, *FB_SEATS], "6m", draws="3m4m6m" "2m" "2m3m4m")
    discard(g, 0, "5m")
    discard(g, 1, "5m")
    discard(g, 2, "3m")  # breaks the round
    discard(g, 3, "5m")
    assert not g.st.table["分饼"] and paid(g, "分饼") == {}
    discard(g, 0, "1z")
    for s in (1, 2, 3):
        discard(g, s, "1z")
    assert paid(g, "分饼") == {}


def test_no_fenbing_with_three_players():
    """“三人和二人模式没有分饼玩法”."""
    g = rig([FB_DEALER, *FB_SEATS[:2]], "6m", draws="3m4m", players=3)
    for s in (0, 1, 2):
        discard(g, s, "5m")
    assert g.result()["payments"] == []


def test_player_counts_deal_13_and_the_dealer_14():
    """“游戏人数2、3、4人”; every player 13 tiles, the dealer one more."""
    for n in (2, 3, 4):
        g = Game(rules("longyan"), {"人数": n}, 5, dealer=0)
        assert g.n == n
        assert [len(s.hand) + sum(len(m.tiles) for m in s.melds) for s in g.st.seats] == [14] + [13] * (n - 1)


# ---------------------------------------------------------------------- end of hand

class Passive:
    """Never wins or claims; lays down a concealed kong when it can; discards the drawn tile."""

    def choose(self, game, seat, moves):
        for m in moves:
            if m.action == "暗杠":
                return m
        if PASS in moves:
            return PASS
        drawn = game.st.seats[seat].drawn
        ds = [m for m in moves if m.action == "discard"]
        return next((m for m in ds if drawn is not None and m.tiles[0] == drawn.name), ds[0])


def test_exhaustive_draw_pays_kong_and_flower_kong_points_and_the_dealer_stays():
    """“流局算杠分（包括花杠分），暗杠需要亮出最上面那张给其他玩家看到”; “庄家胡牌或流局，下一局可以连庄”."""
    seat1 = "7z7z7z7z258p369s1s2m4s"
    seat2 = "春夏秋冬147p258s369m"
    g = rig([JUNK[0], seat1, seat2, JUNK[2]], "6z")
    res = play(g, [Passive() for _ in range(4)])
    assert res["exhausted"] and res["winners"] == []
    kong = g.st.seats[1].melds
    assert [m.kind for m in kong] == ["暗杠"]
    seen = g.observation(0)["seats"][1]["melds"]
    assert seen and len(seen[0]["tiles"]) == 1  # one tile of the concealed kong is shown to the others
    assert paid(g, "杠分") == {(0, 1): 2, (2, 1): 2, (3, 1): 2}
    assert paid(g, "花杠分") == {(0, 2): 2, (1, 2): 2, (3, 2): 2}
    assert res["deltas"] == [-4, 4, 4, -4]
    assert res["next_dealer"] == 0 and not g.violations


KONG_DEALER = "159m159p159s7s2z3z4z"  # throws its 7s when told to
KONG_SEAT2 = "7s7s7s456p123s3m3m6m7m"  # ready (5m/8m); kongs the dealer's 7s; the replacement is 5m


def gold_kong_game(third_gold: bool) -> Game:
    """Seat 1 swims (游金), throws a gold (双游) and, if `third_gold`, a second one in a row (三游); then the
    dealer throws 7s, seat 2 kongs it and draws its winning 5m as the replacement."""
    draws = "4p1z6z" + GOLD + "6z6z" + GOLD + "7z7z" + (GOLD + "7z1z" if third_gold else "")
    g = rig([KONG_DEALER, YJ_SEAT1, KONG_SEAT2], "5z", draws=draws, tail="5m" + GOLD, players=3)
    g.apply(2, PASS)  # 抢金 declined
    discard(g, 0, "5z")
    discard(g, 1, "2z")
    discard(g, 2, "1z")
    discard(g, 0, "6z")
    discard(g, 1, "1z")  # 游金
    discard(g, 2, "6z")
    discard(g, 0, "6z")
    discard(g, 1, GOLD)  # 双游: the others are restricted
    discard(g, 2, "7z")
    if third_gold:
        discard(g, 0, "7z")
        discard(g, 1, GOLD)  # a second gold in a row: 三游, the stricter restriction
        assert g.st.table["严金限制"] is g.st.seats[1]
        discard(g, 2, "7z")
    discard(g, 0, "7s")
    assert actions(g, 2) == {"明杠", "pass"}  # a kong is allowed, a pung would not be
    g.apply(2, move(g, 2, "明杠"))
    assert g.st.seats[2].drawn.name == "五万"
    return g


def test_after_one_thrown_gold_a_win_on_the_kong_replacement_is_allowed():
    """“打出金牌后，其他玩家…只能胡游金及游金以上的牌型…或者胡杠上自摸”; “可以杠牌”."""
    g = gold_kong_game(third_gold=False)
    assert "自摸" in actions(g, 2)
    g.apply(2, move(g, 2, "自摸"))
    assert g.result()["winners"] == [2]


def test_after_two_golds_in_a_row_only_a_concealed_kong_replacement_may_win():
    """“同一玩家连续打出2张金牌和做三游时打出金牌的限制…其他玩家不能自摸胡…不能游金或者杠上自摸胡。可以杠牌，只能暗暗后自摸”."""
    g = gold_kong_game(third_gold=True)
    assert "自摸" not in actions(g, 2)  # an exposed kong's replacement does not count


def test_shisanyao_self_drawn_scores_as_sanyou():
    """“十三幺胡牌类型（自摸与全自摸）：13张牌必须包含19万，19筒，19条和东南西北中发白，再加上上述13张牌里的任意
    一张，即可胡十三幺，为三游分数。”"""
    seat1 = "1m9m1p9p1s9s1z2z3z4z5z6z7z"  # one of each: waits on all thirteen
    g = rig(["2m4m6m3p5p7p2s4s6s8s3m5m7m", seat1], "6s", draws="1m", players=2)
    assert g.current_seats() == [1] and actions(g, 1) == {"闲家抢金", "pass"}  # ready from the deal (天听)
    g.apply(1, PASS)
    discard(g, 0, "6s")
    assert "自摸" in actions(g, 1)
    g.apply(1, move(g, 1, "自摸"))
    res = g.result()
    sc = res["scores"][1]
    assert res["winners"] == [1] and sc["form"] == "十三幺"
    assert [(f["pattern"], f["value"]) for f in sc["fans"]] == [("十三幺", 20)]  # 三游分 20
    assert paid(g, "胡牌") == {(0, 1): 80}  # as the 三游 win of test_shuangyou_and_sanyou_by_discarding_drawn_golds


def test_a_thirteen_orphans_hand_one_short_waits_on_the_missing_kind():
    """The engine's waits are the scoring runtime's: a 十三幺 hand missing 中 waits on 中 (a form that is not
    melds and pairs, so the waits cannot be read from the block tables alone)."""
    seat1 = "1m9m1p9p1s9s1z2z3z4z5z6z1m"
    g = rig(["2m4m6m3p5p7p2s4s6s8s3m5m7m", seat1], "6s", players=2)
    assert [t.name for t in g.waits(g.st.seats[1])] == ["中"]


def test_bots_discard_towards_thirteen_orphans_when_close():
    """The bots chase an `orphans` form (十三幺) when the hand lacks at most four of its kinds: they throw
    the tiles that are not terminals or honours first, and keep every kind's only copy."""
    from paili.runtime.game.bot_reads import orphans_discard

    g = rig(["1m9m1p9p1s9s1z2z3z4z5m6m3p", *JUNK], "7s")  # ten of the thirteen kinds, no melds
    assert g.current_seats() == [0]
    discards = [m for m in g.legal_moves(0) if m.action == "discard"]
    assert orphans_discard(g, g.st.seats[0], discards).tiles == names(g.rules, "7s")
    far = rig(["1m9m1p9p1s2m5m6m3p4p5s6s7s", *JUNK], "8s")  # five kinds: not worth chasing
    assert orphans_discard(far, far.st.seats[0], [m for m in far.legal_moves(0) if m.action == "discard"]) is None


def test_mixed_bot_keeps_swimming_while_a_gold_can_still_come():
    """The coverage bot (`--bots mixed`) passes an ordinary self-drawn win while it wins on any tile and a
    gold may still be drawn, until it has thrown a gold: in 双游 it takes the next win, since passing
    there falls back to 游金 (“双游时，若玩家过胡，则后面胡牌只算游金”)."""
    from paili.runtime.game.bots import MixedBot

    bot = MixedBot(0)
    bot.patience = 1.0  # always wait when waiting is worth it (the coverage runs use 19/20)
    g = youjin_game(GOLD + "7z3s")
    to_youjin(g)
    discard(g, 0, "7z")  # seat 1 draws 3s in 游金: two golds are still unseen
    assert "自摸" in actions(g, 1)
    assert bot._keep_waiting(g, 1, g.legal_moves(1)) == Move("discard", ("三条",))
    g = youjin_game(GOLD + "7z" + GOLD + "6z" + "3s")
    to_youjin(g)
    for seat, tile in ((0, "7z"), (1, GOLD), (0, "6z")):
        discard(g, seat, tile)  # 双游, then seat 1 draws 3s
    assert "自摸" in actions(g, 1)
    assert bot._keep_waiting(g, 1, g.legal_moves(1)) is None


# ---------------------------------------------------------------------- 游金 is a state reached by discarding

def test_a_single_wait_drawing_the_gold_is_an_ordinary_self_draw():
    """“游金：当可以胡牌时，如果金牌刚好可以当做对子中的其中一张，可以将对子中的另一张牌打出，下一圈到自己摸牌时
    将金牌现开，称为游金”: a hand waiting on 北 alone that draws the gold has discarded nothing to swim — an
    ordinary 自摸 (平胡), not 单游."""
    seat1 = "234m567m345p678s4z"  # ready on 北 only, no gold
    g = rig([YJ_DEALER, seat1], "5z", draws=GOLD, players=2)
    assert g.current_seats() == [1]
    g.apply(1, PASS)  # 抢金 declined
    discard(g, 0, "5z")
    assert phases(g, 1) == (False, False, False) and "自摸" in actions(g, 1)
    g.apply(1, move(g, 1, "自摸"))
    sc = g.result()["scores"][1]
    assert [f["pattern"] for f in sc["fans"]] == ["平胡"] and sc["score"] == 1
    assert paid(g, "胡牌") == {(0, 1): 4}  # 底分 2 × 1, doubled: the dealer loses


def test_seven_pairs_drawing_the_gold_is_qidui_and_discarding_the_seventh_swims():
    """“七对：手上牌型为11、22、33、44、55、66、7，自己摸到7，算自摸；若摸到金牌，打出7后，则进入游金状态”."""
    seat1 = "1m1m2m2m3p3p4p4p5s5s6s6s7s"
    g = rig([YJ_DEALER, seat1], "5z", draws=GOLD, players=2)
    g.apply(1, PASS)  # 抢金 declined (ready on 7s)
    discard(g, 0, "5z")
    g.apply(1, move(g, 1, "自摸"))  # drew the gold and won at once: 七对
    sc = g.result()["scores"][1]
    assert sc["form"] == "七对" and [f["pattern"] for f in sc["fans"]] == ["七对"] and sc["score"] == 3
    # the same hand throws its 7s instead: it is in 游金, and the next draw of any tile is 单游
    g = rig([YJ_DEALER, seat1], "5z", draws=GOLD + "6z" + "9s", players=2)
    g.apply(1, PASS)
    discard(g, 0, "5z")
    discard(g, 1, "7s")
    assert phases(g, 1) == (True, False, False)
    discard(g, 0, "6z")
    g.apply(1, move(g, 1, "自摸"))
    sc = g.result()["scores"][1]
    assert [f["pattern"] for f in sc["fans"]] == ["单游"] and sc["score"] == 5


def test_three_golds_are_sanjindao_not_gaibao_qiangjin():
    """“庄家天胡、闲家三金倒，庄家天胡优先”; “闲家起手就是游金状态，算盖宝抢金”: a non-dealer dealt three golds
    and a hand ready on a few tiles (not four sets and a lone gold) wins on any tile only by 三金倒 — it is
    offered 三金倒 and 抢金, not 盖宝抢金, and the dealer's 天胡 outranks both."""
    ready = GOLD * 3 + "123m456m78m9p1z"  # ready on 1z, 9p, 6m/9m …; removing a gold leaves no four sets
    g = rig([TIANHU, JUNK[0], ready, JUNK[1]], "5s")
    assert actions(g, 2) == {"闲家三金倒", "闲家抢金", "pass"}
    g.apply(2, move(g, 2, "闲家三金倒"))
    g.apply(0, move(g, 0, "天胡"))
    assert g.result()["winners"] == [0]  # 天胡 > 闲家三金倒
    # with three golds that do leave four sets and a lone gold, 盖宝抢金 is offered (and beats 天胡)
    swim = GOLD * 3 + "123m456m789m1p"
    g = rig([TIANHU, JUNK[0], swim, JUNK[1]], "5s")
    assert "闲家盖宝抢金" in actions(g, 2)


def test_the_dealers_opening_sanjindao_is_tianhu_not_gaibao_qiangjin():
    """“三金倒：玩家起手…只要手里握着3张金牌…直接胡牌”; “庄家起手就胡牌…即为天胡”; 盖宝抢金 is a dealer's 14 tiles
    that are “去掉一张是游金状态” — three golds and nothing else are not."""
    g = rig([SANJIN + "4z", JUNK[0], JUNK[1], JUNK[2]], "5z")
    assert "天胡" in actions(g, 0) and "庄家盖宝抢金" not in actions(g, 0)
    g.apply(0, move(g, 0, "天胡"))
    sc = g.result()["scores"][0]
    assert sc["form"] == "三金倒" and [f["pattern"] for f in sc["fans"]] == ["天胡"] and sc["score"] == 4


# ---------------------------------------------------------------------- 双游: pung, giving the gold up

SY_SEAT1 = "111m456m789m23p1z2z"  # like YJ_SEAT1, with a pung's pair of 1m


def to_shuangyou(g: Game) -> None:
    discard(g, 0, "5z")
    discard(g, 1, "2z")
    discard(g, 0, "6z")
    discard(g, 1, "1z")  # drew the gold: 游金
    discard(g, 0, "7z")
    discard(g, 1, GOLD)  # drew another gold and threw it: 双游
    assert phases(g, 1) == (True, True, False)


def test_a_shuangyou_player_who_pungs_keeps_shuangyou():
    """“有玩家双游时，做双游玩家依然可碰，开杠、杠后也算双游。所有玩家均不可碰牌”."""
    g = rig([YJ_DEALER, SY_SEAT1], "5z", draws="4p6z" + GOLD + "7z" + GOLD + "3z" + "6z" + "9s", players=2)
    to_shuangyou(g)
    discard(g, 0, "1m")  # the dealer throws a 1m: the 双游 player may pung it
    assert "碰" in actions(g, 1)
    g.apply(1, move(g, 1, "碰"))
    discard(g, 1, "1m")  # the lone gold stays
    assert phases(g, 1) == (True, True, False)
    discard(g, 0, "6z")
    g.apply(1, move(g, 1, "自摸"))
    sc = g.result()["scores"][1]
    assert [f["pattern"] for f in sc["fans"]] == ["双游"] and sc["score"] == 10
    assert paid(g, "胡牌") == {(0, 1): 40}


def test_in_shuangyou_the_gold_may_be_thrown_and_play_goes_on_as_usual():
    """“双游时需要告诉其他人，但也可以将金牌打掉，不再算双游，但可以胡普通牌”; in 单游 only a discard that keeps
    the lone gold is allowed (“点游金之后，只能打可构成单吊金牌的牌”)."""
    g = rig([YJ_DEALER, SY_SEAT1], "5z", draws="4p6z" + GOLD + "7z" + GOLD + "3z" + "9s" + "6z" + "9s", players=2)
    discard(g, 0, "5z")
    discard(g, 1, "2z")
    discard(g, 0, "6z")
    discard(g, 1, "1z")  # 游金
    discard(g, 0, "7z")
    gold = names(g.rules, GOLD)[0]
    # 游金 and drew a second gold: both golds are the same kind, so throwing one keeps the other alone
    discard(g, 1, GOLD)
    discard(g, 0, "3z")
    # 双游, drew 9s: the lone gold may now be thrown as well as the 9s
    allowed = {m.tiles[0] for m in g.legal_moves(1) if m.action == "discard"}
    assert allowed == {gold, names(g.rules, "9s")[0]}
    discard(g, 1, GOLD)
    assert phases(g, 1) == (False, False, False)
    discard(g, 0, "6z")
    g.apply(1, move(g, 1, "自摸"))  # drew the second 9s: an ordinary hand
    sc = g.result()["scores"][1]
    assert [f["pattern"] for f in sc["fans"]] == ["平胡"] and sc["score"] == 1


def test_in_danyou_the_lone_gold_may_not_be_thrown():
    """“点游金之后，只能打可构成单吊金牌的牌”."""
    g = youjin_game(GOLD + "7z9s")
    to_youjin(g)
    discard(g, 0, "7z")
    allowed = {m.tiles[0] for m in g.legal_moves(1) if m.action == "discard"}
    assert allowed == {names(g.rules, "9s")[0]}


def test_robbing_a_kong_in_danyou_is_paid_as_an_ordinary_self_draw():
    """“单游的抢杠就算平常自摸的 ,被抢杠的玩家包自摸分”; “3人的抢杠胡…闲家抢闲家的杠得6分”."""
    dealer = "3s147m257p69s1z2z3z4z"
    robbed = "3s3s258m369p1s7s4z5z6z"
    g = rig([dealer, YJ_SEAT1, robbed], "5z", draws="7z" "4p" "9m" "1p" + GOLD + "3s", players=3)
    discard(g, 0, "3s")
    g.apply(2, move(g, 2, "碰"))
    discard(g, 2, "4z")
    discard(g, 0, "7z")
    discard(g, 1, "2z")
    discard(g, 2, "9m")
    discard(g, 0, "1p")
    discard(g, 1, "1z")  # drew the gold: 游金
    assert phases(g, 1) == (True, False, False)
    g.apply(2, move(g, 2, "补杠"))  # drew the last 3s
    assert "抢杠胡" in actions(g, 1)
    g.apply(1, move(g, 1, "抢杠胡"))
    res = g.result()
    sc = res["scores"][1]
    assert res["winners"] == [1] and [f["pattern"] for f in sc["fans"]] == ["平胡"] and sc["score"] == 1
    assert paid(g, "抢杠全赔") == {(2, 1): 6}


# ---------------------------------------------------------------------- the scorer: only self-draw and 抢杠

def test_the_scorer_refuses_a_win_on_a_discard_and_a_gold_pung():
    """“胡牌方式：自摸胡牌，抢杠胡”; “金牌不可以和其他牌一起参与碰、杠”; a discarded gold is no third gold."""
    import pytest
    from paili.runtime.hand import HandError

    r = rules("longyan")
    res = r.score("123m456m789p234s5s", win="5s", context={"金牌": "东"})
    assert not res.win and res.reason == "龙岩麻将只能自摸胡牌或抢杠胡，不能胡别人打出的牌"
    assert r.score("123m456m789p234s5s", win="5s", self_drawn=True, context={"金牌": "东"}).win
    assert r.score("123m456m789p234s5s", win="5s", context={"金牌": "东", "抢杠": True}).win
    assert not r.score("8p8p147m25p147s东南西", win="8p", context={"金牌": "8p"}).win  # 三金倒 needs 3 in hand
    assert r.score("8p8p8p147m25p147s东南", context={"金牌": "8p"}).win  # 13 tiles, no winning tile: 三金倒
    with pytest.raises(HandError, match="never joins a 碰"):
        r.score("234m567m3p北北", melds=["碰:8p8p8p"], win="北", self_drawn=True, context={"金牌": "8p"})


def test_the_scorer_reads_youjin_from_the_state():
    """A single wait that draws the gold is 平胡 unless the hand is in 游金 (`--set 游金级数=1`); 单游 robbing a kong
    is an ordinary self-draw; equal 三金倒 and 抢金 show 三金倒 (“胡牌分数相同按照天胡>三金倒>抢金计算”)."""
    r = rules("longyan")
    base = {"金牌": "1s"}
    fans = lambda res: [f.pattern for f in res.evaluation.fans]  # noqa: E731
    assert fans(r.score("234m567m345p678s北", win="1s", self_drawn=True, context=base)) == ["平胡"]
    assert fans(r.score("234m567m345p678s北", win="1s", self_drawn=True, context={**base, "游金级数": 1})) == ["单游"]
    assert fans(r.score("234m567m345p678s北", win="1s", context={**base, "游金级数": 1, "抢杠": True})) == ["平胡"]
    assert not r.score("234m567m345p678s北", win="1s", context={**base, "游金级数": 2, "抢杠": True}).win
    tie = {"金牌": "8p", "天听": True, "三金倒分": 4, "双游分": 1}
    assert fans(r.score("8p8p8p123m456m78m东东", win="9m", context=tie)) == ["三金倒"]


# ---------------------------------------------------------------------- a session: states live for one hand

def test_fenbing_and_the_gold_restrictions_do_not_leak_into_the_next_hand():
    """“分饼：类似跟庄，仅限第一轮开始”; “轮到打金牌出去的玩家打牌了…则牌局恢复正常”: 分饼 and the gold
    restrictions are states of one hand (`lives hand`). In this seeded session the second hand ends while a
    thrown gold still restricts the table, and every hand starts with 分饼 open and no restriction."""
    from paili.runtime.game.bots import MixedBot
    from paili.runtime.game.session import Session

    s = Session(rules("longyan"), {}, seed=2, hands=3)
    ended = []
    while (g := s.new_hand()) is not None:
        t = g.st.table
        assert t["分饼"] is True and t["金限制"] is None and t["严金限制"] is None and t["饼牌"] is None
        play(g, [MixedBot(20 + i) for i in range(4)])
        ended.append(dict(g.st.table))
        s.finish(g)
    assert all(not t["分饼"] for t in ended)  # 分饼 had stopped in every hand…
    assert ended[1]["金限制"] is not None  # …and the second hand ended under a gold restriction


def test_under_a_gold_restriction_a_drawn_gold_completing_a_plain_wait_does_not_win():
    """“打出金牌后，其他玩家：…不能自摸胡…只能胡游金及游金以上的牌型”: 游金 is the state, so drawing the third gold
    into a plain wait is no 游金 win while another player's thrown gold restricts the table."""
    dealer = "159m159p1s3s3s1z2z3z4z"
    seat2 = "234m567m234p99p12s"  # waits on 3s; the gold completes it as 3s
    draws = "4p7z6z" + GOLD + "7z6z" + GOLD + GOLD
    g = rig([dealer, YJ_SEAT1, seat2], "5z", draws=draws, players=3)
    g.apply(2, PASS)
    for seat, tile in ((0, "5z"), (1, "2z"), (2, "7z"), (0, "6z"), (1, "1z"), (2, "7z"), (0, "6z"), (1, GOLD)):
        discard(g, seat, tile)
    assert g.current_seats() == [2] and g.st.seats[2].drawn.name == names(g.rules, GOLD)[0]
    assert phases(g, 2) == (False, False, False) and "自摸" not in actions(g, 2)
