"""Two builds of paili on the same batch files, alternated: CPU time of `paili score VARIANT --batch FILE
--json --stats` (the child's, from getrusage), the lines each scorer took (`batch_lines`), and whether every
run wrote the same bytes.

    python bench/batch_alternate.py BEFORE_PATH AFTER_PATH [--hands 5000] [--rounds 2] [--seed 1] [--plain]

`--plain` runs the issue's very command, without `--stats` (on a bundled variant the batch then starts on
its recorded setup, runtime/quickbatch.py); what that path did is read from PAILI_BATCH_REPORT's line
where the build has one.

Each PATH is a directory holding a `paili` package (as PYTHONPATH takes it: a worktree's shim). The hands
are bench/batch_speed.py's: random winning 白金岛 hands, and bench/mcr_crosscheck.py's 国标 hands.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from hand_speed import random_winning_hand  # noqa: E402
from mcr_crosscheck import paili_args, random_hand  # noqa: E402


def files(d: Path, n: int, seed: int) -> dict:
    rnd = random.Random(seed)
    bjd, gbl = [], []
    for _ in range(n):
        h = random_winning_hand(rnd)
        w = rnd.randrange(14)
        bjd.append({"hand": " ".join(h[:w] + h[w + 1:]), "win": h[w]})
    while len(gbl) < n:
        h = random_hand(rnd)
        if h is None:
            continue
        hand, melds, win, self_drawn, ctx = paili_args(h)
        gbl.append({"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn, "set": ctx})
    out = {}
    for rules, items in (("baijindao", bjd), ("guobiao", gbl)):
        out[rules] = d / f"{rules}.jsonl"
        out[rules].write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in items), "utf-8")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plain", action="store_true", help="without --stats")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths = files(Path(tmp), a.hands, a.seed)
        outs: dict = {}
        for r in range(a.rounds):
            for which, path in (("before", a.before), ("after", a.after)):
                for rules, f in paths.items():
                    b = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cmd = [sys.executable, "-m", "paili", "score", rules, "--batch", str(f), "--json"]
                    cmd += [] if a.plain else ["--stats"]
                    env = {**os.environ, "PYTHONPATH": path, **({"PAILI_BATCH_REPORT": "1"} if a.plain else {})}
                    p = subprocess.run(cmd, capture_output=True, env=env, cwd=tmp)
                    e = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = e.ru_utime - b.ru_utime + e.ru_stime - b.ru_stime
                    last = (p.stderr.decode().splitlines() or ["{}"])[-1]
                    got = json.loads(last) if last.startswith("{") else {}
                    lines = got["stats"]["batch_lines"] if "stats" in got else got.get("quick", "-")
                    outs.setdefault(rules, set()).add(p.stdout)
                    rate = f"{a.hands / cpu:,.0f}/s"
                    print(f"round {r + 1} {which:6} {rules:9} cpu {cpu:.3f} s  {rate}  {lines}", flush=True)
        for rules, got in outs.items():
            print(f"{rules}: every run wrote the same bytes: {len(got) == 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
