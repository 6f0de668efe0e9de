"""Whole hands scored by the native core (runtime/native/src/score.rs): every reading of a hand handed over
at once, each scored in Rust from its raw counts to its score — exclusions, `combine`, units, the
pattern that reads a unit, the requirements, the score formula — and the reading that counts chosen
there with the reference's tie-break; this module builds the result object of that one reading.

The seam of principle 3 once more: the native result is only ever the reference's. A rule set whose
values, requirements or score formula the native programs do not lower is scored by the generated
scorer (runtime/fastscore.py) throughout (`Rules.stats()["scoring"]`); a hand they stop on (a value
the reference would raise on, a number past 64 bits, a value that cannot be handed over) is handed
back whole and counted (`fallbacks`, `Rules.stats()["native_score_fallbacks"]`). Readings of instant
and orphans forms, whose groups do not hold every tile, go over with their tiles and concealed tiles
listed (the prefilter then does not apply), as the pattern programs take them.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .fans import unmet_reason
from .nativecounts import MISSING, NativeCounts, Unencodable, encode, native_programs, tile_code
from .reading import Reading

if TYPE_CHECKING:
    from .result import ScoreResult

# runtime/result.py's ScoreResult, runtime/scoring.py's FanLine and LazyEvaluation, imported at their first
# use (a native batch, which writes its results itself, needs none) and kept (an import statement run per
# call costs a scored hand about a microsecond)
_LATE: list = []


def _late() -> list:
    from .result import ScoreResult
    from .scoring import FanLine, LazyEvaluation

    _LATE[:] = [ScoreResult, FanLine, LazyEvaluation]
    return _LATE


ENVS_KEPT = 1024  # environments whose encoded settings a scorer keeps (the table starts over past it)


class AskWaits:
    """The waits of one hand as `Scorer.score_hand` asks for them where its own trials do not answer
    (given what its trials found and spent so far, kept with the hand first): (the waits encoded, the
    hand's work left), or None when the reference cannot give them (the hand is then handed back, and
    the Python scorer meets the same failure itself)."""

    __slots__ = ("sc",)

    def __init__(self, sc):
        self.sc = sc

    def __call__(self, shape: bool, spent: int, waits, shape_waits):
        sc = self.sc
        # what the native trials found and took before these, kept with the hand as the reference would
        # have it by now (a hand handed back after this finds and charges neither again)
        sc.work[0] -= spent
        kinds = sc.cat.kinds
        if waits is not None:
            sc.set_waits([kinds[i] for i in waits], False)
        if shape_waits is not None:
            sc.set_waits([kinds[i] for i in shape_waits], True)
        left = sc.work[0]
        try:
            waits = sc.waits_of_hand(shape=shape)
            return encode(waits), sc.work[0]
        except Exception:  # noqa: BLE001 - the Python scorer meets the same failure itself
            # ... asking the same trials again: the work they charged here is given back, so that they are
            # charged once, as the reference alone charges them (the same refusal, the same work left)
            sc.work[0] = left
            return None


class NativeScorer:
    """The native scoring programs of one rule set under one catalog, beside its pattern programs
    (whose reading encoding they share)."""

    name = "native"

    def __init__(self, scorer, counts: NativeCounts):
        self.scorer = scorer
        self.counts = counts
        self.settings = scorer.settings()
        self.hands = 0
        self.fallbacks = 0  # hands handed back to the Python scorer
        # The wait trials in native code (runtime/native/src/waits/), or why not ("" when they are)
        self.waits_declined = scorer.waits_declined()
        self.wait_calls = 0
        self.wait_fallbacks = 0  # waits the reference found instead (a hand the trials decline)
        # id of an environment -> (it, its settings encoded or None): environments are kept per context
        # (runtime/contexts.py) and only read, so each is encoded once; holding it keeps its id its own
        self._settings: dict[int, tuple] = {}

    def hand_state(self, env: dict, self_drawn: bool, flowers) -> list | None:
        """What the native scoring of one hand takes besides its tiles: [settings, self_drawn, flowers,
        waits, shape waits], or None when a setting cannot be handed over."""
        got = self._settings.get(id(env))
        if got is None or got[0] is not env:
            try:
                settings = tuple(encode(env[k]) if k in env else MISSING for k in self.settings)
            except Unencodable:
                settings = None
            if len(self._settings) >= ENVS_KEPT:
                self._settings.clear()
            got = self._settings[id(env)] = (env, settings)
        settings = got[1]
        if settings is None:
            return None
        try:
            codes = tuple([tile_code(t) for t in flowers]) if flowers else ()
        except Unencodable:
            return None
        return [settings, self_drawn, codes, None, None]

    def score(self, sc, readings: list) -> ScoreResult | None:
        """The result of scoring `readings` (all of one hand, `sc` its Scoring), or None when the Python
        scorer must score this hand."""
        self.hands += 1
        encoded = []
        for r in readings:
            e = self.counts.encode(r)
            if e is None:
                self.fallbacks += 1
                return None
            encoded.append(e)
        state = self.hand_state(sc.env, sc.hand.self_drawn, sc.flower_tiles())
        if state is None:
            self.fallbacks += 1
            return None
        encoded = tuple(encoded)
        hand = self.hand_of(sc) if sc.hand.win is not None else None  # (no winning tile: no waits)
        if hand is not None:
            hand = hand + (sc.work[0],)
        try:
            # where a pattern reads waits the native trials do not find, `ask` gives the reference's and
            # the scoring goes on from there
            got = self.scorer.score_hand(state[0], state[1], state[2], state[3], state[4], encoded, hand,
                                         AskWaits(sc))
        except self.counts.declined as exc:  # a number past 64 bits, or an internal error (counted)
            if isinstance(exc, self.counts.mod.NativeError):
                self.counts.failures += 1
            got = None
        if type(got) is not tuple:
            self.fallbacks += 1
            return None
        waits, shape_waits, spent = got[12:]
        if spent:
            sc.work[0] -= spent
        kinds = sc.cat.kinds
        if waits is not None:
            self.wait_calls += 1
            sc.set_waits([kinds[i] for i in waits], False)
        if shape_waits is not None:
            self.wait_calls += 1
            sc.set_waits([kinds[i] for i in shape_waits], True)
        return self._result(sc, readings, got)

    def hand_of(self, sc) -> tuple | None:
        """The hand without its winning tile as the wait trials take it: (concealed kinds, ((meld kind,
        kinds), …)), or None when they do not find this rule set's waits."""
        if self.waits_declined:
            return None
        h = sc.hand
        return (tuple(t.index for t in h.concealed),
                tuple((m.kind, tuple(t.index for t in m.tiles)) for m in h.melds))

    def waits(self, sc, shape: bool) -> list | None:
        """`Scoring.wait_kinds(shape)` found by the native wait trials (their work taken off the hand's),
        or None when the reference must find them (counted)."""
        hand = self.hand_of(sc)
        if hand is None:  # a rule set whose waits the trials do not find (wildcards, stand-ins, …)
            self.wait_fallbacks += 1
            return None
        state = self.hand_state(sc.env, sc.hand.self_drawn, sc.flower_tiles())
        if state is None:
            self.wait_fallbacks += 1
            return None
        try:
            got = self.scorer.waits(state[0], state[1], tuple(t.index for t in sc.hand.flowers), hand[0], hand[1],
                                    shape, sc.work[0])
        except self.counts.declined as exc:  # an internal error (counted); the reference answers
            if isinstance(exc, self.counts.mod.NativeError):
                self.counts.failures += 1
            got = None
        if type(got) is not tuple:
            self.wait_fallbacks += 1
            return None
        kinds, spent = got
        sc.work[0] -= spent
        self.wait_calls += 1
        cat = sc.cat.kinds
        return [cat[i] for i in kinds]

    @staticmethod
    def _result(sc, readings: list, got: tuple) -> ScoreResult:
        chosen, win, considered, refused, final, values, units, score, total, best, trace, quantities = got[:12]
        requires = sc.rules.requires
        rejected = [f"{readings[j].describe()}: {unmet_reason(requires[q][0])}" for j, q in refused]
        return result_of(sc, readings[chosen], win, considered, rejected, final, values, units, score, total, best,
                         trace, quantities)


