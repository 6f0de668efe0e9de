"""`paili simulate`'s native path against the Python path (runtime/game/native_simulate.py): for every
configuration and bot, the same seeded games played both ways, the summaries compared key for key (all
but the timing keys and the native path's own extension keys), the hands the native engine handed back
counted by reason; and the native path's speed (hands per CPU second, one process, getrusage).

    python bench/native_simulate.py --games 1000                      # compare every configuration
    python bench/native_simulate.py --games 1000 --speed-only         # the speed figure alone
    python bench/native_simulate.py --configs baijindao --bots random,efficiency --games 200
    python bench/native_simulate.py --engine-speed --games 1000       # EngineSim.play alone

`--engine-speed`: the CPU time of the native calls alone (`EngineSim.play` over the hands, in batches as
the native path makes them), the hands it plays to their end per CPU second, the hands it hands back
counted (their time, up to the refusal, included).
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paili import load  # noqa: E402
from paili.runtime.game.simulate import play_games, play_games_python, seeds_of, summarize  # noqa: E402

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


def engine_speed(name: str, bots: str, games: int, seed: int) -> dict:
    import random

    from paili.runtime.game import native_simulate

    path, options = CONFIGS[name]
    rules = load(ROOT / path, backend="native")
    sim = native_simulate.engine(rules, options)
    names = [bots] * sim.players()
    hands = [(random.Random(s).randrange(1 << 31), [(b, s * 31 + i) for i, b in enumerate(names)])
             for _, s in seeds_of(games, seed)]
    sim.play(hands[:4])  # the tables' first fill, once per process
    c0 = cpu()
    out = []
    for b in range(0, games, native_simulate.BATCH):
        out += sim.play(hands[b:b + native_simulate.BATCH])
    dt = cpu() - c0
    refused = sum(1 for line in out if line.startswith('{"refused"'))
    return {"config": name, "bots": bots, "games": games, "cpu": round(dt, 3), "over": games - refused,
            "refused": refused, "hands_per_cpu_s": round(games / dt, 1),
            "us_per_hand": round(dt / games * 1e6, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--bots", default="random,efficiency,greedy", help="bots to run, each on every seat")
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument("--engine-speed", action="store_true")
    args = ap.parse_args(argv)
    if args.engine_speed:
        for name in args.configs.split(","):
            for bots in args.bots.split(","):
                print(json.dumps(engine_speed(name, bots, args.games, args.seed), ensure_ascii=False), flush=True)
        return 0
    bad = 0
    for name in args.configs.split(","):
        for bots in args.bots.split(","):
            r = compare(name, bots, args.games, args.seed, args.speed_only)
            bad += not r.get("equal", True)
            print(json.dumps(r, ensure_ascii=False), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
