"""The prefilter's tests asked once a reading (runtime/native/src/program/prefilter.rs `PfTable`): each
pattern's tests (field, op, k) on the reading's packed 6-bit counts turned, when they are given, into a
table by field and value, so that a reading's ruled-out patterns are found at once before the patterns
are counted. A pattern is ruled out exactly when one of its tests fails (a field past the packed bytes
is 0), counts 0 unevaluated, and reads 0 where another pattern reads it.
"""
from __future__ import annotations

from test_native_memo import GROUPS, needs_native, num, programs


def pat(name):
    return {"_": "Name", "name": name, "ref": f"pattern:{name}"}


def counts_with(p, packed):
    settings = tuple(None for _ in p.settings())
    return p.raw_counts(settings, False, (), None, None, GROUPS, None, None, 16, 4, "标准", packed)


def pack(*fields):
    """Fields of 6 bits, little-endian, as runtime/prefilter.py packs a reading's counts."""
    x = 0
    for i, v in enumerate(fields):
        x |= v << (6 * i)
    n = (6 * len(fields) + 7) // 8
    return x.to_bytes(n, "little")


@needs_native
def test_patterns_ruled_out_by_their_tests_count_0():
    """Fields 2, 1, 0: `f0 == 2` holds; `f1 > 3` fails; `f0 == 2 and f2 >= 0` holds; a field past
    the bytes is 0 (`f40 == 0` holds, `f40 != 0` fails); no tests holds; a pattern reading the ruled-out
    `p1` reads 0. Without packed counts nothing is ruled out."""
    ones = [num(1)] * 6
    p = programs(*ones, {"_": "Binary", "op": "+", "left": pat("p1"), "right": num(5)})
    tests = [[(0, 0, 2)], [(1, 4, 3)], [(0, 0, 2), (2, 5, 0)], [(40, 0, 0)], [(40, 1, 0)], [], []]
    p.set_prefilter(tests)
    assert counts_with(p, pack(2, 1, 0)) == [1, 0, 1, 1, 0, 1, 5]
    assert counts_with(p, None) == [1, 1, 1, 1, 1, 1, 6]


@needs_native
def test_every_comparison_at_every_value():
    """One pattern per comparison and constant, the field at every 6-bit value: counted exactly where
    the comparison holds."""
    ops = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}
    cases = [(op, k) for op in ops for k in (0, 1, 31, 62, 63, 64)]
    p = programs(*[num(1)] * len(cases))
    p.set_prefilter([[(1, op, k)] for op, k in cases])
    py = {0: lambda v, k: v == k, 1: lambda v, k: v != k, 2: lambda v, k: v < k,
          3: lambda v, k: v <= k, 4: lambda v, k: v > k, 5: lambda v, k: v >= k}
    for v in range(64):
        want = [int(py[op](v, k)) for op, k in cases]
        assert counts_with(p, pack(7, v, 9)) == want, v
