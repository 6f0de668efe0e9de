"""Named functions of a rule file: `def NAME(p: TYPE, …) = EXPR { doc "…" }`.

A function is a compile-time construct. Every call is checked (arity, the type of each argument) and
written out where it stands: the body, resolved in the caller's scope, with each parameter replaced by
the argument's expression (dsl/resolve.py does it). The compiled rule set therefore has no functions —
its JSON and every backend see ordinary expressions — and a function can be used in any scope whose names
its body uses. A function may call functions declared before or after it, never itself (directly or
through others: E503), and writing calls out may not make an expression larger than the limit (E704).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime.ir import expr as E
from ..runtime.ir.span import NO_SPAN, Span
from .diagnostics import Diagnostics
from .fields import Fields
from .syntax import Stmt

# A parameter's type word -> its type in the expression language.
PARAM_TYPES = {"bool": "bool", "int": "int", "num": "num", "str": "str", "tile": "tile", "seat": "seat",
               "suit": "suit", "meld": "meld", "tiles": "list[tile]", "melds": "list[meld]",
               "seats": "list[seat]"}


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # a type of the expression language (PARAM_TYPES' values)
    span: Span = NO_SPAN


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[Param, ...]
    body: E.Expr
    span: Span = field(default=NO_SPAN)
    doc: str = ""
    notes: tuple[str, ...] = ()


def build_function(s: Stmt, diags: Diagnostics) -> Function | None:
    usage = "def NAME(p: seat, t: tile) = EXPR"
    if len(s.args) != 1 or s.args[0].kind != "signature":
        diags.error("E204", "`def` needs a name with its parameters", s.args[0].span if s.args else s.span,
                    f"write it as `{usage}` (`def NAME() = EXPR` without parameters)")
        return None
    name, raw = s.args[0].value  # type: ignore[misc]
    if s.expr is None:
        diags.error("E207", f"`def {name}` needs `= expression`", s.span, f"write it as `{usage}`")
        return None
    if s.cond is not None:
        diags.error("E208", f"`def {name}` takes no `when` condition", s.span,
                    "write the condition into the expression: `if C then A else B`, `C and …`")
    params = []
    seen: set[str] = set()
    for pname, typ, span in raw:
        if typ not in PARAM_TYPES:
            diags.error("E204", f"unknown parameter type `{typ}`", span,
                        "types: " + ", ".join(PARAM_TYPES))
        if pname in seen:
            diags.error("E302", f"parameter `{pname}` is given twice", span)
        seen.add(pname)
        params.append(Param(pname, PARAM_TYPES.get(typ, "any"), span))
    f = Fields(s.block, diags, f"`def {name}`", s.span)
    out = Function(name, tuple(params), s.expr, span=s.args[0].span, **f.docs())
    f.finish()
    return out


def hidden_params(fn: Function) -> list[tuple[str, Span]]:
    """Comprehension binders of the body that have a parameter's name (they would hide it)."""
    names = {p.name for p in fn.params}
    return [(b, c.span) for c in E.walk(fn.body) if isinstance(c, E.Comp) for b in c.binders if b in names]


def size(e: E.Expr) -> int:
    return sum(1 for _ in E.walk(e))
