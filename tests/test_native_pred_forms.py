"""The compiled conditions' wider forms (runtime/native/src/program/pred.rs): the reading's builtins and
their fields, `len` of a reading list, loops over a constant list and over several binders, remembered
loops, and the parts that do not compile walked inside a compiled condition. Each budget test fills a
reading's budget to exactly its last node (the reading is counted) and to one node past it (it is left
to the reference: 0), with the nodes the tree walk charges for the expression worked out by hand; the
same tests pass on a build without these forms (the walk), so both stop at the same node.
"""
from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from test_native_memo import attr, cmp, counts, needs_native, num, programs
from test_native_pred import BUDGET, SEVEN, ones

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402


def builtin(n):
    return {"_": "Name", "name": n, "ref": f"builtin:{n}"}


def binder(n):
    return {"_": "Name", "name": n, "ref": f"binder:{n}"}


def battr(b, f):
    return {"_": "Attr", "obj": builtin(b), "name": f}


def plus(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = {"_": "Binary", "op": "+", "left": out, "right": x}
    return out


def loop(func, binders, src, body):
    return {"_": "Comp", "func": func, "binders": list(binders), "source": src, "body": body}


def listlit(*ns):
    return {"_": "ListLit", "items": [num(n) for n in ns]}


def length(b):
    return {"_": "Call", "func": "len", "args": [builtin(b)]}


def fill(*exprs_nodes, extra):
    """Patterns counting `exprs` (each with the nodes the walk charges for it) and a padding count
    that makes the reading's nodes exactly the budget plus `extra`; their counts on seven pairs."""
    exprs = [e for e, _ in exprs_nodes]
    used = sum(n for _, n in exprs_nodes)
    assert used < BUDGET
    rest = BUDGET - used + extra
    pad = [num(1)] if rest % 2 == 0 else []  # one node
    m = (rest - len(pad) + 1) // 2
    assert 2 * m - 1 + len(pad) == rest
    return counts(programs(*exprs, ones(m), *pad), SEVEN), m, pad


def builtins_nest():
    """`any(x in [1, 2, 3]: any(a, b in groups: any(c, d in groups: a.rank + b.rank + c.rank + d.rank
    + x + len(groups) + pair.rank > 1000)))`: never true, so every loop runs to its end; the body reads
    a constant list's item, two loops of two binders, `len` of a reading list and a builtin's field."""
    body = cmp(">", plus(attr("a", "rank"), attr("b", "rank"), attr("c", "rank"), attr("d", "rank"), binder("x"),
                         length("groups"), battr("pair", "rank")), num(1000))
    inner = loop("any", "cd", builtin("groups"), body)
    return loop("any", "x", listlit(1, 2, 3), loop("any", "ab", builtin("groups"), inner))


def builtins_nest_nodes(n_groups):
    """The comparison 1, its sum 6 `+` nodes, four fields 4, the binder 1, len 2, pair.rank 2, the
    constant 1; a loop 1, its source 1 and its body per item (per combination of two)."""
    body = 1 + 6 + 4 + 1 + 2 + 2 + 1
    pairs = n_groups * (n_groups - 1) // 2
    inner = 2 + pairs * body
    middle = 2 + pairs * inner
    return 2 + 3 * middle


def remembered():
    """`count(k in [1, 1, 2, 2, 1]: count(m in groups: m.rank <= k) >= 0 and not len(pairs) == 0)`: the
    inner count is remembered (the outer items repeat, it reads k): asked five times, evaluated twice (k = 1, 2)."""
    inner = loop("count", "m", builtin("groups"), cmp("<=", attr("m", "rank"), binder("k")))
    cond = {"_": "Binary", "op": "and", "left": cmp(">=", inner, num(0)),
            "right": {"_": "Unary", "op": "not", "operand": cmp("==", length("pairs"), num(0))}}
    return loop("count", "k", listlit(1, 1, 2, 2, 1), cond)


def remembered_nodes(n_groups):
    """Per outer item: `and` 1; the comparison 1, the inner count 1 + its source 1 + per group (the
    comparison 1, the field 1, the binder 1), the constant 1; `not` 1, the comparison 1, len 2, the
    constant 1. The outer count 1 and its source 1."""
    inner = 2 + n_groups * 3
    per = 1 + (1 + inner + 1) + (1 + 1 + 2 + 1)
    return 2 + 5 * per


@needs_native
@pytest.mark.parametrize("extra", [0, 1])
def test_builtins_and_pairs_of_binders_stop_at_the_same_node(extra):
    n = builtins_nest_nodes(7)
    got, m, pad = fill((builtins_nest(), n), (builtins_nest(), n), extra=extra)
    assert got == (0 if extra else [0, 0, m] + [1] * len(pad))


@needs_native
@pytest.mark.parametrize("extra", [0, 1])
def test_a_remembered_loop_charges_as_evaluated(extra):
    """The remembered inner count charges its nodes again where it is answered from the memo: the budget
    is exactly filled with the walk's count (5, every outer item true), one node more stops."""
    got, m, pad = fill((remembered(), remembered_nodes(7)), (builtins_nest(), builtins_nest_nodes(7)), extra=extra)
    assert got == (0 if extra else [5, 0, m] + [1] * len(pad))


@needs_native
def test_remembered_is_kept():
    """The inner count of `remembered()` is marked for the memo (the program remembers it)."""
    p = programs(remembered())
    assert p.remembered() == 1


@needs_native
def test_the_wider_forms_count_as_the_reference(tmp_path):
    """A rule file with conditions in the wider compiled forms (builtins and their fields as operands
    and truths, settings, `len`, constant lists, two binders, a remembered loop, walked parts such as a
    tally or `distinct` inside a condition): every reading's counts of seeded random hands are the
    reference's, none left to it."""
    text = (ROOT / "rules" / "baijindao.pai").read_text("utf-8")
    extra = """
pattern 甲 {
  value 1 番
  group "八番牌型"
  when pair != none and (pair.tile.rank in [2, 5, 8] or not self_drawn) and len(runs) + len(triplets) >= 2
  doc "x"
}

pattern 乙 {
  value 1 番
  group "八番牌型"
  count = count(a, b in melds: a.suit == b.suit and abs(a.rank - b.rank) <= 3 and win_tile.rank != 0)
  doc "x"
}

pattern 丙 {
  value 1 番
  group "八番牌型"
  when any(d in [1, 2, 1, 2]: count(m in runs: m.rank <= d) >= 1 and any(n in runs: n.rank == d + 1))
  doc "x"
}

pattern 丁 {
  value 1 番
  group "八番牌型"
  when context.海底 or (加倍次数 >= 0 and count(k in distinct(tiles): count(t in tiles: t.kind == k.kind) >= 2) >= 1)
  doc "x"
}

pattern 戊 {
  value 1 番
  group "八番牌型"
  when all(r in [1, 9]: count(t in hand: t.rank == r) - (if win_tile.rank == r then 1 else 0) <= 4) and menqing
  doc "x"
}
"""
    path = tmp_path / "forms.pai"
    path.write_text(text + extra, "utf-8")
    stats: dict = {}
    checks, diffs, why = native_diff.run_file(path, 0, 0, seed=11, count_hands=150, stats=stats)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["readings"] >= 50
    assert stats["fallbacks"] == 0
