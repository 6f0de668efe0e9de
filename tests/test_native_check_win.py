"""`Rules.check_win` without a context as one native call (runtime/native/src/wincheck.rs): the same
answer as the Python check it replaces (`check_slow`, which asks the native tables per call) and as
the Python backend, on ordinary and unusual input — more wildcards than the tables hold, counts past
them, melds outside every form, lists and bytes."""
from __future__ import annotations

import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import hand_speed  # noqa: E402
import native_speed  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - the same error, or the same answer, is what is compared
        return type(exc).__name__, str(exc)


@pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
@pytest.mark.parametrize("name", ["bench/rules/joker.pai", "rules/baijindao.pai"])
def test_the_native_check_answers_as_the_python_check(name):
    nat = load(ROOT / name, backend="native")
    ref = load(ROOT / name, backend="python")
    n = len(nat.catalog.kinds)
    nat.check_win((0,) * n)
    assert type(nat.by_forms.check_fast.__self__).__name__ == "WinCheck"
    slow = nat.by_forms.check_slow
    rnd = random.Random(3)
    wins = 0
    for i in range(3000):
        c = [0] * n
        if i % 2:  # a winning hand, some of its tiles wildcards
            h = hand_speed.random_winning_hand(rnd, ("m", "p", "s") if "joker" in name else ("m",))
            k = rnd.choice([0, 0, 1, 4])
            c = list(native_speed.counts_of(nat, h[k:]))
        else:
            for _ in range(rnd.choice([2, 5, 8, 11, 13, 14, 17, 40])):
                c[rnd.randrange(n)] += 1
        if i % 50 == 0:
            c[rnd.randrange(n)] = rnd.choice([7, 9, 300])  # past what the tables take
        wilds = (k if "joker" in name else 0) if i % 2 and i % 7 else rnd.choice([0, 0, 1, 2, 4, 9])
        melds = rnd.choice([0, 0, 1, 2, 4, 5])
        counts = tuple(c) if i % 3 else (list(c) if i % 2 else bytes(min(x, 255) for x in c))
        got = outcome(nat.check_win, counts, wilds, melds)
        assert got == outcome(slow, counts, wilds, melds), (c, wilds, melds)
        if max(c) <= 4:
            assert got == outcome(ref.check_win, counts, wilds, melds), (c, wilds, melds)
        wins += got is True
    assert wins > 200  # a sample that wins often
    # input it refuses: the Python check's own error
    for bad in [(-1,) + (0,) * (n - 1), ("x",) * n]:
        assert outcome(nat.check_win, bad, 0, 0) == outcome(slow, bad, 0, 0)
    assert outcome(nat.check_win, (0,) * n, 2, -1) == outcome(slow, (0,) * n, 2, -1)
