"""Many hands scored in one call: `Rules.score_many` and the JSON lines of `paili score --batch`.

A batch item is a JSON object (or the dict it parses to) with the keys of BATCH_KEYS; an item that
cannot be read or scored gives its one sentence in its place and the batch goes on. Room options and
context values repeat from hand to hand, so the expression environment of each distinct `set` is
built once and kept by the rule set (`Rules.contexts`, runtime/contexts.py; never a result: every hand is
scored afresh).
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from .backend import native_module
from .contexts import CONTEXTS_KEPT
from .hand import HandError
from .limits import MAX_BATCH_DEPTH, MAX_BATCH_LINE, MAX_NUMBER_DIGITS

BATCH_KEYS = ("hand", "melds", "win", "self_drawn", "set")


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits):
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(digits)


NESTED = "the JSON is nested too deeply"
# a JSON string (its closing quote optional: the text may end inside one), or one bracket
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


def json_depth_exceeded(text: str, limit: int = MAX_BATCH_DEPTH) -> int | None:
    """The index of the first `[` or `{` (outside strings) that opens deeper than `limit`, None if none.
    Up to the first mistake of a JSON text this is the nesting its reader sees, which is all
    `parse_line` relies on."""
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        c = m.group()
        if c in "[{":
            if depth == limit:
                return m.start()
            depth += 1
        elif c in "]}":
            depth -= 1
    return None


def parse_line(text: str) -> tuple:
    """A batch line's JSON text -> the arguments of `Rules.score`; ValueError (one sentence) otherwise.

    Nesting is bounded by MAX_BATCH_DEPTH, the same way on every Python: an array or object that opens
    deeper is refused where it opens, unless the text has a mistake before it (Python's own limit, its
    recursion depth, varies with the interpreter and the stack). Only a line with more brackets than the
    bound pays for finding where: its text is read up to that point, and if the reader then expects a
    value, the value would have opened there."""
    deep = None
    if text.count("[") + text.count("{") > MAX_BATCH_DEPTH:
        deep = json_depth_exceeded(text)
    try:
        item = json.loads(text if deep is None else text[:deep], parse_constant=_no_constant,
                          parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        if exc.pos == deep and exc.msg == "Expecting value":
            raise ValueError(NESTED) from None
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError(NESTED) from None
    if deep is not None:  # (text[:deep] leaves an array or object open: it never reads as a whole)
        raise ValueError(NESTED)
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


class Batch:
    """Scores items of one rule set, each under its context's environment as the rule set keeps it
    (`Rules.env_for`: bounded, a refused context refused every time, a value that cannot be a key built
    for its item alone)."""

    def __init__(self, rules):
        self.rules = rules

    def env(self, ctx: dict) -> tuple:
        return self.rules.env_for(ctx or None)

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


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(line: str) -> str:
    """A JSON line written with ensure_ascii=False made encodable as UTF-8: each lone surrogate (a string
    read from a `\\ud800` escape holds one) written as its escape, which reads back as the same str."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def output_line(obj) -> str:
    """One output line of `score --batch` (no newline): `json.dumps(obj, ensure_ascii=False)`, lone
    surrogates escaped."""
    line = json.dumps(obj, ensure_ascii=False)
    return line if line.isascii() or not _SURROGATE.search(line) else escape_surrogates(line)


def write_lines(rules, stream, out) -> tuple[int, dict]:
    """`paili score --batch`: the JSON lines of `stream` (a binary file, nothing read from it yet) scored
    and written to `out` (a text stream), one line each. Where `rules` use the native core, its batch
    driver reads and writes them (the same bytes: tests/test_native_batch.py), every hand scored by the
    reference it calls back (`line_scorer`); else `score_lines`. Returns the number of lines that failed,
    and how many lines each scorer answered ({"native": N, "reference": M})."""
    native = native_module() if rules.backend == "native" else None
    if native is not None and hasattr(native, "run_batch"):
        return _write_native(native, rules, stream, out)
    failed = scored = 0
    write = out.write
    for bad, obj in score_lines(rules, stream):
        failed += bad
        scored += not bad
        write(output_line(obj) + "\n")
    return failed, {"native": 0, "reference": scored}


def _fd(stream) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _write_native(native, rules, stream, out) -> tuple[int, dict]:
    source = _fd(stream)
    sink = _fd(out)
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    if sink is None or encoding != "utf8" or os.linesep != "\n":  # bytes written to the descriptor would differ
        sink = out.write
    else:
        out.flush()
    batch = Batch(rules)  # one environment per context for both scorers
    contexts = native_context(rules, batch)
    try:
        failed, native_n, reference_n = native.run_batch(
            stream if source is None else source, sink, lambda: line_scorer(rules, batch), (HandError, ValueError),
            MAX_BATCH_LINE, MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, CONTEXTS_KEPT, sys.version_info >= (3, 13), contexts)
    finally:
        contexts.count()
    return failed, {"native": native_n, "reference": reference_n}


class NativeContexts:
    """What the native batch driver asks once per distinct `set` (called with the context): that
    context's native scoring of whole hands (`NativeHands.batch_context`), or None when every hand of it
    goes to the reference (a context the reference refuses, a rule set or catalog the native scoring
    does not take). `count()` then adds the hands the driver scored with them to `Rules.stats()`."""

    def __init__(self, rules, batch: Batch):
        self.rules = rules
        self.batch = batch
        self.used: dict[int, tuple] = {}  # id -> (NativeHands, its batch counts before this run)

    def __call__(self, ctx: dict):
        rules = self.rules
        if rules.pattern_lines() is None:
            return None
        try:
            cat, dec, env = self.batch.env(ctx)
        except (HandError, ValueError):  # the reference refuses each of its lines with the sentence
            return None
        hands = rules.native_hands_for(cat, dec)
        if hands is None:
            return None
        if id(hands) not in self.used:
            self.used[id(hands)] = (hands, hands.batch_counts())
        return hands.batch_context(rules, cat, env)

    def count(self) -> None:
        """The hands the native driver scored since this run began, counted as hands scored in one native
        call (`native_hands`, `native_hand_fallbacks`, `native_waits` of `Rules.stats()`)."""
        for hands, before in self.used.values():
            hands.count_batch(before)
        self.used.clear()


def native_context(rules, batch: Batch | None = None) -> NativeContexts:
    """The native batch driver's `native_context` (`NativeContexts`)."""
    return NativeContexts(rules, batch or Batch(rules))


def line_scorer(rules, batch: Batch | None = None):
    """The reference as the native batch driver calls it for each item it reads: (hand, melds, win,
    self_drawn, set) -> the output line; HandError or ValueError (one sentence) for a hand it refuses."""
    batch = batch or Batch(rules)

    def score(hand, melds, win, self_drawn, ctx):
        return output_line(batch.score((hand, melds, win, self_drawn, ctx)).to_json())

    return score


__all__ = ["BATCH_KEYS", "NESTED", "Batch", "NativeContexts", "as_args", "escape_surrogates", "item_args",
           "json_depth_exceeded", "line_scorer", "native_context", "output_line", "parse_line", "score_lines",
           "score_many", "write_lines"]
