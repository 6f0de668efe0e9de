"""Scoring one reading: patterns (raw counts, exclusions, the combination rule), units, quantities,
the score; and choosing the reading that counts.

Semantics (docs/language.md §10–12):
- a pattern name in an expression is its raw count (its own condition, before exclusions);
- `excludes Q` removes Q when this pattern is counted; `excludes Q 3` lowers Q's count by 3 instead;
  a pattern that is not counted (removed, or lowered to nothing) excludes nothing (`runtime/exclusions.py`);
- patterns in a `combine` block count combinations of melds; the combinations kept are the most
  valuable set in which each one brings in a meld not yet combined (套算一次) and no meld forms the
  same pattern twice (不得相同);
- a unit's value combines its patterns' final values (sum / product / max);
- the reading that counts is the one with the highest `best` (default: the score), ties broken by the
  score, then by the order readings are found.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from .evaluate import EvalError, compile_expr, number
from .fans import Tally
from .ir import expr as E
from .ir import nodes as ir
from .reading import Reading


@dataclass
class FanLine:
    name: str  # the pattern's display name (label applied)
    pattern: str  # the declared pattern name
    value: Any
    count: int
    unit: str


@dataclass
class Evaluation:
    reading: Reading
    fans: list[FanLine]
    units: dict[str, Any]
    quantities: dict[str, Any]
    score: Any
    total: Any
    best: Any
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (pattern, by)


class LazyEvaluation(Evaluation):
    """An evaluation whose explanations (quantities, the exclusions applied) are computed when first
    asked for: by `quantities_fn` / `excluded_fn` from what scoring the reading already computed (the
    generated scorer's own counts and values), or, where one is not given or returns None, by the
    reference evaluator (`make_reference`); the rest is given. With `later`, the reading and the fan
    lines are made when first read too (`later()` gives both): a caller that reads only the score
    never builds the Python reading of a hand the native core scored."""

    def __init__(self, reading, fans, units, score, total, best, make_reference, quantities_fn=None,
                 excluded_fn=None, later=None):
        self._later = later
        self._reading = reading
        self._fans = fans
        self.units = units
        self.score = score
        self.total = total
        self.best = best
        self._make = make_reference
        self._ref = None
        self._quantities = None
        self._excluded = None
        self._quantities_fn = quantities_fn
        self._excluded_fn = excluded_fn

    def _settle(self) -> None:
        later, self._later = self._later, None
        self._reading, self._fans = later()

    @property
    def reading(self):
        if self._later is not None:
            self._settle()
        return self._reading

    @reading.setter
    def reading(self, r) -> None:
        if self._later is not None:
            self._settle()
        self._reading = r

    @property
    def fans(self):
        if self._later is not None:
            self._settle()
        return self._fans

    @fans.setter
    def fans(self, fans) -> None:
        if self._later is not None:
            self._settle()
        self._fans = fans

    def _reference(self):
        if self._ref is None:
            self._ref = self._make()
        return self._ref

    @property
    def quantities(self):
        if self._quantities is None:
            got = self._quantities_fn() if self._quantities_fn is not None else None
            if got is not None:
                self._quantities = got
                return got
            ref = self._reference()
            out = {}
            for q in ref.cp.rs.quantities:
                try:
                    out[q.name] = ref.env[f"quantity:{q.name}"]
                except EvalError:
                    out[q.name] = None
            self._quantities = out
        return self._quantities

    @property
    def excluded(self):
        if self._excluded is None:
            got = self._excluded_fn() if self._excluded_fn is not None else None
            if got is not None:
                self._excluded = got
                return got
            ref = self._reference()
            ref.final_counts()
            self._excluded = list(ref.excluded)
        return self._excluded


class CompiledPatterns:
    """Closures for every pattern, quantity and the score, compiled once per rule set."""

    def __init__(self, rs: ir.RuleSet, prefilter=None):
        """`prefilter`: the rule set's `Prefilter` of its patterns when the caller has it (made here
        otherwise)."""
        self.rs = rs
        self.patterns = [p for p in rs.patterns]
        self.pattern_names = [p.name for p in rs.patterns]
        self.tally = Tally(rs)  # exclusions, combine, max units, units: shared with the generated scorer
        self.index = {p.name: i for i, p in enumerate(rs.patterns)}
        self.when = {p.name: compile_expr(p.when) if p.when is not None else None for p in rs.patterns}
        self.count = {p.name: compile_expr(p.count) if p.count is not None else None for p in rs.patterns}
        self.value = {p.name: compile_expr(p.value) for p in rs.patterns}
        self.enabled = {p.name: compile_expr(p.enabled) if p.enabled is not None else None for p in rs.patterns}
        self.quantities = {q.name: compile_expr(q.expr) for q in rs.quantities}
        self.units = {u.name: u.combine for u in rs.units}
        self.unit_order = [u.name for u in rs.units]
        self.score = compile_expr(rs.score.expr) if rs.score else (lambda env: 0)
        self.best = compile_expr(rs.score.best) if rs.score and rs.score.best is not None else None
        self.total = compile_expr(rs.score.total) if rs.score and rs.score.total is not None else None
        self.combined = {}
        for c in rs.combines:
            for name in c.patterns:
                self.combined[name] = c
        self.combo_parts = {}
        for name in self.combined:
            p = rs.pattern(name)
            comp = p.count
            assert isinstance(comp, E.Comp)
            self.combo_parts[name] = (compile_expr(comp.source), compile_expr(comp.body),
                                      [f"binder:{b}" for b in comp.binders])
        self.labels = {p.name: _label_parts(p) for p in rs.patterns if p.label}
        self.label_fns: dict[str, list] = {}
        if prefilter is None:
            from .prefilter import Prefilter

            prefilter = Prefilter(rs.patterns)
        self.prefilter = prefilter
        self.deps = {p.name: _projection(p) for p in rs.patterns}
        self.memo: dict = {}
        # Patterns that read the same things are looked up together: one key answers them all.
        groups: dict = {}
        for p in rs.patterns:
            groups.setdefault(self.deps[p.name], []).append(p.name)
        self.by_projection = [(proj, tuple(names)) for proj, names in groups.items()]


def _label_parts(p: ir.Pattern) -> list:
    """A label as text and `{expression}` parts (parsed and resolved by the compiler: `label_exprs`)."""
    texts = ir.LABEL_SLOT.split(p.label)[::2]  # the text around the slots
    parts: list = [texts[0]]
    for e, text in zip(p.label_exprs, texts[1:]):
        parts += [e, text]
    return parts


# Reading builtins a pattern's raw count may be remembered by (their signatures form the key).
MEMO_LISTS = ("melds", "groups", "pairs", "runs", "triplets", "kongs", "exposed", "tiles", "hand")
MEMO_VALUES = ("pair", "suits", "menqing", "form")
MEMO_LIMIT = 500_000


def _projection(p: ir.Pattern):
    """What a pattern's raw count depends on, when that is only reading lists, simple reading values
    and settings: (builtins, setting refs). None when it reads anything else (the winning tile, waits,
    other patterns, quantities…), which must be evaluated every time."""
    builtins, settings = set(), set()
    for e in (p.when, p.count, p.enabled):
        if e is None:
            continue
        for n in E.walk(e):
            if not isinstance(n, E.Name):
                continue
            cat, _, name = n.ref.partition(":")
            if cat == "builtin":
                if name not in MEMO_LISTS and name not in MEMO_VALUES:
                    return None
                builtins.add(name)
            elif cat in ("option", "context", "reveal"):
                settings.add(n.ref)
            elif cat not in ("binder", "tile", "suit", "meld", "form", "flowerclass"):
                return None
    return tuple(sorted(builtins)), tuple(sorted(settings))


class LazyEnv(dict):
    """The reading scope: fixed values up front, patterns / quantities / units / waits on demand."""

    def __init__(self, base: dict, ev: ReadingEvaluator):
        super().__init__(base)
        self.ev = ev

    def __missing__(self, key):
        cat, _, name = key.partition(":")
        if cat == "pattern":
            v = self.ev.raw_count(name)
        elif cat == "quantity":
            v = self.ev.quantity(name)
        elif cat == "unit":
            v = self.ev.unit(name)
        elif key == "builtin:waits":
            v = self.ev.waits()
        elif key == "builtin:shape_waits":
            v = self.ev.shape_waits()
        else:
            raise KeyError(key)
        self[key] = v
        return v


class ReadingEvaluator:
    """Evaluates one reading. Created per reading; caches what it computes."""

    def __init__(self, cp: CompiledPatterns, env_base: dict, reading: Reading, waits_fn):
        self.cp = cp
        self.reading = reading
        self.waits_fn = waits_fn
        self.env = LazyEnv(env_base, self)
        self._raw: dict[str, int] = {}
        self._final: dict[str, int] | None = None
        self._final_idx: dict[int, int] | None = None  # the same by pattern index (`Tally`)
        self._combos: dict[str, list] = {}
        self.excluded: list[tuple[str, str]] = []
        # The prefilter applies when the reading's groups hold all its tiles (not instant forms).
        groups = reading.groups
        self.packed = None
        if cp.prefilter.tests and sum(len(g.tiles) for g in groups) == len(reading.tiles):
            self.packed = cp.prefilter.counts(groups)

    def waits(self):
        return self.waits_fn()

    def shape_waits(self):
        return self.waits_fn(shape=True)

    def given_counts(self, raw: dict[str, int]) -> None:
        """Raw counts another backend found for this reading (runtime/nativecounts.py): the same
        values this evaluator would compute, so they are taken as computed."""
        self._raw.update(raw)

    def raw_count(self, name: str) -> int:
        if name in self._raw:
            return self._raw[name]
        cp = self.cp
        self._raw[name] = 0  # guards against re-entry while computing
        if self.packed is not None and not cp.prefilter.passes(name, self.packed):
            return 0
        return self._raw_count(name)

    def key_of(self, builtin: str):
        """A hashable signature of one reading builtin (lists by their items' signatures)."""
        k = "#sig:" + builtin
        v = self.env.get(k)
        if v is None:
            x = self.env["builtin:" + builtin]
            if builtin in MEMO_LISTS:
                v = tuple(i.sig for i in x)
            elif builtin == "pair":
                v = x.sig if x is not None else ()
            elif builtin == "suits":
                v = tuple(x)
            else:
                v = x
            self.env[k] = v
        return v

    def _raw_count(self, name: str) -> int:
        cp, env = self.cp, self.env
        en = cp.enabled[name]
        if en is not None and not en(env):
            return 0
        w = cp.when[name]
        if w is not None and not w(env):
            return 0
        if name in cp.combined:
            combos = self.combos(name)
            n = len(combos)
        else:
            c = cp.count[name]
            n = int(c(env)) if c is not None else 1
        self._raw[name] = max(n, 0)
        return self._raw[name]

    def combos(self, name: str) -> list[tuple[int, ...]]:
        if name not in self._combos:
            src, body, keys = self.cp.combo_parts[name]
            items = list(src(self.env) or [])
            # A meld is identified by the object and its occurrence: two equal melds of one reading may
            # be one shared object (groups are cached), and still count as two melds.
            seen: dict[int, int] = {}
            tokens = []
            for x in items:
                n = seen.get(id(x), 0)
                seen[id(x)] = n + 1
                tokens.append((id(x), n))
            found = []
            for combo in itertools.combinations(range(len(items)), len(keys)):
                for k, i in zip(keys, combo):
                    self.env[k] = items[i]
                if body(self.env):
                    found.append(tuple(tokens[i] for i in combo))
            self._combos[name] = found
        return self._combos[name]

    def quantity(self, name: str):
        return self.cp.quantities[name](self.env)

    def all_raw_counts(self) -> dict[str, int]:
        """Every pattern's raw count; patterns of one dependency projection share one memo entry."""
        cp, env = self.cp, self.env
        raw = self._raw
        for gi, (proj, names) in enumerate(cp.by_projection):
            if proj is None:
                for name in names:
                    if name not in raw:
                        self.raw_count(name)
                continue
            key = (gi,) + tuple(self.key_of(b) for b in proj[0]) + tuple(env[r] for r in proj[1])
            got = cp.memo.get(key)
            if got is None:
                got = tuple(self.raw_count(name) for name in names)
                if len(cp.memo) > MEMO_LIMIT:
                    cp.memo.clear()
                cp.memo[key] = got
            else:
                for name, n in zip(names, got):
                    raw.setdefault(name, n)
        return raw

    def final_counts(self) -> dict[str, int]:
        if self._final is not None:
            return self._final
        cp = self.cp
        raw = self.all_raw_counts()
        if self._final is not None:
            # A pattern that reads a unit was counted meanwhile, and its units were computed from the
            # others' final counts (without it). They are computed again here, with it: the trace of
            # the patterns not counted is this computation's alone, not both.
            self.excluded.clear()
        names = cp.pattern_names
        counts = [raw.get(n, 0) for n in names]
        fired = [i for i, n in enumerate(counts) if n > 0]
        final = cp.tally.final(counts, fired, self._value_at, lambda i: self.combos(names[i]), self.excluded)
        self._final_idx = final
        self._final = {names[i]: n for i, n in final.items()}
        return self._final

    def _value_at(self, i: int):
        return self.value(self.cp.pattern_names[i])

    def value(self, name: str):
        return self.cp.value[name](self.env)

    def unit(self, uname: str):
        self.final_counts()
        tally = self.cp.tally
        return tally.unit(tally.unit_order.index(uname), self._final_idx, self._value_at)

    def label(self, p: ir.Pattern) -> str:
        parts = self.cp.labels.get(p.name)
        if not parts:
            return p.name
        compiled = self.cp.label_fns.get(p.name)
        if compiled is None:  # compiled once per rule set, on first use
            compiled = [part if isinstance(part, str) else compile_expr(part) for part in parts]
            self.cp.label_fns[p.name] = compiled
        return "".join(part if isinstance(part, str) else str(part(self.env)) for part in compiled)

    def evaluate(self) -> Evaluation:
        cp = self.cp
        final = self.final_counts()
        units = {u: self.unit(u) for u in cp.unit_order}
        quantities = {}
        for q in cp.rs.quantities:
            try:
                quantities[q.name] = self.env[f"quantity:{q.name}"]
            except EvalError:
                quantities[q.name] = None
        score = cp.score(self.env)
        total, best = cp.tally.totals(score, cp.total(self.env) if cp.total else None,
                                      cp.best(self.env) if cp.best else None, list(units.values()))
        fans = [FanLine(self.label(p), p.name, self.value(p.name), final[p.name], p.unit)
                for p in cp.patterns if p.name in final]
        return Evaluation(self.reading, fans, units, quantities, score, total, best, list(self.excluded))


def parse_number(text: str):
    return number(text)
