"""Scoring a reading with generated code (one Python function per rule set), exact to the closures.

`runtime/scoring.py` (`ReadingEvaluator`) is the reference: an environment dict per reading, one
closure call per expression node, patterns looked up by name. This module writes, once per rule set,
a function that computes every pattern's raw count for a reading in one frame:

- each pattern's prefilter tests (`runtime/prefilter.py`) are integer comparisons on the reading's
  summed group vectors; a `when` conjunct that such a test decides exactly is not evaluated again, so
  `count(m in melds: m.triplet) == 4` costs one shift, one mask and one comparison;
- any other `count/any/all/len` over a reading list whose predicate reads only the item is read from
  its field the same way, wherever it occurs;
- `count/any(n in L: n.F == a and n.G == b)` over a reading list is one lookup in a count of L's
  items by (F, G), made once per reading (once per hand for tile lists of natural tiles);
- the rest is inlined Python (`runtime/codegen.py`); patterns that read other patterns come after them;
- patterns that cannot depend on where the winning tile is placed (they read neither the winning tile,
  its group, the waits, nor a group's `has_win` / `concealed`) are counted once per split: the
  readings of one split differ only in that placement;
- exclusions, `combine`, `max` units, the units and the defaults of `total` and `best` are the
  reference's own code (`runtime/fans.py` `Tally`), given the generated values and combinations; the
  requirements and the score's expressions are generated.

Form conditions (`instant`, `pair_when`) and the requirements that decide the waits are generated too.

If one of the documented unusual values turns up while evaluating a reading (`REFERENCE_DECIDES` in
runtime/fastscore_context.py: a field of `none`, a comparison with `none`, an error the closures would
report), the generated result is dropped and the reference evaluates that reading, so the outcome is
always the reference's; each such hand-over is counted (`FastScorer.fallbacks` per rule set,
`FastScorer.process_fallbacks` over the process: `Rules.stats()`, `paili score --stats`). Any other
exception is a bug of the generated code and is raised. Readings whose groups do not hold all their
tiles (instant and orphan forms) are always scored by the reference, and are not counted.
"""

from __future__ import annotations

from .codegen import RUNTIME, Gen, Refused
from .evaluate import norm
from .fans import PatternLines, unmet_reason
from .fastscore_context import REFERENCE_DECIDES, Ctx, ReadingScore, Unsupported, Unusual
from .fastscore_names import WIN_FIELDS, WIN_REFS, ReadingNames, and_all, emit_unmet
from .ir import expr as E
from .ir import nodes as ir
from .pattern_reads import after_what_they_read, names_read, win_bound
from .prefilter import FIELD, MASK, Prefilter

# `paili --version`: what the generated scorer does with what it does not take.
POLICY = ("generated scorer: a reading with an unusual value (REFERENCE_DECIDES) is scored by the "
          "reference and counted (paili score --stats)")


