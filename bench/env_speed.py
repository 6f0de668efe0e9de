"""Hands per second through the learning environment with random agents written in Python, side by side with
RiichiEnv and RLCard in one process.

    pip install -e ".[env,bench]"     # pettingzoo, numpy; riichienv and rlcard
    python bench/env_speed.py [--hands 200] [--seed 1] [--variants baijindao,longyan] [--repeat 2] [--json]
                              [--backend native|python]

- paili: `PailiEnv` (AEC: `last()`, a uniform random choice among the mask's legal actions, `step`), one
  hand an episode, every hand scored and settled; and `Tables.step_many` over 16 tables (a batched random
  agent: one uniform random legal action per table, drawn for all tables at once with numpy — one random
  number a table, the legal actions read from the masks' nonzero entries). Both agents read the int8 mask
  as truth values (`view(np.bool_)`, no copy) before `nonzero`, which numpy answers faster for them. `--backend`
  (default: the environment's own, the native engine where it is built): the engine under the environment.
- RiichiEnv (PyPI `riichienv`, a Rust riichi engine driven from Python): one kyoku a hand
  (`game_mode=0`), its own `RandomAgent` for every seat, MJAI logging off, scoring included.
- RLCard's `mahjong` environment with its random agents (`env.run`; no scoring).

The passes alternate (RiichiEnv, RLCard, paili …) and the best of `--repeat` counts, so the ratios are
measured under the same load; 10 untimed hands of each paili variant warm up first. Rates are per second
of the process's CPU time (`time.process_time`), so other work on a shared machine does not count. A progress bar with
hands/s shows on a terminal.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def riichienv_rate(hands: int, seed: int, tick) -> float | None:
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    agents = [RandomAgent(seed=seed + i) for i in range(4)]
    t0 = time.process_time()
    for h in range(hands):
        env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed * 100_003 + h)
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
        tick()
    return hands / (time.process_time() - t0)


def rlcard_rate(hands: int, seed: int, tick) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    t0 = time.process_time()
    for _ in range(hands):
        env.run(is_training=False)
        tick()
    return hands / (time.process_time() - t0)


def paili_rate(variant: str, options: dict, hands: int, seed: int, tick, backend=None) -> float:
    import numpy as np
    from paili.env import PailiEnv

    env = PailiEnv(variant, options, seed=seed, backend=backend)
    rng = random.Random(seed)
    t0 = time.process_time()
    for _ in range(hands):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            # (np.flatnonzero's result, without its dispatch; the int8 mask read as truth values, whose
            # nonzero numpy finds faster)
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
        tick()
    return hands / (time.process_time() - t0)


def paili_tables_rate(variant: str, options: dict, hands: int, seed: int, tick, tables: int = 16,
                      backend=None) -> float:
    """Hands/s of `Tables.step_many` over `tables` tables: moves per second over the moves a finished hand
    took (hands still open when the run stops are not counted as hands, nor as time wasted)."""
    import numpy as np
    from paili.env import Tables

    t = Tables(variant, tables, options, seed=seed, backend=backend)
    rng = np.random.default_rng(seed)
    _, masks, _ = t.reset()
    open_moves = np.zeros(tables, dtype=np.int64)
    finished_moves = steps = 0
    t0 = time.process_time()
    size = t.layout.size
    while t.hands_done < hands:
        # uniform among each table's legal actions: one draw a table, the draw-th legal action of its row
        # (the legal actions read as the flat positions of the masks' nonzero entries; the int8 masks read
        # as truth values, whose nonzero numpy finds several times faster than an int8 array's)
        flat = masks.view(np.bool_).reshape(-1).nonzero()[0]
        counts = np.bincount(flat // size, minlength=tables)
        first = np.cumsum(counts) - counts
        acts = flat[first + (rng.random(tables) * counts).astype(np.int64)] % size
        _, masks, _, _, done = t.step_many(acts)
        steps += tables
        open_moves += 1
        if done.any():
            finished_moves += int(open_moves[done].sum())
            open_moves[done] = 0
            for _ in range(int(done.sum())):
                tick()
    dt = time.process_time() - t0
    return (steps / dt) / (finished_moves / t.hands_done)


class _Bar:
    """A progress bar with hands/s on a terminal (rich), nothing otherwise."""

    def __init__(self, total: int, quiet: bool):
        self.bar = None
        if not quiet and sys.stderr.isatty():
            from paili.dsl.cli_game import progress_bar

            self.bar = progress_bar("hands", total, unit="hands")

    def __enter__(self):
        return self.bar.__enter__() if self.bar else (lambda: None)

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc) if self.bar else None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--variants", default="baijindao,baicheng,longyan,chehuzi")
    p.add_argument("--json", action="store_true")
    p.add_argument("--backend", default=None, help="native or python (default: the environment's own)")
    args = p.parse_args(argv)
    b = args.backend
    variants = [v for v in args.variants.split(",") if v]
    runs = 2 + 2 * len(variants)
    best: dict[str, float] = {}

    def keep(name, rate):
        if rate is not None:
            best[name] = max(best.get(name, 0.0), rate)

    for v in variants:  # untimed warm-up: imports, rule sets, block tables
        paili_rate(v, {}, 10, args.seed + 1000, lambda: None, b)
    with _Bar(runs * args.hands * args.repeat, args.json) as tick:
        for r in range(args.repeat):
            keep("riichienv", riichienv_rate(args.hands, args.seed + r, tick))
            keep("rlcard", rlcard_rate(args.hands, args.seed + r, tick))
            for v in variants:
                keep(f"paili {v} env", paili_rate(v, {}, args.hands, args.seed + r, tick, backend=b))
                keep(f"paili {v} step_many", paili_tables_rate(v, {}, args.hands, args.seed + r, tick, backend=b))
    from paili.runtime.backend import choose

    out = {"hands": args.hands, "repeat": args.repeat, "seed": args.seed, "backend": choose(b),
           "hands_per_second": {k: round(x, 1) for k, x in best.items()}}
    for ref in ("riichienv", "rlcard"):
        if ref in best:
            out[f"ratio_to_{ref}"] = {k: round(x / best[ref], 3) for k, x in best.items() if k.startswith("paili")}
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        for k, x in out["hands_per_second"].items():
            extra = "  ".join(f"{x / best[ref]:.2f}× {ref}" for ref in ("riichienv", "rlcard")
                              if ref in best and k.startswith("paili"))
            print(f"{k:28s} {x:8.1f} hands/s  {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
