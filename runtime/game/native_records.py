"""What a game played natively (runtime/game/native_game.py `NativeGame`) writes as the reference writes
it from the native hand's figures: a winner's record (`Game._record`), a value carried to the next hand
(`Game._plain_carry`), the sentences of the invariants after a move (`Game._check_move`), and a number
as the native side writes it (an int, or a fraction's text) back as the reference holds it."""
from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from ..money import exact
from .state import plain

_FRACTION = re.compile(r"-?[0-9]+/[0-9]+")


def number(v):
    """A number as `plain` wrote it (an int, or a fraction's text) back as the reference holds it."""
    if isinstance(v, str) and _FRACTION.fullmatch(v):
        return Fraction(v)
    return v


def winner_record(shell, r: dict) -> dict:
    """A winner's record as `Game._record` writes it."""
    cat = shell.cat.by_name
    score, total = number(r["score"]), number(r["total"])
    return {
        "action": r["action"], "tile": r["tile"], "self_drawn": r["self_drawn"],
        "tile_code": cat[r["tile"]].notation_code if r["tile"] is not None else None,
        "score": plain(score), "total": plain(total), "form": r["form"],
        "fans": [{"name": name, "pattern": pattern, "value": plain(number(v)), "count": count,
                  "value_exact": exact(number(v))} for name, pattern, v, count in r["fans"]],
        "task_factor": plain(number(r["task_factor"])),
        "score_exact": exact(score), "total_exact": exact(total),
    }


def carried(shell, sv, v):
    """A state's value as `Game._plain_carry` gives it (tiles as tiles, exact numbers as numbers)."""
    cat = shell.cat.by_name
    if sv.type == "tile" and isinstance(v, str):
        return cat[v]
    if sv.type == "tiles" and isinstance(v, list):
        return [cat[x] if isinstance(x, str) else x for x in v]
    return number(v) if sv.type == "int" else v


def move_problems(shell, t: dict, state) -> list[str]:
    """`Game._check_move`'s sentences on the native hand's tallies `t` (`EngineHand.tally`), the state read
    (`state()`: the native snapshot) only where the tiles are to be counted."""
    out = []
    if t["tiles"] != sum(shell.initial_counts.values()) or t["over"]:
        st = state()["state"]
        now = Counter(st["wall"]) + Counter(st["out"])
        for s in st["seats"]:
            now.update(s["hand"])
            now.update(s["discards"])
            now.update(s["aside"])
            for m in s["melds"]:
                now.update(m["tiles"])
        if now != shell.initial_counts:
            diff = (now - shell.initial_counts) + (shell.initial_counts - now)
            out.append(f"tiles not conserved: {dict(diff)}")
    deltas = [number(d) for d in t["deltas"]]
    fees = number(t["fees"])
    if sum(deltas) + fees != 0:
        out.append(f"payments do not balance: deltas {deltas}, fees {fees}")
    for i, (b, start) in enumerate(zip(t["balances"], shell.start_balances)):
        if number(b) != start + deltas[i]:
            out.append(f"seat {i}'s balance {number(b)} is not its start {start} plus its payments")
    return out