def result_of(sc, r, win: bool, considered: int, rejected: list[str], final, values, units, score, total, best,
              trace, quantities, labels=None, rules=None) -> ScoreResult:
    """The result object of reading r of the hand `sc` scores (r a Reading, or a function that makes it:
    then the reading and the fan lines are made when first read), from what the native scoring found
    for it (as `Scorer.score_hand` hands it back): labels with expressions as `labels` gives them (per
    fan, None where not given) or computed by the reference environment, the quantities and exclusions
    given lazily. With `rules` given, `sc` is a function that makes the hand's `Scoring` (made when the
    result is first read beyond what the native scoring gave: runtime/nativelane.py)."""
    ScoreResult, FanLine, LazyEvaluation = _LATE or _late()
    if rules is None:
        rules = sc.rules
        sc = (lambda s: lambda: s)(sc)
    fast = rules.lines  # the pattern lines, units and quantities (runtime/fans.py `PatternLines`)
    made = r if isinstance(r, Reading) else None

    def reading() -> Reading:
        nonlocal made
        if made is None:
            made = r()
        return made

    def later() -> tuple:
        rd = reading()
        meta = fast.fan_meta
        fans = []
        ref = None
        for k, ((i, n), v) in enumerate(zip(final, values)):
            label, name, unit = meta[i]
            if label is None and labels is not None:
                label = labels[k]
            if label is None:  # a label with expressions: the reference environment computes it
                ref = ref or sc().evaluator(rd)
                label = ref.label(fast.patterns[i])
            fans.append(FanLine(label, name, value(v), n, unit))
        return rd, fans

    def excluded() -> list:
        names = fast.tally.names
        combines = fast.tally.combines
        out = []
        for i, how, by, fewer in trace:
            if how == 0:
                out.append((names[i], names[by]))
            elif how == 1:
                out.append((names[i], "count lowered"))
            else:
                out.append((names[i], f"{combines[by][0].name} ×{fewer}"))
        return out

    def qs() -> dict | None:
        return dict(zip(fast.quantity_names, map(value, quantities))) if quantities is not None else None

    ev = LazyEvaluation(None, None, dict(zip(fast.unit_order, map(value, units))), value(score), value(total),
                        value(best), lambda: sc().evaluator(reading()), qs, excluded, later=later)
    if win:
        return ScoreResult(True, "", ev, considered, rejected)
    return ScoreResult(False, rejected[0].split(": ", 1)[1], ev, 0, rejected)


