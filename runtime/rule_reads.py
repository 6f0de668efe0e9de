"""What a rule set's expressions read, asked once when a rule set is loaded (runtime/rules.py): the room
options its tile catalog reads, and whether an expression reads the waits (directly or through patterns,
quantities or units).
"""
from __future__ import annotations

from .ir import nodes as ir


def catalog_options(rs: ir.RuleSet) -> frozenset | None:
    """The room options (`option:NAME`) a catalog's tiles read (whether each kind is in play, its copies,
    the computed attributes: all runtime/tiles.py `Catalog` evaluates), or None when an expression there
    reads a name whose value could depend on any option."""
    from .ir import expr as E

    out = set()
    for e in [x for k in rs.tiles.kinds for x in (k.enabled, k.copies)] + [a.expr for a in rs.tiles.attrs]:
        for n in E.walk(e) if e is not None else ():
            if isinstance(n, E.Name):
                if not n.ref:
                    return None
                if n.ref.startswith("option:"):
                    out.add(n.ref)
                elif n.ref.startswith(("quantity:", "pattern:", "unit:", "context:")):
                    return None
    return frozenset(out)


def expression_reads_waits(rs: ir.RuleSet):
    """A test: does an expression read `waits`, directly or through patterns, quantities or units?"""
    from .ir import expr as E

    patterns = {p.name: p for p in rs.patterns}
    quantities = {q.name: q for q in rs.quantities}
    memo: dict[str, bool] = {}

    def deps(ref: str) -> list:
        cat, _, name = ref.partition(":")
        if cat == "pattern" and name in patterns:
            p = patterns[name]
            return [p.when, p.count, p.enabled, p.value]
        if cat == "quantity" and name in quantities:
            return [quantities[name].expr]
        if cat == "unit":
            return [e for p in rs.patterns if p.unit == name for e in (p.when, p.count, p.enabled, p.value)]
        return []

    def ref_reads(ref: str) -> bool:
        if ref in ("builtin:waits", "builtin:shape_waits"):
            return True
        if ref not in memo:
            memo[ref] = False  # a cycle is reported by the compiler; here it only ends the walk
            memo[ref] = any(reads(e) for e in deps(ref) if e is not None)
        return memo[ref]

    def reads(e) -> bool:
        return any(ref_reads(n.ref) for n in E.walk(e) if isinstance(n, E.Name) and n.ref)

    return reads
