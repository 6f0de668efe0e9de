"""`Rules.score` of a hand given as text, read and scored in one native call (runtime/nativelane.py,
runtime/native/src/batch/lane.rs): the same answers, the same errors and the same `Rules.stats()` as the
usual path (the texts read by the Python side, then the native call) for every hand, whether the lane
takes it, hands it back after scoring, asks the Python side for its waits, or leaves it to the usual
path."""
from __future__ import annotations

import json
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend, nativelane
from paili.runtime import rules as rules_module
from paili.runtime.hand import HandError, build_hand
from paili.runtime.hand_score import Scoring
from paili.runtime.limits import MAX_TILE_TEXT

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

pytestmark = pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                                "without a Rust toolchain); the lane is the native core's")

FILES = [ROOT / "rules" / "guobiao.pai", ROOT / "rules" / "baijindao.pai", ROOT / "rules" / "baicheng.pai",
         ROOT / "rules" / "longyan.pai", ROOT / "bench" / "rules" / "exprs.pai", ROOT / "bench" / "rules" / "joker.pai"]


def answer(r, *args) -> str:
    try:
        res = r.score(*args)
        return json.dumps([res.to_json(), [f.name for f in res.fans], res.readings, res.rejected], ensure_ascii=False)
    except (ValueError, TypeError) as exc:
        return f"{type(exc).__name__}: {exc}"


def native_stats(r) -> dict:
    st = r.stats()
    return {k: st[k] for k in sorted(st) if k.startswith("native")}


class Taken:
    """`lane_score` counting the hands it answers."""

    def __init__(self):
        self.taken = 0

    def __call__(self, *args):
        try:
            got = nativelane.lane_score(*args)
        except HandError:  # a hand the native scoring refuses (a size no form takes): taken
            self.taken += 1
            raise
        self.taken += got is not None
        return got


def run(path, cases, monkeypatch, lane: bool) -> tuple:
    with monkeypatch.context() as m:
        taken = Taken()
        m.setattr(rules_module, "lane_score", taken if lane else (lambda *a: None))
        r = load(path, backend="native")
        got = []
        for hand, melds, win, context, self_drawn in cases:
            got.append(answer(r, hand, melds, win, self_drawn, context))
            got.append(answer(r, hand, melds, win, self_drawn, context))  # again: the lane and caches kept
        return got, native_stats(r), taken.taken


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_lane_answers_and_counts_as_the_usual_path(path, monkeypatch):
    """Seeded hands of bench/native_diff.py (winning, near-winning, with wildcards, melds, room options
    and context values), each scored twice: the same JSON, fan names, readings and refusals with the
    lane and without it, and the same native counts (hands, hands handed back and why, waits)."""
    ref = load(path, backend="python")
    cases = list(native_diff.drawn(native_diff.hands_case, ref, random.Random(5), 50))
    with_lane, stats_lane, taken = run(path, cases, monkeypatch, True)
    without, stats_usual, none = run(path, cases, monkeypatch, False)
    assert none == 0
    assert taken > 0  # every file has hands the lane takes
    assert with_lane == without
    assert stats_lane == stats_usual


def test_hands_handed_back_and_waits_asked_of_python_are_among_them(monkeypatch):
    """The two lane paths that go back to the Python side: exprs.pai has hands whose native scoring
    hands them back (a reading the programs stop on), baicheng.pai waits the native trials decline
    (wildcards in the rule set): both met in the seeded hands, both answered as the usual path."""
    for path, key in ((ROOT / "bench" / "rules" / "exprs.pai", "native_hand_fallbacks"),
                      (ROOT / "rules" / "baicheng.pai", "native_wait_fallbacks")):
        ref = load(path, backend="python")
        cases = list(native_diff.drawn(native_diff.hands_case, ref, random.Random(5), 50))
        got, stats, taken = run(path, cases, monkeypatch, True)
        assert taken > 0 and stats[key] > 0
        assert (got, stats) == run(path, cases, monkeypatch, False)[:2]


