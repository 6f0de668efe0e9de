"""A rule set checked against the stated limits of runtime/limits.py (docs/language.md, "Limits"), on
the IR, so that the compiler and the loader of a compiled JSON rule set check the same things.

Two checks, both reporting to `diags` (anything with `error(code, message, span, hint="")`: the
compiler's `Diagnostics`, or `passes.Findings` when a JSON rule set is loaded):

- `check_expr` / `check_expressions`: the depth, size, comprehension nesting and number literals of
  each expression. The passes after it walk expressions recursively and read numbers with `int()`, so
  it runs before them, and walks with an explicit stack so that it cannot itself run out of Python's
  recursion.
- `check_ruleset`, on a rule set whose names are checked and whose quantities do not form a cycle:
  constant arithmetic that cannot be evaluated (a constant exponent too large, `0 ^ -1`, a division by
  a constant zero), expressions too large once the quantities they read are written out, the work of
  nested comprehensions per reading, tile copies, kinds, players and the wildcards one hand can hold.

`point` says where a finding about a whole construct points: the compiler shows a caret one column
wide where it starts (its span may cover a long line); the loader keeps the node's own span, which is
how it names the node's JSON path.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from math import comb

from .. import limits as L
from . import expr as E
from .span import Span


def start_of(span: Span) -> Span:
    """Where a construct starts (its caret one column wide: the construct may span a long line)."""
    return Span(span.file, span.line, span.col)


def _digits(text: str) -> int:
    return sum(1 for c in text if c.isdigit())


def number_ok(text: str, span: Span, diags) -> bool:
    """A number literal of at most MAX_NUMBER_DIGITS digits (E702 otherwise)."""
    if _digits(text) > L.MAX_NUMBER_DIGITS:
        diags.error("E702", f"a number of {_digits(text)} digits; a number has at most {L.MAX_NUMBER_DIGITS}",
                    span)
        return False
    return True


def check_expr(root: E.Expr, diags, point: Callable[[Span], Span] = start_of) -> bool:
    """Depth, comprehension nesting, size and number literals of one expression (E702-E704)."""
    nodes = 0
    stack = [(root, 1, 0)]
    deepest = (0, root)
    comp_deepest = (0, root)
    ok = True
    while stack:
        e, depth, comps = stack.pop()
        nodes += 1
        if isinstance(e, E.Comp):
            comps += 1
            if comps > comp_deepest[0]:
                comp_deepest = (comps, e)
        if depth > deepest[0]:
            deepest = (depth, e)
        if isinstance(e, E.Num) and not number_ok(e.text, e.span, diags):
            ok = False
        if depth > L.MAX_EXPR_DEPTH or comps > L.MAX_COMP_DEPTH:
            continue  # reported once below; do not walk a degenerate tree further
        stack.extend((c, depth + 1, comps) for c in E.children(e))
    if deepest[0] > L.MAX_EXPR_DEPTH:
        diags.error("E703", f"the expression nests more than {L.MAX_EXPR_DEPTH} levels deep (operators, calls, "
                    "parentheses)", point(root.span), "split it into named quantities")
        ok = False
    if comp_deepest[0] > L.MAX_COMP_DEPTH:
        diags.error("E703", f"more than {L.MAX_COMP_DEPTH} comprehensions nested in one another",
                    comp_deepest[1].span, "split it into named quantities")
        ok = False
    if ok and nodes > L.MAX_EXPR_NODES:
        diags.error("E704", f"the expression has {nodes:,} parts; the limit is {L.MAX_EXPR_NODES:,}", point(root.span),
                    "split it into named quantities")
        ok = False
    return ok


def expressions(node):
    """Every expression tree held by an IR node (the IR is a shallow tree of frozen dataclasses)."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, E.Expr):
            yield x
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type) and not isinstance(x, Span):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))


def check_expressions(rs, diags, point: Callable[[Span], Span] = start_of) -> bool:
    """`check_expr` on every expression of a rule set, as the IR holds them (a compiled JSON rule set never
    went through the parser): run it before any recursive pass."""
    ok = True
    for e in expressions(rs):
        ok &= check_expr(e, diags, point)
    return ok


# ---------------------------------------------------------------------- on a checked rule set


