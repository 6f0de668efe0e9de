"""Only a counted pattern excludes (docs/language.md §37, step 6), in every backend.

Derived from 国标's 不重复: a fan that is not counted brings no 不计 list with it. 七对 removes 不求人, so
不求人 cannot remove 自摸: 七对 self-drawn is 七对 24 + 自摸 1 = 25 (PyMahjongGB scores it so too)."""
from __future__ import annotations

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.examples import check_all

CHAIN = ROOT / "tests" / "rules" / "exclusion_chain.pai"


@pytest.fixture(scope="module")
def baijindao():
    return load(ROOT / "rules" / "baijindao.pai")


@pytest.fixture(scope="module")
def chain():
    return load(CHAIN)


def both(rules, *args, **kw):
    """The result of the generated backend and of the reference, which must agree."""
    fast = rules.score(*args, **kw)
    saved, rules.fast = rules.fast, None
    try:
        ref = rules.score(*args, **kw)
    finally:
        rules.fast = saved
    assert fast.to_json() == ref.to_json()
    return fast


def fans(res):
    return {f.pattern for f in res.fans}


def test_chain_a_counted_keeps_c(chain):
    # 甲 removes 乙, 乙 would remove 丙: 乙 is not counted, so 丙 is.
    res = both(chain, "111m 222m 123m 456m 9m", None, "9m", True)
    assert fans(res) == {"甲", "丙", "己"} and res.score == 24 + 1 + 1
    # without 甲, 乙 is counted and removes 丙
    res = both(chain, "123m 456m 789m 111m 9m", None, "9m", True)
    assert fans(res) == {"乙", "己"} and res.score == 4 + 1


def test_chain_lowered_to_nothing_excludes_nothing(chain):
    # 丁 lowers 戊 (2 honor triplets) by 2: nothing is left, so 戊 does not remove 己.
    res = both(chain, "东东东 南南南 123m 456m 9m", None, "9m")
    assert fans(res) == {"丁", "甲", "己"} and res.score == 8 + 24 + 1
    # with 3 honor triplets, 戊 keeps 1 and removes 己
    res = both(chain, "东东东 南南南 白白白 123m 9m", None, "9m")
    assert fans(res) == {"丁", "甲", "戊"} and res.score == 8 + 24 + 2


def test_chain_file_examples_hold(chain):
    bad = [f"{o.where}: {o.message}" for o in check_all(chain) if not o.ok]
    assert not bad, "\n".join(bad)


def test_the_exclusions_trace_names_only_counted_excluders(chain):
    res = chain.score("111m 222m 123m 456m 9m", None, "9m", True)
    assert set(res.evaluation.excluded) == {("乙", "甲")}


def test_seven_pairs_self_drawn_keeps_self_draw(baijindao):
    # 七对 24 (removes 不求人, 单钓将, 门前清) + 自摸 1
    res = both(baijindao, "11m33m55m77m东东南南白", None, "白", True)
    assert fans(res) == {"七对", "自摸"} and res.score == 25


def test_seven_shifted_pairs_self_drawn_keeps_self_draw(baijindao):
    # 连七对 88 (removes 清一色, 不求人, 单钓将, 七对, 门前清) + 自摸 1
    res = both(baijindao, "11m22m33m44m55m66m7m", None, "7m", True)
    assert fans(res) == {"连七对", "自摸"} and res.score == 89


def test_all_honors_with_little_winds_keeps_three_wind_pungs(baijindao):
    # 字一色 removes 小四喜 (the seed's reading); 小四喜, not counted, does not remove 三风刻.
    res = both(baijindao, "东东东南南南西西西白白白北", None, "北")
    assert "字一色" in fans(res) and "三风刻" in fans(res) and "小四喜" not in fans(res)


def test_each_exclusion_is_traced_once_with_a_pattern_that_reads_a_unit():
    # 国标's 无番和 reads the unit 番: the reference counts it after the other patterns' units, and used to
    # list the exclusions twice (once without it, once with it). 不求人 removes 自摸, once.
    gb = load(ROOT / "rules" / "guobiao.pai")
    ctx = {"圈风": "东", "门风": "北", "和绝张": False, "海底": False, "杠上": False, "抢杠": False, "起和番": 0}
    res = both(gb, "3m 4m 5p 6p 7p 1p 1p 1p 7m 8m 9m 7m 7m", [], "2m", True, ctx)
    assert res.evaluation.excluded == [("自摸", "不求人")]
    assert res.to_json()["trace"]["excluded"] == [{"pattern": "自摸", "by": "不求人"}]
