"""扯胡子 in the game engine: cards turned from the stock (`reveal`), follow-ups (`follow`), the 醒
reveal after a win — complete bot hands with invariants checked, and a rigged-wall priority scenario."""
from __future__ import annotations

import json

from paili.runtime.game import PASS, Game
from paili.runtime.game.bots import GreedyBot, RandomBot, play
from paili.runtime.game.log import lines, replay
from paili.runtime.game.session import Session
from test_game import discard, move, rules


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
    wins, violations, errors, events = _hands(GreedyBot, 30)  # 王 wild: most greedy hands are won
    assert violations == 0 and errors == []
    assert wins >= 10 and events.get("胡", 0) == wins


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
    again = replay(json.loads(json.dumps(lines(s), ensure_ascii=False)), r)  # as written to a file
    assert [h["result"] for h in again.played] == [h["result"] for h in s.played]


# ---------------------------------------------------------------------- rigged scenarios from the seed
# ../shared/seeds/001_6853749061b3e1b4.txt. Hands are dealt dealer (seat 0) first, 20 cards each, then
# the dealer's 21st; the cards after that are drawn from the stock in turn.

def rig(hands: list[str], extra: str, draws: str = "", kings: int = 0, **kw) -> Game:
    return Game(rules("chehuzi"), {"王数": kings}, 1, dealer=0, wall="".join(hands) + extra + draws, **kw)


def melds(g: Game, seat: int) -> list[tuple[str, str]]:
    return [(m.kind, "".join(t.name for t in m.tiles)) for m in g.st.seats[seat].melds]


def card(g: Game, text: str) -> str:
    return g.rules.notation.parse(text)[0]


def acts(g: Game, seat: int) -> set[str]:
    return {m.action for m in g.legal_moves(seat)}


H0 = "一一一二二二肆肆肆伍伍伍陆陆九九玖四拾拾"
H1 = "三三三壹壹壹六六六捌捌捌十十柒柒四四五五"
H2 = "七七七贰贰贰叁叁叁八八八九玖六陆十柒拾伍"


def test_qing_a_drawn_fourth_card_goes_down_face_down_then_a_discard():
    """“倾牌：摸的牌，刚好手里有一坎，凑成四张一样的。必须将这四张摆到牌桌，四张全暗。”"""
    g = rig([H0, H1, H2], "十", draws="三")
    discard(g, 0, "九")  # nobody can take it; seat 1 draws its fourth 三
    assert melds(g, 1) == [("倾", card(g, "三") * 4)]
    assert g.st.events["倾"] == 1 and g.st.events.get("reveal", 0) == 0  # taken unasked, never turned over
    seen = g.observation(0)["seats"][1]["melds"][0]
    assert seen["tiles"] == [] and seen["hidden"] == 4
    # 倾 then a discard; the cards of a 坎 may not be thrown
    assert {m.tiles[0] for m in g.legal_moves(1)} == {card(g, x) for x in "四五十柒"}


def test_xiao_a_drawn_third_card_on_a_pair_before_anyone_may_win():
    """“啸牌：摸牌时，自己手里刚好有一对该牌，必须将牌由手上放到桌面，三张全暗（啸后要出一张牌）”;
    “优先级: 倾＞啸＞胡＞跑碰＞吃”."""
    winner = "壹贰叁二七十肆肆肆四六伍陆柒八九十三三叁"  # seat 2 wins on a turned 五
    dealer = "一一一捌捌捌玖玖玖拾拾拾三六六二二七七九"
    seat1 = "壹壹壹贰贰贰陆陆陆伍伍伍柒柒八八五五十叁"
    g = rig([dealer, seat1, winner], "九", draws="五")
    discard(g, 0, "三")
    assert acts(g, 2) == {"碰", "pass"}
    g.apply(2, PASS)
    assert melds(g, 1) == [("啸", card(g, "五") * 3)]  # seat 1's own draw: 啸 before the card is shown
    assert g.st.events.get("reveal", 0) == 0 and g.current_seats() == [1]
    seen = g.observation(0)["seats"][1]["melds"][0]
    assert seen["tiles"] == [] and seen["hidden"] == 3


