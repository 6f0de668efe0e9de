"""Name resolution and type checking of expressions.

Every name is resolved at compile time to one declaration; the Name node records it in `ref` as
`category:name` (e.g. `pattern:P`, `option:O`, `builtin:melds`, `binder:m`). A name declared
in several categories (a pattern and a room option of one name) is resolved by the type the context
expects (`m.kind == K` wants a meld kind); otherwise it must be qualified: `option.NAME`.
"""
from __future__ import annotations

import dataclasses
import difflib

from ..runtime.ir import expr as E
from ..runtime.ir import vocab as V
from ..runtime.ir.passes import Symbols
from ..runtime.ir.types import CATEGORY_TYPES, FUNC_SIGS
from ..runtime.limits import MAX_EXPR_NODES
from . import types as T
from .diagnostics import Diagnostic, Diagnostics
from .functions import PARAM_TYPES, Function, hidden_params, size

# Qualifiers a rule writer may use to pick a category: `option.NAME`, `pattern.NAME`.
QUALIFIERS = {"option": "option", "context": "context", "pattern": "pattern", "quantity": "quantity",
              "unit": "unit", "tile": "tile", "meld": "meld", "suit": "suit", "form": "form",
              "reveal": "reveal"}
# Scope -> the builtin names visible in it.
SCOPE_BUILTINS = {
    "tile": {"t": "tile"},
    "setup": {},
    "reading": V.READING_BUILTINS,
    "game": {**V.READING_BUILTINS, **V.GAME_BUILTINS},
}
SEAT_BUILTIN_FIELDS = V.SEAT_BUILTIN_FIELDS
# Nodes the calls of functions written out for one expression may produce, nested calls counted each
# time (a bound on the compiler's work; the expression itself is then held to MAX_EXPR_NODES, E704).
INLINE_WORK = 25 * MAX_EXPR_NODES


