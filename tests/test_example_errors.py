"""A wrong `expect` (or a pattern example that does not score its pattern) is an error of `paili check`
and `paili compile`, with code, file:line:col, the line and a caret — not text on a players' page."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_text
from paili.dsl.pages import site

SMALL = """\
variant 小例 "小例" { doc "测试用" }
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z" }
}
table { players 2; hand 13 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
score = 番
pattern 碰碰和 {
  value 6 番
  when len(triplets) == 4
  example { hand '111m 222m 333m 东东东 5m'; win '5m' }
  counterexample { hand '123m 222m 333m 东东东 5m'; win '5m' }
}
example 四刻 {
  hand '111m 222m 333m 东东东 5m'
  win '5m'
  expect score 6
}
"""


def paili(*args):
    return subprocess.run([sys.executable, "-m", "paili", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=False)


def line_of(src: str, needle: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if needle in ln)


def test_the_small_file_is_clean():
    res = compile_text(SMALL, "small.pai", examples=True)
    assert res.ok and not res.diagnostics, res.render()


def test_a_wrong_expect_is_an_error_of_check_and_compile(tmp_path):
    src = SMALL.replace("expect score 6", "expect score 7")
    path = tmp_path / "bad.pai"
    path.write_text(src, encoding="utf-8")
    line = line_of(src, "expect score 7")
    col = src.splitlines()[line - 1].index("7") + 1
    for cmd in (["check", str(path)], ["compile", str(path), "-o", str(tmp_path / "bad.json")]):
        p = paili(*cmd)
        assert p.returncode != 0, p.stdout + p.stderr
        assert "Traceback" not in p.stderr
        assert f"{path}:{line}:{col}: error E508" in p.stderr, p.stderr
        assert "score is 6, expected 7" in p.stderr
        assert f"{line:>4} | {src.splitlines()[line - 1]}" in p.stderr and "^" in p.stderr
    assert not (tmp_path / "bad.json").exists()


def test_a_pattern_example_that_does_not_score_it_is_an_error():
    src = SMALL.replace("example { hand '111m 222m 333m 东东东 5m'; win '5m' }",
                        "example { hand '123m 222m 333m 东东东 5m'; win '5m' }")
    res = compile_text(src, "small.pai", examples=True)
    assert not res.ok
    (d,) = res.diagnostics
    assert d.code == "E508" and d.span.line == line_of(src, "example { hand '123m") and "without 碰碰和" in d.message


def test_a_counterexample_that_scores_it_is_an_error():
    src = SMALL.replace("counterexample { hand '123m 222m", "counterexample { hand '444m 222m")
    res = compile_text(src, "small.pai", examples=True)
    assert [d.code for d in res.diagnostics] == ["E508"] and "must not" in res.diagnostics[0].message


def test_a_malformed_example_hand_is_e506():
    src = SMALL.replace("hand '111m 222m 333m 东东东 5m'\n", "hand '1111m 1222m 333m 东东东 5m'\n")
    res = compile_text(src, "small.pai", examples=True)
    assert [d.code for d in res.diagnostics] == ["E506"], res.render()
    assert res.diagnostics[0].span.line == line_of(src, "hand '1111m")


def test_without_examples_the_compiler_does_not_score_them():
    src = SMALL.replace("expect score 6", "expect score 7")
    assert compile_text(src, "small.pai").ok


def test_docs_refuse_a_file_whose_example_does_not_hold(tmp_path):
    path = tmp_path / "bad.pai"
    path.write_text(SMALL.replace("expect score 6", "expect score 7"), encoding="utf-8")
    with pytest.raises(site.PageError, match="E508"):
        site.render_variant(path, tmp_path)
