"""国标麻将 (rules/guobiao.pai): the Chinese Official rules written in the language. It compiles with
no warning, its fans have the official values, it follows the `paili score` contract, and a seeded
sample of random winning hands agrees with PyMahjongGB except for the differences documented in
docs/guobiao-differences.md (bench/mcr_crosscheck.py runs the full 100,000-hand check)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache

import pytest
from conftest import ROOT
from paili import load
from paili.dsl.compiler import compile_file
from paili.runtime.evaluate import compile_expr

GUOBIAO = ROOT / "rules" / "guobiao.pai"
DIFFERENCES = ROOT / "docs" / "guobiao-differences.md"
SAMPLE_HANDS = 2000
SAMPLE_SEED = 20240601

sys.path.insert(0, str(ROOT / "bench"))
import mcr_crosscheck as crosscheck  # noqa: E402


@cache
def rules():
    return load(GUOBIAO)


def paili(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "paili", *args], capture_output=True, text=True, cwd=ROOT,
                          input=stdin)


def fans(res) -> dict[str, int]:
    return {f.pattern: f.count for f in res.fans}


def test_compiles_without_warnings():
    res = compile_file(GUOBIAO)
    assert res.ok and not res.diagnostics, res.render()


def test_every_official_fan_with_its_value():
    """The 81 fans of the official table (花牌 included) and 明暗杠, with the table's values."""
    rs = compile_file(GUOBIAO).ruleset
    values = {p.name: compile_expr(p.value)({}) for p in rs.patterns}
    assert values == crosscheck.VALUE_OF
    assert len(values) == 82


def test_no_variant_code_was_needed():
    """The rule file uses only general constructs: no pattern, meld or form of it is named in code
    (tests/test_generic_runtime.py checks every rule file; this names the case)."""
    code = "\n".join(p.read_text(encoding="utf-8") for d in ("dsl", "runtime") for p in (ROOT / d).rglob("*.py"))
    for word in ("国标", "guobiao", "十三幺", "组合龙", "全不靠", "起和番", "明暗杠"):
        assert word not in code


# ------------------------------------------------------------------ principles, on hands of the rule book

def test_combination_once():
    """套算一次: 234567条 + 234567饼 is 喜相逢 ×2 + 连六 ×1, not 喜相逢 ×2 + 连六 ×2."""
    res = rules().score("234567s 234567p 东", None, "东", False, {"起和番": 0})
    f = fans(res)
    assert f["喜相逢"] == 2 and f["连六"] == 1


def test_a_fourth_run_combines_once_with_a_three_run_fan():
    """花龙 (123饼 456万 789条) and 123万, which would make 喜相逢 with 123饼 and 连六 with 456万: once."""
    res = rules().score("123p 456m 789s 123m 东", None, "东", False)
    f = fans(res)
    assert f.get("花龙") == 1 and f.get("喜相逢") == 1 and "连六" not in f


def test_higher_reading_counts():
    """就高不就低: 111222333万 reads as 一色三节高 (or 一色三同顺), never as plain runs."""
    res = rules().score("111222333m 789p 东", None, "东", False)
    assert res.total >= 24 and ({"一色三节高", "一色三同顺"} & set(fans(res)))


def test_unique_wait_and_its_priority():
    r = rules()
    assert "边张" in fans(r.score("12m 456p 789s 东东东 中中", None, "3m", False))
    assert "坎张" in fans(r.score("4556m 789s 123p 东东东", None, "5m", False))
    assert not {"边张", "坎张", "单钓将"} & set(fans(r.score("45567m 789s 东东东 中中", None, "6m", False)))
    # 678789 winning on 7: the tile is both the middle of 678 and the edge of 789; 边张 comes first
    f = fans(r.score("68m 789m 456p 东东东 中中", None, "7m", False))
    assert "边张" in f and "坎张" not in f


def test_flowers_are_not_counted_for_the_minimum():
    r = rules()
    # 花龙 8 + 门前清 2 + 单钓将 1: wins; 门前清, 喜相逢, 连六 (4) and eight flowers: does not
    assert r.score("123m 456p 789s 东东东 9m 春夏", None, "9m", False).win
    res = r.score("123m 456m 56p 456s 东东 春夏秋冬梅兰竹菊", None, "7p", False)
    assert not res.win and "8番" in res.reason


def test_chicken_hand():
    res = rules().score("123m 567m 78p 东东", ["吃:345s"], "9p", False)
    assert res.win and fans(res) == {"无番和": 1} and res.total == 8


# ------------------------------------------------------------------ the `paili score` contract

