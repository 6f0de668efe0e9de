"""风雷白城麻将 (rules/baicheng.pai) in the game engine: rigged-wall scenarios written from the seed text
(../shared/seeds/003_1e3c70aff3ac880a.txt) for what tests/test_game.py and tests/test_game_rules.py do
not cover yet: robbing a top-up kong (抢碰, 抢胡), kong payments (责任制), the next dealer."""
from __future__ import annotations

from paili.runtime.game import PASS, Game
from test_game import discard, move, rules

DEALER = "3m6m8m2p4p8p6s8s7m3p4m7p7s"
OTHER2 = "2s3m6m8m2p4p8p6s8s7m3p4m6p"
YAO = "1m1p1s234m567p99p78s"  # lays 幺杠 at the deal


def rig(seat1: str, seat3: str, draws: str, options: dict | None = None, dealer_hand: str = DEALER,
        extra: str = "白") -> Game:
    return Game(rules("baicheng"), options or {}, 11, dealer=0,
                wall=[dealer_hand + seat1 + OTHER2 + seat3 + extra + draws], tail=["6s9m"])


def paid(g: Game, name: str) -> dict[tuple[int, int], int]:
    return {(p["payer"], p["payee"]): p["amount"] for p in g.result()["payments"] if p["name"] == name}


def top_up(g: Game) -> None:
    """Seat 1 lays its 幺杠 at the deal, the dealer throws 白, seat 1 draws 1m and tops the kong up."""
    g.apply(1, move(g, 1, "幺杠"))
    discard(g, 0, "白")
    g.apply(1, move(g, 1, "补杠"))


def test_qiangpeng_a_pung_robs_the_top_up_tile():
    """“抢碰：补杠时，如果有人可以碰这张牌，则可以被碰的人抢走，被抢的这张牌将不在算补杠。”"""
    g = rig(YAO, "1m1m5m5m7p7p9s9s2p2p3s3s4s", draws="1m")
    top_up(g)
    assert g.current_seats() == [3] and {m.action for m in g.legal_moves(3)} == {"抢碰", "pass"}
    g.apply(3, move(g, 3, "抢碰"))
    assert [(m.kind, len(m.tiles)) for m in g.st.seats[1].melds] == [("幺杠", 3)]
    assert [m.kind for m in g.st.seats[3].melds] == ["碰"]
    assert g.current_seats() == [3] and all(m.action == "discard" for m in g.legal_moves(3))
    assert paid(g, "补杠分") == {}  # the robbed top-up is not a kong
    assert paid(g, "幺杠分") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}


def test_qianghu_the_robbed_player_pays_as_the_discarder():
    """“抢胡：补杠和碰牌自摸明杠时，如果有人胡这张牌，则可以被胡的人抢走”; “点炮（×2）”;
    “庄家（×2）：庄家胜负时都额外乘2”;
    “下庄：本局为庄家以外的人胡牌，则下一局按照逆时针的方向，轮到本局庄家的下一家坐庄”."""
    g = rig(YAO, "222s567p789s55m23m", draws="1m")  # seat 3 waits on 1m / 4m
    top_up(g)
    g.apply(3, move(g, 3, "抢胡"))
    res = g.result()
    assert res["winners"] == [3] and res["robbed"] == 1 and res["discarder"] == 1
    score = res["scores"][3]["score"]
    assert paid(g, "胡牌") == {(1, 3): 2 * score, (0, 3): 2 * score, (2, 3): score}
    assert paid(g, "补杠分") == {}
    assert res["next_dealer"] == 1


def test_exposed_kong_points_each_or_all_from_the_discarder_under_zerenzhi():
    """“明杠：+3分/人，如果是责任制，则点杠的人要包杠分。”"""
    seat1 = "7s7s7s1m5m9p2s5p9s3s4s4s4s"
    for options, expect in (({}, {(0, 1): 3, (2, 1): 3, (3, 1): 3}), ({"责任制": True}, {(0, 1): 9})):
        g = rig(seat1, "1m1m5m5m7p7p9s9s2p2p3s3s4s", draws="", options=options,
                dealer_hand="3m6m8m2p4p8p6s8s7m3p4m7p5m", extra="7s")
        discard(g, 0, "7s")
        g.apply(1, move(g, 1, "明杠"))
        assert paid(g, "明杠分") | paid(g, "明杠包杠") == expect


