"""Equality lookups over tiles (runtime/native/src/program/lookup.rs): `count/any(t in L: t.F == V)`
over a list of tiles is answered from a count per tile kind, which must give the reference's number —
for the tile itself, for a field that is a function of the kind, and (not a function of the kind) the
wildcard field, which keeps the list of keys.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ROOT
from paili.runtime import backend
from test_native_memo import attr, cmp, comp, counts, name, num, programs

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def distinct(src):
    return {"_": "Call", "func": "distinct", "args": [src]}


@needs_native
def test_lookups_over_tiles_count_each_kind():
    """Runs 123 123 234 789 of one suit and a pair of 5s: kinds 2 and 3 (ranks 2 and 3) are held three
    times each, rank 1 twice, rank 4 once; a kind not held is counted 0, and a value that is not a tile equals none."""
    tiles = name("tiles")
    p = programs(
        comp("count", "k", distinct(tiles),
             cmp("==", comp("count", "t", tiles, cmp("==", name("t"), name("k"))), num(3))),
        comp("count", "t", tiles, cmp("==", attr("t", "rank"), num(2))),
        comp("count", "t", tiles, cmp("==", num(5), attr("t", "rank"))),
        comp("count", "t", tiles, cmp("==", attr("t", "rank"), num(4))),
        comp("any", "t", tiles, cmp("==", attr("t", "rank"), num(6))),
        comp("count", "t", tiles, cmp("==", name("t"), num(2))),
    )
    assert list(counts(p)) == [2, 3, 2, 1, 0, 0]


def assert_counts_as_reference(path, seed: int) -> None:
    """150 seeded random hands of rule file `path` (bench/native_diff.py): every reading's counts and every
    scored hand are the reference's, at least 100 readings counted, none left to the reference."""
    stats: dict = {}
    _checks, diffs, why = native_diff.run_file(path, 0, 0, seed=seed, count_hands=150, stats=stats, hand_hands=150)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["readings"] >= 100
    assert stats["fallbacks"] == 0


def lookup_file(tmp_path, base: str, extra: str):
    path = tmp_path / f"lookup_{Path(base).name}"
    path.write_text((ROOT / base).read_text("utf-8") + extra, "utf-8")
    return path


GUOBIAO_EXTRA = """
pattern 甲 {
  value 1 番
  count = count(k in distinct(hand): count(t in tiles: t == k) == 3)
  doc "x"
}

pattern 乙 {
  value 1 番
  count = count(t in hand: t.rank == win_tile.rank) + count(t in tiles: t.suit == win_tile.suit)
  doc "x"
}

pattern 丙 {
  value 1 番
  when any(t in tiles: t.honor == true) and count(t in hand: t == win_tile) >= 2
  doc "x"
}
"""

JOKER_EXTRA = """
pattern 甲 {
  value 1 番
  count = count(t in tiles: t.wild == true) + count(t in hand: t == win_tile) + count(t in tiles: t.rank == 5)
}
"""


@needs_native
@pytest.mark.parametrize("base, extra", [("rules/guobiao.pai", GUOBIAO_EXTRA), ("bench/rules/joker.pai", JOKER_EXTRA)])
def test_lookups_count_as_the_reference(tmp_path, base, extra):
    """Seeded random hands (melds, honours, flowers; wildcards in the joker rule set): every reading's
    counts and every scored hand are the reference's, none left to it."""
    path = lookup_file(tmp_path, base, extra)
    assert_counts_as_reference(path, seed=7)


def call(func, *args):
    return {"_": "Call", "func": func, "args": list(args)}


@needs_native
def test_len_of_distinct_counts_the_kinds_held():
    """`len(distinct(tiles))` is counted without the list (eval.rs `call`): runs 123 123 234 789 of one
    suit and a pair of 5s hold eight kinds; `distinct` alone still makes the list the loop reads."""
    tiles = name("tiles")
    p = programs(
        call("len", distinct(tiles)),
        comp("count", "k", distinct(tiles), cmp(">=", attr("k", "rank"), num(1))),
    )
    assert list(counts(p)) == [8, 8]


DISTINCT_EXTRA = """
pattern 丁 {
  value 1 番
  count = len(distinct(tiles)) + len(distinct(hand)) - len(distinct(melds))
  doc "x"
}

pattern 戊 {
  value 1 番
  when len(distinct(filter(t in tiles: t.rank > 5))) >= 2 and len(distinct(pairs)) == 1
  doc "x"
}
"""


@needs_native
@pytest.mark.parametrize("base", ["rules/guobiao.pai", "bench/rules/joker.pai"])
def test_len_of_distinct_counts_as_the_reference(tmp_path, base):
    """Seeded random hands: `len(distinct(…))` of tiles (wildcards among them in the joker rule set) and
    of groups (compared by identity, the general path) gives every reading the reference's counts."""
    path = lookup_file(tmp_path, base, DISTINCT_EXTRA)
    assert_counts_as_reference(path, seed=11)
