"""An instant form's condition led by size tests (`len(hand) == 14 and len(distinct(hand)) == 14 and …`):
the native readings and wait trials answer a reading failing one of those tests without evaluating the
condition (runtime/native/src/program/sizes.rs) — the waits, the work they leave and the scores must
stay the reference's, with the size on either side of the comparison, of the hand or of the tiles
(laid-down melds included), where the tests pass and where they fail."""
from __future__ import annotations

import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)

NATURAL = ROOT / "tests" / "rules" / "natural_waits.pai"
FORM = "win 散 { instant = len(distinct(hand)) == len(hand) and count(t in hand: t.honor) >= 3; concealed true }"

# the instant form of natural_waits.pai rewritten: its condition led by size tests of each kind
CONDITIONS = {
    "hand": "instant = len(hand) == 14 and len(distinct(hand)) == 14 and count(t in hand: t.honor) >= 3; "
            "concealed true",
    # the number on the left, the tiles' sizes (melds laid down count), an order comparison
    "tiles": "instant = 13 < len(distinct(tiles)) and 8 <= len(tiles) and count(t in hand: t.honor) >= 2",
    "mixed": "instant = len(distinct(hand)) != 9 and len(distinct(tiles)) > 11 and len(tiles) >= 14 "
             "and count(t in hand: t.honor) >= 3",
}

# (hand without its winning tile, melds, winning tile): fourteen kinds, thirteen, and melds beside them
HANDS = [
    ("1m 3m 5m 7m 9m 2s 4s 6s 8s 东 南 中 1s", [], "3s"),
    ("1m 3m 5m 7m 9m 2s 4s 6s 8s 东 南 中 1s", [], "1m"),
    ("1m 3m 5m 7m 9m 2s 4s 6s 东 南 中", ["碰:8s8s8s"], "1s"),
    ("1m 2m 4m 5m 7m 2s 3s 东 南 中", ["碰:9m9m9m"], "9s"),
    ("1m 1m 3m 5m 7m 9m 2s 4s 6s 8s 东 南 中", [], "1s"),
]


def rules_with(tmp_path, name: str):
    text = NATURAL.read_text(encoding="utf-8")
    assert FORM in text
    path = tmp_path / f"sizes_{name}.pai"
    path.write_text(text.replace(FORM, "win 散 { " + CONDITIONS[name] + " }"), encoding="utf-8")
    return path


@needs_native
@pytest.mark.parametrize("name", sorted(CONDITIONS))
def test_an_instant_form_led_by_size_tests_waits_and_scores_as_the_reference(tmp_path, name):
    path = rules_with(tmp_path, name)
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    reached = 0
    for hand, melds, win in HANDS:
        for self_drawn in (False, True):
            a = native_diff.wait_answers(nat, hand, melds, win, {}, self_drawn)
            assert a == native_diff.wait_answers(ref, hand, melds, win, {}, self_drawn), (hand, melds, win)
            reached += a.get("score", {}).get("trace", {}).get("form") == "散"
    assert reached  # some hand wins by the instant form: its size tests pass there
    diffs: list[str] = []
    stats = {"waited": 0}
    native_diff.compare_waits(path, nat, ref, random.Random(f"sizes:{name}"), 80, diffs, stats)
    assert diffs == []
    st = nat.stats()
    assert st["waits"] == "native" and st["native_wait_fallbacks"] == 0
    assert st["native_failures"] == 0 and st["native_score_fallbacks"] == 0


@needs_native
@pytest.mark.parametrize("hand, melds, win", [
    ("1m 9m 1s 9s 1p 9p 东 南 西 北 白 发 中", [], "中"),  # every orphan kind and a pair: the form reads it
    ("1m 9m 1s 9s 1p 9p 东 南 西 北 白 发 发", [], "中"),  # the pair held already
    ("1m 9m 1s 9s 1p 9p 东 南 西 北 白 发 5m", [], "中"),  # one kind outside the form's
    ("1m 9m 1s 9s 1p 9p 东 南 西 北", ["碰:中中中"], "中"),  # a meld laid down: never the form
    ("1m 4m 7m 2s 5s 8s 3p 6p 9p 东 南 西 北", [], "中"),  # fourteen kinds: the instant form's size tests pass
    ("1m 4m 7m 2s 5s 8s 3p 6p 9p 东 南 西 北", [], "北"),  # thirteen kinds: they fail
])
def test_the_listed_forms_told_from_the_counts_score_as_the_reference(hand, melds, win):
    # src/hand/listed.rs: an orphans or instant form's reading ruled out from the tiles' counts before its
    # lists are made — the same scores, readings and waits as the reference
    nat = load(ROOT / "rules" / "guobiao.pai", backend="native")
    ref = load(ROOT / "rules" / "guobiao.pai", backend="python")
    ctx = {"起和番": 0}
    for self_drawn in (False, True):
        a = native_diff.wait_answers(nat, hand, melds, win, ctx, self_drawn)
        assert a == native_diff.wait_answers(ref, hand, melds, win, ctx, self_drawn), (hand, melds, win)
    assert nat.stats()["native_score_fallbacks"] == 0
