"""Where a cold `Rules.score` call's time goes, one call per hand as bench/native_speed.py measures it.

    python bench/score_call_profile.py VARIANT [--hands 3000] [--seed 1] [--profile] [--backend native]

VARIANT: guobiao (bench/mcr_crosscheck.py's hands: melds, flowers, context values) or baijindao
(bench/hand_speed.py's winning hands). --hands hands warm the rule set, then as many others are scored
once each (cold): the rate in CPU time, and then (the native backend) the same cold hands' native call
timed alone (`Hands.score`, the rest is the Python around it). With --profile, cProfile (CPU clock)
of the cold pass instead, by own time and by cumulative time.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from hand_speed import random_winning_hand  # noqa: E402
from mcr_crosscheck import paili_args, random_hand  # noqa: E402
from paili import load  # noqa: E402


def hands_of(variant: str, n: int, seed: int) -> list[tuple]:
    rnd = random.Random(seed)
    out: list[tuple] = []
    while len(out) < n:
        if variant == "guobiao":
            h = random_hand(rnd)
            if h is not None:
                out.append(paili_args(h))
        else:
            h = random_winning_hand(rnd)
            w = rnd.randrange(14)
            out.append((" ".join(h[:w] + h[w + 1:]), None, h[w]))
    return out


class Timed:
    """The native `Hands` object of a rule set with its `score` timed (CPU), the rest passed through."""

    def __init__(self, inner):
        self.inner = inner
        self.spent = 0.0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def score(self, *args):
        t = time.process_time()
        try:
            return self.inner.score(*args)
        finally:
            self.spent += time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variant", choices=["guobiao", "baijindao"])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="native")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    r = load(ROOT / "rules" / f"{args.variant}.pai", backend=args.backend)
    every = hands_of(args.variant, 2 * args.hands, args.seed)
    warm, cold = every[:args.hands], every[args.hands:]
    for a in warm:
        r.score(*a)
    if args.profile:
        pr = cProfile.Profile(time.process_time)
        pr.enable()
        for a in cold:
            r.score(*a)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(30)
        pstats.Stats(pr).sort_stats("cumtime").print_stats(30)
        return 0
    t = time.process_time()
    for a in cold:
        r.score(*a)
    spent = time.process_time() - t
    print(f"{args.variant} {args.backend}: {len(cold) / spent:,.0f} cold calls/s, "
          f"{spent / len(cold) * 1e6:.1f} µs a call")
    # the native scorers of whole hands of the catalogs these hands' room options give (one or two)
    scorers = {id(h): h for a in cold for h in [r.native_hands_for(*r.env_for(a[4] if len(a) > 4 else None)[:2])]
               if h is not None}
    if scorers:
        for h in scorers.values():
            h.hands_native = Timed(h.hands_native)
        wraps = [h.hands_native for h in scorers.values()]
        again = hands_of(args.variant, 2 * args.hands, args.seed + 1000)[args.hands:]
        t = time.process_time()
        for a in again:
            r.score(*a)
        spent = time.process_time() - t
        native = sum(w.spent for w in wraps)
        print(f"  another {len(again):,} cold hands: {spent / len(again) * 1e6:.1f} µs a call, of which the native "
              f"call {native / len(again) * 1e6:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
