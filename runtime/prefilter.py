"""An exact prefilter for pattern conditions, from per-group bit vectors.

Most conditions open with conjuncts like `count(m in melds: m.triplet) == 4`, `any(m in runs: …)`,
`all(t in tiles: …)` or `len(pairs) == 7` whose predicate reads only the item. Each distinct
(list, predicate) of such a conjunct becomes a 6-bit field; every group contributes, once per group
signature (cached), how many of its items are in that list and satisfy the predicate. A reading's
counts are then the integer sum of its groups' vectors, and a pattern whose conjunct fails on those
counts is skipped without evaluating it. The counts are exact, so the prefilter never changes a result.
"""
from __future__ import annotations

import operator

from .evaluate import EvalError, compile_expr
from .ir import expr as E
from .reading import RTile

FIELD = 6
MASK = (1 << FIELD) - 1
GROUP_LISTS = ("melds", "groups", "pairs", "runs", "triplets", "kongs", "exposed")
TILE_LISTS = ("tiles", "hand")
OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}



def _binder_only(body: E.Expr, binder: str) -> bool:
    for n in E.walk(body):
        if isinstance(n, E.Name):
            cat = n.ref.split(":", 1)[0]
            if n.ref != f"binder:{binder}" and cat not in ("tile", "suit", "meld", "form", "flowerclass"):
                return False
        if isinstance(n, (E.Comp, E.Call)) and not (isinstance(n, E.Call) and n.func in ("abs", "floor")):
            return False
    return True


def _item_part(body: E.Expr, binder: str) -> E.Expr | None:
    """The conjuncts of a comprehension body that read only the item, as one condition (None if none)."""
    out = None
    for c in E.conjuncts(body):
        if _binder_only(c, binder):
            out = c if out is None else E.Binary("and", out, c)
    return out


def _list_name(e: E.Expr) -> str | None:
    if isinstance(e, E.Name) and e.ref.startswith("builtin:"):
        name = e.ref.split(":", 1)[1]
        if name in GROUP_LISTS or name in TILE_LISTS:
            return name
    return None


def atom_spec(e: E.Expr):
    """(list, predicate, binder, negate, how) when e is `count/any/all(x in L: P)` or `len(L)` over a
    reading list, with P reading only x; None otherwise."""
    if isinstance(e, E.Comp) and len(e.binders) == 1 and e.func in ("count", "any", "all"):
        lst = _list_name(e.source)
        if lst is None or not _binder_only(e.body, e.binders[0]):
            return None
        return lst, e.body, e.binders[0], e.func == "all", e.func
    if isinstance(e, E.Call) and e.func == "len" and len(e.args) == 1:
        lst = _list_name(e.args[0])
        if lst is not None:
            return lst, None, "_", False, "count"
    return None


