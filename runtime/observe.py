"""What scoring can observe of a reading: a signature that groups readings scored alike.

A hand holding wildcards has a great many readings (a wildcard may complete almost any group), but the
rule set reads each reading only through its expressions: the patterns' conditions, counts and
values, the quantities, the requirements, the score, and the form's `pair_when`. This module walks
those expressions once per (form, context, winning tile) and finds their **observation sites** —
the smallest parts that read the reading — so that two readings giving equal values at every site
give equal values everywhere, hence the same result. Sites are of these sorts:

- `agg`: `count/any/all/sum/max/min(x in L: body)` over a reading list L (groups, melds, pairs, runs,
  triplets, kongs, exposed, tiles, hand) with one binder and a body that reads nothing of the reading
  but x. Its value is an aggregate of `body(x)` over the items, so each group contributes its own part
  (its tiles' parts for a tile list) and parts combine by +, or, and, max or min;
- `win`: an attribute chain on the winning tile, its group or `pair` (`win_group.size`, `win_tile.wild`):
  evaluated on that one group;
- `pagg`: such an aggregate whose body also reads other parts of the reading (another list, an outer
  binder): each item whose value the body decides without them (`Observer._decide`, three-valued)
  contributes that value, every other item its identity;
- `bag`: a reading list used any other way (`len(distinct(tiles))`, several binders): the multiset of
  its items (their identities), which determines the list. For tile lists (`bag` and `pagg`) only the
  wildcards count: the natural tiles are the same in every reading of one hand;
- `suits` (a set) and `menqing` (not any group exposed).

Everything else an expression reads is the same in every reading of one hand under one context
(settings, `self_drawn`, `waits`, the form, and the winning tile when it is natural), so `if` and
`and`/`or` on such values are decided here and only the branch taken is walked. Patterns, quantities
and units named in an expression are functions of their own sites (all of them are walked).

The signature of a reading is the tuple of its site values; it is built group by group
(`contribution`, `join`), which is what lets the decomposition (`runtime/decompose.py`) carry sets of
partial signatures instead of readings. Whatever the walk cannot see through makes `exact` false:
the signature then also holds every group's identity (nothing is merged that differs).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from .evaluate import EvalError, compile_expr
from .ir import expr as E
from .reading import Group, RTile
from .tiles import TileInfo

GROUP_LISTS = ("groups", "melds", "pairs", "runs", "triplets", "kongs", "exposed")
TILE_LISTS = ("tiles", "hand")
DERIVED = ("pattern", "quantity", "unit")
_AGG = ("count", "any", "all", "sum", "max", "min")
# Reading builtins that are the same in every reading of one hand (the winning tile too when it is
# natural: the caller says which refs vary).
SHARED_BUILTINS = ("self_drawn", "waits", "shape_waits", "flowers", "form")
PER_HAND = ("builtin:waits", "builtin:shape_waits", "builtin:flowers")
GAME_FUNCTIONS = ("visible_count", "held", "next", "waits_without")
_EMPTY = object()  # max/min over no items yet
_UNKNOWN = object()  # a value `Observer._decide` cannot know from one item


def structure(e):
    """An expression's structure without its source positions: equal for every copy of one text."""
    if isinstance(e, E.Expr):
        return (type(e).__name__,) + tuple(structure(getattr(e, f.name)) for f in dataclasses.fields(e)
                                           if f.name != "span")
    if isinstance(e, tuple):
        return tuple(structure(x) for x in e)
    return e


def varying_refs(win_wild: bool) -> set[str]:
    """The reading builtins that may differ between readings of one hand."""
    names = ("melds", "groups", "pairs", "pair", "runs", "triplets", "kongs", "exposed", "tiles", "hand",
             "win_group", "suits", "menqing") + (("win_tile",) if win_wild else ())
    return {f"builtin:{n}" for n in names}


class Unobservable(Exception):
    """A site could not be evaluated on a group (an error the full evaluation would meet)."""


def in_list(g: Group, lst: str) -> bool:
    """Whether group g is an item of the reading list `lst` (as `Scoring.reading_env` builds them)."""
    if lst == "groups":
        return True
    if lst == "pairs":
        return g.is_pair
    if lst == "exposed":
        return g.exposed
    if g.is_pair:
        return False
    if lst == "melds":
        return True
    if lst == "runs":
        return g.is_run
    if lst == "triplets":
        return bool(g.field("triplet"))
    return g.is_kong  # kongs


