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
    """Common to every expression node: where it was written."""

    span: Span = field(default=NO_SPAN, kw_only=True)


@dataclass(frozen=True)
class Num(Expr):
    """A number literal, as written (`text`)."""

    text: str  # exact decimal text, e.g. "0.0125"; evaluated as an exact rational


@dataclass(frozen=True)
class Str(Expr):
    """A string literal."""

    value: str


@dataclass(frozen=True)
class Bool(Expr):
    """`true` or `false`."""

    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    """`none`."""


@dataclass(frozen=True)
class TileLit(Expr):
    """A tile literal, by its text."""

    text: str
    tiles: tuple[str, ...] = ()  # tile kind names, filled in by the checker
    single: bool = True  # written as one tile (a tile value) rather than a list


@dataclass(frozen=True)
class ListLit(Expr):
    """A list written out item by item."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Name(Expr):
    """A name, with what it denotes (`ref`) once resolved."""

    name: str
    ref: str = ""  # what the name denotes, filled in by the checker (see dsl/scope.py)


@dataclass(frozen=True)
class Attr(Expr):
    """A field of a value: `obj.name`."""

    obj: Expr
    name: str


@dataclass(frozen=True)
class Call(Expr):
    """A builtin function called with arguments."""

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
    """A unary operator (`not`, `-`) applied to an operand."""

    op: str  # "not" | "-"
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    """A binary operator applied to two operands."""

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
    """A conditional expression: `then` when `cond` holds, else `orelse`."""

    cond: Expr
    then: Expr
    orelse: Expr


COMPREHENSIONS = ("count", "any", "all", "sum", "max", "min", "filter")


# the fields of each kind of node that hold sub-expressions (one or a tuple of them), in order: every walk
# over an expression's children reads them here
CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    ListLit: ("items",), Attr: ("obj",), Call: ("args",), Comp: ("source", "body"), Unary: ("operand",),
    Binary: ("left", "right"), Compare: ("operands",), If: ("cond", "then", "orelse"),
}


def named_children(e: Expr):
    """Yield (field path, child) for the sub-expressions of a node, in order: `left`, `items[0]`, …"""
    for name in CHILD_FIELDS.get(type(e), ()):
        v = getattr(e, name)
        if isinstance(v, tuple):
            for i, x in enumerate(v):
                yield f"{name}[{i}]", x
        else:
            yield name, v


def children(e: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of a node, in order (none for a leaf)."""
    out: list[Expr] = []
    for name in CHILD_FIELDS.get(type(e), ()):
        v = getattr(e, name)
        if isinstance(v, tuple):
            out.extend(v)
        else:
            out.append(v)
    return tuple(out)


def walk(e: Expr):
    """Yield every node of an expression tree, parents first (depth first, children in order). With a
    stack rather than nested generators: every load walks every expression of the rule set several
    times, and a generator per node cost a `paili score` start-up milliseconds."""
    stack = [e]
    pop = stack.pop
    fields = CHILD_FIELDS.get
    while stack:
        n = pop()
        yield n
        names = fields(type(n))
        if names:
            kids = []
            for name in names:
                v = getattr(n, name)
                if isinstance(v, tuple):
                    kids.extend(v)
                else:
                    kids.append(v)
            kids.reverse()
            stack += kids


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
    for name in CHILD_FIELDS.get(type(e), ()):
        v = getattr(e, name)
        if isinstance(v, tuple):
            if v:
                changes[name] = tuple(map_expr(x, fn) for x in v)
        else:
            changes[name] = map_expr(v, fn)
    return fn(dataclasses.replace(e, **changes) if changes else e)
