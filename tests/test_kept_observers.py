"""The signature search's kept observers bounded together (runtime/hand_signatures.py `KeptObservers`,
`MEMO_HELD`; src/signatures/search.rs `Kept`): what their memos hold (`memo_held`: states, witnesses,
joins) stays within the bound before every question, the least recently used memos started afresh
first; and since the work a question is charged depends on the memos' hits, every backend starts the
same memos afresh at the same question and charges the same work. The bound is lowered through its
documented parameters (`Rules.observers.limit`, `SigSearch.kept_limit`) so that a short seeded
sequence crosses it many times."""
from __future__ import annotations

import importlib.util
import json
import random
import threading
import time

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.backend import native_module
from paili.runtime.hand import Hand
from paili.runtime.hand_signatures import MEMO_HELD
from paili.runtime.limits import HAND_WORK
from paili.runtime.signatures import memo_held
from test_native_signatures import FOUR_WANG, PATHS, _answer, _moved
from test_wild_decompose import context_of
from wild_oracle import random_hand

LIMIT = 500  # far below `MEMO_HELD`: a few dozen hands cross it many times


def _state(kept) -> tuple:
    """(observers, held, memos started afresh) of a rule set's `KeptObservers`."""
    return len(kept), kept.held, kept.cleared


def _within_bound(kept, limit: int) -> bool:
    """What the memos hold is the sum of theirs, and all but the one just asked (which grew after the
    bound was looked at) hold no more than the bound."""
    memos = [memo_held(o.memo) for o in kept.values()]
    return kept.held == sum(memos) and (not memos or sum(memos) - memos[-1] <= limit)


def _hands(rules, name: str, n: int, seed: int):
    """Seeded hands holding 2–4 wildcards of `name`'s rule set, each with its context."""
    rnd = random.Random(seed)
    for _ in range(n):
        ctx, wild = context_of(name, rules, rnd)
        hand = random_hand(rules, rnd, rnd.randint(2, 4), wild, ctx, near=rnd.random() < 0.9)
        if hand is not None:
            yield hand, ctx


def test_the_bound_is_one_named_figure_on_both_sides():
    rules = load(PATHS["chehuzi"], backend="python")
    assert rules.observers.limit == MEMO_HELD and rules.observers.held == 0
    got = _native_search("chehuzi")
    if got is not None:
        search = got[-1]
        assert search.kept_limit == MEMO_HELD and search.kept()["limit"] == MEMO_HELD


@pytest.mark.parametrize("name", ["chehuzi", "longyan"])
def test_the_reference_keeps_its_memos_within_the_bound(name):
    """The Python engine's own search (what `PAILI_BACKEND=python` runs): within the bound before every
    question, memos started afresh many times, and the scores those of a rule set that never starts one
    afresh (the memos change the work, never an answer)."""
    bounded, free = load(PATHS[name], backend="python"), load(PATHS[name], backend="python")
    bounded.observers.limit = LIMIT
    scored = 0
    for hand, ctx in _hands(bounded, name, 40, 15):
        got = _answer(bounded.score, hand, context=ctx)
        h2 = Hand([_moved(t, free) for t in hand.concealed], [], _moved(hand.win, free), hand.self_drawn)
        assert json.loads(got[0]) == json.loads(_answer(free.score, h2, context={k: _moved(v, free)
                                                                                 for k, v in ctx.items()})[0])
        assert _within_bound(bounded.observers, LIMIT)
        scored += 1
    assert scored >= 30 and bounded.observers.cleared >= 5
    assert free.observers.cleared == 0 and free.observers.held > LIMIT