GUOBIAO = ROOT / "rules" / "guobiao.pai"
NOT_TAKEN = [
    (None, None, "9m", False),  # no hand text
    (123, None, "9m", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东", "碰:东东东", "东", False),  # melds as one text, not a list
    ("1m2m3m 4m5m6m 7m8m9m 东", ("碰:白白白",), "东", False),  # a tuple: taken
    ("1m2m3m 4m5m6m 7m8m9m 东东", "GENERATOR", "东", False),  # melds of no length
    ("1m2m3m 4m5m6m 7m8m9m 东东", [7], "东", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东", ["碰东东东"], "东", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东", ["龙:东东东"], "东", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东", ["碰:东南西"], "东", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东", ["碰:东东东"] * 9, "东", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东东", None, 5, False),
    ("1m2m3m 4m5m6m 7m8m9m 东东东", None, "", False),  # no winning tile: taken
    ("1m2m3m 4m5m6m 7m8m9m 东东东", None, "春", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东东", None, "9m9m", False),
    ("1m2m3m 4m5m6m 7m8m9m 东东东 春", None, "9m", True),  # a flower set aside: taken
    ("1m2m3m 4m5m6m 7m8m9m 东东东", None, "9m", 1),  # self-drawn not a bool
    ("1m2m3m 4m5m6m 7m8m9m \udc00东东东", None, "9m", False),  # a lone surrogate
    ("9m9m9m9m 4m5m6m 7m8m 东东东", None, "9m", False),  # five of 9m
    ("1m" * 300, None, "9m", False),
    ("1m2x", None, "9m", False),
]


@pytest.mark.parametrize("args", NOT_TAKEN, ids=range(len(NOT_TAKEN)))
def test_arguments_the_lane_leaves_get_the_usual_answer(args, monkeypatch):
    """Text with a mistake, a meld of no kind or shape, too many melds or copies, arguments of other
    types, a lone surrogate: the lane leaves each to the usual path (a tuple of melds and a flower in the
    hand it takes), and the answer is the usual path's: the same sentence, or the same score."""
    hand, melds, win, self_drawn = args

    def given():  # a generator is read once: one each
        return (x for x in ["碰:东东东"]) if melds == "GENERATOR" else melds
    taken = Taken()
    monkeypatch.setattr(rules_module, "lane_score", taken)
    got = answer(load(GUOBIAO, backend="native"), hand, given(), win, self_drawn)
    assert taken.taken == (isinstance(melds, tuple) or "春" in str(hand) or win == "")
    monkeypatch.setattr(rules_module, "lane_score", lambda *a: None)
    assert got == answer(load(GUOBIAO, backend="native"), hand, given(), win, self_drawn)


@pytest.mark.parametrize("extra", [0, 1])
def test_a_text_at_the_length_limit_is_read_and_one_past_it_is_left(extra, monkeypatch):
    """A hand text of exactly `MAX_TILE_TEXT` characters (a hand padded with spaces) is read by the lane,
    one a character longer is left to the usual path (the native notation counts the characters as it
    reads them); the answer is the usual path's either way (the score, or the sentence naming the length)."""
    hand = "1m2m3m 4m5m6m 7m8m9m 东东"
    text = hand + " " * (MAX_TILE_TEXT - len(hand) + extra)
    taken = Taken()
    monkeypatch.setattr(rules_module, "lane_score", taken)
    got = answer(load(GUOBIAO, backend="native"), text, None, "东", False)
    assert taken.taken == (extra == 0)
    monkeypatch.setattr(rules_module, "lane_score", lambda *a: None)
    assert got == answer(load(GUOBIAO, backend="native"), text, None, "东", False)
    assert ("characters long" in got) == (extra == 1)


def test_a_work_list_or_a_hand_object_takes_the_usual_path(monkeypatch):
    """A caller's work list (it is charged) or a `Hand` already built: never the lane, the same answers."""
    taken = Taken()
    monkeypatch.setattr(rules_module, "lane_score", taken)
    r, ref = load(GUOBIAO, backend="native"), load(GUOBIAO, backend="python")
    args = ("1m2m3m 4m5m6m 7m8m9m 东东东 南", None, "南", False)
    w1, w2 = [10_000_000], [10_000_000]
    assert answer(r, *args, None) == answer(ref, *args, None)
    assert taken.taken == 1
    a = r.score(*args, work=w1).to_json()
    assert a == ref.score(*args, work=w2).to_json() and w1 == w2 and w1[0] < 10_000_000
    cat, dec, _ = r.env_for(None)
    h = build_hand(r, args[0], None, args[2], False, cat)
    assert r.score(h).to_json() == a
    assert taken.taken == 1


def test_the_lanes_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(nativelane, "LANES_KEPT", 4)
    r = load(GUOBIAO, backend="native")
    winds = ["东", "南", "西", "北"]
    contexts = [{"门风": winds[i % 4], "圈风": winds[i // 4 % 4]} for i in range(12)]
    for c in contexts:
        r.score("1m2m3m 4m5m6m 7m8m9m 东东东 南", None, "南", False, c)
    lanes = r.native_hands_for(*r.env_for(contexts[0])[:2]).lanes
    assert len(lanes.kept) == 12 % 4 or len(lanes.kept) == 4  # started over past 4, never above it
    assert 0 < len(lanes.kept) <= 4


def test_a_rule_set_scored_through_the_lane_is_freed():
    """The lane holds the rule set's native objects and the meld check (which holds the `NativeHands`
    that holds the lane): the garbage collector sees through it (`__traverse__`), so a rule set no one
    holds any more is freed."""
    import gc
    import weakref

    r = load(GUOBIAO, backend="native")
    r.score("1m2m3m 4m5m6m 7m8m9m 东东东 南", None, "南", False)
    assert r.native_hands_for(*r.env_for(None)[:2]).lanes.kept
    gone = weakref.ref(r)
    del r
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("path", FILES[:2], ids=lambda p: p.stem)
def test_a_result_read_later_is_the_result_read_at_once(path, monkeypatch):
    """A hand the lane scores makes its Python `Hand` and `Scoring` only when its result is first read
    beyond the native call's answer: read after other hands were scored (its score first, then the
    rest), each result gives the JSON, fans, units, exclusions and quantities of the same hand read at
    once, and of the Python backend; the native counts are those of the hands read at once."""
    ref = load(path, backend="python")
    cases = list(native_diff.drawn(native_diff.hands_case, ref, random.Random(9), 60))

    def whole(res) -> str:
        ev = res.evaluation
        extra = [ev.units, ev.excluded, ev.quantities, ev.reading.describe()] if ev is not None else []
        return json.dumps([res.to_json(), [f.name for f in res.fans], str(res.score), extra], ensure_ascii=False,
                          default=str)

    at_once, later = load(path, backend="native"), load(path, backend="native")
    first = []
    for hand, melds, win, context, self_drawn in cases:
        try:
            first.append(whole(at_once.score(hand, melds, win, self_drawn, context)))
        except ValueError as exc:
            first.append(str(exc))
    made = [0]
    init = Scoring.__init__

    def counted(self, *args, **kw):
        made[0] += 1
        init(self, *args, **kw)

    monkeypatch.setattr(Scoring, "__init__", counted)
    held = []
    for hand, melds, win, context, self_drawn in cases:
        try:
            res = later.score(hand, melds, win, self_drawn, context)
            res.score  # noqa: B018 - read first: the Scoring is not made for it
            held.append(res)
        except ValueError as exc:
            held.append(str(exc))
    unread = made[0]
    assert unread < len(cases) // 2  # most hands were scored without a Python `Scoring`
    assert [x if isinstance(x, str) else whole(x) for x in held] == first
    assert made[0] > unread + len(cases) // 2  # reading the results made them
    assert native_stats(later) == native_stats(at_once)
    for (hand, melds, win, context, self_drawn), want in zip(cases, first):
        try:
            assert whole(ref.score(hand, melds, win, self_drawn, context)) == want
        except ValueError as exc:
            assert str(exc) == want
