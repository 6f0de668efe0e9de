"""The pattern programs' flat form (runtime/native/src/program/flat.rs, flat_eval.rs): conditions and
count/any/all loops over the reading's groups, tiles and constants evaluated over integer columns.
Where it does not decide (a free binder holding a fraction, texts ordered, a value of a kind it does
not hold) the compiled form it replaces answers, so the counts stay the reference's; whole numbers
follow Python (`//` and `%` by the divisor's sign), none equals none alone, groups equal by identity,
tiles by kind.
"""
from __future__ import annotations

import pytest
from paili.runtime import backend
from test_native_lookup import assert_counts_as_reference, lookup_file
from test_native_memo import attr, cmp, comp, counts, name, num, programs

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def comp2(func, a, b, src, body):
    return {"_": "Comp", "func": func, "binders": [a, b], "source": src, "body": body}


def binary(op, a, b):
    return {"_": "Binary", "op": op, "left": a, "right": b}


def runs():
    return name("runs")


def none():
    return {"_": "NoneLit"}


def lst(*items):
    return {"_": "ListLit", "items": list(items)}


def frac(text):
    return {"_": "Num", "text": text}


@needs_native
def test_whole_numbers_as_python_computes_them():
    """Runs of ranks 1, 1, 2, 7 (one suit) and a pair of 5s: `(0 - rank) % 3 == 2` holds for 1, 1, 7
    (-1 % 3 = 2, -7 % 3 = 2, -2 % 3 = 1); `(0 - rank) // 2 == -1` for 1, 1, 2 (-7 // 2 = -4); the
    chained `a.rank <= b.rank < 3` for (1, 1), (1, 2), (1, 2); membership in a constant list; `abs`."""
    neg = binary("-", num(0), attr("m", "rank"))
    p = programs(
        comp("count", "m", runs(), cmp("==", binary("%", neg, num(3)), num(2))),
        comp("count", "m", runs(), cmp("==", binary("//", neg, num(2)), num(-1))),
        comp2("count", "a", "b", runs(), {"_": "Compare", "ops": ["<=", "<"],
                                          "operands": [attr("a", "rank"), attr("b", "rank"), num(3)]}),
        comp("count", "m", runs(), {"_": "Compare", "ops": ["in"],
                                    "operands": [attr("m", "rank"), lst(num(2), num(7))]}),
        comp2("count", "a", "b", runs(), cmp("==", {"_": "Call", "func": "abs", "args": [
            binary("-", attr("a", "rank"), attr("b", "rank"))]}, num(6))),
    )
    assert counts(p) == [3, 3, 3, 2, 2]


@needs_native
@pytest.mark.parametrize("body", [
    cmp("==", binary("%", attr("m", "rank"), num(0)), num(0)),  # a division by zero
    {"_": "Compare", "ops": ["==", "<"], "operands": [attr("m", "suit"), attr("m", "suit"), num(1)]},  # a text < 1
])
def test_what_the_reference_refuses_is_left_to_it(body):
    """A loop whose body raises in the reference: the reading is left to it (no counts)."""
    assert counts(programs(comp("count", "m", runs(), body))) == 0


@needs_native
def test_where_the_flat_form_does_not_decide_the_compiled_form_answers():
    """A free binder holding a fraction (`d` of 1/2 and 3/2: 4 runs above 1/2, 2 above 3/2), suits
    ordered as texts (all one suit: none is below another, every pair is at most the other), and a
    binder of a loop the flat form does not take (`sum`) read inside one it takes."""
    above = comp("sum", "d", lst(frac("0.5"), frac("1.5")),
                 comp("count", "m", runs(), cmp(">", attr("m", "rank"), name("d"))))
    below = comp2("count", "a", "b", runs(), cmp("<", attr("a", "suit"), attr("b", "suit")))
    at_most = comp2("count", "a", "b", runs(), cmp("<=", attr("a", "suit"), attr("b", "suit")))
    inner = comp("sum", "d", lst(num(1), num(2)),
                 comp("count", "m", runs(), cmp("==", binary("+", attr("m", "rank"), num(0)), name("d"))))
    assert counts(programs(above, below, at_most, inner)) == [6, 0, 6, 3]


@needs_native
def test_none_groups_and_tiles_compare_as_the_reference():
    """None equals none alone; groups by identity (two runs 123 are two groups); tiles by kind (their
    lowest tiles are equal); `pair` a group; a none field read of none."""
    groups = {"_": "Name", "name": "groups", "ref": "builtin:groups"}
    p = programs(
        comp("count", "m", runs(), cmp("!=", attr("m", "suit"), none())),
        comp2("count", "a", "b", runs(), cmp("==", name("a"), name("b"))),
        comp2("count", "a", "b", runs(), cmp("==", attr("a", "tile"), attr("b", "tile"))),
        comp("count", "g", groups, cmp("!=", name("g"), {"_": "Name", "name": "pair", "ref": "builtin:pair"})),
        comp("count", "g", groups, cmp("==", none(), none())),
        comp("count", "g", groups, cmp("<", none(), num(1))),
        comp("count", "g", groups, {"_": "Unary", "op": "not", "operand": attr("g", "pair")}),
    )
    assert counts(p) == [4, 0, 1, 4, 5, 0, 4]


FLAT_EXTRA = """
pattern 甲 {
  value 1 番
  count = (count(a, b in melds: a.suit == b.suit and (a.rank - b.rank) % 3 == 0 and a.tile.rank >= 0)
           + count(m in groups: m.wilds > 0 or m.tile.wild) + count(t in hand: t.wild or t.rank in [1, 9]))
  doc "x"
}

pattern 乙 {
  value 1 番
  when (pair != none and any(g in groups: any(t in g.tiles: t.rank == pair.rank + 1))
        and len(distinct(tiles)) >= 3 and count(a, b, c in groups: a.suit != b.suit != c.suit) >= 0)
  doc "x"
}

pattern 丙 {
  value 1 番
  count = count(d in [1, 2, 3]: any(m in melds: any(n in melds: n.suit == m.suit and n.rank == m.rank + d)))
  doc "x"
}

pattern 丁 {
  value 1 番
  count = count(a, b in groups: a.kind == b.kind) + count(m in melds: m.kind != pair.kind)
  doc "x"
}
"""


@needs_native
@pytest.mark.parametrize("base", ["rules/guobiao.pai", "bench/rules/joker.pai"])
def test_flat_shapes_count_as_the_reference(tmp_path, base):
    """Seeded random hands (melds, honours, flowers; wildcards in the joker rule set): conditions over
    groups, their tiles, fields of fields, chained comparisons, `%`, constants, `len(distinct(…))` and
    the groups' kinds (meld names no constant of the rule set holds among them) give every reading the
    reference's counts, none left to it."""
    path = lookup_file(tmp_path, base, FLAT_EXTRA)
    assert_counts_as_reference(path, seed=5)
