"""Expressions -> closures.

Each expression is compiled once per rule set into a plain Python callable taking an environment: a
dict from a resolved reference (`builtin:melds`, `option:NAME`, `binder:m`, …) to its value. Field
access goes through `field(value, name)`, so tiles, melds and seats can be any object that provides
`.field(name)` (or a dict). Numbers are ints or exact Fractions.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .ir import expr as E
from .ir import vocab as V
from .limits import MAX_EXPONENT, MAX_VALUE, MAX_VALUE_DIGITS, power_too_big, too_big

Env = dict
Fn = Callable[[Env], Any]

CN_DIGITS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")


def cn(n: int) -> str:
    """Chinese numerals for the small counts shown in labels (0–99); other whole numbers in digits."""
    n = int(n)
    if not 0 <= n < 100:
        return str(n)
    if n < 10:
        return CN_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CN_DIGITS[tens]) + "十" + (CN_DIGITS[ones] if ones else "")


def number(text: str):
    return Fraction(text) if "." in text else int(text)


# the environment key of the function that works out the fields a value does not hold itself (a game's
# seats: `actor.waits`), so that such a value stays plain data with no reference to what computes them
COMPUTED_FIELDS = "computed-fields"


def field_in(env, obj, name: str):
    """A field of a value, as `obj.NAME` reads it: its own mapping `obj.f` (or the value itself as a
    mapping), else the environment's computed fields; KeyError when none has it."""
    try:
        return field(obj, name)
    except KeyError:
        resolve = env.get(COMPUTED_FIELDS)
        if resolve is None:
            raise
        return resolve(obj, name)


def field(obj, name: str):
    """Runtime values with fields (tiles, groups, seats) expose them as a mapping `obj.f`."""
    if obj is None:
        return None
    f = getattr(obj, "f", None)
    if f is not None:
        return f[name]
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
    return norm(math.floor(Fraction(a) / Fraction(b)))


def norm(v):
    """Fractions that are whole become ints, so results print and compare plainly. Every operator's result
    and every value leaving a generated expression passes here, so this is also where a number past the
    stated size (runtime/limits.py) becomes an error of the reading: numbers cannot grow without bound
    through a chain of quantities."""
    if type(v) is int:  # exact type tests: isinstance goes through ABCs
        if not -MAX_VALUE < v < MAX_VALUE:
            raise EvalError(f"a number of more than {MAX_VALUE_DIGITS} digits")
    elif type(v) is Fraction:
        if v.denominator == 1:
            return norm(int(v))
        if too_big(v):
            raise EvalError(f"a number of more than {MAX_VALUE_DIGITS} digits")
    return v


def _mod(a, b):
    if b == 0:
        raise EvalError("division by zero")
    return norm(a % b)


def _power(a, b):
    """`^` with a whole exponent, bounded (runtime/limits.py): a power too large to hold is an error of the
    reading, like a division by zero, never a computation without end."""
    b = int(b)
    if abs(b) > MAX_EXPONENT and a not in (0, 1, -1):  # 0, 1 and -1 stay small whatever the exponent
        raise EvalError(f"an exponent larger than {MAX_EXPONENT}")
    if a == 0 and b < 0:
        raise EvalError("division by zero")
    if power_too_big(a, b):
        raise EvalError(f"a power of more than {MAX_VALUE_DIGITS} digits")
    return norm(Fraction(a) ** b)


# The public names other modules use: the bounded normaliser and power (docs/language.md §40).
power = _power

BINARY = {
    "+": lambda a, b: norm(a + b), "-": lambda a, b: norm(a - b), "*": lambda a, b: norm(a * b),
    "/": lambda a, b: norm(_div(a, b)), "//": _floordiv, "%": _mod, "^": _power,
}


