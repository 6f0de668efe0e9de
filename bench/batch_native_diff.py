"""The native batch driver against `PAILI_BACKEND=python`, whole process: `paili score RULES --batch FILE
--json --stats` on both backends must write the same bytes, and so must the same command without
`--stats` (on a bundled variant it starts on the recorded setup, runtime/quickbatch.py); the lines the
native scorer took are printed (`batch_lines`, and what the quick path did).

    python bench/batch_native_diff.py [--hands 5000] [--seed 1] [--sample 2000] [--sample-seed 21]

- bench/batch_speed.py's files: `--hands` random winning 白金岛 hands and bench/mcr_crosscheck.py's 国标
  hands (seed `--seed`, the same hands batch_speed.py times);
- every bundled rule file, bench/rules/joker.pai, shapes.pai and exprs.pai: `--sample` seeded items of
  bench/native_diff.py `rules_case` (winning, near-winning, with wildcards, melds and room options), each
  written twice so the second copy meets its melds already known, in a shuffled order (`sample_lines`; tests/
  test_native_batch_hands.py runs a small one).

Exits 1 if any file's outputs differ.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import native_diff  # noqa: E402
from batch_alternate import files as speed_files  # noqa: E402
from paili import load  # noqa: E402

# the bundled rule files, joker.pai, and the bench's shapes.pai and exprs.pai (labels with expressions,
# fractions)
SAMPLE_FILES = native_diff.FILES


def _plain(v):
    return int(v) if isinstance(v, Fraction) and v.denominator == 1 else v


def sample_lines(path: Path, n: int, seed: int) -> bytes:
    """n seeded items of a rule file, each twice, shuffled (JSON lines)."""
    ref = load(path, backend="python")
    rnd = random.Random(seed)
    lines = []
    while len(lines) < 2 * n:
        case = native_diff.rules_case(ref, rnd)
        if case is not None:
            hand, melds, win, context, self_drawn = case
            x = {"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn,
                 "set": {k: _plain(v) for k, v in context.items()}}
            lines += [json.dumps(x, ensure_ascii=False).encode()] * 2
    rnd.shuffle(lines)
    return b"\n".join(lines) + b"\n"


def cli(rules: str, path: Path, backend: str) -> tuple[bytes, dict]:
    """The output bytes of `paili score RULES --batch PATH --json --stats` and its `batch_lines`."""
    p = subprocess.run([sys.executable, "-m", "paili", "score", rules, "--batch", str(path), "--json", "--stats"],
                       capture_output=True, cwd=ROOT, env={**os.environ, "PAILI_BACKEND": backend})
    if b"Traceback" in p.stderr:
        raise SystemExit(p.stderr.decode()[-800:])
    return p.stdout, json.loads(p.stderr.decode().splitlines()[-1])["stats"]["batch_lines"]


def quick(rules: str, path: Path) -> tuple[bytes, dict]:
    """The output bytes of `paili score RULES --batch PATH --json` (no --stats: a bundled variant's batch
    then starts on its recorded setup, runtime/quickbatch.py) and what that path did (PAILI_BATCH_REPORT)."""
    p = subprocess.run([sys.executable, "-m", "paili", "score", rules, "--batch", str(path), "--json"],
                       capture_output=True, cwd=ROOT, env={**os.environ, "PAILI_BACKEND": "native",
                                                           "PAILI_BATCH_REPORT": "1"})
    if b"Traceback" in p.stderr:
        raise SystemExit(p.stderr.decode()[-800:])
    lines = [x for x in p.stderr.decode().splitlines() if x.startswith('{"quick"')]
    return p.stdout, json.loads(lines[-1])["quick"] if lines else {}


def compare(rules: str, path: Path) -> bool:
    out, counts = cli(rules, path, "native")
    want, want_counts = cli(rules, path, "python")
    fast, fast_counts = quick(rules, path)
    same = out == want == fast
    n = len(want.splitlines())
    print(f"{Path(rules).stem:12} {n:6} lines  identical: {same}  native {counts['native']:6}  "
          f"reference {counts['reference']:6}  (python backend: {want_counts}; without --stats: {fast_counts})",
          flush=True)
    return same


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=2000, help="items per rule file (each written twice)")
    ap.add_argument("--sample-seed", type=int, default=21)
    ap.add_argument("--only", help="a rule file's stem: that sample alone (no speed files)")
    a = ap.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        if not a.only:
            for rules, f in speed_files(d, a.hands, a.seed).items():
                ok &= compare(rules, f)
        for path in SAMPLE_FILES:
            if a.only and path.stem != a.only:
                continue
            f = d / f"{path.stem}.sample.jsonl"
            f.write_bytes(sample_lines(path, a.sample, a.sample_seed))
            ok &= compare(str(path), f)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
