"""The records the engine's steps pass between them: a decision asked (`Ask`), what a move stands for
(`Offer`), a win (`WinInfo`); the engine's errors; small helpers shared by the step modules."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..evaluate import EvalError, compile_expr
from ..hand_score import Scoring
from ..result import ScoreResult
from ..scoring import ReadingEvaluator
from ..tiles import TileInfo
from .moves import PASS, MeldOption, Move
from .program import CAction

MAX_DEPTH = 16  # events raised by events (emit, decisions on an action's name) nest at most this deep

EVAL_ERRORS = (EvalError, TypeError, KeyError, AttributeError, ValueError, ZeroDivisionError)

MISSING = object()

PLAIN_TYPES = (bool, int, str, Fraction)

BUILTIN_KEYS: dict[str, str] = {}  # binding name -> its environment key ("builtin:actor"), made once

BY_NAME = attrgetter("name")

# The binding key that marks the events of one win (its action's name, `win`, what they emit and open):
# their payments are that winner's alone, never expanded over the other winners of the same tile.
ONE_WIN = "one_win"
# The binding key that marks one winner's turn at an event of the hand once its play is over (`hand_end`,
# `settled`, what their decisions raise): its `by winner` decisions are asked of that winner, `winner` bound
# to it, and the event is not split over the winners again.
WINNER_TURN = "winner_turn"


class GameError(Exception):
    """The rule set or the room options cannot be played by this engine (one sentence)."""


class IllegalMove(ValueError):
    """A move that is not allowed now; the state is unchanged (one sentence)."""


@dataclass


class Ask:
    """A decision point: the seats asked and each one's legal moves."""

    kind: str  # deal | turn | self | claim | rob | window
    options: dict[int, list[Move]]
    event: str = ""
    actor: int | None = None
    tile: TileInfo | None = None


@dataclass


class WinInfo:
    seat: int
    tile: TileInfo | None
    self_drawn: bool
    concealed: list[TileInfo]  # without the winning tile
    result: ScoreResult
    scoring: Scoring
    discarder: int | None = None
    robbed: int | None = None
    action: str = ""
    _reading: Any = None
    scored_at: int = -1  # the context version it was scored under (the same version scores the same)
    # the context values it was scored under beside the state's, by name: a win tried as its action would
    # score it (runtime/game/win_trial.py); None: the state's context as it was
    trial: dict | None = None
    # ... and the win as found on the context of the moment (won or not): the reading the action's
    # effects and its own event read, as they run before anything is set
    untried: WinInfo | None = None

    def __deepcopy__(self, memo):  # a win, once found, is never changed (its reading is worked out once)
        return self

    def reading_env(self, game):
        if self._reading is None and self.result.evaluation is not None:
            r = self.result.evaluation.reading
            sc = self.scoring
            self._reading = ReadingEvaluator(game.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand).env
        return self._reading


@dataclass


class Offer:
    """What a move stands for, beside the move itself."""

    action: CAction | None
    meld: MeldOption | None = None
    win: WinInfo | None = None
    compulsory: bool = False

    def __deepcopy__(self, memo):  # offers are never changed
        return self

NO_OFFER = Offer(None)  # a discard or a pass: no action behind it (offers are never changed)


@lru_cache(maxsize=256)


def tally(names: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """(name, copies) of a fixed tile list, once per list."""
    return tuple(Counter(names).items())


def pick(moves: list[tuple[Move, Offer]], mv: Move) -> tuple[Move, Offer]:
    """The offer behind an answer: the first one with an equal move (a log replays moves by value),
    or a pass."""
    for item in moves:
        m = item[0]
        if m is mv or m == mv:
            return item
    return PASS, Offer(None)


def tile_free_prefix(e):
    """The leading `and` conditions of a guard that do not read `tile`, as one compiled closure (None:
    the first condition reads `tile`)."""
    from ..ir import expr as E

    if e is None:
        return None
    lead = []
    for c in E.conjuncts(e):
        if any(isinstance(n, E.Name) and n.ref == "builtin:tile" for n in E.walk(c)):
            break
        lead.append(c)
    if not lead:
        return None
    pre = lead[0]
    for c in lead[1:]:
        pre = E.Binary(op="and", left=pre, right=c, span=pre.span)
    return compile_expr(pre)


def unbound(bind: dict) -> dict:
    """Bindings without the reading (passed separately to `env`)."""
    return {k: v for k, v in bind.items() if k != "reading"}
