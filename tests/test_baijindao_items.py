"""白金岛二人麻将 items of issue 11, each written from the seed sentence it checks
(../shared/seeds/000_a458ac2558942afe.txt) and scored by both backends."""
from __future__ import annotations

import itertools

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game import PASS, Move
from test_game import move, rig


@pytest.fixture(scope="module")
def bjd():
    return load(ROOT / "rules" / "baijindao.pai")


def score(rules, hand, melds, win, self_drawn=False, ctx=None):
    """The result of the generated backend, checked against the reference."""
    fast = rules.score(hand, melds, win, self_drawn, ctx)
    saved, rules.fast = rules.fast, None
    try:
        ref = rules.score(hand, melds, win, self_drawn, ctx)
    finally:
        rules.fast = saved
    assert fast.to_json() == ref.to_json()
    return fast


def fans(res) -> dict[str, int]:
    return {f.pattern: f.count for f in res.fans}


# ---------------------------------------------------------------- 双箭刻 “牌里有2副箭刻（或杠）”

def test_two_dragon_pungs_beside_a_dragon_kong_are_shuangjianke(bjd):
    # 发发发 白白白 and an exposed 中 kong: 大三元 needs three 刻子 (注1: a kong is no 刻子 there), so the
    # hand has 2副箭刻 — the kong counts for 双箭刻 ("或杠"), and it still is a 幺九刻 of its own.
    res = score(bjd, "发发发白白白123m9m", ["明杠:中中中中"], "9m")
    got = fans(res)
    assert "双箭刻" in got and "大三元" not in got
    assert got["幺九刻"] == 1  # 双箭刻 takes the 幺九刻 of two of the three dragon sets


def test_a_dragon_kong_counts_as_one_of_the_two(bjd):
    res = score(bjd, "发发发123m456m9m", ["明杠:中中中中"], "9m")
    assert "双箭刻" in fans(res)


def test_three_dragon_pungs_are_dasanyuan_not_shuangjianke(bjd):
    got = fans(score(bjd, "白白白发发发中中中123m9m", [], "9m"))
    assert "大三元" in got and "双箭刻" not in got


# ---------------------------------------------------------------- 三杠 / 四杠 and the kong fans

KONGS = ["1111m", "3333m", "5555m", "东东东东"]
FAMILY = {"明杠", "暗杠", "双明杠", "双暗杠", "三杠", "四杠"}


def kong_hand(bjd, kinds):
    """A self-drawn hand with len(kinds) kongs (明杠 or 暗杠 each), the rest fixed. (Self-drawn, so that
    全求人 — a bonus for every meld being exposed, which a concealed kong ends — does not apply.)"""
    rest = {3: "789m9m", 4: "9m"}[len(kinds)]
    melds = [f"{k}:{t}" for k, t in zip(kinds, KONGS)]
    return score(bjd, rest, melds, "9m", True)


@pytest.mark.parametrize("n", [3, 4])
def test_sangang_and_sigang_include_every_kong_fan(bjd, n):
    # “三杠：牌里有3副杠，明暗杠均可”, “四杠：有4副杠，明暗杠均可”: the kongs are paid by 三杠 / 四杠 alone
    # (国标 不重复), however many of them are concealed.
    for kinds in itertools.product(["明杠", "暗杠"], repeat=n):
        got = fans(kong_hand(bjd, kinds))
        assert set(got) & FAMILY == {"三杠" if n == 3 else "四杠"}, (kinds, got)


@pytest.mark.parametrize("n", [3, 4])
def test_concealing_a_kong_never_lowers_the_score(bjd, n):
    for kinds in itertools.product(["明杠", "暗杠"], repeat=n):
        base = kong_hand(bjd, kinds).score
        for i, k in enumerate(kinds):
            if k == "明杠":
                more = kinds[:i] + ("暗杠",) + kinds[i + 1:]
                assert kong_hand(bjd, more).score >= base, (kinds, more)


def test_two_kongs_score_the_page_table(bjd):
    # “双明杠：2个明杠” 4, “双暗杠：牌里有2副暗杠” 6; one of each: 明杠 1 + 暗杠 2 (no 明暗杠 on this page)
    def two(a, b):
        return fans(score(bjd, "123m456m9m", [f"{a}:东东东东", f"{b}:南南南南"], "9m"))
    assert set(two("明杠", "明杠")) & FAMILY == {"双明杠"}
    assert set(two("暗杠", "暗杠")) & FAMILY == {"双暗杠"}
    assert set(two("明杠", "暗杠")) & FAMILY == {"明杠", "暗杠"}


# ---------------------------------------------------------------- 百万石 “万总和超过一百万”

def test_exactly_one_hundred_is_not_baiwanshi(bjd):
    # 777 888 999 567 55: 21 + 24 + 27 + 18 + 10 = 100, not over 100
    got = fans(score(bjd, "777888999m567m5m", [], "5m"))
    assert "百万石" not in got and "清一色" in got


