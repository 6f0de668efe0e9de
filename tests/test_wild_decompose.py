"""Hands holding wildcards: the signature decomposition finds what full enumeration finds.

`runtime/observe.py` and `runtime/signatures.py` read one reading per signature (what scoring
can observe) instead of every split. They must give the same result as reading every split
(`tests/wild_oracle.py`, the enumeration paili used before) — the same score, fans, quantities and
even the same reading shown — on every hand; here on seeded random hands with 0–4 wildcards of the
bundled wildcard variants and bench/rules/joker.pai. The longer run is `python bench/wild_crosscheck.py`.
"""
import random
from functools import cache

import pytest
from conftest import ROOT
from paili import load
from paili.dsl.compiler import compile_text
from paili.runtime import examples as examples_module
from paili.runtime import hand_readings as readings_module
from paili.runtime.examples import check_all
from paili.runtime.hand import Hand, HandError, build_hand
from paili.runtime.limits import HAND_WORK
from paili.runtime.rules import Rules
from wild_oracle import full_waits, outcome, random_hand


@cache
def rules_of(name: str):
    path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
    return load(path)


def context_of(name: str, rules, rnd: random.Random) -> tuple[dict, str]:
    """A random scoring context of the variant and the tile that is wild under it."""
    kinds = [k for k in rules.catalog.kinds if k.category in ("suited", "honor")]
    if name == "chehuzi":
        ctx = {"海底": rnd.random() < 0.3}
        if rnd.random() < 0.7:
            ctx["醒牌"] = rnd.choice(kinds + [rules.catalog.by_name["王"]])
        return ctx, "王"
    if name == "longyan":
        gold = rnd.choice(kinds)
        return {"金牌": gold, "游金级数": rnd.randint(0, 3)}, gold.name
    if name == "baicheng":
        bao = rnd.choice(kinds)
        return {"宝牌": bao, "听牌": True}, bao.name  # the 宝 is wild only for a ready hand
    return {}, "王"


# (variant, hands, most wildcards): full enumeration of a 21-card 扯胡子 hand with four 王 reads
# tens of thousands of splits, so four are tried on the smaller hands only
SAMPLES = [("chehuzi", 25, 3), ("longyan", 50, 3), ("baicheng", 60, 1), ("joker", 30, 4)]


@pytest.mark.parametrize("name,n,most", SAMPLES)
def test_signatures_give_what_full_enumeration_gives(name, n, most, monkeypatch):
    monkeypatch.setattr(readings_module, "SIGNATURE_FROM", 1)  # hands with one wildcard by signature too
    rules = rules_of(name)
    rnd = random.Random(2026)
    compared = wild_wins = 0
    for _ in range(n):
        ctx, wild = context_of(name, rules, rnd)
        w = rnd.randint(0, most)
        hand = random_hand(rules, rnd, w, wild, ctx, near=rnd.random() < 0.9, wild_wins=name == "baicheng",
                           self_drawn=True if name == "baicheng" else None)  # the 宝 is wild on a self-draw
        if hand is None:
            continue
        fast = outcome(rules, hand, ctx, full=False)
        full = outcome(rules, hand, ctx, full=True)
        assert fast == full, ([t.name for t in hand.concealed], hand.win.name, hand.self_drawn, ctx)
        compared += 1
        wild_wins += bool(full.get("win")) and w > 0
    # not vacuous: most hands are compared and some of them win with wildcards in them
    assert compared >= n * 0.8 and wild_wins >= n // 10, (compared, wild_wins)


@pytest.mark.parametrize("name", ["chehuzi", "longyan", "joker"])
def test_waits_are_the_kinds_whose_draw_wins(name):
    """`paili waits` lists exactly the kinds (wildcards included) whose addition wins by full
    enumeration, each with that score."""
    rules = rules_of(name)
    rnd = random.Random(7)
    listed = 0
    for _ in range(5 if name == "chehuzi" else 8):
        ctx, wild = context_of(name, rules, rnd)
        hand = random_hand(rules, rnd, rnd.randint(1, 2), wild, ctx, self_drawn=True)
        if hand is None:
            continue
        before = Hand(hand.concealed, [], None, True)
        got = [(k.name, res.score) for k, res in rules.waits(before, context=ctx)]
        assert got == full_waits(rules, before, ctx)
        listed += len(got)
    assert listed > 0


def test_four_wang_hand_finds_wang_zha_wang():
    """Seed: 王炸王 "王炸的情况下摸到一张王霸胡牌，四张王霸成一组，32番"; 红胡 2番 for more than nine red
    cards; 倾 of 大字 12 胡息. 将二二 + 六坎3 + 七八九 + 七七柒 + 十拾拾 + 贰坎6 + four 王 as a 大字倾12 = 21
    胡息 = 4 囤; no 醒牌 turned: (4 + 0) × 32 × 2 = 256 (自摸 counted in the 王 名堂 by the room option).
    Reading at most 5,000 splits found only 王闯王 (96)."""
    rules = rules_of("chehuzi")
    res = rules.score("贰贰贰六六六七八九七七柒十拾拾二二王王王", None, "王", True, {"王牌含自摸": True})
    assert res.win
    assert {f.pattern for f in res.fans} >= {"王炸王", "红胡"}
    assert res.evaluation.quantities["胡息"] == 21
    assert res.score == 256


