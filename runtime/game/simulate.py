"""Simulation: many independent hands played by bots, with every invariant checked after every move.

Summary keys: games, bots (each seat's bot), wins, draws, pattern_counts (patterns in the winning hands),
event_counts, score_mean (mean score of the winning hands, rounded; score_mean_exact: exact),
invariant_violations (tiles not conserved, payments not balancing, a bot's move refused as illegal or out of
turn), plus wins_by_seat and win_rate_by_seat (hands each seat won, and that over games; with several winners
of one hand each counts), draw_rate, the spread of the winning scores (score_stdev, the population standard
deviation; score_min, score_max, and their exact twins score_min_exact, score_max_exact: runtime/money.py),
eval_errors (rule expressions that failed at run time), seconds and games_per_second, and for mechanism
coverage: payment_counts (hands in which each named payment moved money), draw_payment_counts (the same over
the drawn hands only) and multiple_wins (hands won by more than one player) and task_counts (hands won with
the hand's task completed, by task). When the native engine played the games (runtime/game/native_simulate.py):
native_hands (hands it played to their end), native_fallbacks (hands it handed back, played again by the
Python engine) and native_refusals (the ten commonest reasons, with their counts).
"""
from __future__ import annotations

import math
import random
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

from ..money import exact
from ..rules import Rules, load
from . import log as gamelog
from . import native_simulate
from .bots import BOTS
from .flow import GameError, IllegalMove
from .session import Session
from .tallies import Tallies


def play_games(rules: Rules, indexed_seeds: list[tuple[int, int]], bots, options: dict | None,
               log_dir=None, rules_ref: str = "", progress=None) -> dict:
    """Play the given games (index, seed) and return their raw tallies, for `summarize` (one process,
    `workers` processes and a Ray cluster, paili/cluster.py, all play their games with this). With the
    rules on the native backend and native bots, the native engine plays them
    (runtime/game/native_simulate.py; the same tallies, the same logs), else `play_games_python`."""
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    if indexed_seeds and native_simulate.covers(rules, names):
        sim = native_simulate.engine(rules, options)
        if sim is not None:
            log = None if log_dir is None else (lambda k, s, chosen: native_simulate.write_log(
                rules, options, k, s, chosen, log_dir, rules_ref))
            return native_simulate.play(sim, indexed_seeds, seat_bots(bots, sim.players()), lambda seeds: (
                play_games_python(rules, seeds, bots, options, log_dir, rules_ref)), progress, log)
    return play_games_python(rules, indexed_seeds, bots, options, log_dir, rules_ref, progress)


def play_games_python(rules: Rules, indexed_seeds: list[tuple[int, int]], bots, options: dict | None,
                      log_dir=None, rules_ref: str = "", progress=None) -> dict:
    """`play_games` by the Python engine, move by move (the reference)."""
    t = Tallies()
    seats = 0
    for k, game_seed in indexed_seeds:
        session = Session(rules, options, game_seed, 1, backend="python")
        g = session.new_hand()
        players = [BOTS[name](game_seed * 31 + i) for i, name in enumerate(seat_bots(bots, g.n))]
        while not g.is_over():
            seat = g.current_seats()[0]
            legal = g.legal_moves(seat)
            mv = players[seat].choose(g, seat, legal)
            try:
                g.apply(seat, mv)
            except IllegalMove as exc:
                t.violations.append(f"game {k}: {exc}")
                g.apply(seat, legal[0])
        res = session.finish(g)
        seats = g.n
        t.violations.extend(f"game {k}: {v}" for v in g.violations)
        t.errors.update(g.errors)
        t.hand(res["winners"], res["events"], {p["name"] for p in res["payments"]}, res["task"],
               [(Fraction(str(sc["score"])), sc.get("task_factor", 1) != 1, [f["pattern"] for f in sc["fans"]])
                for sc in res["scores"].values()])
        if log_dir is not None:
            Path(log_dir).mkdir(parents=True, exist_ok=True)
            gamelog.write(Path(log_dir) / f"game-{k + 1:05d}.jsonl", session, rules_ref)
        if progress is not None:
            progress()
    return t.as_part(seats)


DEFAULT_BOT = "efficiency"  # `paili simulate`'s bots unless --bots says otherwise

_WORKER_RULES: Rules | None = None


def _worker_init(ruleset_json: str, backend: str) -> None:
    """Each worker process loads the rule set once, from its compiled JSON (closures do not pickle), on the
    backend of the caller's rule set (the same machine: the summary is the one process's, native keys too)."""
    global _WORKER_RULES
    from ..ir.serialize import loads

    _WORKER_RULES = Rules(loads(ruleset_json), backend, ruleset_json=ruleset_json)  # the native core's input


def _worker_play(args) -> dict:
    chunk, bots, options, log_dir, rules_ref = args
    assert _WORKER_RULES is not None
    return play_games(_WORKER_RULES, chunk, bots, options, log_dir, rules_ref)