def test_over_one_hundred_is_baiwanshi(bjd):
    # 777 888 999 678 55: 21 + 24 + 27 + 21 + 10 = 103
    got = fans(score(bjd, "777888999m678m5m", [], "5m"))
    assert "百万石" in got and "清一色" not in got


# ---------------------------------------------------------------- the last tile

def play_out(g, until):
    """Both seats throw the tile they drew and pass every offer, until `until(g)` holds."""
    while not g.is_over() and not until(g):
        (s,) = g.current_seats()
        ms = g.legal_moves(s)
        if any(m.action == "discard" for m in ms):
            g.apply(s, Move("discard", (g.st.seats[s].drawn.name,)))
        else:
            g.apply(s, PASS)


def last_draw_made(g):
    return not g.st.wall


def test_the_last_discard_cannot_be_chowed_or_punged():
    """Only a win may take the last tile: with the wall empty, 对家 may not 吃 or 碰 the last discard."""
    # seat 0 holds 55m and 46m; the last tile of the wall (seat 1's 19th draw) is a 5m
    dealer = "55m46m东南西北白发中1m9m"
    g = rig("baijindao", [dealer, "123m789m东南西北白发中"], "2m", tail="5m")
    play_out(g, last_draw_made)
    assert g.st.seats[1].drawn.name == "五万" and g.current_seats() == [1]
    g.apply(1, Move("discard", ("五万",)))
    # nothing is offered to seat 0 (it cannot win on 5m): the next draw finds the wall empty
    assert g.is_over() and g.result()["exhausted"]
    assert g.st.seats[0].melds == []


def test_the_last_drawn_tile_cannot_be_konged():
    """The last drawn tile may not be used for a kong (there is no replacement tile for it)."""
    g = rig("baijindao", ["1m4m7m2m5m8m3m6m9m南西北白", "东东东123m789m南西北白"], "发", tail="东")
    play_out(g, last_draw_made)
    assert g.st.seats[1].drawn.name == "东" and g.current_seats() == [1]
    assert "暗杠" not in {m.action for m in g.legal_moves(1)}
    g.apply(1, Move("discard", ("东",)))
    assert g.is_over() and g.result()["exhausted"]


def test_the_last_drawn_tile_cannot_extend_a_pung():
    # the dealer pungs seat 1's first discard 东; after that the dealer draws the wall's last tile, the 4th 东
    g = rig("baijindao", ["东东1m4m7m2m5m8m3m6m9m南西", "123m789m北白发中白发中"], "北", draws="东", tail="东")
    g.apply(0, Move("discard", ("北",)))
    g.apply(1, Move("discard", ("东",)))
    g.apply(0, move(g, 0, "碰"))
    g.apply(0, Move("discard", ("南",)))
    play_out(g, last_draw_made)
    assert g.st.seats[0].drawn.name == "东" and g.current_seats() == [0]
    assert "补杠" not in {m.action for m in g.legal_moves(0)}


def test_a_kong_before_the_last_tile_is_still_allowed():
    """With tiles left in the wall a kong is made as usual (its replacement comes from the tail)."""
    g = rig("baijindao", ["1m4m7m2m5m8m3m6m9m南西北白", "东东东123m789m南西北白"], "发", draws="东")
    g.apply(0, Move("discard", ("发",)))
    assert g.current_seats() == [1] and "暗杠" in {m.action for m in g.legal_moves(1)}


# ---------------------------------------------------------------- the fee on the page

def test_the_page_says_who_bears_the_fee():
    """“输赢的手气值=房间倍率*总番数*…*（1-0.0125）”, “每局爱心奉献为输赢值的1.25%”: the page's computed
    formula has no fee in it, so the page says that the loser pays it in full and the winner gets 98.75%."""
    from paili.dsl.pages import site

    md = site.render_variant(ROOT / "rules" / "baijindao.pai", ROOT).md
    assert "输家全额付出" in md and "赢家实得其中的98.75%" in md


# ---------------------------------------------------------------- 不重复 for the situation fans

def test_tianting_is_the_first_baoting(bjd):
    # “天听：庄家打出第一张牌报听和闲家第一手牌报听为天听”: a 天听 is a 报听, counted once (as 立直 is)
    got = fans(score(bjd, "123m456m789m东东东白", [], "白", False, {"天听": True, "报听": True}))
    assert "天听" in got and "报听" not in got


def test_renhe_is_always_concealed(bjd):
    # “人和：和庄家打出的第一张牌”: the winner has not drawn, chowed or punged: 门前清 is implied
    got = fans(score(bjd, "123m456m789m东东东白", [], "白", False, {"人和": True}))
    assert "人和" in got and "门前清" not in got