def test_concealed_kong_five_from_each_with_a_replacement_from_the_tail():
    """“暗杠：+5分/人”; kongs replace from the back of the wall, passing over the 宝 tile."""
    g = rig("7s1m5m9p2s5p9s3s白白白1p2m", "1m1m5m5m7p7p9s9s2p2p3s3s4s", draws="",
            dealer_hand="5s5s5s5s6m8m2p4p8p6s8s7m3p", extra="7p")
    g.apply(0, move(g, 0, "暗杠"))
    assert g.st.seats[0].drawn.name == "六条"  # the tile before the 宝 (九万) at the end
    assert g.st.reveals["宝牌"].name == "九万"
    assert paid(g, "暗杠分") == {(1, 0): 5, (2, 0): 5, (3, 0): 5}


def test_bao_gang_on_a_thrown_bao_is_paid_at_the_end_and_the_bao_moves():
    """“宝杠：玩家叉的宝牌算一个明杠…杠牌后不能在牌墙后提牌，只是最后计算结果的时候算分”;
    “换宝：当剩余的3张宝牌全部打出后，系统将选择牌墙中倒数第二张牌为宝牌”."""
    seat1 = "9m9m1p3p5p7p1s3s5s7s2m4m2s"
    g = Game(rules("baicheng"), {}, 11, dealer=0,
             wall=["2s3m6m8m2p4p8p6s8s7m3p4m6p" + seat1 + OTHER2 + "111m567p789s55m34s" + "9m"], tail=["8m9m"])
    assert g.st.reveals["宝牌"].name == "九万"
    wall = len(g.st.wall)
    discard(g, 0, "9m")
    assert "碰" not in {m.action for m in g.legal_moves(1)}  # a thrown 宝 is taken as 宝杠, not pung
    g.apply(1, move(g, 1, "宝明杠"))
    assert [(m.kind, len(m.tiles)) for m in g.st.seats[1].melds] == [("宝明杠", 3)]
    assert len(g.st.wall) == wall and all(m.action == "discard" for m in g.legal_moves(1))  # no replacement
    assert g.st.reveals["宝牌"].name == "八万"  # all four 九万 are seen: the 宝 moves to the next tail tile
    discard(g, 1, "2s")
    for s in g.current_seats():
        g.apply(s, move(g, s, "胡") if s == 3 else move(g, s, "pass"))
    res = g.result()
    assert res["winners"] == [3]
    assert paid(g, "宝明杠分") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}


SEAT3_46S = "111m234m789p55p46s"  # 三色, 幺九, a 刻牌; waits on 5s alone (46夹5)
QUIET1 = "2m2m5m5m7p7p9s9s2p2p3s3s4s"


def win_on_5s(options: dict) -> Game:
    g = rig(QUIET1, SEAT3_46S, draws="", options=options, extra="5s")
    discard(g, 0, "5s")
    for s in g.current_seats():
        g.apply(s, move(g, s, "胡") if s == 3 else move(g, s, "pass"))
    return g


def test_jiawu_doubles_the_win_on_a_five_in_the_middle():
    """“夹五（×2）：夹胡时，胡的牌是5条、5万、5饼中的任意一张。”; “夹五：选择后，…46夹胡5的时候，胡分加倍。”"""
    plain, doubled = win_on_5s({}), win_on_5s({"夹五": True})
    assert plain.result()["winners"] == doubled.result()["winners"] == [3]
    assert "夹五" not in {f["name"] for f in plain.result()["scores"][3]["fans"]}
    assert "夹五" in {f["name"] for f in doubled.result()["scores"][3]["fans"]}
    assert doubled.result()["scores"][3]["score"] == 2 * plain.result()["scores"][3]["score"] == 8
    # the dealer threw the tile: discarder ×2 and dealer ×2
    assert paid(doubled, "胡牌") == {(0, 3): 32, (1, 3): 8, (2, 3): 8}


