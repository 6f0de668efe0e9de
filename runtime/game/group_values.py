"""What a rule set declares its groups worth, read for the efficiency bot (runtime/game/bots.py): the
values its hand shapes declare (`value`, by suit), the least worth a win's groups must add up to when a
requirement asks it of a sum over the groups (`value_floor`), what one group is worth (`group_worth`),
and the shapes whose groups score at all (`valued_kinds`). Nothing here names a variant: only the
language's constructs (a `require` comparing a `quantity` that is `sum(m in groups: …)` with a number).
"""
from __future__ import annotations


def value_floor(rules):
    """The least worth the rule set asks of a win's groups: (N, {shape: {suit or None: value}}, the forms
    it applies to) for a requirement `Q >= N` (or `Q > N - 1`) whose quantity Q adds up something of
    each of the hand's groups (`sum(m in groups: …)`), the values the hand shapes declare (literal ones)
    standing for what a group adds; None when the rules ask no such thing or declare no value."""
    rs = rules.ir
    quantities = {q.name: q for q in rs.quantities}
    values = {}
    for mk in rs.melds:
        of = {}
        for sv in mk.values:
            if type(sv.value).__name__ == "Num":
                of[sv.suit or None] = int(float(sv.value.text))
        if of:
            values[mk.name] = of
    if not values:
        return None
    for req, _, _ in rules.requires:
        e = req.expr
        if req.unless is not None or type(e).__name__ != "Compare" or len(e.ops) != 1:
            continue
        (op,), (left, right) = e.ops, e.operands
        if op in ("<=", "<"):
            left, right, op = right, left, {"<=": ">=", "<": ">"}[op]
        if op not in (">=", ">") or type(right).__name__ != "Num" or type(left).__name__ != "Name":
            continue
        q = quantities.get(left.name)
        body = getattr(q, "expr", None)
        if (type(body).__name__ != "Comp" or body.func != "sum"
                or getattr(body.source, "ref", "") != "builtin:groups"):
            continue
        least = float(right.text) + (op == ">")
        return (int(least) if least == int(least) else int(least) + 1, values, frozenset(req.forms))
    return None


def group_worth(values: dict, kind: str | None, tiles) -> int:
    """What a group of shape `kind` of these tiles is worth by the declared values (by its suit when all
    its tiles share one, else the value for any suit; 0 when none is declared)."""
    of = values.get(kind) if kind else None
    if not of:
        return 0
    suits = {t.suit for t in tiles}
    return of.get(suits.pop() if len(suits) == 1 else None, of.get(None, 0))


def valued_kinds(rs) -> frozenset:
    """The hand shapes whose groups score: those with a value declared (not zero) if any has one, else
    the groups of identical tiles."""
    hand = [m for m in rs.melds if m.hand and not m.pair]

    def zero(v) -> bool:  # a literal 0 (an expression may be worth something)
        return type(v.value).__name__ == "Num" and float(v.value.text) == 0
    valued = frozenset(m.name for m in hand if any(not zero(v) for v in m.values))
    return valued or frozenset(m.name for m in hand if m.shape.kind == "same")
