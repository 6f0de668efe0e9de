"""CPU time of hands played through `Game` on each backend (runtime/game/native_game.py): seeded games of
each configuration played by random bots (which read nothing of the game but its legal moves), the moves
applied, the snapshot-free result taken at the end, as `paili simulate --bots random` plays them; rounds
alternate the backends, CPU time by getrusage.

    python bench/game_backend_speed.py [--games 100] [--rounds 3] [--configs baijindao,…] [--bots random]
"""
from __future__ import annotations

import argparse
import resource
from pathlib import Path

from paili import load
from paili.runtime.game.bots import BOTS
from paili.runtime.game.flow import Game

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = {"baijindao": ("baijindao", {}), "baicheng": ("baicheng", {}), "chehuzi": ("chehuzi", {}),
           "guobiao": ("guobiao", {}), "longyan-4": ("longyan", {"人数": 4}), "longyan-3": ("longyan", {"人数": 3}),
           "longyan-2": ("longyan", {"人数": 2}), "joker": (str(ROOT / "bench/rules/joker.pai"), {})}


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def play(rules, options: dict, seeds: list[int], backend: str, bot: str = "random") -> tuple[float, list[list[str]]]:
    """The CPU time of the seeded games and each game's moves (seat and move text; bench/game_bots_native.py
    compares them across backends)."""
    logs = []
    t0 = cpu()
    for seed in seeds:
        g = Game(rules, options, seed, backend=backend)
        bots = [BOTS[bot](seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            s = g.current_seats()[0]
            g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
        g.result()
        logs.append([f"{s} {m}" for s, m in g.moves])
    return cpu() - t0, logs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--bots", default="random", choices=sorted(BOTS),
                    help="the seats' bot (greedy, mixed, efficiency read the game: a Python game beside the native)")
    args = ap.parse_args()
    for name in args.configs.split(","):
        stem, options = CONFIGS[name]
        rules = load(stem, backend="native")
        seeds = list(range(1, args.games + 1))
        play(rules, options, seeds[:3], "python", args.bots)  # warm: the rule set's programs and tables made once
        play(rules, options, seeds[:3], "native", args.bots)
        before = rules.stats()
        times = {"python": [], "native": []}
        for _ in range(args.rounds):
            for backend in ("python", "native"):
                times[backend].append(play(rules, options, seeds, backend, args.bots)[0])
        st = rules.stats()
        fb = st["engine_fallbacks"] - before["engine_fallbacks"]
        py, nat = min(times["python"]), min(times["native"])
        mirrors = (st["engine_mirrors"] - before["engine_mirrors"]) / args.rounds
        print(f"{name}: {args.games} games, {args.bots} bots, {mirrors:.0f} Python games beside native ones; "
              f"CPU s (best of {args.rounds}): python {py:.2f}, native {nat:.2f} "
              f"({py / nat:.2f}×); {fb / args.rounds:.0f} of {args.games} hands went on in Python", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
