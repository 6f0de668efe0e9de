"""Game logs: JSON lines that replay to the identical state.

    {"type": "session", "rules": PATH, "variant": ID, "options": {…}, "seed": S, "hands": N, "balances": …}
    {"type": "hand", "hand": 1, "seed": …, "dealer": 0}
    {"type": "move", "hand": 1, "seat": 0, "move": {"action": "discard", "tiles": ["5m"]}}
    …
    {"type": "result", "hand": 1, "result": {…}}

`replay` re-creates the session from the first line, applies every move (each must be legal) and
compares each hand's result with the logged one.
"""
from __future__ import annotations

import json
from pathlib import Path

from .moves import Move
from .session import Session


class ReplayError(Exception):
    """The log does not replay to the state it records (one sentence)."""


def lines(session: Session, rules_ref: str = "") -> list[dict]:
    out = [{"type": "session", "rules": rules_ref, "variant": session.rules.ir.variant.id,
            "options": session.options, "seed": session.seed, "hands": session.hands}]
    for k, h in enumerate(session.played, 1):
        out.append({"type": "hand", "hand": k, "seed": h["seed"], "dealer": h["dealer"]})
        for seat, mv in h["moves"]:
            out.append({"type": "move", "hand": k, "seat": seat, "move": mv.to_json()})
        out.append({"type": "result", "hand": k, "result": h["result"]})
    return out


def write(path: str | Path, session: Session, rules_ref: str = "") -> None:
    with open(path, "w", encoding="utf-8") as f:
        for d in lines(session, rules_ref):
            f.write(json.dumps(d, ensure_ascii=False) + "\n")


def read(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(x) for x in f if x.strip()]


def replay(log: str | Path | list[dict], rules=None) -> Session:
    """Re-run a log; returns the replayed session. ReplayError when anything differs."""
    from ..game.flow import IllegalMove

    entries = read(log) if not isinstance(log, list) else log
    if not entries or entries[0].get("type") != "session":
        raise ReplayError("the log does not start with a session line")
    head = entries[0]
    if rules is None:
        rules = head["rules"]
    session = Session(rules, head.get("options") or {}, head["seed"], head["hands"])
    game = None
    for e in entries[1:]:
        t = e.get("type")
        if t == "hand":
            game = session.new_hand()
            if game is None or game.seed != e["seed"] or game.st.dealer != e["dealer"]:
                raise ReplayError(f"hand {e['hand']} does not start as logged (seed or dealer differs)")
        elif t == "move":
            if game is None:
                raise ReplayError("a move comes before its hand line")
            try:
                game.apply(e["seat"], Move.from_json(e["move"]))
            except IllegalMove as exc:
                raise ReplayError(f"hand {e['hand']}: {exc}") from None
        elif t == "result":
            if game is None or not game.is_over():
                raise ReplayError(f"hand {e['hand']} is not over where the log ends it")
            got = json.loads(json.dumps(game.result(), ensure_ascii=False))
            if got != e["result"]:
                raise ReplayError(f"hand {e['hand']} replays to a different result")
            session.finish(game)
            game = None
    return session
