"""The native batch line's own work, as this round made it cheaper (issue 15): texts kept in place
when short, the notation read through tables, the splits written one after another, the wait trials'
readings built once a split, the chosen reading's groups shared with its JSON. Each is checked
against the Python reference: the same bytes, the same splits, the same waits."""
from __future__ import annotations

import io
import json
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.batch import write_lines

sys.path.insert(0, str(ROOT / "bench"))
from mcr_crosscheck import paili_args, random_hand  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
GUOBIAO = ROOT / "rules" / "guobiao.pai"


def run_lines(data: bytes, backend_name: str) -> tuple[int, str, dict]:
    rules = load(GUOBIAO, backend=backend_name)
    out = io.StringIO()
    failed, counts = write_lines(rules, io.BytesIO(data), out)
    return failed, out.getvalue(), counts


def guobiao_items(n: int, seed: int) -> list[dict]:
    rnd = random.Random(seed)
    items = []
    while len(items) < n:
        h = random_hand(rnd)
        if h is None:
            continue
        hand, melds, win, self_drawn, ctx = paili_args(h)
        items.append({"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn, "set": ctx})
    return items


@needs_native
def test_texts_short_long_and_escaped_read_as_the_reference_reads_them():
    # keys and values of 22 bytes and less are held in place, longer ones on the heap; an escape in
    # either, a lone surrogate, an unknown key of each length, and a hand spelled with commas and
    # runs of digits give the reference's bytes and its sentences
    base = guobiao_items(6, seed=5)
    lines = []
    for it in base:
        lines.append(json.dumps(it, ensure_ascii=False))
        lines.append(json.dumps(it, ensure_ascii=True))  # every Chinese key and value as \\u escapes
    first = base[0]
    hand = first["hand"]
    lines.append(json.dumps({**first, "hand": hand.replace(" ", ",")}, ensure_ascii=False))
    lines.append(json.dumps({**first, "hand": hand.replace(" ", "，")}, ensure_ascii=False))
    lines.append(json.dumps({**first, "hand": " " * 30 + hand}, ensure_ascii=False))  # a long value
    lines.append(json.dumps({**first, "x" * 22: 1}))  # an unknown key of exactly 22 bytes
    lines.append(json.dumps({**first, "x" * 23: 1}))  # and one past it
    lines.append('{"hand": "1m\\u00202m", "win": "3m"}')
    lines.append('{"hand": "\\ud800", "win": "3m"}')  # a lone surrogate: refused as the reference
    lines.append('{"han\\u0064": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p", "win": "2p"}')
    lines.append('{"hand": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p", "win": "10p"}')  # a mistake
    lines.append('{"hand": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2", "win": "2p"}')  # digits without a letter
    lines.append('{"hand": "123m456m789m111p2p", "win": "2p"}')
    lines.append('{"hand": "东东东南南南西西西北北北中", "win": "中"}')
    lines.append('{"hand": "东东东南南南西西西北北北Z", "win": "中"}')  # a character no kind is written by
    data = ("\n".join(lines) + "\n").encode()
    failed, text, counts = run_lines(data, "native")
    want_failed, want_text, _ = run_lines(data, "python")
    assert text == want_text
    assert failed == want_failed
    assert counts["native"] >= 2 * len(base)  # the lines scored natively, both spellings
    assert "unknown key 'xxxxxxxxxxxxxxxxxxxxxxx'" in text and "unknown key 'xxxxxxxxxxxxxxxxxxxxxx'" in text


@needs_native
@pytest.mark.parametrize("path", [GUOBIAO, ROOT / "rules" / "baijindao.pai"], ids=lambda p: p.stem)
def test_splits_are_the_reference_splits_in_its_order(path):
    # the native tables' splits (now written one after another, then cut into lists) against
    # runtime/fastwin.py's, for seeded hands of 14 tiles and each (melds, pairs) asked of them
    r = load(path, backend="native")
    dec = r.catalog_for({})[1]
    st = dec.structure
    assert st.split_items
    n = dec.n
    copies = [4] * n
    rnd = random.Random(9)
    found = 0
    for _ in range(150):
        counts = [0] * n
        # tiles drawn near each other so that many hands split
        start = rnd.randrange(n)
        for _ in range(14):
            k = min(n - 1, max(0, start + rnd.randrange(-4, 5)))
            if counts[k] < copies[k]:
                counts[k] += 1
        total = sum(counts)
        for m in range(0, 5):
            for p in range(0, 8):
                if 3 * m + 2 * p != total:
                    continue
                want = st.reference.splits_plain(counts, m, p)
                got = st.splits_plain(counts, m, p, 10_000)
                norm = lambda xs: [[(repr(spec), [tuple(x) for x in slots]) for spec, slots in s] for s in xs]  # noqa: E731
                assert norm(got) == norm(want)
                found += len(want)
    assert found >= 40  # 50 splits with this seed
