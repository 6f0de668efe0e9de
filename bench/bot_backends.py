"""The efficiency bot on both backends: `paili simulate` games played with the rules loaded on the native
backend and on the Python one, every log line and the summary compared (only the timing keys differ).

    python bench/bot_backends.py [--games 1000] [--seed 1] [--bots efficiency] [--only baijindao,...]

Every bundled variant (龙岩 at 人数 4, 3 and 2) and bench/rules/joker.pai. The native backend answers the
efficiency bot's distance questions in Rust (engine/distance.rs) where the Python backend works them out
in runtime/distance.py; prints per configuration the games, the log files and lines compared, the
differences (none allowed: the exit status is 1 otherwise), the hands the native tables handed back
(`fallbacks`) and each backend's CPU time (`time.process_time`, the backends alternated game chunk by
game chunk so a shared machine's load falls on both alike).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONFIGS = [("baijindao", {}), ("baicheng", {}), ("longyan", {"人数": 4}), ("longyan", {"人数": 3}),
           ("longyan", {"人数": 2}), ("chehuzi", {}), ("guobiao", {}), ("joker", {})]
TIMING = ("seconds", "games_per_second")
CHUNK = 50  # games a backend plays before the other takes its turn


def path_of(name: str) -> Path:
    return ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"


def logs_of(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def compare(name: str, options: dict, games: int, seed: int, bots: str) -> tuple[int, dict]:
    from paili import load
    from paili.runtime.game.bots import measure_fallbacks
    from paili.runtime.game.simulate import play_games, seeds_of, summarize

    rules = {b: load(path_of(name), backend=b) for b in ("python", "native")}
    seeds = seeds_of(games, seed)
    cpu = {b: 0.0 for b in rules}
    parts: dict[str, list] = {b: [] for b in rules}
    diffs = files = lines = 0
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {b: Path(tmp) / b for b in rules}
        for d in dirs.values():
            d.mkdir()
        for i in range(0, games, CHUNK):
            chunk = seeds[i:i + CHUNK]
            for b, r in rules.items():
                t0 = time.process_time()
                parts[b].append(play_games(r, chunk, bots, options, dirs[b]))
                cpu[b] += time.process_time() - t0
        a, b = logs_of(dirs["python"]), logs_of(dirs["native"])
        if a.keys() != b.keys():
            diffs += 1
            print(f"  the log files differ: {sorted(a.keys() ^ b.keys())[:3]}")
        for k in sorted(a.keys() & b.keys()):
            files += 1
            lines += a[k].count(b"\n")
            if a[k] != b[k]:
                diffs += 1
                if diffs <= 3:
                    print(f"  {k}: the logs differ")
    sums = {b: {k: v for k, v in summarize(parts[b], games, bots, 1.0).items() if k not in TIMING} for b in rules}
    if sums["python"] != sums["native"]:
        diffs += 1
        print("  the summaries differ")
    fallbacks = measure_fallbacks(rules["native"].ir)
    return diffs, {"files": files, "lines": lines, "cpu": cpu, "fallbacks": fallbacks,
                   "wins": sums["native"]["wins"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="efficiency")
    ap.add_argument("--only", default="")
    a = ap.parse_args(argv)
    only = {x for x in a.only.split(",") if x}
    bad = 0
    for name, options in CONFIGS:
        if only and name not in only:
            continue
        diffs, got = compare(name, options, a.games, a.seed, a.bots)
        bad += diffs
        cpu = got["cpu"]
        opts = " ".join(f"{k}={v}" for k, v in options.items())
        print(f"{name} {opts}: {a.games} games, {got['wins']} won, {got['files']} logs, {got['lines']} lines, "
              f"{diffs} differences, {got['fallbacks']} fallbacks; CPU python {cpu['python']:.2f} s "
              f"({a.games / cpu['python']:.1f} games/s), native {cpu['native']:.2f} s "
              f"({a.games / cpu['native']:.1f} games/s)", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
