"""The arguments of the engine's constructors (`Game`, `Session`, the public face's), each checked for its
type before any work: a wrong one is refused with ArgumentError, one sentence naming the argument and
what it takes — never accepted silently (`seed='x'` would otherwise seed the shuffle from the text) and
never a TypeError from deep inside the set-up. What a value means (a dealer's seat within the table, the
balances one per seat) is checked where the table's size is known (flow.py)."""
from __future__ import annotations

import math
from fractions import Fraction
from os import PathLike

from .records import GameError


class ArgumentError(GameError, ValueError):
    """A constructor's argument of the wrong type or out of its range (one sentence). A GameError, as every
    refusal of a game's set-up is, and a ValueError, as IllegalMove is."""


def kind_of(v) -> str:
    """What a value is, for a message that must not echo it (a caller's value, or one a log or a client gives)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    return {int: "a number", float: "a number", str: "text", list: "a list", dict: "a dict",
            tuple: "a tuple"}.get(type(v), type(v).__name__)


def is_number(v) -> bool:
    """A balance: a whole number, an exact fraction or a finite float (not True or False)."""
    if isinstance(v, bool):
        return False
    return isinstance(v, (int, Fraction)) or (isinstance(v, float) and math.isfinite(v))


def _whole(name: str, v, low: int | None = None) -> None:
    if not isinstance(v, int) or isinstance(v, bool):
        shown = repr(v) if isinstance(v, float) else kind_of(v)  # `seed=1.5`: "not 1.5", not "not a number"
        raise ArgumentError(f"{name} is a whole number, not {shown}")
    if low is not None and v < low:
        raise ArgumentError(f"{name} is at least {low}, not {v if v.bit_length() <= 64 else 'a very large number'}")


def _flag(name: str, v) -> None:
    if not isinstance(v, bool):
        raise ArgumentError(f"{name} is True or False, not {kind_of(v)}")


def check_common(rules, options, seed, balances, check) -> None:
    """What `Game` and `Session` both take."""
    from ..rules import Rules

    if not isinstance(rules, (Rules, str, PathLike)):
        raise ArgumentError(f"rules is a rule set (paili.load), a bundled variant's name or a rule file's path, "
                            f"not {kind_of(rules)}")
    if options is not None and not isinstance(options, dict):
        raise ArgumentError(f"room options are given by name (a dict), not as {kind_of(options)}")
    if options is not None and not all(isinstance(k, str) for k in options):
        raise ArgumentError("room options are given by name: every key of the dict is text")
    _whole("seed", seed)
    if balances is not None:
        if not isinstance(balances, (list, tuple)):
            raise ArgumentError(f"balances are a list of numbers, one per seat, not {kind_of(balances)}")
        bad = [b for b in balances if not is_number(b)]
        if bad:
            raise ArgumentError(f"balances are a list of numbers, one per seat; one is {kind_of(bad[0])}")
    _flag("check", check)


def check_game(dealer, table, wall, tail, players, require_decision) -> None:
    """What only `Game` takes (the dealer's range once the table's size is known: `check_seats`)."""
    if dealer is not None:
        _whole("dealer", dealer, 0)
    if table is not None and not isinstance(table, dict):
        raise ArgumentError(f"table is a dict of the table states carried into the hand, not {kind_of(table)}")
    if players is not None and (not isinstance(players, (list, tuple))
                                or not all(p is None or isinstance(p, dict) for p in players)):
        raise ArgumentError("players is a list of dicts, one per seat: the player states carried into the hand")
    for name, v in (("wall", wall), ("tail", tail)):
        if v is not None and not isinstance(v, str) and not (isinstance(v, (list, tuple))
                                                             and all(isinstance(t, str) for t in v)):
            raise ArgumentError(f"{name} is tiles in the variant's notation (text or a list of texts), "
                                f"not {kind_of(v)}")
    _flag("require_decision", require_decision)


def check_seats(n: int, dealer, balances) -> None:
    """The arguments that name or count seats, against a table of `n`."""
    if dealer is not None and dealer >= n:
        shown = dealer if dealer.bit_length() <= 64 else "a very large number"
        raise ArgumentError(f"dealer {shown} is not a seat of this game (seats 0 to {n - 1})")
    if balances is not None and len(balances) != n:
        raise ArgumentError(f"balances are one per seat: {len(balances)} given for {n} players")


def check_session(hands) -> None:
    _whole("hands", hands, 1)
