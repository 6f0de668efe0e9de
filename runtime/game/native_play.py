"""The differential check of the hand played natively (runtime/native/src/engine/steps.rs, turn.rs,
hand_binding.rs; docs/engine-native.md, steps 4 and 7) against the reference: a seeded game is played by
the Python engine with its bots, and the native hand (`EngineHand`), set up from the same seed, is driven
by the same moves; at its first decision and after every move the native hand's state
(`HandState.snapshot`), its continuation (the JSON of `steps.continuation`, compared as text, so the
order of the locals counts) and the decision it asks (kind, event, actor, tile, each seat's moves) must
be the reference's. A game's comparison stops at the native hand's first refusal (a step not ported,
named): counted by sentence, so the counts say how far the port reaches.

bench/engine_equivalence.py `native-play` runs this over 1,000 games per configuration,
tests/test_engine_native_play.py over a seeded sample.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field

from ..backend import native_module
from . import steps
from .native_offers import plain_move
from .native_scope import set_scoring
from .session import Session


def text(value) -> str:
    """JSON text as the native side writes it (serde_json, keys in insertion order)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reference_pending(game) -> dict | None:
    """The reference's decision asked, in the native `pending()` form (without its number)."""
    ask = game.pending
    if ask is None:
        return None
    return {"kind": ask.kind, "event": ask.event, "actor": ask.actor,
            "tile": ask.tile.name if ask.tile is not None else None,
            "options": {str(s): [plain_move(m) for m in ms] for s, ms in sorted(ask.options.items())}}


def native_pending(hand) -> dict | None:
    p = hand.pending()
    if p is None:
        return None
    p = json.loads(p)
    p.pop("decision", None)
    return p


@dataclass
class PlayTally:
    games: int = 0
    points: int = 0  # points compared (the first decision and after each move), equal
    moves: int = 0  # moves applied natively before the comparison stopped
    over: int = 0  # games the native hand played to their end
    native_cpu: float = 0.0  # CPU time of the native hand's start and moves (`apply`), the compared ones
    reference_cpu: float = 0.0  # the reference's for the same (`Game(...)` and `Game.apply`)
    refused: Counter = field(default_factory=Counter)  # sentence -> games stopped there
    differences: list = field(default_factory=list)  # (game seed, move number, what differs)

    def add(self, other: PlayTally) -> None:
        self.games += other.games
        self.points += other.points
        self.moves += other.moves
        self.over += other.over
        self.native_cpu += other.native_cpu
        self.reference_cpu += other.reference_cpu
        self.refused.update(other.refused)
        self.differences.extend(other.differences)


def difference(game, hand) -> str | None:
    """What differs between the reference game and the native hand now (None: nothing)."""
    snap = json.loads(hand.snapshot())
    ref_state = json.loads(text(game.st.snapshot()))
    if snap["state"] != ref_state:
        keys = [k for k in ref_state if ref_state.get(k) != snap["state"].get(k)]
        return f"state ({', '.join(keys)[:200]})"
    ref_cont = text(steps.continuation(game))
    got = text(snap["continuation"])
    if ref_cont != got:
        return f"continuation: reference {ref_cont[:600]}, native {got[:600]}"
    ref_p, got_p = reference_pending(game), native_pending(hand)
    if ref_p != got_p:
        return f"decision: reference {text(ref_p)[:400]}, native {text(got_p)[:400]}"
    return None


class PlayCheck:
    """One rule set under one choice of room options: its native hand, reused game after game."""

    def __init__(self, rules, options: dict):
        mod = native_module()
        if mod is None:
            raise RuntimeError("the native core is not built")
        self.rules = rules
        self.options = options
        self.hand = mod.EngineHand(rules.ruleset_json(), options)
        self.scoring = False

    def play(self, game_seed: int, bots, tally: PlayTally) -> None:
        """Play one game (as bench/engine_equivalence.py `record` plays it) with the native hand beside it."""
        session = Session(self.rules, self.options, game_seed, 1, backend="python")  # the reference, compared
        dealer, balances = session.dealer, session.balances
        clock = time.process_time
        c0 = clock()
        g = session.new_hand()
        c1 = clock()
        if not self.scoring:
            self.scoring = set_scoring(self.hand, g)
        players = bots(g)
        hand = self.hand
        c2 = clock()
        hand.start(g.seed, dealer, balances)
        tally.native_cpu += clock() - c2
        tally.reference_cpu += c1 - c0
        tally.games += 1
        made = 0
        while True:
            why = hand.refused()
            if why is not None:
                tally.refused[why] += 1
                return
            diff = difference(g, hand)
            if diff is not None:
                tally.differences.append((game_seed, made, diff))
                return
            tally.points += 1
            if g.is_over():
                if hand.is_over():
                    tally.over += 1
                else:
                    tally.differences.append((game_seed, made, "the reference's hand is over, the native one not"))
                return
            seat = g.current_seats()[0]
            mv = players[seat].choose(g, seat, g.legal_moves(seat))
            line = text(plain_move(mv))
            c0 = clock()
            g.apply(seat, mv)
            c1 = clock()
            hand.apply(seat, line)
            tally.native_cpu += clock() - c1
            tally.reference_cpu += c1 - c0
            made += 1
            tally.moves += 1
