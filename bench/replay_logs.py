"""Replay logged games: simulate N games with logs, then replay every log and require the identical
result (issue 5: "replaying 1,000 logged games reproduces them exactly").

    python bench/replay_logs.py [--rules baijindao] [--games 1000] [--seed 1] [--bots random]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402
from paili.runtime.game.log import ReplayError, replay  # noqa: E402
from paili.runtime.game.simulate import simulate  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="baijindao")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random", choices=["random", "greedy"])
    args = ap.parse_args(argv)
    path = ROOT / "rules" / f"{args.rules}.pai"
    rules = load(path)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        summary = simulate(rules, args.games, args.seed, args.bots, log_dir=tmp, rules_ref=str(path))
        t1 = time.perf_counter()
        failures = []
        logs = sorted(Path(tmp).glob("*.jsonl"))
        for log in logs:
            try:
                replay(log, rules)
            except ReplayError as exc:
                failures.append(f"{log.name}: {exc}")
        t2 = time.perf_counter()
    print(f"{len(logs)} logged games ({summary['wins']} won, {summary['draws']} drawn, "
          f"{summary['invariant_violations']} invariant violations) in {t1 - t0:.1f} s; "
          f"replayed in {t2 - t1:.1f} s: {len(logs) - len(failures)} identical, {len(failures)} different")
    for f in failures[:20]:
        print("  " + f)
    return 1 if failures or summary["invariant_violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