def test_chouxiao_after_refusing_a_pung():
    """“臭啸：第一次碰牌点取消（忍碰），接下来又啸了该牌，称为臭啸，暗2张亮一张”;
    “过张：…选择了放弃时…不能再吃碰该牌”."""
    g = rig([H0, H1, H2], "十", draws="四")
    discard(g, 0, "四")
    assert {str(m) for m in g.legal_moves(1)} >= {"碰 4小4小4小", "吃 3小4小5小 [一句话]", "pass"}
    g.apply(1, PASS)
    four = g.cat.by_name[card(g, "四")]
    assert four in g.st.seats[1].vars["过张"] and g.st.seats[1].vars["忍碰"] == [four]
    assert melds(g, 1) == [("臭啸", card(g, "四") * 3)]
    seen = g.observation(0)["seats"][1]["melds"][0]
    assert seen["tiles"] == [card(g, "四")] and seen["hidden"] == 2


def test_pao_from_a_kan_then_chongpao_without_a_discard():
    """“跑牌：1.自己手里有一坎，别人打 或者摸出该张牌，则可以跑，第一次跑牌需要出牌”;
    “重跑：跑过一次牌后，又跑了牌,此时不用出牌，直接轮到下家出牌”; 跑 ranks above 吃."""
    g = rig([H0, H1, H2], "十", draws="七八")
    discard(g, 0, "九")
    # seat 1 turns over 七: seat 2 holds a 坎 of 七 and may 跑; seat 1 could 吃 it
    assert "跑" in acts(g, 2) and "吃" in acts(g, 1)
    g.apply(1, move(g, 1, "吃", "五六七"))
    g.apply(2, move(g, 2, "跑"))
    assert melds(g, 2) == [("跑", card(g, "七") * 4)] and melds(g, 1) == []
    assert g.current_seats() == [2] and all(m.action == "discard" for m in g.legal_moves(2))
    discard(g, 2, "玖")
    g.apply(0, PASS)  # the dealer could 吃 it (九玖玖)
    # the dealer turns over 八: seat 2 already has a 跑, so this is 重跑
    assert "重跑" in acts(g, 2)
    for s in g.current_seats():
        g.apply(s, move(g, 2, "重跑") if s == 2 else PASS)
    assert melds(g, 2) == [("跑", card(g, "七") * 4), ("跑", card(g, "八") * 4)]
    assert [t.name for t in g.st.seats[2].discards] == [card(g, "玖")]  # no discard after 重跑
    assert g.st.last_drawer == 0 and g.violations == []  # play went on from seat 2's next seat, the dealer


def test_chi_then_bipai():
    """“比牌：当吃的牌手里还有凑成一句话时，必须要将手中与该牌组成一句话的组合放到桌面”."""
    g = rig([H0, H1, H2], "十")
    discard(g, 0, "四")
    g.apply(1, move(g, 1, "吃", "四五六"))
    assert melds(g, 1) == [("一句话", card(g, "四") + card(g, "五") + card(g, "六")),
                           ("一句话", card(g, "三") + card(g, "四") + card(g, "五"))]
    assert g.st.events["比牌"] == 1 and all(m.action == "discard" for m in g.legal_moves(1))


WIN1 = "壹贰叁二七十肆肆肆四六伍陆柒八九十三三叁"  # 15 胡息, waits on 五 (四五六)
WIN_DEALER = "一一一捌捌捌玖玖玖拾拾拾五六六二二七七九"
WIN_OTHER = "壹壹壹贰贰贰陆陆陆伍伍伍柒柒八八四四十叁"


def test_win_only_on_stock_cards_and_fanxing():
    """“扯胡子不能接炮，只能胡牌墩上的牌”; “翻醒：胡牌后，再摸一张。摸的牌自己所有牌里面有几张牌就加几囤”;
    “计分公式：（囤数+醒牌）*胡牌番数”."""
    g = rig([WIN_DEALER, WIN1, WIN_OTHER], "九", draws="五肆")
    discard(g, 0, "五")
    assert "胡" not in acts(g, 1)  # a thrown card cannot be won
    g.apply(1, PASS)
    # seat 1 draws 五 from the stock: it may win (self-drawn)
    assert "胡" in acts(g, 1)
    for s in g.current_seats():
        g.apply(s, move(g, 1, "胡") if s == 1 else PASS)
    res = g.result()
    sc = res["scores"][1]
    assert res["winners"] == [1] and sc["self_drawn"]
    assert g.st.reveals["醒牌"].name == card(g, "肆")  # the next stock card; seat 1 holds three 肆: 3 醒
    assert [f["pattern"] for f in sc["fans"]] == ["自摸"] and sc["score"] == (2 + 3) * 2
    assert {(p["payer"], p["payee"]): p["amount"] for p in res["payments"]} == {(0, 1): 10, (2, 1): 10}
    assert res["next_dealer"] == 1


