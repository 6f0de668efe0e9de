"""Expressions -> Python source, compiled once per rule set.

`runtime/evaluate.py` turns an expression into a tree of closures over an environment dict; that is
simple and exact, but every node costs a call. This module writes the same expression as Python
statements inside one generated function: operators inline, comprehensions as `for` loops with early
exits, short-circuit `and`/`or`/`if` as real branches, binders as local variables. The caller decides
what names mean (`Names`): reading builtins, pattern counts, settings.

Only the common case is inlined: `a < b` is written as Python's `<`, a field as `x.f["name"]`. Where
the closures give an answer for an unusual value (an ordering comparison with `none`, a field of
`none`, arithmetic on `none`), the generated code raises instead (TypeError, AttributeError) and the
caller falls back to the closures for the whole reading, so results are always the closures' results.
Values that leave a generated expression go through `_norm` (a whole Fraction becomes an int).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

from .evaluate import BINARY, EvalError, cn, distinct_items, norm, number
from .ir import expr as E
from .ir import vocab as V
from .limits import MAX_EXPONENT, power_too_big

CONST_CATS = ("suit", "meld", "form", "flowerclass")
GAME_FUNCS = V.GAME_FUNCTIONS

# Closed tables: the language's own operator and function names -> the Python text written for them.
# Nothing else from the IR ever becomes source text: a word not in a table is refused (Unsupported,
# so the rule set is scored by the closures, which look operators up in their own tables and raise on
# an unknown one), names of the generated code are made here (`_b0`, `_t1`, `_k2`), and literals are
# written only as the repr of an exact int, bool, str or None (see `lit`). A compiled JSON rule set is
# validated when loaded (runtime/ir/serialize.py); these tables keep generated code safe even for an IR that
# was never validated.
COMPARE_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in",
               "not in": "not in"}
INLINE_ARITH = {"+": "+", "-": "-", "*": "*"}
ARITH_OPS = {"/": "'/'", "//": "'//'", "%": "'%'"}  # through _arith, named by a literal of this table
LOGIC_OPS = {"and": "and", "or": "or"}
PURE_CALLS = {"len": "len", "distinct": "_distinct", "abs": "abs", "floor": "_floor", "max": "max",
              "min": "min", "cn": "_cn"}
GAME_CALLS = {f: repr(f) for f in V.GAME_FUNCTIONS}  # a word of the closed vocabulary, written as its literal
COMP_FUNCS = ("count", "any", "all", "filter", "sum", "max", "min")
COMP_REDUCE = {"max": "max", "min": "min"}


class Refused(Exception):
    """The IR holds a word or value that no table maps (never written into source)."""


def lit(v) -> str:
    """The source text of a literal: only exact ints, bools, strs and None, whose repr is a literal."""
    if v is None or type(v) in (int, bool, str):
        return repr(v)
    raise Refused(f"a literal of type {type(v).__name__}")


def word(table: dict, key) -> str:
    """The Python text a table gives for a language word; anything else is refused."""
    if type(key) is not str or key not in table:
        raise Refused(f"an unknown word {str(key)[:40]!r}")
    return table[key]


def _arith(op, a, b):
    """The closures' binary operator (none raises, whole Fractions become ints)."""
    if a is None or b is None:
        raise EvalError(f"`{op}` on none")
    return BINARY[op](a, b)


def _pow(a, b):
    """`^`: whole powers of whole numbers directly (the same value the closures compute by Fractions)."""
    if type(a) is int and type(b) is int and 0 <= b <= MAX_EXPONENT and not power_too_big(a, b):
        return a ** b
    return _arith("^", a, b)


RUNTIME = {"_pow": _pow, "_norm": norm, "_distinct": distinct_items, "_cn": cn, "_floor": lambda x: math.floor(x),
           "_comb": itertools.combinations, "_arith": _arith, "EvalError": EvalError, "Fraction": Fraction}


