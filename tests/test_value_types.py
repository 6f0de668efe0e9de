"""Value types and reuse (issue 14, point 6; docs/language.md §6, §17, §23): `suit` as the type of options,
context values and states; functions with parameters (`def`), checked at each call and written out; a
quantity whose expression is a whole number is a whole number."""
from __future__ import annotations

import json

import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.ir.serialize import FormatError, dumps, loads
from paili.runtime.rules import Rules
from paili.runtime.settings import HandError

# Two suits; 条 is a suit and also (deliberately) not a tile name, so `条` in an expression is the suit.
HEAD = """variant 值 "值的类型" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 } }
table { players 2; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
"""


def _compile(body: str, examples: bool = True):
    return compile_text(HEAD + body, "值.pai", examples=examples)


def _ok(body: str) -> Rules:
    res = _compile(body)
    assert res.ok, res.render()
    return Rules(res.ruleset)


def _codes(body: str) -> list[tuple[str, int]]:
    res = _compile(body, examples=False)
    assert not res.ok
    return sorted((d.code, d.span.line - HEAD.count("\n")) for d in res.diagnostics if d.is_error)


# ---------------------------------------------------------------------- whole-number quantities


def test_a_counting_quantity_is_a_whole_number_where_one_is_needed():
    # 张数 is read by 幺九数 before it is declared: the types settle in dependency order.
    r = _ok("""quantity 幺九数 = 张数 * 1
quantity 张数 = count(t in tiles: t.rank in [1, 9])
pattern 幺九 { value 1 分; count = 幺九数; label "幺九{cn(幺九数)}张" }
score = 分
""")
    # '1234m' + '1m': two 1万 -> 幺九 counted twice
    res = r.score("1234m", win="1m")
    assert res.score == 2
    assert [(f.pattern, f.name, f.count) for f in res.fans] == [("幺九", "幺九二张", 2)]


def test_a_quantity_that_may_be_a_fraction_is_still_not_a_whole_number():
    assert _codes("""quantity 半 = count(t in tiles: t.rank == 1) / 2
pattern 甲 { value 1 分; count = 半 }
score = 分
""") == [("E401", 2)]


# ---------------------------------------------------------------------- suit values


SUITS = """option 主色 suit = 万 { values [万, 条] }
context 缺 suit
state player 定缺 suit
pattern 主色一色 { value 1 分; when all(t in tiles: t.suit == 主色) }
pattern 无缺门 { value 2 分; when 缺 != none and not any(t in tiles: t.suit == 缺) }
score = 分
example 万一色 { hand '1234m'; win '1m'; expect score 1 }
example 条一色缺万 { hand '1234s'; win '1s'; set 主色 = 条; set 缺 = 万; expect score 3 }
"""


def test_suits_are_values_of_options_context_values_and_states():
    r = _ok(SUITS)
    by_name = {s.name: s for s in r.ir.settings}
    assert by_name["主色"].type == "suit" and by_name["缺"].type == "suit"
    assert [s.type for s in r.ir.states] == ["suit"]
    assert r.score("1234s", win="1s", context={"缺": "万"}).score == 2
    assert r.score("1234s", win="1s", context={"缺": "万", "主色": "条"}).score == 3
    assert r.score("1234s", win="1s", context={"缺": "条"}).score == 0


def test_a_suit_that_is_not_declared_is_refused_in_one_sentence():
    r = _ok(SUITS)
    with pytest.raises(HandError, match=r"缺 takes a suit \(万, 条\), not '筒'"):
        r.score("1234s", win="1s", context={"缺": "筒"})


def test_a_suit_option_keeps_to_its_values_and_its_type():
    assert _codes(SUITS.replace("option 主色 suit = 万 { values [万, 条] }",
                                "option 主色 suit = 万 { values [条] }")) == [("E405", 1)]
    assert _codes(SUITS.replace("option 主色 suit = 万", "option 主色 suit = '1m'")) == [("E401", 1), ("E405", 1)]
    assert _codes("state player 定缺 suit\non draw { set actor.定缺 = '1m' }\nscore = 分\n") == [("E401", 2)]