def const_value(e: E.Expr):
    """The value of a constant numeric expression (numbers, unary minus, arithmetic), or None."""
    match e:
        case E.Num(text=text):
            return Fraction(text)
        case E.Unary(op="-", operand=o):
            v = const_value(o)
            return None if v is None else -v
        case E.Binary(op=op, left=a, right=b) if op in ("+", "-", "*"):
            x, y = const_value(a), const_value(b)
            if x is None or y is None:
                return None
            return x + y if op == "+" else x - y if op == "-" else x * y
        case E.Binary(op="^", left=a, right=b):
            x, y = const_value(a), const_value(b)
            if x is None or y is None or y.denominator != 1 or abs(y) > L.MAX_EXPONENT or (x == 0 and y < 0) \
                    or L.power_too_big(x, int(y)):
                return None  # reported by check_arith
            return x ** int(y)
    return None


def check_arith(root: E.Expr, diags, point: Callable[[Span], Span] = start_of) -> None:
    """Constant operands that make an operator fail whatever the hand: located errors."""
    too_big_at = None
    for e in E.walk(root):
        if not isinstance(e, E.Binary):
            continue
        if too_big_at is None and e.op in ("+", "-", "*"):
            v = const_value(e)
            if v is not None and L.too_big(v):  # the outermost such node (walk goes parents first)
                too_big_at = e
                diags.error("E702", f"the constant value has more than {L.MAX_VALUE_DIGITS} digits", point(e.span))
        if e.op in ("/", "//", "%") and const_value(e.right) == 0:
            diags.error("E707", f"`{e.op}` by zero: the divisor is the constant 0", e.right.span)
        elif e.op == "^":
            exp = const_value(e.right)
            if exp is None:
                continue
            base = const_value(e.left)
            if exp.denominator != 1:
                diags.error("E401", "`^` takes a whole exponent", e.right.span)
            elif abs(exp) > L.MAX_EXPONENT:
                diags.error("E702", f"the exponent {exp} is larger than {L.MAX_EXPONENT}", e.right.span)
            elif base is not None and base == 0 and exp < 0:
                diags.error("E707", "`0 ^` a negative exponent divides by zero", e.span)
            elif base is not None and L.power_too_big(base, int(exp)):
                diags.error("E702", f"the power has more than {L.MAX_VALUE_DIGITS} digits", e.span)


class Work:
    """An upper bound on how many times the bodies of an expression's comprehensions are evaluated per
    reading, from an upper bound on the length of every list they range over."""

    def __init__(self, hand_tiles: int, suits: int, meld_size: int, total_tiles: int, quantities: dict):
        self.hand = hand_tiles
        self.suits = suits
        self.meld_size = meld_size
        self.total = total_tiles
        self.quantities = quantities  # name -> expression: a quantity is evaluated where it is read

    def length(self, e: E.Expr) -> int:
        match e:
            case E.ListLit(items=items):
                return len(items)
            case E.TileLit(tiles=tiles):
                return len(tiles)
            case E.Name(ref=ref):
                if ref == "builtin:suits":
                    return self.suits
                if ref.startswith("builtin:"):
                    return self.hand
                return self.total
            case E.Attr(name="tiles"):
                return self.meld_size
            case E.Comp(func="filter", source=s):
                return self.length(s)
            case E.Call(func="distinct", args=(a,)):
                return self.length(a)
            case E.If(then=t, orelse=f):
                return max(self.length(t), self.length(f))
        return self.total

    def cost(self, e: E.Expr, seen: frozenset = frozenset()) -> int:
        """Body evaluations (each counted with the cost of its own inner comprehensions)."""
        if isinstance(e, E.Comp):
            n = comb(self.length(e.source), len(e.binders))
            return self.cost(e.source, seen) + n * (1 + self.cost(e.body, seen))
        if isinstance(e, E.Name) and e.ref.startswith("quantity:"):
            name = e.ref.split(":", 1)[1]
            q = self.quantities.get(name)
            return 0 if q is None or name in seen else self.cost(q, seen | {name})
        return sum(self.cost(c, seen) for c in E.children(e))


def check_work(root: E.Expr, work: Work, diags) -> None:
    if not any(isinstance(n, E.Comp) for n in E.walk(root)):
        return
    n = work.cost(root)
    if n > L.MAX_COMP_WORK:
        at = next(x for x in E.walk(root) if isinstance(x, E.Comp))
        diags.error("E705", f"the comprehensions here may evaluate their bodies {n:,} times per reading; the "
                    f"limit is {L.MAX_COMP_WORK:,}", at.span,
                    "nest fewer comprehensions over the hand, or range over a shorter list")


def _shown(n: int) -> str:
    return str(n) if abs(n).bit_length() <= 64 else "a very large number"


def _const_int(e) -> int | None:
    v = const_value(e) if isinstance(e, E.Expr) else None
    return int(v) if v is not None and v.denominator == 1 else None


