"""Diagnostics contract: malformed rule files get a stable code at the right `file:line:col`.

Each case is a small self-contained rule file, mostly the valid `BASE` file with one mistake. For every
case the expected code must be reported at the exact position, the file must not compile (errors) or
must still compile (warnings only), and the rendering must show `file:line:col`, the source line and a
caret under the reported column. A second test runs the real `paili check` command on a few cases, and a
property test feeds randomly damaged files to the compiler, which must never raise or report an
internal error.
"""
import re
import subprocess
import sys
import unicodedata

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paili.dsl.build import Builder
from paili.dsl.checker import Checker
from paili.dsl.compiler import compile_text
from paili.dsl.diagnostics import Diagnostics
from paili.dsl.syntax import parse_source

FILE = "case.pai"

# A small valid rule file (it compiles with one warning, W601 on 全中).
MINI = """\
variant demo "示例麻将" {
  doc "说明"
}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; attrs 风 }
  honor 中 { code "7z"; attrs 箭 }
  attr 幺九 = t.rank in [1, 9] or t.honor
}
table { players 2; hand 13 }
option 清一色 bool = false
context 加倍次数 int = 0 { range 0..8 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
meld 暗杠 { shape same 4; kong true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 碰碰和 {
  value 6 番
  when count(m in melds: m.triplet) == 4
  example { hand '111m 222m 333m 东东东 5m'; win '5m' }
}
pattern 暗杠 { value 2 番; count = count(m in melds: m.kind == 暗杠) }
pattern 清一色 { value 24 番; when len(suits) == 1 and all(t in tiles: not t.honor) and option.清一色 }
pattern 全中 { value 24 番; when all(t in tiles: t.rank in [4, 5, 6]) }
pattern 加倍 { value = 2 * 加倍次数; unit 番; label "加倍{cn(加倍次数)}次"; when 加倍次数 > 0 }
pattern 一般高 { value 1 番; count = count(a, b in runs: a.suit == b.suit and a.start == b.start) }
combine 套算一次 { patterns [一般高] }
score = 番 * 2 ^ 加倍次数
example 例 { hand '111m 222m 333m 东东东 5m'; win '5m'; set 加倍次数 = 3; expect score 96 }
"""

# MINI without its unreachable pattern: compiles with no diagnostic at all. Line numbers used below:
#   1 variant   4-9 tiles (5 suit, 8 attr)   10 table   11 option   12 context   13-17 melds
#   18 win   19 unit   20-24 碰碰和   25 暗杠   26 清一色   27 加倍   28 一般高   29 combine
#   30 score   31 example
_QUANZHONG = "pattern 全中 { value 24 番; when all(t in tiles: t.rank in [4, 5, 6]) }\n"
BASE = MINI.replace(_QUANZHONG, "")
assert BASE != MINI


def mut(old: str, new: str) -> str:
    """BASE with its only occurrence of `old` replaced by `new`."""
    assert BASE.count(old) == 1, f"{old!r} occurs {BASE.count(old)} times in BASE"
    return BASE.replace(old, new)


def add(text: str) -> str:
    """BASE with `text` appended (it starts on line 32)."""
    return BASE + text


# An action to name in `priority` (appended on line 32).
ACTION = "action 碰 { on discard; by others; forms 碰; then discard }\n"


def case(id_, src, code, line, col):
    return pytest.param(src, code, line, col, id=id_)