def test_a_drawn_king_is_shown_taken_in_and_a_card_thrown():
    """“在之后摸牌过程中摸到的王霸需要明示，明示后王霸收进手牌，另外打一张牌出来”; “手中有王霸的玩家…不能打出”."""
    g = rig([H0, H1, H2], "十", draws="王", kings=1)
    discard(g, 0, "九")
    assert g.st.events["亮王"] == 1 and g.current_seats() == [1]
    assert card(g, "王") in [t.name for t in g.st.seats[1].hand]
    assert g.observation(2)["seats"][1]["hand_size"] == 21
    assert card(g, "王") not in {m.tiles[0] for m in g.legal_moves(1)}


class _Passive:
    def choose(self, game, seat, moves):
        return PASS if PASS in moves else moves[0]


def test_exhaustive_draw_king_compensation_capped_by_the_winners_balance():
    """“如果黄庄了，则手中有王霸的玩家需要赔付没有王霸的玩家（王多赔差值给王少的），一张王霸赔付5倍基础分，两张则是10分”;
    “当局允许赢取的金币不能超过自己当前的金币”."""
    dealer = "王王一一一二二二肆肆肆伍伍伍陆陆九九玖四"
    g = rig([dealer, H1, H2], "拾", kings=2, balances=[1000, 4, 1000])
    res = play(g, [_Passive() for _ in range(3)])
    assert res["exhausted"] and res["winners"] == []
    assert [(p["name"], p["payer"], p["payee"], p["amount"]) for p in res["payments"]] == [
        ("黄庄赔王", 0, 1, 4), ("黄庄赔王", 0, 2, 10)]
    assert res["next_dealer"] == 0 and g.violations == []


def test_sishou_no_card_to_throw_after_qing_and_no_win_afterwards():
    """“死手：当手里有两张及以上王，并且其他手里牌全成坎时，这时候跑或者倾没有牌打出时就死手，死手后不能胡牌，只能摸牌了”."""
    seat1 = "三三三壹壹壹六六六捌捌捌十十十伍伍伍王王"
    dealer = "一一一二二二肆肆肆陆陆九九玖四七七八八叁"
    seat2 = "七贰贰贰叁叁八九玖陆拾拾拾柒柒柒四四五五"
    g = rig([dealer, seat1, seat2], "五", draws="三" "贰" "叁" "五", kings=2)
    discard(g, 0, "五")
    for s in g.current_seats():  # 五 thrown: whoever may 吃/碰 passes
        g.apply(s, PASS)
    # seat 1 drew its fourth 三: 倾, and then nothing it may throw (坎 and 王 only): 死手, the turn passes
    assert melds(g, 1) == [("倾", card(g, "三") * 4)]
    assert g.st.seats[1].vars["死手"] and g.st.seats[1].discards == []
    while g.st.last_drawer != 1:  # play on until seat 1 turns over its own next card (五)
        for s in g.current_seats():
            g.apply(s, PASS if PASS in g.legal_moves(s) else g.legal_moves(s)[0])
    # 王王 + five 坎 + 倾 would win with any card (王闯), but a 死手 player may not win
    assert "胡" not in acts(g, 1)


def test_guozhang_a_passed_card_is_not_offered_again():
    """“过张：当玩家有机会吃碰该牌，选择了放弃时，称为过张。过张后，玩家不能再吃碰该牌，直到单局结束”."""
    g = rig([H0, H1, H2], "十", draws="二肆玖玖")
    discard(g, 0, "九")
    nine = card(g, "玖")
    while not (g.pending is not None and g.pending.event == "reveal" and g.st.last_drawer == 0):
        for s in g.current_seats():  # seats 1 and 2 turn over 二 and 肆: every offer is passed
            g.apply(s, PASS)
    assert g.st.seats[0].discards[-1].name == nine and "吃" in acts(g, 1)  # 柒捌玖
    for s in g.current_seats():
        g.apply(s, PASS)
    assert g.cat.by_name[nine] in g.st.seats[1].vars["过张"]
    # seat 1 turns over the other 玖 itself: it could 吃 it, but not after passing it
    assert g.st.last_drawer == 1 and g.st.seats[1].discards[-1].name == nine
    assert "吃" not in acts(g, 1) and "吃" in acts(g, 2)


class _WinsOnlyTheLastCard:
    """Passes everything it may pass, and wins only once the stock is empty."""

    def choose(self, game, seat, moves):
        if not game.st.wall:
            wins = [m for m in moves if m.action == "胡"]
            if wins:
                return wins[0]
        return PASS if PASS in moves else moves[0]


