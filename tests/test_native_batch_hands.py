"""The native batch driver scoring whole hands itself (runtime/native/src/batch/native.rs) against the
Python reference: seeded batches of every rule file give the same bytes whichever scores a line, and the
winning hands of the speed benchmark (bench/batch_speed.py) are all scored natively, the waits their
patterns read found by the native wait trials."""
from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.batch import write_lines

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402
from batch_native_diff import sample_lines  # noqa: E402
from hand_speed import random_winning_hand  # noqa: E402
from mcr_crosscheck import paili_args, random_hand  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)


def run_lines(path, data: bytes, backend_name: str) -> tuple[int, str, dict]:
    rules = load(path, backend=backend_name)
    out = io.StringIO()
    failed, counts = write_lines(rules, io.BytesIO(data), out)
    return failed, out.getvalue(), counts


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES[:-2], ids=lambda p: p.name)  # the bundled files and joker.pai
def test_a_batch_scored_natively_where_it_can_is_the_reference_output(path):
    # seeded items, each written twice (the second copy meets its melds known); bench/batch_native_diff.py
    # runs bigger samples whole process
    data = sample_lines(path, 80, seed=21)
    failed, text, counts = run_lines(path, data, "native")
    want_failed, want_text, want_counts = run_lines(path, data, "python")
    assert text == want_text
    assert failed == want_failed
    assert counts["native"] + counts["reference"] == want_counts["reference"] and want_counts["native"] == 0
    ir = load(path, backend="python").ir
    if not (ir.wilds or ir.standins):  # every line it scores is scored natively, the waits found in Rust too
        assert counts == {"native": want_counts["reference"], "reference": 0}
    else:  # the lines holding no wildcard or stand-in are scored natively
        assert counts["native"] > 0


def cli(rules: str, path, backend_name: str) -> tuple[bytes, dict]:
    p = subprocess.run([sys.executable, "-m", "paili", "score", rules, "--batch", str(path), "--json", "--stats"],
                       capture_output=True, cwd=ROOT, env={**os.environ, "PAILI_BACKEND": backend_name})
    assert b"Traceback" not in p.stderr, p.stderr[-500:]
    return p.stdout, json.loads(p.stderr.decode().splitlines()[-1])["stats"]["batch_lines"]


def winning_baijindao(n: int, rnd: random.Random) -> list[dict]:
    out = []
    for _ in range(n):
        h = random_winning_hand(rnd)
        w = rnd.randrange(14)
        out.append({"hand": " ".join(h[:w] + h[w + 1:]), "win": h[w]})
    return out


def winning_guobiao(n: int, rnd: random.Random) -> list[dict]:
    out = []
    while len(out) < n:
        h = random_hand(rnd)
        if h is not None:
            hand, melds, win, self_drawn, ctx = paili_args(h)
            out.append({"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn, "set": ctx})
    return out


@needs_native
@pytest.mark.parametrize("rules,make", [("baijindao", winning_baijindao), ("guobiao", winning_guobiao)])
def test_winning_hands_are_all_scored_natively_with_the_reference_bytes(tmp_path, rules, make):
    items = make(300, random.Random(22))
    f = tmp_path / "hands.jsonl"
    f.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in items), encoding="utf-8")
    out, counts = cli(rules, f, "native")
    want, want_counts = cli(rules, f, "python")
    assert out == want and len(out.splitlines()) == 300
    assert want_counts == {"native": 0, "reference": 300}
    assert counts["native"] + counts["reference"] == 300
    assert counts == {"native": 300, "reference": 0}  # no line reaches Python (the waits found in Rust too)


@needs_native
def test_a_rule_set_with_wildcards_scores_natively_only_the_lines_holding_none():
    # 王 is a wildcard in joker.pai: a line holding one is the reference's (its readings are the wild
    # ones); a line holding none is read as natural tiles with its splits charged, natively
    path = ROOT / "bench" / "rules" / "joker.pai"
    lines = [{"hand": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p", "win": "2p"},
             {"hand": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 王 2p", "win": "2p"},
             {"hand": "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p", "win": "王"}]
    data = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode()
    failed, text, counts = run_lines(path, data, "native")
    want_failed, want_text, _ = run_lines(path, data, "python")
    assert (failed, text) == (want_failed, want_text) and failed == 0
    assert [json.loads(x)["win"] for x in text.splitlines()] == [True, True, True]
    assert counts == {"native": 1, "reference": 2}
