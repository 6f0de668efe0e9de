"""The native block tables' option sets within a hand's wildcards (src/blocks/sets.rs `block_set_to`): a
hand of w wildcards reads only the options of at most w, so below the cap the tables make the sets of
those alone, kept per level, or take them from the whole set where it is known already. Every answer
stays the reference's (runtime/fastwin.py): asked at every level, fewest wildcards first and most first
(a level made from the whole set, the whole set after a level), on 扯胡子 (one block of 20 kinds, four
kings) and bench/rules/joker.pai (four jokers, blocks by suit)."""
from __future__ import annotations

import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

pytestmark = pytest.mark.skipif(not backend.available(), reason="the native core is not built here")

PATHS = {"chehuzi": ROOT / "rules" / "chehuzi.pai", "joker": ROOT / "bench" / "rules" / "joker.pai"}


def _structures(name: str):
    """(native tables, the reference's, decomposer, catalog) of a freshly loaded rule set."""
    nat = load(PATHS[name], backend="native")
    ref = load(PATHS[name], backend="python")
    cat, dec = nat.catalog_for({})
    return dec.structure, ref.catalog_for({})[1].structure, dec, cat, nat


@pytest.mark.parametrize("name,n", [("chehuzi", 25), ("joker", 120)])
def test_every_level_answers_as_the_reference_in_either_order(name, n):
    nat, ref, dec, cat, rules = _structures(name)
    cap = dec.fast.cap
    assert cap == 4
    rnd = random.Random(5)
    answers = set()
    for i in range(n):
        counts, wilds, _, targets = native_diff.structural_case(rules, dec, rnd, cat)
        counts = tuple(counts)
        levels = list(range(cap + 1))
        for w in (levels if i % 2 else levels[::-1]):  # a level before the whole set, or after it
            for m, p in targets:
                got = nat.can_split(counts, w, m, p)
                assert got == ref.can_split(counts, w, m, p), (counts, w, m, p)
                answers.add((w, got))
            held = [k for k in range(dec.n) if counts[k]]
            if held:
                less = list(counts)
                less[held[-1]] -= 1
                got = list(nat.completing_kinds(tuple(less), w, tuple(targets)))
                assert got == list(ref.completing_kinds(tuple(less), w, tuple(targets))), (less, w, targets)
    # not vacuous: hands that split and hands that do not, with none and with some wildcards
    assert {(0, True), (0, False), (2, True), (2, False)} <= answers


def test_a_hand_that_needs_every_wildcard_does_not_split_with_one_fewer():
    """joker.pai's hand whose natural tiles need exactly four jokers (test_native.py): with three it does
    not split, whether the level of three is made before the whole set or taken from it after."""
    codes = "1m 3m 5p 7p 9s 9s 1z 1z 2z 2z"
    for order in ((3, 4, 3), (4, 3, 4)):
        nat, ref, dec, cat, _ = _structures("joker")
        idx = {k.code: k.index for k in cat.kinds if k.code}
        counts = [0] * dec.n
        for code in codes.split():
            counts[idx[code]] += 1
        for w in order:
            assert nat.can_split(tuple(counts), w, 4, 1) is (w == 4) is ref.can_split(tuple(counts), w, 4, 1)
        # one more 1z completes it with three (a 1z triplet), not with two
        assert idx["1z"] in nat.completing_kinds(tuple(counts), 3, ((4, 1),))
        assert nat.completing_kinds(tuple(counts), 2, ((4, 1),)) == []
