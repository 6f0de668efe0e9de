"""Room options and context values given by a caller (text or Python numbers) as the language's values, or
one sentence (HandError)."""
from __future__ import annotations

import math
import re
from fractions import Fraction

from . import limits
from .hand import HandError


def short(raw) -> str:
    """A value echoed in an error message, cut to a few dozen characters."""
    text = str(raw) if isinstance(raw, (str, int, float, Fraction)) and not isinstance(raw, bool) else repr(raw)
    return text if len(text) <= 40 else text[:37] + "…"


_NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?")


def setting_number(name: str, raw, whole: bool):
    """A setting's number from text or a Python number: a whole number for int and seat settings, an
    exact decimal or fraction for num ones, within the limits of runtime/limits.py; HandError otherwise."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float, Fraction)):
        raise HandError(f"{name} takes a number, not {short(raw)!r}")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise HandError(f"{name} takes a finite number, not {raw}")
    text = raw.strip() if isinstance(raw, str) else str(raw) if not isinstance(raw, Fraction) else None
    if text is not None:
        if len(text) > limits.MAX_NUMBER_DIGITS + 3 or not _NUMBER_TEXT.fullmatch(text):
            raise HandError(f"{name} takes a number, not '{short(raw)}'")
        try:
            v = Fraction(text)
        except ZeroDivisionError:
            raise HandError(f"{name} takes a number, not '{short(raw)}'") from None
    else:
        v = raw
    if limits.too_big(v):
        raise HandError(f"{name} is too large (more than {limits.MAX_VALUE_DIGITS} digits)")
    if whole:
        if v.denominator != 1:
            raise HandError(f"{name} takes a whole number, not {short(raw)}")
        return int(v)
    return int(v) if v.denominator == 1 else v