def value(v):
    """A value as the native core hands it back: ("q", n, d) is a fraction."""
    if type(v) is tuple:
        return Fraction(v[1], v[2])
    return v


def scoring_programs(ruleset_json: str, options: dict, cat, mod) -> tuple:
    """The native core's scoring programs (`Scorer`) for one catalog, or None and the reason."""
    if not hasattr(mod, "Scorer"):  # an extension built from an older crate
        return None, "the native core was built before its scoring existed (rebuild it)"
    return native_programs(mod.Scorer, ruleset_json, options, cat, mod, "scoring")


def native_scorer(ruleset_json: str, options: dict, cat, mod, counts: NativeCounts | None,
                  made: tuple | None = None) -> tuple[NativeScorer | None, str]:
    """The native scoring programs for one catalog, or None and the reason (`made`: what
    `scoring_programs` gave, when the caller asked it already)."""
    if counts is None:
        return None, "the pattern programs are not used"
    scorer, why = made if made is not None else scoring_programs(ruleset_json, options, cat, mod)
    if scorer is None:
        return None, why
    scorer.set_prefilter(counts.prefilter_tests)  # the reference's tests, as the pattern programs apply them
    return NativeScorer(scorer, counts), ""


__all__ = ["AskWaits", "NativeScorer", "native_scorer", "result_of", "scoring_programs", "value"]
