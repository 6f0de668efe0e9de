"""`paili simulate`'s native path: whole hands played by the native engine with native bots
(runtime/native/src/engine/simulate.rs `EngineSim`, bot_play.rs), one call per batch of hands, no Python
per move. Each hand is set up from its seed as `Session.new_hand` sets it up, its seats' bots are the
random, greedy, efficiency and mixed bots of bots.py seeded as `play_games` seeds them (`game_seed * 31 + i`), and
its tallies are the ones `play_games` makes of `Session.finish`'s result, so `summarize` gives the same
summary on both paths. A hand the native engine does not play to its end (a step it does not port, a
question it declines, an error the reference would note, an invariant it finds broken) is played again
by the reference from its seed and counted (`native_fallbacks`, the sentences in `native_refusals`).
The invariants are the reference's, checked as `Game._check_move` checks them (the number of tiles and the
money at every decision, every tile by kind at the end: simulate.rs); a hand that breaks one is also a
violation of the summary (`invariant_violations`, "game K: the native hand: …"), so `paili simulate`
fails as it does when the Python engine breaks one.

With `--log`, each hand the native engine played is logged as the Python path logs it: the moves its bots
chose (`EngineSim.play(hands, moves=True)`: their indices among the legal moves) are replayed on the native
`Game` (runtime/game/native_game.py, whose states and results are the reference's) by a `Session`, and the
session written (`write_log`); a hand whose moves do not replay is played again by the reference (counted).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

from ..backend import native_module
from . import log as gamelog
from .bots import EfficiencyBot, set_partners
from .flow import Game
from .native_bot import action_flags, encoding
from .native_pool import typed_options
from .native_scope import set_scoring
from .session import Session
from .tallies import Tallies

NATIVE_BOTS = ("random", "greedy", "efficiency", "mixed")
BATCH = 32  # hands per native call (the progress bar moves per batch)

_SIMS: dict = {}  # (id(rules), options text) -> (rules, EngineSim): one per rule set and options per process


def covers(rules, bots: list[str]) -> bool:
    """Whether the native path plays these games: the rules on the native backend with the native core
    built, every bot native."""
    return (getattr(rules, "backend", None) == "native" and native_module() is not None
            and all(b in NATIVE_BOTS for b in bots))


def engine(rules, options: dict | None):
    """The native simulation of a rule set under room options (built once per process), or None where
    the native engine does not take the rule set (the Python path plays it)."""
    key = (id(rules), json.dumps(options or {}, sort_keys=True, default=str))
    got = _SIMS.get(key)
    if got is not None and got[0] is rules:
        return got[1]
    mod = native_module()
    typed = typed_options(Game.prepared(rules, options, 0, {}))  # (options given as text: `--set`)
    try:
        sim = mod.EngineSim(rules.ruleset_json(), typed)
    except ValueError:  # NotCovered (a ValueError): the rule set plays in Python
        sim = None
    if sim is not None:
        game = Session(rules, options, 0, 1, backend="python").new_hand()  # (what the bots' data is made of)
        set_scoring(sim, game)
        bot = EfficiencyBot(0)
        enc = encoding(game, set_partners(game.rs))
        shapes, actions = action_flags(game)
        sim.set_bots(enc.rules, shapes, actions, bot.measure(game), bot.value_measure(game))
    if len(_SIMS) >= 4:
        _SIMS.clear()
    _SIMS[key] = (rules, sim)
    return sim


def _score(pair) -> Fraction:
    """A score as `play_games` reads it: `Fraction(str(plain(score)))`, exact."""
    return Fraction(int(pair[0]), int(pair[1]))


def write_log(rules, options: dict | None, k: int, game_seed: int, chosen: list[int], log_dir, rules_ref: str) -> bool:
    """Log game k (`game-{k+1:05d}.jsonl` in `log_dir`, as `play_games_python` writes it): the hand replayed
    on the native `Game` by the moves the native bots chose (`chosen`: each move's index among the legal
    moves of `current_seats()[0]`). False (nothing written) when the moves do not replay to the hand's end."""
    session = Session(rules, options, game_seed, 1, backend="native")
    g = session.new_hand()
    for i in chosen:
        seats = g.current_seats()
        legal = g.legal_moves(seats[0]) if seats else []
        if i >= len(legal):
            return False
        g.apply(seats[0], legal[i])
    if not g.is_over():
        return False
    session.finish(g)
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    gamelog.write(Path(log_dir) / f"game-{k + 1:05d}.jsonl", session, rules_ref)
    return True


def play(sim, indexed_seeds: list[tuple[int, int]], names: list[str], python, progress=None, log=None) -> dict:
    """`play_games`'s tallies for these games (index, seed), played natively by `sim` (`engine`) with the
    seats' bots `names`; `python(seeds)` plays the games the native engine hands back (the reference's
    `play_games` on those seeds: its tallies, and their logs when logs are asked). `log(k, seed, chosen)`,
    when given, logs a hand played natively (`write_log`; False: its moves did not replay, and the hand is
    played again by `python`)."""
    t = Tallies()
    refused: Counter = Counter()
    fallbacks = 0
    n = sim.players()
    for b in range(0, len(indexed_seeds), BATCH):
        chunk = indexed_seeds[b:b + BATCH]
        hands = [(random.Random(s).randrange(1 << 31), [(name, s * 31 + i) for i, name in enumerate(names)])
                 for _, s in chunk]
        for (k, s), line in zip(chunk, sim.play(hands) if log is None else sim.play(hands, True)):
            got = json.loads(line)
            res = got.get("over")
            if res is not None and log is not None and not log(k, s, res["chosen"]):
                got, res = {"refused": "the native hand's moves do not replay on the native Game"}, None
            if res is None:
                refused[got["refused"]] += 1
                fallbacks += 1
                if "invariant" in got:  # a native bug: reported as the reference reports its own violations
                    t.violations.append(f"game {k}: the native hand: {got['invariant']}")
                t.merge(python([(k, s)]))
                continue
            t.hand(res["winners"], res["events"], set(res["payments"]), res["task"],
                   [(_score(sc["score"]), _score(sc["task_factor"]) != 1, sc["fans"]) for sc in res["scores"]])
        if progress is not None:
            for _ in chunk:
                progress()
    out = t.as_part(n)
    out["native"] = {"hands": len(indexed_seeds) - fallbacks, "fallbacks": fallbacks, "refused": refused}
    return out
