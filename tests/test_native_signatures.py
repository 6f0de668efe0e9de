"""The signature search in the native core (runtime/native/src/signatures/) against its Python
reference (runtime/signatures.py): on seeded random hands holding wildcards of every bundled wildcard
variant and bench/rules/joker.pai, both backends give the same `to_json()` of the score and of every
wait, and use the same work (`work=`: the budget both count down), so the work limit refuses the same
hands. The longer run is `python bench/native_diff.py` (BENCHMARKS.md)."""
import json
import random

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import hand_readings as readings_module
from paili.runtime.backend import native_module
from paili.runtime.hand import Hand, HandError
from paili.runtime.limits import HAND_WORK
from paili.runtime.signatures import memo_size
from test_wild_decompose import context_of
from wild_oracle import random_hand

pytestmark = pytest.mark.skipif(getattr(native_module(), "SigMemo", None) is None,
                                reason="the native core is not built, or built before its signature search")

PATHS = {"chehuzi": ROOT / "rules" / "chehuzi.pai", "longyan": ROOT / "rules" / "longyan.pai",
         "baicheng": ROOT / "rules" / "baicheng.pai", "joker": ROOT / "bench" / "rules" / "joker.pai"}
# (variant, hands scored, of them also asked for their waits, most wildcards)
SAMPLES = [("chehuzi", 30, 2, 4), ("longyan", 80, 8, 4), ("baicheng", 80, 8, 1), ("joker", 80, 8, 4)]


def _moved(value, rules):
    """A context value or tile of one rule set as the same-named one of the other."""
    return rules.catalog.by_name[value.name] if hasattr(value, "category") else value


def _answer(call, *args, **kwargs) -> tuple[str, int]:
    """The JSON of `call(*args, **kwargs)` (or its one-sentence error) and the work it used."""
    work = [HAND_WORK]
    try:
        got = call(*args, work=work, **kwargs)
    except HandError as exc:
        return "error: " + str(exc), HAND_WORK - work[0]
    if isinstance(got, list):
        text = json.dumps([(k.name, res.to_json()) for k, res in got], ensure_ascii=False, sort_keys=True)
    else:
        text = json.dumps(got.to_json(), ensure_ascii=False, sort_keys=True)
    return text, HAND_WORK - work[0]


def _used_native(rules) -> bool:
    return any("native" in getattr(obs, "memo", {}) for obs in rules.observers.values())


@pytest.mark.parametrize("name,n,n_waits,most", SAMPLES)
def test_both_backends_score_and_list_waits_alike(name, n, n_waits, most, monkeypatch):
    monkeypatch.setattr(readings_module, "SIGNATURE_FROM", 1)  # hands with one wildcard by signature too
    native = load(PATHS[name], backend="native")
    python = load(PATHS[name], backend="python")
    rnd = random.Random(15)
    compared = waits_compared = wins = 0
    for i in range(n):
        ctx, wild = context_of(name, native, rnd)
        w = rnd.randint(2, most) if most > 1 else 1
        hand = random_hand(native, rnd, w, wild, ctx, near=rnd.random() < 0.9, wild_wins=name == "baicheng",
                           self_drawn=True if name == "baicheng" else None)
        if hand is None:
            continue
        ctx_p = {k: _moved(v, python) for k, v in ctx.items()}
        hand_p = Hand([_moved(t, python) for t in hand.concealed], [], _moved(hand.win, python), hand.self_drawn)
        got_n = _answer(native.score, hand, context=ctx)
        got_p = _answer(python.score, hand_p, context=ctx_p)
        assert got_n == got_p, (name, i, [t.name for t in hand.concealed], hand.win.name, ctx)
        compared += 1
        wins += '"win": true' in got_n[0]
        if i < n_waits * 3 and waits_compared < n_waits:
            before_n = Hand(hand.concealed, [], None, True)
            before_p = Hand(hand_p.concealed, [], None, True)
            got_n = _answer(native.waits, before_n, context=ctx, self_drawn=True)
            got_p = _answer(python.waits, before_p, context=ctx_p, self_drawn=True)
            assert got_n == got_p, (name, i, "waits", [t.name for t in hand.concealed], ctx)
            waits_compared += 1
    # not vacuous: most hands compared, some of them winning, and the native search did the work
    assert compared >= n * 0.8 and wins >= n // 10 and waits_compared == n_waits, (compared, wins, waits_compared)
    assert _used_native(native) and not _used_native(python)


