"""`Rules.check_win` without a context (runtime/rules.py), for rule sets whose wins are pure splits: the
(melds, pairs) targets a hand of n concealed tiles may split into under the winning forms, and the check
as one function — one native call (src/wincheck.rs) where the tables answer, else the structure
backend's split test. `forms` is `Rules.forms`: (form, instant, pair_when) triples.
"""
from __future__ import annotations

from .backend import native_module


def win_targets(forms, melds: int, n: int) -> list[tuple[int, int]]:
    """The (melds, pairs) of concealed tiles that `check_win`'s forms accept for n tiles."""
    out = []
    for f, _, _ in forms:
        if f.concealed and melds:
            continue
        lo, hi = f.pairs if f.pairs else (0, 0)
        for p in range(lo, hi + 1):
            m = (f.melds or 0) - melds
            if m >= 0 and 3 * m + 2 * p == n:
                out.append((m, p))
    return list(dict.fromkeys(out))


def native_check(forms, dec):
    """`check_win` without a context as one native call (src/wincheck.rs), given every (melds laid down,
    tiles) with targets once (none fits past them); None when no native tables answer."""
    tables = getattr(dec.structure, "tables", None)
    make = getattr(native_module(), "WinCheck", None) if tables is not None else None
    if make is None:
        return None
    most_m = max(((f.melds or 0) for f, _, _ in forms), default=0)
    most_p = max(((f.pairs[1] if f.pairs else 0) for f, _, _ in forms), default=0)
    table = [(m, n, ts) for m in range(most_m + 1) for n in range(3 * most_m + 2 * most_p + 1)
             if (ts := win_targets(forms, m, n))]
    try:
        return make(tables, table).check
    except ValueError:  # past the native table's bounds: the Python check answers
        return None


def structural_check(forms, dec):
    """`check_win` without a context as one function: the form targets by (melds, tiles), then one
    question to the structure backend (the native tables directly when they answer)."""
    targets_of: dict[tuple[int, int], list] = {}
    s = dec.structure
    tables = getattr(s, "tables", None)
    declined = getattr(s, "declined", ())
    cap = s.cap if s is not None else -1
    slow = dec.can_split_any

    def check(counts, wilds: int, melds: int) -> bool:
        key = (melds, sum(counts) + wilds)
        targets = targets_of.get(key)
        if targets is None:
            targets = targets_of[key] = win_targets(forms, melds, key[1])
        if not targets:
            return False
        if tables is not None and wilds <= cap:
            try:
                return tables.can_split_any(counts, wilds, targets)
            except declined:  # the seam decides: the reference answers, a native error is counted
                pass
        return slow(counts, wilds, targets)
    return check
