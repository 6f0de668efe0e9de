"""The flat form's typed comparisons of a loop's items with a field of the reading's single values
(runtime/native/src/program/flat_typed.rs: `m.suit == pair.suit`, `t == win_tile`,
`win_tile.rank == m.rank + 3`): read as the reference reads them — a missing pair's field none, equal to
a suitless group's — and answered by the flat form itself.
"""
from __future__ import annotations

import pytest
from paili.runtime import backend
from test_native_lookup import assert_counts_as_reference, lookup_file
from test_native_memo import attr, cmp, comp, counts, name, num, programs, run

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def single(b):
    return {"_": "Name", "name": b, "ref": f"builtin:{b}"}


def of(b, f):
    return {"_": "Attr", "obj": single(b), "name": f}


def both(a, b):
    return {"_": "Binary", "op": "and", "left": a, "right": b}


def gave_up():
    return backend.native_module().Patterns.flat_gave_up()


@needs_native
def test_single_values_fields_in_loop_bodies_answered_flat():
    """Runs 123 123 234 789 of one suit, a pair of 5s, the winning tile a 5 in the pair (GROUPS): every
    run has the pair's suit (4); two tiles are the winning tile (2); one run starts three below it (the
    234: 1); no run is of the winning group's kind (0), the pair is (1). Without a pair, no run has its
    suit (0). No evaluation gives up."""
    runs = name("runs")
    p = programs(
        comp("count", "m", runs, cmp("==", attr("m", "suit"), of("pair", "suit"))),
        comp("count", "t", name("tiles"), cmp("==", name("t"), single("win_tile"))),
        comp("count", "m", runs, both(
            cmp("==", attr("m", "suit"), of("win_tile", "suit")),
            cmp("==", of("win_tile", "rank"),
                {"_": "Binary", "op": "+", "left": attr("m", "rank"), "right": num(3)}))),
        comp("count", "m", runs, cmp("==", attr("m", "kind"), of("win_group", "kind"))),
    )
    before = gave_up()
    assert counts(p) == [4, 2, 1, 0]
    assert gave_up() == before
    no_pair = (run(0, 0), run(0, 1), run(1, 2), run(6, 3), run(3, 4))
    assert counts(p, no_pair)[0] == 0
    assert gave_up() == before


EXTRA = """
pattern 甲 {
  value 1 番
  group "八番牌型"
  count = count(m in runs: m.suit == pair.suit and m.rank <= pair.rank)
  doc "x"
}

pattern 乙 {
  value 1 番
  group "八番牌型"
  count = count(t in tiles: t == win_tile) + count(t in tiles: t != win_tile and t.suit == win_tile.suit)
  doc "x"
}

pattern 丙 {
  value 1 番
  group "八番牌型"
  when any(m in runs: m.suit == win_tile.suit and win_tile.rank == m.rank + 1)
  doc "x"
}

pattern 丁 {
  value 1 番
  group "八番牌型"
  count = count(m in groups: m.kind == win_group.kind or m.suit != pair.suit)
  doc "x"
}
"""


@needs_native
def test_single_values_fields_count_as_the_reference(tmp_path):
    """Such comparisons in a rule file's patterns: every reading's counts of seeded hands are the
    reference's, none left to it."""
    assert_counts_as_reference(lookup_file(tmp_path, "rules/baijindao.pai", EXTRA), 11)
