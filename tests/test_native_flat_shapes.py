"""The pattern programs' flat form (runtime/native/src/program/flat.rs) on the shapes it took last:
`if`, `sum`/`max`/`min` comprehensions, a pattern's count that is arithmetic over comprehensions, and
readings where a group equal to an earlier one shares its identity. Each answers as the reference
does, and the flat form answers it itself (`Patterns.flat_gave_up`, the flat evaluations of the thread
that gave up to the form they replace, does not move) — except where the reference refuses a value,
which it leaves to that form.
"""
from __future__ import annotations

import pytest
from paili.runtime import backend
from test_native_lookup import assert_counts_as_reference, lookup_file
from test_native_memo import GROUPS, attr, cmp, comp, counts, name, num, programs, run

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def binary(op, a, b):
    return {"_": "Binary", "op": op, "left": a, "right": b}


def if_(c, a, b):
    return {"_": "If", "cond": c, "then": a, "orelse": b}


def lst(*items):
    return {"_": "ListLit", "items": list(items)}


def gave_up():
    return backend.native_module().Patterns.flat_gave_up()


def flat_counts(p, groups=GROUPS):
    """The counts, and how many flat evaluations gave up while counting them."""
    before = gave_up()
    got = counts(p, groups)
    return got, gave_up() - before


@needs_native
def test_if_sum_max_min_answered_flat():
    """Runs of ranks 1, 1, 2, 7 and a pair of 5s: `if` per run (rank 1: 10, else 1) summed is 22;
    `max - min` of the ranks 6; `sum` of ranks 11; `max` of none of them 0; a count that is
    arithmetic over comprehensions and an `if` (3 + (if 4 >= 3 then 0 else 9)) 3; `min` over pairs of
    runs of `a.rank + b.rank` 2. None of them gives up."""
    runs = name("runs")
    rank = attr("m", "rank")
    p = programs(
        comp("sum", "m", runs, if_(cmp("==", rank, num(1)), num(10), num(1))),
        binary("-", comp("max", "m", runs, rank), comp("min", "m", runs, rank)),
        comp("sum", "m", runs, rank),
        comp("max", "m", lst(), num(5)),
        binary("+", comp("count", "m", runs, cmp("<", rank, num(3))),
               if_(cmp(">=", comp("count", "m", runs, cmp(">", rank, num(0))), num(3)), num(0), num(9))),
        {"_": "Comp", "func": "min", "binders": ["a", "b"], "source": runs,
         "body": binary("+", attr("a", "rank"), attr("b", "rank"))},
    )
    got, gave = flat_counts(p)
    assert got == [22, 6, 11, 0, 3, 2]
    assert gave == 0


@needs_native
def test_what_the_reference_refuses_inside_an_if_is_left_to_it():
    """A division by zero in the branch taken: the flat form gives up, the walk stops, the reading
    is left to the reference (0); in the branch not taken it is never evaluated (4 runs)."""
    runs = name("runs")
    zero = binary("//", num(1), num(0))
    taken = comp("sum", "m", runs, if_(cmp(">", attr("m", "rank"), num(0)), zero, num(1)))
    got, gave = flat_counts(programs(taken))
    assert got == 0 and gave >= 1
    skipped = comp("sum", "m", runs, if_(cmp(">", attr("m", "rank"), num(0)), num(1), zero))
    got, gave = flat_counts(programs(skipped))
    assert got == [4] and gave == 0


@needs_native
def test_groups_sharing_an_identity_are_read_flat():
    """Two equal runs 123 sharing one identity (the second names the first), runs 234 and 789: as
    groups they are equal (`a == b` holds for that pair alone), their fields are the first's, and the
    flat form answers (before, such a reading made every flat form give up)."""
    groups = (run(0, 0), run(0, 0), run(1, 2), run(6, 3), ("将", (4 << 2, 4 << 2), 6, 0, 4))
    runs = name("runs")
    pairs = {"_": "Comp", "func": "count", "binders": ["a", "b"], "source": runs,
             "body": cmp("==", name("a"), name("b"))}
    p = programs(
        pairs,
        comp("count", "m", runs, cmp("==", attr("m", "rank"), num(1))),
        comp("sum", "m", runs, attr("m", "rank")),
    )
    got, gave = flat_counts(p, groups)
    assert got == [1, 2, 11]
    assert gave == 0


SHAPES_EXTRA = """
pattern 甲 {
  value 1 番
  count = (count(m in melds: m.rank > 3)
           + (if count(t in tiles: t.honor) >= 3 then 0 else count(m in runs: m.suit != pair.suit)))
  doc "x"
}

pattern 乙 {
  value 1 番
  when (len(melds) >= 2 and max(m in melds: m.rank) - min(m in melds: m.rank) >= 3
        and sum(t in hand: if t.honor then 0 else t.rank) > 20)
  doc "x"
}

pattern 丙 {
  value 1 番
  count = sum(r in [1, 5, 9]: count(t in hand: t.rank == r) - (if win_tile.rank == r then 1 else 0))
  doc "x"
}
"""


@needs_native
@pytest.mark.parametrize("base", ["rules/guobiao.pai", "rules/baijindao.pai", "bench/rules/joker.pai"])
def test_new_flat_shapes_count_as_the_reference(tmp_path, base):
    """Seeded random hands (wildcards in the joker rule set): `if`, `sum`/`max`/`min` and counts that
    are arithmetic give every reading the reference's counts, none left to it."""
    path = lookup_file(tmp_path, base, SHAPES_EXTRA)
    assert_counts_as_reference(path, seed=9)
