"""Hands holding wildcards: the signature decomposition finds what full enumeration finds.

`runtime/observe.py` and `Decomposer.signature_splits` read one reading per signature (what scoring
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
from paili.runtime import rules as rules_module
from paili.runtime.hand import Hand, HandError
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
    monkeypatch.setattr(rules_module, "SIGNATURE_FROM", 1)  # hands with one wildcard by signature too
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
    monkeypatch.setattr(rules_module, "SIGNATURE_WORK", 5)
    rules = load(ROOT / "rules" / "chehuzi.pai")  # a fresh rule set: no decomposition remembered
    with pytest.raises(HandError) as exc:
        rules.score("贰贰贰六六六七八九七七柒十拾拾二二王王王", None, "王", True)
    msg = str(exc.value)
    assert "\n" not in msg and "paili examines for one hand" in msg
