"""`paili score VARIANT --batch FILE --json` for a bundled variant, started without the IR: the native core
builds its tables and programs from the shipped compiled JSON, the rest of what its batch driver asks
of the Python side comes from the variant's recorded setup (runtime/batchsetup.py), and nothing of the
IR, the reference's scorers or a `Rules` is made unless a line needs them.

What still needs the reference goes to it, made at its first use by the caller's `load_rules` (today's
path: the same `Rules` the command would have made): a line the native scorer does not take (the driver's
line scorer), a context the recorded table does not convert (runtime/quickcontext.py: then that
context's native scoring is the `Rules`' own, runtime/batch.py `NativeContexts`), a laid-down meld not
recorded (checked and encoded by the `Rules`' native hands, then known). So every line's output is what
today's path writes: tests/test_batch_startup.py compares the bytes.
"""
from __future__ import annotations

import os
import sys

from .batchsetup import native_parts, verified
from .limits import CONTEXTS_KEPT, MAX_BATCH_DEPTH, MAX_BATCH_LINE, MAX_NUMBER_DIGITS
from .nativeload import native_module

DECLINED: list[str] = []  # why the last `prepare` left a batch to today's path (for the tests and --stats)


class QuickBatch:
    """One batch run on a bundled variant's recorded setup."""

    def __init__(self, mod, text: bytes, setup: dict, tables, hands, load_rules):
        self.mod = mod
        self.setup = setup
        self.load_rules = load_rules
        self._rules = None
        self._batch = None
        self._contexts = None  # runtime/batch.py NativeContexts of the loaded Rules
        self._quick = None  # runtime/quickcontext.py QuickContexts, made at the first line with a context
        c = setup["context"]  # settings (not self-drawn, self-drawn), forms, work, flowers, limits, held back, wild
        self.plain = (hands, tables, c[0], c[1], self.meld, *c[2:])
        self.hands = hands
        self.reference_contexts = 0  # distinct contexts handed to the Rules' native scoring

    def rules(self):
        """The `Rules` of today's path, made once, at the first line that needs it."""
        if self._rules is None:
            from .batch import Batch, native_context

            self._rules = self.load_rules()
            self._batch = Batch(self._rules)
            self._contexts = native_context(self._rules, self._batch)
        return self._rules

    def context(self, ctx: dict):
        """The native driver's `native_context`: what a context's lines are scored with natively."""
        if not ctx:
            return self.plain
        if self._quick is None:  # (a batch without contexts neither imports nor compiles it)
            from .quickcontext import QuickContexts

            self._quick = QuickContexts(self.setup.get("contexts"))
        changes = self._quick.changes(ctx)
        if changes is not None:
            s0, s1 = list(self.plain[2]), list(self.plain[3])
            for pos, v in changes:
                s0[pos] = s1[pos] = v
            return (*self.plain[:2], s0, s1, *self.plain[4:])
        self.reference_contexts += 1
        self.rules()
        return self._contexts(ctx)

    def meld(self, kind: str, kinds: list) -> bool:
        """A meld not recorded: checked and encoded by the `Rules`' native hands, then known here too."""
        rules = self.rules()
        cat, dec, _env = rules.env_for(None)
        nh = rules.native_hands_for(cat, dec)
        got = None if nh is None else nh.checked_meld(rules, cat, kind, kinds)
        if got is None:
            return False
        self.hands.add_meld(got)
        return True

    def line_scorer(self):
        from .batch import line_scorer

        rules = self.rules()
        return line_scorer(rules, self._batch)

    def run(self, stream, out) -> tuple[int, dict]:
        """As runtime/batch.py `write_lines`: (lines failed, {"native": N, "reference": M})."""
        source = _fd(stream)
        sink = _fd(out)
        encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
        if sink is None or encoding != "utf8" or os.linesep != "\n":
            sink = out.write
        else:
            out.flush()
        try:
            failed, native_n, reference_n = self.mod.run_batch(
                stream if source is None else source, sink, self.line_scorer, (ValueError,), MAX_BATCH_LINE,
                MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, CONTEXTS_KEPT, sys.version_info >= (3, 13), self.context)
        finally:
            if self._contexts is not None:
                self._contexts.count()
        return failed, {"native": native_n, "reference": reference_n, "setup": "recorded",
                        "rules_loaded": self._rules is not None}


def _fd(stream) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def prepare(stem: str, load_rules) -> QuickBatch | None:
    """The quick batch of a bundled variant, or None (the reason in DECLINED) when today's path runs it:
    the reference backend chosen, no native core, no verified setup, a native part that differs."""
    DECLINED.clear()
    why = _prepare(stem, load_rules)
    if isinstance(why, QuickBatch):
        return why
    DECLINED.append(why)
    return None


def _prepare(stem: str, load_rules):
    if (os.environ.get("PAILI_BACKEND") or "auto").strip().lower() not in ("auto", "native"):
        return "the reference backend is chosen"
    mod = native_module()
    if mod is None or not all(hasattr(mod, x) for x in ("run_batch", "Hands", "Scorer", "Tables")):
        return "the native core is not built"
    got = verified(mod, stem)
    if isinstance(got, str):
        return got
    text, setup = got
    parts = native_parts(mod, text, setup)
    if isinstance(parts, str):
        return parts
    return QuickBatch(mod, text, setup, *parts, load_rules)


__all__ = ["DECLINED", "QuickBatch", "prepare"]
