"""The stated limits on a compiled JSON rule set (runtime/ir/limitcheck.py, run by runtime/ir/check.py when
a file is loaded): a rule set the compiler would refuse for a limit, written as JSON by hand (here: a
compiled rule set edited past the limit), is refused on load with one sentence naming the JSON path of
the node, the limit and the compiler's code. The .pai side of each limit is tests/test_limits.py."""
import copy
import json
import re

import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.ir.serialize import FormatError, dumps, loads
from test_diagnostics import BASE

SCORE = "score = 番 * 2 ^ 加倍次数"
WHEN = "when 加倍次数 > 0"


def compiled(src: str) -> dict:
    res = compile_text(src, "case.pai")
    assert res.ok, res.render()
    doc = json.loads(dumps(res.ruleset))
    loads(json.dumps(doc, ensure_ascii=False))  # within the limits, the file loads
    return doc


def at(doc: dict, path: str):
    """The node at a JSON path written as the loader writes it (`ruleset.score.expr.right`)."""
    node = doc
    for key, index in re.findall(r"\.?([^.\[\]]+)|\[(\d+)\]", path):
        node = node[key] if key else node[int(index)]
    return node


def refused(doc: dict, message: str) -> str:
    with pytest.raises(FormatError) as exc:
        loads(json.dumps(doc, ensure_ascii=False))
    text = str(exc.value)
    assert "\n" not in text and re.fullmatch(message, text), text
    return text


def with_score(expr: str) -> dict:
    return compiled(BASE.replace(SCORE, f"score = {expr}"))


def test_a_number_literal_of_too_many_digits():
    doc = with_score("番 * 7")
    at(doc, "ruleset.score.expr.right")["text"] = "1" * 31
    refused(doc, r"ruleset\.score\.expr\.right: a number of 31 digits; a number has at most 30 \(E702\)")


def test_a_constant_exponent_past_the_limit():
    doc = with_score("番 * 1 ^ 1000")
    at(doc, "ruleset.score.expr.right.right")["text"] = "1000000000"
    refused(doc, r"ruleset\.score\.expr\.right\.right: the exponent 1000000000 is larger than 1000 \(E702\)")


def test_a_constant_power_past_100_digits():
    doc = with_score("番 * 10 ^ 20")
    at(doc, "ruleset.score.expr.right.right")["text"] = "200"
    refused(doc, r"ruleset\.score\.expr\.right: the power has more than 100 digits \(E702\)")


def test_a_constant_product_past_100_digits():
    doc = with_score("番 + 10 ^ 50 * 10 ^ 40")
    at(doc, "ruleset.score.expr.right.right.right")["text"] = "60"
    refused(doc, r"ruleset\.score\.expr\.right: the constant value has more than 100 digits \(E702\)")


@pytest.mark.parametrize("expr, path, message", [
    ("番 / 1", "right", r"`/` by zero: the divisor is the constant 0"),
    ("番 % 1", "right", r"`%` by zero: the divisor is the constant 0"),
    ("1 ^ -1", "left", r"`0 \^` a negative exponent divides by zero"),
])
def test_a_constant_division_by_zero(expr, path, message):
    doc = with_score(expr)
    at(doc, f"ruleset.score.expr.{path}")["text"] = "0"
    where = "ruleset.score.expr.right" if path == "right" else "ruleset.score.expr"
    refused(doc, re.escape(where) + f": {message} \\(E707\\)")


def test_a_constant_exponent_that_is_not_whole():
    doc = with_score("番 * 2 ^ 3")
    at(doc, "ruleset.score.expr.right.right")["text"] = "0.5"
    refused(doc, r"ruleset\.score\.expr\.right\.right: `\^` takes a whole exponent \(E401\)")


def test_an_expression_nested_too_deeply():
    doc = with_score("番 * 2")
    deep = at(doc, "ruleset.score.expr.right")
    for _ in range(100):
        deep = {"_": "Unary", "span": deep["span"], "op": "-", "operand": deep}
    at(doc, "ruleset.score.expr")["right"] = deep
    refused(doc, r"ruleset\.score\.expr: the expression nests more than 64 levels deep \(operators, calls, "
                 r"parentheses\) \(E703\)")


def test_comprehensions_nested_too_deeply():
    doc = compiled(BASE.replace(WHEN, "when any(t in [1]: t > 0)"))
    path = "ruleset.patterns[3].when"
    comp = at(doc, path)
    for i in range(8):  # nine comprehensions, the outermost over the list, each inner over its binder's list
        comp = {**copy.deepcopy(comp), "binders": [f"x{i}"], "body": comp}
    at(doc, "ruleset.patterns[3]")["when"] = comp
    refused(doc, re.escape(path) + r"(\.body)+: more than 8 comprehensions nested in one another \(E703\)")


