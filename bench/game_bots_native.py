"""The greedy and efficiency bots playing a `Game` on each backend (runtime/game/native_bot.py `game_choice`):
on the native backend they choose on the native hand's state (engine/bot_play.rs), with no Python game
replayed beside it; on the Python backend the reference's bots read the Python game. For every
configuration and bot, the same seeded games played both ways: every move compared, the Python games made
beside native ones (`engine_mirrors`) and the hands handed back counted, and the CPU time of each backend
(getrusage, the backends alternated round by round, best of the rounds).

    python bench/game_bots_native.py [--games 50] [--rounds 2] [--configs baijindao,…] [--bots greedy,efficiency]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game_backend_speed import play  # noqa: E402  (bench/ is the script's folder: on sys.path)
from paili import load  # noqa: E402

CONFIGS = {"baijindao": ("rules/baijindao.pai", {}), "baicheng": ("rules/baicheng.pai", {}),
           "chehuzi": ("rules/chehuzi.pai", {}), "guobiao": ("rules/guobiao.pai", {}),
           "longyan-4": ("rules/longyan.pai", {"人数": 4}), "longyan-3": ("rules/longyan.pai", {"人数": 3}),
           "longyan-2": ("rules/longyan.pai", {"人数": 2}), "joker": ("bench/rules/joker.pai", {})}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--bots", default="greedy,efficiency")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.configs.split(","):
        path, options = CONFIGS[name]
        rules = load(ROOT / path, backend="native")
        seeds = list(range(1, args.games + 1))
        for bot in args.bots.split(","):
            play(rules, options, seeds[:2], "python", bot)  # warm: programs and tables made once
            play(rules, options, seeds[:2], "native", bot)
            before = rules.stats()
            times: dict = {"python": [], "native": []}
            logs: dict = {}
            for _ in range(args.rounds):
                for backend in ("python", "native"):
                    t, logs[backend] = play(rules, options, seeds, backend, bot)
                    times[backend].append(t)
            st = rules.stats()
            diff = sum(a != b for a, b in zip(logs["python"], logs["native"]))
            bad += diff
            py, nat = min(times["python"]), min(times["native"])
            print(json.dumps({"config": name, "bots": bot, "games": args.games,
                              "moves": sum(len(x) for x in logs["native"]), "different_games": diff,
                              "mirrors": (st["engine_mirrors"] - before["engine_mirrors"]) / args.rounds,
                              "fallbacks": (st["engine_fallbacks"] - before["engine_fallbacks"]) / args.rounds,
                              "python_cpu": round(py, 3), "native_cpu": round(nat, 3),
                              "ratio": round(py / nat, 2)}, ensure_ascii=False), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
