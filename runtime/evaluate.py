"""Expressions -> closures.

Each expression is compiled once per rule set into a plain Python callable taking an environment: a
dict from a resolved reference (`builtin:melds`, `option:NAME`, `binder:m`, …) to its value. Field
access goes through `field(value, name)`, so tiles, melds and seats can be any object that provides
`.field(name)` (or a dict). Numbers are ints or exact Fractions.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Callable

from dsl import expr as E

Env = dict
Fn = Callable[[Env], Any]

CN_DIGITS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")


def cn(n: int) -> str:
    """Chinese numerals for the small counts shown in labels (0–99)."""
    n = int(n)
    if n < 10:
        return CN_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CN_DIGITS[tens]) + "十" + (CN_DIGITS[ones] if ones else "")


def number(text: str):
    return Fraction(text) if "." in text else int(text)


def field(obj, name: str):
    if obj is None:
        return None
    f = getattr(obj, "field", None)
    if f is not None:
        return f(name)
    return obj[name]


class EvalError(Exception):
    """A value the expression cannot work with at run time (e.g. a field of `none`)."""


def _cmp(op: str, a, b) -> bool:
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "in":
        return a in b
    if op == "not in":
        return a not in b
    if a is None or b is None:
        return False
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def _div(a, b):
    if b == 0:
        raise EvalError("division by zero")
    return Fraction(a) / Fraction(b)


def _floordiv(a, b):
    if b == 0:
        raise EvalError("division by zero")
    return math.floor(Fraction(a) / Fraction(b))


def _norm(v):
    """Fractions that are whole become ints, so results print and compare plainly."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


BINARY = {
    "+": lambda a, b: _norm(a + b), "-": lambda a, b: _norm(a - b), "*": lambda a, b: _norm(a * b),
    "/": lambda a, b: _norm(_div(a, b)), "//": _floordiv, "%": lambda a, b: a % b,
    "^": lambda a, b: _norm(Fraction(a) ** int(b)),
}


def compile_expr(e: E.Expr, functions: dict[str, Callable] | None = None) -> Fn:
    """Compile a resolved expression. `functions` supplies the game-dependent functions
    (visible_count, next, held); the pure ones are built in."""
    fns = {"len": len, "distinct": _distinct, "abs": abs, "floor": lambda x: math.floor(x),
           "max": lambda a, b: max(a, b), "min": lambda a, b: min(a, b), "cn": cn, **(functions or {})}
    return _compile(e, fns)


def _distinct(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


def _compile(e: E.Expr, fns) -> Fn:  # noqa: C901 - one case per node type
    match e:
        case E.Num(text=text):
            v = number(text)
            return lambda env: v
        case E.Str(value=v) | E.Bool(value=v):
            return lambda env: v
        case E.NoneLit():
            return lambda env: None
        case E.TileLit(tiles=tiles, single=single):
            if single:
                t = tiles[0] if tiles else None
                return lambda env: env["tile-lookup"](t)
            return lambda env: [env["tile-lookup"](t) for t in tiles]
        case E.ListLit(items=items):
            parts = [_compile(i, fns) for i in items]
            return lambda env: [p(env) for p in parts]
        case E.Name(ref=ref, name=name):
            cat = ref.split(":", 1)[0]
            if cat in ("tile",):
                return lambda env: env["tile-lookup"](name)
            if cat in ("suit", "meld", "form", "flowerclass"):
                return lambda env: name
            key = ref

            def get(env):
                try:
                    return env[key]
                except KeyError:
                    raise EvalError(f"`{name}` has no value here") from None
            return get
        case E.Attr(obj=o, name=name):
            of = _compile(o, fns)
            return lambda env: field(of(env), name)
        case E.Call(func=func, args=args):
            f = fns[func]
            parts = [_compile(a, fns) for a in args]
            if func in ("visible_count", "held", "next"):
                return lambda env: env["game-functions"][func](*(p(env) for p in parts))
            return lambda env: f(*(p(env) for p in parts))
        case E.Comp():
            return _comp(e, fns)
        case E.Unary(op="not", operand=o):
            of = _compile(o, fns)
            return lambda env: not of(env)
        case E.Unary(op="-", operand=o):
            of = _compile(o, fns)
            return lambda env: -of(env)
        case E.Binary(op="and", left=l, right=r):
            lf, rf = _compile(l, fns), _compile(r, fns)
            return lambda env: bool(lf(env)) and bool(rf(env))
        case E.Binary(op="or", left=l, right=r):
            lf, rf = _compile(l, fns), _compile(r, fns)
            return lambda env: bool(lf(env)) or bool(rf(env))
        case E.Binary(op=op, left=l, right=r):
            lf, rf, f = _compile(l, fns), _compile(r, fns), BINARY[op]

            def binop(env):
                a, b = lf(env), rf(env)
                if a is None or b is None:
                    raise EvalError(f"`{op}` on none")
                return f(a, b)
            return binop
        case E.Compare(ops=ops, operands=operands):
            parts = [_compile(o, fns) for o in operands]
            if len(ops) == 1:
                op, a, b = ops[0], parts[0], parts[1]
                return lambda env: _cmp(op, a(env), b(env))

            def chain(env):
                left = parts[0](env)
                for op, p in zip(ops, parts[1:]):
                    right = p(env)
                    if not _cmp(op, left, right):
                        return False
                    left = right
                return True
            return chain
        case E.If(cond=c, then=t, orelse=f):
            cf, tf, ff = _compile(c, fns), _compile(t, fns), _compile(f, fns)
            return lambda env: tf(env) if cf(env) else ff(env)
    raise AssertionError(f"cannot compile {e!r}")


def _comp(e: E.Comp, fns) -> Fn:
    src = _compile(e.source, fns)
    body = _compile(e.body, fns)
    keys = [f"binder:{b}" for b in e.binders]
    n = len(keys)

    def items(env):
        xs = src(env) or []
        if n == 1:
            k = keys[0]
            for x in xs:
                env[k] = x
                yield x
        else:
            for combo in itertools.combinations(xs, n):
                for k, x in zip(keys, combo):
                    env[k] = x
                yield combo

    func = e.func
    if func == "count":
        return lambda env: sum(1 for _ in items(env) if body(env))
    if func == "any":
        return lambda env: any(body(env) for _ in items(env))
    if func == "all":
        return lambda env: all(body(env) for _ in items(env))
    if func == "filter":
        return lambda env: [x for x in items(env) if body(env)]
    if func == "sum":
        return lambda env: _norm(sum((body(env) for _ in items(env)), 0))

    def extreme(env):
        vals = [body(env) for _ in items(env)]
        if not vals:
            return 0
        return max(vals) if func == "max" else min(vals)
    return extreme
