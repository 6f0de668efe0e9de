"""The wins' structural test by a search that stops at the first split (src/blocks/probe.rs
`probe_split_any`): the same answer as the option sets' `can_split_any` and as the reference
(runtime/decompose.py), while its kept answers (by block key, wildcards, melds and pairs left) are shared
across hands, levels and targets. On 扯胡子 (one block of 20 kinds, four kings: every hand takes the
search) and bench/rules/joker.pai (blocks by suit: a hand of one suit takes it, the others the sets)."""
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
    """(the native tables themselves, the reference's decomposer, the native one, catalog, native rules)
    of a freshly loaded rule set: the tables' own answers and refusals, no fallback between."""
    nat = load(PATHS[name], backend="native")
    ref = load(PATHS[name], backend="python")
    cat, dec = nat.catalog_for({})
    return dec.structure.tables, ref.catalog_for({})[1], dec, cat, nat


@pytest.mark.parametrize("name,n", [("chehuzi", 40), ("joker", 150)])
def test_the_search_answers_as_the_reference_at_every_level(name, n):
    nat, ref, dec, cat, rules = _structures(name)
    cap = dec.fast.cap
    assert cap == 4
    rnd = random.Random(11)
    answers = set()
    for i in range(n):
        counts, _, _, targets = native_diff.structural_case(rules, dec, rnd, cat)
        counts = tuple(counts)
        levels = list(range(cap + 1))
        for w in (levels if i % 2 else levels[::-1]):  # kept answers of more wildcards first, or of fewer
            want = ref.can_split_any(counts, w, targets)
            for t in (targets, targets[::-1], targets[:1]):
                got = nat.probe_split_any(counts, w, t)
                assert got == ref.can_split_any(counts, w, t), (counts, w, t)
            assert nat.probe_split_any(counts, w, targets) == want == nat.can_split_any(counts, w, targets)
            answers.add((w, want))
            # one tile fewer: a sub-key of what was just searched, asked with the wildcard it lacks
            held = [k for k in range(dec.n) if counts[k]]
            if held and w < cap:
                less = list(counts)
                less[held[0]] -= 1
                less = tuple(less)
                assert nat.probe_split_any(less, w + 1, targets) == ref.can_split_any(less, w + 1, targets)
    # not vacuous: hands that split and hands that do not, with none and with some wildcards
    assert {(0, True), (0, False), (2, True), (2, False)} <= answers


def test_a_kept_answer_is_not_taken_for_fewer_wildcards_or_other_groups():
    """扯胡子's seven groups of three with one tile short of a group: two kings needed where a pair
    would close it, so the answer kept for two wildcards (true) must not answer one (false), nor the
    answer kept for 7 melds answer 6 melds and a pair, in either order."""
    for order in ((2, 1, 2), (1, 2, 1)):
        nat, ref, dec, cat, _ = _structures("chehuzi")
        idx = {k.name: k.index for k in cat.kinds}
        # 一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 and 十 alone: the last group needs two kings
        counts = [0] * dec.n
        for suit in "小大":
            for rank in range(1, 10):
                counts[idx[f"{rank}{suit}"]] += 1
        counts[idx["10小"]] += 1
        for w in order:
            for targets in (((7, 0),), ((6, 1),), ((7, 0), (6, 1))):
                want = ref.can_split_any(tuple(counts), w, targets)
                assert nat.probe_split_any(tuple(counts), w, targets) is want, (w, targets)
        assert ref.can_split_any(tuple(counts), 2, ((7, 0),)) is True
        assert ref.can_split_any(tuple(counts), 1, ((7, 0),)) is False


def test_the_same_refusals_as_the_option_sets():
    nat, _, dec, _, _ = _structures("chehuzi")
    counts = (0,) * dec.n
    for bad in ((5, ((7, 0),)), (1, ((40, 0),))):
        with pytest.raises(Exception) as a:
            nat.can_split_any(counts, *bad)
        with pytest.raises(Exception) as b:
            nat.probe_split_any(counts, *bad)
        assert (type(a.value), str(a.value)) == (type(b.value), str(b.value))
    # no tile at all: the wildcards alone
    for w in range(5):
        assert nat.probe_split_any(counts, w, ((1, 0),)) == nat.can_split_any(counts, w, ((1, 0),))
