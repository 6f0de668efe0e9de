"""A bounded exhaustive search behind warning W601: "this pattern can never match".

`dsl/reach.py` proves impossibility from a few syntactic shapes. What it cannot prove, this module
tries by brute force: it enumerates every winning reading the runtime could build from the declared
tiles — every multiset of groups a winning form asks for, from the hand-formable meld shapes and from
every meld kind a hand may show as a meld, within the tile copies — and evaluates the pattern on each
with the runtime itself (`runtime.scoring.ReadingEvaluator`). When none satisfies it, that is a proof.

A claim must be a proof, so the search is conservative:
- it gives up (claims nothing) for rule sets whose readings it does not model: wildcards that can be in
  play, stand-in tiles, winning forms decided by an `instant` condition, and tile catalogs that depend
  on room options;
- it gives up for a pattern that depends on a setting it cannot enumerate (a tile, a reveal, an
  unbounded number); bool settings and small closed value sets are tried one by one;
- every choice the runtime could make differently is tried: where the winning tile sits (or no winning
  tile at all), self-drawn or not, which pair is `pair` when there are several;
- the conditions used to prune (the conjuncts of `when` that restrict single groups or tiles, or the
  number of groups of a kind) are necessary conditions of the pattern, so pruning never hides a
  witness; every surviving hand is evaluated exactly;
- the work is bounded: a pattern whose candidate space is too large, or whose search runs past the
  node or reading bounds, gets no claim.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import comb

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir

# ---------------------------------------------------------------------------- bounds

MAX_ESTIMATE = 60_000  # candidate hands (multisets of groups, before tile copies) per pattern
MAX_NODES = 150_000  # search nodes per pattern
MAX_READINGS = 200_000  # exact evaluations (one reading under one context) per pattern
MAX_TOTAL_NODES = 600_000  # search nodes for every search of one rule set together
# The bounds count work, never wall time: the checker's warnings must not depend on machine load.
MAX_CONTEXTS = 16  # combinations of setting values tried per pattern

GROUP_LISTS = ("groups", "melds", "pairs", "runs", "triplets", "kongs", "exposed")
STRUCT_BUILTINS = {f"builtin:{n}" for n in GROUP_LISTS} | {
    "builtin:pair", "builtin:tiles", "builtin:hand", "builtin:suits", "builtin:menqing", "builtin:form"}
PAIR_BUILTINS = {"builtin:pairs", "builtin:pair"}
WIN_BUILTINS = {"builtin:win_tile", "builtin:win_group", "builtin:self_drawn", "builtin:waits",
                "builtin:shape_waits"}
WIN_FIELDS = {"concealed", "has_win"}  # group fields that change with where the winning tile sits
CONST_CATS = {"binder", "tile", "suit", "meld", "form", "flowerclass"}
GAME_FUNCTIONS = {"visible_count", "held", "next"}


class _Found(Exception):
    pass


class _GiveUp(Exception):
    pass


# ---------------------------------------------------------------------------- expression helpers



def _names(e: E.Expr) -> set[str]:
    """Every reference an expression reads that is not a constant or a binder."""
    out = set()
    for n in E.walk(e):
        if isinstance(n, E.Name):
            if n.ref.split(":", 1)[0] not in CONST_CATS:
                out.add(n.ref)
        elif isinstance(n, E.Call) and n.func in GAME_FUNCTIONS:
            out.add(f"call:{n.func}")
    return out


def _fields(e: E.Expr) -> set[str]:
    return {n.name for n in E.walk(e) if isinstance(n, E.Attr)}


def _local(e: E.Expr) -> bool:
    """Reads only its binders and constants (so it can be evaluated on one group or one tile)."""
    return not _names(e)


def _int(e: E.Expr):
    if isinstance(e, E.Num):
        try:
            v = float(e.text)
        except ValueError:
            return None
        return int(v) if v.is_integer() else None
    if isinstance(e, E.Unary) and e.op == "-":
        v = _int(e.operand)
        return -v if v is not None else None
    return None


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


def _group_count(e: E.Expr):
    """`len(LIST)` or `count(g in LIST: local)` over a group list -> (list, cond)."""
    if isinstance(e, E.Call) and e.func == "len" and len(e.args) == 1 and isinstance(e.args[0], E.Name):
        ref = e.args[0].ref
        if ref.startswith("builtin:") and ref[8:] in GROUP_LISTS:
            return ref[8:], None
    if isinstance(e, E.Comp) and e.func == "count" and len(e.binders) == 1 and isinstance(e.source, E.Name):
        ref = e.source.ref
        if ref.startswith("builtin:") and ref[8:] in GROUP_LISTS and _local(e.body):
            return ref[8:], e.body
    return None


def _tile_source(e: E.Comp):
    if len(e.binders) == 1 and isinstance(e.source, E.Name) and e.source.ref in ("builtin:tiles", "builtin:hand") \
            and _local(e.body):
        return e.source.ref[8:]
    return None


def constraint_of(c: E.Expr):
    """A conjunct as a Count or TileRule, or None when it is not of a shape the search prunes with."""
    neg = False
    if isinstance(c, E.Unary) and c.op == "not" and isinstance(c.operand, E.Comp) and c.operand.func == "any":
        c, neg = c.operand, True
    if isinstance(c, E.Comp) and len(c.binders) == 1 and isinstance(c.source, E.Name) and _local(c.body):
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
        if _int(a) is not None:
            a, b, op = b, a, FLIP[op]
        k = _int(b)
        gc = _group_count(a)
        if k is None or gc is None:
            return None
        bounds = _bounds(op, k)
        if bounds is None:
            return None
        return Count(gc[0], gc[1], False, max(bounds[0], 0), bounds[1])
    return None


# ---------------------------------------------------------------------------- candidate groups


@dataclass(eq=False)
class Cand:
    """One concrete group: from the hand split (`shown` False) or given as a meld (`shown` True)."""

    kind: str
    tiles: tuple  # TileInfo, sorted by index
    shown: bool
    is_pair: bool
    is_kong: bool
    exposed: bool
    value: object
    need: tuple  # (kind index, n)
    variants: list = field(default_factory=list)  # Group states a single reading may give it
    sig: tuple = ()
    mn: list = field(default_factory=list)
    mx: list = field(default_factory=list)

    def group(self, RTile, Group):
        return Group(self.kind, [RTile(t) for t in self.tiles], exposed=self.exposed, concealed=not self.exposed,
                     is_pair=self.is_pair, is_kong=self.is_kong, value=self.value)

    def plain(self, Group):
        """A fresh group object in the state without the winning tile (its tile objects shared)."""
        g = self.variants[0]
        return Group(g.kind, g.tiles, g.exposed, g.concealed, g.is_pair, g.is_kong, g.value)


def _need(tiles) -> tuple:
    out: dict[int, int] = {}
    for t in tiles:
        out[t.index] = out.get(t.index, 0) + 1
    return tuple(sorted(out.items()))


class World:
    """What the search needs from one rule set, built once (lazily) and shared by its patterns."""

    def __init__(self, rs: ir.RuleSet):
        from ..runtime.reading import Group, RTile
        from ..runtime.rules import Rules, Scoring

        self.rs = rs
        self.rules = Rules(rs)
        self.cat, self.dec = self.rules.catalog_for({})
        self.env = self.rules._retile(self.rules.settings_env({}), self.cat)
        self.RTile, self.Group, self.Scoring = RTile, Group, Scoring
        kinds = self.cat.kinds
        self.copies = [k.copies for k in kinds]
        self.suits: dict[str, dict[int, object]] = {}
        for k in kinds:
            if k.suit:
                self.suits.setdefault(k.suit, {})[k.rank] = k
        from ..runtime.hand import Hand

        probe = Scoring(self.rules, self.cat, self.dec, self.env, Hand([], [], None, False))
        self.hand_cands: list[Cand] = []
        for spec in self.dec.specs:
            mk = rs.meld(spec.kind)
            for tiles in self._shapes(spec.shape, spec.size, spec.ranks, [kinds[i] for i in spec.tiles], spec.mixed,
                                      False):
                self._add(self.hand_cands, mk, tiles, False, probe)
        # Melds shown beside the hand: the runtime accepts a meld of any kind whose shape fits
        # (runtime.hand.build_hand), so every kind is a candidate, grown by up to its `grow_limit` tiles
        # where it `grows` (the copies of the tiles bound it: `_add`).
        self.shown_cands: list[Cand] = []
        for mk in rs.melds:
            s = mk.shape
            base = [self.cat.by_name[t] for t in s.tiles if t in self.cat.by_name]
            if s.kind == "tiles" and len(base) != len(s.tiles):
                continue
            for size in range(s.size, s.size + (mk.grow_limit if mk.grows else 0) + 1):
                for tiles in self._shapes(s.kind, size, s.ranks, base, s.mixed, size != s.size):
                    if self.rules.meld_matches(mk, list(tiles)):
                        self._add(self.shown_cands, mk, tiles, True, probe)

    def _shapes(self, shape: str, size: int, ranks, base, mixed: bool, grown: bool):
        kinds = self.cat.kinds
        seen = set()
        out = []

        def emit(tiles):
            tiles = tuple(sorted(tiles, key=lambda t: t.index))
            key = tuple(t.index for t in tiles)
            if key not in seen:
                seen.add(key)
                out.append(tiles)
        if shape == "same":
            for k in kinds:
                emit([k] * size)
        elif shape == "run":
            for idx in self.suits.values():
                for start in sorted(idx):
                    rs_ = range(start, start + size)
                    if all(r in idx for r in rs_):
                        emit([idx[r] for r in rs_])
        elif shape == "ranks":
            if not grown:
                for idx in self.suits.values():
                    if all(r in idx for r in ranks):
                        emit([idx[r] for r in sorted(ranks)])
        elif shape == "tiles":
            if not grown:
                emit(base)
            else:
                for extra in itertools.combinations_with_replacement(base, size - len(base)):
                    emit(list(base) + list(extra))
        elif shape == "same_rank":
            all_ranks = sorted({r for idx in self.suits.values() for r in idx})
            for r in all_ranks:
                suits = sorted(s for s, idx in self.suits.items() if r in idx)
                for combo in itertools.combinations_with_replacement(suits, size):
                    if mixed and len(set(combo)) < 2:
                        continue
                    emit([self.suits[s][r] for s in combo])
        return out

    def _add(self, out: list, mk: ir.MeldKind, tiles, shown: bool, probe) -> None:
        need = _need(tiles)
        if any(n > self.copies[i] for i, n in need):
            return
        RTile, Group = self.RTile, self.Group
        value = probe.group_value(mk, [RTile(t) for t in tiles])
        exposed = mk.exposed if shown else False
        c = Cand(mk.name, tiles, shown, mk.pair, mk.kong, exposed, value, need)
        c.sig = (mk.name, shown, tuple(t.index for t in tiles))
        c.variants.append(c.group(RTile, Group))
        if not shown:  # holding the winning tile: self-drawn (or a pair) stays concealed, claimed does not
            g = c.group(RTile, Group)
            g.has_win = True
            c.variants.append(g)
            if not mk.pair:
                g = c.group(RTile, Group)
                g.has_win = True
                g.concealed = False
                c.variants.append(g)
        out.append(c)


# ---------------------------------------------------------------------------- the rule-set gate


def _refs(e: E.Expr | None) -> set[str]:
    return _names(e) if e is not None else set()


def modelled(rs: ir.RuleSet, cat) -> bool:
    """Whether the search models every reading of this rule set (else it claims nothing)."""
    for w in rs.wilds:
        if w.tiles in cat.by_name or any(r.name == w.tiles for r in rs.reveals):
            return False
        if not any(k.name == w.tiles for k in rs.tiles.kinds):
            return False  # a name the search does not understand
    if rs.standins:
        return False
    if any(f.instant is not None for f in rs.forms):
        return False
    for k in rs.tiles.kinds:
        if any(r.split(":", 1)[0] in ("option", "context") for r in _refs(k.copies) | _refs(k.enabled)):
            return False
    for a in rs.tiles.attrs:
        if any(r.split(":", 1)[0] in ("option", "context") for r in _refs(a.expr)):
            return False
    return True


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
        fields |= _fields(e)
        if order_sensitive(e):
            refs.add("order:lists")
        for r in _names(e):
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
    """(shown-or-hand meld slots, hand pair slots) for each way the form splits (Scoring._targets)."""
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
        gc = _group_count(p.count)
        if gc is not None:
            k = Count(gc[0], gc[1], False, 1, INF)
            k.fn = compile_expr(k.cond) if k.cond is not None else None
            counts.append(k)
    for c, positive in checks:
        names = _names(c)
        if _fields(c) & WIN_FIELDS:
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
            k.win_dep = bool(_fields(k.cond) & WIN_FIELDS)
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


# ---------------------------------------------------------------------------- the search


class Search:
    def __init__(self, world: World, plan: Plan, node_budget: int):
        self.w = world
        self.plan = plan
        self.node_budget = min(node_budget, MAX_NODES)
        self.nodes = 0
        self.readings = 0
        self.hands = 0
        self.win_sensitive = bool(plan.refs & WIN_BUILTINS or plan.fields & WIN_FIELDS)
        self.uses_pair = "builtin:pair" in plan.refs
        from ..runtime.evaluate import EvalError
        from ..runtime.scoring import ReadingEvaluator

        self.EvalError, self.ReadingEvaluator = EvalError, ReadingEvaluator
        from ..runtime.hand import Hand

        self.probe = world.Scoring(world.rules, world.cat, world.dec, world.env, Hand([], [], None, False))
        self.envs = []
        for ctx in plan.contexts:
            env = dict(world.env)
            env.update(ctx)
            self.envs.append(env)

    # ---------------------------------------------------------------- driver

    def run(self) -> bool:
        """True when no reading satisfies the pattern (raises _GiveUp when the bounds are hit)."""
        try:
            for t in self.plan.targets:
                self._target(t)
            for f in self.plan.orphan_forms:
                self._orphans(f)
        except _Found:
            return False
        return True

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _GiveUp

    def _target(self, t: Target) -> None:
        counts = self.plan.counts
        J = len(counts)
        used = [0] * len(self.w.copies)
        copies = self.w.copies
        cur_mn = [0] * J
        cur_mx = [0] * J
        chosen: list[Cand] = []
        slots = t.sa + t.sb
        Ap = [c for c in t.A if c.is_pair]
        Am = [c for c in t.A if not c.is_pair]

        def add(c: Cand) -> bool:
            ok = True
            for i, n in c.need:
                used[i] += n
                if used[i] > copies[i]:
                    ok = False
            for j in range(J):
                cur_mn[j] += c.mn[j]
                cur_mx[j] += c.mx[j]
            chosen.append(c)
            if ok:
                left = slots - len(chosen)
                for j, k in enumerate(counts):
                    if cur_mn[j] > k.hi or cur_mx[j] + left < k.lo:
                        return False
            return ok

        def undo(c: Cand) -> None:
            for i, n in c.need:
                used[i] -= n
            for j in range(J):
                cur_mn[j] -= c.mn[j]
                cur_mx[j] -= c.mx[j]
            chosen.pop()

        def rec_b(start: int, left: int) -> None:
            if left == 0:
                rec_ap(0, t.sa)
                return
            for i in range(start, len(t.B)):
                self._tick()
                c = t.B[i]
                if add(c):
                    rec_b(i, left - 1)
                undo(c)

        def rec_ap(start: int, left: int) -> None:
            if self._pairs_ok(chosen):
                rec_am(0, left)
            for i in range(start, len(Ap)):
                if left == 0:
                    break
                self._tick()
                c = Ap[i]
                if add(c):
                    rec_ap(i, left - 1)
                undo(c)

        def rec_am(start: int, left: int) -> None:
            if left == 0:
                self._complete(t.form, chosen)
                return
            for i in range(start, len(Am)):
                self._tick()
                c = Am[i]
                if add(c):
                    rec_am(i, left - 1)
                undo(c)

        rec_b(0, t.sb)

    # ---------------------------------------------------------------- checks on partial and full hands

    def _pair_orders(self, pairs: list) -> list:
        """Each group that could be `pair` (the first pair) in the runtime's order, first."""
        if len(pairs) < 2:
            return [pairs]
        shown = [g for g in pairs if g.shown]
        firsts = shown if shown else pairs
        out, seen = [], set()
        for f in firsts:
            if f.sig in seen:
                continue
            seen.add(f.sig)
            rest = list(pairs)
            rest.remove(f)
            out.append([f] + rest)
        return out

    def _pairs_ok(self, chosen: list) -> bool:
        if not self.plan.pair_checks:
            return True
        pairs = [c for c in chosen if c.is_pair]
        shown = [c for c in pairs if c.shown]
        ordered = shown + [c for c in pairs if not c.shown]
        G = self.w.Group
        for order in self._pair_orders(ordered):
            gs = [c.plain(G) for c in order]
            env = dict(self.w.env)
            env["builtin:pairs"] = gs
            env["builtin:pair"] = gs[0] if gs else None
            if self._all(self.plan.pair_checks, env):
                return True
        return False

    def _all(self, checks, env) -> bool:
        for fn in checks:
            try:
                if not fn(env):
                    return False
            except self.EvalError:
                return False
        return True

    def _groups(self, chosen: list) -> tuple[list, list]:
        """(shown melds in order, hand groups) as fresh Group objects."""
        G, T = self.w.Group, self.w.RTile
        shown = [c.group(T, G) for c in chosen if c.shown]
        hand = [c.group(T, G) for c in chosen if not c.shown]
        return shown, hand

    def _orders(self, shown: list, hand: list) -> list[list]:
        """Group lists to evaluate: one, or one per possible first pair."""
        gs = shown + hand
        if not self.uses_pair:
            return [gs]
        pairs = [g for g in gs if g.is_pair]
        if len(pairs) < 2:
            return [gs]
        firsts = [g for g in pairs if g in shown] or pairs
        out, seen = [], set()
        for f in firsts:
            key = (f.kind, tuple(t.kind.index for t in f.tiles))
            if key in seen:
                continue
            seen.add(key)
            out.append([f] + [g for g in gs if g is not f])
        return out

    def _complete(self, form: ir.WinForm, chosen: list) -> None:
        self.hands += 1
        from ..runtime.reading import Reading

        if self.plan.struct_checks:
            # Conditions on the groups alone: the state without the winning tile will do.
            G = self.w.Group
            shown = [c.plain(G) for c in chosen if c.shown]
            hand = [c.plain(G) for c in chosen if not c.shown]
            hand_tiles = [t for g in hand for t in g.tiles]
            for gs in self._orders(shown, hand):
                r = Reading(form.name, gs, [t for g in gs for t in g.tiles], hand_tiles, None, None)
                if self._all(self.plan.struct_checks, self.probe.reading_env(r)):
                    break
            else:
                return
        shown, hand = self._groups(chosen)
        self._exact(form, shown, hand)

    def _scoring(self, env, shown, hand_groups, win, self_drawn):
        from ..runtime.hand import Hand, Meld

        concealed = [t.kind for g in hand_groups for t in g.tiles]
        if win is not None:
            concealed.remove(win)
        h = Hand(concealed, [Meld(g.kind, [t.kind for t in g.tiles]) for g in shown], win, self_drawn)
        return self.w.Scoring(self.w.rules, self.w.cat, self.w.dec, env, h)

    def _placements(self, hand: list):
        """(win kind, index of the group holding it) for every distinct place; (None, None) first."""
        yield None, None
        if not self.win_sensitive:
            return
        seen = set()
        for gi, g in enumerate(hand):
            sig = (g.kind, tuple(t.kind.index for t in g.tiles))
            for t in g.tiles:
                if (sig, t.kind.index) in seen:
                    continue
                seen.add((sig, t.kind.index))
                yield t.kind, gi

    def _exact(self, form, shown, hand) -> None:
        from ..runtime.reading import Reading

        G, T = self.w.Group, self.w.RTile
        name = self.plan.pattern.name
        for win, gi in self._placements(hand):
            for sd in (False, True) if self.win_sensitive else (False,):
                hg = hand
                wt = wg = None
                if win is not None:
                    hg = [G(x.kind, [T(y.kind) for y in x.tiles], x.exposed, x.concealed, x.is_pair, x.is_kong,
                            x.value) for x in hand]
                    wg = hg[gi]
                    wt = next(y for y in wg.tiles if y.kind.index == win.index)
                    wt.is_win = True
                    wg.has_win = True
                    if not sd and not wg.is_pair:
                        wg.concealed = False
                for env in self.envs:
                    for gs in self._orders(shown, hg):
                        self.readings += 1
                        if self.readings > MAX_READINGS:
                            raise _GiveUp
                        sc = self._scoring(env, shown, hg, win, sd)
                        r = Reading(form.name, gs, [t for g in gs for t in g.tiles], [t for g in hg for t in g.tiles],
                                    wt, wg)
                        ev = self.ReadingEvaluator(self.w.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand)
                        try:
                            n = ev.raw_count(name)
                        except self.EvalError:
                            n = 0
                        if n > 0:
                            raise _Found

    def _orphans(self, form: ir.WinForm) -> None:
        """Readings of a thirteen-orphans-like form: each marked kind once, one of them twice, no melds."""
        from ..runtime.reading import Reading

        T = self.w.RTile
        need = [k for k in self.w.cat.kinds if k.attrs.get(form.orphans)]
        if not need:
            return
        for dup in need:
            if dup.copies < 2:
                continue
            self._tick()
            self.hands += 1
            kinds = sorted(need + [dup], key=lambda k: k.index)
            for win in [None] + (need if self.win_sensitive else []):
                for sd in (False, True) if self.win_sensitive else (False,):
                    tiles = [T(k) for k in kinds]
                    wt = None
                    if win is not None:
                        wt = next(t for t in tiles if t.kind.index == win.index)
                        wt.is_win = True
                    for env in self.envs:
                        self.readings += 1
                        if self.readings > MAX_READINGS:
                            raise _GiveUp
                        concealed = [t.kind for t in tiles]
                        if win is not None:
                            concealed.remove(win)
                        from ..runtime.hand import Hand

                        sc = self.w.Scoring(self.w.rules, self.w.cat, self.w.dec, env, Hand(concealed, [], win, sd))
                        r = Reading(form.name, [], tiles, tiles, wt, None)
                        ev = self.ReadingEvaluator(self.w.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand)
                        try:
                            n = ev.raw_count(self.plan.pattern.name)
                        except self.EvalError:
                            n = 0
                        if n > 0:
                            raise _Found


