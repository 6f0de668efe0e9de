"""Raw pattern counts from the native core (runtime/native/src/program/): a reading handed over as
plain codes, every pattern's raw count handed back.

This is the counting seam of principle 3: the native programs replace only the raw counts, and
everything after them (exclusions, `combine`, units, the score, the best reading, the result) stays
the shared Python code. A reading the native programs do not finish (anything the reference would
raise on, a number past 64 bits, a value they do not hold) comes back as "fall back", and the
generated or reference evaluator counts it: the counts, and so every result, are the reference's.

Encoding (the native side's `value_of`): a tile is `kind index << 2 | wild << 1 | physical joker`,
given as ("t", code) inside values; a fraction ("q", numerator, denominator); a missing setting ("m",).
"""
from __future__ import annotations

import operator
from fractions import Fraction

from .evaluate import EvalError
from .reading import Group, Reading, RTile
from .tiles import TileInfo

MISSING = ("m",)


class Unencodable(Exception):
    """A value the native programs do not take (the reference then counts)."""


def tile_code(t) -> int:
    if type(t) is RTile:
        return (t.kind.index << 2) | (2 if t.wild else 0) | (1 if t.physical.category == "joker" else 0)
    return (t.index << 2) | (1 if t.category == "joker" else 0)


def encode(v):
    """A value of the reference's environment as the native side takes it."""
    if v is None or type(v) in (bool, int, str):
        return v
    if isinstance(v, (RTile, TileInfo)):
        return ("t", tile_code(v))
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else ("q", v.numerator, v.denominator)
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    raise Unencodable(type(v).__name__)


def group_code(g: Group) -> tuple:
    """(meld kind, tile codes, flags, value) of a group."""
    flags = (1 if g.exposed else 0) | (2 if g.concealed else 0) | (4 if g.is_pair else 0) \
        | (8 if g.is_kong else 0) | (16 if g.has_win else 0) | (32 if g.declared else 0)
    return g.kind, tuple(tile_code(t) for t in g.tiles), flags, encode(g.value)


# Groups kept (code, prefilter vector) by signature; past this many the cache starts afresh.
CODE_CACHE_LIMIT = 200_000