def test_beikaobei_doubles_what_a_closed_loser_pays_only():
    """“背靠背（×2）：别人胡牌时，如果自己也没有吃、碰或明杠牌，则算门清，输的分数要再*2。”;
    “背靠背：选择后，输分的人门清时，输分加倍。如果不选，则门清输分不加倍。”"""
    closed = win_on_5s({"背靠背": True})
    assert paid(closed, "胡牌") == {(0, 3): 32, (1, 3): 8, (2, 3): 8}  # everyone closed: all doubled

    def seat1_pungs_then_throws_5s(options):
        g = rig("2m2m5m5m7p7p9s9s2p2p3s5s4s", SEAT3_46S, draws="", options=options, extra="7p",
                dealer_hand="3m6m8m2p4p8p6s8s7m3p4m6p7s")
        discard(g, 0, "7p")
        g.apply(1, move(g, 1, "碰"))
        discard(g, 1, "5s")
        g.apply(3, move(g, 3, "胡"))
        assert g.result()["winners"] == [3] and g.result()["scores"][3]["score"] == 4
        return g

    # seat 1 has a pung (not closed) and threw the tile (×2); the dealer ×2; seat 2 plain
    assert paid(seat1_pungs_then_throws_5s({}), "胡牌") == {(0, 3): 8, (1, 3): 8, (2, 3): 4}
    assert paid(seat1_pungs_then_throws_5s({"背靠背": True}), "胡牌") == {(0, 3): 16, (1, 3): 8, (2, 3): 8}


def test_bao_angang_three_drawn_bao_no_replacement_paid_at_the_end():
    """“宝杠：…手中自己摸到的三张宝牌可以进行暗杠…杠牌后不能在牌墙后提牌，只是最后计算结果的时候算分。”"""
    g = rig("9m9m2m5m8p2s5p8s3s4s4s4s7s", QUIET1, draws="9m", extra="白")
    assert g.st.reveals["宝牌"].name == "九万"
    discard(g, 0, "白")
    assert g.current_seats() == [1] and "宝暗杠 九万九万九万" in map(str, g.legal_moves(1))
    wall = len(g.st.wall)
    g.apply(1, move(g, 1, "宝暗杠"))
    assert [(m.kind, m.exposed, len(m.tiles)) for m in g.st.seats[1].melds] == [("宝暗杠", False, 3)]
    assert len(g.st.wall) == wall and all(m.action == "discard" for m in g.legal_moves(1))  # no replacement
    assert paid(g, "宝暗杠分") == {}  # nothing yet: it is settled at the end
    discard(g, 1, "2m")
    while not g.is_over():  # everyone passes and throws their first tile until the wall runs out
        s = g.current_seats()[0]
        moves = g.legal_moves(s)
        g.apply(s, next((m for m in moves if m.action == "pass"), None)
                or next(m for m in moves if m.action == "discard"))
    assert g.result()["exhausted"] and g.result()["winners"] == []
    assert paid(g, "宝暗杠分") == {(0, 1): 5, (2, 1): 5, (3, 1): 5}  # settled even when nobody wins


def test_top_up_only_extends_a_laid_kong_never_lays_a_new_one():
    """“补杠：幺九杠和喜杠杠出后，再摸到杠中的牌可以补杠” — `grow extend`: with a whole second 一万、一饼、幺鸡 in
    hand, 补杠 offers adding each of them to the laid 幺杠, not laying a second 幺杠."""
    g = rig("1m1p1s1m1p234m567p78s", "1m5m5m7p7p9s9s2p2p3s3s4s4m", draws="1s")
    g.apply(1, move(g, 1, "幺杠"))
    discard(g, 0, "白")
    tops = sorted(m.tiles for m in g.legal_moves(1) if m.action == "补杠")
    assert len(tops) == 3 and all(len(t) == 4 for t in tops)  # + 一万, + 一饼, + the drawn 幺鸡
    g.apply(1, next(m for m in g.legal_moves(1) if m.action == "补杠"))
    assert [(m.kind, len(m.tiles)) for m in g.st.seats[1].melds] == [("幺杠", 4)]


