"""One pattern's plan for the bounded search (dsl/reach_search.py): the conjuncts of its condition as
constraints on single groups, tiles and group counts, the settings to try, and the targets (a form's
groups) with their estimated candidate space."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import comb

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from .reach_model import (
    GROUP_LISTS,
    MAX_CONTEXTS,
    PAIR_BUILTINS,
    STRUCT_BUILTINS,
    WIN_FIELDS,
    Cand,
    World,
    fields_in,
    int_value,
    is_local,
    names_in,
)

FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
INF = 10 ** 9


def _bounds(op: str, k: int):
    return {"==": (k, k), ">=": (k, INF), ">": (k + 1, INF), "<=": (-INF, k), "<": (-INF, k - 1)}.get(op)


@dataclass
class Count:
    """count(g in LIST: cond) must lie within lo..hi (cond None: every member counts)."""

    lst: str
    cond: E.Expr | None
    negate: bool
    lo: int
    hi: int
    fn: object = None
    keys: tuple | None = None
    win_dep: bool = True


@dataclass
class TileRule:
    """all(t in tiles|hand: cond)."""

    src: str  # tiles | hand
    cond: E.Expr
    negate: bool
    fn: object = None
    keys: tuple | None = None


def group_count(e: E.Expr):
    """`len(LIST)` or `count(g in LIST: local)` over a group list -> (list, cond)."""
    if isinstance(e, E.Call) and e.func == "len" and len(e.args) == 1 and isinstance(e.args[0], E.Name):
        ref = e.args[0].ref
        if ref.startswith("builtin:") and ref[8:] in GROUP_LISTS:
            return ref[8:], None
    if isinstance(e, E.Comp) and e.func == "count" and len(e.binders) == 1 and isinstance(e.source, E.Name):
        ref = e.source.ref
        if ref.startswith("builtin:") and ref[8:] in GROUP_LISTS and is_local(e.body):
            return ref[8:], e.body
    return None


def _tile_source(e: E.Comp):
    if len(e.binders) == 1 and isinstance(e.source, E.Name) and e.source.ref in ("builtin:tiles", "builtin:hand") \
            and is_local(e.body):
        return e.source.ref[8:]
    return None


def constraint_of(c: E.Expr):
    """A conjunct as a Count or TileRule, or None when it is not of a shape the search prunes with."""
    neg = False
    if isinstance(c, E.Unary) and c.op == "not" and isinstance(c.operand, E.Comp) and c.operand.func == "any":
        c, neg = c.operand, True
    if isinstance(c, E.Comp) and len(c.binders) == 1 and isinstance(c.source, E.Name) and is_local(c.body):
        ref = c.source.ref
        lst = ref[8:] if ref.startswith("builtin:") and ref[8:] in GROUP_LISTS else None
        if lst and c.func == "all":
            return Count(lst, c.body, True, 0, 0)
        if lst and c.func == "any":
            return Count(lst, c.body, False, 0, 0) if neg else Count(lst, c.body, False, 1, INF)
        src = _tile_source(c)
        if src and c.func == "all":
            return TileRule(src, c.body, False)
        if src and c.func == "any" and neg:
            return TileRule(src, c.body, True)
        return None
    if isinstance(c, E.Compare) and len(c.ops) == 1:
        a, b = c.operands
        op = c.ops[0]
        if int_value(a) is not None:
            a, b, op = b, a, FLIP[op]
        k = int_value(b)
        gc = group_count(a)
        if k is None or gc is None:
            return None
        bounds = _bounds(op, k)
        if bounds is None:
            return None
        return Count(gc[0], gc[1], False, max(bounds[0], 0), bounds[1])
    return None


# ---------------------------------------------------------------------------- one pattern's plan


@dataclass
class Target:
    form: ir.WinForm
    sa: int  # group slots filled by hand melds or shown melds
    sb: int  # hand pairs
    A: list = field(default_factory=list)
    B: list = field(default_factory=list)
    estimate: int = 0


@dataclass
class Plan:
    pattern: ir.Pattern
    counts: list
    tile_rules: list
    pair_checks: list  # compiled conjuncts reading only pairs / pair
    struct_checks: list  # compiled conjuncts reading only the groups (no winning tile)
    refs: set
    fields: set
    contexts: list  # env overrides to try
    targets: list = field(default_factory=list)
    orphan_forms: list = field(default_factory=list)
    estimate: int = 0


LIST_BUILTINS = {f"builtin:{n}" for n in GROUP_LISTS} | {"builtin:tiles", "builtin:hand", "builtin:waits",
                                                          "builtin:shape_waits"}


def _is_list(e: E.Expr) -> bool:
    """Whether an expression yields a list whose order follows the reading's group order."""
    match e:
        case E.Name(ref=ref):
            return ref in LIST_BUILTINS
        case E.Comp(func="filter"):
            return True
        case E.Call(func="distinct"):
            return True
        case E.Attr(name="tiles"):
            return True
    return False


