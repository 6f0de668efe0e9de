"""白金岛二人麻将 (rules/baijindao.pai) in the game engine: rigged-wall scenarios written from the seed
text (../shared/seeds/000_a458ac2558942afe.txt) for the ready declarations, the doubling decisions,
the tasks and the money. Each test quotes the sentence it checks.

Walls: the dealer (seat 0) is dealt 13, seat 1 13, then the dealer's 14th; the tiles after that are
drawn in turn (seat 1 first)."""
from __future__ import annotations

from fractions import Fraction

from paili.runtime.game import PASS, Game, Move
from test_game import discard, move, rig, rules

# The dealer throws its 14th tile (西) and waits on 南 alone: 123m 456m 789m 东东东 南.
READY_DEALER = "123m456m789m东东东南"
# Seat 1: far from ready; it throws 南 when told to.
LOOSE = "南1m4m7m2m5m8m3m6m9m西北白"


def fans(g: Game, seat: int) -> dict[str, int]:
    return {f["pattern"]: f["value"] for f in g.result()["scores"][seat]["fans"]}


def acts(g: Game, seat: int) -> set[str]:
    return {m.action for m in g.legal_moves(seat)}


def throw(g: Game, seat: int, tile: str) -> None:
    """Discard, and decline the ready declarations if they are offered."""
    discard(g, seat, tile)
    if g.current_seats() == [seat] and acts(g, seat) >= {"报听", "pass"}:
        g.apply(seat, PASS)


def settle_without_doubling(g: Game) -> None:
    """At the hand's end the winner of a small hand may propose 起始加倍: it does not."""
    while not g.is_over():
        for s in g.current_seats():
            g.apply(s, PASS)


def test_baoting_hands_the_seat_to_the_engine_tianting_and_the_fee():
    """“报听：报听后为托管自动摸打牌”; “天听：庄家打出第一张牌报听和闲家第一手牌报听为天听”;
    “输赢的手气值=房间倍率*总番数*加倍倍数*起始加倍倍数*任务加倍倍数*（1-0.0125）”."""
    g = rig("baijindao", [READY_DEALER, LOOSE], "西", draws="中发发")
    discard(g, 0, "西")
    assert acts(g, 0) == {"报听", "立直", "pass"}
    g.apply(0, move(g, 0, "报听"))
    s0 = g.st.seats[0]
    assert s0.auto and s0.vars["天听"] and s0.vars["托管"]
    # the action is declared `ready true`: the seat is ready and the `ready` event was raised once
    assert s0.ready and not g.st.seats[1].ready and g.st.events["ready"] == 1
    discard(g, 1, "中")
    # the dealer drew 发: it cannot win with it, so the engine throws it without asking
    assert g.current_seats() == [1] and [t.name for t in s0.discards] == ["西", "发"]
    discard(g, 1, "南")
    assert acts(g, 0) == {"胡", "加倍", "pass"}  # a ready seat is still asked about its wins
    g.apply(0, move(g, 0, "胡"))
    got = fans(g, 0)
    assert got["天听"] == 16 and "报听" not in got and "立直" not in got  # 天听 is the first-hand 报听 (不重复)
    score = g.result()["scores"][0]["score"]
    assert score == sum(got.values())  # 房间倍率 1, no doubling, no 起始加倍, no task
    settle_without_doubling(g)
    res = g.result()
    assert res["payments"] == [{"name": "胡牌", "event": "hand_end", "payer": 1, "payee": 0, "amount": score,
                                "fee": str(Fraction(score) / 80) if score % 80 else score // 80,
                                "amount_exact": str(score), "fee_exact": str(Fraction(score) / 80)}]
    assert Fraction(str(res["balances"][0])) == 1000 + Fraction(score) * Fraction(79, 80)
    assert res["balances"][1] == 1000 - score
    assert res["next_dealer"] == 0  # 以后谁胡牌由谁做庄家


