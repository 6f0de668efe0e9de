"""The worked examples of the seeds, checked through the public API (independently of the examples
written inside the rule files)."""
from functools import cache

import pytest
from conftest import ROOT
from paili import load


@cache
def rules(stem):
    return load(ROOT / "rules" / f"{stem}.pai")


def fans(res):
    return {f.pattern for f in res.fans}


def test_baijindao_pengpenghu_with_three_doubles_is_96():
    # 碰碰和 6 番, doubled three times: (6 + 6) × 8 = 96
    res = rules("baijindao").score("666m 88m 东东", ["碰:222m", "碰:444m"], "8m", False, {"加倍次数": 3})
    assert res.win
    assert fans(res) == {"碰碰和", "加倍"}
    assert {f.name for f in res.fans} == {"碰碰和", "加倍三次"}
    assert res.total == 12 and res.score == 96


def test_baijindao_ten_fan_started_at_eight_is_80():
    # a 10-fan hand started at ×8 gives 80
    res = rules("baijindao").score("77m 55m", ["碰:111m", "碰:999m", "碰:东东东"], "7m", False, {"起始加倍": 8})
    assert res.win and res.total == 10 and res.score == 80


def test_chehuzi_21_huxi_red_self_drawn_one_xing_is_20():
    # 21 胡息 红胡 自摸, 醒 1: ((21 − 15) / 3 + 2 + 1) × 2 × 2 = 20
    res = rules("chehuzi").score("贰柒拾 二七十 拾拾拾 七七七 一二三 四五六 叁肆", None, "伍", True, {"醒牌": "一"})
    assert res.win
    q = res.evaluation.quantities
    assert q["胡息"] == 21 and q["囤"] == 4 and q["醒"] == 1
    assert fans(res) == {"红胡", "自摸"}
    assert res.score == 20


@pytest.mark.parametrize("huxi,tun", [(15, 2), (18, 3), (19, 3), (21, 4)])
def test_chehuzi_tun_from_huxi(huxi, tun):
    """囤 = 2 + floor((胡息 − 15) / 3), evaluated by the rule file's own formula."""
    from paili.runtime.evaluate import compile_expr

    rs = rules("chehuzi").ir
    q = next(q for q in rs.quantities if q.name == "囤")
    assert compile_expr(q.expr)({"quantity:胡息": huxi}) == tun


def test_chehuzi_15_and_19_huxi_hands():
    r = rules("chehuzi")
    res15 = r.score("壹贰叁 二七十 肆肆肆 四六 伍陆柒 八九十 三三叁", None, "五", False, {"醒牌": "拾"})
    assert res15.evaluation.quantities["胡息"] == 15 and res15.evaluation.quantities["囤"] == 2
    res19 = r.score("壹贰叁 肆肆肆 二七十 一二三 六七八 玖拾", ["碰:五五五"], "捌", False, {"醒牌": "九"})
    assert res19.evaluation.quantities["胡息"] == 19 and res19.evaluation.quantities["囤"] == 3


@pytest.mark.parametrize("hand,melds,win,mingtang,fan", [
    ("三三三 四四四 伍陆柒 六六陆 捌捌八 王", ["跑:拾拾拾拾"], "九", "王钓", 4),
    ("三三三 四四四 伍陆柒 六六陆 捌捌八 王", ["跑:拾拾拾拾"], "王", "王钓王", 8),
    ("壹贰叁 二七十 肆肆肆 四五六 捌玖拾 五五伍 王王", None, "九", "王闯", 8),
])
def test_chehuzi_wang_mingtang_multiply_with_zimo(hand, melds, win, mingtang, fan):
    """“自摸：…2番”; “多个番型存在的情况下：红胡王钓 点胡王闯等，番数相乘” — nothing exempts a 王 hand from
    自摸: by default 番 = the 王 名堂 × 2. The regional reading (王 名堂 include 自摸) is the room option
    王牌含自摸, off by default; with it the 王 名堂 stands alone. (王闯王, 王炸, 王炸王: the rule file's examples,
    with three and four 王 too slow to score here twice.)"""
    r = rules("chehuzi")
    res = r.score(hand, melds, win, True, {"醒牌": "王"})
    assert res.win and fans(res) == {mingtang, "自摸"} and res.total == fan * 2
    q = res.evaluation.quantities
    assert res.score == (q["囤"] + 5) * fan * 2  # a flipped 王 is 5 醒
    option = r.score(hand, melds, win, True, {"醒牌": "王", "王牌含自摸": True})
    assert fans(option) == {mingtang} and option.total == fan and option.score * 2 == res.score


def test_chehuzi_wangdiao_needs_a_qing_or_pao_laid_down():
    """“王钓：在手里有王霸的情况下，必须提或者跑后…” with “（开局手里有四张不用倾出去）”: four alike kept in the hand
    since the deal were never 提 (倾) — the same cards with 拾拾拾拾 laid down as 倾 or 跑 are 王钓."""
    r = rules("chehuzi")
    kept = r.score("拾拾拾拾 三三三 四四四 伍陆柒 六六陆 捌捌八 王", None, "九", True, {"醒牌": "一"})
    assert kept.win and fans(kept) == {"自摸"}
    for laid in ("倾", "跑"):
        res = r.score("三三三 四四四 伍陆柒 六六陆 捌捌八 王", [f"{laid}:拾拾拾拾"], "九", True, {"醒牌": "一"})
        assert fans(res) == {"王钓", "自摸"}, laid


def test_chehuzi_a_wang_may_be_a_fifth_copy_and_counts_for_xing():
    """“王霸…可以替代任何牌”; “如果王也是当这张牌使用，也算醒牌”: with all four 拾 in a 跑, the 王 in 捌玖王
    may still be 拾 (a fifth), and with 醒牌 拾 it counts: 5 醒 (as 柒 it would give 4)."""
    res = rules("chehuzi").score("捌玖王 壹壹壹 二七十 四五 叁叁叁 八八", ["跑:拾拾拾拾"], "六", True, {"醒牌": "拾"})
    q = res.evaluation.quantities
    assert res.win and q["胡息"] == 24 and q["醒"] == 5 and res.score == (5 + 5) * 2


def base_pattern(res):
    """白城's base-point pattern of a scored hand (屁胡 / 夹胡 / 双飘 / 单飘)."""
    return fans(res) & {"屁胡", "夹胡", "双飘", "单飘"}


def test_baicheng_34_waiting_on_2_and_5_is_pihu():
    r = rules("baicheng")
    res = r.score("34m 567p 789s 111p 99s", None, "2m", True)
    assert res.win and base_pattern(res) == {"屁胡"}


def test_baicheng_13_waiting_on_2_is_jiahu():
    r = rules("baicheng")
    res = r.score("13m 567p 789s 111p 99s", None, "2m", True)
    assert res.win and base_pattern(res) == {"夹胡"}


def test_baijindao_4556_on_5_is_kanzhang():
    res = rules("baijindao").score("4556m 111m 东东东 白白白", None, "5m", False)
    assert res.win and "坎张" in fans(res)


def test_baijindao_45567_on_6_is_not_kanzhang():
    res = rules("baijindao").score("45567m 111m 东东东 白白", None, "6m", False)
    assert res.win and "坎张" not in fans(res)


def test_baijindao_12345_on_3_is_not_bianzhang():
    res = rules("baijindao").score("12345m 东东东 白白白 北北", None, "3m", False)
    assert res.win and "边张" not in fans(res)


def test_baijindao_12_on_3_is_bianzhang():
    res = rules("baijindao").score("12m 456m 东东东 白白白 北北", None, "3m", False)
    assert res.win and "边张" in fans(res)