def canon(v):
    """A hashable stand-in for a site value (tiles by what they are, groups by their identity)."""
    if isinstance(v, RTile):
        return ("t",) + v.sig
    if isinstance(v, TileInfo):
        return ("k", v.name)
    if isinstance(v, Group):
        return group_identity(v)
    if isinstance(v, list | tuple):
        return tuple(canon(x) for x in v)
    return v


def group_identity(g: Group) -> tuple:
    return ("g", g.kind, tuple(sorted(t.sig for t in g.tiles)), g.exposed, g.concealed, g.is_pair, g.is_kong,
            g.has_win, g.declared, str(g.value))


class Site:
    __slots__ = ("sort", "lst", "func", "binder", "body", "chain", "key")

    def __init__(self, sort, key, lst=None, func=None, binder=None, body=None, chain=None):
        self.sort, self.key, self.lst, self.func, self.binder, self.body, self.chain = \
            sort, key, lst, func, binder, body, chain


class Observer:
    """The sites of one form under one context (`const`: the values every reading shares)."""

    def __init__(self, roots: list[E.Expr], derived: dict[str, list[E.Expr]], const: dict, varying: set[str],
                 exact: bool = True):
        self.const = const
        self.varying = varying  # refs that differ between readings (`builtin:win_tile` when it is wild)
        self.derived = derived
        self.exact = exact
        self.uses_win = False  # whether the walk read the (natural) winning tile as a shared value
        self.sites: list[Site] = []
        self._seen: set = set()
        self._walked: set[str] = set()
        self._leaf_fns: dict[tuple, tuple] = {}  # (id of an expression, binder) -> (it; its closure or None)
        for r in roots:
            self._walk(r, frozenset())
        if not self.exact:
            self._add(Site("identity", ("identity",)))
        self.agg_sites = [s for s in self.sites if s.sort in ("agg", "pagg", "bag", "suits", "menqing", "identity")]
        self.win_sites = [s for s in self.sites if s.sort == "win"]
        self.first_pair = any(s.sort == "pair" for s in self.sites)
        self._contrib: dict = {}
        # a `pagg` site takes two places in the signature (its decided aggregate, its undecided items)
        self.unit = tuple(u for s in self.agg_sites for u in _units(s)) + (None,) * len(self.win_sites) + \
            ((None,) if self.first_pair else ())
        self._n_agg = len(self.unit) - len(self.win_sites) - self.first_pair
        self.join = self._make_join()

    # ------------------------------------------------------------------ the walk

    def _add(self, s: Site) -> None:
        if s.key not in self._seen:
            self._seen.add(s.key)
            self.sites.append(s)

    def _reads(self, e: E.Expr, covered: frozenset) -> bool:
        """Whether e reads anything that differs between readings."""
        for n in E.walk(e):
            if isinstance(n, E.Name):
                ref = n.ref
                cat, _, name = ref.partition(":")
                if ref in self.varying or cat in DERIVED:
                    return True
                if cat == "binder" and ref in covered:
                    return True
        return False

    def _const_value(self, e: E.Expr):
        """The value of an expression that reads only shared values, or raise KeyError/EvalError."""
        self._note_win(e)
        return compile_expr(e)(dict(self.const))

    def _note_win(self, e: E.Expr) -> None:
        if any(isinstance(n, E.Name) and n.ref == "builtin:win_tile" for n in E.walk(e)):
            self.uses_win = True

    def _walk(self, e: E.Expr, covered: frozenset) -> None:  # noqa: C901 - one case per node type
        if not self._reads(e, covered):
            return
        match e:
            case E.Name(ref=ref):
                cat, _, name = ref.partition(":")
                if cat in DERIVED:
                    if ref not in self._walked:
                        self._walked.add(ref)
                        for x in self.derived.get(ref, ()):
                            if x is not None:
                                self._walk(x, frozenset())
                    return
                if cat == "binder":
                    return  # a binder of a comprehension whose source is observed as a whole
                if name in GROUP_LISTS or name in TILE_LISTS:
                    self._add(Site("bag", ("bag", name), lst=name))
                elif name == "suits":
                    self._add(Site("suits", ("suits",)))
                elif name == "menqing":
                    self._add(Site("menqing", ("menqing",)))
                elif name in ("win_group", "win_tile", "pair"):
                    self._win_site(e)
                else:
                    self.exact = False
                return
            case E.Attr():
                root = e
                while isinstance(root, E.Attr):
                    root = root.obj
                if isinstance(root, E.Name) and root.ref in ("builtin:win_group", "builtin:win_tile", "builtin:pair"):
                    self._win_site(e)
                    return
                self._walk(e.obj, covered)
                return
            case E.Comp(func=func, binders=binders, source=src, body=body):
                if isinstance(src, E.Name) and src.ref.startswith("builtin:") and len(binders) == 1 \
                        and func in _AGG:
                    name = src.ref.split(":", 1)[1]
                    binder = f"binder:{binders[0]}"
                    if (name in GROUP_LISTS or name in TILE_LISTS) and self._pure_body(body, binder):
                        self._note_win(body)
                        key = ("agg", name, func, binders[0], structure(body))
                        self._add(Site("agg", key, lst=name, func=func, binder=binder, body=compile_expr(body)))
                        return
                    if name in GROUP_LISTS or name in TILE_LISTS:
                        # A body that also reads other parts of the reading (another list, an outer
                        # binder): each item whose value the body decides without them (`decide`)
                        # contributes that value, every other item its identity.
                        self._note_win(body)
                        key = ("pagg", name, func, binders[0], structure(body))
                        self._add(Site("pagg", key, lst=name, func=func, binder=binder, body=body))
                        self._walk(body, covered | {binder})
                        return
                self._walk(src, covered)
                self._walk(body, covered | {f"binder:{b}" for b in binders})
                return
            case E.If(cond=c, then=t, orelse=f):
                if not self._reads(c, covered):
                    try:
                        taken = t if self._const_value(c) else f
                    except (KeyError, EvalError, TypeError, AttributeError):
                        taken = None
                    if taken is not None:
                        self._walk(taken, covered)
                        return
                for x in (c, t, f):
                    self._walk(x, covered)
                return
            case E.Binary(op=op, left=left, right=right) if op in ("and", "or"):
                if not self._reads(left, covered):
                    try:
                        lv = bool(self._const_value(left))
                    except (KeyError, EvalError, TypeError, AttributeError):
                        lv = None
                    if lv is not None:
                        if lv == (op == "and"):
                            self._walk(right, covered)
                        return  # decided by the left side alone
                self._walk(left, covered)
                self._walk(right, covered)
                return
        for child in E.children(e):
            self._walk(child, covered)

    def _pure_body(self, body: E.Expr, binder: str) -> bool:
        """A body that reads nothing of the reading but its own binder (and the binders of its own
        inner comprehensions, which range over parts of that item or over shared values)."""
        inner = {f"binder:{b}" for n in E.walk(body) if isinstance(n, E.Comp) for b in n.binders}
        for n in E.walk(body):
            if isinstance(n, E.Name):
                ref = n.ref
                if ref == binder or ref in inner:
                    continue
                if ref in self.varying or ref.partition(":")[0] in DERIVED or ref.startswith("binder:"):
                    return False
                if ref in PER_HAND:  # shared, but not kept with the observer (one serves many hands)
                    return False
            elif isinstance(n, E.Call) and n.func in GAME_FUNCTIONS:
                return False
        return True

    def _win_site(self, e: E.Expr) -> None:
        root = e
        while isinstance(root, E.Attr):
            root = root.obj
        name = root.ref.split(":", 1)[1]
        if name == "pair":
            self._add(Site("pair", ("pair",)))  # the first pair: a part of the signature of its own
            return
        if root.ref not in self.varying and name == "win_tile":
            return  # a natural winning tile is the same in every reading
        self._add(Site("win", ("win", structure(e)), chain=compile_expr(e)))

    # ------------------------------------------------------------------ signatures

    def known_contribution(self, key) -> tuple | None:
        """The part remembered by `key`, if `contribution` made it already (None otherwise)."""
        return self._contrib.get(key)

    def contribution(self, g: Group, is_win: bool, key) -> tuple:
        """The part of the signature group g brings (remembered by `key`, the caller's name for it)."""
        got = self._contrib.get(key)
        if got is not None:
            return got
        parts = []
        env = dict(self.const)
        for s in self.agg_sites:
            if s.sort == "pagg":
                parts.extend(self._part(s, g, env))
            else:
                parts.append(self._part(s, g, env))
        win_part = [None] * len(self.win_sites)
        if is_win:
            win_tile = next((t for t in g.tiles if t.is_win), None)
            env2 = dict(self.const)
            env2["builtin:win_group"] = g
            env2["builtin:win_tile"] = win_tile
            env2["builtin:pair"] = None
            for j, s in enumerate(self.win_sites):
                try:
                    win_part[j] = (canon(s.chain(env2)),)
                except (EvalError, KeyError, TypeError, AttributeError) as exc:
                    raise Unobservable(str(exc)) from None
        parts.extend(win_part)
        if self.first_pair:
            parts.append(group_identity(g) if g.is_pair else None)
        got = self._contrib[key] = tuple(parts)
        return got

    def _part(self, s: Site, g: Group, env: dict):
        if s.sort == "identity":
            return (group_identity(g),)
        if s.sort == "suits":
            return frozenset(t.kind.suit for t in g.tiles if t.kind.suit)
        if s.sort == "menqing":
            return not g.exposed
        lst = s.lst
        if lst in TILE_LISTS:
            if lst == "hand" and g.declared:
                items = []
            else:
                items = g.tiles
        else:
            items = [g] if in_list(g, lst) else []
        if s.sort in ("bag", "pagg") and lst in TILE_LISTS:
            # The natural tiles of a tile list are the same in every reading of one hand (each split
            # places them all), and a decomposition state's tiles to come are fixed by the state: only
            # the wildcards (what each stands for) tell readings apart.
            items = [x for x in items if x.wild]
        if s.sort == "bag":
            return tuple(sorted(canon(x) for x in items))
        if s.sort == "pagg":
            return self._partial_part(s, items, env)
        vals = []
        for x in items:
            env[s.binder] = x
            try:
                vals.append(s.body(env))
            except (EvalError, KeyError, TypeError, AttributeError) as exc:
                raise Unobservable(str(exc)) from None
        f = s.func
        if f == "count":
            return sum(1 for v in vals if v)
        if f == "any":
            return any(vals)
        if f == "all":
            return all(vals)
        if f == "sum":
            for v in vals:
                if not isinstance(v, int | float | Fraction):
                    raise Unobservable("a sum over a value that is not a number")
            return sum(vals, 0)
        if not vals:
            return _EMPTY
        try:
            return max(vals) if f == "max" else min(vals)
        except TypeError as exc:
            raise Unobservable(str(exc)) from None

    def _partial_part(self, s: Site, items, env: dict) -> tuple:
        """A `pagg` site's part: the aggregate of the values `decide` finds (the body read with every
        other part of the reading unknown) and the sorted identities of the items it cannot decide.
        Two readings with equal parts give the site equal values: decided items have the same value in
        every reading, undecided ones are the same items, and what else their body reads is observed
        by sites of its own."""
        decided = []
        rest = []
        binder = s.binder
        for x in items:
            env[binder] = x
            v = self._decide(s.body, env, binder)
            if v is _UNKNOWN:
                rest.append(canon(x))
            else:
                decided.append(v)
        f = s.func
        if f == "count":
            agg = sum(1 for v in decided if v)
        elif f == "any":
            agg = any(decided)
        elif f == "all":
            agg = all(decided)
        elif f == "sum":
            if any(not isinstance(v, int | float | Fraction) for v in decided):
                raise Unobservable("a sum over a value that is not a number")
            agg = sum(decided, 0)
        elif not decided:
            agg = _EMPTY
        else:
            try:
                agg = max(decided) if f == "max" else min(decided)
            except TypeError as exc:
                raise Unobservable(str(exc)) from None
        return (agg, tuple(sorted(rest)))

    def _unknown(self, e: E.Expr, binder: str) -> bool:
        """Whether e reads something `decide` does not know: the reading beyond the item (`binder`), a
        pattern or quantity, another comprehension's binder, a per-hand value or a game function."""
        local = {binder} | {f"binder:{b}" for n in E.walk(e) if isinstance(n, E.Comp) for b in n.binders}
        for n in E.walk(e):
            if isinstance(n, E.Name):
                ref = n.ref
                if ref in local:
                    continue
                if ref in self.varying or ref in PER_HAND or ref.partition(":")[0] in DERIVED \
                        or ref.startswith("binder:"):
                    return True
            elif isinstance(n, E.Call) and n.func in GAME_FUNCTIONS:
                return True
        return False

    def _decide(self, e: E.Expr, env: dict, binder: str):
        """The value of e for the item in `env[binder]` when the rest of the reading cannot change it,
        else _UNKNOWN. `and`, `or`, `not` and `if` are read three-valued: a known operand that decides
        the result decides it, whatever the unknown one is. An unknown operand is skipped only when it is
        simple (names, fields, literals, equality and logic: `_simple`), as evaluating such an operand
        fails, if at all, by a missing field, the same in every reading; any error here leaves the item
        undecided (its identity is then kept, which is always exact)."""
        match e:
            case E.Binary(op=op, left=left, right=right) if op in ("and", "or"):
                lv = self._decide(left, env, binder)
                stop = op == "or"  # the operand value that decides the result
                if lv is not _UNKNOWN:
                    if bool(lv) == stop:
                        return stop
                    rv = self._decide(right, env, binder)
                    return _UNKNOWN if rv is _UNKNOWN else bool(rv)
                if not self._simple(left):
                    return _UNKNOWN
                rv = self._decide(right, env, binder)
                return stop if rv is not _UNKNOWN and bool(rv) == stop else _UNKNOWN
            case E.Unary(op="not", operand=o):
                v = self._decide(o, env, binder)
                return _UNKNOWN if v is _UNKNOWN else not v
            case E.If(cond=c, then=t, orelse=f):
                cv = self._decide(c, env, binder)
                if cv is not _UNKNOWN:
                    return self._decide(t if cv else f, env, binder)
                return _UNKNOWN
        fn = self._leaf_fns.get((id(e), binder))
        if fn is None:  # the expression is kept with its closure, so its id stays its own
            fn = self._leaf_fns[(id(e), binder)] = (e, None if self._unknown(e, binder) else compile_expr(e))
        if fn[1] is None:
            return _UNKNOWN
        try:
            return fn[1](env)
        except (EvalError, KeyError, TypeError, AttributeError):
            return _UNKNOWN

    @staticmethod
    def _simple(e: E.Expr) -> bool:
        """Names, fields, literals, equality, `not`, `and`, `or`: an operand whose evaluation has no
        arithmetic, call or comprehension that could fail on particular values."""
        for n in E.walk(e):
            if isinstance(n, E.Compare):
                if any(op not in ("==", "!=") for op in n.ops):
                    return False
            elif isinstance(n, E.Binary):
                if n.op not in ("and", "or"):
                    return False
            elif isinstance(n, E.Unary):
                if n.op != "not":
                    return False
            elif not isinstance(n, E.Name | E.Attr | E.Num | E.Str | E.Bool | E.NoneLit | E.TileLit):
                return False
        return True

    def _make_join(self):
        """`join(a, b)`: the signature part of two runs of groups, a before b. Written as one expression
        per site from a closed table of operations (nothing of the rule set's text enters it): joins are
        the inner loop of the decomposition."""
        parts = []
        helpers = {"_s": _sorted_tuple}
        ops = [op for s in self.agg_sites for op in _join_ops(s)]
        for j, op in enumerate(ops):
            if op in ("+", "or", "and", "|"):
                parts.append(f"(a[{j}] {op} b[{j}])")
            elif op is _bag:  # inline: joins are most of the decomposition's work
                parts.append(f"(_s(a[{j}] + b[{j}]) if a[{j}] and b[{j}] else a[{j}] or b[{j}])")
            else:
                helpers[f"_f{j}"] = op
                parts.append(f"_f{j}(a[{j}], b[{j}])")
        for j in range(len(ops), len(self.unit)):  # win parts and the first pair: the first given
            parts.append(f"(a[{j}] if a[{j}] is not None else b[{j}])")
        src = "lambda a, b: (" + "".join(p + ", " for p in parts) + ")"
        return eval(compile(src, "<paili signature join>", "eval"), {"__builtins__": {}, **helpers})  # noqa: S307