# ---------------------------------------------------------------------- 清一色 adds one-suit hands only

def test_qingyise_option_adds_one_suit_hands_and_never_two_suit_ones():
    """“清一色：选择后可以一色胡牌，不选必须三色全胡牌”; “如果有中、发、白，可以胡一色，但是不按清一色算番”:
    the option lets a one-suit hand win besides the three-suit ones; a hand of two suits never wins."""
    r = rules("baicheng")
    two_suits = ("234m678p99p55m", ["碰:111m"], "5m")
    one_suit = ("234m567m99m55m", ["碰:111m"], "5m")
    one_suit_dragons = ("234m567m55m中中", ["碰:111m"], "中")
    three_suits = ("234m567p789s5m", ["碰:111m"], "5m")
    for on in (False, True):
        ctx = {"清一色": on}
        assert not r.score(*two_suits, context=ctx).win
        assert r.score(*three_suits, context=ctx).win
        assert r.score(*one_suit, context=ctx).win == on
        assert r.score(*one_suit_dragons, context=ctx).win == on
        # a two-suit hand is not ready either (“必须三色全才能听牌或胡牌”)
        assert r.waits("234m678p99p55m", ["碰:111m"], context=ctx) == []
    on = {"清一色": True}
    assert "清一色" in {f.name for f in r.score(*one_suit, context=on).fans}
    assert "清一色" not in {f.name for f in r.score(*one_suit_dragons, context=on).fans}


def test_qingyise_option_in_play_offers_no_win_to_a_two_suit_hand():
    """The same in a game with 清一色 chosen: the dealer throws 5m; seat 3 holding two suits (万 and 筒) is
    not offered 胡, seat 1 holding one suit (万) is."""
    for seat1, seat3, winner in (("111m234m678m99m55m", "1p1p1p2p3p4p6p7p9p9p2s2s3s", 1),
                                 ("1s1s2s2s3s3s4s4s5s5s7s7s8p", "111m234m678p99p55m", None)):
        g = rig(seat1, seat3, draws="", options={"清一色": True},
                dealer_hand="3m6m8m2p4p8p6s8s7m3p4m7p7s", extra="5m")
        discard(g, 0, "5m")
        offered = {s for s in g.current_seats() if "胡" in {m.action for m in g.legal_moves(s)}}
        assert offered == ({winner} if winner is not None else set())


# ---------------------------------------------------------------------- 补杠 may be repeated

def paid_total(g: Game, name: str) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for p in g.result()["payments"]:
        if p["name"] == name:
            out[(p["payer"], p["payee"])] = out.get((p["payer"], p["payee"]), 0) + p["amount"]
    return out


def test_top_up_may_be_repeated_and_each_one_pays_three_from_each():
    """“补杠：可以对喜杠和幺九杠进行补杠，每补1次杠+3分/人”: the same 幺杠 takes 幺鸡, then 一万, then 一饼,
    each a 补杠 of its own with a replacement from the wall and 3 points from every other player."""
    g = rig("1m1p1s1m1p234m567p78s", QUIET1, draws="1s")
    g.apply(1, move(g, 1, "幺杠"))
    discard(g, 0, "白")
    added = ""
    for n, tile in enumerate(("1s", "1m", "1p"), start=1):
        wall = len(g.st.wall)
        added += tile
        g.apply(1, move(g, 1, "补杠", "1m1p1s" + added))
        assert [(m.kind, len(m.tiles)) for m in g.st.seats[1].melds] == [("幺杠", 3 + n)]
        assert len(g.st.wall) == wall - 1  # a replacement each time
        assert paid_total(g, "补杠分") == {(0, 1): 3 * n, (2, 1): 3 * n, (3, 1): 3 * n}
    assert g.current_seats() == [1]


