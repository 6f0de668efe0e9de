"""Hand-evaluation speed, side by side with the peers on the same hands, in one run.

    python bench/hand_speed.py [--hands 20000] [--seed 1] [--json] [--quick]
    paili bench [--quick] [--json]          # the same

Measured (hands per second, best of --repeat passes over the same hand set):
- win_check: paili `Rules.check_win` on 白金岛 (万 + honors) standard 14-tile winning hands, given as
  counts per tile kind, against `mahjong`'s `Agari.is_agari` on the same hands as 34-count arrays.
- scoring: full 白金岛 scoring `Rules.score` (parse the hand, every reading, every pattern, exclusions,
  waits, the score) against `mahjong`'s `HandCalculator.estimate_hand_value` and `pymahjonggb`'s
  `MahjongFanCalculator` on the same tiles (each in its own notation, prepared before timing).
- wild4_win_check: paili win checks of hands holding four jokers (bench/rules/joker.pai: 136 tiles
  + 4 王), target 100,000 per second.

paili keeps the per-block tables it builds (runtime/fastwin.py) for the life of a rule set, as a game
server does; each measurement is taken after one untimed pass over the same hands, which builds them.
The first, cold pass is reported too (`*_cold_per_s`).

Scoring uses the rule set's generated evaluator (runtime/fastscore.py); `scoring.paili_fallbacks`
counts the readings it handed to the reference evaluator during the run (0 expected on these hands).
No result is cached across hands: every pass parses each hand and evaluates its readings and patterns.

JSON keys: win_check.{paili_per_s, paili_cold_per_s, mahjong_is_agari_per_s, ratio};
scoring.{paili_per_s, paili_cold_per_s, mahjong_hand_calculator_per_s, pymahjonggb_per_s,
ratio_vs_mahjong, ratio_vs_pymahjonggb, paili_fallbacks}; wild4_win_check.{paili_per_s,
paili_cold_per_s, target_per_s, ratio_to_target}; hands; seed; quick.

`targets` (where the native core is built): the ratios issue 15 sets targets for, measured here by
bench/native_speed.py and bench/batch_speed.py (their figures, CPU time), each as {ratio, target, met}:
`check_win_vs_is_agari` (`Rules.check_win` against `Agari.is_agari`, target 5), `wild4_check_win_per_s`
(`Rules.check_win` of hands holding four wildcards, per second against 1,000,000; `wild4_native_call_per_s`
the same by one extension call per hand), `score_guobiao_cold_vs_mahjong_fan_calculator` (`Rules.score`
per call on 国标 hands new to it against `MahjongFanCalculator`, target 1),
`score_baijindao_cold_vs_hand_calculator` (the same on 白金岛 hands against `mahjong`'s `HandCalculator`,
target 1),
`batch_baijindao_vs_mahjong` (target 5) and `batch_guobiao_vs_pymahjonggb` (target 1): `paili score
--batch --json` as a whole process against the peers' drivers; with `--quick` on a few hundred hands,
where process start-up weighs more than it does in bench/batch_speed.py's thousands.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402

HONORS = ["东", "南", "西", "北", "白", "发", "中"]
MJ34_HONOR = {"东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "中": 33}
GB_HONOR = {"东": "F1", "南": "F2", "西": "F3", "北": "F4", "中": "J1", "发": "J2", "白": "J3"}


def random_winning_hand(rnd: random.Random, suits=("m",), honors=HONORS) -> list[str]:
    """Four groups and a pair, as tile codes like '5m' or honor characters, respecting 4 copies."""
    left: dict[str, int] = {}
    kinds = [f"{r}{s}" for s in suits for r in range(1, 10)] + list(honors)
    for k in kinds:
        left[k] = 4
    tiles: list[str] = []
    while len(tiles) < 12:
        if rnd.random() < 0.5:
            s = rnd.choice(suits)
            r = rnd.randint(1, 7)
            group = [f"{r}{s}", f"{r + 1}{s}", f"{r + 2}{s}"]
        else:
            group = [rnd.choice(kinds)] * 3
        if all(left[t] >= group.count(t) for t in group):
            for t in group:
                left[t] -= 1
            tiles += group
    pair = rnd.choice([k for k, n in left.items() if n >= 2])
    return tiles + [pair, pair]


def rate(fn, items, repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        dt = time.perf_counter() - t0
        best = max(best, len(items) / dt if dt > 0 else float("inf"))
    return best


def once(fn, items) -> float:
    t0 = time.perf_counter()
    for it in items:
        fn(it)
    return len(items) / (time.perf_counter() - t0)


def run(n_hands: int, seed: int, repeat: int, n_score: int) -> dict:
    rnd = random.Random(seed)
    bjd = load(ROOT / "rules" / "baijindao.pai")
    cat = bjd.catalog
    hands = [random_winning_hand(rnd) for _ in range(n_hands)]

    # ---- win check
    def counts_of(h):
        c = [0] * len(cat.kinds)
        for t in h:
            c[cat.by_name[bjd.notation.parse(t)[0]].index] += 1
        return tuple(c)

    ours = [counts_of(h) for h in hands]

    def mj34(h):
        a = [0] * 34
        for t in h:
            a[int(t[0]) - 1 if t[-1] == "m" else MJ34_HONOR[t]] += 1
        return a

    theirs = [mj34(h) for h in hands]
    from mahjong.agari import Agari

    agari = Agari()
    assert all(bjd.check_win(c) for c in ours[:200]) and all(agari.is_agari(a) for a in theirs[:200])
    cold = once(lambda c: bjd.check_win(c), ours)
    win = {"paili_per_s": rate(lambda c: bjd.check_win(c), ours, repeat), "paili_cold_per_s": cold,
           "mahjong_is_agari_per_s": rate(agari.is_agari, theirs, repeat)}
    win["ratio"] = win["paili_per_s"] / win["mahjong_is_agari_per_s"]

    # ---- full scoring
    score_hands = hands[:n_score]
    ours_s = []
    mj_s = []
    gb_s = []
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.tile import TilesConverter
    from MahjongGB import MahjongFanCalculator

    for h in score_hands:
        w = rnd.randrange(14)
        rest = h[:w] + h[w + 1:]
        ours_s.append((" ".join(rest), h[w]))
        man = "".join(t[0] for t in h if t[-1] == "m")
        hon = "".join(str(MJ34_HONOR[t] - 26) for t in h if t[-1] != "m")
        t136 = TilesConverter.string_to_136_array(man=man, honors=hon)
        wt = h[w]
        w34 = int(wt[0]) - 1 if wt[-1] == "m" else MJ34_HONOR[wt]
        win136 = next(x for x in t136 if x // 4 == w34)
        mj_s.append((t136, win136))
        gb = tuple(f"W{t[0]}" if t[-1] == "m" else GB_HONOR[t] for t in rest)
        gb_s.append((gb, f"W{wt[0]}" if wt[-1] == "m" else GB_HONOR[wt]))
    calc = HandCalculator()

    def gb_fan(item):
        try:
            MahjongFanCalculator(pack=(), hand=item[0], winTile=item[1], flowerCount=0, isSelfDrawn=False,
                                 is4thTile=False, isAboutKong=False, isWallLast=False, seatWind=0,
                                 prevalentWind=0)
        except TypeError:  # ERROR_NOT_WIN and the like: still a full evaluation
            pass

    assert all(bjd.score(h, None, w).win for h, w in ours_s[:50])
    cold = once(lambda it: bjd.score(it[0], None, it[1]), ours_s)
    sc = {"paili_per_s": rate(lambda it: bjd.score(it[0], None, it[1]), ours_s, repeat),
          "paili_cold_per_s": cold,
          "mahjong_hand_calculator_per_s": rate(lambda it: calc.estimate_hand_value(it[0], it[1]), mj_s, 1),
          "pymahjonggb_per_s": rate(gb_fan, gb_s, repeat)}
    sc["paili_fallbacks"] = bjd.fast.fallbacks if bjd.fast is not None else None
    sc["ratio_vs_mahjong"] = sc["paili_per_s"] / sc["mahjong_hand_calculator_per_s"]
    sc["ratio_vs_pymahjonggb"] = sc["paili_per_s"] / sc["pymahjonggb_per_s"]

    # ---- four wildcards
    jk = load(ROOT / "bench" / "rules" / "joker.pai")
    jcat = jk.catalog
    wild_hands = []
    for _ in range(n_hands):
        h = random_winning_hand(rnd, ("m", "p", "s"))
        for i in rnd.sample(range(14), 4):
            h[i] = None
        c = [0] * len(jcat.kinds)
        for t in h:
            if t is not None:
                c[jcat.by_name[jk.notation.parse(t)[0]].index] += 1
        wild_hands.append(tuple(c))
    assert all(jk.check_win(c, 4) for c in wild_hands[:200])
    cold = once(lambda c: jk.check_win(c, 4), wild_hands)
    wild = {"paili_per_s": rate(lambda c: jk.check_win(c, 4), wild_hands, repeat), "paili_cold_per_s": cold,
            "target_per_s": 100_000}
    wild["ratio_to_target"] = wild["paili_per_s"] / wild["target_per_s"]
    return {"hands": n_hands, "seed": seed, "win_check": win, "scoring": sc, "wild4_win_check": wild}


def targets(quick: bool, seed: int) -> dict:
    """Issue 15's ratios with their targets (module docstring), or {} without the native core."""
    from paili.runtime.backend import available

    if not available():
        return {}
    sys.path.insert(0, str(ROOT / "bench"))
    import batch_speed
    import native_speed

    n, score_n, batch_n, repeat = (3000, 1000, 300, 2) if quick else (20000, 2000, 3000, 3)
    win = native_speed.run(n, seed, repeat)
    sc = native_speed.scoring(score_n, seed, repeat)
    batch = batch_speed.measure(batch_n, seed)
    rows = {
        "check_win_vs_is_agari": (win["standard"]["native_check_win_ratio_to_is_agari"], 5),
        "wild4_check_win_per_s": (win["wild4"]["native_check_win_per_s"] / 1_000_000, 1),
        "wild4_native_call_per_s": (win["wild4"]["native_call_per_s"] / 1_000_000, 1),
        "score_guobiao_cold_vs_mahjong_fan_calculator": (sc["guobiao"]["native_cold_ratio_to_pymahjonggb"], 1),
        "score_baijindao_cold_vs_hand_calculator": (sc["baijindao"]["native_cold_ratio_to_mahjong"], 1),
        "batch_baijindao_vs_mahjong": (batch["baijindao"]["native_ratio_to_mahjong"], 5),
        "batch_guobiao_vs_pymahjonggb": (batch["guobiao"]["native_ratio_to_pymahjonggb"], 1),
    }
    return {k: {"ratio": round(r, 4), "target": t, "met": r >= t} for k, (r, t) in rows.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--score-hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer hands (a few seconds)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.hands, args.score_hands, args.repeat = 3000, 300, 2
    out = run(args.hands, args.seed, args.repeat, args.score_hands)
    out["quick"] = args.quick
    out["targets"] = targets(args.quick, args.seed)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        w, s, j = out["win_check"], out["scoring"], out["wild4_win_check"]
        print(f"win check      paili {w['paili_per_s']:>10,.0f}/s (cold {w['paili_cold_per_s']:,.0f})   "
              f"mahjong is_agari {w['mahjong_is_agari_per_s']:>10,.0f}/s   ratio {w['ratio']:.2f}")
        print(f"scoring        paili {s['paili_per_s']:>10,.0f}/s (cold {s['paili_cold_per_s']:,.0f})   "
              f"HandCalculator {s['mahjong_hand_calculator_per_s']:>10,.0f}/s   "
              f"pymahjonggb {s['pymahjonggb_per_s']:>10,.0f}/s   ratios {s['ratio_vs_mahjong']:.2f} / "
              f"{s['ratio_vs_pymahjonggb']:.3f}")
        print(f"4 wildcards    paili {j['paili_per_s']:>10,.0f}/s (cold {j['paili_cold_per_s']:,.0f})   "
              f"target 100,000/s   ratio {j['ratio_to_target']:.2f}")
        for k, t in out["targets"].items():
            print(f"issue 15       {k:46} {t['ratio']:>9.3f}   target {t['target']}   "
                  f"{'met' if t['met'] else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