class Resolver:
    def __init__(self, symbols: Symbols, diags: Diagnostics, functions: dict[str, Function] | None = None):
        self.sym = symbols
        self.diags = diags
        self.functions = functions or {}
        self.calling: list[str] = []  # the functions being written out, innermost last (a cycle is E503)
        self.root = diags  # where a call's findings go (`diags` is a scratch list inside a call)
        self.checking: list[str] = []  # the function whose declaration is being checked
        self.overrides: dict[str, str] = {}  # builtins typed by their place (`choice`: the action's choices)
        self.budget = INLINE_WORK  # nodes the calls written out for one expression may produce
        self.declared_errors: set[tuple] = set()  # findings of the function bodies checked where declared

    # ------------------------------------------------------------------ entry

    def check(self, e: E.Expr | None, scope: str, want: str | None = None,
              binders: dict[str, str] | None = None) -> E.Expr | None:
        """Resolve and type-check `e` in `scope`; report a mismatch against `want`."""
        if e is None:
            return None
        self.budget = INLINE_WORK
        out, typ = self.expr(e, scope, dict(binders or {}), want)
        if want == "bool" and isinstance(out, E.Name) and out.ref.startswith("pattern:"):
            return out  # a pattern used as a condition: it fired at least once
        if want is not None and not T.assignable(typ, want):
            self.diags.error("E401", f"expected {T.show(want)}, but this is {T.show(typ)}", e.span)
        return out

    # ------------------------------------------------------------------ expressions

    def expr(self, e: E.Expr, scope: str, b: dict[str, str], hint: str | None = None) -> tuple[E.Expr, str]:
        match e:
            case E.Num(text=text):
                return e, "num" if "." in text else "int"
            case E.Str():
                return e, "str"
            case E.Bool():
                return e, "bool"
            case E.NoneLit():
                return e, "none"
            case E.TileLit():
                return e, "tile" if e.single else "list[tile]"
            case E.ListLit(items=items):
                h = T.elem(hint) if hint and T.is_list(hint) else None
                outs = [self.expr(i, scope, b, h) for i in items]
                types = {t for _, t in outs if t not in ("any", "none")}
                el = "any"
                if len(types) == 1:
                    el = types.pop()
                elif types <= {"int", "num"} and types:
                    el = "num"
                elif types:
                    self.diags.error("E401", "a list mixes items of different types: "
                                     + ", ".join(sorted(T.show(t) for t in types)), e.span)
                return dataclasses.replace(e, items=tuple(o for o, _ in outs)), f"list[{el}]"
            case E.Name():
                return self.name(e, scope, b, hint)
            case E.Attr():
                return self.attr(e, scope, b, hint)
            case E.Call():
                return self.call(e, scope, b)
            case E.Comp():
                return self.comp(e, scope, b)
            case E.Unary(op="not", operand=o):
                return dataclasses.replace(e, operand=self.want(o, scope, b, "bool")), "bool"
            case E.Unary(op="-", operand=o):
                out, t = self.expr(o, scope, b)
                self.need_num(t, o)
                return dataclasses.replace(e, operand=out), T.base(t) if T.is_num(t) else "num"
            case E.Binary(op=op, left=l, right=r) if op in ("and", "or"):
                return dataclasses.replace(e, left=self.want(l, scope, b, "bool"),
                                           right=self.want(r, scope, b, "bool")), "bool"
            case E.Binary(op=op, left=l, right=r):
                lo, lt = self.expr(l, scope, b)
                ro, rt = self.expr(r, scope, b)
                self.need_num(lt, l)
                self.need_num(rt, r)
                res = "int" if T.base(lt) == "int" and T.base(rt) == "int" and op in ("+", "-", "*", "//", "%", "^") \
                    else "num"
                return dataclasses.replace(e, left=lo, right=ro), res
            case E.Compare():
                return self.compare(e, scope, b)
            case E.If(cond=c, then=t, orelse=f):
                co = self.want(c, scope, b, "bool")
                to, tt = self.expr(t, scope, b, hint)
                fo, ft = self.expr(f, scope, b, hint or tt)
                res = tt if tt == ft else (
                    "num" if T.is_num(tt) and T.is_num(ft) else
                    (T.base(tt) + "?" if ft == "none" else T.base(ft) + "?" if tt == "none" else
                     T.base(tt) + "?" if T.base(tt) == T.base(ft) else "any"))
                if res == "any" and "any" not in (tt, ft):
                    self.diags.error("E401", f"the two branches differ: {T.show(tt)} and {T.show(ft)}", e.span)
                return dataclasses.replace(e, cond=co, then=to, orelse=fo), res
        raise AssertionError(f"unknown expression node {e!r}")

    def typed(self, e: E.Expr, scope: str) -> tuple[E.Expr, str]:
        """The resolved expression and its type, nothing wanted of it."""
        self.budget = INLINE_WORK
        return self.expr(e, scope, {}, None)

    def want(self, e: E.Expr, scope: str, b: dict[str, str], typ: str) -> E.Expr:
        out, t = self.expr(e, scope, b, typ)
        if typ == "bool" and isinstance(out, E.Name) and out.ref.startswith("pattern:"):
            return out  # a pattern used as a condition: it fired at least once
        if not T.assignable(t, typ):
            self.diags.error("E401", f"expected {T.show(typ)}, but this is {T.show(t)}", e.span)
        return out

    def need_num(self, t: str, e: E.Expr) -> None:
        if not T.is_num(t):
            self.diags.error("E401", f"expected a number, but this is {T.show(t)}", e.span)

    # ------------------------------------------------------------------ names

    def name(self, e: E.Name, scope: str, b: dict[str, str], hint: str | None) -> tuple[E.Expr, str]:
        n = e.name
        if n in b:
            return dataclasses.replace(e, ref=f"binder:{n}"), b[n]
        builtins = SCOPE_BUILTINS[scope]
        if n in builtins:
            return dataclasses.replace(e, ref=f"builtin:{n}"), self.overrides.get(n, builtins[n])
        cands = self.candidates(n, scope)
        if not cands:
            self.unknown(e, scope, b)
            return e, "any"
        if len(cands) > 1 and hint is not None:
            fitting = [c for c in cands if T.compatible(c[1], hint) and T.base(c[1]) == T.base(hint)]
            if len(fitting) == 1:
                cands = fitting
        if len(cands) > 1:
            cats = sorted(c for c, _ in cands)
            self.diags.error("E306", f"`{n}` is declared as {' and as '.join(cats)}; say which one",
                             e.span, "write " + " or ".join(f"`{c}.{n}`" for c in cats))
            return e, "any"
        cat, typ = cands[0]
        return dataclasses.replace(e, ref=f"{cat}:{n}"), typ

    def candidates(self, n: str, scope: str) -> list[tuple[str, str]]:
        cands = self.sym.lookup(n)
        if scope != "game":
            cands = [c for c in cands if c[0] != "table"]
        if scope == "tile":  # tile attributes may only use settings and tile names
            cands = [c for c in cands if c[0] in ("option", "context", "tile", "suit")]
        elif scope == "setup":
            cands = [c for c in cands if c[0] in ("option", "context", "tile", "suit", "reveal")]
        return cands

    def unknown(self, e: E.Name, scope: str, b: dict[str, str]) -> None:
        pool = list(b) + list(SCOPE_BUILTINS[scope]) + self.sym.all_names()
        close = difflib.get_close_matches(e.name, pool, n=1, cutoff=0.5)
        hint = f"did you mean `{close[0]}`?" if close else ""
        if e.name in self.functions:
            hint = f"`{e.name}` is a function: call it, `{e.name}(…)`"
        if not hint and e.name in V.GAME_BUILTINS and scope != "game":
            hint = f"`{e.name}` is only known in game rules (actions, payments)"
        if not hint and e.name in V.READING_BUILTINS and scope in ("tile", "setup"):
            hint = f"`{e.name}` is only known when a hand is scored"
        self.diags.error("E301", f"unknown name `{e.name}`", e.span, hint)

    def attr(self, e: E.Attr, scope: str, b: dict[str, str], hint: str | None) -> tuple[E.Expr, str]:
        # qualified names: option.NAME, pattern.NAME …
        if isinstance(e.obj, E.Name) and e.obj.name in QUALIFIERS and e.obj.name not in b:
            cat = QUALIFIERS[e.obj.name]
            declared = self.sym.by_category.get(cat, {})
            builtin = SCOPE_BUILTINS[scope].get(e.obj.name)
            # A builtin of the same name (`form`, `tile`) wins only when it has that field.
            shadowed = builtin is not None and (e.name not in (self.fields_of(T.base(builtin)) or {})
                                                or e.name in declared)
            if builtin is None or (shadowed and e.name in declared):
                typ = declared.get(e.name)
                if typ is None:
                    self.diags.error("E301", f"there is no {cat} named `{e.name}`", e.span)
                    return e, "any"
                # options, contexts and quantities keep their own (declared or inferred) type
                own = cat in ("option", "context", "quantity")
                return E.Name(e.name, ref=f"{cat}:{e.name}", span=e.span), typ if own else CATEGORY_TYPES.get(cat, typ)
        obj, ot = self.expr(e.obj, scope, b)
        fields = self.fields_of(T.base(ot))
        if fields is None:
            if ot != "any":
                self.diags.error("E304", f"{T.show(ot)} has no fields (`.{e.name}`)", e.span)
            return dataclasses.replace(e, obj=obj), "any"
        if e.name not in fields:
            close = difflib.get_close_matches(e.name, list(fields), n=1, cutoff=0.5)
            self.diags.error("E304", f"{T.show(T.base(ot))} has no field `{e.name}`", e.span,
                             f"did you mean `{close[0]}`?" if close else "fields: " + ", ".join(sorted(fields)))
            return dataclasses.replace(e, obj=obj), "any"
        return dataclasses.replace(e, obj=obj), fields[e.name]

    def fields_of(self, t: str) -> dict[str, str] | None:
        if t == "tile":
            return {**V.TILE_FIELDS, "kind": "tile", "suit": "suit?",
                    **{a: "bool" for a in self.sym.tile_attrs}}
        if t == "meld":
            return {**V.MELD_FIELDS, "kind": "meldkind", "suit": "suit?"}
        if t == "seat":
            return {**SEAT_BUILTIN_FIELDS, **self.sym.player_fields}
        if t == "table":
            return dict(self.sym.table_fields)
        return None

    # ------------------------------------------------------------------ calls and comprehensions

    def call(self, e: E.Call, scope: str, b: dict[str, str]) -> tuple[E.Expr, str]:
        if e.func in self.functions:
            return self.inline(e, scope, b)
        if e.func in E.COMPREHENSIONS and e.func not in ("max", "min") or e.func not in FUNC_SIGS:
            if e.func in E.COMPREHENSIONS:
                self.diags.error("E404", f"`{e.func}` needs the form `{e.func}(x in LIST: …)`", e.span)
            else:
                close = difflib.get_close_matches(e.func, list(FUNC_SIGS) + list(E.COMPREHENSIONS)
                                                  + list(self.functions), n=1)
                self.diags.error("E305", f"unknown function `{e.func}`", e.span,
                                 f"did you mean `{close[0]}`?" if close else
                                 "functions: " + ", ".join(sorted(set(FUNC_SIGS) | set(E.COMPREHENSIONS))))
            return e, "any"
        params, result = FUNC_SIGS[e.func]
        if len(e.args) != len(params):
            self.diags.error("E403", f"`{e.func}` takes {len(params)} argument(s), got {len(e.args)}", e.span)
            return e, "any"
        outs = [self.expr(a, scope, b) for a in e.args]
        for (_, t), p, a in zip(outs, params, e.args):
            ok = (t == "any" or (p == "num" and T.is_num(t)) or (p == "list" and T.is_list(t))
                  or (p == "list|str" and (T.is_list(t) or T.base(t) == "str")) or T.base(t) == p)
            if not ok:
                self.diags.error("E401", f"`{e.func}` expects {T.show(p.split('|')[0])} here, "
                                 f"not {T.show(t)}", a.span)
        types = [t for _, t in outs]
        res = {"same": types[0], "numlike": T.base(types[0]) if T.is_num(types[0]) else "num",
               "num2": "int" if all(T.base(t) == "int" for t in types) else "num"}.get(result, result)
        return dataclasses.replace(e, args=tuple(o for o, _ in outs)), res

    # ------------------------------------------------------------------ the file's own functions

    def check_function(self, fn: Function) -> None:
        """Check a function's body where it is declared, in the game scope (the widest: reading and game
        names), its parameters bound; each call checks it again in the caller's scope."""
        for name, span in hidden_params(fn):
            self.diags.error("E404", f"the binder `{name}` hides the parameter `{name}` of `{fn.name}`", span,
                             "give the binder another name")
        before = len(self.diags.items)
        self.budget = INLINE_WORK
        self.calling, self.checking = [fn.name], [fn.name]
        try:
            self.expr(fn.body, "game", {p.name: p.type for p in fn.params}, None)
        finally:
            self.calling, self.checking = [], []
        self.declared_errors.update(_key(d) for d in self.diags.items[before:])

    def report(self, d: Diagnostic) -> None:
        """A finding about the functions themselves (a cycle, the size written out): once, where it is."""
        if _key(d) not in {_key(x) for x in self.root.items}:
            self.root.items.append(d)

    def inline(self, e: E.Call, scope: str, b: dict[str, str]) -> tuple[E.Expr, str]:
        """A call of a function of the file: its arguments checked against the parameters, then its body,
        resolved in this scope, with each parameter replaced by its argument."""
        fn = self.functions[e.func]
        if self.budget < 0:  # reported where it ran out
            return e, "any"
        if e.func in self.calling:
            path = " → ".join(self.calling[self.calling.index(e.func):] + [e.func])
            self.report(Diagnostic("E503", f"function `{e.func}` calls itself ({path})", e.span,
                                   "functions cannot be recursive: write the cases out"))
            return e, "any"
        if len(e.args) != len(fn.params):
            self.diags.error("E403", f"`{e.func}` takes {len(fn.params)} argument(s), got {len(e.args)}", e.span,
                             f"declared at line {fn.span.line}: `{e.func}("
                             + ", ".join(f"{p.name}: {_word(p.type)}" for p in fn.params) + ")`")
            return e, "any"
        args = {}
        for p, a in zip(fn.params, e.args):
            out, t = self.expr(a, scope, b, p.type)
            if not T.assignable(t, p.type):
                self.diags.error("E401", f"`{e.func}` expects {T.show(p.type)} for `{p.name}`, not {T.show(t)}",
                                 a.span)
            args[p.name] = out
        scratch = Diagnostics()
        saved, self.diags = self.diags, scratch
        self.calling.append(e.func)
        try:
            body, typ = self.expr(fn.body, scope, {p.name: p.type for p in fn.params}, None)
        finally:
            self.calling.pop()
            self.diags = saved
        if len(self.calling) == len(self.checking):  # the call written in the file: say what went wrong
            for d in scratch.items:  # what the declaration's check reported already is not repeated per call
                if _key(d) not in self.declared_errors:
                    self.diags.error(d.code, f"`{e.func}(…)` cannot be used here: {d.message} (in the body "
                                     f"of a function, line {d.span.line})", e.span, d.hint)
        else:  # a call inside a function's body: the outermost call reports
            self.diags.items.extend(scratch.items)
        if scratch.has_errors:
            return e, typ
        # Binders of the body that the arguments' own binders would be captured by get fresh names.
        outer = {n.ref[7:] for a in args.values() for n in E.walk(a) if isinstance(n, E.Name)
                 and n.ref.startswith("binder:")}
        if outer:
            body = _rename_binders(body, outer, {n.name for n in E.walk(body) if isinstance(n, E.Name)} | outer)
        for name, arg in args.items():
            body = _replace_free(body, name, lambda _n, arg=arg: arg)
        self.budget -= size(body)
        if self.budget < 0:
            self.report(Diagnostic("E704", f"written out, the calls of `{e.func}` make this expression far larger "
                             f"than {MAX_EXPR_NODES} parts", e.span, "call fewer functions in one expression, or "
                             "name a part as a `quantity`"))
            return e, "any"
        return body, typ

    def comp(self, e: E.Comp, scope: str, b: dict[str, str]) -> tuple[E.Expr, str]:
        if e.func not in E.COMPREHENSIONS:  # `len(x in S: …)`, `cnt(x in S: …)`
            if e.func in FUNC_SIGS:
                self.diags.error("E404", f"`{e.func}` is a function, not a comprehension; it takes no "
                                 "`x in LIST: …`", e.span, "comprehensions: " + ", ".join(E.COMPREHENSIONS))
            else:
                close = difflib.get_close_matches(e.func, E.COMPREHENSIONS, n=1)
                self.diags.error("E305", f"unknown function `{e.func}`", e.span,
                                 f"did you mean `{close[0]}`?" if close else
                                 "comprehensions: " + ", ".join(E.COMPREHENSIONS))
            return e, "any"
        src, st = self.expr(e.source, scope, b)
        if not T.is_list(st) and st != "any":
            self.diags.error("E401", f"`{e.func}(… in X: …)` needs a list, but X is {T.show(st)}", e.source.span)
        el = T.elem(st)
        inner = dict(b)
        for name in e.binders:
            inner[name] = el
        if len(set(e.binders)) != len(e.binders):
            self.diags.error("E404", "the same binder name is used twice", e.span)
        if e.func in ("count", "any", "all", "filter"):
            body = self.want(e.body, scope, inner, "bool")
            res = {"count": "int", "any": "bool", "all": "bool", "filter": f"list[{el}]"}[e.func]
            if e.func == "filter" and len(e.binders) > 1:
                self.diags.error("E404", "`filter` takes one binder", e.span)
        else:
            body, bt = self.expr(e.body, scope, inner)
            self.need_num(bt, e.body)
            res = T.base(bt) if T.is_num(bt) else "num"
        return dataclasses.replace(e, source=src, body=body), res

    # ------------------------------------------------------------------ comparisons

    def compare(self, e: E.Compare, scope: str, b: dict[str, str]) -> tuple[E.Expr, str]:
        n = len(e.operands)
        outs: list[tuple[E.Expr, str] | None] = [None] * n
        # Resolve operands that are not bare names first, so names can take their type as a hint.
        for i, o in enumerate(e.operands):
            if not isinstance(o, (E.Name, E.ListLit)) or (isinstance(o, E.Name) and o.name in b):
                outs[i] = self.expr(o, scope, b)
        for i, o in enumerate(e.operands):
            if outs[i] is None:
                hint = None
                for j in (i - 1, i + 1):
                    if 0 <= j < n and outs[j] is not None:
                        op = e.ops[min(i, j)]
                        ht = outs[j][1]  # type: ignore[index]
                        if op in ("in", "not in"):
                            hint = f"list[{ht}]" if j < i else T.elem(ht)
                        else:
                            hint = ht
                        break
                outs[i] = self.expr(o, scope, b, hint)
        for k, op in enumerate(e.ops):
            (_, lt), (_, rt) = outs[k], outs[k + 1]  # type: ignore[misc]
            span = e.operands[k].span
            if op in ("in", "not in"):
                if not (T.is_list(rt) or rt == "any" or T.base(rt) == "str"):
                    self.diags.error("E401", f"`{op}` needs a list on its right, not {T.show(rt)}",
                                     e.operands[k + 1].span)
                elif T.is_list(rt) and not T.compatible(lt, T.elem(rt)):
                    self.diags.error("E401", f"cannot look for {T.show(lt)} in {T.show(rt)}", span)
            elif op in ("==", "!="):
                if not T.compatible(lt, rt):
                    self.diags.error("E401", f"cannot compare {T.show(lt)} with {T.show(rt)}", span)
            else:
                for t, o in ((lt, e.operands[k]), (rt, e.operands[k + 1])):
                    self.need_num(t, o)
        return dataclasses.replace(e, operands=tuple(o for o, _ in outs)), "bool"  # type: ignore[misc]