class FastScorer:
    """The generated evaluator of one rule set (bound per tile catalog)."""

    process_fallbacks = 0  # hand-overs to the reference by every generated scorer of this process

    def __init__(self, rs: ir.RuleSet, requires, wait_requires=(), lines: PatternLines | None = None):
        """`lines`: the rule set's `PatternLines` when the caller has them (made here otherwise)."""
        self.rs = rs
        lines = lines or PatternLines(rs)
        self.patterns = lines.patterns
        self.index = {p.name: i for i, p in enumerate(self.patterns)}
        self.quantities = {q.name: q for q in rs.quantities}
        self.quantity_names = lines.quantity_names
        self.tally = lines.tally  # what the counts become: the reference's own steps (runtime/fans.py)
        self.unit_order = self.tally.unit_order
        self.unit_index = {u: i for i, u in enumerate(self.unit_order)}
        # (label or None when it has expressions, name, unit) of each pattern's line in a result
        self.fan_meta = lines.fan_meta
        if not lines.units_declared:
            raise Unsupported("a pattern of an undeclared unit")
        extra = [q.expr for q in rs.quantities] + [x for r in rs.requires for x in (r.expr, r.unless)]
        if rs.score:
            extra += [rs.score.expr, rs.score.best, rs.score.total]
        self.pre = Prefilter(self.patterns, [x for x in extra if x is not None])
        bound = self._win_bound()
        # per `combine` rule: its choice cannot depend on where the winning tile is placed, so the
        # readings of one split share it
        self.combine_free = [not any(bound[i] or _mentions_win(self.patterns[i].value) for i in idxs)
                             for _, idxs in self.tally.combines]
        self.requires = requires  # (Requirement, closure, unless closure) as the rule set keeps them
        self.wait_requires = list(wait_requires)  # those that do not read the waits
        self.form_fns: dict[tuple[str, str], str] = {}  # ("instant" | "pair_when", form) -> function
        self.wait_req_fn: str | None = None
        self.consts: dict = {}
        self.hoisted: set[int] = set()
        self.source = self._generate()
        self._code = None  # compiled at the first `bind`: a run that never scores in Python never compiles it
        self._bound: dict[int, dict] = {}
        self.fallbacks = 0  # hand-overs to the reference (`fell_back`) of this rule set

    # ------------------------------------------------------------------ generation

    def _generate(self) -> str:
        out: list[str] = []
        self.combo_fn = {i: f"_combos{i}" for _, idxs in self.tally.combines for i in idxs
                         if isinstance(self.patterns[i].count, E.Comp)}
        out += self._raw_function()
        if self.unit_reader is not None:
            out += self._unit_reader_function()
        self.const_values = [None] * len(self.patterns)
        self.value_fn = [None] * len(self.patterns)
        for i, p in enumerate(self.patterns):
            if isinstance(p.value, E.Num):
                self.const_values[i] = norm(self._num(p.value))
            else:
                out += self._post_function(f"_value{i}", p.value, norm=True)
                self.value_fn[i] = f"_value{i}"
        for _, idxs in self.tally.combines:
            for i in idxs:
                out += self._combos_function(i)
        out += self._post_all()
        self.quant_fn = None
        if self.rs.quantities:
            try:
                out += self._quantities_function()
                self.quant_fn = "_quant"
            except Unsupported:  # the reference computes the quantities a result shows
                pass
        for k, f in enumerate(self.rs.forms):
            for what, e in (("instant", f.instant), ("pair_when", f.pair_when)):
                if e is None:
                    continue
                try:
                    g, _ = self._gen("form")
                    g.emit(0, f"def _form{k}_{what}(R, S):")
                    s = g.cond(e, 1)
                    g.emit(1, f"return bool({s})")
                except Unsupported:
                    continue
                out += g.lines
                self.form_fns[(what, f.name)] = f"_form{k}_{what}"
        if self.wait_requires:
            try:
                out += self._requirements("_wreq", self.wait_requires, "form")
                self.wait_req_fn = "_wreq"
            except Unsupported:
                pass
        return "\n".join(out) + "\n"

    @staticmethod
    def _num(e: E.Num):
        from .evaluate import number

        return number(e.text)

    def _gen(self, phase: str) -> tuple[Gen, ReadingNames]:
        names = ReadingNames(self, phase)
        return Gen(self.consts, names), names

    def _deps(self, p: ir.Pattern) -> set[int]:
        """Patterns p reads (directly or through quantities)."""
        return names_read(p, "pattern", self.index, self.quantities)

    def _units_read(self, p: ir.Pattern) -> set[int]:
        """Units p reads (directly or through quantities)."""
        return names_read(p, "unit", self.unit_index, self.quantities)

    def _order(self) -> list[int]:
        """Patterns in declaration order, each after the patterns it reads (the one that reads units, if
        any, kept apart: it is counted after the units)."""
        deps = [self._deps(p) for p in self.patterns]
        readers = [i for i, p in enumerate(self.patterns) if self._units_read(p)]
        if len(readers) > 1 or any(readers[0] in d for d in deps if readers):
            raise Unsupported("several patterns that read units, or one that other patterns read")
        self.unit_reader = readers[0] if readers else None
        self.unit_reader_reads = self._units_read(self.patterns[readers[0]]) if readers else set()
        try:
            done = after_what_they_read(deps)
        except ValueError as e:
            raise Unsupported(str(e)) from None
        return [i for i in done if i != self.unit_reader]

    def _win_bound(self) -> list[bool]:
        return win_bound(self.patterns, [self._deps(p) for p in self.patterns])

    def _raw_function(self) -> list[str]:
        g, names = self._gen("raw")
        n = len(self.patterns)
        order = self._order()
        bound = self._win_bound()
        free = [i for i in order if not bound[i]]
        g.emit(0, "def _raw(R, S):")
        g.emit(1, "v = R.pv")
        # Fields that several prefilter tests read are taken out of the sum once.
        uses: dict[int, int] = {}
        for i in order:
            for f, _, _ in self.pre.tests.get(self.patterns[i].name, []):
                uses[f] = uses.get(f, 0) + 1
        self.hoisted = {f for f, k in uses.items() if k >= 3}
        for f in sorted(self.hoisted):
            g.emit(1, f"f{f} = ((v >> {FIELD * f}) & {MASK})")
        # raw counts in the list C (0 unless a pattern fires), the firing patterns in F
        if free:
            # Patterns that do not depend on where the winning tile is: once per split (the readings of
            # one split share `Reading.shape`), the other readings of the split take the same counts.
            g.emit(1, "sh = R.r.shape")
            g.emit(1, "got = sh.get('free') if sh is not None else None")
            g.emit(1, "if got is None:")
            g.emit(2, f"C = [0] * {n}")
            g.emit(2, "F = []")
            sub = Gen(self.consts, names)  # written at level 1, then indented under the `if`
            sub.binders, sub.n = g.binders, g.n
            self._patterns(sub, free, 1)
            g.n = sub.n
            g.lines += ["    " + ln for ln in sub.lines]
            g.emit(2, "if sh is not None:")
            g.emit(3, "sh['free'] = (C[:], F[:])")
            g.emit(1, "else:")
            g.emit(2, "C = got[0][:]")
            g.emit(2, "F = got[1][:]")
        else:
            g.emit(1, f"C = [0] * {n}")
            g.emit(1, "F = []")
        self._patterns(g, [i for i in order if bound[i]], 1)
        g.emit(1, "return C, F")
        self.hoisted = set()  # other functions read fields from v
        return g.lines

    def _field_expr(self, f: int) -> str:
        return f"f{f}" if f in self.hoisted else f"((v >> {FIELD * f}) & {MASK})"

    def _patterns(self, g: Gen, idxs: list[int], ind: int) -> None:
        """Patterns in order; those that neither read nor are read by other patterns may go in any
        order, and are grouped under a shared gate: a field that each of their prefilter tests needs to
        be nonzero (or zero), so one test skips the whole group."""
        deps = [self._deps(p) for p in self.patterns]
        linked = {i for i, d in enumerate(deps) if d} | {j for d in deps for j in d}
        loose = [i for i in idxs if i not in linked]
        gates: dict[tuple, list[int]] = {}
        for i in loose:
            for f, op, k in self.pre.tests.get(self.patterns[i].name, []):
                lst, pred = self.pre.atoms[f][:2]
                if pred is None and lst not in ("exposed", "kongs"):
                    continue  # the length of a list most readings fill: a gate that rarely skips
                sym = _OPSYM[op]
                if (sym in ("==", ">=") and k >= 1) or (sym == ">" and k >= 0):
                    gates.setdefault((f, True), []).append(i)
                elif (sym == "==" and k == 0) or (sym == "<" and k == 1) or (sym == "<=" and k == 0):
                    gates.setdefault((f, False), []).append(i)
        placed: set[int] = set()
        while True:  # greedily, the gate shared by the most patterns not yet placed
            best = max(gates.items(), key=lambda kv: sum(1 for i in kv[1] if i not in placed), default=None)
            members = [i for i in best[1] if i not in placed] if best else []
            if len(members) < 2:
                break
            (f, nonzero), _ = best
            field = self._field_expr(f)
            g.emit(ind, f"if {field}:" if nonzero else f"if not {field}:")
            for i in sorted(members):
                g.emit(ind + 1, f"# {i}")
                self._pattern(g, i, f"C[{i}]", "F.append", ind + 1)
            placed.update(members)
        for i in idxs:
            if i not in placed:
                g.emit(ind, f"# {i}")
                self._pattern(g, i, f"C[{i}]", "F.append", ind)

    def _pattern(self, g: Gen, i: int, var: str, fired: str, ind: int = 1) -> None:
        """The statements that set `var` to pattern i's raw count (and call `fired(i)` when positive),
        `var` being 0 beforehand: prefilter tests, `enabled`, what is left of `when`, the count."""
        p = self.patterns[i]
        tests = self.pre.tests.get(p.name, [])
        if tests:
            conds = [f"{self._field_expr(f)} {_OPSYM[op]} {k}" for f, op, k in tests]
            g.emit(ind, "if " + " and ".join(conds) + ":")
            ind += 1
        if p.enabled is not None:
            s = g.cond(p.enabled, ind)
            g.emit(ind, f"if {s}:")
            ind += 1
        exact = self.pre.exact.get(p.name, [])
        rest = [c for c, ex in zip(E.conjuncts(p.when), exact + [False] * 99) if not ex] \
            if p.when is not None else []
        # A conjunct that needs the waits (computed per hand, costly) and cannot fail goes last: the
        # cheap ones usually decide first. (If a moved-up conjunct fails, the reference takes over.)
        rest = [c for c in rest if not _late(c)] + [c for c in rest if _late(c)]
        w = and_all(rest)
        if w is not None:
            s = g.cond(w, ind)
            g.emit(ind, f"if {s}:")
            ind += 1
        if p.count is None:
            g.emit(ind, f"{var} = 1")
            if fired:
                g.emit(ind, f"{fired}({i})")
            return
        if i in self.combo_fn:  # a `combine` pattern: its combinations are listed once, and kept
            s = f"len({self.combo_fn[i]}(R, S, C, None))"
        else:
            s = g.ex(p.count, ind)
        if _is_count(p.count):
            g.emit(ind, f"{var} = {s}")
        else:
            g.emit(ind, f"{var} = int({s})")
            g.emit(ind, f"if {var} < 0:")
            g.emit(ind + 1, f"{var} = 0")
        if fired:
            g.emit(ind, f"if {var}:")
            g.emit(ind + 1, f"{fired}({i})")

    def _unit_reader_function(self) -> list[str]:
        g, _ = self._gen("post")
        g.emit(0, "def _rawu(R, S, C, U):")
        g.emit(1, "v = R.pv")
        g.emit(1, "n = 0")
        self._pattern(g, self.unit_reader, "n", "")
        g.emit(1, "return n")
        return g.lines

    def _post_all(self) -> list[str]:
        """`_post(R, S, C, U)` -> (index of the first requirement not met or -1, score, total, best),
        evaluated as `Scoring.requirements_ok` and `ReadingEvaluator.evaluate` do; `total` and `best` are
        None where the rule set does not write them (`Tally.totals` decides them)."""
        g, _ = self._gen("post")
        g.emit(0, "def _post(R, S, C, U):")
        g.emit(1, "v = R.pv")
        g.emit(1, "bad = -1")
        for j, (q, _, _) in enumerate(self.requires):
            g.emit(1, "if bad < 0:" if j else "if True:")
            emit_unmet(g, q, 2, f"bad = {j}")
        sc = self.rs.score
        s = g.ex(sc.expr if sc else E.Num("0"), 1)
        g.emit(1, f"score = _norm({s})")
        if sc and sc.total is not None:
            s = g.ex(sc.total, 1)
            g.emit(1, f"total = _norm({s})")
        else:
            g.emit(1, "total = None")
        if sc and sc.best is not None:
            s = g.ex(sc.best, 1)
            g.emit(1, f"best = _norm({s})")
        else:
            g.emit(1, "best = None")
        g.emit(1, "return bad, score, total, best")
        return g.lines

    def _quantities_function(self) -> list[str]:
        """`_quant(R, S, C, U)` -> every quantity's value in declaration order, as the reference's
        environment gives them (what a result's `quantities` shows)."""
        g, _ = self._gen("post")
        g.emit(0, "def _quant(R, S, C, U):")
        g.emit(1, "v = R.pv")
        g.emit(1, "out = []")
        for q in self.rs.quantities:
            s = g.ex(q.expr, 1)
            g.emit(1, f"out.append({s})")
        g.emit(1, "return out")
        return g.lines

    def _requirements(self, fname: str, requires, phase: str) -> list[str]:
        """`fname(R, S)` -> the index of the first requirement not met, or -1."""
        g, _ = self._gen(phase)
        g.emit(0, f"def {fname}(R, S):")
        for j, (q, _, _) in enumerate(requires):
            emit_unmet(g, q, 1, f"return {j}")
        g.emit(1, "return -1")
        return g.lines

    def eval_form(self, sc, r, fname: str) -> bool:
        return self.bind(sc.cat)[fname](Ctx(r, sc, 0), sc.env)

    def wait_requirements(self, sc, r) -> int:
        return self.bind(sc.cat)[self.wait_req_fn](Ctx(r, sc, 0), sc.env)

    def _post_function(self, fname: str, e: E.Expr, norm: bool) -> list[str]:
        g, names = self._gen("post")
        g.emit(0, f"def {fname}(R, S, C, U):")
        g.emit(1, "v = R.pv")
        s = g.ex(e, 1)
        g.emit(1, f"return _norm({s})" if norm else f"return {s}")
        return g.lines

    def _combos_function(self, i: int) -> list[str]:
        """The combinations a `combine` pattern counts, each as the tokens of its melds (object and
        occurrence), exactly as `ReadingEvaluator.combos` lists them."""
        p = self.patterns[i]
        comp = p.count
        if not isinstance(comp, E.Comp):
            raise Unsupported("a combine pattern without a comprehension count")
        g, names = self._gen("post")
        g.emit(0, f"def _combos{i}(R, S, C, U):")
        g.emit(1, "v = R.pv")
        src = g.ex(comp.source, 1)
        g.emit(1, f"items = list({src} or [])")
        g.emit(1, "seen = {}")
        g.emit(1, "tokens = []")
        g.emit(1, "for x in items:")
        g.emit(2, "n = seen.get(id(x), 0)")
        g.emit(2, "seen[id(x)] = n + 1")
        g.emit(2, "tokens.append((id(x), n))")
        g.emit(1, "found = []")
        k = len(comp.binders)
        g.emit(1, f"for combo in _comb(range(len(items)), {k}):")
        for j, b in enumerate(comp.binders):
            g.emit(2, f"{g.binder('binder:' + b)} = items[combo[{j}]]")
        s = g.cond(comp.body, 2)
        g.emit(2, f"if {s}:")
        g.emit(3, "found.append(tuple(tokens[j] for j in combo))")
        g.emit(1, f"R.combos[{i}] = found  # for the combination choice after the counts")
        g.emit(1, "return found")
        return g.lines

    def bind(self, catalog) -> dict:
        """The generated functions with this catalog's tiles as constants."""
        ns = self._bound.get(id(catalog))
        if ns is None:
            ns = dict(RUNTIME)
            for key, name in list(self.consts.items()):
                if isinstance(key, tuple) and key[0] == "tile":
                    ns[name] = catalog.by_name.get(key[1])
                elif isinstance(key, str):
                    ns[key] = name
            if self._code is None:
                self._code = compile(self.source, "<paili generated scoring>", "exec")
            exec(self._code, ns)  # noqa: S102 - our own generated source
            ns["__catalog"] = catalog  # keeps the id unique while bound
            self._bound[id(catalog)] = ns
        return ns

    # ------------------------------------------------------------------ evaluation

    def fell_back(self) -> None:
        """Count one hand-over to the reference: a reading, a form condition or a wait trial's
        requirements met one of the documented unusual values (`REFERENCE_DECIDES`)."""
        self.fallbacks += 1
        FastScorer.process_fallbacks += 1

    def evaluate(self, sc, r, ns: dict, pv: int, raw=None):
        """The `ReadingScore` of reading r; raises one of `REFERENCE_DECIDES` on an unusual value (the
        caller then asks the reference). `raw`: the raw counts and the fired patterns when another
        backend found them (runtime/nativecounts.py)."""
        R = Ctx(r, sc, pv)
        S = sc.env
        C, F = raw if raw is not None else ns["_raw"](R, S)
        final, value, U, combos = self._finish(R, S, C, F, ns)
        k = self.unit_reader
        if k is not None:
            # The reference counts this pattern while the units it reads are computed from every other
            # pattern (itself at 0), then counts the units again with it.
            n = ns["_rawu"](R, S, C, U)
            if n:
                C[k] = n
                F = F + [k]
                final2, value, U2, combos = self._finish(R, S, C, F, ns)
                if any(U[j] != U2[j] for j in self.unit_reader_reads):
                    raise Unusual("a pattern that reads a unit changes it")
                final, U = final2, U2
        bad, score, total, best = ns["_post"](R, S, C, U)
        total, best = self.tally.totals(score, total, best, U)
        reason = None
        if bad >= 0:
            q = self.requires[bad][0]
            reason = unmet_reason(q)
        return ReadingScore(best, score, total, U, final, value, reason, (R, S, C, F, combos, ns))

    def excluded_of(self, res: ReadingScore) -> list | None:
        """The (pattern, by) trace of the patterns a scored reading does not count, by the same steps
        (`Tally.final`) on the counts it was scored with (with a pattern that reads a unit, the final
        ones: it counted), or None where the reference must find them."""
        if res.state is None:
            return None
        R, S, C, F, combos, ns = res.state
        out: list = []
        self.tally.final(C, F, res.value, combos, out)
        return out

    def quantities_of(self, res: ReadingScore) -> dict | None:
        """Every quantity's value for a scored reading (name -> value, in declaration order), or None
        where the reference must compute them (a quantity the generator does not write, or an unusual
        value). With a pattern that reads a unit, the units it reads are the same with and without it
        (`evaluate` checks), so the reference's environment holds the values given here."""
        if not self.quantity_names:
            return {}
        if self.quant_fn is None or res.state is None:
            return None
        R, S, C, F, combos, ns = res.state
        try:
            values = ns[self.quant_fn](R, S, C, res.units)
        except REFERENCE_DECIDES:  # the reference decides (EvalError there: the quantity shows none)
            self.fell_back()
            return None
        return dict(zip(self.quantity_names, values))

    def _finish(self, R, S, C, F, ns):
        """(final counts, value of a pattern index, unit values): the reference's steps (`Tally`) on the
        generated values and combinations."""
        values: dict[int, object] = {}
        const_values = self.const_values
        vfn = self.value_fn

        def value(i):
            got = const_values[i]
            if got is None:
                got = values.get(i)
                if got is None:
                    got = values[i] = ns[vfn[i]](R, S, C, None)
            return got

        def combos(i):
            got = R.combos.get(i)
            return got if got is not None else ns[self.combo_fn[i]](R, S, C, None)

        tally = self.tally
        final = tally.final(C, F, value, combos, None, R.r.shape, self.combine_free)
        return final, value, tally.units(final, value), combos


