"""The pattern programs' remembered comprehensions (runtime/native/src/program/memo.rs): a comprehension
asked again within a reading with the same free binders' values is answered from what it gave before,
charging the nodes it charged then. The counts stay the reference's, and the budget stops where it did.
"""
from __future__ import annotations

import copy
import json
import sys
from functools import cache

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")


def name(n):
    return {"_": "Name", "name": n, "ref": f"builtin:{n}" if n in ("runs", "tiles") else f"binder:{n}"}


def attr(b, f):
    return {"_": "Attr", "obj": name(b), "name": f}


def num(n):
    return {"_": "Num", "text": str(n)}


def comp(func, b, src, body):
    return {"_": "Comp", "func": func, "binders": [b], "source": src, "body": body}


def cmp(op, a, b):
    return {"_": "Compare", "ops": [op], "operands": [a, b]}


@cache
def ruleset_doc():
    return json.loads(load(ROOT / "rules" / "baijindao.pai", backend="native").ruleset_json())


def programs(*counts):
    """Native pattern programs of a rule set whose only patterns count these expressions."""
    doc = copy.deepcopy(ruleset_doc())
    rs = doc["ruleset"]
    first = rs["patterns"][0]
    rs["patterns"] = []
    for i, c in enumerate(counts):
        p = {k: v for k, v in first.items() if k not in ("when", "enabled", "excludes")}
        p["name"] = f"p{i}"
        p["count"] = c
        rs["patterns"].append(p)
    rs["quantities"] = []
    rs["combines"] = []
    return backend.native_module().Patterns(json.dumps(doc, ensure_ascii=False), {})


def run(start, ident):
    """A concealed run from kind `start` (0 = the first kind of the suit), its identity."""
    return ("顺子", (start << 2, (start + 1) << 2, (start + 2) << 2), 2, 0, ident)


# runs 123 123 234 789 of one suit and a pair of 5: ranks 1, 1, 2, 7
GROUPS = (run(0, 0), run(0, 1), run(1, 2), run(6, 3), ("将", (4 << 2, 4 << 2), 6, 0, 4))


def counts(p, groups=GROUPS):
    settings = tuple(None for _ in p.settings())
    return p.raw_counts(settings, False, (), None, None, groups, None, None, 16, 4, "标准")


@needs_native
def test_a_remembered_comprehension_follows_its_free_binder():
    """`count(m in runs: m.rank <= d)` is asked twice for d = 1 and twice for d = 2 (remembered: the
    outer items repeat): 2 + 3 + 2 + 3. Read for every b inside `sum(b in runs: …)` with only a free
    (remembered: it does not read b): per a of rank 1, 1, 2, 7 there are 2, 2, 1, 0 runs above, four
    times each."""
    by_d = comp("sum", "d", {"_": "ListLit", "items": [num(1), num(2), num(1), num(2)]},
                comp("count", "m", name("runs"), cmp("<=", attr("m", "rank"), name("d"))))
    above = comp("sum", "a", name("runs"), comp("sum", "b", name("runs"),
                 comp("count", "c", name("runs"), cmp(">", attr("c", "rank"), attr("a", "rank")))))
    p = programs(by_d, above)
    assert p.remembered() == 2
    assert counts(p) == [10, 20]


@needs_native
def test_a_comprehension_written_in_two_patterns_is_one_memo():
    """The same inner comprehension in two patterns: the first pattern stops at its first run (two runs
    alike), the second reads it for every run, the first answer remembered: 2 + 2 + 1 + 1."""
    same = comp("count", "n", name("runs"), {"_": "Binary", "op": "and",
                                             "left": cmp("==", attr("n", "suit"), attr("m", "suit")),
                                             "right": cmp("==", attr("n", "rank"), attr("m", "rank"))})
    first = comp("any", "m", name("runs"), cmp("==", same, num(2)))
    every = comp("sum", "m", name("runs"), same)
    assert programs(first, every).remembered() == 1
    assert counts(programs(first, every)) == [1, 6]
    assert programs(every).remembered() == 0  # written once, over distinct runs it reads: never asked again
    assert counts(programs(every)) == [6]
    # another reading: the remembered values were this reading's only
    other = (run(0, 0), run(1, 1), run(2, 2), run(6, 3), GROUPS[4])
    assert counts(programs(first, every), other) == [0, 4]


def nested(levels):
    body = num(1)
    for b in "abcdefgh"[:levels]:
        body = comp("sum", b, name("tiles"), body)
    return body


