"""Cross-check of hands holding wildcards: the signature decomposition against reading every split.

    python bench/wild_crosscheck.py [--hands 300] [--seed 1] [--most 3] [--variants chehuzi,longyan,baicheng,joker]

For each variant, seeded random hands (built from groups the rule set can form, some drawn at random)
with 0..`--most` wildcards under random contexts are scored both ways (`tests/wild_oracle.py`); every
difference in the result (win, score, best, total, the reading shown, its patterns and quantities) is
printed. Four 王 in a 21-card 扯胡子 hand make full enumeration read some 25,000 splits (seconds per
hand), so `--most 4` there is slow. Results are recorded in BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the oracle and the hand maker live with the tests

from paili import load  # noqa: E402
from paili.runtime import hand_readings as readings_module  # noqa: E402

from tests.test_wild_decompose import context_of  # noqa: E402
from tests.wild_oracle import outcome, random_hand  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--most", type=int, default=3)
    ap.add_argument("--variants", default="chehuzi,longyan,baicheng,joker")
    args = ap.parse_args(argv)
    readings_module.SIGNATURE_FROM = 1  # hands with one wildcard by signature too (scoring reads them split by split)
    failed = 0
    for name in args.variants.split(","):
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        rules = load(path)
        rnd = random.Random(args.seed)
        most = 1 if name == "baicheng" else args.most  # the 宝 is wild only as the winning tile
        compared = wins = diffs = 0
        t_sig = t_full = 0.0
        for _ in range(args.hands):
            ctx, wild = context_of(name, rules, rnd)
            w = rnd.randint(0, most)
            hand = random_hand(rules, rnd, w, wild, ctx, near=rnd.random() < 0.9, wild_wins=name == "baicheng",
                               self_drawn=True if name == "baicheng" else None)
            if hand is None:
                continue
            t = time.process_time()
            a = outcome(rules, hand, ctx, full=False)
            t_sig += time.process_time() - t
            t = time.process_time()
            b = outcome(rules, hand, ctx, full=True)
            t_full += time.process_time() - t
            compared += 1
            wins += bool(b.get("win"))
            if a != b:
                diffs += 1
                print(f"DIFF {name}: {[t.name for t in hand.concealed]} win {hand.win.name} "
                      f"self_drawn {hand.self_drawn} {ctx}")
                for k in b:
                    if a.get(k) != b.get(k):
                        print(f"    {k}: signatures {a.get(k)!r}  full {b.get(k)!r}")
        failed += diffs
        print(f"{name}: {compared} hands (0–{most} wildcards), {wins} winning, {diffs} differences; "
              f"CPU {t_sig:.1f} s by signatures, {t_full:.1f} s reading every split")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
