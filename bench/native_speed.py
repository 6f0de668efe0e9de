"""Win-check speed of the native core, side by side with `mahjong`'s `Agari.is_agari` and the Python
backend, on the same hands in one run.

    python bench/native_speed.py [--hands 20000] [--seed 1] [--repeat 3] [--json]

- standard: random 白金岛 winning 14-tile hands (bench/hand_speed.py's generator), as counts per kind;
  `is_agari` gets the same hands as 34-count arrays.
- wild4: random bench/rules/joker.pai winning hands with four tiles replaced by jokers (10 natural
  tiles + 4 wildcards).

- scoring (`--score-hands`, default 2,000 a rule set): whole hands scored in process, one call per hand:
  白金岛 winning hands by `Rules.score` on the native backend (native win checks and pattern counts)
  and on the Python backend, against `mahjong`'s `HandCalculator.estimate_hand_value` on the same
  tiles; 国标 hands (bench/mcr_crosscheck.py's generator: melds, flowers, self-drawn or not, winds) by
  `Rules.score` on both backends against PyMahjongGB's `MahjongFanCalculator`. paili's "cold" rate is
  its first pass over hands it has not seen (the tables and caches warmed by other hands first); the
  other rates are the best of --repeat passes. The native and Python results are checked equal.

Each paili win-check rate is measured three ways: `Rules.check_win(counts[, 4])` (the public call, one per hand),
the native tables' `can_split_any` (one extension call per hand, no Rules layer), and
`can_split_many` (one call for all hands: the core's own rate, as a batch path would see it).
Rates are hands per second of process CPU time (steadier than the wall clock on a shared machine; the
peers are timed the same way), best of --repeat passes after one untimed pass (paili keeps its block
tables for the life of a rule set, as a server does). JSON keys: standard.*, wild4.* with `*_per_s`, and ratio keys.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from hand_speed import MJ34_HONOR, random_winning_hand  # noqa: E402
from paili import load  # noqa: E402


def rate(fn, items, repeat: int) -> float:
    fn_items = list(items)
    for it in fn_items:  # untimed pass: builds the tables
        fn(it)
    best = 0.0
    for _ in range(repeat):
        t0 = time.process_time()
        for it in fn_items:
            fn(it)
        best = max(best, len(fn_items) / (time.process_time() - t0))
    return best


def batch_rate(tables, data: bytes, n: int, wilds: int, targets, repeat: int) -> float:
    tables.can_split_many(data, wilds, targets)
    best = 0.0
    for _ in range(repeat):
        t0 = time.process_time()
        out = tables.can_split_many(data, wilds, targets)
        best = max(best, n / (time.process_time() - t0))
    assert all(out)
    return best


def counts_of(rules, names) -> tuple:
    cat = rules.catalog
    c = [0] * len(cat.kinds)
    for t in names:
        if t is not None:
            c[cat.by_name[rules.notation.parse(t)[0]].index] += 1
    return tuple(c)


def run(n: int, seed: int, repeat: int) -> dict:
    rnd = random.Random(seed)
    out: dict = {"hands": n, "seed": seed}
    # ---- standard hands
    nat = load(ROOT / "rules" / "baijindao.pai", backend="native")
    ref = load(ROOT / "rules" / "baijindao.pai", backend="python")
    hands = [random_winning_hand(rnd) for _ in range(n)]
    ours = [counts_of(nat, h) for h in hands]

    def mj34(h):
        a = [0] * 34
        for t in h:
            a[int(t[0]) - 1 if t[-1] == "m" else MJ34_HONOR[t]] += 1
        return a

    theirs = [mj34(h) for h in hands]
    from mahjong.agari import Agari

    agari = Agari()
    tables = nat.catalog_for({})[1].structure.tables
    targets = [(4, 1), (0, 7)]
    assert all(nat.check_win(c) for c in ours[:200]) and all(agari.is_agari(a) for a in theirs[:200])
    std = {
        "native_check_win_per_s": rate(nat.check_win, ours, repeat),
        "native_call_per_s": rate(lambda c: tables.can_split_any(c, 0, targets), ours, repeat),
        "native_batch_per_s": batch_rate(tables, b"".join(bytes(c) for c in ours), n, 0, targets, repeat),
        "python_check_win_per_s": rate(ref.check_win, ours, repeat),
        "mahjong_is_agari_per_s": rate(agari.is_agari, theirs, repeat),
    }
    for k in ("native_check_win", "native_call", "native_batch"):
        std[f"{k}_ratio_to_is_agari"] = std[f"{k}_per_s"] / std["mahjong_is_agari_per_s"]
    out["standard"] = std
    # ---- four wildcards
    jn = load(ROOT / "bench" / "rules" / "joker.pai", backend="native")
    jp = load(ROOT / "bench" / "rules" / "joker.pai", backend="python")
    wild = []
    for _ in range(n):
        h = random_winning_hand(rnd, ("m", "p", "s"))
        for i in rnd.sample(range(14), 4):
            h[i] = None
        wild.append(counts_of(jn, h))
    jt = jn.catalog_for({})[1].structure.tables
    assert all(jn.check_win(c, 4) for c in wild[:200])
    w4 = {
        "native_check_win_per_s": rate(lambda c: jn.check_win(c, 4), wild, repeat),
        "native_call_per_s": rate(lambda c: jt.can_split_any(c, 4, [(4, 1)]), wild, repeat),
        "native_batch_per_s": batch_rate(jt, b"".join(bytes(c) for c in wild), n, 4, [(4, 1)], repeat),
        "python_check_win_per_s": rate(lambda c: jp.check_win(c, 4), wild, repeat),
        "target_per_s": 1_000_000,
    }
    out["wild4"] = w4
    return out


def cold_rate(fn, items) -> float:
    t0 = time.process_time()
    for it in items:
        fn(it)
    return len(items) / (time.process_time() - t0)


def scoring(n: int, seed: int, repeat: int) -> dict:
    """Whole-hand scoring per call: native and Python backends against the peers, on the same hands."""
    from hand_speed import GB_HONOR
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.tile import TilesConverter
    from MahjongGB import MahjongFanCalculator
    from mcr_crosscheck import gb, gb_packs, paili_args, random_hand

    rnd = random.Random(seed)
    out: dict = {"hands": n}
    # ---- 白金岛 against mahjong's HandCalculator
    nat = load(ROOT / "rules" / "baijindao.pai", backend="native")
    ref = load(ROOT / "rules" / "baijindao.pai", backend="python")
    warm, ours, mj = [], [], []
    for k in range(2 * n):
        h = random_winning_hand(rnd)
        w = rnd.randrange(14)
        rest = h[:w] + h[w + 1:]
        item = (" ".join(rest), h[w])
        if k < n:  # hands that warm the tables and caches before the cold pass
            warm.append(item)
            continue
        ours.append(item)
        man = "".join(t[0] for t in h if t[-1] == "m")
        hon = "".join(str(MJ34_HONOR[t] - 26) for t in h if t[-1] != "m")
        t136 = TilesConverter.string_to_136_array(man=man, honors=hon)
        w34 = int(h[w][0]) - 1 if h[w][-1] == "m" else MJ34_HONOR[h[w]]
        mj.append((t136, next(x for x in t136 if x // 4 == w34)))
    calc = HandCalculator()
    row: dict = {}
    for name, r in (("native", nat), ("python", ref)):
        for it in warm:
            r.score(it[0], None, it[1])
        row[f"{name}_cold_per_s"] = cold_rate(lambda it, r=r: r.score(it[0], None, it[1]), ours)
        row[f"{name}_per_s"] = rate(lambda it, r=r: r.score(it[0], None, it[1]), ours, repeat)
    row["mahjong_hand_calculator_per_s"] = rate(lambda it: calc.estimate_hand_value(it[0], it[1]), mj, 1)
    for a, b in zip(ours[:300], ours[:300]):
        assert nat.score(a[0], None, a[1]).to_json() == ref.score(b[0], None, b[1]).to_json()
    counted = [nc for nc in nat._counts.values() if nc is not None]
    row["native_counted_readings"] = sum(nc.calls for nc in counted)
    row["native_fallbacks"] = sum(nc.fallbacks for nc in counted)
    row["native_scored_hands"] = sum(nc.scorer.hands for nc in counted if nc.scorer is not None)
    row["native_score_fallbacks"] = sum(nc.scorer.fallbacks for nc in counted if nc.scorer is not None)
    for k in ("native", "native_cold", "python"):
        row[f"{k}_ratio_to_mahjong"] = row[f"{k}_per_s"] / row["mahjong_hand_calculator_per_s"]
    out["baijindao"] = row
    # ---- 国标 against PyMahjongGB
    nat = load(ROOT / "rules" / "guobiao.pai", backend="native")
    ref = load(ROOT / "rules" / "guobiao.pai", backend="python")
    hands = []
    while len(hands) < 2 * n:
        h = random_hand(rnd)
        if h is not None:
            hands.append(h)
    warm, hands = [paili_args(h) for h in hands[:n]], hands[n:]
    ours = [paili_args(h) for h in hands]
    theirs = [(gb_packs(h), tuple(gb(t) for t in h["concealed"]), gb(h["win"]), len(h["flowers"]), h["self_drawn"],
               h["fourth"], h["kong"], h["last"], h["seat"], h["round"]) for h in hands]
    assert GB_HONOR  # the same tile names as bench/hand_speed.py

    def gb_fan(a):
        try:
            MahjongFanCalculator(*a)
        except Exception:  # noqa: BLE001 - a hand it does not take is still a full evaluation
            pass

    row = {}
    for name, r in (("native", nat), ("python", ref)):
        for a in warm:
            r.score(*a)
        row[f"{name}_cold_per_s"] = cold_rate(lambda a, r=r: r.score(*a), ours)
        row[f"{name}_per_s"] = rate(lambda a, r=r: r.score(*a), ours, repeat)
    row["pymahjonggb_per_s"] = rate(gb_fan, theirs, repeat)
    for a in ours[:300]:
        assert nat.score(*a).to_json() == ref.score(*a).to_json()
    counted = [nc for nc in nat._counts.values() if nc is not None]
    row["native_counted_readings"] = sum(nc.calls for nc in counted)
    row["native_fallbacks"] = sum(nc.fallbacks for nc in counted)
    row["native_scored_hands"] = sum(nc.scorer.hands for nc in counted if nc.scorer is not None)
    row["native_score_fallbacks"] = sum(nc.scorer.fallbacks for nc in counted if nc.scorer is not None)
    for k in ("native", "native_cold", "python"):
        row[f"{k}_ratio_to_pymahjonggb"] = row[f"{k}_per_s"] / row["pymahjonggb_per_s"]
    out["guobiao"] = row
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--score-hands", type=int, default=2000, help="hands scored per rule set (0: no scoring)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from paili.runtime.backend import available

    if not available():
        print("the native core is not built (pip install -e . with a Rust toolchain)", file=sys.stderr)
        return 2
    out = run(args.hands, args.seed, args.repeat)
    names = ["standard", "wild4"]
    if args.score_hands:
        out["scoring"] = scoring(args.score_hands, args.seed, args.repeat)
        out.update({f"scoring_{k}": v for k, v in out["scoring"].items() if isinstance(v, dict)})
        names += ["scoring_baijindao", "scoring_guobiao"]
    if args.json:
        print(json.dumps(out))
        return 0
    for name in names:
        print(name)
        for k, v in out[name].items():
            print(f"  {k:40} {v:>14,.2f}" if "ratio" in k else f"  {k:40} {v:>14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
