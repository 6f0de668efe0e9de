"""The pattern programs' compiled conditions (runtime/native/src/program/pred.rs): connectives,
comparisons, fields of fields and count/any/all loops evaluated in a compact form, the nodes they
charge counted as they go and charged per loop item. The counts stay the reference's, and the budget
stops at the very node where the tree walk stopped.
"""
from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from test_native_memo import attr, cmp, comp, counts, needs_native, num, programs

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

BUDGET = 5_000_000  # runtime/native/src/program/eval.rs BUDGET: nodes per reading


def groups_name():
    return {"_": "Name", "name": "groups", "ref": "builtin:groups"}


def nest(depth):
    """`any(a in groups: any(b in groups: … a.rank + b.rank + … > 1000))`: never true, so every loop
    runs over every group; no loop is remembered (each reads all the binders around it)."""
    binders = "abcdefgh"[:depth]
    total = attr(binders[0], "rank")
    for b in binders[1:]:
        total = {"_": "Binary", "op": "+", "left": total, "right": attr(b, "rank")}
    body = cmp(">", total, num(1000))
    for b in reversed(binders):
        body = comp("any", b, groups_name(), body)
    return body


def nest_nodes(depth, n_groups):
    """The nodes the tree walk charges for `nest(depth)`: the comparison 1, its sum 2·depth − 1 nodes,
    the constant 1; each loop 1, its source 1 and its body per group."""
    c = 2 * depth + 1
    for _ in range(depth):
        c = 2 + n_groups * c
    return c


def ones(m):
    """`1 + 1 + … + 1` (m ones) as a balanced tree: 2m − 1 nodes, m its value."""
    if m == 1:
        return num(1)
    h = m // 2
    return {"_": "Binary", "op": "+", "left": ones(h), "right": ones(m - h)}


PAIR = ("将", (0, 0), 6, 0, 0)
SEVEN = tuple(PAIR[:4] + (i,) for i in range(7))  # seven pairs: 7 groups, 14 tiles


@needs_native
@pytest.mark.parametrize("extra", [0, 1])
def test_the_budget_stops_at_the_same_node(extra):
    """Three six-deep loop nests over seven groups and a padding count make exactly the budget (the
    reading is counted) or one node more (it is left to the reference: 0), as the tree walk charged
    them node by node."""
    used = 3 * nest_nodes(6, 7)
    assert used < BUDGET
    rest = BUDGET - used + extra
    pad = [num(1)] if rest % 2 == 0 else []  # one node
    m = (rest - len(pad) + 1) // 2
    assert 2 * m - 1 + len(pad) == rest
    p = programs(nest(6), nest(6), nest(6), ones(m), *pad)
    got = counts(p, SEVEN)
    if extra:
        assert got == 0
    else:
        assert got == [0, 0, 0, m] + [1] * len(pad)


@needs_native
def test_a_loop_past_the_budget_stops():
    """Seven deep (over twelve million nodes) the walk stops, so the compiled loops do too."""
    assert nest_nodes(7, 7) > BUDGET
    assert counts(programs(nest(7)), SEVEN) == 0
    assert counts(programs(nest(6)), SEVEN) == [0]


@needs_native
def test_compiled_conditions_count_as_the_reference(tmp_path):
    """A rule file with conditions of every compiled shape (fields of fields, a comparison of a count,
    `in`, `not`, `or`, a loop over a group's tiles, a loop in a comparison, truths of binders, a
    field that only some tiles have): every reading's counts of seeded random hands are the
    reference's, none left to it."""
    text = (ROOT / "rules" / "baijindao.pai").read_text("utf-8")
    extra = """
pattern 甲 {
  value 1 番
  group "八番牌型"
  count = count(m in melds: m.tile.箭 or (m.tile.rank in [1, 9] and not m.exposed))
  doc "x"
}

pattern 乙 {
  value 1 番
  group "八番牌型"
  when any(g in groups: count(t in g.tiles: t.rank == g.rank + 1) >= 1 and g.run)
  doc "x"
}

pattern 丙 {
  value 1 番
  group "八番牌型"
  count = count(m in runs: all(t in m.tiles: t.suit == m.suit and abs(t.rank - m.rank) <= 2))
  doc "x"
}

pattern 丁 {
  value 1 番
  group "八番牌型"
  when all(t in tiles: t.rank != 5 or t.honor) and count(m in triplets: m.tile.风) != 1
  doc "x"
}

pattern 戊 {
  value 1 番
  group "八番牌型"
  count = count(m in groups: max(m.rank, 3) - min(m.end, 4) * 2 > -4 and m.tile.kind != win_tile)
  doc "x"
}
"""
    path = tmp_path / "pred.pai"
    path.write_text(text + extra, "utf-8")
    stats: dict = {}
    checks, diffs, why = native_diff.run_file(path, 0, 0, seed=7, count_hands=150, stats=stats)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["readings"] >= 50
    assert stats["fallbacks"] == 0
