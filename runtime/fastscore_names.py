"""How generated reading code names what an expression reads: reading builtins, pattern counts, unit
values, settings, and the tallies and summed prefilter fields that answer comprehensions without a loop."""
from __future__ import annotations

import dataclasses

from .codegen import Gen, Names, lit
from .evaluate import binder_equality
from .fastscore_context import BUILTIN_ATTRS, TALLY_FIELDS, TILE_LISTS, Unsupported
from .ir import expr as E
from .ir import nodes as ir
from .prefilter import FIELD, MASK


class ReadingNames(Names):
    """Names in generated reading code. `phase` is "raw" (inside the raw-count function: pattern
    counts are locals) or "post" (afterwards: raw counts in the list C, unit values in the list U)."""

    def __init__(self, fs, phase: str):  # fs: the FastScorer writing the code
        self.fs = fs
        self.phase = phase
        self.inlining: list[str] = []
        # Fields of the summed group vectors are valid only when the groups hold every tile, which
        # form conditions and the waits' requirements cannot assume (instant and orphan readings).
        self.fields = phase in ("raw", "post")

    def name(self, ref: str, gen: Gen, ind: int) -> str:
        cat, _, name = ref.partition(":")
        fs = self.fs
        if cat == "builtin":
            # through the closed table of reading builtins: the attribute name is the table's, not the IR's
            attr = BUILTIN_ATTRS.get(name)
            if attr is None:
                raise Unsupported(f"the builtin {name[:40]!r} in generated code")
            return f"R.{attr}"
        if cat == "distinct":  # a comprehension's source (see `comp`)
            return f"R.distinct({lit(TILE_LISTS[name])}, True)"
        if cat in ("pattern", "unit", "quantity") and not self.fields:
            raise Unsupported("a form condition or wait requirement that reads patterns")
        if cat == "pattern":
            if name not in fs.index:
                raise Unsupported("an undeclared pattern")
            return f"C[{fs.index[name]}]"
        if cat == "unit":
            if self.phase == "raw":
                raise Unsupported("a unit read while patterns are counted")
            if name not in fs.unit_index:
                raise Unsupported("an undeclared unit")
            return f"U[{fs.unit_index[name]}]"
        if cat == "quantity":  # written in place: pure, so the same value as the reference's cached one
            if name not in fs.quantities:
                raise Unsupported("an undeclared quantity")
            if name in self.inlining:
                raise Unsupported("a quantity that reads itself")
            q = fs.quantities[name]
            self.inlining.append(name)
            try:
                return gen.ex(q.expr, ind)
            finally:
                self.inlining.pop()
        return f"S[{lit(ref)}]"

    def comp(self, e: E.Comp, gen: Gen, ind: int) -> str | None:
        got = self.fs.pre.field_of(e) if self.fields else None
        if got is not None:
            return _field(got)
        got = _tally(e, gen, ind)
        if got is not None:
            return got
        lst = _distinct_of(e.source)
        if lst is not None:  # iterated over, its order does not matter: the per-hand list serves
            return gen.comp(dataclasses.replace(e, source=E.Name("distinct", ref=f"distinct:{lst}")), ind)
        return None

    def call(self, e: E.Call, gen: Gen, ind: int) -> str | None:
        got = self.fs.pre.field_of(e) if self.fields else None
        if got is not None:
            return _field(got)
        if e.func == "len" and len(e.args) == 1 and _distinct_of(e.args[0]) is not None:
            return f"len(R.distinct({lit(TILE_LISTS[_distinct_of(e.args[0])])}, True))"
        lst = _distinct_of(e)
        if lst is not None:
            return f"R.distinct({lit(TILE_LISTS[lst])}, False)"
        return None


def _distinct_of(e: E.Expr) -> str | None:
    """`distinct(L)` of a reading's tile list: the list's name."""
    if isinstance(e, E.Call) and e.func == "distinct" and len(e.args) == 1 and isinstance(e.args[0], E.Name) \
            and e.args[0].ref in ("builtin:tiles", "builtin:hand", "builtin:flowers"):
        return e.args[0].ref.split(":", 1)[1]
    return None


def _field(got) -> str:
    i, how = got
    f = f"((v >> {FIELD * i}) & {MASK})" if i else f"(v & {MASK})"
    if how == "count":
        return f
    return f"({f} != 0)" if how == "any" else f"({f} == 0)"


def _mentions(e: E.Expr, ref: str) -> bool:
    return any(isinstance(n, E.Name) and n.ref == ref for n in E.walk(e))


def emit_unmet(g: Gen, q: ir.Requirement, ind: int, then: str) -> None:
    """Emit `then`, guarded so that it runs when requirement q is not met: on one of its forms (if it
    names forms), its condition false, and its `unless` false too."""
    if q.forms:
        g.emit(ind, f"if R.b_form in ({''.join(lit(f) + ', ' for f in q.forms)}):")
        ind += 1
    g.emit(ind, f"if not {g.cond(q.expr, ind)}:")
    ind += 1
    if q.unless is not None:
        g.emit(ind, f"if not {g.cond(q.unless, ind)}:")
        ind += 1
    g.emit(ind, then)


def _tally(e: E.Comp, gen: Gen, ind: int) -> str | None:
    """`count/any(x in L: x.F == V and x.G == W …)` over a reading list, V, W not reading x: looked
    up in a count of L's items by (F, G, …), made once per reading (an equality join, not a scan)."""
    if e.func not in ("count", "any") or len(e.binders) != 1 or not isinstance(e.source, E.Name) \
            or not e.source.ref.startswith("builtin:"):
        return None
    lst = e.source.ref.split(":", 1)[1]
    if lst not in BUILTIN_ATTRS or "_" in lst:  # `tl_<list>_<k>` is split at its underscores
        return None  # only the reading lists of the closed table have tallies
    ref = f"binder:{e.binders[0]}"
    fields: list[str | None] = []
    others: list[E.Expr] = []
    for c in E.conjuncts(e.body):
        eq = binder_equality(c, ref)
        if eq is None:
            return None
        fields.append(eq[0])
        others.append(eq[1])
    key_fields = fields[0] if len(fields) == 1 else tuple(fields)
    vals = gen.seq(others, ind)
    val = vals[0] if len(vals) == 1 else "(" + ", ".join(vals) + ",)"
    if key_fields not in TALLY_FIELDS:
        TALLY_FIELDS.append(key_fields)
    got = f"R.tl_{BUILTIN_ATTRS[lst][2:]}_{TALLY_FIELDS.index(key_fields)}.get({val}, 0)"
    return got if e.func == "count" else f"({got} > 0)"


WIN_REFS = ("builtin:win_tile", "builtin:win_group", "builtin:waits", "builtin:shape_waits")
WIN_FIELDS = ("has_win", "concealed")


def and_all(parts: list[E.Expr]) -> E.Expr | None:
    out = None
    for p in parts:
        out = p if out is None else E.Binary("and", out, p)
    return out