def test_each_repeated_top_up_may_be_robbed():
    """“抢碰：补杠时，如果有人可以碰这张牌，则可以被碰的人抢走，被抢的这张牌将不在算补杠” — also on a
    second 补杠 of the same kong: the first one stands and is paid, the robbed one is not."""
    g = rig("1m1p1s1m1p234m567p78s", "1p1p5m5m7p7p9s9s2p2p3s3s4s", draws="1s")
    g.apply(1, move(g, 1, "幺杠"))
    discard(g, 0, "白")
    g.apply(1, move(g, 1, "补杠", "1m1p1s1s"))
    g.apply(1, move(g, 1, "补杠", "1m1p1s1s1p"))
    assert g.current_seats() == [3] and "抢碰" in {m.action for m in g.legal_moves(3)}
    g.apply(3, move(g, 3, "抢碰"))
    assert [(m.kind, len(m.tiles)) for m in g.st.seats[1].melds] == [("幺杠", 4)]
    assert paid_total(g, "补杠分") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}


def test_a_grown_kong_of_several_further_tiles_scores():
    """A hand showing a 喜杠 topped up twice (中发白 + 中 + 发) is a legal meld for the scorer too."""
    r = rules("baicheng")
    res = r.score("123m456p789s5s", ["喜杠:中发白中发"], "5s")
    assert res.win and {f.name for f in res.fans} == {"夹胡"}


# ---------------------------------------------------------------------- several winners on one discard

def test_two_winners_on_one_discard_and_the_dealer_among_them_keeps_the_deal():
    """一炮多响 is allowed (a `note` says so: the seed is silent). Seat 1 throws 5s, on which seat 3 and the dealer
    both wait (46s夹5); both win. “连庄：本局庄家胡牌…则下一局开始后庄家继续坐庄” — although seat 3, nearer the
    discarder, is asked first. Each winner is paid by the players who did not win: “点炮（×2）”, “庄家（×2）”."""
    g = rig(QUIET1, "999m123p789p55m46s", draws="5s", dealer_hand=SEAT3_46S, extra="白")
    discard(g, 0, "白")
    discard(g, 1, "5s")
    assert g.current_seats() == [0, 3]
    for s in (0, 3):
        g.apply(s, move(g, s, "胡"))
    res = g.result()
    assert sorted(res["winners"]) == [0, 3] and res["discarder"] == 1
    # 46s夹5 = 夹胡 2分, no meld = 站立 ×2: 4 each
    assert res["scores"][0]["score"] == res["scores"][3]["score"] == 4
    assert paid_total(g, "胡牌") == {(1, 3): 8, (2, 3): 4, (1, 0): 16, (2, 0): 8}
    assert res["next_dealer"] == 0


def test_a_non_dealer_winning_alone_passes_the_deal():
    """“下庄：本局为庄家以外的人胡牌，则下一局…轮到本局庄家的下一家坐庄。”"""
    g = rig(QUIET1, "999m345p789p55m46s", draws="5s", extra="白")
    discard(g, 0, "白")
    discard(g, 1, "5s")
    assert g.current_seats() == [3]
    g.apply(3, move(g, 3, "胡"))
    assert g.result()["winners"] == [3] and g.result()["next_dealer"] == 1


# ---------------------------------------------------------------------- 宝 on the first draw of a ready hand

def first_draw_is_the_bao(seat1: str, lay_kong: bool) -> Game:
    g = rig(seat1, QUIET1.replace("5m5m", "6m6m"), draws="9m", extra="白")  # 宝牌 = 九万 (the tail)
    assert g.st.reveals["宝牌"].name == "九万"
    if lay_kong:
        g.apply(1, move(g, 1, "幺杠"))
    discard(g, 0, "白")
    assert g.current_seats() == [1] and g.st.seats[1].drawn.name == "九万"
    return g