def test_lizhi_hides_the_hand_even_from_a_ready_opponent():
    """“立直：在门前清的情况下扣牌报听”; “只有听牌情况下才能看见对方手牌”."""
    g = rig("baijindao", [READY_DEALER, "22m33m44m66m77m88m9m"], "西", draws="北中")
    discard(g, 0, "西")
    g.apply(0, move(g, 0, "立直"))
    discard(g, 1, "北")
    assert acts(g, 1) == {"报听", "立直", "pass"}
    g.apply(1, move(g, 1, "报听"))
    assert "hand" not in g.observation(1)["seats"][0]  # 立直: the dealer's hand stays face down
    assert sorted(g.observation(0)["seats"][1]["hand"]) == sorted(t.name for t in g.st.seats[1].hand)
    # an onlooker is no seat, so never ready: both hands stay face down to it, as counts
    seen = g.onlooker_observation()["seats"]
    assert [("hand" in d, d["hand_size"]) for d in seen] == [(False, len(s.hand)) for s in g.st.seats]


def test_lizhi_scores_instead_of_baoting():
    """“四番…立直：在门前清的情况下扣牌报听” (立直 is counted, 报听 not)."""
    g = rig("baijindao", [READY_DEALER, LOOSE], "西", draws="中发发")
    discard(g, 0, "西")
    g.apply(0, move(g, 0, "立直"))
    discard(g, 1, "中")
    discard(g, 1, "南")
    g.apply(0, move(g, 0, "胡"))
    got = fans(g, 0)
    assert got["立直"] == 4 and "报听" not in got and got["天听"] == 16


DEAD_SEAT1 = "南南南22m33m44m66m77m"  # holds the other three 南: the dealer's wait is dead; waits on 6m/7m


def test_dead_wait_protection_leaves_the_other_one_doubling():
    """“死听，就是点听牌后，发现待和牌全部在对手手中或桌面上”; “死听保护就是在双方都报听的情况下，如果至少有一方为死听，
    则取消对方连续加倍功能…当然我们还是会给对手1次加倍机会的”."""
    g = rig("baijindao", [READY_DEALER, DEAD_SEAT1], "西", draws="北白白6m发7m")
    discard(g, 0, "西")
    g.apply(0, move(g, 0, "报听"))
    discard(g, 1, "北")
    g.apply(1, move(g, 1, "报听"))
    # both seats are auto now: the engine plays until seat 1 may win on the dealer's 6m
    assert g.st.seats[0].vars["死听"] and g.st.table["死听保护"]
    assert acts(g, 1) == {"胡", "加倍", "pass"}
    g.apply(1, move(g, 1, "加倍"))  # the one doubling it is still given
    assert acts(g, 1) == {"胡", "pass"}  # on the 7m: no more doubling
    g.apply(1, move(g, 1, "胡"))
    got = fans(g, 1)
    assert got["加倍"] == 2
    assert g.result()["scores"][1]["score"] == sum(got.values()) * 2


def test_doubling_instead_of_winning_twice_then_winning():
    """“加倍就是放弃本次和牌机会，再次和牌成绩翻番！”; “加倍二次：底番+4番，赢×4倍”;
    “如果一方未报听，则未报听放可以持续加倍”."""
    g = rig("baijindao", [READY_DEALER, "22m33m44m66m77m88m9m"], "南", draws="北南中南")
    assert acts(g, 0) == {"胡", "加倍", "discard"}
    g.apply(0, move(g, 0, "加倍"))  # 天和 given up
    assert "胡" not in acts(g, 0)  # the win is declined for this turn
    throw(g, 0, "南")
    throw(g, 1, "北")
    g.apply(0, move(g, 0, "加倍"))  # drew 南: doubles again instead of winning
    throw(g, 0, "南")
    throw(g, 1, "中")
    g.apply(0, move(g, 0, "胡"))  # the last 南
    got = fans(g, 0)
    assert got["加倍"] == 4 and g.st.seats[0].vars["已加倍"] == 2
    assert g.result()["scores"][0]["score"] == sum(got.values()) * 4