def order_sensitive(e: E.Expr) -> bool:
    """A comparison of whole lists (`==`, `!=`) can see the order of groups and tiles, which the search
    does not reproduce; `pair` (the first pair) is handled separately."""
    for n in E.walk(e):
        if isinstance(n, E.Compare) and any(op in ("==", "!=") for op in n.ops) and \
                any(_is_list(o) for o in n.operands):
            return True
    return False


def _closure(rs: ir.RuleSet, p: ir.Pattern) -> tuple[set, set]:
    """References and field names the pattern's raw count can read, through patterns, quantities, units."""
    refs: set[str] = set()
    fields: set[str] = set()
    todo: list[E.Expr] = [x for x in (p.enabled, p.when, p.count) if x is not None]
    seen: set[str] = set()
    pats = {q.name: q for q in rs.patterns}
    quants = {q.name: q for q in rs.quantities}
    while todo:
        e = todo.pop()
        fields |= fields_in(e)
        if order_sensitive(e):
            refs.add("order:lists")
        for r in names_in(e):
            if r in seen:
                continue
            seen.add(r)
            refs.add(r)
            cat, _, name = r.partition(":")
            if cat == "pattern" and name in pats:
                q = pats[name]
                todo += [x for x in (q.enabled, q.when, q.count) if x is not None]
            elif cat == "quantity" and name in quants:
                todo.append(quants[name].expr)
            elif cat == "unit":
                for q in rs.patterns:
                    todo += [x for x in (q.enabled, q.when, q.count, q.value) if x is not None]
            elif r in ("builtin:waits", "builtin:shape_waits"):
                for q in rs.requires:
                    todo += [x for x in (q.expr, q.unless) if x is not None]
                todo += [f.pair_when for f in rs.forms if f.pair_when is not None]
    return refs, fields


def _contexts(rs: ir.RuleSet, refs: set) -> list[dict] | None:
    """Every combination of the settings the pattern reads, or None when one cannot be enumerated."""
    from ..runtime.evaluate import compile_expr

    axes = []
    for r in sorted(refs):
        cat, _, name = r.partition(":")
        if cat in ("reveal", "call", "order"):
            return None
        if cat not in ("option", "context"):
            continue
        s = rs.setting(name)
        if s is None:
            return None
        if s.type == "bool":
            vals = [False, True]
        elif s.type in ("int", "num", "seat") and s.values:
            try:
                vals = [compile_expr(v)({}) for v in s.values]
            except Exception:
                return None
        elif s.type in ("int", "seat") and s.range and s.range[1] - s.range[0] < MAX_CONTEXTS:
            vals = list(range(s.range[0], s.range[1] + 1))
        else:
            return None
        axes.append([(r, v) for v in vals])
    n = 1
    for a in axes:
        n *= len(a)
    if n > MAX_CONTEXTS:
        return None
    return [dict(combo) for combo in itertools.product(*axes)]


