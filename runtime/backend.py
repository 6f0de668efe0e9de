"""Which backend evaluates hands: the native core (runtime/native/, Rust, built as the extension module
named by NATIVE_MODULE) where it is built, else the pure-Python reference.

The native core answers the structural questions — can these tiles and wildcards form so many melds
and pairs (`can_split`), which kinds complete a hand (`completing_kinds`) — from the JSON rule set
alone, and counts every pattern of a reading (runtime/nativecounts.py: the expression language lowered
to native programs); everything after the counts is the Python runtime's. The references
(runtime/fastwin.py `BlockWin`, runtime/scoring.py `ReadingEvaluator`) answer the same questions and
stay the specification: the differential tests compare them.

    PAILI_BACKEND=python      the reference everywhere (also `load(path, backend="python")`)
    PAILI_BACKEND=native      the native core, an error where it is not built
    (unset, or auto)          the native core where it is built, else the reference

A rule set or input the native core does not take (a construct its catalog does not evaluate, more
wildcards than its tables hold) is answered by the reference, so results never depend on the backend.
"""
from __future__ import annotations

import os
from typing import Protocol

from .nativeload import NATIVE_MODULE, native_module

ENV = "PAILI_BACKEND"
CHOICES = ("auto", "native", "python")

SPLIT_COUNTS = 7  # tiles of each kind when listing every group of natural tiles (the native tables' MAX_COUNT)


class BackendError(ValueError):
    """An unknown backend name, or the native backend asked for where it is not built."""


def available() -> bool:
    return native_module() is not None


def choose(backend: str | None = None) -> str:
    """'native' or 'python' for a requested backend (None: the PAILI_BACKEND environment variable)."""
    name = (backend or os.environ.get(ENV) or "auto").strip().lower()
    if name not in CHOICES:
        raise BackendError(f"unknown backend '{name}' (choose one of: {', '.join(CHOICES)})")
    if name == "python":
        return "python"
    if name == "native" and not available():
        raise BackendError("the native backend is not built here (install with a Rust toolchain, or use "
                           "PAILI_BACKEND=python)")
    return "native" if available() else "python"


def describe(backend: str | None = None) -> str:
    """One line for `paili --version`: the active backend and what it covers."""
    try:
        active = choose(backend)
    except BackendError as exc:
        return f"backend: none ({exc})"
    mod = native_module()
    if active == "native":
        covers = ("win checks, waits, splits, the signature search, pattern counts, and the readings and scoring "
                  "of whole hands; the rest in Python")
        return f"backend: native ({NATIVE_MODULE} {mod.VERSION}: {covers})"
    why = "selected by PAILI_BACKEND" if mod is not None else "the native core is not built"
    return f"backend: python ({why})"


class Structure(Protocol):
    """The structural questions a backend answers (runtime/fastwin.py `BlockWin` is the reference)."""

    cap: int  # the most wildcards it takes; more go to the decomposer's own search

    def can_split(self, counts, wilds: int, melds: int, pairs: int) -> bool: ...

    def completing_kinds(self, counts, wilds: int, targets: tuple[tuple[int, int], ...]) -> list[int]: ...


