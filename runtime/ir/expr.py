"""Expression trees of the rule language (part of the IR).

Expressions are pure: literals, names resolved at compile time, operators, a fixed set of functions
and bounded comprehensions over finite lists. They always terminate. The runtime compiles them to
closures once per rule set (runtime/evaluate.py); nothing here evaluates them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .span import NO_SPAN, Span


@dataclass(frozen=True)
class Expr:
    span: Span = field(default=NO_SPAN, kw_only=True)


@dataclass(frozen=True)
class Num(Expr):
    text: str  # exact decimal text, e.g. "0.0125"; evaluated as an exact rational


@dataclass(frozen=True)
class Str(Expr):
    value: str


@dataclass(frozen=True)
class Bool(Expr):
    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True)
class TileLit(Expr):
    text: str
    tiles: tuple[str, ...] = ()  # tile kind names, filled in by the checker
    single: bool = True  # written as one tile (a tile value) rather than a list


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Name(Expr):
    name: str
    ref: str = ""  # what the name denotes, filled in by the checker (see dsl/scope.py)


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Comp(Expr):
    """`func(b1, b2 in source: body)`: several binders range over combinations of distinct items."""

    func: str
    binders: tuple[str, ...]
    source: Expr
    body: Expr


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # "not" | "-"
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # "and" "or" "+" "-" "*" "/" "//" "%" "^"
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Expr):
    """A comparison chain: operands[0] ops[0] operands[1] ops[1] operands[2] …"""

    ops: tuple[str, ...]
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class If(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


COMPREHENSIONS = ("count", "any", "all", "sum", "max", "min", "filter")


def walk(e: Expr):
    """Yield every node of an expression tree, parents first."""
    yield e
    match e:
        case ListLit(items=items):
            for i in items:
                yield from walk(i)
        case Attr(obj=o):
            yield from walk(o)
        case Call(args=args):
            for a in args:
                yield from walk(a)
        case Comp(source=s, body=b):
            yield from walk(s)
            yield from walk(b)
        case Unary(operand=o):
            yield from walk(o)
        case Binary(left=l, right=r):
            yield from walk(l)
            yield from walk(r)
        case Compare(operands=ops):
            for o in ops:
                yield from walk(o)
        case If(cond=c, then=t, orelse=f):
            yield from walk(c)
            yield from walk(t)
            yield from walk(f)


def conjuncts(e: Expr | None):
    """The parts of a conjunction `a and b and c` (nothing for None, the expression itself otherwise)."""
    if e is None:
        return
    if isinstance(e, Binary) and e.op == "and":
        yield from conjuncts(e.left)
        yield from conjuncts(e.right)
    else:
        yield e


def map_expr(e: Expr, fn):
    """Rebuild an expression bottom-up, applying fn to every node."""
    if not dataclasses.is_dataclass(e):
        return e
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, Expr):
            changes[f.name] = map_expr(v, fn)
        elif isinstance(v, tuple) and v and isinstance(v[0], Expr):
            changes[f.name] = tuple(map_expr(x, fn) for x in v)
    return fn(dataclasses.replace(e, **changes) if changes else e)
