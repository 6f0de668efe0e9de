"""The compiled conditions' wider forms (runtime/native/src/program/pred.rs): the reading's builtins and
their fields, `len` of a reading list, loops over a constant list and over several binders, remembered
loops, and the parts that do not compile walked inside a compiled condition. Each budget test fills a
reading's budget to exactly its last node (the reading is counted) and to one node past it (it is left
to the reference: 0), with the nodes the tree walk charges for the expression worked out by hand. The
budget is filled by evaluating a few loops nested over the groups (a small rule, millions of nodes
evaluated), with a small padding count for the rest; the same tests pass on a build without these
forms (the walk), so both stop at the same node.
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


PAIRS3 = ("ab", "cd", "ef")  # three loops of two binders over the groups


def pair_loops(body, pairs=PAIRS3):
    """`any(a, b in groups: any(c, d in groups: any(e, f in groups: body)))`."""
    for bs in reversed(pairs):
        body = loop("any", bs, builtin("groups"), body)
    return body


def pair_loops_nodes(body_nodes, n_groups):
    """The nodes the walk charges for `pair_loops`: a loop 1, its source 1 and its body per combination
    of two groups."""
    c = body_nodes
    for _ in PAIRS3:
        c = 2 + n_groups * (n_groups - 1) // 2 * c
    return c


XS = tuple(range(1, 26))  # a constant list of 25 distinct numbers


def builtins_nest():
    """`any(x in [1, …, 25]: any(a, b in groups: any(c, d in groups: any(e, f in groups: a.rank + … +
    f.rank + x + len(groups) + pair.rank > 1000))))`: never true, so every loop runs to its end (nearly
    five million nodes from a few hundred); the body reads a constant list's item, three loops of two
    binders, `len` of a reading list and a builtin's field. No loop is remembered (each reads all the
    binders of the loops around it, over distinct items)."""
    fields = [attr(b, "rank") for b in "".join(PAIRS3)]
    body = cmp(">", plus(*fields, binder("x"), length("groups"), battr("pair", "rank")), num(1000))
    return loop("any", "x", listlit(*XS), pair_loops(body))


def builtins_nest_nodes(n_groups):
    """The comparison 1, its sum 8 `+` nodes, six fields 6, the binder 1, len 2, pair.rank 2, the
    constant 1; the pair loops; the constant list's loop 1, its source 1 and the rest per item."""
    body = 1 + 8 + 6 + 1 + 2 + 2 + 1
    return 2 + len(XS) * pair_loops_nodes(body, n_groups)


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


YS = (1, 2, 3)


def remembered_nest():
    """`any(y in [1, 2, 3]: any(a, b in groups: any(c, d in groups: any(e, f in groups: remembered() +
    a.rank + … + f.rank + y < 0))))`: never true. `remembered()` reads no binder around it, so it is
    remembered too (the loops around it are not: each reads all the binders of the loops around it):
    evaluated once (its inner count twice, answered from the memo three times), then answered from the
    memo at each of the other 27,782 combinations, each answer charging the nodes its evaluation
    charged; those answers make most of the budget."""
    fields = [attr(b, "rank") for b in "".join(PAIRS3)]
    body = cmp("<", plus(remembered(), *fields, binder("y")), num(0))
    return loop("any", "y", listlit(*YS), pair_loops(body))


def remembered_nest_nodes(n_groups):
    """The comparison 1, its sum 7 `+` nodes, `remembered()`, six fields 6, the binder 1, the constant 1; the pair
    loops; the constant list's loop 1, its source 1 and the rest per item."""
    body = 1 + 7 + remembered_nodes(n_groups) + 6 + 1 + 1
    return 2 + len(YS) * pair_loops_nodes(body, n_groups)


@needs_native
@pytest.mark.parametrize("extra", [0, 1])
def test_builtins_and_pairs_of_binders_stop_at_the_same_node(extra):
    n = builtins_nest_nodes(7)
    assert n > 0.9 * BUDGET  # the loops' evaluation fills the budget, not a large padding
    got, m, pad = fill((builtins_nest(), n), extra=extra)
    assert got == (0 if extra else [0, m] + [1] * len(pad))


@needs_native
@pytest.mark.parametrize("extra", [0, 1])
def test_a_remembered_loop_charges_as_evaluated(extra):
    """A remembered loop answered from the memo charges the nodes its evaluation charged: the budget is
    exactly filled with the walk's count, one node more stops."""
    n = remembered_nest_nodes(7)
    assert n > 0.9 * BUDGET
    assert programs(remembered_nest()).remembered() == 2  # `remembered()` and its inner count
    got, m, pad = fill((remembered_nest(), n), extra=extra)
    assert got == (0 if extra else [0, m] + [1] * len(pad))


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