def test_an_expression_of_too_many_parts():
    doc = compiled(BASE.replace(WHEN, "when len([1, 2]) > 0"))
    items = at(doc, "ruleset.patterns[3].when.operands[0].args[0]")["items"]
    items.extend(copy.deepcopy(items[0]) for _ in range(2100))
    refused(doc, r"ruleset\.patterns\[3\]\.when: the expression has 2,106 parts; the limit is 2,000 \(E704\)")


def test_an_expression_too_large_with_its_quantities_written_out():
    qs = "quantity q0 = 加倍次数 + 2\n" + "".join(f"quantity q{i} = q{i - 1} * q{i - 1}\n" for i in range(1, 9))
    doc = compiled(BASE.replace(SCORE, qs + "score = 番 * q8 * q1"))  # 1,547 parts written out
    name = at(doc, "ruleset.score.expr.right")
    name.update(name="q8", ref="quantity:q8")  # 3,071
    refused(doc, r"ruleset\.score\.expr: the expression, with the quantities it reads written out, has more "
                 r"than 2,000 parts \(E704\)")


def test_comprehensions_that_would_evaluate_their_bodies_too_often():
    doc = compiled(BASE.replace(WHEN, "when any(a, b in tiles: any(c in tiles: a.rank + b.rank + c.rank == 9))"))
    at(doc, "ruleset.patterns[3].when.body")["binders"] = ["c", "d", "e"]  # C(18,2) × (1 + C(18,3))
    refused(doc, r"ruleset\.patterns\[3\]\.when: the comprehensions here may evaluate their bodies 125,001 "
                 r"times per reading; the limit is 100,000 \(E705\)")


def test_copies_computed_past_the_limit():
    doc = compiled(BASE.replace("copies 4", "copies = 2 * 2"))
    at(doc, "ruleset.tiles.kinds[0].copies.right")["text"] = "40"
    refused(doc, r"ruleset\.tiles\.kinds\[0\]\.copies: 80 copies of 1万; a tile kind has at most 64 copies "
                 r"\(E706\)")


def test_players_computed_past_the_limit():
    doc = compiled(BASE.replace("players 2", "players = 1 + 1"))
    at(doc, "ruleset.table.players.right")["text"] = "300"
    refused(doc, r"ruleset\.table: 301 players; the limit is 256 \(E706\)")


def test_more_wildcards_than_a_hand_may_hold():
    wild = BASE.replace('honor 中 { code "7z"; attrs 箭 }', 'honor 中 { code "7z"; attrs 箭 }\n  joker 王 { copies 8 }')
    doc = compiled(wild + "wild 王 { tiles 王 }\n")
    kind = next(k for k in at(doc, "ruleset.tiles.kinds") if k["name"] == "王")
    kind["copies"]["text"] = "9"
    refused(doc, r"ruleset\.wilds\[0\]: a hand could hold 9 wildcards; the limit is 8 \(E706\)")


def test_the_bundled_rule_sets_are_within_the_limits():
    from conftest import ROOT
    from paili.dsl.compiler import compile_file

    for p in sorted((ROOT / "rules").glob("*.pai")):
        loads(dumps(compile_file(p).ruleset))


def test_a_deep_path_is_written_shortly_in_the_sentence():
    """A mistake deep inside a tree within the nesting limit (here 60 levels of `-`): the JSON path names
    the repeated step once, with its count, so the sentence stays one short line."""
    doc = with_score("番 * 2")
    deep = {"_": "ListLit", "span": at(doc, "ruleset.score.expr.right")["span"], "items": []}
    for _ in range(60):
        deep = {"_": "Unary", "span": deep["span"], "op": "-", "operand": deep}
    at(doc, "ruleset.score.expr")["right"] = deep
    text = refused(doc, r"ruleset\.score\.expr\.right\(\.operand × 60\): expected a number, but this is a list.*")
    assert len(text) < 120


def test_a_compiled_rule_set_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from paili.runtime import limits as L
    from paili.runtime.rules import load

    doc = with_score("番 * 2")
    monkeypatch.setattr(L, "MAX_RULESET_JSON_BYTES", 1000)  # the real limit is 16 MB: a small one to test it
    text = json.dumps(doc, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    sentence = f"the rule set is {size:,} bytes; a compiled rule set has at most 1,000"
    with pytest.raises(FormatError, match=f"^{sentence}$"):
        load(path)
    with pytest.raises(FormatError, match=f"^{sentence}$"):
        loads(text)