CASES = [
    # ------------------------------------------------------------------ E1xx syntax
    case("E101-double-operator", mut("score = 番 * 2", "score = 番 * * 2"), "E101", 30, 13),
    case("E101-extra-paren", mut("m.triplet) == 4", "m.triplet)) == 4"), "E101", 22, 36),
    case("E101-extra-brace", mut("table { players 2; hand 13 }", "table { players 2; hand 13 } }"),
         "E101", 10, 30),
    case("E101-key-starts-with-digit", mut("unit 番 sum", "1番 sum"), "E101", 19, 1),
    case("E101-double-equals", mut("option 清一色 bool = false", "option 清一色 bool = = false"),
         "E101", 11, 19),
    case("E101-missing-operand", mut("when 加倍次数 > 0", "when 加倍次数 >"), "E101", 27, 75),
    case("E102-chinese-double-quote", mut('doc "说明"', "doc “说明”"), "E102", 2, 7),
    case("E102-chinese-single-quote", mut("win '5m'; set", "win ‘5m’; set"), "E102", 31, 47),
    case("E102-bad-character", mut("hand 13 }", "hand $13 }"), "E102", 10, 25),
    case("E102-unterminated-tiles", mut("win '5m'; set", "win '5m; set"), "E102", 31, 47),
    case("E102-unterminated-string", mut('doc "说明"', 'doc "说明'), "E102", 2, 7),
    case("E103-missing-brace-at-end", add("pattern 缺 { value 1 番\n"), "E103", 32, 22),
    case("E103-missing-paren-at-end", add("score = (番 * 2\n"), "E103", 32, 15),
    case("E103-no-final-newline", add("pattern 缺 {"), "E103", 32, 12),
    case("E103-unclosed-block", mut("  example { hand '111m 222m 333m 东东东 5m'; win '5m' }\n}\n",
                                    "  example { hand '111m 222m 333m 东东东 5m'; win '5m' }\n"),
         "E103", 30, 84),
    # ------------------------------------------------------------------ E2xx structure
    case("E204-ink-colour", mut("  attr 幺九 = t.rank in [1, 9] or t.honor\n",
                                "  attr 幺九 = t.rank in [1, 9] or t.honor\n  ink pink 幺九\n"),
         "E204", 9, 7),
    case("E301-ink-unknown-attribute", mut("  attr 幺九 = t.rank in [1, 9] or t.honor\n",
                                           "  attr 幺九 = t.rank in [1, 9] or t.honor\n  ink red 红\n"),
         "E301", 9, 3),
    case("E201-unknown-key-in-table", mut("hand 13 }", "hand 13; hands 4 }"), "E201", 10, 29),
    case("E201-unknown-top-level-key", mut("unit 番 sum", "unit 番 sum\npatern 空 { value 1 番 }"),
         "E201", 20, 1),
    case("E201-unknown-key-in-meld", mut("shape same 3; exposed true", "shape same 3; exposd true"),
         "E201", 16, 24),
    case("E202-duplicate-ranks", mut("ranks 1..9;", "ranks 1..9; ranks 1..9;"), "E202", 5, 34),
    case("E202-duplicate-score", add("score = 番\n"), "E202", 32, 1),
    case("E202-duplicate-tiles-block", add('tiles { suit 条 { code "s"; ranks 1..9 } }\n'), "E202", 32, 1),
    case("E202-unit-given-twice", mut("value 6 番\n", "value 6 番\n  unit 番\n"), "E202", 22, 3),
    case("E203-table-without-hand", mut("table { players 2; hand 13 }", "table { players 2 }"),
         "E203", 10, 1),
    case("E203-pattern-without-condition", add("pattern 空 { value 1 番 }\n"), "E203", 32, 1),
    case("E203-no-table-block", mut("table { players 2; hand 13 }\n", ""), "E203", 1, 1),
    case("E203-no-score", mut("score = 番 * 2 ^ 加倍次数\n", ""), "E203", 1, 1),
    case("E203-meld-without-shape", mut("meld 碰 { shape same 3; exposed true }", "meld 碰 { exposed true }"),
         "E203", 16, 1),
    case("E204-unknown-setting-type", mut("option 清一色 bool", "option 清一色 boolean"), "E204", 11, 12),
    case("E204-unknown-unit-combination", mut("unit 番 sum", "unit 番 add"), "E204", 19, 8),
    case("E204-shape-size-not-a-number", mut("shape run 3", "shape run three"), "E204", 13, 17),
    case("E204-unknown-shape", mut("shape run 3", "shape line 3"), "E204", 13, 17),
    case("E204-word-not-allowed", mut("hand 13 }", "hand 13; first_dealer banker }"), "E204", 10, 42),
    case("E204-exhaust-word-with-a-space", mut("hand 13 }", 'hand 13; exhaust_word "流 局" }'), "E204", 10, 29),
    case("E204-seat-names-fewer-than-players", mut("hand 13 }", 'hand 13; seat_names ["甲"] }'), "E204", 10, 29),
    case("E204-seat-name-given-twice", mut("hand 13 }", 'hand 13; seat_names ["甲", "甲"] }'), "E204", 10, 46),
    case("E204-extra-argument", mut("meld 碰 {", "meld 碰 吃 {"), "E204", 16, 8),
    case("E205-block-on-plain-key", mut("hand 13 }", "hand 13 { } }"), "E205", 10, 20),
    case("E205-example-without-block", add("example 空\n"), "E205", 32, 1),
    case("E206-no-variant", mut('variant demo "示例麻将" {\n  doc "说明"\n}\n', ""), "E206", 1, 1),
    case("E206-two-variants", add('variant demo2 "又一个" { }\n'), "E206", 32, 1),
    case("E207-quantity-without-expression", add("quantity 胡息\n"), "E207", 32, 1),
    case("E207-score-without-expression", mut("score = 番 * 2 ^ 加倍次数", "score 番"), "E207", 30, 1),
    case("E207-expression-not-allowed", mut("shape same 2;", "shape = 2;"), "E207", 15, 18),
    case("E208-condition-not-allowed", mut("kong true }", "kong true when 清一色 }"), "E208", 17, 40),
    # ------------------------------------------------------------------ E3xx names
    case("E301-unknown-name", mut("m.triplet) == 4", "m.triplet) == 四"), "E301", 22, 40),
    case("E301-unknown-unit", mut("value 6 番", "value 6 倍"), "E301", 20, 1),
    case("E301-unknown-meld-kind-in-example", mut("win '5m'; set", "win '5m'; meld 吃 '999m'; set"),
         "E301", 31, 1),
    case("E301-name-of-another-scope", mut("t.rank in [1, 9] or t.honor", "t.rank in [1, 9] or self_drawn"),
         "E301", 8, 33),
    case("E302-duplicate-pattern", add("pattern 碰碰和 { value 1 番; when true }\n"), "E302", 32, 1),
    case("E302-duplicate-option", mut("option 清一色 bool = false", "option 清一色 bool = false\n"
                                                                  "option 清一色 bool = true"),
         "E302", 12, 1),
    case("E302-duplicate-meld", mut("meld 碰 {", "meld 刻子 {"), "E302", 16, 1),
    case("E303-tile-in-expression", mut("t.rank in [1, 9] or t.honor", "t.rank in [1, 9] or t == '5x'"),
         "E303", 8, 39),
    case("E303-example-hand", mut("东东东 5m'; win '5m'; set", "东东东 5p'; win '5m'; set"), "E303", 31, 38),
    case("E303-example-win", mut("win '5m'; set", "win '5'; set"), "E303", 31, 48),
    case("E303-example-meld", mut("win '5m'; set", "win '5m'; meld 碰 '99x'; set"), "E303", 31, 61),
    case("E303-pattern-example",
         mut("{ hand '111m 222m 333m 东东东 5m'; win '5m' }",
             "{ hand '111m 222m 333m 南南南 5m'; win '5m' }"),
         "E303", 23, 34),
    case("E303-meld-shape-tiles", mut("meld 暗杠 { shape same 4", "meld 暗杠 { shape tiles '东中白'"),
         "E303", 17, 26),
    case("E304-unknown-meld-field", mut("m.triplet) == 4", "m.triplets) == 4"), "E304", 22, 26),
    case("E304-unknown-tile-field", mut("t.rank in [1, 9] or t.honor", "t.rank in [1, 9] or t.colour"),
         "E304", 8, 33),
    case("E304-field-of-a-boolean", mut("len(suits) == 1", "len(suits) == 1 and self_drawn.x"),
         "E304", 26, 52),
    case("E305-unknown-function", mut("len(suits) == 1", "lenn(suits) == 1"), "E305", 26, 32),
    case("E305-unknown-comprehension", mut("when count(m in melds:", "when cnt(m in melds:"), "E305", 22, 8),
    case("E306-ambiguous-name", mut("score = 番 * 2 ^ 加倍次数", "score = 番 * 2 ^ 加倍次数 * 清一色"),
         "E306", 30, 24),
    # ------------------------------------------------------------------ E4xx types and values
    case("E401-count-used-as-condition", mut("m.triplet) == 4", "m.triplet)"), "E401", 22, 8),
    case("E401-text-as-value", mut("value = 2 * 加倍次数", 'value = "二"'), "E401", 27, 22),
    case("E401-text-in-arithmetic", mut("score = 番 * 2", 'score = 番 * "2"'), "E401", 30, 13),
    case("E401-compare-meld-kind-with-number", mut("m.kind == 暗杠", "m.kind == 1"), "E401", 25, 51),
    case("E401-mixed-list", mut("t.rank in [1, 9]", 't.rank in [1, "9"]'), "E401", 8, 23),
    case("E401-if-branches-differ", mut("value = 2 * 加倍次数", 'value = if 加倍次数 > 0 then 2 else "零"'),
         "E401", 27, 22),
    case("E401-default-of-wrong-type", mut("option 清一色 bool = false", "option 清一色 bool = 3"),
         "E401", 11, 19),
    case("E401-range-of-decimals", mut("ranks 1..9", "ranks 1.5..9"), "E401", 5, 28),
    case("E401-function-argument", mut("len(suits) == 1", "len(3) == 1"), "E401", 26, 36),
    case("E401-comprehension-over-number", mut("count(m in melds: m.triplet)", "count(m in 4: m.triplet)"),
         "E401", 22, 19),
    case("E401-in-needs-a-list", mut("t.rank in [1, 9]", "t.rank in 9"), "E401", 8, 23),
    case("E401-not-of-a-number", mut("when 加倍次数 > 0", "when not 加倍次数"), "E401", 27, 72),
    case("E401-decimal-where-whole-number", mut("hand 13 }", "hand 13.5 }"), "E401", 10, 25),
    case("E401-order-on-a-tile", mut("m.triplet) == 4", "m.triplet) == 4 and win_tile > 3"), "E401", 22, 46),
    case("E402-hand-size", mut("hand 13 }", "hand 50 }"), "E402", 10, 25),
    case("E402-default-outside-range", mut("context 加倍次数 int = 0", "context 加倍次数 int = 9"),
         "E402", 12, 20),
    case("E402-empty-range", mut("ranks 1..9", "ranks 9..1"), "E402", 5, 28),
    case("E402-meld-size", mut("shape run 3", "shape run 9"), "E402", 13, 21),
    case("E402-chars-per-rank", mut('code "m";', 'code "m"; chars "一二三";'), "E402", 5, 28),
    case("E403-too-many-arguments", mut("len(suits) == 1", "len(suits, tiles) == 1"), "E403", 26, 32),
    case("E403-too-few-arguments", mut("score = 番 * 2", "score = max(番) * 2"), "E403", 30, 9),
    case("E403-in-a-label", mut("{cn(加倍次数)}", "{cn()}"), "E403", 27, 46),
    case("E404-binder-not-a-name", mut("count(m in melds: m.triplet)", "count(m.kind in melds: m.triplet)"),
         "E404", 22, 8),
    case("E404-binder-twice", mut("count(a, b in runs:", "count(a, a in runs:"), "E404", 28, 34),
    case("E404-comprehension-without-binder", mut("count(m in melds: m.triplet)", "count(melds)"),
         "E404", 22, 8),
    case("E404-filter-with-two-binders",
         mut("count = count(a, b in runs: a.suit == b.suit and a.start == b.start)",
             "count = len(filter(a, b in runs: a.suit == b.suit))"),
         "E404", 28, 38),
    case("E404-function-as-comprehension", mut("when count(m in melds:", "when len(m in melds:"),
         "E404", 22, 8),
    case("E405-default-not-in-values",
         mut("option 清一色 bool = false\n",
             "option 人数 int = 5 { values [2, 3, 4] }\noption 清一色 bool = false\n"),
         "E405", 11, 17),
    case("E406-unbalanced-label", mut('label "加倍{cn(加倍次数)}次"', 'label "加倍{cn(加倍次数)次"'),
         "E406", 27, 46),
    case("E406-stray-closing-brace", mut('label "加倍{cn(加倍次数)}次"', 'label "加倍}次"'), "E406", 27, 46),
    case("E406-label-not-an-expression", mut('label "加倍{cn(加倍次数)}次"', 'label "加倍{cn(加倍次数}次"'),
         "E406", 27, 46),
    case("E406-label-on-its-own-line",
         mut('pattern 加倍 { value = 2 * 加倍次数; unit 番; label "加倍{cn(加倍次数)}次";',
             'pattern 加倍 {\n  value = 2 * 加倍次数; unit 番\n  label "加倍{cn(加倍次数}次"\n '),
         "E406", 29, 9),
    # ------------------------------------------------------------------ E5xx rule semantics
    case("E501-excludes-unknown-pattern", mut("value 6 番\n", "value 6 番\n  excludes 单钓将\n"),
         "E501", 22, 12),
    case("E501-combine-names-unknown-pattern", mut("patterns [一般高]", "patterns [一般高, 二般高]"),
         "E501", 29, 1),
    case("E501-expect-names-unknown-pattern", mut("expect score 96", "expect fans [碰碰和, 自摸]"),
         "E501", 31, 85),
    case("E502-two-patterns-exclude-each-other",
         mut("value 6 番\n", "value 6 番\n  excludes 暗杠\n")
         .replace("value 2 番;", "value 2 番; excludes 碰碰和;"),
         "E502", 20, 1),
    case("E502-three-pattern-cycle",
         mut("value 6 番\n", "value 6 番\n  excludes 暗杠\n")
         .replace("value 2 番;", "value 2 番; excludes 一般高;")
         .replace("value 1 番;", "value 1 番; excludes 碰碰和;"),
         "E502", 20, 1),
    case("E503-quantities-depend-on-each-other", add("quantity 甲 = 乙 + 1\nquantity 乙 = 甲 * 2\n"),
         "E503", 32, 1),
    case("E503-pattern-value-uses-its-own-unit", mut("value = 2 * 加倍次数", "value = 番 * 加倍次数"),
         "E503", 27, 1),
    case("E504-combine-on-a-plain-pattern", mut("patterns [一般高]", "patterns [碰碰和]"), "E504", 20, 1),
    case("E204-grow-without-a-growing-kind",
         add("action 碰 { on discard; by others; forms 碰; grow new; then discard }\n"), "E204", 32, 1),
    case("E402-grows-no-further-tile", mut("meld 碰 { shape same 3; exposed true }",
                                           "meld 碰 { shape same 3; exposed true; grows 0 }"), "E402", 16, 44),
    case("E204-grows-not-a-number-or-bool",
         mut("meld 碰 { shape same 3; exposed true }", "meld 碰 { shape same 3; exposed true; grows \"多\" }"),
         "E204", 16, 44),
    case("E505-priority-without-actions", add("priority [胡, 碰]\n"), "E505", 32, 1),
    case("E505-priority-unknown-action",
         add(ACTION + "priority [胡, 碰]\n"), "E505", 33, 1),
    case("E505-priority-lists-twice",
         add(ACTION + "priority [碰, 碰]\n"), "E505", 33, 1),
    case("E507-run-longer-than-suit",
         mut("ranks 1..9", "ranks 1..2").replace("'111m 222m 333m 东东东 5m'; win '5m'",
                                                 "'111m 222m 111m 东东东 2m'; win '2m'"),
         "E507", 13, 11),
    case("E507-ranks-not-in-suit", mut("meld 顺子 { shape run 3;", "meld 顺子 { shape ranks [2, 7, 10];"),
         "E507", 13, 11),
    case("E507-mixed-needs-two-suits",
         mut("meld 顺子 { shape run 3;", "meld 顺子 { shape same_rank 3 mixed;"), "E507", 13, 11),
    # ------------------------------------------------------------------ W6xx warnings
    case("W601-too-few-tiles", add(_QUANZHONG), "W601", 32, 1),
    case("W601-too-many-suits", add("pattern 两色 { value 2 番; when len(suits) == 2 }\n"), "W601", 32, 1),
    case("W602-lower-excludes-higher", mut("value 2 番;", "value 2 番; excludes 碰碰和;"), "W602", 25, 34),
    case("W604-excludes-itself", mut("value 2 番;", "value 2 番; excludes 暗杠;"), "W604", 25, 34),
    case("W605-restrict-on-draw", add("restrict 不摸 { actions [draw]; when wall_left < 3 }\n"), "W605", 32, 1),
    case("W605-emit-an-event-that-opens-actions",
         add(ACTION + "action 叫 { on 叫牌; by self; then discard }\non discard {\n  emit 叫牌\n}\n"),
         "W605", 35, 8),
]


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def test_base_file_is_clean():
    res = compile_text(BASE, FILE)
    assert res.ok and res.diagnostics == (), res.render()
    res = compile_text(MINI, FILE)
    assert res.ok and [d.code for d in res.diagnostics] == ["W601"], res.render()


