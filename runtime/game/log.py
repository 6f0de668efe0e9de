"""Game logs: JSON lines that replay to the identical state.

    {"type": "session", "rules": PATH, "variant": ID, "options": {…}, "seed": S, "hands": N, "balances": …}
    {"type": "hand", "hand": 1, "seed": …, "dealer": 0}
    {"type": "move", "hand": 1, "seat": 0, "move": {"action": "discard", "tiles": [NAME], "codes": [CODE]}}
    {"type": "chance", "hand": 1, "target": "table.点数", "seat": null, "draws": [3, 5], "value": 8}
    …
    {"type": "result", "hand": 1, "result": {…}}

`replay` re-creates the session from the first line with rules the caller gives (never a file the log
names), checks every line's shape, applies every move (each must be legal), compares each hand's result
with the logged one and the number of hands with the session's; anything else is a ReplayError naming
the line. It fails closed: a missing result line, a missing hand, an unknown line type or field, an
inflated `hands` — each is an error, never "identical". A `chance` line is a `roll` the hand made (after
the moves logged before it; the seat whose state it set, or null): replay draws it again from the hand's
seed and requires it, in its place, exactly as logged — a roll changed, added, moved or left out is
refused naming its line.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..money import EXACT_SUFFIX
from .moves import Move
from .session import Session


class ReplayError(Exception):
    """The log does not replay to the state it records (one sentence)."""


def lines(session: Session, rules_ref: str = "") -> list[dict]:
    out = [{"type": "session", "rules": rules_ref, "variant": session.rules.ir.variant.id,
            "options": session.options, "seed": session.seed, "hands": session.hands}]
    kinds = session.rules.catalog.by_name

    def code_of(name: str) -> str | None:
        k = kinds.get(name)
        return k.notation_code if k is not None else None

    for k, h in enumerate(session.played, 1):
        out.append({"type": "hand", "hand": k, "seed": h["seed"], "dealer": h["dealer"]})
        chance = h.get("chance", [])
        i = 0
        for m, (seat, mv) in enumerate(h["moves"]):
            while i < len(chance) and chance[i]["move"] <= m:
                out.append(_chance_line(k, chance[i]))
                i += 1
            out.append({"type": "move", "hand": k, "seat": seat, "move": mv.to_json(code_of)})
        out.extend(_chance_line(k, c) for c in chance[i:])
        out.append({"type": "result", "hand": k, "result": h["result"]})
    return out


def _chance_line(k: int, c: dict) -> dict:
    return {"type": "chance", "hand": k, "target": c["target"], "seat": c["seat"], "draws": c["draws"],
            "value": c["value"]}


def write(path: str | Path, session: Session, rules_ref: str = "") -> None:
    with open(path, "w", encoding="utf-8") as f:
        for d in lines(session, rules_ref):
            f.write(json.dumps(d, ensure_ascii=False) + "\n")


def read(path: str | Path) -> list[dict]:
    """The lines of a log file as JSON values; ReplayError naming the line when one is not JSON."""
    return [e for _, e in read_numbered(path)]


def read_numbered(path: str | Path) -> list[tuple[int, Any]]:
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise ReplayError(f"the log is larger than {MAX_LOG_BYTES // 1_000_000} MB")
    return parse_numbered(raw)


def parse_numbered(raw: bytes) -> list[tuple[int, Any]]:
    """(line number, JSON value) of each non-blank line of a log's bytes; ReplayError naming the line."""
    out = []
    for n, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            out.append((n, json.loads(line.decode("utf-8"), parse_constant=_no_constant)))
        except UnicodeDecodeError:
            raise ReplayError(f"line {n}: not UTF-8 text") from None
        except RecursionError:
            raise ReplayError(f"line {n}: nested too deeply") from None
        except ValueError as exc:
            raise ReplayError(f"line {n}: not JSON ({str(exc)[:80]})") from None
    return out


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


MAX_LOG_BYTES = 200_000_000
# The fields of each line type (all required): a line with another field, or without one, is refused.
LINE_FIELDS = {
    "session": ("rules", "variant", "options", "seed", "hands"),
    "hand": ("hand", "seed", "dealer"),
    "move": ("hand", "seat", "move"),
    "result": ("hand", "result"),
    "chance": ("hand", "target", "seat", "draws", "value"),
}