def test_score_json_total_is_the_total_fan_with_flowers():
    p = paili("score", "guobiao", "--hand", "123m 456p 789s 东东东 9m 春梅", "--win", "9m", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["win"] is True
    got = {f["name"]: (f["value"], f["count"]) for f in out["fans"]}
    # seat and prevalent wind default to 东: the 东 pung is 圈风刻 and 门风刻, not 幺九刻
    assert got == {"花龙": (8, 1), "圈风刻": (2, 1), "门风刻": (2, 1), "门前清": (2, 1), "单钓将": (1, 1),
                   "花牌": (1, 2)}
    assert out["total"] == 17 and out["score"] == 17


def test_winds_are_context_values():
    p = paili("score", "guobiao", "--hand", "123m 456p 789s 东东东 9m", "--win", "9m", "--set", "圈风=南",
              "--set", "门风=西", "--json")
    got = {f["name"] for f in json.loads(p.stdout)["fans"]}
    assert "幺九刻" in got and not {"圈风刻", "门风刻"} & got
    p = paili("score", "guobiao", "--hand", "123m 456p 789s 南南南 9m", "--win", "9m", "--set", "圈风=南",
              "--json")
    got = {f["name"] for f in json.loads(p.stdout)["fans"]}
    assert "圈风刻" in got and "门风刻" not in got and "幺九刻" not in got


def test_below_the_minimum_is_not_a_win_with_a_reason():
    p = paili("score", "guobiao", "--hand", "123m 456m 56p 456s 东东", "--win", "7p", "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 0 and out["win"] is False and "8番" in out["reason"]


def test_batch(tmp_path):
    f = tmp_path / "hands.jsonl"
    f.write_text("\n".join([
        json.dumps({"hand": "123m 456p 789s 东东东 9m", "win": "9m", "self_drawn": True, "set": {"海底": True}}),
        json.dumps({"hand": "5p", "melds": ["吃:123m", "碰:东东东", "吃:789s", "碰:中中中"], "win": "5p"}),
        json.dumps({"hand": "123m 456m 56p 456s 东东", "win": "7p"}),
    ]) + "\n", encoding="utf-8")
    p = paili("score", "guobiao", "--batch", str(f), "--json")
    assert p.returncode == 0, p.stderr
    rows = [json.loads(x) for x in p.stdout.splitlines()]
    assert [r["win"] for r in rows] == [True, True, False]
    first = {x["name"] for x in rows[0]["fans"]}
    assert first >= {"妙手回春", "不求人"} and "自摸" not in first
    assert {x["name"] for x in rows[1]["fans"]} >= {"全求人"}


# ------------------------------------------------------------------ against PyMahjongGB

def documented_ids() -> set[str]:
    text = DIFFERENCES.read_text(encoding="utf-8")
    section = text.split("## Differences seen", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\|\s*`([^`]+)`\s*\|", section, re.MULTILINE))


def test_the_differences_page_names_its_ids():
    assert documented_ids() >= {"tie"}


def test_seeded_sample_agrees_with_pymahjonggb():
    pytest.importorskip("MahjongGB")
    out = crosscheck.run(SAMPLE_HANDS, SAMPLE_SEED, rules=rules(), quiet=True)
    s = out["summary"]
    ids = documented_ids()
    undocumented = [d for d in out["disagreements"] if d["difference"] not in ids]
    assert not undocumented, "disagreements not in docs/guobiao-differences.md:\n" + "\n".join(
        json.dumps(d, ensure_ascii=False) for d in undocumented)
    assert not out["minimum_errors"], out["minimum_errors"][:5]
    assert s["rate"] >= 0.999, s
    assert s["fans_seen"] >= 70, s  # the sample reaches nearly every fan


def test_the_crosscheck_would_catch_a_wrong_fan():
    """Guard against a vacuous comparison: a rule set with one wrong value disagrees."""
    pytest.importorskip("MahjongGB")
    from paili.dsl.compiler import compile_text

    text = GUOBIAO.read_text(encoding="utf-8")
    text = text.replace("pattern 门前清 {\n  value 2 番", "pattern 门前清 {\n  value 3 番")
    res = compile_text(text, "wrong.pai")
    assert res.ok
    from paili.runtime.rules import Rules

    out = crosscheck.run(200, SAMPLE_SEED, rules=Rules(res.ruleset), quiet=True)
    assert out["summary"]["undocumented"] > 0


def test_wait_pruning_is_exact(monkeypatch):
    """Waits try a tile kind in full only when it completes a melds-and-pairs form by structure (or for
    the forms that need no split); on random hands, ready or not, that gives the same waits as trying
    every kind in full."""
    import random

    from paili.runtime.hand import build_hand
    from paili.runtime.hand_score import Scoring

    r = rules()
    cat, dec, env = r.env_for(None)
    rnd = random.Random(5)
    kinds = [f"{x}{s}" for s in "msp" for x in range(1, 10)] + crosscheck.HONORS
    hands = []
    while len(hands) < 200:
        h = crosscheck.random_hand(rnd)
        if h is None:
            continue
        tiles = list(h["concealed"])
        if rnd.random() < 0.5:
            tiles[rnd.randrange(len(tiles))] = rnd.choice(kinds)
        try:
            hands.append(build_hand(r, " ".join(tiles), [f"{k}:{''.join(t)}" for k, t in h["packs"]], h["win"],
                                    False, cat))
        except Exception:
            continue

    def waits(hand):
        sc = Scoring(r, cat, dec, env, hand)
        return [k.name for k in sc.wait_kinds()], [k.name for k in sc.wait_kinds(shape=True)]

    pruned = [waits(h) for h in hands]
    monkeypatch.setattr(Scoring, "plain_wait_check", lambda self, forms=None: None)
    assert [waits(h) for h in hands] == pruned
    assert sum(1 for w, _ in pruned if w) > 20  # enough ready hands to mean something
