"""Two builds of paili writing the same bytes for the same batch files, as the issue's command runs them
(`paili score RULES --batch FILE --json`, no `--stats`: a bundled variant's batch then starts on its
recorded setup, runtime/quickbatch.py, in a build that has one).

    python bench/batch_startup_diff.py BEFORE_PATH AFTER_PATH [--lines 5000] [--seed 21]

Each PATH is a directory holding a `paili` package (as PYTHONPATH takes it: a worktree's shim). The files:
bench/batch_speed.py's 白金岛 and 国标 hands (`--lines` each), and for every bundled rule file and
bench/rules/joker.pai `--lines` lines of bench/batch_native_diff.py `sample_lines` (winning, near-winning,
wildcards, melds, room options and contexts; each item twice, shuffled). Exits 1 if any file differs.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from batch_alternate import files as speed_files  # noqa: E402
from batch_native_diff import sample_lines  # noqa: E402

FILES = [*sorted((ROOT / "rules").glob("*.pai")), ROOT / "bench" / "rules" / "joker.pai"]


def output(shim: str, rules: str, path: Path) -> tuple[bytes, int]:
    p = subprocess.run([sys.executable, "-m", "paili", "score", rules, "--batch", str(path), "--json"],
                       capture_output=True, env={**os.environ, "PYTHONPATH": shim}, cwd=path.parent)
    if b"Traceback" in p.stderr:
        raise SystemExit(p.stderr.decode()[-800:])
    return p.stdout, p.returncode


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=21)
    a = ap.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        cases = list(speed_files(d, a.lines, 1).items())
        for path in FILES:
            f = d / f"{path.stem}.sample.jsonl"
            f.write_bytes(sample_lines(path, a.lines // 2, a.seed))
            rules = path.stem if path.parent == ROOT / "rules" else str(path)
            cases.append((rules, f))
        for rules, f in cases:
            (before, bc), (after, ac) = output(a.before, rules, f), output(a.after, rules, f)
            same = before == after and bc == ac
            ok &= same
            print(f"{Path(rules).stem:10} {f.name:24} {len(after.splitlines()):6} lines  same bytes: {same}  "
                  f"exit {bc}/{ac}  sha256 {hashlib.sha256(after).hexdigest()[:12]}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
