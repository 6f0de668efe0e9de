"""The types of a rule set rebuilt from JSON: every expression is checked as the compiler checks it.

A compiled rule set's names are resolved (each `Name.ref` says what it denotes), so what is left of the
compiler's type checking (dsl/resolve.py) is the inference itself: the type of every name, field, call,
comprehension and operator, from the types in `runtime/ir/types.py`, and the same mismatches refused — an
ordering or arithmetic on something that is not a number, a comparison of values that cannot be equal, a
condition that is not true/false, a field the value does not have, a list mixing types, a slot given a
value of the wrong type. An edited file could otherwise hand the evaluator `int + list` or `none * 2`.

The first mismatch is one sentence naming the JSON path of the node it is about.
"""
from __future__ import annotations

from . import expr as E
from . import types as T
from . import vocab as V
from .passes import Symbols, dependency_order

_SCOPE_BUILTINS = {"tile": {"t": "tile"}, "setup": {}, "reading": V.READING_BUILTINS,
                   "game": {**V.READING_BUILTINS, **V.GAME_BUILTINS}}


class Mismatch(Exception):
    """A type error of a loaded rule set: (JSON path, sentence)."""


class TypeCheck:
    """The compiler's type inference over resolved names (symbols from `RuleSetPasses.declare`)."""

    def __init__(self, sym: Symbols, rs):
        self.sym = sym
        self.rs = rs
        self.choice_types: dict[int, str] = {}  # action index -> the type of `choice` (settle_choices)
        self._infer_quantities()

    def _infer_quantities(self) -> None:
        """A quantity is a number or a named condition, whichever its expression gives (as the compiler
        settles it: in dependency order, quantities reading each other)."""
        q_types = self.sym.by_category.get("quantity", {})
        ordered = dependency_order(self.rs.quantities)
        for _ in range(3):
            before = dict(q_types)
            for q in ordered:
                if q.name in q_types:
                    try:
                        typ = self.expr(q.expr, "ruleset", {})
                    except Mismatch:
                        continue  # reported when the quantity itself is checked
                    q_types[q.name] = T.quantity_type(typ)
            if q_types == before:
                break

    # ------------------------------------------------------------------ entry

    def check(self, e: E.Expr | None, path: str, want: str | None) -> None:
        if e is None:
            return
        typ = self.expr(e, path, {})
        if want == "bool" and isinstance(e, E.Name) and e.ref.startswith("pattern:"):
            return  # a pattern used as a condition: it fired at least once
        if want is not None and not T.assignable(typ, want):
            raise Mismatch(f"{path}: expected {T.show(want)}, but this is {T.show(typ)}")

    def _want(self, e: E.Expr, path: str, b: dict, typ: str) -> str:
        t = self.expr(e, path, b)
        if typ == "bool" and isinstance(e, E.Name) and e.ref.startswith("pattern:"):
            return t
        if not T.assignable(t, typ):
            raise Mismatch(f"{path}: expected {T.show(typ)}, but this is {T.show(t)}")
        return t

    def _num(self, t: str, path: str) -> None:
        if not T.is_num(t):
            raise Mismatch(f"{path}: expected a number, but this is {T.show(t)}")

    # ------------------------------------------------------------------ expressions

    def expr(self, e: E.Expr, path: str, b: dict) -> str:  # noqa: C901 - one case per node type
        match e:
            case E.Num(text=text):
                return "num" if "." in text else "int"
            case E.Str():
                return "str"
            case E.Bool():
                return "bool"
            case E.NoneLit():
                return "none"
            case E.TileLit():
                return "tile" if e.single else "list[tile]"
            case E.ListLit(items=items):
                types = {t for i, x in enumerate(items) for t in (self.expr(x, f"{path}.items[{i}]", b),)
                         if t not in ("any", "none")}
                if len(types) == 1:
                    return f"list[{types.pop()}]"
                if types and types <= {"int", "num"}:
                    return "list[num]"
                if types:
                    raise Mismatch(f"{path}: a list mixes items of different types: "
                                   + ", ".join(sorted(T.show(t) for t in types)))
                return "list[any]"
            case E.Name():
                return self.name(e, b, path)
            case E.Attr(obj=o, name=name):
                ot = self.expr(o, f"{path}.obj", b)
                fields = self.fields_of(T.base(ot))
                if fields is None:
                    if ot != "any":
                        raise Mismatch(f"{path}: {T.show(ot)} has no fields (`.{name[:40]}`)")
                    return "any"
                if name not in fields:
                    raise Mismatch(f"{path}.name: {T.show(T.base(ot))} has no field {name[:40]!r}")
                return fields[name]
            case E.Call():
                return self.call(e, path, b)
            case E.Comp():
                return self.comp(e, path, b)
            case E.Unary(op="not", operand=o):
                self._want(o, f"{path}.operand", b, "bool")
                return "bool"
            case E.Unary(op="-", operand=o):
                t = self.expr(o, f"{path}.operand", b)
                self._num(t, f"{path}.operand")
                return T.base(t) if T.is_num(t) else "num"
            case E.Binary(op=op, left=lt, right=rt) if op in ("and", "or"):
                self._want(lt, f"{path}.left", b, "bool")
                self._want(rt, f"{path}.right", b, "bool")
                return "bool"
            case E.Binary(op=op, left=lt, right=rt):
                a = self.expr(lt, f"{path}.left", b)
                c = self.expr(rt, f"{path}.right", b)
                self._num(a, f"{path}.left")
                self._num(c, f"{path}.right")
                return "int" if T.base(a) == "int" and T.base(c) == "int" and op in ("+", "-", "*", "//", "%", "^") \
                    else "num"
            case E.Compare():
                return self.compare(e, path, b)
            case E.If(cond=c, then=t, orelse=f):
                self._want(c, f"{path}.cond", b, "bool")
                tt = self.expr(t, f"{path}.then", b)
                ft = self.expr(f, f"{path}.orelse", b)
                res = tt if tt == ft else (
                    "num" if T.is_num(tt) and T.is_num(ft) else
                    (T.base(tt) + "?" if ft == "none" else T.base(ft) + "?" if tt == "none" else
                     T.base(tt) + "?" if T.base(tt) == T.base(ft) else "any"))
                if res == "any" and "any" not in (tt, ft):
                    raise Mismatch(f"{path}: the two branches differ: {T.show(tt)} and {T.show(ft)}")
                return res
        raise Mismatch(f"{path}: not an expression")

    def settle_choices(self) -> None:
        """The type of `choice` in each action (its choices' type), refusing a choice that is not a value
        a decision can have, as the compiler does (dsl/checker.py `action`)."""
        for i, a in enumerate(self.rs.actions):
            types = []
            for j, c in enumerate(a.choices):
                path = f"ruleset.actions[{i}].choices[{j}]"
                t = self.expr(c, path, {})
                problem = T.choice_problem(t)
                if problem:
                    raise Mismatch(f"{path}: a choice {problem}")
                types.append(t)
            if a.choice_list is not None:
                path = f"ruleset.actions[{i}].choice_list"
                t = self.expr(a.choice_list, path, {})
                problem = T.list_choice_problem(t)
                if problem:
                    raise Mismatch(f"{path}: the choices {problem}")
                types.append(T.elem(t))
            kind = "list[tile]" if a.select else T.choice_type(types) if types else "num"
            if kind == "any" and types and not a.select:
                raise Mismatch(f"ruleset.actions[{i}].choices: the choices mix types")
            self.choice_types[i] = kind

    def name(self, e: E.Name, b: dict, path: str = "") -> str:
        cat, sep, what = e.ref.partition(":")
        if not sep:
            return "any"  # an unresolved name (an example's expected pattern list): data
        if cat == "binder":
            return b.get(what, "any")
        if cat == "builtin" and what == "choice" and path.startswith("ruleset.actions["):
            index = path[len("ruleset.actions["):].partition("]")[0]
            return self.choice_types.get(int(index), "num") if index.isdigit() else "num"
        if cat == "builtin":
            return _SCOPE_BUILTINS["game"].get(what) or ("tile" if what == "t" else "any")
        if cat in ("option", "context", "quantity", "table"):
            return self.sym.by_category.get(cat, {}).get(what, "any")
        return T.CATEGORY_TYPES.get(cat, "any")

    def fields_of(self, t: str) -> dict[str, str] | None:
        if t == "tile":
            return {**V.TILE_FIELDS, "kind": "tile", "suit": "suit?", **{a: "bool" for a in self.sym.tile_attrs}}
        if t == "meld":
            return {**V.MELD_FIELDS, "kind": "meldkind", "suit": "suit?"}
        if t == "seat":
            return {**V.SEAT_BUILTIN_FIELDS, **self.sym.player_fields}
        if t == "table":
            return dict(self.sym.table_fields)
        return None

    def call(self, e: E.Call, path: str, b: dict) -> str:
        sig = T.FUNC_SIGS.get(e.func)
        if sig is None:
            raise Mismatch(f"{path}.func: unknown function {e.func[:40]!r}")
        params, result = sig
        if len(e.args) != len(params):
            raise Mismatch(f"{path}: `{e.func}` takes {len(params)} argument(s), got {len(e.args)}")
        types = []
        for i, (a, p) in enumerate(zip(e.args, params)):
            t = self.expr(a, f"{path}.args[{i}]", b)
            ok = (t == "any" or (p == "num" and T.is_num(t)) or (p == "list" and T.is_list(t))
                  or (p == "list|str" and (T.is_list(t) or T.base(t) == "str")) or T.base(t) == p)
            if not ok:
                raise Mismatch(f"{path}.args[{i}]: `{e.func}` expects {T.show(p.split('|')[0])} here, "
                               f"not {T.show(t)}")
            types.append(t)
        return {"same": types[0], "numlike": T.base(types[0]) if T.is_num(types[0]) else "num",
                "num2": "int" if all(T.base(t) == "int" for t in types) else "num"}.get(result, result)

    def comp(self, e: E.Comp, path: str, b: dict) -> str:
        if e.func not in E.COMPREHENSIONS:
            raise Mismatch(f"{path}.func: unknown comprehension {e.func[:40]!r}")
        st = self.expr(e.source, f"{path}.source", b)
        if not T.is_list(st) and st != "any":
            raise Mismatch(f"{path}.source: `{e.func}(… in X: …)` needs a list, but X is {T.show(st)}")
        el = T.elem(st)
        inner = dict(b)
        for name in e.binders:
            inner[name] = el
        if e.func in ("count", "any", "all", "filter"):
            self._want(e.body, f"{path}.body", inner, "bool")
            return {"count": "int", "any": "bool", "all": "bool", "filter": f"list[{el}]"}[e.func]
        bt = self.expr(e.body, f"{path}.body", inner)
        self._num(bt, f"{path}.body")
        return T.base(bt) if T.is_num(bt) else "num"

    def compare(self, e: E.Compare, path: str, b: dict) -> str:
        types = [self.expr(o, f"{path}.operands[{i}]", b) for i, o in enumerate(e.operands)]
        for k, op in enumerate(e.ops):
            lt, rt = types[k], types[k + 1]
            where = f"{path}.operands[{k}]"
            if op in ("in", "not in"):
                if not (T.is_list(rt) or rt == "any" or T.base(rt) == "str"):
                    raise Mismatch(f"{path}.operands[{k + 1}]: `{op}` needs a list on its right, not {T.show(rt)}")
                if T.is_list(rt) and not T.compatible(lt, T.elem(rt)):
                    raise Mismatch(f"{where}: cannot look for {T.show(lt)} in {T.show(rt)}")
            elif op in ("==", "!="):
                if not T.compatible(lt, rt):
                    raise Mismatch(f"{where}: cannot compare {T.show(lt)} with {T.show(rt)}")
            elif op in ("<", "<=", ">", ">="):
                self._num(lt, where)
                self._num(rt, f"{path}.operands[{k + 1}]")
            else:
                raise Mismatch(f"{path}.ops[{k}]: unknown comparison {op[:10]!r}")
        return "bool"


