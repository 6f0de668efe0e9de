"""JSON-lines batch scoring, whole process, side by side with the peers on the same hands.

    python bench/batch_speed.py [--hands 5000] [--seed 1] [--json]

Each tool runs as its own process reading one hand per JSON line from a file and writing one JSON
result per line (the form game servers and cross-checks use); every hand is new to the process:
- 白金岛: random winning 14-tile hands of 万 and honors with a random winning tile (bench/hand_speed.py's
  generator): `paili score baijindao --batch FILE --json` on the native and on the Python backend
  (`PAILI_BACKEND`), against a process driving `mahjong`'s `HandCalculator.estimate_hand_value`;
- 国标: bench/mcr_crosscheck.py's random winning hands (melds, flowers, winds, flags):
  `paili score guobiao --batch FILE --json` on both backends, against a process driving PyMahjongGB's
  `MahjongFanCalculator`.

Rates are hands per second of the child process's CPU time (user + system, from `getrusage`), which
holds on a shared machine; the wall-clock rate is printed too. Process start-up (imports, loading the
rule set) is part of each figure, as it is of a batch job; each child runs as an installed package does,
with its bytecode kept (`installed_env`), and paili's is written by one untimed empty batch first.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from hand_speed import MJ34_HONOR, random_winning_hand  # noqa: E402
from mcr_crosscheck import gb, gb_packs, paili_args, random_hand  # noqa: E402

# The peers' drivers: read JSON lines, score each, write one JSON line each (stdout).
MAHJONG_DRIVER = r"""
import json, sys
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.tile import TilesConverter
calc = HandCalculator()
out = sys.stdout
for line in open(sys.argv[1], encoding="utf-8"):
    d = json.loads(line)
    t136 = TilesConverter.string_to_136_array(man=d["man"], honors=d["honors"])
    win = next(x for x in t136 if x // 4 == d["win34"])
    r = calc.estimate_hand_value(t136, win)
    out.write(json.dumps({"han": r.han, "fu": r.fu, "cost": r.cost, "error": r.error}) + "\n")
"""

GB_DRIVER = r"""
import json, sys
from MahjongGB import MahjongFanCalculator
out = sys.stdout
for line in open(sys.argv[1], encoding="utf-8"):
    a = json.loads(line)
    a[0] = tuple(tuple(p) for p in a[0])
    a[1] = tuple(a[1])
    try:
        res = MahjongFanCalculator(*a)
        out.write(json.dumps({"fans": [[v, n] for v, n in res]}, ensure_ascii=False) + "\n")
    except Exception as exc:  # a hand it does not take: still a full evaluation
        out.write(json.dumps({"error": str(exc)}) + "\n")
"""


def run(cmd: list[str], n: int, env: dict | None = None) -> dict:
    """CPU and wall rates of one child process; its output must be n lines."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = p.stdout.splitlines()
    if len(lines) != n:
        raise SystemExit(f"{cmd[:4]}: {len(lines)} lines for {n} hands (exit {p.returncode}): {p.stderr[-300:]}")
    return {"per_s": n / cpu, "wall_per_s": n / wall, "cpu_s": cpu, "errors": sum('"error": "' in x for x in lines)}


def installed_env(**extra: str) -> dict:
    """The environment of a child process as an installed package runs: Python keeps the bytecode it
    compiles (`__pycache__`), as pip's own install does for the peers' modules. A machine that sets
    PYTHONDONTWRITEBYTECODE (this project's CI does) would otherwise have paili alone compile its
    modules at every start-up, a cost no user's second run pays."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def paili(rules: str, path: Path, n: int, backend: str) -> dict:
    env = installed_env(PAILI_BACKEND=backend)
    cmd = [sys.executable, "-m", "paili", "score", rules, "--batch"]
    empty = path.with_name("empty.jsonl")
    empty.write_text("", "utf-8")
    run(cmd + [str(empty), "--json"], 0, env)  # untimed: the bytecode cache written, as after an install
    return run(cmd + [str(path), "--json"], n, env)


def measure(n: int, seed: int) -> dict:
    """Both batches (白金岛 and 国标), each tool its own process, on n new hands each."""
    rnd = random.Random(seed)
    out: dict = {"hands": n, "seed": seed}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ours, theirs = [], []
        for _ in range(n):
            h = random_winning_hand(rnd)
            w = rnd.randrange(14)
            ours.append({"hand": " ".join(h[:w] + h[w + 1:]), "win": h[w]})
            w34 = int(h[w][0]) - 1 if h[w][-1] == "m" else MJ34_HONOR[h[w]]
            theirs.append({"man": "".join(t[0] for t in h if t[-1] == "m"),
                           "honors": "".join(str(MJ34_HONOR[t] - 26) for t in h if t[-1] != "m"), "win34": w34})
        (d / "bjd.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in ours), "utf-8")
        (d / "mj.jsonl").write_text("".join(json.dumps(x) + "\n" for x in theirs), "utf-8")
        (d / "mj.py").write_text(MAHJONG_DRIVER, "utf-8")
        row = {"native": paili("baijindao", d / "bjd.jsonl", n, "native"),
               "python": paili("baijindao", d / "bjd.jsonl", n, "python"),
               "mahjong": run([sys.executable, str(d / "mj.py"), str(d / "mj.jsonl")], n, installed_env())}
        for k in ("native", "python"):
            row[f"{k}_ratio_to_mahjong"] = row[k]["per_s"] / row["mahjong"]["per_s"]
        out["baijindao"] = row
        ours, theirs = [], []
        while len(ours) < n:
            h = random_hand(rnd)
            if h is None:
                continue
            hand, melds, win, self_drawn, ctx = paili_args(h)
            ours.append({"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn, "set": ctx})
            theirs.append([gb_packs(h), [gb(t) for t in h["concealed"]], gb(h["win"]), len(h["flowers"]),
                           h["self_drawn"], h["fourth"], h["kong"], h["last"], h["seat"], h["round"]])
        (d / "gb.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in ours), "utf-8")
        (d / "gbpeer.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in theirs), "utf-8")
        (d / "gb.py").write_text(GB_DRIVER, "utf-8")
        row = {"native": paili("guobiao", d / "gb.jsonl", n, "native"),
               "python": paili("guobiao", d / "gb.jsonl", n, "python"),
               "pymahjonggb": run([sys.executable, str(d / "gb.py"), str(d / "gbpeer.jsonl")], n, installed_env())}
        for k in ("native", "python"):
            row[f"{k}_ratio_to_pymahjonggb"] = row[k]["per_s"] / row["pymahjonggb"]["per_s"]
        out["guobiao"] = row
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = measure(args.hands, args.seed)
    if args.json:
        print(json.dumps(out))
        return 0
    for name in ("baijindao", "guobiao"):
        print(name)
        for k, v in out[name].items():
            if isinstance(v, dict):
                print(f"  {k:28} {v['per_s']:>10,.0f}/s CPU  {v['wall_per_s']:>10,.0f}/s wall  "
                      f"({v['errors']} errors)")
            else:
                print(f"  {k:28} {v:>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