def check_ruleset(rs, diags, point: Callable[[Span], Span] = start_of,
                  set_up_tiles: Callable[[], dict[str, int] | None] | None = None) -> None:
    """The limits that need the checked rule set: arithmetic, comprehension work, tiles, table, wildcards.
    `set_up_tiles`, when given, is called where the tiles' own limits passed, to set the tiles up under the
    default options (copies written as expressions; the compiler does it: the IR does not know tiles); the
    copies it gives back count the wildcards, where without it only copies written as constants are known."""
    t = rs.tiles
    seen = set()
    for k in t.kinds:
        c = _const_int(k.copies)
        if c is not None and c > L.MAX_COPIES and k.copies.span not in seen:
            seen.add(k.copies.span)  # a suit's kinds share its copies: one error
            diags.error("E706", f"{c} copies of {k.name}; a tile kind has at most {L.MAX_COPIES} copies",
                        k.copies.span if k.copies.span.line else k.span)
    if len(t.kinds) > L.MAX_KINDS:
        diags.error("E706", f"{len(t.kinds)} tile kinds; the limit is {L.MAX_KINDS}", t.span)
    set_up = None
    if len(t.kinds) <= L.MAX_KINDS and set_up_tiles is not None and not diags.has_errors:
        set_up = set_up_tiles()
    players = _const_int(rs.table.players)
    if players is not None and players > L.MAX_TABLE_SIZE:
        diags.error("E706", f"{players} players; the limit is {L.MAX_TABLE_SIZE}", rs.table.span)
    copies = set_up if set_up is not None else {k.name: _const_int(k.copies) or 0 for k in t.kinds}
    most = max(copies.values(), default=0)
    held = sum(1 if w.scope == "win_tile" else copies.get(w.tiles, most) for w in rs.wilds)
    if held > L.MAX_WILDS_HELD:
        w = rs.wilds[0]
        diags.error("E706", f"a hand could hold {held} wildcards; the limit is {L.MAX_WILDS_HELD}", w.span,
                    "declare fewer copies of the wild tiles")
    for effects in [a.effects + a.decline for a in rs.actions] + [h.effects for h in rs.hooks]:
        for ef in effects:  # a JSON rule set is not built by the compiler, which refuses these too
            if not 1 <= ef.times <= L.MAX_ROLL_TIMES:
                diags.error("E402", f"a roll draws 1 to {L.MAX_ROLL_TIMES} items, not {_shown(ef.times)}", ef.span)
    for a in rs.actions:
        if not 0 <= a.select <= L.MAX_SELECT:
            diags.error("E402", f"a decision selects 1 to {L.MAX_SELECT} tiles, not {_shown(a.select)}", a.span)
    # the longest reading: the hand, the winning tile and one more tile per kong
    hand = rs.table.hand + 1
    longest_meld = max((m.shape.size for m in rs.melds if getattr(m, "shape", None) is not None), default=4)
    work = Work(hand + hand // 3, max(len(t.suits), 1), max(longest_meld, 1),
                sum(min(c, L.MAX_COPIES) for c in copies.values()), {q.name: q.expr for q in rs.quantities})
    # The generated evaluator writes a quantity out where it is read (runtime/fastscore.py), so the size
    # that counts is the expression with its quantities written out, which a chain of quantities each
    # reading the previous twice doubles at every link.
    quantities = {q.name: q for q in rs.quantities}
    written: dict[str, int] = {}

    def written_out(e: E.Expr) -> int:
        n = 0
        for x in E.walk(e):
            n += 1
            if isinstance(x, E.Name) and x.ref.startswith("quantity:"):
                name = x.ref.split(":", 1)[1]
                if name not in written and name in quantities:
                    written[name] = L.MAX_EXPR_NODES + 1  # a guard while it is being measured
                    written[name] = min(written_out(quantities[name].expr), L.MAX_EXPR_NODES + 1)
                n += written.get(name, 0)
        return n

    for q in rs.quantities:
        written_out(q.expr)
    for e in expressions(rs):
        check_arith(e, diags, point)
        n = written_out(e)
        reads = {x.ref.split(":", 1)[1] for x in E.walk(e) if isinstance(x, E.Name) and x.ref.startswith("quantity:")}
        if n > L.MAX_EXPR_NODES and all(written.get(r, 0) <= L.MAX_EXPR_NODES for r in reads):  # the first one
            diags.error("E704", f"the expression, with the quantities it reads written out, has more than "
                        f"{L.MAX_EXPR_NODES:,} parts", point(e.span), "read fewer quantities, or fewer times")
        if n <= L.MAX_EXPR_NODES:  # the work estimate walks the written-out expression
            check_work(e, work, diags)