class Prefilter:
    def __init__(self, patterns, extra=()):
        self.atoms: list[tuple[str, E.Expr | None, str, bool]] = []  # (list, predicate, binder, negate)
        self._atom_ids: dict = {}
        self.tests: dict[str, list[tuple[int, object, int]]] = {}  # pattern -> [(field, op, k)]
        self.exact: dict[str, list[bool]] = {}  # pattern -> per conjunct of `when`: decided by its test
        for p in patterns:
            tests = []
            exact = []
            for c in E.conjuncts(p.when) if p.when is not None else ():
                t = self._test(c)
                exact.append(t is not None and self._exact(c))
                if t is not None:
                    tests.append(t)
            # A pattern with `count = count(…)` fires only when that count is positive.
            if isinstance(p.count, E.Comp) and p.count.func == "count":
                t = self._test(E.Compare((">=",), (p.count, E.Num("1"))))
                if t is not None:
                    tests.append(t)
            if tests:
                self.tests[p.name] = tests
            self.exact[p.name] = exact
        # Every other count / any / all / len over a reading list with a predicate of the item alone
        # (anywhere in the given expressions) gets a field too: generated code reads it from the sum.
        for e in [x for p in patterns for x in (p.when, p.count, p.enabled, p.value)] + list(extra):
            for n in E.walk(e) if e is not None else ():
                spec = atom_spec(n)
                if spec is not None:
                    self._atom(*spec[:4])
        self.preds = [(lst, compile_expr(pred) if pred is not None else None, f"binder:{b}", neg)
                      for lst, pred, b, neg in self.atoms]
        # the fields of the group lists, in field order: a group's own predicates (`vector`; those of the
        # tile lists are summed from each tile's row)
        self._group_preds = [(i, x) for i, x in enumerate(self.preds) if x[0] not in TILE_LISTS]
        self._vectors: dict = {}
        self._tile_rows: dict[tuple, tuple[int, ...]] = {}  # `_tile_row` by (list, tile signature)

    @staticmethod
    def _key(lst: str, pred: E.Expr | None, binder: str, negate: bool):
        import dataclasses

        from .ir.span import NO_SPAN

        # a structural key without positions
        key_pred = E.map_expr(pred, lambda n: dataclasses.replace(n, span=NO_SPAN)) if pred is not None else None
        # binder names differ between patterns; rename to one so equal predicates share a field
        return lst, repr(key_pred).replace(f"binder:{binder}", "binder:_"), negate

    def _atom(self, lst: str, pred: E.Expr | None, binder: str, negate: bool) -> int:
        key = self._key(lst, pred, binder, negate)
        i = self._atom_ids.get(key)
        if i is None:
            i = len(self.atoms)
            self.atoms.append((lst, pred, binder, negate))
            self._atom_ids[key] = i
        return i

    def field_of(self, e: E.Expr) -> tuple[int, str] | None:
        """(field, how) when e's value is read from one registered field: how is count (the field),
        any (field > 0) or all (field == 0, the field counting items that fail)."""
        spec = atom_spec(e)
        if spec is None:
            return None
        key = self._key(*spec[:4])
        i = self._atom_ids.get(key)
        return None if i is None else (i, spec[4])

    @staticmethod
    def _exact(c: E.Expr) -> bool:
        """Whether the test made for conjunct c decides it (not only a necessary condition)."""
        if isinstance(c, E.Unary):
            c = c.operand
        if isinstance(c, E.Comp):
            return len(c.binders) == 1 and _binder_only(c.body, c.binders[0])
        if isinstance(c, E.Compare):
            return all(len(x.binders) == 1 and _binder_only(x.body, x.binders[0])
                       for x in c.operands if isinstance(x, E.Comp))
        return False

    def _test(self, c: E.Expr):
        """(field, op, k) when conjunct c is a count comparison the prefilter can decide exactly."""
        negate_any = False
        if isinstance(c, E.Unary) and c.op == "not" and isinstance(c.operand, E.Comp) and c.operand.func == "any":
            c, negate_any = c.operand, True
        if isinstance(c, E.Comp) and len(c.binders) > 1 and c.func == "any":
            lst = _list_name(c.source)  # combinations of n distinct items need n items
            return None if lst is None else (self._atom(lst, None, "_", False), OPS[">="], len(c.binders))
        if isinstance(c, E.Comp) and len(c.binders) == 1 and c.func in ("any", "all"):
            lst = _list_name(c.source)
            if lst is None:
                return None
            if not _binder_only(c.body, c.binders[0]):
                # A necessary condition from the body's conjuncts that read only the item: any(x: P and Q)
                # needs an item with P; all(x: P and Q) needs P of every item.
                part = _item_part(c.body, c.binders[0])
                if part is None or negate_any:
                    return None
                if c.func == "any":
                    return self._atom(lst, part, c.binders[0], False), OPS[">="], 1
                return self._atom(lst, part, c.binders[0], True), OPS["=="], 0
            if c.func == "any":
                i = self._atom(lst, c.body, c.binders[0], False)
                return (i, OPS["=="], 0) if negate_any else (i, OPS[">="], 1)
            i = self._atom(lst, c.body, c.binders[0], True)  # all(P) == count(not P) == 0
            return i, OPS["=="], 0
        if isinstance(c, E.Compare) and len(c.ops) == 1 and c.ops[0] in OPS:
            a, b = c.operands
            op = c.ops[0]
            if isinstance(a, E.Num) and not isinstance(b, E.Num):
                a, b, op = b, a, FLIP[op]
            if not isinstance(b, E.Num) or "." in b.text:
                return None
            k = int(b.text)
            positive = (op == ">" and k >= 0) or (op in (">=", "==") and k >= 1)
            if isinstance(a, E.Comp) and a.func == "count" and len(a.binders) > 1 and positive:
                lst = _list_name(a.source)  # a positive count of combinations needs enough items
                return None if lst is None else (self._atom(lst, None, "_", False), OPS[">="], len(a.binders))
            if isinstance(a, E.Comp) and a.func == "count" and len(a.binders) == 1:
                lst = _list_name(a.source)
                if lst is None:
                    return None
                if not _binder_only(a.body, a.binders[0]):
                    # count(x: P and Q) >= m needs m items with P
                    least = k if op in ("==", ">=") else k + 1 if op == ">" else 0
                    part = _item_part(a.body, a.binders[0])
                    if part is None or least < 1:
                        return None
                    return self._atom(lst, part, a.binders[0], False), OPS[">="], least
                return self._atom(lst, a.body, a.binders[0], False), OPS[op], k
            if isinstance(a, E.Call) and a.func == "len" and len(a.args) == 1:
                lst = _list_name(a.args[0])
                if lst is None:
                    return None
                return self._atom(lst, None, "_", False), OPS[op], k
        return None

    # ------------------------------------------------------------------ per reading

    def vector(self, g, declared: bool) -> int:
        key = (g.sig, declared)
        v = self._vectors.get(key)
        if v is None:
            v = 0
            env = {}
            in_list = {
                "groups": True, "pairs": g.is_pair, "melds": not g.is_pair,
                "runs": not g.is_pair and g.is_run, "triplets": not g.is_pair and g.field("triplet"),
                "kongs": not g.is_pair and g.is_kong, "exposed": g.exposed,
                "tiles": True, "hand": not declared,
            }
            # the fields of the tile lists: each tile's own (`_tile_row`), summed over the group's tiles
            counts: dict[int, int] = {}
            for lst in TILE_LISTS:
                if in_list[lst]:
                    for x in g.tiles:
                        for i in self._tile_row(lst, x):
                            counts[i] = counts.get(i, 0) + 1
            for i, n in counts.items():
                v |= n << (FIELD * i)
            for i, (lst, pred, key_b, neg) in self._group_preds:
                if not in_list[lst]:
                    continue
                if pred is None:
                    n = 1
                else:
                    env[key_b] = g
                    ok = bool(pred(env))
                    n = int((not ok) if neg else ok)
                v |= n << (FIELD * i)
            self._vectors[key] = v
        return v

    def _tile_row(self, lst: str, x) -> tuple[int, ...]:
        """The fields of reading list `lst` (tiles or hand) that tile x counts in. A predicate of a tile
        alone reads only what its signature holds (the kind it plays as, wildness, the physical tile), so
        a row is kept by signature, whichever group holds the tile."""
        key = (lst, x.sig) if type(x) is RTile else None
        row = self._tile_rows.get(key) if key is not None else None
        if row is None:
            env: dict = {}
            out = []
            for i, (lst_i, pred, key_b, neg) in enumerate(self.preds):
                if lst_i != lst:
                    continue
                if pred is not None:
                    env[key_b] = x
                    ok = bool(pred(env))
                    if not ((not ok) if neg else ok):
                        continue
                out.append(i)
            row = tuple(out)
            if key is not None:
                self._tile_rows[key] = row
        return row

    def group_vector(self, g) -> int:
        """A group's vector, kept on the group itself (groups are shared across readings and hands)."""
        v = g.prefilter_vector
        if v is None:
            v = g.prefilter_vector = self.vector(g, g.declared)
        return v

    def counts(self, groups) -> int | None:
        """The reading's packed counts, or None when it cannot be computed (the caller evaluates fully)."""
        total = 0
        try:
            for g in groups:
                total += self.vector(g, g.declared)
        except (EvalError, KeyError, TypeError):
            return None
        return total

    def passes(self, name: str, packed: int) -> bool:
        for i, op, k in self.tests.get(name, ()):
            if not op((packed >> (FIELD * i)) & MASK, k):
                return False
        return True
