"""A game as versioned plain data and back: `snapshot`, `restore`, `clone` (the model: docs/engine.md,
"Snapshots and clones").

A snapshot is untrusted input when it comes back: `restore` checks its shape, types and sizes, builds
the hand from its setup and applies its moves through `Game.apply` (so each must be legal at its
decision), then requires the state it reaches to be the state the snapshot records. Nothing in it is
executed or used as a name; anything wrong is a `SnapshotError` of one sentence.
"""
from __future__ import annotations

import copy
import json
import re
from fractions import Fraction

from ..hand import HandError
from ..limits import MAX_TABLE_SIZE
from . import steps
from .moves import Move, MoveError
from .records import GameError, IllegalMove

FORMAT = "paili.game"
VERSION = 1
MAX_MOVES = 20_000  # far more than any hand takes; bounds the work a snapshot can ask for
MAX_SNAPSHOT_CHARS = 20_000_000
SETUP_KEYS = ("options", "seed", "dealer", "balances", "table", "players", "wall", "tail", "check",
              "require_decision")
# fields added to version 1 after it was first written
LATER_KEYS = ("continuation", "depth", "chance", "finished", "first_winners")
_FRACTION = re.compile(r"-?[0-9]{1,40}/[0-9]{1,40}")


class SnapshotError(ValueError):
    """A snapshot that cannot be restored (one sentence)."""


def setup_of(game) -> dict:
    """The arguments the hand was made with, as plain data (a deep copy: the caller's lists stay theirs)."""
    return copy.deepcopy(game.setup_args)


def setup_json(game) -> dict:
    """The setup as a snapshot writes it (`setup`)."""
    return _encode(setup_of(game))


def snapshot(game) -> dict:
    """The hand as a JSON-exact dict: the state fields (equal snapshots: equal states), the format and
    version, the setup and the moves applied (`history`), from which `restore` rebuilds it."""
    st = game.st
    out = {"format": FORMAT, "version": VERSION, "variant": game.rs.variant.id}
    out.update(st.snapshot())
    out["pending"] = None if game.pending is None else {
        "kind": game.pending.kind, "event": game.pending.event,
        "options": {str(s): [str(m) for m in ms] for s, ms in game.pending.options.items()}}
    out["answers"] = {str(s): str(m) for s, m in game.answers.items()}
    out["moves"] = [[s, str(m)] for s, m in game.moves]
    out["errors"] = list(game.errors)
    out["decision"] = game.decision
    out["continuation"] = steps.continuation(game)  # where the hand resumes: its pending steps, outermost first
    out["depth"] = [game.decision_depth, game.emit_depth]
    out["setup"] = setup_json(game)
    out["history"] = [[s, m.to_json()] for s, m in game.moves]
    return out


# what a clone shares with its original: the rule set and what is made from it alone, never changed by play
SHARED = frozenset({"rules", "rs", "prog", "cat", "dec", "mk", "settings", "setup_env", "_win_actions", "_instead",
                    "_precheck", "_phase_events", "_moving_reveals", "initial_counts", "fee_rate"})
# caches of values that are never changed once made: a clone takes a copy of the cache, not of the values
CACHES = frozenset({"_target_cache", "_restrict_cache", "_discard_cache", "_offerable_cache", "_unusable_cache",
                    "_restrict_plans", "_instant_of", "_forms_rules", "_win_cache", "_ranks", "_meld_values",
                    "_special", "_instant_need", "_trial_cache"})


def fields(cls) -> tuple[str, ...]:
    """The declared fields of a game class (its `__slots__` and its bases'), in declaration order."""
    # a class that declares none inherits its base's `__slots__`: each name is kept once
    return tuple(dict.fromkeys(k for c in reversed(cls.__mro__) for k in getattr(c, "__slots__", ())
                               if k not in ("__dict__", "__weakref__")))