def _is_int(v) -> bool:
    return type(v) is int


def _shape(n: int, e) -> str:
    """The line's type after checking its shape (ReplayError naming the line otherwise)."""
    if not isinstance(e, dict):
        raise ReplayError(f"line {n}: a log line is a JSON object")
    t = e.get("type")
    if not isinstance(t, str) or t not in LINE_FIELDS:
        shown = repr(t) if isinstance(t, str) and len(t) <= 30 else \
            "that is not one of session, hand, move, chance, result"
        raise ReplayError(f"line {n}: unknown line type {shown}")
    want = set(LINE_FIELDS[t]) | {"type"}
    missing = sorted(want - set(e))
    if missing:
        raise ReplayError(f"line {n}: a {t} line needs the field {missing[0]!r}")
    extra = sorted(str(k)[:30] for k in set(e) - want)
    if extra:
        raise ReplayError(f"line {n}: a {t} line has no field {extra[0]!r}")
    for k in ("hand", "seed", "dealer", "seat", "hands"):
        if k in e and not _is_int(e[k]) and not (t == "chance" and k == "seat" and e[k] is None):
            raise ReplayError(f"line {n}: {k} is a whole number")
    if t == "session":
        if not isinstance(e["rules"], str) or not isinstance(e["variant"], str):
            raise ReplayError(f"line {n}: rules and variant are text")
        if not isinstance(e["options"], dict):
            raise ReplayError(f"line {n}: options are a JSON object")
        if e["hands"] < 1:
            raise ReplayError(f"line {n}: a session has at least one hand")
    if t == "move" and not isinstance(e["move"], dict):
        raise ReplayError(f"line {n}: a move is a JSON object")
    if t == "chance" and (not isinstance(e["target"], str) or not isinstance(e["draws"], list)):
        raise ReplayError(f"line {n}: a chance line's target is text and its draws a list")
    if t == "result" and not isinstance(e["result"], dict):
        raise ReplayError(f"line {n}: a result is a JSON object")
    return t