def test_suit_values_survive_the_json_rule_set():
    r = _ok(SUITS)
    again = Rules(loads(dumps(r.ir)))
    assert again.score("1234s", win="1s", context={"缺": "万", "主色": "条"}).score == 3
    doc = json.loads(dumps(r.ir))
    doc["ruleset"]["settings"][0]["type"] = "colour"  # a stranger's type word
    with pytest.raises(FormatError):
        loads(json.dumps(doc))


# ---------------------------------------------------------------------- functions


FUNCTIONS = """state player 定缺 suit
def 同色(a: tile, b: tile) = a.suit == b.suit
def 张数(s: suit) = count(t in tiles: t.suit == s)
def 含(xs: tiles, s: suit) = any(t in xs: t.suit == s)
def 缺了(p: seat) = p.定缺 != none and not 含(p.hand, p.定缺)
pattern 一色 { value 1 分; when all(t in tiles: 同色(t, win_tile)) }
pattern 万张 { value 1 分; count = 张数(万) }
pattern 同色对 { value 1 分; count = count(t in tiles: 含(filter(u in tiles: 同色(u, t) and u != t), 条)) }
score = 分
example 万 { hand '1234m'; win '1m'; expect fans [一色, 万张]; expect score 6 }
example 条 { hand '1234s'; win '1s'; expect fans [一色, 同色对]; expect score 6 }
action 自摸 { on draw; by self; wins true; win_tile drawn; when 缺了(actor) }
"""


@pytest.mark.parametrize("backend", ["python", "native"])
def test_functions_are_written_out_and_score_on_every_backend(backend):
    res = _compile(FUNCTIONS)
    assert res.ok, res.render()
    r = Rules(res.ruleset, backend=backend)
    assert r.score("1234m", win="1m").score == 6  # 一色 1 + 万张 5
    # 同色对: each of the five 条 has another 条 beside it (the binder `t` of 含 is renamed, not captured)
    assert [(f.pattern, f.count) for f in r.score("1234s", win="1s").fans] == [("一色", 1), ("同色对", 5)]
    # the compiled rule set has no functions: the JSON holds the written-out expressions only
    text = dumps(res.ruleset)
    assert "同色" in text and '"def"' not in text and "Function" not in text
    assert Rules(loads(text), backend=backend).score("1234s", win="1s").score == 6


def test_a_call_is_checked_against_its_function():
    base = "def 手(p: seat) = len(p.hand)\n"
    assert _codes(base + "pattern 甲 { value 1 分; count = 手() }\nscore = 分\n") == [("E403", 2)]
    assert _codes(base + "pattern 甲 { value 1 分; count = 手('1m') }\nscore = 分\n") == [("E401", 2)]
    # the body names a seat's hand: fine in game rules, not where a hand is scored
    assert _codes("def 庄家() = actor == dealer\npattern 甲 { value 1 分; when 庄家() }\nscore = 分\n") \
        == [("E301", 2), ("E301", 2)]
    assert _codes(base + "pattern 甲 { value 1 分; when 手 }\nscore = 分\n") == [("E301", 2)]


def test_a_function_may_not_call_itself_or_hide_its_parameters():
    assert _codes("def 甲(x: int) = 乙(x) + 1\ndef 乙(x: int) = 甲(x)\nscore = 分\n") == [("E503", 1), ("E503", 2)]
    assert _codes("def 坏(p: tile) = any(p in tiles: p.rank == 1)\nscore = 分\n") == [("E404", 1)]
    assert _codes("def len(x: int) = x\nscore = 分\n") == [("E302", 1)]
    assert _codes("def 型(p: colour) = 1\nscore = 分\n") == [("E204", 1)]


def test_functions_that_double_at_every_level_are_stopped_before_they_grow():
    chain = "".join(f"def 大{k}(x: int) = 大{k + 1}(x) + 大{k + 1}(x)\n" for k in range(20)) + "def 大20(x: int) = x\n"
    codes = _codes(chain + "pattern 甲 { value 1 分; count = 大0(1) }\nscore = 分\n")
    assert codes and {c for c, _ in codes} == {"E704"}
