"""Simulation: many independent hands played by bots, with every invariant checked after every move.

Summary keys: games, wins, draws, pattern_counts (patterns in the winning hands), event_counts,
score_mean (mean score of the winning hands), invariant_violations (tiles not conserved, payments not
balancing, a bot's move refused as illegal or out of turn), plus eval_errors (rule expressions that
failed at run time), seconds and games_per_second.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

from ..rules import Rules, load
from . import log as gamelog
from .bots import BOTS
from .flow import IllegalMove
from .session import Session


def simulate(rules: Rules | str | Path, games: int, seed: int = 0, bots: str = "random",
             options: dict | None = None, log_dir: str | Path | None = None, rules_ref: str = "") -> dict:
    rules = rules if isinstance(rules, Rules) else load(rules)
    rng = random.Random(seed)
    wins = draws = 0
    patterns: Counter = Counter()
    events: Counter = Counter()
    scores: list = []
    violations: list[str] = []
    errors: Counter = Counter()
    t0 = time.perf_counter()
    for k in range(games):
        game_seed = rng.randrange(1 << 31)
        session = Session(rules, options, game_seed, 1)
        g = session.new_hand()
        players = [BOTS[bots](game_seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            seat = g.current_seats()[0]
            legal = g.legal_moves(seat)
            mv = players[seat].choose(g, seat, legal)
            try:
                g.apply(seat, mv)
            except IllegalMove as exc:
                violations.append(f"game {k}: {exc}")
                g.apply(seat, legal[0])
        res = session.finish(g)
        violations.extend(f"game {k}: {v}" for v in g.violations)
        errors.update(g.errors)
        events.update(res["events"])
        if res["winners"]:
            wins += 1
            for sc in res["scores"].values():
                scores.append(Fraction(str(sc["score"])))
                patterns.update(f["pattern"] for f in sc["fans"])
        else:
            draws += 1
        if log_dir is not None:
            Path(log_dir).mkdir(parents=True, exist_ok=True)
            gamelog.write(Path(log_dir) / f"game-{k + 1:05d}.jsonl", session, rules_ref)
    dt = time.perf_counter() - t0
    mean = sum(scores) / len(scores) if scores else 0
    return {
        "games": games, "wins": wins, "draws": draws,
        "pattern_counts": dict(patterns.most_common()), "event_counts": dict(sorted(events.items())),
        "score_mean": round(float(mean), 3), "invariant_violations": len(violations),
        "violations": violations[:20], "eval_errors": dict(errors.most_common(20)),
        "seconds": round(dt, 3), "games_per_second": round(games / dt, 1) if dt else None,
    }