def may_emit(e: E.Expr) -> bool:
    """Whether compiling e may emit statements (comprehensions, and short-circuits around them)."""
    return any(isinstance(n, E.Comp) for n in E.walk(e))


class Names:
    """What the generated code writes for a name; subclasses decide per category."""

    def name(self, ref: str, gen: Gen, ind: int) -> str:
        return f"S[{lit(ref)}]"

    def comp(self, e: E.Comp, gen: Gen, ind: int) -> str | None:
        """A shortcut for a whole comprehension (or None to write the loop)."""
        return None

    def call(self, e: E.Call, gen: Gen, ind: int) -> str | None:
        return None


class Gen:
    """Writes one function body. `ex(e, ind)` emits the statements e needs at indentation `ind` and
    returns a Python expression for its value (to be evaluated once, right after those statements)."""

    def __init__(self, consts: dict, names: Names):
        self.lines: list[str] = []
        self.consts = consts  # shared per generated module: value -> global name
        self.names = names
        self.n = 0
        self.binders: dict[str, str] = {}

    def emit(self, ind: int, s: str) -> None:
        self.lines.append("    " * ind + s)

    def tmp(self) -> str:
        self.n += 1
        return f"_t{self.n}"

    def const(self, v) -> str:
        key = (type(v).__name__, repr(v))
        name = self.consts.get(key)
        if name is None:
            name = self.consts[key] = f"_k{len(self.consts)}"
            self.consts[name] = v  # the generated module's globals are read from here
        return name

    def tile(self, name: str) -> str:
        key = ("tile", name)
        g = self.consts.get(key)
        if g is None:
            g = self.consts[key] = f"_tile{sum(1 for k in self.consts if isinstance(k, tuple) and k[0] == 'tile')}"
        return g

    def binder(self, ref: str) -> str:
        v = self.binders.get(ref)
        if v is None:
            v = self.binders[ref] = f"_b{len(self.binders)}"
        return v

    # ------------------------------------------------------------------ expressions

    def seq(self, items, ind: int) -> list[str]:
        """Compile several operands evaluated left to right; an operand whose value could be changed
        by a later operand's statements (a binder reused by a later loop) is kept in a temporary."""
        out = []
        for k, it in enumerate(items):
            s = self.ex(it, ind)
            if any(may_emit(x) for x in items[k + 1:]) and not _atomic(s):
                t = self.tmp()
                self.emit(ind, f"{t} = {s}")
                s = t
            out.append(s)
        return out

    def branch(self, e: E.Expr, ind: int, compile=None) -> tuple[list[str], str]:
        """Compile e (by `compile`, default `ex`) as the body of a branch (its statements kept apart)."""
        saved = self.lines
        self.lines = []
        s = (compile or self.ex)(e, ind)
        lines, self.lines = self.lines, saved
        return lines, s

    def cond(self, e: E.Expr, ind: int) -> str:
        """Compile e where only its truth counts (an `if`, a comprehension's test): `and`, `or` and
        `not` need no `bool()` there, since Python's truth of `a and b` is that of `bool(a) and bool(b)`."""
        match e:
            case E.Binary(op="and" | "or" as op, left=l, right=r):
                op = word(LOGIC_OPS, op)
                a = self.cond(l, ind)
                lines, b = self.branch_cond(r, ind + 1)
                if not lines:
                    return f"({a} {op} {b})"
                t = self.tmp()
                self.emit(ind, f"{t} = {'False' if op == 'and' else 'True'}")
                self.emit(ind, f"if {a}:" if op == "and" else f"if not {a}:")
                self.lines += lines
                self.emit(ind + 1, f"{t} = {b}")
                return t
            case E.Unary(op="not", operand=o):
                return f"(not {self.cond(o, ind)})"
        return self.ex(e, ind)

    def branch_cond(self, e: E.Expr, ind: int) -> tuple[list[str], str]:
        return self.branch(e, ind, self.cond)

    def ex(self, e: E.Expr, ind: int) -> str:  # noqa: C901 - one case per node type
        match e:
            case E.Num(text=text):
                if type(text) is not str:
                    raise Refused("a number that is not text")
                v = number(text)
                return lit(v) if type(v) is int else self.const(v)
            case E.Str(value=v) | E.Bool(value=v):
                return lit(v)
            case E.NoneLit():
                return "None"
            case E.TileLit(tiles=tiles, single=single):
                if single:
                    return self.tile(tiles[0]) if tiles else "None"
                return "[" + ", ".join(self.tile(t) for t in tiles) + "]"
            case E.ListLit(items=items):
                return "[" + ", ".join(self.seq(list(items), ind)) + "]"
            case E.Name(ref=ref, name=name):
                if type(ref) is not str:
                    raise Refused("a reference that is not text")
                cat = ref.split(":", 1)[0]
                if cat == "tile":
                    return self.tile(name)
                if cat in CONST_CATS:
                    return lit(name)
                if cat == "binder":
                    return self.binder(ref)
                return self.names.name(ref, self, ind)
            case E.Attr(obj=o, name=name):
                obj = self.ex(o, ind)
                if not obj.isidentifier():  # `1.f` would not even parse; a checked rule set never asks
                    obj = f"({obj})"
                return f"{obj}.f[{lit(name)}]"
            case E.Call(func=func, args=args):
                got = self.names.call(e, self, ind)
                if got is not None:
                    return got
                parts = self.seq(list(args), ind)
                if func in GAME_FUNCS:
                    return f"S['game-functions'][{word(GAME_CALLS, func)}]({', '.join(parts)})"
                return f"{word(PURE_CALLS, func)}({', '.join(parts)})"
            case E.Comp():
                got = self.names.comp(e, self, ind)
                if got is not None:
                    return got
                return self.comp(e, ind)
            case E.Unary(op="not", operand=o):
                return f"(not {self.ex(o, ind)})"
            case E.Unary(op="-", operand=o):
                return f"(-{self.ex(o, ind)})"
            case E.Binary(op="and" | "or" as op, left=l, right=r):
                op = word(LOGIC_OPS, op)
                a = self.ex(l, ind)
                lines, b = self.branch(r, ind + 1)
                if not lines:
                    return f"({_bool(a, l)} {op} {_bool(b, r)})"
                t = self.tmp()
                if op == "and":
                    self.emit(ind, f"{t} = False")
                    self.emit(ind, f"if {a}:")
                else:
                    self.emit(ind, f"{t} = True")
                    self.emit(ind, f"if not {a}:")
                self.lines += lines
                self.emit(ind + 1, f"{t} = {_bool(b, r)}")
                return t
            case E.Binary(op=op, left=l, right=r):
                a, b = self.seq([l, r], ind)
                if op in INLINE_ARITH:
                    return f"({a} {word(INLINE_ARITH, op)} {b})"
                if op == "^":
                    return f"_pow({a}, {b})"
                return f"_arith({word(ARITH_OPS, op)}, {a}, {b})"
            case E.Compare(ops=ops, operands=operands):
                ops = [word(COMPARE_OPS, op) for op in ops]
                if len(ops) != len(operands) - 1:
                    raise Refused("a comparison chain whose operators and operands do not match")
                if len(ops) == 1:
                    a, b = self.seq(list(operands), ind)
                    return f"({a} {ops[0]} {b})"
                # a chain stops at the first comparison that fails
                if not any(may_emit(x) for x in operands):
                    parts = [self.ex(x, ind) for x in operands]
                    return "(" + " ".join(p for pair in zip(parts, ops) for p in pair) + f" {parts[-1]})"
                t = self.tmp()
                left = self.ex(operands[0], ind)
                lv = self.tmp()
                self.emit(ind, f"{lv} = {left}")
                self.emit(ind, f"{t} = False")
                depth = ind
                for op, x in zip(ops, operands[1:]):
                    rv = self.ex(x, depth)
                    r2 = self.tmp()
                    self.emit(depth, f"{r2} = {rv}")
                    self.emit(depth, f"if {lv} {op} {r2}:")
                    depth += 1
                    lv = r2
                self.emit(depth, f"{t} = True")
                return t
            case E.If(cond=c, then=th, orelse=el):
                cs = self.cond(c, ind)
                tl, ts = self.branch(th, ind + 1)
                fl, fs = self.branch(el, ind + 1)
                if not tl and not fl:
                    return f"({ts} if {cs} else {fs})"
                t = self.tmp()
                self.emit(ind, f"if {cs}:")
                self.lines += tl
                self.emit(ind + 1, f"{t} = {ts}")
                self.emit(ind, "else:")
                self.lines += fl
                self.emit(ind + 1, f"{t} = {fs}")
                return t
        raise Refused(f"cannot compile a {type(e).__name__}")

    def comp(self, e: E.Comp, ind: int) -> str:
        src = self.ex(e.source, ind)
        if not _never_none(e.source):
            src = f"({src} or ())"
        vars_ = [self.binder(f"binder:{b}") for b in e.binders]
        if not vars_:
            raise Refused("a comprehension without binders")
        if len(vars_) == 1:
            head = f"for {vars_[0]} in {src}:"
            item = vars_[0]
        else:
            head = f"for {', '.join(vars_)} in _comb({src}, {len(vars_)}):"
            item = "(" + ", ".join(vars_) + ",)"
        t = self.tmp()
        func = e.func
        if type(func) is not str or func not in COMP_FUNCS:
            raise Refused(f"an unknown comprehension {str(func)[:40]!r}")
        if func in ("count", "any", "all", "filter"):
            lines, body = self.branch_cond(e.body, ind + 1)
        else:
            lines, body = self.branch(e.body, ind + 1)
        init = {"count": "0", "any": "False", "all": "True", "filter": "[]", "sum": "0"}.get(func, "[]")
        self.emit(ind, f"{t} = {init}")
        self.emit(ind, head)
        self.lines += lines
        i1 = ind + 1
        if func == "count":
            self.emit(i1, f"if {body}:")
            self.emit(i1 + 1, f"{t} += 1")
        elif func == "any":
            self.emit(i1, f"if {body}:")
            self.emit(i1 + 1, f"{t} = True")
            self.emit(i1 + 1, "break")
        elif func == "all":
            self.emit(i1, f"if not {body}:")
            self.emit(i1 + 1, f"{t} = False")
            self.emit(i1 + 1, "break")
        elif func == "filter":
            self.emit(i1, f"if {body}:")
            self.emit(i1 + 1, f"{t}.append({item})")
        elif func == "sum":
            self.emit(i1, f"{t} += {body}")
            return f"_norm({t})"
        else:  # max / min of the values; 0 for none
            self.emit(i1, f"{t}.append({body})")
            return f"({word(COMP_REDUCE, func)}({t}) if {t} else 0)"
        return t


def _atomic(s: str) -> bool:
    return s.isidentifier() or s.lstrip("-").isdigit() or s in ("None", "True", "False")


def _never_none(e: E.Expr) -> bool:
    return isinstance(e, (E.ListLit, E.TileLit)) or (isinstance(e, E.Name) and e.ref.startswith("builtin:")
                                                      and e.ref not in ("builtin:pair", "builtin:win_tile",
                                                                        "builtin:win_group"))


BOOL_FUNCS = ("any", "all")


def _is_bool(e: E.Expr) -> bool:
    return (isinstance(e, (E.Compare, E.Bool)) or (isinstance(e, E.Unary) and e.op == "not")
            or (isinstance(e, E.Binary) and e.op in ("and", "or"))
            or (isinstance(e, E.Comp) and e.func in BOOL_FUNCS))


def _bool(s: str, e: E.Expr) -> str:
    return s if _is_bool(e) else f"bool({s})"