def test_qishi_jiabei_refused_the_hand_is_paid():
    """“加倍开始是你和对手的一种协议。如果对方拒绝了，本局所得自动划入您的账户！”"""
    g = rig("baijindao", [READY_DEALER, LOOSE], "西", draws="中发发")
    throw(g, 0, "西")
    throw(g, 1, "中")
    throw(g, 0, "发")
    throw(g, 1, "南")
    g.apply(0, move(g, 0, "胡"))
    score = g.result()["scores"][0]["score"]
    assert [(m.action, m.choice) for m in g.legal_moves(0)] == [("起始加倍", 2), ("起始加倍", 4),
                                                              ("起始加倍", 8), ("pass", None)]
    g.apply(0, Move("起始加倍", (), 8))
    assert g.current_seats() == [1] and acts(g, 1) == {"应答起始加倍", "pass"}
    g.apply(1, PASS)  # refused
    res = g.result()
    assert g.is_over() and [(p["payer"], p["payee"], p["amount"]) for p in res["payments"]] == [(1, 0, score)]
    assert g.table_values()["下局起始加倍"] == 1


def test_an_agreed_qishi_jiabei_multiplies_the_next_hand():
    """“加倍开始，就是放弃本局所得，下局结果翻番！…如果和牌是10番，以8倍开始，结果就变成了80番”."""
    g = rig("baijindao", [READY_DEALER, LOOSE], "西", draws="中发发", table={"下局起始加倍": 8})
    throw(g, 0, "西")
    throw(g, 1, "中")
    throw(g, 0, "发")
    throw(g, 1, "南")
    g.apply(0, move(g, 0, "胡"))
    sc = g.result()["scores"][0]
    assert sc["score"] == 8 * sum(f["value"] for f in sc["fans"])
    # no multiplier above 8 exists, so nothing is proposed: the hand is settled at once
    assert g.is_over() and [p["amount"] for p in g.result()["payments"]] == [sc["score"]]


def test_a_big_win_is_settled_directly():
    """“加倍开始只有在和小牌（最大单个番数小于等于二十四番）时才能获得。如果是大和，我们就直接帮你结算！”"""
    g = rig("baijindao", ["123m456m789m东东东南", "22m33m44m66m77m88m9m"], "南")
    g.apply(0, move(g, 0, "胡"))  # 天和, 88 番
    assert g.is_over()
    res = g.result()
    assert "天和" in fans(g, 0) and res["events"].get("起始加倍", 0) == 0
    # capped by the loser's balance: 1000
    assert res["payments"][0]["amount"] == min(res["scores"][0]["score"], 1000)


def _seed_with_task(task: str, hands: list[str], extra: str, draws: str) -> Game:
    r = rules("baijindao")
    for seed in range(200):
        g = Game(r, {}, seed, dealer=0, wall=["".join(hands) + extra + draws])
        if g.st.task == task:
            return g
    raise AssertionError(f"no seed draws {task}")


def test_a_completed_task_multiplies_the_winners_result_by_six():
    """“任务完成后，赢结果翻番，输不会增加额外费用。任务是每局发完牌以后打牌之前显示在界面右侧。每局的任务都是随机的”."""
    g = _seed_with_task("自摸任务", [READY_DEALER, LOOSE], "西", draws="中南")
    throw(g, 0, "西")
    throw(g, 1, "中")
    g.apply(0, move(g, 0, "胡"))  # drew 南: self-drawn
    sc = g.result()["scores"][0]
    assert sc["task_factor"] == 6 and sc["score"] == 6 * sum(f["value"] for f in sc["fans"])
    # the same hand won on a discard does not complete 自摸任务
    g = _seed_with_task("自摸任务", [READY_DEALER, LOOSE], "西", draws="中发发")
    throw(g, 0, "西")
    throw(g, 1, "中")
    throw(g, 0, "发")
    throw(g, 1, "南")
    g.apply(0, move(g, 0, "胡"))
    sc = g.result()["scores"][0]
    assert sc["task_factor"] == 1 and sc["score"] == sum(f["value"] for f in sc["fans"])
