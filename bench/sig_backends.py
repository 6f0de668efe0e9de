"""The signature search on both backends: the native core's (runtime/native/src/signatures/) against
the Python reference's (runtime/signatures.py), as `tests/test_native_signatures.py` does on a small
sample.

    python bench/sig_backends.py [--hands 500] [--waits 50] [--seed 1] [--most 4]
                                 [--variants chehuzi,longyan,baicheng,joker]

For each variant, seeded random hands holding 2..`--most` wildcards (风雷白城: its one 宝, as the winning
tile) under random contexts are scored by `load(…, backend="native")` and `load(…, backend="python")`,
and the first `--waits` of them asked for their waits (self-drawn, the winning tile taken out): the
`to_json()` of the score and of every wait (or the one-sentence error) and the work used (`work=`, the
budget both count down) must be the same. Hands with one wildcard are read by signature too. Prints one
line per variant with the CPU time of each backend; exits 1 on any difference. Results are recorded in
BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the hand maker and the contexts live with the tests

from paili import load  # noqa: E402
from paili.runtime import hand_readings as readings_module  # noqa: E402
from paili.runtime.backend import native_module  # noqa: E402
from paili.runtime.hand import Hand, HandError  # noqa: E402
from paili.runtime.limits import HAND_WORK  # noqa: E402

from tests.test_wild_decompose import context_of  # noqa: E402
from tests.wild_oracle import random_hand  # noqa: E402


def answer(call, *args, **kwargs) -> tuple[str, int, float]:
    """The JSON of `call(*args, **kwargs)` (or its one-sentence error), the work it used, its CPU time."""
    work = [HAND_WORK]
    t = time.process_time()
    try:
        got = call(*args, work=work, **kwargs)
    except HandError as exc:
        return "error: " + str(exc), HAND_WORK - work[0], time.process_time() - t
    dt = time.process_time() - t
    if isinstance(got, list):
        text = json.dumps([(k.name, res.to_json()) for k, res in got], ensure_ascii=False, sort_keys=True)
    else:
        text = json.dumps(got.to_json(), ensure_ascii=False, sort_keys=True)
    return text, HAND_WORK - work[0], dt


def moved(value, rules):
    return rules.catalog.by_name[value.name] if hasattr(value, "category") else value


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--waits", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--most", type=int, default=4)
    ap.add_argument("--variants", default="chehuzi,longyan,baicheng,joker")
    args = ap.parse_args(argv)
    if getattr(native_module(), "SigMemo", None) is None:
        print("the native core is not built here, or built before its signature search")
        return 1
    readings_module.SIGNATURE_FROM = 1
    failed = 0
    for name in args.variants.split(","):
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        nat, ref = load(path, backend="native"), load(path, backend="python")
        rnd = random.Random(f"{args.seed}:{name}")
        most = 1 if name == "baicheng" else args.most
        scored = waited = wins = diffs = 0
        cpu = [0.0, 0.0]
        for _ in range(args.hands):
            ctx, wild = context_of(name, nat, rnd)
            hand = random_hand(nat, rnd, rnd.randint(min(2, most), most), wild, ctx, near=rnd.random() < 0.9,
                               wild_wins=name == "baicheng", self_drawn=True if name == "baicheng" else None)
            if hand is None:
                continue
            ctx_p = {k: moved(v, ref) for k, v in ctx.items()}
            hand_p = Hand([moved(t, ref) for t in hand.concealed], [], moved(hand.win, ref), hand.self_drawn)
            asks = [((nat.score, hand), (ref.score, hand_p), {"context": ctx}, {"context": ctx_p}, "score")]
            if waited < args.waits:
                asks.append(((nat.waits, Hand(hand.concealed, [], None, True)),
                             (ref.waits, Hand(hand_p.concealed, [], None, True)),
                             {"context": ctx, "self_drawn": True}, {"context": ctx_p, "self_drawn": True}, "waits"))
                waited += 1
            for (fn, hn), (fp, hp), kn, kp, what in asks:
                a, b = answer(fn, hn, **kn), answer(fp, hp, **kp)
                cpu[0] += a[2]
                cpu[1] += b[2]
                if what == "score":
                    scored += 1
                    wins += '"win": true' in a[0]
                if a[:2] != b[:2]:
                    diffs += 1
                    if diffs <= 10:
                        print(f"DIFF {name} {what}: {[t.name for t in hand.concealed]} win {hand.win.name} {ctx}\n"
                              f"    native {a[0][:300]} ({a[1]} units)\n    python {b[0][:300]} ({b[1]} units)")
        print(f"{name}: {scored} hands scored ({wins} winning), {waited} asked for their waits, {diffs} differences; "
              f"CPU {cpu[0]:.1f} s native, {cpu[1]:.1f} s python")
        failed += diffs
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