FOUR_WANG = "贰贰六六六七八九七七柒十拾拾二二王王王王"  # issue 12's hand: 4 王, 20 waits


def test_the_four_wang_waits_and_the_work_limit_are_the_same_on_both_backends():
    """The same waits, scores, traces and work on both backends; with the work just short of what
    they use, both refuse (each on a fresh rule set: nothing remembered)."""
    both = [load(PATHS["chehuzi"], backend=b) for b in ("native", "python")]
    got = [_answer(rules.waits, FOUR_WANG, self_drawn=True) for rules in both]
    assert got[0] == got[1]
    assert len(json.loads(got[0][0])) == 20 and got[0][1] > 100_000
    # each observer's memo holds what the reference's would, so both start afresh after the same hands
    sizes = [{key: memo_size(obs.memo) for key, obs in rules.observers.items()} for rules in both]
    assert sizes[0] == sizes[1] and sum(sizes[0].values()) > 1_000
    for backend in ("native", "python"):
        with pytest.raises(HandError) as exc:
            load(PATHS["chehuzi"], backend=backend).waits(FOUR_WANG, self_drawn=True, work=[got[0][1] - 1])
        assert "paili examines for one hand" in str(exc.value)


def test_a_budget_past_64_bits_is_answered_by_the_reference_alike():
    """The native search takes its work budget as a 64-bit number; a larger one (the `work=` argument
    is the caller's) is left to the reference, which answers and counts the same."""
    hand = "王王王 1m 2m 3m 4p 5p 6p 7s 8s 9s 东"
    got = []
    for backend in ("native", "python"):
        rules = load(PATHS["joker"], backend=backend)
        work = [10 ** 30]
        waits = rules.waits(hand, self_drawn=True, work=work)
        got.append((json.dumps([(k.name, r.to_json()) for k, r in waits], ensure_ascii=False), 10 ** 30 - work[0]))
    assert got[0] == got[1] and got[0][1] > 0
    assert len(json.loads(got[0][0])) == 35  # three 王 and a 东: every kind, 王 included


def test_the_observers_most_recently_asked_are_kept_and_the_oldest_goes(monkeypatch):
    """A rule set keeps at most `OBSERVERS_KEPT` observers; a new one drops the least recently used, so
    an observer asked again (the same context) is the same object with its tables, on both backends."""
    from paili.runtime import hand_signatures

    monkeypatch.setattr(hand_signatures, "OBSERVERS_KEPT", 2)
    for backend in ("native", "python"):
        rules = load(PATHS["chehuzi"], backend=backend)
        by = rules.catalog.by_name
        seen = {}
        for name in ("1小", "2小", "1小", "3小"):  # contexts A, B, A again, then C: B is the oldest then
            before = dict(rules.observers)
            rules.score(FOUR_WANG, self_drawn=True, context={"醒牌": by[name]})
            new = {k: o for k, o in rules.observers.items() if k not in before}
            seen.setdefault(name, []).append((new, dict(rules.observers)))
        assert len(rules.observers) <= 2
        a_first, a_again = seen["1小"][0][0], seen["1小"][1][0]
        assert a_first and not a_again  # asked again: nothing new was made
        kept = set(rules.observers.values())
        assert all(o in kept for o in a_first.values())  # A kept, used more recently than B
        assert not any(o in kept for o in seen["2小"][0][0].values())  # B dropped for C