def seat_bots(bots: str | list[str] | tuple[str, ...], seats: int) -> list[str]:
    """The bot of each seat: one name for every seat, or one name per seat (a list, or names separated
    by commas). GameError (one sentence) for an unknown name or a list of the wrong length."""
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise GameError(f"unknown bot {unknown[0][:40]!r}: the bots are {', '.join(BOTS)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise GameError(f"{len(names)} bots named for {seats} seats: name one bot, or one for each seat")
    return names


def _by_count(c: Counter) -> dict:
    """A tally as a dict, most frequent first, ties by name: independent of the order games ran in."""
    return dict(sorted(c.items(), key=lambda kv: (-kv[1], str(kv[0]))))


def simulate(rules: Rules | str | Path, games: int, seed: int = 0, bots: str | list[str] = DEFAULT_BOT,
             options: dict | None = None, log_dir: str | Path | None = None, rules_ref: str = "",
             workers: int = 1, progress=None) -> dict:
    """Play `games` independent hands. Game k's seed is the k-th draw of random.Random(seed), so the
    result does not depend on `workers` (the games are split into contiguous chunks, one per process,
    and their tallies merged in game order); only `seconds` and `games_per_second` differ."""
    rules = rules if isinstance(rules, Rules) else load(rules)
    seeds = seeds_of(games, seed)
    t0 = time.perf_counter()
    if workers <= 1 or games < 2:
        parts = [play_games(rules, seeds, bots, options, log_dir, rules_ref, progress)]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from ..ir.serialize import dumps

        n = min(workers, games)
        size = -(-games // n)
        chunks = [seeds[i:i + size] for i in range(0, games, size)]
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() \
            else multiprocessing.get_context()
        with ProcessPoolExecutor(n, mp_context=ctx, initializer=_worker_init,
                                 initargs=(dumps(rules.ir), rules.backend)) as ex:
            parts = []
            for part in ex.map(_worker_play, [(c, bots, options, log_dir, rules_ref) for c in chunks]):
                parts.append(part)
                if progress is not None:
                    for _ in range(part["wins"] + part["draws"]):
                        progress()
    return summarize(parts, games, bots, time.perf_counter() - t0)


def seeds_of(games: int, seed: int) -> list[tuple[int, int]]:
    """Each game's (index, seed): game k's seed is the k-th draw of random.Random(seed)."""
    rng = random.Random(seed)
    return [(k, rng.randrange(1 << 31)) for k in range(games)]


def summarize(parts: list[dict], games: int, bots, dt: float) -> dict:
    """The summary of `play_games` tallies, given in game order (the module's docstring: its keys); `dt`
    is the wall time the games took."""
    t = Tallies()
    for part in parts:
        t.merge(part)
    scores, violations, by_seat = t.scores, t.violations, t.by_seat
    mean = sum(scores) / len(scores) if scores else 0
    stdev = math.sqrt(sum((x - mean) ** 2 for x in scores) / len(scores)) if scores else 0.0
    seats = max(p["seats"] for p in parts)
    wins_by_seat = [by_seat[i] for i in range(seats)]
    out = {
        "games": games, "bots": seat_bots(bots, seats), "wins": t.wins,
        "draws": t.draws,
        "pattern_counts": _by_count(t.patterns), "event_counts": dict(sorted(t.events.items())),
        "score_mean": round(float(mean), 3), "invariant_violations": len(violations),
        "violations": violations[:20], "eval_errors": dict(list(_by_count(t.errors).items())[:20]),
        "seconds": round(dt, 3), "games_per_second": round(games / dt, 1) if dt else None,
        "payment_counts": _by_count(t.paid), "draw_payment_counts": _by_count(t.draw_paid),
        "multiple_wins": t.multiple, "task_counts": _by_count(t.tasks),
        "wins_by_seat": wins_by_seat, "win_rate_by_seat": [round(w / games, 4) for w in wins_by_seat],
        "draw_rate": round(t.draws / games, 4),
        "score_stdev": round(stdev, 3), "score_min": _plain(min(scores)) if scores else None,
        "score_max": _plain(max(scores)) if scores else None,
        "score_mean_exact": exact(mean), "score_min_exact": exact(min(scores)) if scores else None,
        "score_max_exact": exact(max(scores)) if scores else None,
    }
    native = [p["native"] for p in parts if "native" in p]
    if native:  # the native path (runtime/game/native_simulate.py): hands it played, hands played again in Python
        refused: Counter = Counter()
        for n in native:
            refused.update(n["refused"])
        out["native_hands"] = sum(n["hands"] for n in native)
        out["native_fallbacks"] = sum(n["fallbacks"] for n in native)
        out["native_refusals"] = dict(list(_by_count(refused).items())[:10])
    return out


def _plain(x: Fraction):
    """A score as JSON shows it: a whole number as an int, else a float."""
    return int(x) if x.denominator == 1 else float(x)
