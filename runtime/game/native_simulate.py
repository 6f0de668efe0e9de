"""`paili simulate`'s native path: whole hands played by the native engine with native bots
(runtime/native/src/engine/simulate.rs `EngineSim`, bot_play.rs), one call per batch of hands, no Python
per move. Each hand is set up from its seed as `Session.new_hand` sets it up, its seats' bots are the
random, greedy and efficiency bots of bots.py seeded as `play_games` seeds them (`game_seed * 31 + i`), and
its tallies are the ones `play_games` makes of `Session.finish`'s result, so `summarize` gives the same
summary on both paths. A hand the native engine does not play to its end (a step it does not port, a
question it declines, an error the reference would note, an invariant it finds broken) is played again
by the reference from its seed and counted (`native_fallbacks`, the sentences in `native_refusals`).

The mixed bot, and logs (`--log`), stay on the Python path (`covers`).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

from ..backend import native_module
from .bots import EfficiencyBot, set_partners
from .native_bot import encoding
from .native_scope import set_scoring
from .session import Session
from .tallies import Tallies

NATIVE_BOTS = ("random", "greedy", "efficiency")
BATCH = 32  # hands per native call (the progress bar moves per batch)

_SIMS: dict = {}  # (id(rules), options text) -> (rules, EngineSim): one per rule set and options per process


def covers(rules, bots: list[str], log_dir) -> bool:
    """Whether the native path plays these games: the rules on the native backend with the native core
    built, every bot native, no logs asked."""
    return (log_dir is None and getattr(rules, "backend", None) == "native" and native_module() is not None
            and all(b in NATIVE_BOTS for b in bots))


def _action_flags(game) -> tuple[list[str], list[tuple]]:
    """The meld kinds by name (their ids) and per action what the bots read of it (native_bot `Encoding.move`)."""
    rs = game.rs
    shapes = [mk.name for mk in rs.melds]
    ids = {n: i for i, n in enumerate(shapes)}
    out = []
    for name, a in game.prog.actions.items():
        forms = list(a.forms)
        melds = [rs.meld(k) for k in forms]
        out.append((name, bool(a.wins),
                    not a.forms and not a.wins and bool(getattr(a.ir, "ready", False) or a.ir.then == "auto"),
                    bool(a.forms), bool(a.ir.select), any(m is not None and m.kong for m in melds),
                    ids.get(forms[0], -1) if forms else -1,
                    any(m is not None and m.shape.kind == "same" for m in melds)))
    return shapes, out


def engine(rules, options: dict | None):
    """The native simulation of a rule set under room options (built once per process), or None where
    the native engine does not take the rule set (the Python path plays it)."""
    key = (id(rules), json.dumps(options or {}, sort_keys=True, default=str))
    got = _SIMS.get(key)
    if got is not None and got[0] is rules:
        return got[1]
    mod = native_module()
    try:
        sim = mod.EngineSim(rules.ruleset_json(), dict(options or {}))
    except ValueError:  # NotCovered (a ValueError): the rule set plays in Python
        sim = None
    if sim is not None:
        game = Session(rules, options, 0, 1).new_hand()
        set_scoring(sim, game)
        bot = EfficiencyBot(0)
        enc = encoding(game, set_partners(game.rs))
        shapes, actions = _action_flags(game)
        sim.set_bots(enc.rules, shapes, actions, bot.measure(game), bot.value_measure(game))
    if len(_SIMS) >= 4:
        _SIMS.clear()
    _SIMS[key] = (rules, sim)
    return sim


def _score(pair) -> Fraction:
    """A score as `play_games` reads it: `Fraction(str(plain(score)))`, exact."""
    return Fraction(int(pair[0]), int(pair[1]))


def play(sim, indexed_seeds: list[tuple[int, int]], names: list[str], python, progress=None) -> dict:
    """`play_games`'s tallies for these games (index, seed), played natively by `sim` (`engine`) with the
    seats' bots `names`; `python(seeds)` plays the games the native engine hands back (the reference's
    `play_games` on those seeds: its tallies)."""
    t = Tallies()
    refused: Counter = Counter()
    fallbacks = 0
    n = sim.players()
    for b in range(0, len(indexed_seeds), BATCH):
        chunk = indexed_seeds[b:b + BATCH]
        hands = [(random.Random(s).randrange(1 << 31), [(name, s * 31 + i) for i, name in enumerate(names)])
                 for _, s in chunk]
        for (k, s), line in zip(chunk, sim.play(hands)):
            got = json.loads(line)
            res = got.get("over")
            if res is None:
                refused[got["refused"]] += 1
                fallbacks += 1
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