def replay(log: str | Path | list[dict], rules=None, numbers: list[int] | None = None) -> Session:
    """Re-run a log with `rules` (a Rules, or a rule file the caller chose): every line's shape, every
    move (each must be legal, and answer the decision now asked when it says which), the number of
    hands and each hand's result (its payments and balances included) must be as logged. Returns the
    replayed session; ReplayError (one sentence naming the line) when anything differs. The rule file a
    log names is never loaded from here: the caller resolves it (`paili replay` takes `--rules` or the
    bundled rule file of the log's stem). `numbers` gives the file line of each entry of a list."""
    from ..game.flow import GameError, IllegalMove
    from .moves import MoveError

    if not isinstance(log, list):
        entries = read_numbered(log)
    else:  # numbers: the line number of each entry in its file (default: one entry per line)
        entries = list(zip(numbers, log)) if numbers is not None else list(enumerate(log, 1))
    if not entries:
        raise ReplayError("the log is empty")
    n0, head = entries[0]
    if _shape(n0, head) != "session":
        raise ReplayError(f"line {n0}: the log does not start with a session line")
    if rules is None:
        raise ReplayError("give the rules to replay with (a log's rule file is never loaded from the log)")
    try:
        session = Session(rules, head["options"], head["seed"], head["hands"])
    except GameError as exc:
        raise ReplayError(f"line {n0}: {exc}") from None
    if session.rules.ir.variant.id != head["variant"]:
        raise ReplayError(f"line {n0}: the log is of variant {head['variant'][:40]!r}, the rules are of "
                          f"{session.rules.ir.variant.id!r}")
    game = None
    k = 0  # the hand now replayed (1, 2, …)
    for n, e in entries[1:]:
        t = _shape(n, e)
        if t == "session":
            raise ReplayError(f"line {n}: a second session line")
        if t == "hand":
            if game is not None:
                raise ReplayError(f"line {n}: hand {k + 1} starts before hand {k} has its result line")
            if e["hand"] != k + 1:
                raise ReplayError(f"line {n}: expected hand {k + 1}, the line says hand {_num(e['hand'])}")
            if k + 1 > head["hands"]:
                raise ReplayError(f"line {n}: hand {k + 1} is more than the session's {head['hands']} hands")
            k += 1
            try:
                game = session.new_hand()
            except GameError as exc:  # the options of the session line (the first hand is where they are read)
                raise ReplayError(f"line {n0 if k == 1 else n}: {exc}") from None
            if game is None or game.seed != e["seed"] or game.dealer() != e["dealer"]:
                raise ReplayError(f"line {n}: hand {k} does not start as logged (seed or dealer differs)")
            rolls = 0  # the hand's rolls matched by chance lines so far
            continue
        if game is None:
            raise ReplayError(f"line {n}: a {t} line outside a hand (after a result line or before a hand line)")
        if e["hand"] != k:
            raise ReplayError(f"line {n}: a {t} line of hand {_num(e['hand'])} inside hand {k}")
        if t == "chance":
            made = game.rolls()
            if rolls >= len(made) or made[rolls]["move"] != len(game.moves):
                raise ReplayError(f"line {n}: hand {k}: no roll is made here (the log adds or moves one)")
            want = _chance_line(k, made[rolls])
            if json.loads(json.dumps(want, ensure_ascii=False)) != e:
                raise ReplayError(f"line {n}: hand {k}: the roll of {want['target'][:40]} draws "
                                  f"{json.dumps(want['draws'], ensure_ascii=False)[:60]}, not what the log says")
            rolls += 1
            continue
        made = game.rolls()
        if rolls < len(made) and made[rolls]["move"] <= len(game.moves):
            raise ReplayError(f"line {n}: hand {k}: the roll of {made[rolls]['target'][:40]} made "
                              "before this line is missing from the log")
        if t == "move":
            try:
                game.apply(e["seat"], Move.from_json(e["move"], game.tile_code))
            except (IllegalMove, MoveError) as exc:
                raise ReplayError(f"line {n}: hand {k}: {exc}") from None
        else:  # result
            if not game.is_over():
                raise ReplayError(f"line {n}: hand {k} is not over where the log ends it")
            got = json.loads(json.dumps(game.result(), ensure_ascii=False))
            if not has_added(e["result"]):
                # a log written before results carried the keys added beside existing ones (the exact
                # twins of amounts, the codes of tiles): they say nothing the keys they stand beside do
                # not, so the rest is compared in full
                got = strip_added(got)
            if got != e["result"]:
                raise ReplayError(f"line {n}: hand {k} replays to a different result{_first_diff(got, e['result'])}")
            session.finish(game)
            game = None
    last = entries[-1][0]
    if game is not None:
        raise ReplayError(f"line {last}: the log ends inside hand {k} (its result line is missing)")
    if k != head["hands"]:
        raise ReplayError(f"line {n0}: the session has {_num(head['hands'])} hands, the log records {k}")
    return session


# The suffixes of the keys a result gained after logs were first written: `amount` → `amount_exact`
# (docs/engine.md, "Money in JSON"), `tile` → `tile_code`.
ADDED_SUFFIXES = (EXACT_SUFFIX, "_code")


def _added(k) -> bool:
    return isinstance(k, str) and k.endswith(ADDED_SUFFIXES)


def strip_added(v):
    """`v` without the added keys (at any depth): what a result written before them looked like."""
    if isinstance(v, dict):
        return {k: strip_added(x) for k, x in v.items() if not _added(k)}
    if isinstance(v, list):
        return [strip_added(x) for x in v]
    return v


def has_added(v, depth: int = 0) -> bool:
    """Whether a JSON value holds an added key anywhere (bounded depth: logs are untrusted)."""
    if depth > 64:
        return False
    if isinstance(v, dict):
        return any(_added(k) or has_added(x, depth + 1) for k, x in v.items())
    if isinstance(v, list):
        return any(has_added(x, depth + 1) for x in v)
    return False


def _num(v: int) -> str:
    return str(v) if v.bit_length() <= 64 else "a very large number"


def _first_diff(got: dict, want: dict) -> str:
    """Where two results differ first (a key of the result), for the message."""
    for key in list(got) + [x for x in want if x not in got]:
        if got.get(key, _MISSING) != want.get(key, _MISSING):
            return f" ({str(key)[:30]} differs)"
    return ""


_MISSING = object()
