"""Many hands scored in one call: `Rules.score_many` and the JSON lines of `paili score --batch`.

A batch item is a JSON object (or the dict it parses to) with the keys of BATCH_KEYS; an item that
cannot be read or scored gives its one sentence in its place and the batch goes on. Room options and
context values repeat from hand to hand, so the expression environment of each distinct `set` is
built once per batch (never a result: every hand is scored afresh).
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

from .hand import HandError
from .limits import MAX_BATCH_LINE, MAX_NUMBER_DIGITS

BATCH_KEYS = ("hand", "melds", "win", "self_drawn", "set")
CONTEXTS_KEPT = 1024  # distinct `set` objects whose environment a batch keeps


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits):
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(digits)


def parse_line(text: str) -> tuple:
    """A batch line's JSON text -> the arguments of `Rules.score`; ValueError (one sentence) otherwise."""
    try:
        item = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    return item_args(item)


def item_args(item: Any) -> tuple:
    """A batch item (a dict with the keys of BATCH_KEYS) -> (hand, melds, win, self_drawn, context);
    ValueError (one sentence) when it is not one."""
    if not isinstance(item, dict):
        raise ValueError("each line must be a JSON object")
    unknown = [k for k in item if k not in BATCH_KEYS]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (a line may have: {', '.join(BATCH_KEYS)})")
    hand = item.get("hand", "")
    if not isinstance(hand, str):
        raise ValueError("`hand` must be a string of tiles")
    melds = item.get("melds")
    if melds is None:
        melds = []
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        raise ValueError("`melds` must be a list of KIND:TILES strings")
    win = item.get("win")
    if win is not None and not isinstance(win, str):
        raise ValueError("`win` must be a string (one tile) or null")
    self_drawn = item.get("self_drawn", False)
    if not isinstance(self_drawn, bool):
        raise ValueError("`self_drawn` must be true or false (a JSON boolean)")
    ctx = item.get("set")
    if ctx is None:
        ctx = {}
    if not isinstance(ctx, dict):
        raise ValueError("`set` must be an object of NAME: VALUE")
    for k, v in ctx.items():
        ok = isinstance(v, (str, bool, int)) or (isinstance(v, float) and math.isfinite(v))
        if not ok:
            raise ValueError(f"`set` value of {k!r} must be a string, a number or a boolean")
    return hand, melds, win, self_drawn, dict(ctx)


def _context_key(ctx: dict) -> tuple:
    # the type is part of the key: True == 1 and 1 == 1.0, but they are different values of a setting
    return tuple((k, type(v).__name__, v) for k, v in ctx.items())


class Batch:
    """Scores items of one rule set, keeping each distinct context's environment for the batch."""

    def __init__(self, rules):
        self.rules = rules
        self._envs: dict[tuple, tuple] = {}

    def env(self, ctx: dict) -> tuple:
        if not ctx:
            return self.rules.env_for(None)
        key = _context_key(ctx)
        try:
            got = self._envs.get(key)
        except TypeError:  # a value that cannot be a key (a caller's own object): not kept
            return self.rules.env_for(ctx)
        if got is None:
            if len(self._envs) >= CONTEXTS_KEPT:
                self._envs.clear()
            got = self._envs[key] = self.rules.env_for(ctx)
        return got

    def score(self, args: tuple):
        """One item's ScoreResult (HandError or ValueError, one sentence, when it cannot be scored)."""
        hand, melds, win, self_drawn, ctx = args
        return self.rules.score_in(self.env(ctx), hand, melds, win, self_drawn)


def as_args(item) -> tuple:
    """A `score_many` item -> the arguments of `Rules.score`: a dict with the batch keys, a hand's text
    alone, or a tuple (hand, melds, win, self_drawn, context) whose trailing members may be left out."""
    if isinstance(item, dict):
        return item_args(item)
    if isinstance(item, str):
        return item, [], None, False, {}
    if isinstance(item, (tuple, list)) and 1 <= len(item) <= 5:
        hand, melds, win, self_drawn, ctx = (tuple(item) + (None, None, False, None))[:5]
        return hand, list(melds or []), win, bool(self_drawn), dict(ctx or {})
    raise ValueError("a hand to score is a dict of hand, melds, win, self_drawn and set, a string of tiles, "
                     "or a tuple (hand, melds, win, self_drawn, context)")


def score_many(rules, items: Iterable) -> list:
    """Each item's ScoreResult, or in its place the HandError or ValueError (one sentence) that kept it
    from being scored; the other items are scored all the same."""
    batch = Batch(rules)
    out: list = []
    for item in items:
        try:
            out.append(batch.score(as_args(item)))
        except (HandError, ValueError) as exc:
            out.append(exc)
    return out


def score_lines(rules, stream) -> Iterator[tuple[bool, dict]]:
    """`paili score --batch`: one (failed, output object) per JSON line of `stream` (a binary file) —
    the result's JSON, or {"line": N, "error": "line N: …"} for a line that cannot be read or scored.
    Blank lines give nothing; a line longer than MAX_BATCH_LINE is refused without being held."""
    batch = Batch(rules)
    n = 0
    while True:
        # Read at most one line's limit at a time: a huge line is refused without holding it.
        raw = stream.readline(MAX_BATCH_LINE + 1)
        if not raw:
            break
        n += 1
        error = None
        if len(raw) > MAX_BATCH_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                raw = stream.readline(MAX_BATCH_LINE + 1)
            error = f"the line is longer than {MAX_BATCH_LINE} bytes"
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                error = f"the line is not UTF-8 text (byte {exc.start + 1})"
            else:
                if not text.strip():
                    continue
        if error is None:
            try:
                yield False, batch.score(parse_line(text)).to_json()
                continue
            except (HandError, ValueError) as exc:
                error = str(exc)
        yield True, {"line": n, "error": f"line {n}: {error}"}


__all__ = ["BATCH_KEYS", "Batch", "as_args", "item_args", "parse_line", "score_lines", "score_many"]