def _targets(rs: ir.RuleSet, form: ir.WinForm):
    """(shown-or-hand meld slots, hand pair slots) for each way the form splits (Scoring.form_targets)."""
    lo, hi = form.pairs if form.pairs else (0, 0)
    if form.groups is not None:
        if not form.pairs:
            lo, hi = 0, form.groups
        for p in range(lo, hi + 1):
            if form.groups - p >= 0:
                yield form.groups - p, p
    else:
        for p in range(lo, hi + 1):
            yield form.melds or 0, p


def make_plan(world: World, p: ir.Pattern) -> Plan | None:
    from ..runtime.evaluate import compile_expr

    rs = world.rs
    refs, fields = _closure(rs, p)
    if "builtin:flowers" in refs:
        return None  # the search lays down no flowers
    ctxs = _contexts(rs, refs)
    if ctxs is None:
        return None
    counts, tile_rules, pair_checks, struct_checks = [], [], [], []
    conj = list(E.conjuncts(p.when))
    for c in conj:
        k = constraint_of(c)
        if isinstance(k, Count):
            k.fn = compile_expr(k.cond) if k.cond is not None else None
            counts.append(k)
        elif isinstance(k, TileRule):
            k.fn = compile_expr(k.cond)
            tile_rules.append(k)
    checks = [(c, False) for c in conj]
    if p.count is not None:
        checks.append((p.count, True))
        gc = group_count(p.count)
        if gc is not None:
            k = Count(gc[0], gc[1], False, 1, INF)
            k.fn = compile_expr(k.cond) if k.cond is not None else None
            counts.append(k)
    for c, positive in checks:
        names = names_in(c)
        if fields_in(c) & WIN_FIELDS:
            continue
        fn = compile_expr(c)
        check = (lambda f: (lambda env: f(env) > 0))(fn) if positive else fn
        if names <= PAIR_BUILTINS:
            pair_checks.append(check)
        elif names <= STRUCT_BUILTINS:
            struct_checks.append(check)
    plan = Plan(p, counts, tile_rules, pair_checks, struct_checks, refs, fields, ctxs)
    # per-candidate facts
    env = {"tile-lookup": world.env["tile-lookup"]}
    # Per-pattern copies of the candidates: each carries what it adds to this pattern's counts.
    allowed = {}
    mine = {}
    for c in world.hand_cands + world.shown_cands:
        ok = _allowed(c, tile_rules, env) and _counts_of(c, counts, env)
        allowed[id(c)] = ok is not None and ok is not False
        if allowed[id(c)]:
            c2 = Cand.__new__(Cand)
            c2.__dict__ = dict(c.__dict__)
            c2.mn, c2.mx = ok
            mine[id(c)] = c2
    total = 0
    for form in rs.forms:
        if form.orphans:
            plan.orphan_forms.append(form)
            total += 1
            continue
        for sa, sb in _targets(rs, form):
            t = Target(form, sa, sb)
            shown_ok = [c for c in world.shown_cands if not (form.concealed and c.exposed)]
            t.A = [c for c in world.hand_cands if not c.is_pair] + shown_ok if sa else []
            t.B = [c for c in world.hand_cands if c.is_pair] if sb else []
            t.A = [mine[id(c)] for c in t.A if allowed[id(c)]]
            t.B = [mine[id(c)] for c in t.B if allowed[id(c)]]
            if not _tighten(t, counts):
                continue
            if t.sb == 1 and not any(c.is_pair for c in t.A) and pair_checks:
                # the hand pair is the only pair: conditions on the pairs apply to it alone
                t.B = [c for c in t.B if _all_ok(pair_checks, {**env, "builtin:pairs": [c.variants[0]],
                                                               "builtin:pair": c.variants[0]})]
                if not _tighten(t, counts):
                    continue
            t.estimate = _estimate(t)
            total += t.estimate
            plan.targets.append(t)
    plan.estimate = total
    return plan