def clone(game):
    """An independent game in the same state, copied directly, field by declared field (`fields`): its
    state, its continuation (the pending steps, plain records) and its memos, with one copy memo so that
    every seat, list and step shared inside the game stays shared inside the copy (a seat's own memo
    starts empty in the copy: `state.SeatMemo`); the rule set and the values made from it alone are
    shared (`SHARED`, and tiles, moves, offers, wins, which never change)."""
    g = object.__new__(type(game))
    memo = {id(game): g}
    for t in game.cat.by_name.values():
        memo[id(t)] = t
    for r in steps.readings(game.pending_steps):
        memo[id(r)] = r
    for k in fields(type(game)):
        v = getattr(game, k)
        if k in SHARED:
            setattr(g, k, v)
        elif k in CACHES:
            setattr(g, k, dict(v))
        else:
            setattr(g, k, copy.deepcopy(v, memo))
    return g


def restore(cls, rules, data) -> object:
    """The game a snapshot records (see the module docstring); SnapshotError when it is not one."""
    if not isinstance(data, dict):
        raise SnapshotError(f"a game snapshot is a dict, not {type(data).__name__}")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise SnapshotError(f"this is not a game snapshot of format {FORMAT} version {VERSION}")
    try:
        size = len(json.dumps(data, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise SnapshotError("a game snapshot holds JSON values only") from None
    if size > MAX_SNAPSHOT_CHARS:
        raise SnapshotError(f"the snapshot is larger than {MAX_SNAPSHOT_CHARS // 1_000_000} million characters")
    variant = data.get("variant")
    if variant != rules.ir.variant.id:
        shown = repr(variant[:40]) if isinstance(variant, str) else "not named"
        raise SnapshotError(f"the snapshot's variant is {shown}, the rules are {rules.ir.variant.id!r}")
    setup = _setup(data.get("setup"))
    moves = _history(data.get("history"))
    try:
        g = cls(rules, **_replay_args(setup))
    except (GameError, HandError) as exc:  # HandError: a wall or tail in no tile notation of the rules
        raise SnapshotError(f"the snapshot's setup is refused: {exc}") from None
    except IndexError:  # a carried seat that is not a seat of this table
        raise SnapshotError("the snapshot's setup names a seat the table does not have") from None
    _replay(g, moves)
    _require(g, setup["require_decision"])
    got = snapshot(g)
    for key in sorted(set(got) | set(data), key=str):
        if key in LATER_KEYS and key not in data:  # a snapshot made before the engine wrote these
            continue
        if got.get(key, _MISSING) != data.get(key, _MISSING):
            raise SnapshotError(f"the snapshot's {str(key)[:30]!r} is not what its moves lead to")
    return g


_MISSING = object()


def _replay_args(setup: dict) -> dict:
    args = dict(setup)
    args["require_decision"] = False  # moves applied without a decision number replay too; set after
    return args


def _require(g, flag: bool) -> None:
    """After the replay: the game requires decision numbers as the original did."""
    g.require_decision = flag
    g.setup_args["require_decision"] = flag


def _replay(g, moves: list[tuple[int, Move]]) -> None:
    for k, (seat, mv) in enumerate(moves, 1):
        try:
            g.apply(seat, mv)
        except IllegalMove as exc:
            raise SnapshotError(f"move {k} of the snapshot is refused: {exc}") from None


def _setup(s) -> dict:
    if not isinstance(s, dict):
        raise SnapshotError("the snapshot's setup is a dict")
    extra = sorted(str(k)[:30] for k in s if k not in SETUP_KEYS)
    if extra:
        raise SnapshotError(f"the snapshot's setup has no field {extra[0]!r}")
    missing = [k for k in SETUP_KEYS if k not in s]
    if missing:
        raise SnapshotError(f"the snapshot's setup needs the field {missing[0]!r}")
    out = {k: _decode(s[k]) for k in SETUP_KEYS}
    if not isinstance(out["options"], dict) or not all(isinstance(k, str) for k in out["options"]):
        raise SnapshotError("the snapshot's room options are a dict by name")
    if type(out["seed"]) is not int or out["seed"].bit_length() > 64:
        raise SnapshotError("the snapshot's seed is a whole number")
    if out["dealer"] is not None and (type(out["dealer"]) is not int or not 0 <= out["dealer"] < MAX_TABLE_SIZE):
        raise SnapshotError("the snapshot's dealer is a seat number")
    for k in ("check", "require_decision"):
        if type(out[k]) is not bool:
            raise SnapshotError(f"the snapshot's {k} is true or false")
    if out["balances"] is not None and (not isinstance(out["balances"], list) or len(out["balances"]) > MAX_TABLE_SIZE
                                        or not all(_number(b) for b in out["balances"])):
        raise SnapshotError("the snapshot's balances are a list of numbers, one per seat")
    if out["table"] is not None and not isinstance(out["table"], dict):
        raise SnapshotError("the snapshot's table values are a dict")
    if out["players"] is not None and (not isinstance(out["players"], list) or len(out["players"]) > MAX_TABLE_SIZE
                                       or not all(isinstance(p, dict) for p in out["players"])):
        raise SnapshotError("the snapshot's player values are a list of dicts, one per seat")
    carried = list((out["table"] or {}).values())
    for p in out["players"] or []:
        carried += list(p.values())
    if not all(_carried_value(v) for v in carried):
        raise SnapshotError("the snapshot's carried state values are numbers, text, true or false, seats or lists")
    for k in ("wall", "tail"):
        v = out[k]
        if v is not None and not isinstance(v, str) and not (isinstance(v, list)
                                                             and all(isinstance(t, str) for t in v)):
            raise SnapshotError(f"the snapshot's {k} is tile notation (text or a list of tile names)")
    return out


def _history(h) -> list[tuple[int, Move]]:
    if not isinstance(h, list):
        raise SnapshotError("the snapshot's history is a list of moves")
    if len(h) > MAX_MOVES:
        raise SnapshotError(f"the snapshot's history has more than {MAX_MOVES} moves")
    out = []
    for k, item in enumerate(h, 1):
        if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
            raise SnapshotError(f"move {k} of the snapshot is not a pair of a seat number and a move")
        try:
            out.append((item[0], Move.from_json(item[1])))
        except MoveError as exc:
            raise SnapshotError(f"move {k} of the snapshot is refused: {exc}") from None
    return out


def _carried_value(v) -> bool:
    """A value a state carries from an earlier hand (`Game.table_values`, `Game.player_values`)."""
    if isinstance(v, dict):
        return set(v) == {"seat"} and type(v["seat"]) is int and 0 <= v["seat"] < MAX_TABLE_SIZE
    if isinstance(v, list):
        return len(v) <= 10_000 and all(isinstance(x, str) or _number(x) for x in v)
    return v is None or isinstance(v, (bool, str)) or _number(v)


def _number(v) -> bool:
    return (type(v) is int and v.bit_length() <= 64) or isinstance(v, Fraction)


def _encode(v):
    """Setup values as JSON: an exact fraction as {"fraction": "p/q"}, tuples as lists."""
    if isinstance(v, Fraction):
        return {"fraction": f"{v.numerator}/{v.denominator}"}
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _encode(x) for k, x in v.items()}
    if isinstance(v, float) or v is None or isinstance(v, (bool, int, str)):
        return v
    return str(v)


def _decode(v, depth: int = 0):
    if depth > 20:
        raise SnapshotError("the snapshot's setup is nested too deeply")
    if isinstance(v, dict):
        if len(v) == 1 and isinstance(v.get("fraction"), str) and _FRACTION.fullmatch(v["fraction"]):
            p, q = v["fraction"].split("/")
            if int(q) == 0:
                raise SnapshotError("a fraction in the snapshot's setup divides by zero")
            return Fraction(int(p), int(q))
        return {k: _decode(x, depth + 1) for k, x in v.items()}
    if isinstance(v, list):
        return [_decode(x, depth + 1) for x in v]
    return v