def compile_expr(e: E.Expr, functions: dict[str, Callable] | None = None) -> Fn:
    """Compile a resolved expression. `functions` supplies the game-dependent functions
    (visible_count, next, held); the pure ones are built in."""
    fns = {"len": len, "distinct": distinct_items, "abs": abs, "floor": lambda x: math.floor(x),
           "max": lambda a, b: max(a, b), "min": lambda a, b: min(a, b), "cn": cn, **(functions or {})}
    f = _compile(e, fns)

    # The checker lets an optional value (`if C then X else none`) reach a function, a list operation or
    # an ordering; at run time `none` there is an error of the reading (docs/language.md §32.1), like
    # arithmetic on none: one exception type for every caller, never a Python error escaping.
    def guarded(env):
        try:
            return f(env)
        except _VALUE_ERRORS as exc:
            raise EvalError(f"a value the expression cannot use ({type(exc).__name__}: {exc})") from None
    return guarded


_VALUE_ERRORS = (TypeError, ValueError, ArithmeticError, IndexError, KeyError, AttributeError)


def distinct_items(xs):
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

            def attr(env):
                obj = of(env)
                if obj is None:
                    return None
                try:
                    return obj.f[name]
                except AttributeError:
                    return field(obj, name)
                except KeyError:
                    pass
                try:
                    return field_in(env, obj, name)
                except KeyError:  # a field this kind of value lacks (a checked rule set never asks for one)
                    raise EvalError(f"a value here has no field {name[:40]!r}") from None
            return attr
        case E.Call(func=func, args=args):
            f = fns.get(func)
            parts = [_compile(a, fns) for a in args]
            if func in V.GAME_FUNCTIONS:
                return lambda env: env["game-functions"][func](*(p(env) for p in parts))
            if len(parts) == 1:
                a = parts[0]
                return lambda env: f(a(env))
            if len(parts) == 2:
                a, b = parts
                return lambda env: f(a(env), b(env))
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
                if op == "==":
                    return lambda env: a(env) == b(env)
                if op == "!=":
                    return lambda env: a(env) != b(env)
                if op == "in":
                    return lambda env: a(env) in b(env)
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


PURE_FUNCS = {"len", "distinct", "abs", "floor", "max", "min", "cn"}


def _free_binders(e: E.Comp) -> list[str] | None:
    """When the body reads nothing but binders (its own, or those of enclosing comprehensions) and
    constants, the binder references it reads freely; its value is then a function of those items
    alone and can be remembered per item signature across readings. None otherwise."""
    inner = set()
    for n in E.walk(e.body):
        if isinstance(n, E.Comp):
            inner |= {f"binder:{b}" for b in n.binders}
    free: list[str] = [f"binder:{b}" for b in e.binders]
    for n in E.walk(e.body):
        if isinstance(n, E.Name):
            cat = n.ref.split(":", 1)[0]
            if cat == "binder":
                if n.ref not in inner and n.ref not in free:
                    free.append(n.ref)
            elif cat not in ("tile", "suit", "meld", "form", "flowerclass"):
                return None
        if isinstance(n, E.Call) and n.func not in PURE_FUNCS:
            return None
    return free


def _memo_body(body: Fn, keys: list[str]) -> Fn:
    """Wrap a body with a cache keyed by the signatures of the items it reads."""
    memo: dict = {}

    def sig_of(x):
        s = getattr(x, "sig", None)
        return s if s is not None else x

    if len(keys) == 1:
        k = keys[0]

        def one(env):
            sig = getattr(env[k], "sig", None)
            if sig is None:
                return body(env)
            v = memo.get(sig)
            if v is None:
                v = memo[sig] = body(env)
            return v
        return one

    def many(env):
        try:
            sig = tuple(sig_of(env[k]) for k in keys)
            v = memo.get(sig)
        except TypeError:  # an unhashable item: evaluate plainly
            return body(env)
        if v is None:
            v = memo[sig] = body(env)
        return v
    return many


def _mentions(e: E.Expr, ref: str) -> bool:
    return any(isinstance(n, E.Name) and n.ref == ref for n in E.walk(e))