def _join_ops(s: Site) -> tuple:
    """The join of each of a site's places in the signature (a `pagg` site has two)."""
    if s.sort == "pagg":
        return (_join_op(Site("agg", (), func=s.func)), _bag)
    return (_join_op(s),)


def _units(s: Site) -> tuple:
    if s.sort == "pagg":
        return (_unit(Site("agg", (), func=s.func)), ())
    return (_unit(s),)


def _join_op(s: Site):
    sort = s.sort
    if sort in ("bag", "identity"):
        return _bag
    if sort == "suits":
        return "|"
    if sort == "menqing":
        return "and"
    f = s.func
    if f in ("count", "sum"):
        return "+"
    if f == "any":
        return "or"
    if f == "all":
        return "and"
    return _max if f == "max" else _min


def _sorted_tuple(x):
    return tuple(sorted(x))


def _bag(x, y):
    return tuple(sorted(x + y)) if x and y else (x or y)


def _max(x, y):
    if x is _EMPTY:
        return y
    return x if y is _EMPTY else max(x, y)


def _min(x, y):
    if x is _EMPTY:
        return y
    return x if y is _EMPTY else min(x, y)


def _unit(s: Site):
    if s.sort in ("bag", "identity"):
        return ()
    if s.sort == "suits":
        return frozenset()
    if s.sort == "menqing":
        return True
    f = s.func
    if f in ("count", "sum"):
        return 0
    if f == "any":
        return False
    if f == "all":
        return True
    return _EMPTY