@needs_native
def test_the_budget_still_stops_where_it_did():
    """Nested closed sums over a 14-tile reading are remembered (each inner one is the same for every
    outer item), so each is evaluated once; but a remembered answer charges the nodes its evaluation
    charged, so five levels (14^5 bodies, under a million nodes) are counted and six (14^6, past the
    five million nodes of a reading) leave the reading to the reference (0), as without the memo."""
    pair = ("将", (0, 0), 6, 0, 0)
    groups = tuple(pair[:4] + (i,) for i in range(7))  # seven pairs: 14 tiles
    assert programs(nested(4)).remembered() == 3  # the three inner sums
    assert counts(programs(nested(4)), groups) == [14 ** 4]
    assert counts(programs(nested(5)), groups) == [14 ** 5]
    assert counts(programs(nested(6)), groups) == 0


def nested_counts(levels):
    body = cmp("==", num(1), num(1))
    for b in "abcdefgh"[:levels]:
        body = cmp(">", comp("count", b, name("tiles"), body), num(0))
    return body["operands"][0]


@needs_native
def test_the_budget_stops_flat_loops_where_it_did():
    """The same in the flat form's loops (`count(a in tiles: count(b in tiles: …) > 0)`, each inner
    one remembered with no free binder): a remembered answer charges the nodes it charged, so five
    levels (≈1.8 million nodes) are counted and six (≈25 million) leave the reading to the reference;
    the flat form answers the five itself (none of its evaluations gave up)."""
    pair = ("将", (0, 0), 6, 0, 0)
    groups = tuple(pair[:4] + (i,) for i in range(7))  # seven pairs: 14 tiles
    gave_up = backend.native_module().Patterns.flat_gave_up
    assert programs(nested_counts(5)).remembered() == 4
    before = gave_up()
    assert counts(programs(nested_counts(5)), groups) == [14]
    assert gave_up() == before
    assert counts(programs(nested_counts(6)), groups) == 0


@needs_native
def test_remembered_comprehensions_count_as_the_reference(tmp_path):
    """A rule file with such patterns: every reading's counts of seeded random hands are the
    reference's, none left to it."""
    text = (ROOT / "rules" / "baijindao.pai").read_text("utf-8")
    extra = """
pattern 甲 {
  value 1 番
  group "八番牌型"
  count = sum(d in [1, 2, 1, 2]: count(m in runs: m.rank <= d))
  doc "x"
}

pattern 乙 {
  value 1 番
  group "八番牌型"
  count = sum(a in runs: sum(b in runs: count(c in runs: c.rank > a.rank)))
  doc "x"
}

pattern 丙 {
  value 1 番
  group "八番牌型"
  count = sum(m in runs: count(n in runs: n.suit == m.suit and n.rank == m.rank))
  doc "x"
}

pattern 丁 {
  value 1 番
  group "八番牌型"
  when any(m in runs: count(n in runs: n.suit == m.suit and n.rank == m.rank) == 2)
  doc "x"
}

pattern 戊 {
  value 1 番
  group "八番牌型"
  when any(d in [1, 2]: any(m in runs: any(n in runs: n.suit == m.suit and n.rank == m.rank + d)
                                       and any(n in runs: n.suit == m.suit and n.rank == m.rank + 2 * d)))
  doc "x"
}

pattern 己 {
  value 1 番
  group "八番牌型"
  count = count(d in [1, 2, 3]: any(m in runs: any(n in runs: n.suit == m.suit and n.rank == m.rank + d)
                                               and max(n in runs: n.rank - m.rank) >= d))
  doc "x"
}
"""
    path = tmp_path / "memo.pai"
    path.write_text(text + extra, "utf-8")
    stats: dict = {}
    checks, diffs, why = native_diff.run_file(path, 0, 0, seed=5, count_hands=100, stats=stats)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["readings"] >= 50
    assert stats["fallbacks"] == 0


@needs_native
def test_a_shadowed_binder_turns_the_memo_off():
    """Binders share one environment per reading and are not restored, so a comprehension binding a
    name an enclosing one binds would make a skipped evaluation visible: such programs remember
    nothing (and count as before: 4 × 4 runs × 2 runs above rank 1)."""
    shadow = comp("sum", "a", name("runs"), comp("sum", "b", name("runs"),
                  comp("count", "a", name("runs"), cmp(">", attr("a", "rank"), num(1)))))
    p = programs(shadow)
    assert p.remembered() == 0
    assert counts(p) == [32]