def test_haidi_the_last_stock_card_won_is_the_xing_card():
    """“胡海底：胡的是牌墩最后一张牌。此时不再翻醒，胡的这张牌就是醒牌。” (the rule file's reading of 翻醒 when no
    card is left to turn); “计分公式：（囤数+醒牌）*胡牌番数”."""
    g = Game(rules("chehuzi"), {"王数": 0}, 3, dealer=0, wall=WIN_DEALER + WIN1 + WIN_OTHER + "九", tail="五")
    res = play(g, [_WinsOnlyTheLastCard() for _ in range(3)])
    assert res["winners"] == [1] and not g.st.wall
    sc = res["scores"][1]
    assert sc["tile"] == card(g, "五") and sc["self_drawn"]
    assert g.st.context["海底"] is True
    assert g.st.reveals["醒牌"] is None  # nothing is turned
    # 15 胡息 = 2 囤; the won 五 is the 醒牌 and seat 1 holds no other 五: 1 醒; 自摸 ×2
    assert sc["score"] == (2 + 1) * 2
    assert {(p["payer"], p["payee"]): p["amount"] for p in res["payments"]} == {(0, 1): 6, (2, 1): 6}


# 一二三 is also a run: 吃 and 比牌 must lay it down as the kind the rules value (“大壹贰叁：6 小一二三：3”)
YI_DEALER = "一贰贰贰叁叁叁拾拾拾玖玖玖四四四五五五柒"
YI_SEAT1 = "二三壹壹壹捌捌捌四五六七八九肆伍陆伍陆十"  # 壹坎6 + 捌坎6 + runs; 吃一 gives 一二三 3: 15 胡息
YI_SEAT2 = "二二二三三三六六七七七八八八十十十肆肆肆"


def test_chi_of_yi_er_san_is_an_yi_er_san_worth_its_huxi_and_wins():
    """“小一二三：3”; “七门子,满15胡息即可胡牌”: after 吃 一 with 二三 the meld is 一二三 (3 胡息), offered once,
    and with 壹坎 6 + 捌坎 6 the hand reaches 15 胡息 and wins on a turned 柒 (as 一句话 it would have 12)."""
    g = rig([YI_DEALER, YI_SEAT1, YI_SEAT2], "六", draws="柒九")
    discard(g, 0, "一")
    chi = [m for m in g.legal_moves(1) if m.action == "吃" and sorted(m.tiles) == sorted(card(g, x) for x in "一二三")]
    assert [m.meld for m in chi] == ["一二三"]  # one move, naming the kind
    g.apply(1, chi[0])
    assert melds(g, 1) == [("一二三", card(g, "一") + card(g, "二") + card(g, "三"))]
    discard(g, 1, "十")
    g.apply(2, PASS)  # seat 2 could 跑 the 十
    assert "胡" in acts(g, 1)  # seat 2 turned over 柒
    for s in g.current_seats():
        g.apply(s, move(g, 1, "胡") if s == 1 else PASS)
    res = g.result()
    sc = res["scores"][1]
    assert res["winners"] == [1] and not sc["self_drawn"] and sc["fans"] == []
    # 15 胡息 = 2 囤; the 醒 card 九: seat 1 holds one; no 名堂: (2 + 1) × 1
    assert g.st.reveals["醒牌"].name == card(g, "九") and sc["score"] == 3
    assert g.violations == []


def test_bipai_of_da_yi_er_san_is_also_yi_er_san():
    """“大壹贰叁：6”; “比牌：当吃的牌手里还有凑成一句话时，必须要将手中与该牌组成一句话的组合放到桌面”."""
    dealer = "壹肆肆肆伍伍伍陆陆九九玖四拾拾七七八八三"
    seat1 = "壹贰贰叁叁一一一六六六捌捌捌十十柒柒四五"  # 壹 贰贰 叁叁: 吃 a thrown 壹, then 比牌 壹贰叁
    seat2 = "七七二二二三三三八八九玖六陆拾柒拾伍贰十"
    g = rig([dealer, seat1, seat2], "十")
    discard(g, 0, "壹")
    chi = [m for m in g.legal_moves(1) if m.action == "吃" and sorted(m.tiles) == sorted(card(g, x) for x in "壹贰叁")]
    assert [m.meld for m in chi] == ["一二三"]
    g.apply(1, chi[0])
    big = card(g, "壹") + card(g, "贰") + card(g, "叁")
    assert melds(g, 1) == [("一二三", big), ("一二三", big)] and g.st.events["比牌"] == 1
    assert all(m.action == "discard" for m in g.legal_moves(1)) and g.violations == []
