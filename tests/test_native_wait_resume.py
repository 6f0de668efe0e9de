"""Scoring goes on where a pattern first reads the waits, outside the whole-hand path too: the native
scoring of a hand's readings (runtime/nativescore.py `NativeScorer.score`, runtime/native/src/score.rs
`Scorer.score_hand`) asks the native wait trials, else the reference through a callback, once, and
continues — one native call a hand, the reference's results and work. And a batch line the native
driver hands back is counted once in `Rules.stats()`, where it is finally scored."""
from __future__ import annotations

import io
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend, nativescore
from paili.runtime import batch as batch_mod
from paili.runtime.batch import write_lines
from paili.runtime.hand import HandError
from paili.runtime.rules import Rules

sys.path.insert(0, str(ROOT / "bench"))
import mcr_crosscheck  # noqa: E402
import native_diff  # noqa: E402
from batch_native_diff import sample_lines  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)

NATURAL = ROOT / "tests" / "rules" / "natural_waits.pai"


class CountingScorer:
    """A native `Scorer` whose `score_hand` calls are counted (and how many passed a callback)."""

    def __init__(self, scorer, calls: dict):
        self._scorer = scorer
        self._calls = calls

    def __getattr__(self, name):
        return getattr(self._scorer, name)

    def score_hand(self, *args):
        self._calls["score_hand"] += 1
        return self._scorer.score_hand(*args)


@pytest.fixture
def readings_path(monkeypatch):
    """Hands scored by the Python readings and `NativeScorer.score` (the whole-hand path switched off),
    each `score_hand` call and each waits question put to the callback counted."""
    calls = {"score_hand": 0, "score": 0, "asked": 0}
    monkeypatch.setattr(Rules, "native_hands_for", lambda self, cat, dec: None)
    init = nativescore.NativeScorer.__init__

    def counted_init(self, scorer, counts):
        init(self, CountingScorer(scorer, calls), counts)
    monkeypatch.setattr(nativescore.NativeScorer, "__init__", counted_init)
    score = nativescore.NativeScorer.score

    def counted_score(self, sc, readings):
        calls["score"] += 1
        return score(self, sc, readings)
    monkeypatch.setattr(nativescore.NativeScorer, "score", counted_score)
    ask = nativescore.AskWaits.__call__

    def counted_ask(self, *args):
        calls["asked"] += 1
        return ask(self, *args)
    monkeypatch.setattr(nativescore.AskWaits, "__call__", counted_ask)
    return calls


def outcome(rules, args, work=None):
    hand, melds, win, ctx, self_drawn = args
    try:
        kw = {} if work is None else {"work": [work]}
        return rules.score(hand, melds, win, self_drawn, ctx, **kw).to_json()
    except (HandError, ValueError) as exc:
        return str(exc)


@needs_native
@pytest.mark.parametrize("path", [ROOT / "rules" / "baicheng.pai", ROOT / "rules" / "guobiao.pai", NATURAL],
                         ids=lambda p: p.name)
def test_the_scoring_of_readings_goes_on_where_the_waits_are_read(path, readings_path):
    # 白城 (wildcards: the native trials do not cover it) asks the reference's waits through the callback;
    # 国标 and natural_waits.pai find them by the native trials; either way one call a hand
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    rnd = random.Random(f"resume:{path.name}")
    cases = [c for c in (native_diff.hands_case(ref, rnd) for _ in range(250)) if c is not None]
    got = [outcome(nat, c) for c in cases]
    assert got == [outcome(ref, c) for c in cases]
    calls = readings_path
    assert calls["score"] > 100 and calls["score_hand"] == calls["score"]  # never called again from the start
    st = nat.stats()
    if path.name == "baicheng.pai":
        assert calls["asked"] > 0 and st["waits"] == "python"
    else:
        assert calls["asked"] == 0 and st["native_waits"] > 0
    assert st["native_score_fallbacks"] < calls["score"] // 2


@needs_native
@pytest.mark.parametrize("path, hand, win, ctx", [
    (ROOT / "rules" / "guobiao.pai", "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", "5m", {"起和番": 0}),
    (NATURAL, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 5s 5s", "5s", {}),
], ids=["guobiao", "natural_waits"])
def test_the_work_the_waits_take_is_the_references_outside_the_whole_hand_path(path, hand, win, ctx, readings_path):
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    args = (hand, [], win, ctx, False)
    outcomes = [outcome(nat, args, w) for w in range(0, 1200, 20)]
    assert outcomes == [outcome(ref, args, w) for w in range(0, 1200, 20)]
    assert isinstance(outcomes[0], str) and isinstance(outcomes[-1], dict)  # refused below the limit, then scored
    assert readings_path["score_hand"] == readings_path["score"] > 0


def batch_stats(path, data: bytes, driver: bool, monkeypatch) -> tuple[str, dict]:
    rules = load(path, backend="native")
    if not driver:  # no context for the native driver: every line goes to the line scorer, in process
        monkeypatch.setattr(batch_mod.NativeContexts, "__call__", lambda self, ctx: None)
    out = io.StringIO()
    write_lines(rules, io.BytesIO(data), out)
    monkeypatch.undo()
    st = rules.stats()
    keys = ("native_hands", "native_hand_fallbacks", "native_hand_reasons", "native_waits", "native_wait_fallbacks")
    return out.getvalue(), {k: st[k] for k in keys}


@needs_native
@pytest.mark.parametrize("path", [ROOT / "rules" / "baicheng.pai", ROOT / "bench" / "rules" / "exprs.pai",
                                  ROOT / "rules" / "guobiao.pai"], ids=lambda p: p.name)
def test_a_batch_line_handed_back_counts_once(path, monkeypatch):
    # the same lines with the native driver (a line it hands back is scored again in process) and without
    # it (each line scored in process once): the same output and the same counts
    data = sample_lines(path, 80, seed=21)
    text, with_driver = batch_stats(path, data, True, monkeypatch)
    want_text, in_process = batch_stats(path, data, False, monkeypatch)
    assert text == want_text
    assert with_driver == in_process
    assert with_driver["native_hands"] <= data.count(b"\n")


@needs_native
def test_guobiao_batch_hands_are_counted_once_each():
    rnd = random.Random(5)
    lines = []
    while len(lines) < 60:
        h = mcr_crosscheck.random_hand(rnd)
        if h is not None:
            hand, melds, win, self_drawn, ctx = mcr_crosscheck.paili_args(h)
            lines.append(f'{{"hand": "{hand}", "melds": {list(melds)!r}, "win": "{win}", "self_drawn": '
                         f'{str(self_drawn).lower()}, "set": {{"起和番": 0}}}}'.replace("'", '"'))
    rules = load(ROOT / "rules" / "guobiao.pai", backend="native")
    failed, counts = write_lines(rules, io.BytesIO("\n".join(lines).encode() + b"\n"), io.StringIO())
    assert failed == 0 and counts == {"native": 60, "reference": 0}
    st = rules.stats()
    assert st["native_hands"] == 60 and st["native_hand_fallbacks"] == 0