def test_bao_on_the_first_draw_of_a_hand_dealt_ready_with_or_without_a_kong_at_the_deal():
    """“作用：玩家听牌后，摸到宝牌可以代替任何玩家所胡牌进行自摸胡牌”; “摸宝胡：玩家听牌后，只要摸到宝牌就可以胡牌”:
    seat 1 is dealt a hand waiting on 5s and draws the 宝 as its first tile — it wins by 摸宝 whether it laid its
    一万、一饼、幺鸡 as a 幺杠 at the deal or holds 一万 as a pung in hand."""
    for seat1, kong, fans, score in (("1m1p1s234m567p789s5s", True, {"夹胡", "自摸", "摸宝"}, 8),
                                     ("111m234m567p789s5s", False, {"夹胡", "自摸", "摸宝", "站立"}, 16)):
        g = first_draw_is_the_bao(seat1, kong)
        g.apply(1, move(g, 1, "自摸"))
        res = g.result()
        assert res["winners"] == [1]
        # 单吊5条 = 夹胡 2分; ×2 自摸, ×2 摸宝 (the 宝 is no 5条: no 宝中宝); a closed hand also 站立 ×2
        assert {f["name"] for f in res["scores"][1]["fans"]} == fans and res["scores"][1]["score"] == score


def test_bao_on_the_first_draw_is_an_ordinary_tile_for_a_hand_not_dealt_ready():
    """“而上听前摸到的宝牌…没有这种特殊作用”: dealt one tile short of ready, the same first draw cannot win."""
    for seat1, kong in (("1m1p1s234m567p79s4s3p", True), ("111m234m567p78s5s4s", False)):
        g = first_draw_is_the_bao(seat1, kong)
        assert "自摸" not in {m.action for m in g.legal_moves(1)}


def test_qianghu_also_robs_the_fourth_tile_added_to_a_pung():
    """“抢胡：补杠和碰牌自摸明杠时，如果有人胡这张牌，则可以被胡的人抢走”: seat 1 pungs 7s, later draws the last 7s
    and adds it (加杠); seat 3, waiting on 7s, robs it. No one could pung that tile: 抢碰 is not offered."""
    g = rig("7s7s1m5m9p2s5p9s3s4s4s4s2m", "111m234m789p55p68s", draws="白白白7s",
            dealer_hand="3m6m8m2p4p8p6s8s7m3p4m7p5m", extra="7s")
    discard(g, 0, "7s")
    for s in g.current_seats():
        g.apply(s, move(g, s, "碰") if s == 1 else PASS)
    discard(g, 1, "9p")
    for s in (2, 3, 0):
        assert g.current_seats() == [s]
        discard(g, s, "白")
        while g.current_seats() and g.current_seats() != [(s + 1) % 4]:
            g.apply(g.current_seats()[0], PASS)
    g.apply(1, move(g, 1, "加杠"))
    assert g.current_seats() == [3] and {m.action for m in g.legal_moves(3)} == {"抢胡", "pass"}
    g.apply(3, move(g, 3, "抢胡"))
    res = g.result()
    assert res["winners"] == [3] and res["robbed"] == 1
    assert paid(g, "加杠分") == {}


def test_bot_games_with_qingyise_win_with_one_or_three_suits_only():
    """A seeded sample of bot hands with 清一色 chosen (the 300-hand check is in docs/engine-coverage.md): every
    winning hand has all three suits or one suit — a 宝 counted as the tile it plays — never two."""
    from paili.runtime.game.bots import MixedBot, play

    r = rules("baicheng")
    suits_seen = []
    for seed in range(40):
        g = Game(r, {"清一色": True}, seed)
        play(g, [MixedBot(seed * 31 + i) for i in range(g.n)])
        for w in g.st.winners:
            reading = g.infos[w].result.evaluation.reading
            suits_seen.append(len({t.kind.suit for t in reading.tiles if t.kind.suit}))
    assert suits_seen and set(suits_seen) <= {1, 3}
    assert 1 in suits_seen  # the option does let one-suit hands win