def _each(items, path: str, fields):
    """(expression, JSON path, wanted type) of the named fields (`fields`: (name, type) pairs) of every
    item of a list of the rule set at `path`."""
    for i, x in enumerate(items):
        for name, want in fields:
            yield getattr(x, name), f"{path}[{i}].{name}", want


def _slots(rs):
    """(expression, JSON path, the type its place wants) for every expression of the rule set whose
    place the compiler types (dsl/checker.py `resolve_all`); the others are checked inside only."""
    counted = (("copies", "int"), ("enabled", "bool"))
    yield from _each(rs.tiles.suits, "ruleset.tiles.suits", counted)
    yield from _each(rs.tiles.kinds, "ruleset.tiles.kinds", counted)
    yield from _each(rs.tiles.attrs, "ruleset.tiles.attrs", (("expr", "bool"),))
    for i, s in enumerate(rs.settings):
        want = s.type + ("?" if s.type in V.OPTIONAL_TYPES else "")
        yield s.default, f"ruleset.settings[{i}].default", want
        for j, v in enumerate(s.values):
            yield v, f"ruleset.settings[{i}].values[{j}]", s.type
    yield rs.table.players, "ruleset.table.players", "int"
    yield rs.table.next_dealer, "ruleset.table.next_dealer", "seat"
    yield rs.table.ends_when, "ruleset.table.ends_when", "bool"
    yield from _each(rs.reveals, "ruleset.reveals", (("moves_when", "bool"), ("unless", "bool")))
    yield from _each(rs.wilds, "ruleset.wilds", (("active", "bool"),))
    yield from _each(rs.standins, "ruleset.standins", (("plays", "tile?"), ("unless", "bool")))
    for i, m in enumerate(rs.melds):
        yield from _each(m.values, f"ruleset.melds[{i}].values", (("value", "num"),))
    yield from _each(rs.forms, "ruleset.forms", (("pair_when", "bool"), ("instant", "bool")))
    yield from _each(rs.requires, "ruleset.requires", (("expr", "bool"), ("unless", "bool")))
    yield from _each(rs.patterns, "ruleset.patterns",
                     (("value", "num"), ("when", "bool"), ("count", "int"), ("enabled", "bool")))
    yield from _each(rs.quantities, "ruleset.quantities", (("expr", None),))
    if rs.score is not None:
        for name in ("expr", "best", "total"):
            yield getattr(rs.score, name), f"ruleset.score.{name}", "num"
    for i, p in enumerate(rs.payments):
        yield p.amount, f"ruleset.payments[{i}].amount", "num"
        yield p.when, f"ruleset.payments[{i}].when", "bool"
        yield from _each(p.factors, f"ruleset.payments[{i}].factors", (("value", "num"), ("when", "bool")))
    yield from _each(rs.fees, "ruleset.fees", (("rate", "num"),))
    yield from _each(rs.tasks, "ruleset.tasks", (("factor", "num"), ("when", "bool")))
    for i, s in enumerate(rs.states):
        want = {"tiles": "list[tile]"}.get(s.type, s.type)
        yield s.init, f"ruleset.states[{i}].init", want + ("?" if s.type in V.OPTIONAL_TYPES else "")
    yield from _each(rs.actions, "ruleset.actions", (("when", "bool"), ("choice_when", "bool")))
    for name in ("restricts", "observes", "hooks"):
        yield from _each(getattr(rs, name), f"ruleset.{name}", (("when", "bool"),))


def first_mismatch(rs, sym: Symbols, roots) -> str | None:
    """The first type error of a loaded rule set (`roots`: every root expression with its JSON path,
    the slots' wanted types applied where the compiler applies them), or None."""
    tc = TypeCheck(sym, rs)
    try:
        tc.settle_choices()
        wanted = {}
        for e, path, want in _slots(rs):
            if e is not None:
                wanted[id(e)] = want
                tc.check(e, path, want)
        for e, path in roots:
            if id(e) not in wanted:
                tc.check(e, path, None)
    except Mismatch as exc:
        return str(exc)
    return None


def decision_types(rs) -> dict[str, str]:
    """The type of `choice` in each action of a checked rule set, by action name (`num` for an action
    without choices); empty when the rule set does not type (the pages then use their neutral word)."""
    from .passes import Findings, RuleSetPasses

    ch = RuleSetPasses(rs, Findings())
    ch.declare()
    tc = TypeCheck(ch.sym, rs)
    try:
        tc.settle_choices()
    except Mismatch:
        return {}
    return {a.name: tc.choice_types.get(i, "num") for i, a in enumerate(rs.actions)}