@pytest.mark.skipif(getattr(native_module(), "SigMemo", None) is None, reason="the native core is not built")
@pytest.mark.parametrize("name", ["chehuzi", "longyan"])
def test_the_native_memos_are_started_afresh_as_the_reference(name):
    """The reference's search and the native core's memos under it (runtime/signatures.py `_native`):
    the same memos started afresh at the same hands, the same held after every hand, the same scores and
    work."""
    native, python = load(PATHS[name], backend="native"), load(PATHS[name], backend="python")
    native.observers.limit = python.observers.limit = LIMIT
    for hand, ctx in _hands(native, name, 40, 15):
        ctx_p = {k: _moved(v, python) for k, v in ctx.items()}
        hand_p = Hand([_moved(t, python) for t in hand.concealed], [], _moved(hand.win, python), hand.self_drawn)
        assert _answer(native.score, hand, context=ctx) == _answer(python.score, hand_p, context=ctx_p)
        assert _state(native.observers) == _state(python.observers)
        assert _within_bound(native.observers, LIMIT)
    assert native.observers.cleared >= 5
    assert any("native" in o.memo for o in native.observers.values())  # the native memos did the work


def _native_search(name: str):
    if getattr(native_module(), "SigSearch", None) is None:
        return None
    spec = importlib.util.spec_from_file_location("sig_native_diff", ROOT / "bench" / "sig_native_diff.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench, *bench.setup(bench.VARIANTS[name])


@pytest.mark.skipif(getattr(native_module(), "SigSearch", None) is None, reason="the native core is not built")
@pytest.mark.parametrize("name,limit", [("chehuzi", 20_000), ("joker", 5_000)])
def test_the_native_search_starts_memos_afresh_at_the_same_question(name, limit):
    """The native game's search (its own observers in Rust) against the reference's over a seeded
    sequence of questions crossing the bound many times: after every question the same answer, work
    left, observers kept, held and memos started afresh; none declined."""
    bench, rules, cat, dec, search = _native_search(name)
    ref, tables = search.fallback, dec.structure.tables
    search.kept_limit = rules.observers.limit = limit
    for q in bench.questions(rules, cat, 300, 7):
        a, b = search(tables, *q, HAND_WORK), ref(*q, HAND_WORK)
        assert json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False), q
        k = search.kept()
        assert (k["observers"], k["held"], k["cleared"]) == _state(rules.observers)
        assert _within_bound(rules.observers, limit)
    assert rules.observers.cleared >= 8
    assert search.stats()[:2] == (300, 0)


@pytest.mark.skipif(getattr(native_module(), "SigMemo", None) is None, reason="the native core is not built")
def test_a_memo_read_while_another_thread_searches_it_waits_for_the_search(monkeypatch):
    """`SigMemo.held` (what the bound adds up) asked while another thread's search holds the native memo
    waits for that search to end and answers what the memo holds then (it answered 0, counting the bound
    short); asked from inside the search itself (a callback of its own), it is an error, not a wait that
    never ends. The search is held inside its first part's callback until the reader is seen waiting."""
    from paili.runtime.observe import Observer

    rules = load(PATHS["chehuzi"], backend="native")
    inside, go, own = threading.Event(), threading.Event(), []
    real = Observer.contribution

    def contribution(self, *args):
        if not inside.is_set():
            try:
                own.append(self.memo["native"].held)
            except RuntimeError as exc:
                own.append(str(exc))
            inside.set()
            go.wait()
        return real(self, *args)

    monkeypatch.setattr(Observer, "contribution", contribution)
    searched = threading.Thread(target=lambda: rules.waits(FOUR_WANG, self_drawn=True), daemon=True)
    searched.start()
    read = []
    try:
        assert inside.wait(120)
        memo = next(o.memo["native"] for o in rules.observers.values() if "native" in o.memo)
        reader = threading.Thread(target=lambda: read.append(memo.held), daemon=True)
        reader.start()
        while reader.is_alive() and memo.waiting == 0:
            time.sleep(0.001)
        waited = memo.waiting
    finally:
        go.set()  # the search goes on whatever happened
    searched.join(120)
    reader.join(120)
    assert not searched.is_alive() and not reader.is_alive()
    # what it held once that search had ended (the question goes on to other searches of the memo)
    assert waited == 1 and len(read) == 1 and 0 < read[0] <= memo.held and memo.waiting == 0
    assert own == ["the signature memo is read from inside its own search"]
