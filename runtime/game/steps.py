"""The hand's continuation as data: step records, the registry of step functions, the driver that runs
them until one asks a decision, and the continuation as plain JSON (the model: docs/engine.md, "Steps
and the continuation")."""
from __future__ import annotations

from copy import deepcopy
from fractions import Fraction

from ..tiles import TileInfo
from .moves import MeldOption, Move
from .records import Ask, Offer, WinInfo
from .state import Seat


class Step:
    """One pending step of the hand: which step (`name`), where in it (`at`) and its locals (`loc`)."""

    __slots__ = ("name", "at", "loc")

    def __init__(self, name: str, loc: dict, at: int = 0):
        self.name = name
        self.at = at
        self.loc = loc

    def __repr__(self):
        return f"Step({self.name!r}, at={self.at})"

    def __deepcopy__(self, memo):
        return Step(self.name, deepcopy(self.loc, memo), self.at)


class Done:
    """What a step returns when it is over (its value goes to the step that called it)."""

    __slots__ = ("value",)

    def __init__(self, value=None):
        self.value = value


DONE = Done()

# step name -> the function that runs it: fn(game, step, value) -> Step (call it) | Ask (wait) | Done
STEPS: dict = {}


def step(fn):
    """Register a step function under its name without the `_s_` prefix."""
    STEPS[fn.__name__.removeprefix("_s_")] = fn
    return fn


def run(game, value) -> Ask | None:
    """Run the steps on `game.pending_steps` from its top, the value (an answer or a step's result) going to
    the top step, until a step asks a decision (returned) or the stack is empty (None: the hand is over)."""
    stack = game.pending_steps
    while stack:
        f = stack[-1]
        out = STEPS[f.name](game, f, value)
        if type(out) is Step:
            stack.append(out)
            value = None
        elif type(out) is Done:
            stack.pop()
            value = out.value
        else:
            return out
    return None


def plain_local(v, depth: int = 0):
    """A step's local as JSON: seats by number, tiles by name, moves as written, offers by what they
    stand for; the same value always gives the same text (snapshots are compared)."""
    if depth > 12:
        return "…"
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, Seat):
        return {"seat": v.index}
    if isinstance(v, TileInfo):
        return v.name
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, Move):
        return str(v)
    if isinstance(v, Offer):
        return {"action": v.action.name if v.action is not None else None,
                "meld": plain_local(v.meld, depth + 1), "win": plain_local(v.win, depth + 1),
                "compulsory": v.compulsory}
    if isinstance(v, MeldOption):
        return {"kind": v.kind, "tiles": [t.name for t in v.tiles], "extends": v.extends}
    if isinstance(v, WinInfo):
        return {"seat": v.seat, "tile": v.tile.name if v.tile else None, "self_drawn": v.self_drawn,
                "action": v.action, "score": plain_local(v.result.score, depth + 1)}
    if isinstance(v, Step):
        return {"step": v.name, "at": v.at, "locals": plain_local(v.loc, depth + 1)}
    if isinstance(v, dict):
        if any(isinstance(k, str) and ":" in k for k in v):  # an evaluation environment (a reading)
            return "(reading)"
        return {str(k): plain_local(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain_local(x, depth + 1) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted((plain_local(x, depth + 1) for x in v), key=str)
    return type(v).__name__


def readings(v, depth: int = 0):
    """The readings bound in the steps' locals (`bind["reading"]`): a win's, shared by a copy as the win is."""
    if depth > 12:
        return
    if isinstance(v, Step):
        v = v.loc
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "reading":
                if x is not None:
                    yield x
            elif isinstance(x, (dict, list, tuple, Step)):
                yield from readings(x, depth + 1)
    elif isinstance(v, (list, tuple)):
        for x in v:
            if isinstance(x, (dict, list, tuple, Step)):
                yield from readings(x, depth + 1)


def continuation(game) -> list[dict]:
    """The pending steps, outermost first, as JSON."""
    return [plain_local(f) for f in game.pending_steps]
