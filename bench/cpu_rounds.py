"""CPU time of whole commands, interleaved round by round (so a shared machine's load falls on all alike).

    python bench/cpu_rounds.py ROUNDS -- 'COMMAND A' ';;' 'COMMAND B' …

Each command runs through the shell once a round, its output thrown away; the CPU time is the child's
user + system time (`getrusage(RUSAGE_CHILDREN)` around it). Prints the min and median of each, and the
load average. Used for the start-up figures of BENCHMARKS.md ("The native batch path and start-up").
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__)
        return 2
    rounds = int(argv[0])
    cmds = [c.strip() for c in " ".join(argv[2:]).split(";;") if c.strip()]
    cpu: dict[str, list[float]] = {c: [] for c in cmds}
    for _ in range(rounds):
        for c in cmds:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(c, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[c].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    for c, v in cpu.items():
        print(f"min {min(v):.3f}  median {statistics.median(v):.3f}  {c}")
    print("load average", " ".join(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
