"""paili's game engine side by side with RLCard's mahjong environment, in one process.

    pip install -e ".[bench]"       # RLCard
    python bench/rlcard_side_by_side.py [--games 300] [--seed 1] [--variants baicheng longyan] [--json]

Plays N complete games of RLCard's `mahjong` environment (4 players, random agents, `env.run`: the loop
RLCard's own examples use, with its state encoding; it scores nothing — a win is a win) and N games of
each paili variant with random bots through `runtime.game.simulate` (one process, invariant checks on,
every hand scored and settled). Prints games/s of each and the ratio paili / RLCard. The issue's target
is ≥ 300 games/s for the four-player variants, ten times RLCard's environment.

RLCard's bare game loop (`MahjongGame.step` with a random legal action, no state encoding) is timed as
well, as a second reference point. The runs alternate (RLCard, paili, RLCard, …) and the best pass of
`--repeat` counts, so the ratio is measured under the same machine load.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _rlcard():
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit("error: RLCard is not installed; `pip install -e \".[bench]\"` (or `pip install rlcard`)")
    import rlcard
    from rlcard.agents import RandomAgent

    return rlcard, RandomAgent


def rlcard_env_rate(games: int, seed: int) -> float:
    """Games/s of RLCard's mahjong environment with four random agents (`env.run`)."""
    rlcard, RandomAgent = _rlcard()
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    t0 = time.perf_counter()
    for _ in range(games):
        env.run(is_training=False)
    return games / (time.perf_counter() - t0)


def rlcard_game_rate(games: int, seed: int) -> float:
    """Games/s of RLCard's bare `MahjongGame` loop: a random legal action each step, no encoding."""
    _rlcard()
    from rlcard.games.mahjong.game import MahjongGame

    game = MahjongGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(games):
        state, _ = game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions(state)
            state, _ = game.step(legal[rng.randrange(len(legal))])
    return games / (time.perf_counter() - t0)


def paili_rate(rules, games: int, seed: int) -> tuple[float, dict]:
    from paili.runtime.game.simulate import simulate

    t0 = time.perf_counter()
    s = simulate(rules, games, seed=seed, bots="random")
    return games / (time.perf_counter() - t0), s


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300, help="games per engine and pass (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1, help="passes; the best of each counts (default 1)")
    p.add_argument("--variants", nargs="+", default=["baicheng", "longyan"], help="bundled paili variants")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        p.error("--games and --repeat must be at least 1")

    from paili.dsl.cli_args import UsageError, load_ruleset
    from paili.runtime.rules import Rules

    try:
        rules = {v: Rules(load_ruleset(v)) for v in args.variants}
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    best: dict[str, float] = {}
    checks: dict[str, dict] = {}

    def keep(name, rate):
        best[name] = max(best.get(name, 0.0), rate)

    for r in range(args.repeat):
        keep("rlcard_env", rlcard_env_rate(args.games, args.seed + r))
        keep("rlcard_game", rlcard_game_rate(args.games, args.seed + r))
        for v, rs in rules.items():
            rate, s = paili_rate(rs, args.games, args.seed + r)
            keep(v, rate)
            checks[v] = {"wins": s["wins"], "draws": s["draws"], "invariant_violations": s["invariant_violations"]}

    out = {
        "games": args.games, "repeat": args.repeat, "seed": args.seed,
        "games_per_second": {k: round(v, 1) for k, v in best.items()},
        "ratio_to_rlcard_env": {v: round(best[v] / best["rlcard_env"], 2) for v in rules},
        "ratio_to_rlcard_game": {v: round(best[v] / best["rlcard_game"], 2) for v in rules},
        "paili_checks": checks,
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        gps = out["games_per_second"]
        print(f"RLCard mahjong env.run (random agents): {gps['rlcard_env']:8.1f} games/s")
        print(f"RLCard MahjongGame loop (no encoding):  {gps['rlcard_game']:8.1f} games/s")
        for v in rules:
            print(f"paili {v:<33} {gps[v]:8.1f} games/s   ×{out['ratio_to_rlcard_env'][v]} env, "
                  f"×{out['ratio_to_rlcard_game'][v]} bare loop   ({checks[v]['wins']} won, "
                  f"{checks[v]['invariant_violations']} invariant violations)")
    return 1 if any(c["invariant_violations"] for c in checks.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
