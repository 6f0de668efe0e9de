"""`paili simulate`'s native path against the Python path (runtime/game/native_simulate.py): for every
configuration and bot, the same seeded games played both ways, the summaries compared key for key (all
but the timing keys and the native path's own extension keys), the hands the native engine handed back
counted by reason; and the native path's speed (hands per CPU second, one process, getrusage).

    python bench/native_simulate.py --games 1000                      # compare every configuration
    python bench/native_simulate.py --games 1000 --speed-only         # the speed figure alone
    python bench/native_simulate.py --configs baijindao --bots random,efficiency --games 200
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paili.runtime.game.simulate import play_games, play_games_python, seeds_of, summarize  # noqa: E402
from paili import load  # noqa: E402

CONFIGS = {  # name -> (rule file, room options)
    "baijindao": ("rules/baijindao.pai", {}),
    "baicheng": ("rules/baicheng.pai", {}),
    "chehuzi": ("rules/chehuzi.pai", {}),
    "guobiao": ("rules/guobiao.pai", {}),
    "longyan-4": ("rules/longyan.pai", {"人数": 4}),
    "longyan-3": ("rules/longyan.pai", {"人数": 3}),
    "longyan-2": ("rules/longyan.pai", {"人数": 2}),
    "joker": ("bench/rules/joker.pai", {}),
}
TIMING = ("seconds", "games_per_second")
NATIVE_KEYS = ("native_hands", "native_fallbacks", "native_refusals")


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def compare(name: str, bots: str, games: int, seed: int, speed_only: bool) -> dict:
    path, options = CONFIGS[name]
    native_rules = load(ROOT / path, backend="native")
    seeds = seeds_of(games, seed)
    c0 = cpu()
    nat = summarize([play_games(native_rules, seeds, bots, options)], games, bots, 1.0)
    c1 = cpu()
    out = {"config": name, "bots": bots, "games": games, "native_cpu": round(c1 - c0, 3),
           "native_hands_per_cpu_s": round(games / (c1 - c0), 1) if c1 > c0 else None,
           "native_hands": nat.get("native_hands"), "native_fallbacks": nat.get("native_fallbacks"),
           "native_refusals": nat.get("native_refusals")}
    if speed_only:
        return out
    ref_rules = load(ROOT / path, backend="native")  # the same backend, the Python engine per move
    c2 = cpu()
    ref = summarize([play_games_python(ref_rules, seeds, bots, options)], games, bots, 1.0)
    c3 = cpu()
    a = {k: v for k, v in nat.items() if k not in TIMING + NATIVE_KEYS}
    b = {k: v for k, v in ref.items() if k not in TIMING}
    diff = sorted(k for k in set(a) | set(b) if json.dumps(a.get(k), sort_keys=True, default=str)
                  != json.dumps(b.get(k), sort_keys=True, default=str))
    out.update({"python_cpu": round(c3 - c2, 3), "different_keys": diff, "wins": ref["wins"],
                "equal": not diff})
    if diff:
        out["native"] = {k: a.get(k) for k in diff}
        out["python"] = {k: b.get(k) for k in diff}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--bots", default="random,efficiency,greedy", help="bots to run, each on every seat")
    ap.add_argument("--speed-only", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.configs.split(","):
        for bots in args.bots.split(","):
            r = compare(name, bots, args.games, args.seed, args.speed_only)
            bad += not r.get("equal", True)
            print(json.dumps(r, ensure_ascii=False), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
