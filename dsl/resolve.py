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
from . import types as T
from .diagnostics import Diagnostics

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


class Resolver:
    def __init__(self, symbols: Symbols, diags: Diagnostics):
        self.sym = symbols
        self.diags = diags

    # ------------------------------------------------------------------ entry

    def check(self, e: E.Expr | None, scope: str, want: str | None = None,
              binders: dict[str, str] | None = None) -> E.Expr | None:
        """Resolve and type-check `e` in `scope`; report a mismatch against `want`."""
        if e is None:
            return None
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
            return dataclasses.replace(e, ref=f"builtin:{n}"), builtins[n]
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
        if e.func in E.COMPREHENSIONS and e.func not in ("max", "min") or e.func not in FUNC_SIGS:
            if e.func in E.COMPREHENSIONS:
                self.diags.error("E404", f"`{e.func}` needs the form `{e.func}(x in LIST: …)`", e.span)
            else:
                close = difflib.get_close_matches(e.func, list(FUNC_SIGS) + list(E.COMPREHENSIONS), n=1)
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
