"""Expressions written out for readers: `底 * 番 * 2 ^ 次数` becomes 「底 × 番 × 2^次数」,
`payer == discarder` becomes 「付分者是打出这张牌的人」.

Every expression of the IR can be written; the result is a formula or a condition in Chinese, not a
sentence — the sentence is the rule's own `doc`. The HTML form escapes names and sets powers as
superscripts; the text form (for Markdown) writes `^`.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from ...runtime.ir import vocab as V
from . import words as W

# binding strength, loosest first
_IF, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _NEG, _POW, _ATOM = range(10)
_BIN = {"or": _OR, "and": _AND, "+": _ADD, "-": _ADD, "*": _MUL, "/": _MUL, "//": _MUL, "%": _MUL, "^": _POW}
_FLIP = {"==": "!=", "!=": "==", "in": "not in", "not in": "in", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_BOOL_TILE_FIELDS = {k for k, t in V.TILE_FIELDS.items() if t == "bool"}
_BOOL_MELD_FIELDS = {k for k, t in V.MELD_FIELDS.items() if t == "bool"}


class Writer:
    """Writes the expressions of one rule set (it needs the rule set to know what a name is)."""

    def __init__(self, rs: ir.RuleSet):
        self.rs = rs
        self.state_types = {s.name: s.type for s in rs.states}
        self.setting_types = {s.name: s.type for s in rs.settings}
        self.attrs = {a.name for a in rs.tiles.attrs} | {a for k in rs.tiles.kinds for a in k.attrs}
        self.choice_word = ""  # how `choice` is written in the decision being described (its value type)

    # ------------------------------------------------------------------ public

    def text(self, e: E.Expr | None, cond: bool = False) -> str:
        return "" if e is None else _Run(self, html=False).top(e, cond)

    def html(self, e: E.Expr | None, cond: bool = False) -> Markup:
        return Markup("") if e is None else Markup(_Run(self, html=True).top(e, cond))

    def both(self, e: E.Expr | None, cond: bool = False) -> Formula:
        """`cond`: the expression is a condition (names are quoted: 选了「X」, 「X」)."""
        return Formula(self.text(e, cond), self.html(e, cond))

    def cases(self, e: E.Expr) -> list[tuple[Formula | None, Formula]]:
        """`if C1 then A else if C2 then B else D` as [(C1, A), (C2, B), (None, D)]; a case whose
        condition repeats an earlier one can never apply and is left out."""
        out: list[tuple[Formula | None, Formula]] = []
        seen: set[str] = set()

        def go(x: E.Expr) -> None:
            if isinstance(x, E.If):
                c = self.both(x.cond, cond=True)
                if c.text not in seen:
                    seen.add(c.text)
                    out.append((c, self.both(x.then)))
                go(x.orelse)
            else:
                out.append((None, self.both(x)))
        go(e)
        return out


class Formula:
    """One expression in both forms; templates pick `.text` (Markdown) or `.html`."""

    def __init__(self, text: str, html: Markup):
        self.text = text
        self.html = html

    def __bool__(self) -> bool:
        return bool(self.text)


class _Run:
    def __init__(self, w: Writer, html: bool):
        self.w = w
        self.html = html
        self.binders: list[str] = []
        self.depth = 0  # > 0 while writing a condition

    def cond(self, e: E.Expr) -> tuple[str, int]:
        self.depth += 1
        try:
            return self.go(e)
        finally:
            self.depth -= 1

    def esc(self, s: str) -> str:
        return str(escape(s)) if self.html else s

    def top(self, e: E.Expr, cond: bool) -> str:
        return (self.cond(e) if cond else self.go(e))[0]

    def wrap(self, part: tuple[str, int], need: int) -> str:
        s, level = part
        return f"（{s}）" if level < need else s

    def name_of(self, n: str) -> str:
        return self.esc(f"「{n}」" if self.depth else n)

    # returns (text, binding strength)
    def go(self, e: E.Expr) -> tuple[str, int]:
        match e:
            case E.Num(text=t):
                return self.esc(t), _ATOM
            case E.Str(value=v):
                return self.esc(f"“{v}”"), _ATOM
            case E.Bool(value=v):
                return W.TRUE_FALSE[v], _ATOM
            case E.NoneLit():
                return "无", _ATOM
            case E.TileLit(text=t, tiles=tiles):
                return self.esc("、".join(tiles) if tiles else t), _ATOM
            case E.ListLit(items=items):
                return "、".join(self.go(i)[0] for i in items), _ADD
            case E.Name():
                return self.name(e), _ATOM
            case E.Attr():
                return self.attr(e), _ATOM
            case E.Call(func=f, args=args):
                return self.call(f, args)
            case E.Comp():
                return self.comp(e), _ATOM
            case E.Unary(op="not", operand=o):
                self.depth += 1
                try:
                    return self.negate(o), _NOT
                finally:
                    self.depth -= 1
            case E.Unary(op="-", operand=o):
                return "−" + self.wrap(self.go(o), _POW), _NEG
            case E.Binary(op=op, left=l, right=r):
                return self.binary(op, l, r)
            case E.Compare(ops=ops, operands=operands):
                return self.compare(ops, operands), _CMP
            case E.If(cond=c, then=t, orelse=f):
                return (f"若{self.cond(c)[0]}则{self.wrap(self.go(t), _OR)}，"
                        f"否则{self.wrap(self.go(f), _OR)}"), _IF
        return self.esc(str(e)), _ATOM

    def name(self, e: E.Name) -> str:
        cat, _, n = e.ref.partition(":")
        n = n or e.name
        if cat == "builtin":
            if n == "choice" and self.w.choice_word:
                return self.esc(self.w.choice_word)
            return self.esc(W.BUILTIN.get(n, n))
        if cat == "binder":
            return "它" if n in self.binders else self.esc(n)
        if cat == "option" and self.depth and self.w.setting_types.get(n) == "bool":
            return self.esc(f"选了「{n}」")
        return self.name_of(n)

    def attr(self, e: E.Attr) -> str:
        obj, field = e.obj, e.name
        if isinstance(obj, E.Name) and obj.ref == "builtin:table":
            return self.name_of(field)
        if isinstance(obj, E.Name) and (obj.ref == "builtin:t" or (
                obj.ref.startswith("binder:") and obj.name in self.binders)):
            owner = ""  # inside a comprehension: 「四季」 of each item
        else:
            owner = self.go(obj)[0]
        if field in W.SEAT_STATE and field not in self.w.state_types and field not in self.w.attrs:
            return f"{owner}{self.esc(W.SEAT_STATE[field][0])}"
        if field in W.FIELD and field not in self.w.state_types and field not in self.w.attrs:
            word = W.FIELD[field]
            if field in _BOOL_TILE_FIELDS | _BOOL_MELD_FIELDS:
                return f"{owner}是{self.esc(word)}" if owner else self.esc(word)
            return f"{owner}的{self.esc(word)}" if owner else self.esc(word)
        if field in self.w.attrs:
            return f"{owner}是{self.esc(f'「{field}」')}" if owner else self.esc(f"「{field}」")
        if self.w.state_types.get(field) == "bool":
            return f"{owner}{self.esc(f'「{field}」')}"
        return f"{owner}的{self.esc(field)}" if owner else self.esc(field)

    def negate(self, o: E.Expr) -> str:
        if isinstance(o, E.Unary) and o.op == "not":  # `not not X` (a negated function inlined): X
            return self.wrap(self.cond(o.operand), _NOT)
        if isinstance(o, E.Attr) and (o.name in self.w.attrs or (
                o.name in _BOOL_TILE_FIELDS | _BOOL_MELD_FIELDS and o.name not in self.w.state_types)):
            s = self.attr(o)
            return s.replace("是", "不是", 1) if "是" in s else "不" + s
        if isinstance(o, E.Attr) and o.name in W.SEAT_STATE and o.name not in self.w.state_types \
                and o.name not in self.w.attrs:
            return f"{self.go(o.obj)[0]}{self.esc(W.SEAT_STATE[o.name][1])}"
        if isinstance(o, E.Attr) and self.w.state_types.get(o.name) == "bool" and not (
                isinstance(o.obj, E.Name) and o.obj.ref == "builtin:table"):
            return f"{self.go(o.obj)[0]}没有{self.esc(f'「{o.name}」')}"
        if isinstance(o, E.Name) and o.ref.startswith("builtin:") and o.name in W.NEGATED:
            return self.esc(W.NEGATED[o.name])
        if isinstance(o, E.Name) and o.ref.startswith("option:") and self.w.setting_types.get(o.name) == "bool":
            return self.esc(f"没选「{o.name}」")
        if isinstance(o, (E.Name, E.Attr)):
            return "没有" + self.go(o)[0]
        if isinstance(o, E.Compare) and len(o.ops) == 1 and o.ops[0] in _FLIP:
            return self.compare((_FLIP[o.ops[0]],), o.operands)
        if isinstance(o, E.Comp) and o.func == "any":
            return self.comp(o, negated=True)
        return "并非" + f"（{self.go(o)[0]}）"

    def binary(self, op: str, left: E.Expr, right: E.Expr) -> tuple[str, int]:
        lv = _BIN[op]
        if op in ("and", "or"):
            word = "且" if op == "and" else "或"
            sides = []
            for x in (left, right):
                part = self.cond(x)
                same = isinstance(x, E.Binary) and x.op == op
                sides.append(part[0] if same else self.wrap(part, _NOT))  # an `and` inside `or` is bracketed
            return f"{sides[0]}，{word}{sides[1]}", lv
        if op == "^":
            base = self.wrap(self.go(left), _ATOM)
            exp = self.go(right)
            return (f"{base}<sup>{exp[0]}</sup>" if self.html else f"{base}^{self.wrap(exp, _ATOM)}"), _POW
        if op == "//":
            # in words (a CJK font has no ⌊ ⌋: a reader would see boxes)
            return f"（{self.wrap(self.go(left), _MUL)} ÷ {self.wrap(self.go(right), _POW)}，向下取整）", _ATOM
        sym = {"+": "＋", "-": "−", "*": "×", "/": "÷", "%": "除以…的余数"}[op]
        if op == "%":
            return f"{self.wrap(self.go(left), _MUL)} 除以 {self.wrap(self.go(right), _POW)} 的余数", _MUL
        right_need = lv + 1 if op in ("-", "/") else lv
        return f"{self.wrap(self.go(left), lv)} {sym} {self.wrap(self.go(right), right_need)}", lv

    def compare(self, ops, operands) -> str:
        self.depth += 1
        try:
            return self._compare(ops, operands)
        finally:
            self.depth -= 1

    def _binders_field(self, operands) -> str | None:
        """The field `F` when every operand is `x.F` of a different binder in scope (`a.suit == b.suit`)."""
        if not all(isinstance(x, E.Attr) and isinstance(x.obj, E.Name) and x.obj.ref.startswith("binder:")
                   and x.obj.name in self.binders for x in operands):
            return None
        if len({x.name for x in operands}) != 1 or len({x.obj.name for x in operands}) != len(operands):
            return None
        return operands[0].name

    def _compare(self, ops, operands) -> str:
        if len(ops) == 1 and ops[0] in ("==", "!=") and isinstance(operands[1], E.NoneLit):
            return ("没有" if ops[0] == "==" else "有") + self.go(operands[0])[0]
        field = self._binders_field(operands)
        if field is not None and (all(op == "==" for op in ops) or ops == ("!=",) or ops == ["!="]):
            # `a.suit == b.suit`: 花色相同; `a.kind != b.kind`: 种类不同
            word = W.FIELD.get(field) if field not in self.w.state_types and field not in self.w.attrs \
                else f"「{field}」"
            return self.esc(word or field) + ("相同" if ops[0] == "==" else "不同")
        parts = [self.wrap(self.go(operands[0]), _ADD)]
        for op, x in zip(ops, operands[1:]):
            rhs = self.wrap(self.go(x), _ADD)
            numeric = any(isinstance(y, (E.Num, E.Binary)) or (isinstance(y, E.Call) and y.func == "len")
                          for y in (x,)) or op not in ("==", "!=")
            if op in ("==", "!=") and not numeric:
                parts.append(("是" if op == "==" else "不是") + rhs)
            elif op == "in":
                parts.append(f"属于{rhs}")
            elif op == "not in":
                parts.append(f"不属于{rhs}")
            else:
                parts.append(f" {W.COMPARE[op]} {rhs}")
        return "".join(parts)

    def call(self, f: str, args) -> tuple[str, int]:
        if f in ("max", "min") and len(args) == 2:
            # max(0, X) is X never below 0: say so, instead of 「0与X中的较大者」 with X's parts run together
            bound = next((i for i, x in enumerate(args) if isinstance(x, E.Num)), None)
            if bound is not None and not isinstance(args[1 - bound], E.Num):
                x = self.go(args[1 - bound])[0]
                limit = self.go(args[bound])[0]
                side = "不足" if f == "max" else "超过"
                return f"（{x}，{side}{limit}按{limit}计）", _ATOM
            word = "较大者" if f == "max" else "较小者"
            a = [self.wrap(self.go(x), _ATOM) for x in args]
            return f"{a[0]}与{a[1]}中的{word}", _CMP
        if f == "after" and len(args) == 2:  # a counted offset that is not a plain number is bracketed
            a = [self.go(args[0])[0], self.wrap(self.go(args[1]), _ATOM)]
        else:
            a = [self.go(x)[0] for x in args]
        if f in W.HYPOTHETICAL and len(args) == 2:  # the flag read as how the hypothetical tile is won
            flag, how = args[1], W.HYPOTHETICAL_WIN
            a[1] = (how[flag.value] if isinstance(flag, E.Bool)
                    else f"{self.wrap(self.cond(flag), _CMP)}则{how[True]}、否则{how[False]}")
        pattern = W.FUNCTION.get(f)
        if pattern is not None and len(a) >= pattern.count("{"):
            return pattern.format(*a), _ATOM
        return f"{self.esc(f)}（{'，'.join(a)}）", _ATOM

    def comp(self, e: E.Comp, negated: bool = False) -> str:
        src = self.wrap(self.go(e.source), _ATOM)
        self.binders.extend(e.binders)
        if e.func in ("count", "any", "all", "filter"):
            body = self.wrap(self.cond(e.body), _CMP)
        else:
            body = self.wrap(self.go(e.body), _ATOM)
        del self.binders[-len(e.binders):]
        if len(e.binders) > 1:
            src = f"{src}中每{'两' if len(e.binders) == 2 else W.cn_number(len(e.binders))}项"
        match e.func:
            case "count":
                return f"{src}中{body}的个数"
            case "any":
                return f"{src}中{'没有' if negated else '有'}{body}的"
            case "all":
                return f"{src}都{body}"
            case "sum":
                return f"{src}的{body}之和"
            case "max":
                return f"{src}中{body}的最大值"
            case "min":
                return f"{src}中{body}的最小值"
            case "filter":
                return f"{src}中{body}的"
        return f"{src}：{body}"