def test_waits_list_the_wildcard_when_drawing_it_wins():
    """Seed: 王炸王 wins on a drawn 王 once three 王 are left over (王炸: any card; 王炸王: a 王)."""
    rules = rules_of("chehuzi")
    waits = rules.waits("壹贰叁 二七十 四五六 五五伍 叁肆伍 八八 王王王", None, True, {"王牌含自摸": True})
    by_name = {k.name: res for k, res in waits}
    assert "王" in by_name
    assert "王炸王" in {f.pattern for f in by_name["王"].fans}
    assert any("王炸" in {f.pattern for f in res.fans} for k, res in waits if k.name != "王")


def test_a_wildcard_is_never_left_out_of_a_reading():
    """Every tile is in a group: four 王 left after the other groups form one group of four (倾), never
    a group of three with a 王 dropped."""
    rules = rules_of("chehuzi")
    res = rules.score("贰贰贰六六六七八九七七柒十拾拾二二王王王", None, "王", True)
    assert sum(len(g.tiles) for g in res.evaluation.reading.groups) == 21


def test_exceeding_the_work_limit_is_one_sentence(monkeypatch):
    monkeypatch.setattr(readings_module, "HAND_WORK", 5)
    rules = load(ROOT / "rules" / "chehuzi.pai")  # a fresh rule set: no decomposition remembered
    with pytest.raises(HandError) as exc:
        rules.score("贰贰贰六六六七八九七七柒十拾拾二二王王王", None, "王", True)
    msg = str(exc.value)
    assert "\n" not in msg and "paili examines for one hand" in msg


# A rule file like the one bench/fuzz_rules.py found slow (a mutated 国标 where 东 is wild): four wild
# 东 in a 34-kind set, a pattern over pairs of melds (so nearly every split is its own signature) and
# one that reads the waits (so scoring each trial tile asks for the waits of the hand again).
WIND_WILD = """
variant windwild "东作王" { doc "东是王牌（测试用）。" }
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  suit 筒 { code "p"; ranks 1..9; copies 4 }
  suit 条 { code "s"; ranks 1..9; copies 4 }
  honor 东 { code "1z" }
  honor 南 { code "2z" }
  honor 西 { code "3z" }
  honor 北 { code "4z" }
  honor 白 { code "5z" }
  honor 发 { code "6z" }
  honor 中 { code "7z" }
}
table { players 4; hand 13 }
wild 王 { tiles 东 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 平和 { value 1 番; when true }
pattern 同花 { value 1 番; when count(a, b in melds: a.suit == b.suit and a.tile != b.tile) >= 1 }
pattern 单听 { value 1 番; when len(waits) == 1 }
score = 番
example 三王 { hand '东东东 1m 2m 3m 4p 5p 6p 7s 8s 9s 南'; win '南'; expect score 2 }
example 四王 { hand '东东东东 1m 2m 3m 4p 5p 6p 7s 8s 9s'; win '1m'; expect score 2 }
example 又三王 { hand '东东东 1m 2m 3m 4p 5p 6p 7s 8s 9s 9s'; win '9s'; expect score 2 }
"""
FOUR_WILD = "东东东东 1m 2m 3m 4p 5p 6p 7s 8s 9s"


def wind_wild() -> Rules:
    """A freshly compiled copy: nothing of an earlier decomposition remembered."""
    res = compile_text(WIND_WILD, "windwild.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def test_waits_where_a_wind_is_wild_are_those_of_full_enumeration():
    rules = wind_wild()
    h = build_hand(rules, "东东东 1m 2m 3m 4p 5p 6p 7s 8s 9s 南", None, None, False, rules.catalog)
    assert [(k.name, r.score) for k, r in rules.waits(h)] == full_waits(rules, h, None)


def test_the_work_limit_bounds_the_whole_waits_question(monkeypatch):
    """One limit for everything `waits` does: every trial tile, and the waits a pattern reads while each
    is scored. Four wild 东 and three complete melds: any suited or honor kind completes a meld with
    two 东 and leaves two for the pair (27 + 6 kinds; 东 itself is all held)."""
    work = [HAND_WORK]
    waits = wind_wild().waits(FOUR_WILD, work=work)
    used = HAND_WORK - work[0]
    assert len(waits) == 33 and "东" not in {k.name for k, _ in waits}
    one = [HAND_WORK]
    assert wind_wild().score(FOUR_WILD, None, "1m", work=one).win
    assert HAND_WORK - one[0] < used  # a single trial is well within what the whole question used
    assert len(wind_wild().waits(FOUR_WILD, work=[used])) == 33
    with pytest.raises(HandError) as exc:
        wind_wild().waits(FOUR_WILD, work=[used - 1])
    assert "\n" not in str(exc.value) and "paili examines for one hand" in str(exc.value)
    monkeypatch.setattr(readings_module, "HAND_WORK", used - 1)  # the default limit counts the same way
    with pytest.raises(HandError):
        wind_wild().waits(FOUR_WILD)


def test_the_examples_of_one_file_share_one_work_limit(monkeypatch):
    """A file may hold thousands of examples: together they get limits.EXAMPLES_WORK, and an example
    met after it is used up is reported, not scored."""
    assert all(o.ok for o in check_all(wind_wild()))
    monkeypatch.setattr(examples_module, "EXAMPLES_WORK", 1)
    got = check_all(wind_wild())
    assert got[0].ok and not got[1].ok and not got[2].ok
    assert all(o.invalid and "examples of this rule file take more work" in o.message for o in got[1:])