def test_the_table_covers_enough():
    codes = {p.values[1] for p in CASES}
    assert len(CASES) >= 45
    assert codes >= {"E101", "E102", "E103", "E201", "E202", "E203", "E204", "E205", "E206", "E207", "E301",
                     "E302", "E303", "E304", "E305", "E306", "E401", "E402", "E403", "E404", "E405", "E406",
                     "E501", "E502", "E503", "E504", "E505", "E507", "W601", "W602", "W604", "W605"}
    assert len({p.values[0] for p in CASES}) == len(CASES), "two cases have the same source"


@pytest.mark.parametrize("src, code, line, col", CASES)
def test_diagnostic(src, code, line, col):
    res = compile_text(src, FILE)
    rendered = res.render()
    hits = [d for d in res.diagnostics if d.code == code and (d.span.line, d.span.col) == (line, col)]
    assert hits, f"expected {code} at {line}:{col}, got:\n{rendered}"
    assert all(d.code != "E900" for d in res.diagnostics), rendered
    assert "__ANON" not in rendered  # expected tokens are shown as written (`==`, `-`), not by Lark's names
    if code.startswith("E"):
        assert res.ruleset is None
    else:
        assert res.ruleset is not None and not any(d.is_error for d in res.diagnostics), rendered

    d = hits[0]
    source_line = src.splitlines()[line - 1]
    header = f"{FILE}:{line}:{col}: {'error' if code.startswith('E') else 'warning'} {code}: "
    assert header in rendered
    block = d.render(src.splitlines())
    assert block in rendered
    out = block.splitlines()
    assert out[0].startswith(header)
    gutter = f"{line:>4} | "
    assert out[1] == gutter + source_line
    # the caret sits under the reported column (wide characters take two columns)
    m = re.fullmatch(r"( *)(\^+)", out[2])
    assert m, f"no caret line in:\n{block}"
    assert len(m.group(1)) == len(gutter) + _width(source_line[: col - 1])


