"""Money as it leaves the engine, typed one way.

Rule-file arithmetic is exact (rationals), and the long-standing JSON keys write an amount as an int when
it is whole and otherwise as a fraction string (game results) or a float (`score --json`). Those keys
keep their values (contracts are extended, never renamed); beside every key that carries money there is
a twin named with EXACT_SUFFIX whose every amount is a JSON string holding the exact amount in lowest
terms: "-3", "0", "237/80" (a whole amount has no slash). docs/engine.md, "Money in JSON", lists them.
"""
from __future__ import annotations

from fractions import Fraction

EXACT_SUFFIX = "_exact"


def exact(v) -> str:
    """An amount (int, Fraction, or a decimal number) as its exact lowest-terms string."""
    if isinstance(v, bool):
        raise TypeError("a boolean is not an amount")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        return str(v)  # Fraction keeps lowest terms and writes a whole one without "/1"
    if isinstance(v, float):
        return str(Fraction(repr(v)))  # the decimal the float was written as, not its binary expansion
    if isinstance(v, str):
        return str(Fraction(v))
    raise TypeError(f"{type(v).__name__} is not an amount")
