"""The generated reading evaluator (runtime/fastscore.py, runtime/codegen.py) gives exactly the
reference's results (runtime/scoring.py): the same JSON for every hand of a seeded sample, with no
reading handed back to the reference, and the reference's answer whenever the generated code meets a
value it does not handle."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from paili import load
from paili.runtime.codegen import Gen, Names
from paili.runtime.evaluate import compile_expr
from paili.runtime.hand import HandError
from paili.runtime.ir import expr as E

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import hand_speed  # noqa: E402
import mcr_crosscheck  # noqa: E402


@pytest.fixture(scope="module")
def baijindao():
    return load(ROOT / "rules" / "baijindao.pai")


@pytest.fixture(scope="module")
def guobiao():
    return load(ROOT / "rules" / "guobiao.pai")


def _reference(rules, args):
    fast, rules.fast = rules.fast, None
    try:
        return _json(rules, args)
    finally:
        rules.fast = fast


def _json(rules, args):
    try:
        return rules.score(*args).to_json()
    except HandError as exc:
        return ("error", str(exc))


def test_baijindao_sample_matches_the_reference(baijindao):
    rnd = random.Random(11)
    before = baijindao.fast.fallbacks
    for _ in range(150):
        h = hand_speed.random_winning_hand(rnd)
        w = rnd.randrange(14)
        ctx = {"加倍次数": rnd.choice([0, 0, 3]), "海底": rnd.random() < 0.2, "杠上": rnd.random() < 0.1}
        args = (" ".join(h[:w] + h[w + 1:]), None, h[w], rnd.random() < 0.5, ctx)
        assert _json(baijindao, args) == _reference(baijindao, args), args
    assert baijindao.fast.fallbacks == before


def test_guobiao_sample_matches_the_reference(guobiao):
    rnd = random.Random(12)
    n = 0
    before = guobiao.fast.fallbacks
    while n < 120:
        h = mcr_crosscheck.random_hand(rnd)
        if h is None:
            continue
        n += 1
        for minimum in (False, True):
            args = mcr_crosscheck.paili_args(h, minimum)
            assert _json(guobiao, args) == _reference(guobiao, args), args
    assert guobiao.fast.fallbacks == before


def test_melds_kongs_and_waits_match_the_reference(baijindao):
    cases = [
        ("123m 456m 东", None, "东", False, ["暗杠:9999m", "暗杠:白白白白"]),
        ("5m", None, "5m", False, ["碰:东东东", "碰:南南南", "吃:123m", "碰:999m"]),
        ("1112345678999m", None, "5m", True, []),
        ("11m 22m 33m 44m 55m 东东 南", None, "南", False, []),
        ("4556m 123m 789m 东东", None, "5m", False, []),
    ]
    for hand, _, win, sd, melds in cases:
        args = (hand, melds, win, sd)
        assert _json(baijindao, args) == _reference(baijindao, args), args


def test_every_bundled_rule_set_gets_generated_code():
    for f in sorted((ROOT / "rules").glob("*.pai")):
        assert load(f).fast is not None, f.name


class _Env(Names):
    def name(self, ref, gen, ind):
        return f"S[{ref!r}]"


def _generated(e: E.Expr):
    consts: dict = {}
    g = Gen(consts, _Env())
    g.emit(0, "def f(S):")
    s = g.ex(e, 1)
    g.emit(1, f"return _norm({s})")  # as every value leaving generated code
    from paili.runtime.codegen import RUNTIME

    ns = dict(RUNTIME)
    ns.update({k: v for k, v in consts.items() if isinstance(k, str)})
    exec("\n".join(g.lines), ns)
    return ns["f"]


def _n(name):
    return E.Name(name, ref=f"option:{name}")


@pytest.mark.parametrize("e, env", [
    # a chain stops at the first comparison that fails
    (E.Compare(("<", "<"), (E.Num("1"), _n("x"), E.Num("5"))), {"option:x": 3}),
    (E.Compare(("<", "<"), (E.Num("1"), _n("x"), E.Num("5"))), {"option:x": 7}),
    # `and` / `or` give booleans, as the closures do
    (E.Binary("and", _n("x"), E.Num("2")), {"option:x": 3}),
    (E.Binary("or", _n("x"), E.Num("2")), {"option:x": 0}),
    # whole powers stay whole; fractions stay exact
    (E.Binary("^", E.Num("2"), _n("x")), {"option:x": 5}),
    (E.Binary("/", _n("x"), E.Num("4")), {"option:x": 6}),
    (E.Binary("*", E.Num("0.5"), _n("x")), {"option:x": 4}),
    # comprehensions over a list literal, with a binder reused inside
    (E.Comp("sum", ("d",), E.ListLit((E.Num("1"), E.Num("2"), E.Num("3"))),
            E.Binary("*", E.Name("d", ref="binder:d"), E.Num("2"))), {}),
    (E.Comp("max", ("d",), E.ListLit(()), E.Name("d", ref="binder:d")), {}),
    (E.If(_n("x"), E.Num("1"), E.Num("2")), {"option:x": False}),
])
def test_generated_expressions_equal_the_closures(e, env):
    want = compile_expr(e)(dict(env))
    got = _generated(e)(dict(env))
    assert got == want and type(got) is type(want)


def test_none_raises_where_the_closures_answer(baijindao):
    """An ordering comparison with none is False for the closures; the generated code raises, and the
    scorer then asks the reference (here: directly checked on the expression)."""
    e = E.Compare(("<",), (_n("x"), E.Num("3")))
    assert compile_expr(e)({"option:x": None}) is False
    with pytest.raises(TypeError):
        _generated(e)({"option:x": None})


def test_token_memo_keeps_error_positions(baijindao):
    n = baijindao.notation
    assert n.parse("123m 东东") == n.parse("1m2m3m东 东")
    for text in ("12 m", "东 12x", "5m 0q"):
        with pytest.raises(ValueError) as a:
            n.parse(text)
        with pytest.raises(ValueError) as b:
            n._parse(text)
        assert str(a.value) == str(b.value) and a.value.offset == b.value.offset


# A rule set whose second pattern divides by zero when the reading has exactly one run: an unusual value
# listed in REFERENCE_DECIDES (ZeroDivisionError), so the generated scorer hands that reading over.
FALLBACK_RULES = """variant fb "回退" {}
tiles {
  suit 万 { code "m"; ranks 1..9 }
  honor 东 { code "1z" }
  honor 中 { code "7z" }
}
table { players 2; hand 13 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 和 { value 1 番; when true }
pattern 除零 { value 1 番; when 1 / (len(runs) - 1) > 0.4 }
score = 番
"""
ONE_RUN = ("123m444m777m东东东中", "中")  # a single reading, with one run: 1 / 0
TWO_RUNS = ("123m456m777m东东东中", "中")  # 1 / 1 > 0.4: both patterns, no unusual value


@pytest.fixture
def fallback_file(tmp_path):
    path = tmp_path / "fb.pai"
    path.write_text(FALLBACK_RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_a_reading_handed_to_the_reference_is_counted_once(fallback_file, backend):
    from paili.runtime.fastscore import FastScorer

    rules = load(fallback_file, backend=backend)
    assert rules.fast is not None and rules.stats()["generated"]
    before, process = rules.stats()["fallbacks"], FastScorer.process_fallbacks
    res = rules.score(TWO_RUNS[0], win=TWO_RUNS[1], self_drawn=True)
    assert res.win and res.total == 2  # 和 and 除零
    assert rules.stats()["fallbacks"] == before and FastScorer.process_fallbacks == process
    res = rules.score(ONE_RUN[0], win=ONE_RUN[1], self_drawn=True)
    # the reference decides: its closures refuse the division, so the only reading is rejected
    assert not res.win and "division by zero" in res.reason
    stats = rules.stats()
    assert stats["fallbacks"] == before + 1 and stats["process_fallbacks"] == process + 1
    fast, rules.fast = rules.fast, None
    try:  # the same answer as the reference alone
        assert rules.score(ONE_RUN[0], win=ONE_RUN[1], self_drawn=True).to_json() == res.to_json()
    finally:
        rules.fast = fast


def test_score_stats_reports_the_fallbacks(fallback_file):
    import json
    import subprocess

    args = [sys.executable, "-m", "paili", "score", str(fallback_file), "--win", ONE_RUN[1], "--self-drawn",
            "--json", "--stats", "--hand", ONE_RUN[0]]
    p = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["win"] is False  # the result on standard output is the plain JSON
    stats = json.loads(p.stderr.strip().splitlines()[-1])["stats"]
    assert stats["generated"] and stats["fallbacks"] == 1 and stats["process_fallbacks"] == 1
    p = subprocess.run([sys.executable, "-m", "paili", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert "REFERENCE_DECIDES" in p.stdout and "--stats" in p.stdout


def test_groups_compared_by_identity_are_counted_per_reading():
    # `count(a, b in runs: a == b)`: the two 234m runs are one shared object except where one of them
    # holds the winning tile, so the count differs between readings of one split and is not shared.
    r = load(ROOT / "bench" / "rules" / "exprs.pai", backend="python")
    args = ("4m 2m 4m 2m 3m 4m 2z 7s 8s 5m 6s 2z 3m", [], "3m", True, {})
    got = _json(r, args)
    assert got == _reference(r, args)
    assert {"name": "两两", "value": 1, "count": 1, "value_exact": "1"} in got["fans"]
