"""Whole hands scored by the native core (runtime/native/src/score.rs, runtime/nativescore.py): the raw
counts, exclusions, `combine`, units, requirements, the score and the reading chosen, in Rust, against
the Python backend and the reference evaluator. The broad differential is tests/test_native.py
(`score_many` on both backends) and bench/native_diff.py; these check that the native scoring is the
one answering, what it hands back, and its refusals."""
from __future__ import annotations

import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import hand_speed  # noqa: E402
import native_diff  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)


def reference(rules, *args):
    """The reference evaluator's JSON (neither the native scoring nor the generated scorer)."""
    saved, rules.fast = rules.fast, None
    try:
        return rules.score(*args).to_json()
    finally:
        rules.fast = saved


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_every_rule_file_is_scored_natively(path):
    r = load(path, backend="native")
    assert r.stats()["scoring"] == "native", r.scoring_declined
    assert r.scoring_declined == ""
    assert load(path, backend="python").stats()["scoring"] == "python"


@needs_native
def test_baijindao_hands_are_scored_natively_as_the_reference_scores_them():
    nat = load(ROOT / "rules" / "baijindao.pai", backend="native")
    py = load(ROOT / "rules" / "baijindao.pai", backend="python")
    rnd = random.Random(15)
    combined = excluded = 0
    for _ in range(200):
        h = hand_speed.random_winning_hand(rnd)
        w = rnd.randrange(14)
        ctx = {"加倍次数": rnd.choice([0, 0, 3]), "海底": rnd.random() < 0.2}
        args = (" ".join(h[:w] + h[w + 1:]), None, h[w], rnd.random() < 0.5, ctx)
        got = nat.score(*args).to_json()
        assert got == py.score(*args).to_json() == reference(nat, *args), args
        excluded += bool(got["trace"]["excluded"])
        combined += any("套算一次" in x["by"] for x in got["trace"]["excluded"])
    stats = nat.stats()
    assert stats["native_score_fallbacks"] == 0 and stats["native_failures"] == 0
    assert excluded > 20 and combined > 0  # the sample exercises exclusions and 套算一次


@needs_native
@pytest.mark.parametrize("name", ["native", "python"])
def test_each_exclusion_is_traced_once(name):
    # 国标's 无番和 reads a unit: the reference once listed the exclusions of the counts without it and
    # again with it. 不求人 removes 自摸, once.
    r = load(ROOT / "rules" / "guobiao.pai", backend=name)
    ctx = {"圈风": "东", "门风": "北", "和绝张": False, "海底": False, "杠上": False, "抢杠": False, "起和番": 0}
    args = ("3m 4m 5p 6p 7p 1p 1p 1p 7m 8m 9m 7m 7m", [], "2m", True, ctx)
    got = r.score(*args).to_json()
    assert got["trace"]["excluded"] == [{"pattern": "自摸", "by": "不求人"}]
    assert got == reference(r, *args)


@needs_native
def test_instant_and_orphans_readings_are_scored_natively():
    # 十三幺 is an orphans form: its reading's groups do not hold every tile (the tiles go over whole)
    r = load(ROOT / "rules" / "guobiao.pai", backend="native")
    before = r.stats()["native_score_fallbacks"]
    args = ("1m 9m 1p 9p 1s 9s 东 南 西 北 中 发 白", [], "1m", False, {"圈风": "东", "门风": "东"})
    got = r.score(*args).to_json()
    assert [f["name"] for f in got["fans"]][:1] == ["十三幺"]
    assert got == reference(r, *args)
    assert r.stats()["native_score_fallbacks"] == before


@needs_native
def test_a_hand_the_native_scoring_stops_on_is_scored_in_python_and_counted():
    # bench/rules/exprs.pai divides by zero on purpose in some patterns: the native programs stop, and
    # the hand goes back whole to the generated scorer (and the reference for those readings)
    r = load(ROOT / "bench" / "rules" / "exprs.pai", backend="native")
    before = r.stats()["native_score_fallbacks"]
    args = ("王 4m 8s 8m 2m 8s 8m 8s 8s 王 8m 2m 2m 4s 4s", [], "2m", False, {})
    got = r.score(*args).to_json()
    assert got["win"] and got == reference(r, *args)
    assert r.stats()["native_score_fallbacks"] == before + 1


@needs_native
def test_the_scorer_refuses_bad_input_in_one_sentence():
    mod = backend.native_module()
    r = load(ROOT / "rules" / "baijindao.pai", backend="native")
    cat = r.catalog_for({})[0]
    s = r.native_counts_for(cat).scorer.scorer
    settings = tuple(None for _ in s.settings())
    n = len(cat.kinds)
    pair = ("将", (0, 0), 4, 0, 0)
    run = ("顺子", (0, 4, 8), 2, 0, 1)
    reading = ((pair, run), None, None, 0, 0, "标准", None)
    assert type(s.score_hand(settings, False, (), None, None, (reading,))) in (tuple, int)
    with pytest.raises(ValueError, match="7 items"):
        s.score_hand(settings, False, (), None, None, (reading[:3],))
    with pytest.raises(ValueError, match="tile code outside the catalog"):
        s.score_hand(settings, False, (), None, None, (((pair, ("顺子", (n << 2,), 2, 0, 1)),) + reading[1:],))
    with pytest.raises(ValueError, match="winning group"):
        s.score_hand(settings, False, (), None, None, (reading[:4] + (7,) + reading[5:],))
    with pytest.raises(mod.NotCovered, match="64 bits"):
        s.score_hand(settings, False, (), None, None, (((pair[:3] + (10 ** 30, 0),),) + reading[1:],))
    js = r.ruleset_json()
    with pytest.raises(mod.NotCovered, match="the function `held`"):
        mod.Scorer(js.replace('"func": "len"', '"func": "held"', 1), {})