class NativeCounts:
    """The native pattern programs of one rule set under one catalog."""

    name = "native"

    def __init__(self, programs, mod, prefilter, settings: list[str] | None = None):
        """`programs`: the native pattern programs, or a function that makes them (at their first use:
        `native_counts` has them made only once a reading is counted in Python), given `settings`, the
        setting references they read."""
        self._programs = programs if not callable(programs) else None
        self._make = programs if callable(programs) else None
        self._owned: list[int] | None = None
        self.prefilter = prefilter if prefilter.tests else None  # the reference's (runtime/prefilter.py)
        self.settings = settings if settings is not None else self.programs.settings()
        self.mod = mod
        self.prefilter_tests: list = []  # as given to the programs (`native_counts`)
        self.scorer = None  # the native scoring of whole hands (runtime/nativescore.py), when built
        self.hands = None  # the native readings and scoring of whole hands (runtime/nativehand.py), when built
        self.hands_tried = False  # whether building them was tried (Rules.native_hands_for)
        self.declined = (mod.NotCovered, mod.NativeError)
        self.failures = 0  # internal errors of the native core (0 expected; the tests check)
        self.calls = 0
        self.fallbacks = 0  # readings the native programs left to the Python evaluators
        # (group signature, declared) -> (its code, its prefilter vector or None): a signature holds
        # everything the code is made of (kind, each tile's kind, wildness and physical tile, flags, value)
        self._codes: dict = {}

    @property
    def programs(self):
        """The native pattern programs (`Patterns`), made at their first use."""
        got = self._programs
        if got is None:
            got = self._programs = self._make()
        return got

    @property
    def owned(self) -> list[int]:
        """The patterns the Python side counts (those that read units), by index."""
        got = self._owned
        if got is None:
            got = self._owned = [i for i, x in enumerate(self.programs.python_owned()) if x]
        return got

    def hand_state(self, env: dict, self_drawn: bool, flowers) -> list | None:
        """What every reading of one hand shares: [settings, self_drawn, flowers, waits, shape waits],
        or None when a setting cannot be handed over (the Python evaluators then count the hand)."""
        try:
            settings = tuple(encode(env[k]) if k in env else MISSING for k in self.settings)
            codes = tuple(tile_code(t) for t in flowers)
        except Unencodable:
            return None
        return [settings, self_drawn, codes, None, None]

    def encode(self, r: Reading) -> tuple | None:
        """Reading r as the native programs take it: (groups, tiles, hand, winning tile, winning group,
        form, packed prefilter counts), or None when a value cannot be handed over."""
        groups = r.groups
        codes = self._codes
        pre = self.prefilter
        index: dict[int, int] = {}
        gs = []
        packed = 0
        for i, g in enumerate(groups):
            key = (g.sig, g.declared)
            got = codes.get(key)
            if got is None:
                if len(codes) > CODE_CACHE_LIMIT:
                    codes.clear()
                vec = None
                if pre is not None:
                    try:
                        vec = pre.vector(g, g.declared)
                    except (EvalError, KeyError, TypeError):  # as Prefilter.counts: no prefilter then
                        pass
                try:
                    code = group_code(g)
                except Unencodable:  # a value the programs do not hold: the Python evaluators count
                    return None
                got = codes[key] = (code, vec)
            gs.append(got[0] + (index.setdefault(id(g), i),))
            if packed is not None:
                packed = packed + got[1] if got[1] is not None else None
        wg = r.win_group
        win_group = index.get(id(wg), -2) if wg is not None else -1
        if win_group == -2:  # not one of the groups: the reference reads it
            return None
        wt = r.win_tile
        win_tile = tile_code(wt) if wt is not None else -1
        gathered = r.gathered
        tiles = None if gathered else tuple(tile_code(t) for t in r.tiles)
        hand = None if gathered else tuple(tile_code(t) for t in r.hand)
        # the prefilter applies when the groups hold every tile (runtime/scoring.py ReadingEvaluator)
        if pre is None or (not gathered and sum(len(g.tiles) for g in groups) != len(r.tiles)):
            packed = None
        if packed is not None:
            packed = packed.to_bytes((packed.bit_length() + 7) // 8, "little")
        return tuple(gs), tiles, hand, win_tile, win_group, r.form, packed

    def counts(self, waits_of_hand, state: list, r: Reading, work: list[int] | None = None) -> list[int] | None:
        """Every pattern's raw count of reading r (0 for the patterns the Python side counts), or None
        when the Python evaluators must count this reading. `work`: the hand's work list, which the waits'
        trials charge."""
        self.calls += 1
        got = self.encode(r)
        if got is None:
            self.fallbacks += 1
            return None
        gs, tiles, hand, win_tile, win_group, form, packed = got
        call = self.programs.raw_counts
        for _ in range(3):
            try:
                got = call(state[0], state[1], state[2], state[3], state[4], gs, tiles, hand, win_tile,
                           win_group, form, packed)
            except self.declined as exc:  # a number past 64 bits, or an internal error (counted)
                if isinstance(exc, self.mod.NativeError):
                    self.failures += 1
                break
            if type(got) is list:
                return got
            if got not in (1, 2):
                break
            left = work[0] if work is not None else 0
            try:  # the reference computes them when it reads them; if that fails, it says how
                waits = waits_of_hand(shape=got == 2)
            except Exception:  # noqa: BLE001 - the reference evaluator meets the same failure itself
                # ... asking the same trials again: the work they charged here is given back, so that they
                # are charged once, as the reference alone charges them (the same refusal, the same work left)
                if work is not None:
                    work[0] = left
                break
            state[2 + got] = encode(waits)
        self.fallbacks += 1
        return None


OPCODES = {operator.eq: 0, operator.ne: 1, operator.lt: 2, operator.le: 3, operator.gt: 4, operator.ge: 5}


def native_counts(ruleset_json: str, options: dict, cat, mod, pre, pattern_names,
                  scorer=None) -> tuple[NativeCounts | None, str]:
    """The native pattern programs for one catalog (options: `option:NAME` -> value), or None and the
    reason when the native core does not take this rule set's patterns. The fields the programs read
    must be the Python catalog's, kind by kind; otherwise they are not used. `pre`: the rule set's
    prefilter of its patterns (runtime/prefilter.py), whose tests the programs apply as the reference
    does (a pattern failing one counts 0 without being evaluated); `pattern_names`: the patterns in
    declaration order. `scorer`: the native scoring programs (`Scorer`) of the same rule set and options,
    when the core made them: they lower the very programs the pattern programs are (the same rule set,
    catalog and lowering), so these are then made at their first use, not here (a run that scores every
    hand natively never uses them)."""
    if not hasattr(mod, "Patterns"):  # an extension built from an older crate: rebuild it to count natively
        return None, "the native core was built before its pattern programs existed (rebuild it)"
    tests = [[(f, OPCODES[op], k) for f, op, k in pre.tests.get(name, ())] for name in pattern_names]

    def make():
        programs, why = native_programs(mod.Patterns, ruleset_json, options, cat, mod, "patterns")
        if programs is None:  # not for a rule set whose scoring programs were made: they lower the same
            raise mod.NativeError(f"the pattern programs were refused after the scoring programs: {why}")
        programs.set_prefilter(tests)
        return programs

    if scorer is not None:
        counts = NativeCounts(make, mod, pre, scorer.settings())
    else:
        programs, why = native_programs(mod.Patterns, ruleset_json, options, cat, mod, "patterns")
        if programs is None:
            return None, why
        programs.set_prefilter(tests)
        counts = NativeCounts(programs, mod, pre)
    counts.prefilter_tests = tests
    return counts, ""


def native_programs(make, ruleset_json: str, options: dict, cat, mod, what: str):
    """One set of the native core's programs for a rule set (`make`: its class, given the options'
    values), or None and the reason when the core does not take the rule set's `what` or its catalog
    differs from the Python one."""
    try:
        values = {k.split(":", 1)[1]: v for k, v in options.items() if k.startswith("option:")}
        programs = make(ruleset_json, values)
    except mod.NotCovered as exc:
        return None, str(exc)
    except (mod.NativeError, ValueError, TypeError) as exc:
        return None, f"the native core refused the rule set's {what}: {exc}"
    why = native_fields_match(programs, cat)
    if why:
        return None, why
    return programs, ""


def native_fields_match(programs, cat) -> str:
    """Why the native programs' catalog differs from the Python one (the kinds, and every tile field
    they read, kind by kind), or "" when it does not."""
    if programs.kinds() != [k.name for k in cat.kinds]:
        return "the native catalog differs from the Python one"
    for f, name in enumerate(programs.fields()):
        for k in cat.kinds:
            try:
                want = encode(k.f[name]) if name in k.f else MISSING
            except Unencodable:
                return f"the tile field {name} holds a value the native programs do not take"
            if programs.kind_field(k.index, f) != want:
                return f"the native catalog's field {name} of {k.name} differs from the Python one"
    return ""


__all__ = ["NativeCounts", "native_counts", "native_fields_match", "native_programs", "encode", "group_code",
           "tile_code"]
