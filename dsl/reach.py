"""A conservative test for patterns that can never match with the declared tiles (warning W601).

It proves impossibility only in shapes it understands and stays silent otherwise:
- `all(t in tiles: P)` (possibly inside a conjunction) where fewer tiles satisfy P than a winning hand
  holds;
- `len(suits) == k` / `>= k` / `> k` with more suits than the rule set declares;
- `any(a, b … in L: … a.suit != b.suit … a.rank == b.rank …)` and similar requirements of two
  different suits when only one suit is declared.

What these rules leave open, `dsl/reach_search.py` tries by a bounded exhaustive search over the
winning readings the declared tiles allow (`unreachable_reasons` runs both, the fast rules first).
"""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir


def unreachable_reasons(rs: ir.RuleSet, cat, search: bool = True) -> dict[str, str]:
    """pattern name -> why it can never match under the tile catalog `cat`, for every pattern proven so."""
    out = {}
    for p in rs.patterns:
        why = unreachable_reason(rs, p, cat)
        if why:
            out[p.name] = why
    if search:
        from .reach_search import search_reasons

        out.update(search_reasons(rs, cat, [p for p in rs.patterns if p.name not in out]))
    return out


def unreachable_reason(rs: ir.RuleSet, p: ir.Pattern, cat) -> str:
    """Why pattern `p` can never match under the tile catalog `cat`, or "" when that is not proven."""
    from ..runtime.evaluate import compile_expr
    hand = rs.table.hand + 1
    suits = {k.suit for k in cat.kinds if k.suit}
    for c in E.conjuncts(p.when):
        # all(t in tiles: P)
        if isinstance(c, E.Comp) and c.func == "all" and len(c.binders) == 1 and \
                isinstance(c.source, E.Name) and c.source.ref in ("builtin:tiles", "builtin:hand") and \
                _only_tile(c.body, c.binders[0]):
            try:
                fn = compile_expr(c.body)
                env = dict(cat.env)
                key = f"binder:{c.binders[0]}"

                def ok(k, env=env, key=key, fn=fn):
                    env[key] = k
                    return bool(fn(env))
                n = cat.count(ok)
            except Exception:
                continue
            if n < hand:
                return f"only {n} tiles satisfy its tile condition, a winning hand holds {hand}"
        # len(suits) compared with a number
        if isinstance(c, E.Compare) and len(c.ops) == 1 and isinstance(c.operands[0], E.Call) and \
                c.operands[0].func == "len" and len(c.operands[0].args) == 1 and \
                isinstance(c.operands[0].args[0], E.Name) and \
                c.operands[0].args[0].ref == "builtin:suits" and isinstance(c.operands[1], E.Num):
            k = float(c.operands[1].text)
            op = c.ops[0]
            need = k if op in ("==", ">=") else k + 1 if op == ">" else 0
            if need > len(suits):
                return f"it needs {int(need)} suits, the rule set has {len(suits)}"
        # two different suits required among combined melds
        if isinstance(c, E.Comp) and c.func in ("any", "count") and len(c.binders) >= 2 and len(suits) < 2:
            if _requires_two_suits(c.body, set(c.binders)):
                return "it needs two different suits, the rule set has one"
    return ""


def _only_tile(e: E.Expr, binder: str) -> bool:
    """The body mentions only the binder, settings and tile names (so it can be evaluated per tile)."""
    for n in E.walk(e):
        if isinstance(n, E.Name):
            cat = n.ref.split(":", 1)[0]
            if n.ref == f"binder:{binder}" or cat in ("option", "context", "tile", "suit"):
                continue
            return False
    return True


def _requires_two_suits(body: E.Expr, binders: set[str]) -> bool:
    """`x.suit != y.suit` together with `x.rank == y.rank` (so neither can be an honor) in a conjunction."""
    neq, eq_rank = set(), set()
    for c in E.conjuncts(body):
        if isinstance(c, E.Compare) and len(c.ops) == 1:
            a, b = c.operands
            if isinstance(a, E.Attr) and isinstance(b, E.Attr) and isinstance(a.obj, E.Name) and \
                    isinstance(b.obj, E.Name) and a.obj.name in binders and b.obj.name in binders:
                pair = frozenset((a.obj.name, b.obj.name))
                if c.ops[0] == "!=" and a.name == b.name == "suit":
                    neq.add(pair)
                if c.ops[0] == "==" and a.name == b.name and a.name in ("rank", "start"):
                    eq_rank.add(pair)
    return bool(neq & eq_rank)