# ---------------------------------------------------------------------- the command line

CLI_CASES = {
    "E101-double-operator": 1,
    "E102-chinese-double-quote": 1,
    "E103-missing-brace-at-end": 1,
    "E303-example-hand": 1,
    "E505-priority-unknown-action": 1,
    "W601-too-few-tiles": 0,
    "W602-lower-excludes-higher": 0,
}


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_cli_check(tmp_path, name):
    src, code, line, col = next(p.values for p in CASES if p.id == name)
    path = tmp_path / "case.pai"
    path.write_text(src, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "paili", "check", str(path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=60, check=False)
    assert p.returncode == CLI_CASES[name], p.stdout + p.stderr
    assert "Traceback" not in p.stdout and "Traceback" not in p.stderr
    assert f"{path}:{line}:{col}: " in p.stderr and code in p.stderr
    assert f"{line:>4} | {src.splitlines()[line - 1]}" in p.stderr
    assert "^" in p.stderr


def test_cli_check_clean_file(tmp_path):
    plain, bom = tmp_path / "base.pai", tmp_path / "bom.pai"
    plain.write_text(BASE, encoding="utf-8")
    bom.write_text("\ufeff" + BASE, encoding="utf-8")  # as some editors save it
    p = subprocess.run([sys.executable, "-m", "paili", "check", str(plain), str(bom)], capture_output=True,
                       text=True, cwd=ROOT, timeout=60, check=False)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "Traceback" not in p.stdout


def test_recorded_positions_survive_json_round_trip():
    """The positions kept for diagnostics (labels, example tiles, priority) load back as positions."""
    from paili.runtime.ir.serialize import dumps, loads

    src = add(ACTION + "priority [碰]\n")
    src = src.replace("win '5m'; set", "win '5m'; meld 碰 '999m'; set")
    rs = compile_text(src, FILE).ruleset
    assert rs is not None
    assert rs.priority_span.line == 33
    assert rs.examples[0].meld_spans[0].line == 31 and rs.examples[0].hand_span.col == 18
    assert rs.pattern("加倍").label_span.col == 46
    assert loads(dumps(rs)) == rs


# ---------------------------------------------------------------------- random damage

POOL = list("{}()[]\"'=:.,;# \n") + list("东中万番和“”‘’") + list("x9m_")


@st.composite
def damaged(draw):
    text = MINI
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("delete", "insert", "swap")))
        if op == "delete" and text:
            i = draw(st.integers(0, len(text) - 1))
            j = draw(st.integers(i + 1, min(len(text), i + 24)))
            text = text[:i] + text[j:]
        elif op == "insert":
            i = draw(st.integers(0, len(text)))
            chars = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=4))
            text = text[:i] + "".join(chars) + text[i:]
        else:
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_files_never_crash_the_compiler(text):
    res = compile_text(text, FILE)
    assert not any(d.code == "E900" for d in res.diagnostics), res.render()
    lines = text.splitlines()
    for d in res.diagnostics:
        d.render(lines)  # rendering never fails either
        assert d.span.line >= 1 and d.span.col >= 1, d
    assert (res.ruleset is None) == any(d.is_error for d in res.diagnostics)
    # compile_text hides a checker crash that follows other errors; every pass must run to the end anyway,
    # or the diagnostics after the crash are lost.
    diags = Diagnostics()
    stmts = parse_source(text, FILE, diags)
    if stmts is not None:
        built = Builder(diags, FILE).build(stmts)
        if built is not None:
            Checker(built, diags).run()