_OPSYM = {}


def _init_ops():
    import operator

    for sym, fn in (("==", operator.eq), ("!=", operator.ne), ("<", operator.lt), ("<=", operator.le),
                    (">", operator.gt), (">=", operator.ge)):
        _OPSYM[fn] = sym


_init_ops()


def _mentions_win(e: E.Expr | None) -> bool:
    return e is not None and any((isinstance(n, E.Name) and (n.ref in WIN_REFS or n.ref.startswith(
        ("pattern:", "quantity:", "unit:")))) or (isinstance(n, E.Attr) and n.name in WIN_FIELDS) for n in E.walk(e))


def _late(c: E.Expr) -> bool:
    """`len(waits) == 1` and the like: reads the waits, and cannot raise (a length compared to a number)."""
    names = [n for n in E.walk(c) if isinstance(n, E.Name)]
    return any(n.ref in ("builtin:waits", "builtin:shape_waits") for n in names) and all(
        isinstance(n, (E.Compare, E.Num)) or (isinstance(n, E.Call) and n.func == "len" and len(n.args) == 1)
        or (isinstance(n, E.Name) and n.ref in ("builtin:waits", "builtin:shape_waits")) for n in E.walk(c))


def _is_count(e: E.Expr) -> bool:
    """A count that is never negative and already an int."""
    return (isinstance(e, E.Comp) and e.func == "count") or (isinstance(e, E.Call) and e.func == "len")


def build(rs: ir.RuleSet, requires, wait_requires=(), lines: PatternLines | None = None) -> FastScorer | None:
    try:
        return FastScorer(rs, requires, wait_requires, lines)
    except (Unsupported, Refused, SyntaxError):  # SyntaxError: never for a checked rule set; the closures score
        return None


__all__ = ["FastScorer", "Ctx", "POLICY", "build"]
