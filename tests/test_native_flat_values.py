"""The pattern programs' flat form (runtime/native/src/program/flat.rs) reading a group's `value` from
its columns, and a `sum` in a value's place (a quantity's expression, as 扯胡子's 胡息 read by its
requirement 起胡) answered by the flat form rather than walked: the same values as the walk, the flat
form giving up (`Patterns.flat_gave_up`) only where a value is not a whole number.
"""
from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from paili.runtime import backend
from test_native_flat_shapes import binary, flat_counts, gave_up, if_
from test_native_memo import attr, cmp, comp, name, num, programs, run

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def builtin(n):
    return {"_": "Name", "name": n, "ref": f"builtin:{n}"}


def valued(groups, values):
    """The groups with these values (a group tuple's fourth item)."""
    return tuple((k, t, f, v, i) for (k, t, f, _v, i), v in zip(groups, values))


# runs 123 123 234 789 of one suit and a pair of 5 (test_native_memo.GROUPS), their values given below
PLAIN = (run(0, 0), run(0, 1), run(1, 2), run(6, 3), ("将", (4 << 2, 4 << 2), 6, 0, 4))


@needs_native
def test_group_values_summed_flat():
    """Values 3, 6, 0, 9, 1: their sum 19; the sum of the runs' values with rank 1 doubled 27 (3·2 + 6·2
    + 0 + 9); the count of groups worth 3 or more 3; the sum inside arithmetic 19 - 15 = 4. None gives up."""
    groups = valued(PLAIN, (3, 6, 0, 9, 1))
    value = attr("m", "value")
    p = programs(
        comp("sum", "m", builtin("groups"), value),
        comp("sum", "m", name("runs"), if_(cmp("==", attr("m", "rank"), num(1)), binary("*", value, num(2)), value)),
        comp("count", "m", builtin("groups"), cmp(">=", value, num(3))),
        binary("-", comp("sum", "m", builtin("groups"), value), num(15)),
    )
    got, gave = flat_counts(p, groups)
    assert got == [19, 27, 3, 4]
    assert gave == 0


@needs_native
def test_a_value_not_whole_is_left_to_the_walk():
    """A group worth a truth (True), and one worth a text: the flat form gives up on them; the walk
    sums the truth as 1 (3 + 1 + 0 + 0 + 0) and stops at the text, the reading left to the reference (0)."""
    value = attr("m", "value")
    p = programs(comp("sum", "m", builtin("groups"), value))
    got, gave = flat_counts(p, valued(PLAIN, (3, True, 0, 0, 0)))
    assert got == [4] and gave >= 1
    got, gave = flat_counts(p, valued(PLAIN, (3, 1, "甲", 0, 0)))
    assert got == 0 and gave >= 1


@needs_native
def test_chehuzi_requirement_read_flat():
    """扯胡子 (its 起胡 `胡息 >= 15`, 胡息 a `sum` over the groups of their values): seeded random hands
    score as the reference, none left to it, and no flat evaluation gives up while scoring them."""
    stats: dict = {}
    before = gave_up()
    _checks, diffs, why = native_diff.run_file(ROOT / "rules" / "chehuzi.pai", 0, 0, seed=5, count_hands=0,
                                               stats=stats, hand_hands=60)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["fallbacks"] == 0
    assert gave_up() == before