def _all_ok(checks, env) -> bool:
    from ..runtime.evaluate import EvalError

    for fn in checks:
        try:
            if not fn(env):
                return False
        except EvalError:
            return False
    return True


def _allowed(c: Cand, tile_rules, env) -> bool:
    for tr in tile_rules:
        if tr.keys is None:
            tr.keys = _binder_keys(tr.cond)
        if tr.src == "hand" and c.shown:
            continue
        for t in c.variants[0].tiles:
            if not _eval_local(tr, t, env):
                return False
    return True


def _eval_local(tr: TileRule, t, env) -> bool:
    from ..runtime.evaluate import EvalError

    try:
        for key in tr.keys:
            env[key] = t
        v = bool(tr.fn(env))
    except EvalError:
        return False
    return v != tr.negate


def _binder_keys(e: E.Expr) -> tuple:
    """The binder a local condition is written over: its free binder(s)."""
    bound = set()
    for n in E.walk(e):
        if isinstance(n, E.Comp):
            bound.update(n.binders)
    free = []
    for n in E.walk(e):
        if isinstance(n, E.Name) and n.ref.startswith("binder:") and n.ref[7:] not in bound and n.ref not in free:
            free.append(n.ref)
    return tuple(free)


def _counts_of(c: Cand, counts: list[Count], env):
    """(mn, mx): how much c adds to each count at least / at most; None when no match can contain c."""
    from ..runtime.evaluate import EvalError
    from ..runtime.observe import in_list

    mn, mx = [], []
    g0 = c.variants[0]
    for k in counts:
        if not in_list(g0, k.lst):
            mn.append(0)
            mx.append(0)
            continue
        if k.fn is None:
            mn.append(1)
            mx.append(1)
            continue
        if k.keys is None:
            k.keys = _binder_keys(k.cond)
            k.win_dep = bool(fields_in(k.cond) & WIN_FIELDS)
        keys = k.keys
        vals = set()
        for g in c.variants if k.win_dep else c.variants[:1]:
            try:
                for key in keys:
                    env[key] = g
                vals.add(bool(k.fn(env)) != k.negate)
            except EvalError:
                continue
        if not vals:
            return None  # the condition fails with an error on this group: no match contains it
        mn.append(1 if vals == {True} else 0)
        mx.append(1 if True in vals else 0)
    return mn, mx


def _tighten(t: Target, counts: list[Count]) -> bool:
    """Drop candidates no match can use; False when the target cannot satisfy the counts at all."""
    for _ in range(4):
        changed = False
        for j, k in enumerate(counts):
            minB = t.sb if t.B and all(c.mn[j] for c in t.B) else 0
            maxB = t.sb if any(c.mx[j] for c in t.B) else 0
            maxA = t.sa if any(c.mx[j] for c in t.A) else 0
            if minB > k.hi or maxA + maxB < k.lo:
                return False
            if k.hi - minB <= 0:
                a = [c for c in t.A if not c.mn[j]]
                if len(a) != len(t.A):
                    t.A, changed = a, True
            if k.hi <= 0:
                b = [c for c in t.B if not c.mn[j]]
                if len(b) != len(t.B):
                    t.B, changed = b, True
            if k.lo - maxB >= t.sa > 0:
                a = [c for c in t.A if c.mx[j]]
                if len(a) != len(t.A):
                    t.A, changed = a, True
            if k.lo - maxA >= t.sb > 0:
                b = [c for c in t.B if c.mx[j]]
                if len(b) != len(t.B):
                    t.B, changed = b, True
        if (t.sa and not t.A) or (t.sb and not t.B):
            return False
        if not changed:
            break
    return True


def _multisets(n: int, k: int) -> int:
    return comb(n + k - 1, k) if k else 1


def _estimate(t: Target) -> int:
    return _multisets(len(t.A), t.sa) * _multisets(len(t.B), t.sb)
