"""Game-engine speed (issue 5): complete hands per second for each bundled variant, one process.

    python bench/game_speed.py [--variants baijindao,baicheng,longyan,chehuzi] [--games N]
                               [--seed 1] [--bots random|greedy|mixed] [--no-check] [--json]

Each variant plays `--games` hands (default: 1,000 for 白金岛, 300 for the others) with the given bots
through `runtime.game.simulate.simulate` in this process (`workers=1`), invariant checks on unless
`--no-check`; a short untimed warm-up (100 hands on another seed) first, as a long-running server
would be warm. The rate counts complete hands, scoring of the wins included. Prints one line per
variant, or with `--json` a list of objects with the keys variant, games, seconds, games_per_second,
moves_per_game, wins, invariant_violations and target (the issue's rate for that variant, or null),
plus cpu_seconds and games_per_cpu_second (process CPU time: steadier than the wall clock on a shared
machine).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402
from paili.runtime.game.bots import BOTS  # noqa: E402
from paili.runtime.game.session import Session  # noqa: E402
from paili.runtime.game.simulate import simulate  # noqa: E402

VARIANTS = ["baijindao", "baicheng", "longyan", "chehuzi"]
DEFAULT_GAMES = {"baijindao": 1000}
TARGETS = {"baijindao": 1000, "baicheng": 300, "longyan": 300}


def _moves_per_game(rules, games: int, seed: int, bots: str) -> float:
    """Moves per hand, counted on a few hands of the same seed (an untimed side measurement)."""
    import random

    rng = random.Random(seed)
    total = 0
    n = min(games, 20)
    for _ in range(n):
        s = Session(rules, None, rng.randrange(1 << 31), 1)
        g = s.new_hand()
        players = [BOTS[bots](i) for i in range(g.n)]
        while not g.is_over():
            seat = g.current_seats()[0]
            g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
        total += len(g.moves)
    return round(total / n, 1) if n else 0.0


def run(variant: str, games: int, seed: int, bots: str, check: bool) -> dict:
    rules = load(ROOT / "rules" / f"{variant}.pai")
    simulate(rules, 100, seed + 1000, bots)  # warm-up: block tables, compiled closures
    if not check:
        from paili.runtime.game import flow

        orig = flow.Game.__init__

        def no_check(self, *a, **kw):
            kw["check"] = False
            orig(self, *a, **kw)
        flow.Game.__init__ = no_check
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        s = simulate(rules, games, seed, bots)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        if not check:
            flow.Game.__init__ = orig
    return {"variant": variant, "games": games, "seconds": round(dt, 3), "games_per_second": round(games / dt, 1),
            "cpu_seconds": round(cpu, 3), "games_per_cpu_second": round(games / cpu, 1),
            "moves_per_game": _moves_per_game(rules, games, seed, bots), "wins": s["wins"],
            "invariant_violations": s["invariant_violations"], "target": TARGETS.get(variant)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--games", type=int, default=None, help="hands per variant (default 1000 / 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random", choices=sorted(BOTS))
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = []
    for v in [x.strip() for x in args.variants.split(",") if x.strip()]:
        games = args.games or DEFAULT_GAMES.get(v, 300)
        r = run(v, games, args.seed, args.bots, not args.no_check)
        out.append(r)
        if not args.json:
            tgt = f"  (target {r['target']}/s)" if r["target"] else ""
            print(f"{v:10s} {r['games_per_second']:8.1f} games/s ({r['games_per_cpu_second']:.1f} per CPU second)  "
                  f"{r['games']} games in {r['seconds']} s, "
                  f"{r['moves_per_game']} moves/game, {r['wins']} wins, "
                  f"{r['invariant_violations']} invariant violations{tgt}", flush=True)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return 1 if any(r["invariant_violations"] for r in out) else 0


if __name__ == "__main__":
    sys.exit(main())
