"""How a short sentence about untrusted input shows a value: `short` (the value itself, cut to a few
dozen characters) and `kind` (what sort of value it is, in the words of the messages: "a whole number",
"text", "a list", …). The JSON validator and the move checks both speak of values a client sent, so
they say it the same way.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

_KINDS = {int: "a whole number", float: "a decimal number", Fraction: "a fraction", str: "text", list: "a list",
          dict: "an object", tuple: "a tuple"}


def short(v: Any) -> str:
    """A value as a message shows it: at most a few dozen characters (a huge integer is not written out;
    Python refuses to convert one of more than 4,300 digits anyway)."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 64:
        return "a very large number"
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "…"


def kind(v: Any) -> str:
    """What sort of value `v` is ("null", "true or false", "a whole number", "a decimal number", "text", …)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    for t, word in _KINDS.items():
        if isinstance(v, t):
            return word
    return type(v).__name__