def binder_equality(c: E.Expr, ref: str) -> tuple[str | None, E.Expr] | None:
    """`x == V` or `x.F == V` (either way round) with V not reading the binder `ref`: (F, or None for
    the item itself; V). None for any other expression."""
    if not (isinstance(c, E.Compare) and c.ops == ("==",)):
        return None
    a, b = c.operands
    if _mentions(a, ref) and not _mentions(b, ref):
        item, other = a, b
    elif _mentions(b, ref) and not _mentions(a, ref):
        item, other = b, a
    else:
        return None
    if isinstance(item, E.Name) and item.ref == ref:
        return None, other
    if isinstance(item, E.Attr) and isinstance(item.obj, E.Name) and item.obj.ref == ref:
        return item.name, other
    return None


def _equality_lookup(e: E.Comp, fns) -> Fn | None:
    """`count(x in L: x.F == V)` / `any(…)` over a list the environment holds, with V not reading x:
    answered from a tally of L by F, built once per environment (per reading) instead of a scan."""
    if e.func not in ("count", "any") or len(e.binders) != 1 or not isinstance(e.source, E.Name) \
            or not e.source.ref.startswith("builtin:"):
        return None
    eq = binder_equality(e.body, f"binder:{e.binders[0]}")
    if eq is None:
        return None
    fname, other = eq
    src_key = e.source.ref
    value = _compile(other, fns)
    tally_key = ("#tally", src_key, fname)
    want_count = e.func == "count"

    def lookup(env):
        tally = env.get(tally_key)
        if tally is None:
            tally = {}
            for x in env[src_key] or ():
                k = x if fname is None else field_in(env, x, fname)
                tally[k] = tally.get(k, 0) + 1
            env[tally_key] = tally
        try:
            n = tally.get(value(env), 0)
        except TypeError:  # an unhashable value: no tally possible
            n = sum(1 for x in env[src_key] or () if (x if fname is None else field_in(env, x, fname)) == value(env))
        return n if want_count else n > 0
    return lookup


def _comp(e: E.Comp, fns) -> Fn:
    fast = _equality_lookup(e, fns)
    if fast is not None:
        return fast
    src = _compile(e.source, fns)
    body = _compile(e.body, fns)
    keys = [f"binder:{b}" for b in e.binders]
    func = e.func
    free = _free_binders(e)
    # Memoise only bodies worth more than the cache lookup itself (building a key from several items).
    if free is not None and (len(free) == 1 or sum(1 for _ in E.walk(e.body)) >= 12):
        body = _memo_body(body, free)
    if len(keys) > 1:
        return _comp_multi(func, src, body, keys)
    k = keys[0]

    if func == "count":
        def count(env):
            n = 0
            for x in src(env) or ():
                env[k] = x
                if body(env):
                    n += 1
            return n
        return count
    if func == "any":
        def any_(env):
            for x in src(env) or ():
                env[k] = x
                if body(env):
                    return True
            return False
        return any_
    if func == "all":
        def all_(env):
            for x in src(env) or ():
                env[k] = x
                if not body(env):
                    return False
            return True
        return all_
    if func == "filter":
        def filter_(env):
            out = []
            for x in src(env) or ():
                env[k] = x
                if body(env):
                    out.append(x)
            return out
        return filter_
    if func == "sum":
        def sum_(env):
            total = 0
            for x in src(env) or ():
                env[k] = x
                total += body(env)
            return norm(total)
        return sum_

    def extreme(env):
        vals = []
        for x in src(env) or ():
            env[k] = x
            vals.append(body(env))
        if not vals:
            return 0
        return max(vals) if func == "max" else min(vals)
    return extreme


def _comp_multi(func, src, body, keys) -> Fn:
    n = len(keys)

    def items(env):
        for combo in itertools.combinations(src(env) or (), n):
            for k, x in zip(keys, combo):
                env[k] = x
            yield combo

    if func == "count":
        return lambda env: sum(1 for _ in items(env) if body(env))
    if func == "any":
        return lambda env: any(body(env) for _ in items(env))
    if func == "all":
        return lambda env: all(body(env) for _ in items(env))
    if func == "filter":
        return lambda env: [x for x in items(env) if body(env)]
    if func == "sum":
        return lambda env: norm(sum((body(env) for _ in items(env)), 0))

    def extreme(env):
        vals = [body(env) for _ in items(env)]
        if not vals:
            return 0
        return max(vals) if func == "max" else min(vals)
    return extreme