# ---------------------------------------------------------------------------- entry


def _worth_planning(p: ir.Pattern) -> bool:
    """A pattern with nothing to prune with has a candidate space far beyond the bounds: skip it cheaply."""
    for c in E.conjuncts(p.when):
        if constraint_of(c) is not None:
            return True
    return p.count is not None and _group_count(p.count) is not None


def search_reasons(rs: ir.RuleSet, cat, patterns: list[ir.Pattern],
                   budget: int = MAX_TOTAL_NODES) -> dict[str, str]:
    """pattern name -> why it can never match, for the patterns the search proves impossible."""
    todo = [p for p in patterns if _worth_planning(p)]
    if not todo or not modelled(rs, cat):
        return {}
    try:
        world = World(rs)
    except Exception:
        return {}
    plans = []
    for p in todo:
        try:
            plan = make_plan(world, p)
        except Exception:
            continue
        if plan is not None and plan.estimate <= MAX_ESTIMATE:
            plans.append(plan)
    plans.sort(key=lambda pl: pl.estimate)
    out: dict[str, str] = {}
    spent = 0
    for plan in plans:
        if spent >= budget:
            break
        s = Search(world, plan, budget - spent)
        try:
            impossible = s.run()
        except _GiveUp:
            spent += s.nodes
            continue
        except Exception:  # a reading the runtime cannot evaluate: no proof
            spent += s.nodes
            continue
        spent += s.nodes
        if impossible:
            if s.hands:
                out[plan.pattern.name] = (f"no winning hand built from the declared tiles satisfies it "
                                          f"(searched {s.hands} candidate hand{'s' if s.hands != 1 else ''})")
            else:
                out[plan.pattern.name] = ("no winning hand built from the declared tiles satisfies it (every "
                                          "candidate hand runs out of tile copies or breaks a condition on its "
                                          "groups or tiles)")
    return out