class NativeStructure:
    """The native tables of one catalog, with the reference answering whatever they do not take."""

    name = "native"

    def __init__(self, tables, reference):
        self.tables = tables
        self.reference = reference
        self.cap = reference.cap
        mod = native_module()
        self.declined = (mod.NotCovered, mod.NativeError)
        self.failures = 0  # native errors answered by the reference (0 expected; the tests check)
        self.split_items = False  # whether the native tables enumerate splits (runtime/decompose.py)
        self.items: list = []  # the (spec, slots) item of each of the tables' split groups, once checked

    def fell_back(self, exc: Exception) -> None:
        """Count a native error the reference answered instead."""
        if isinstance(exc, native_module().NativeError):
            self.failures += 1

    def can_split(self, counts, wilds: int, melds: int, pairs: int) -> bool:
        try:
            return self.tables.can_split(counts, wilds, melds, pairs)
        except self.declined as exc:
            self.fell_back(exc)
            return self.reference.can_split(counts, wilds, melds, pairs)

    def can_split_any(self, counts, wilds: int, targets) -> bool:
        try:
            return self.tables.can_split_any(counts, wilds, targets)
        except self.declined as exc:
            self.fell_back(exc)
            return any(self.reference.can_split(counts, wilds, m, p) for m, p in targets)

    def completing_kinds(self, counts, wilds: int, targets) -> list[int]:
        try:
            return self.tables.completing_kinds(counts, wilds, list(targets))
        except self.declined as exc:
            self.fell_back(exc)
            return self.reference.completing_kinds(counts, wilds, targets)

    def splits_plain(self, counts, melds: int, pairs: int, limit: int) -> list[list]:
        """Every split of a hand without wildcards (the reference's `BlockWin.splits_plain`, in its
        order), each a list of the reference's items (spec, slots); the native tables stop after
        `limit + 1`. The reference enumerates when the native tables do not take the hand."""
        if self.split_items:
            try:
                return self.tables.splits_plain(tuple(counts), melds, pairs, limit)
            except self.declined as exc:
                self.fell_back(exc)
        return self.reference.splits_plain(counts, melds, pairs)

    def attach_split_items(self, dec) -> None:
        """Hand the native tables one (spec, slots) item per group of natural tiles, after checking
        that their groups and blocks are the reference's, kind by kind and in order; otherwise the
        reference enumerates splits (also with an extension built before the native splits existed)."""
        if not hasattr(self.tables, "split_groups"):
            return
        mine = [(si, tuple(k for k, _ in slots)) for i in range(dec.n) for si, spec in enumerate(dec.specs)
                for slots in dec.placements(spec, i, [SPLIT_COUNTS] * dec.n, 0)]
        theirs = [(si, tuple(kinds)) for si, kinds in self.tables.split_groups()]
        if mine != theirs or [list(b) for b in self.reference.blocks] != self.tables.blocks():
            return
        self.items = [(dec.specs[si], tuple((k, False) for k in kinds)) for si, kinds in mine]
        self.tables.set_split_items(self.items)
        self.split_items = True


def _option_value(v):
    """A room option's value as the native catalog takes it (None when it does not)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    from fractions import Fraction  # (here: a quick batch imports this module, not fractions and decimal)

    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    raise TypeError(type(v).__name__)


def native_structure(ruleset_json: str, options: dict, cat, dec, free: int = 0) -> tuple[NativeStructure | None, str]:
    """The native tables for one catalog (options: `option:NAME` -> value), or None and the reason
    when the native core does not take this rule set or these options. `free`: the most free tiles
    (wildcards and stand-ins) a hand can hold, which the tables are built for when it is more than the
    reference's tables take (`dec.fast.cap`): the native engine's win tests count stand-ins as free too;
    the reference's structure still asks them for at most its own cap. The native catalog must list
    the same kinds, copies and wildcard targets as the Python one; otherwise it is not used."""
    mod = native_module()
    if mod is None or dec.fast is None:
        return None, "the native core is not built"
    try:
        values = {k.split(":", 1)[1]: _option_value(v) for k, v in options.items() if k.startswith("option:")}
    except TypeError as exc:
        return None, f"a room option of type {exc} is not taken by the native catalog"
    try:
        tables = mod.Tables(ruleset_json, values, max(dec.fast.cap, free))
    except mod.NotCovered as exc:
        return None, str(exc)
    except (mod.NativeError, ValueError) as exc:
        return None, f"the native core refused the rule set: {exc}"
    if tables.kinds() != [(k.name, k.copies) for k in cat.kinds] or tables.wild_ok() != dec.wild_ok:
        return None, "the native catalog differs from the Python one"
    structure = NativeStructure(tables, dec.fast)
    structure.attach_split_items(dec)
    return structure, ""