# ---------------------------------------------------------------------- writing calls out


def _key(d) -> tuple:
    return (d.code, d.message, d.span)


def _word(typ: str) -> str:
    return next((w for w, t in PARAM_TYPES.items() if t == typ), typ)


def _replace_free(e: E.Expr, binder: str, make) -> E.Expr:
    """`e` with every reference to the binder `binder` that is free in it replaced by make(name node)."""
    ref = "binder:" + binder
    if isinstance(e, E.Name):
        return make(e) if e.ref == ref else e
    if isinstance(e, E.Comp):
        src = _replace_free(e.source, binder, make)
        body = e.body if binder in e.binders else _replace_free(e.body, binder, make)
        return dataclasses.replace(e, source=src, body=body)
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, E.Expr):
            changes[f.name] = _replace_free(v, binder, make)
        elif isinstance(v, tuple) and v and isinstance(v[0], E.Expr):
            changes[f.name] = tuple(_replace_free(x, binder, make) for x in v)
    return dataclasses.replace(e, **changes) if changes else e


def _rename_binders(e: E.Expr, avoid: set[str], taken: set[str]) -> E.Expr:
    """`e` with each comprehension binder named in `avoid` renamed to a name not in `taken`."""
    if isinstance(e, E.Comp):
        binders, body = list(e.binders), e.body
        for i, old in enumerate(binders):
            if old in avoid:
                k = 1
                while f"{old}_{k}" in taken:
                    k += 1
                new = f"{old}_{k}"
                taken.add(new)
                binders[i] = new
                body = _replace_free(body, old, lambda n, new=new: dataclasses.replace(n, name=new,
                                                                                        ref="binder:" + new))
        return dataclasses.replace(e, binders=tuple(binders), source=_rename_binders(e.source, avoid, taken),
                                   body=_rename_binders(body, avoid, taken))
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, E.Expr):
            changes[f.name] = _rename_binders(v, avoid, taken)
        elif isinstance(v, tuple) and v and isinstance(v[0], E.Expr):
            changes[f.name] = tuple(_rename_binders(x, avoid, taken) for x in v)
    return dataclasses.replace(e, **changes) if changes else e