def test_grows_n_bounds_how_many_further_tiles_a_meld_takes():
    """`grows N`: a meld of that kind may take up to N tiles beyond its shape, of the shape's own tiles."""
    from paili.runtime.rules import Rules

    src = mut("meld 碰 { shape same 3; exposed true }",
              "meld 碰 { shape same 3; exposed true }\nmeld 风中 { shape tiles '东中'; exposed true; grows 2 }")
    res = compile_text(src, FILE)
    assert res.ruleset is not None, res.diagnostics
    r = Rules(res.ruleset)
    mk = r.ir.meld("风中")
    assert mk.grows and mk.grow_limit == 2
    t = r.catalog_for({})[0].by_name
    east, red, one = t["东"], t["中"], t["1万"]
    assert r.meld_matches(mk, [east, red])
    assert r.meld_matches(mk, [east, red, red])
    assert r.meld_matches(mk, [east, red, east, red])
    assert not r.meld_matches(mk, [east, red, east, red, east])  # a third further tile: over the limit
    assert not r.meld_matches(mk, [east, red, one])  # only the shape's own tiles
    assert not r.meld_matches(mk, [east, east, east])  # the shape's tiles must all be there
    plain = compile_text(mut("meld 碰 { shape same 3; exposed true }",
                             "meld 碰 { shape same 3; exposed true }\nmeld 风中 { shape tiles '东中'; grows }"),
                         FILE).ruleset
    assert plain.meld("风中").grow_limit == 1  # a bare `grows` (= `grows true`) takes one further tile
