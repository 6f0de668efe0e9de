"""Lark front end: source text -> a generic tree of statements with expression trees.

The grammar (grammar.lark) only knows statements, arguments and expressions. What each block may
contain is checked afterwards by dsl/build.py, which gives better messages than a parse error.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..runtime.ir import expr as E
from ..runtime.ir.span import Span
from .diagnostics import Diagnostics

GRAMMAR = Path(__file__).with_name("grammar.lark")


@dataclass(frozen=True)
class Arg:
    kind: str  # name | dotted | number | string | tiles | range | bool | none | list | signature
    value: object
    span: Span

    def describe(self) -> str:
        return {"name": "a name", "dotted": "a dotted name", "number": "a number", "string": "a string",
                "tiles": "a tile literal", "range": "a range", "bool": "true/false", "none": "none",
                "list": "a list", "signature": "a name with parameters"}[self.kind]


@dataclass(frozen=True)
class Stmt:
    key: str
    args: tuple[Arg, ...]
    expr: E.Expr | None
    cond: E.Expr | None
    block: tuple[Stmt, ...] | None
    span: Span  # the key's position

    @property
    def name(self) -> str | None:
        """The first argument when it is a plain name (the declared name of a block)."""
        if self.args and self.args[0].kind == "name":
            return self.args[0].value  # type: ignore[return-value]
        return None


class _BracketNewlines:
    """Post-lexer: newlines inside () and [] do not end a statement."""

    always_accept = ("_NL",)

    def process(self, stream):
        depth = 0
        for tok in stream:
            if tok.type in ("LPAR", "LSQB"):
                depth += 1
            elif tok.type in ("RPAR", "RSQB"):
                depth = max(depth - 1, 0)
            elif tok.type == "_NL" and depth > 0:
                continue
            yield tok


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, _ToTree]:
    # The transformer runs inline while parsing (LALR only): no intermediate parse tree is built,
    # which makes parsing several times faster. Its `file` is set before each parse.
    transformer = _ToTree("<text>")
    parser = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                  postlex=_BracketNewlines(), maybe_placeholders=True, transformer=transformer)
    return parser, transformer


def _unquote(s: str) -> str:
    if s.startswith('"""'):
        body = s[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        return textwrap.dedent(body).strip("\n")
    out, i, body = [], 0, s[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _ToTree(Transformer):
    def __init__(self, file: str):
        super().__init__()
        self.file = file

    # ---- positions ----
    def _tok_span(self, t: Token) -> Span:
        return Span(self.file, t.line, t.column, t.end_line or t.line, t.end_column or t.column + 1)

    @staticmethod
    def _join(a: Span, b: Span) -> Span:
        return Span(a.file, a.line, a.col, b.end_line, b.end_col)

    def _span_of(self, x) -> Span:
        return self._tok_span(x) if isinstance(x, Token) else x.span

    # ---- statements ----
    def start(self, items):
        return tuple(i for i in items if isinstance(i, Stmt))

    def block(self, items):
        return tuple(i for i in items if isinstance(i, Stmt))

    def key(self, items):
        return items[0]

    def field(self, items):
        # maybe_placeholders keeps the optional parts in place:
        # [key, *args, expr|None, WHEN|None, cond|None, block|None]
        key_tok, *args, value, _when, cond, block = items
        return Stmt(str(key_tok), tuple(args), value, cond, block, self._tok_span(key_tok))

    def when_stmt(self, items):
        return Stmt("when", (), items[1], None, None, self._tok_span(items[0]))

    def unless_stmt(self, items):
        return Stmt("unless", (), items[1], None, None, self._tok_span(items[0]))

    # ---- arguments ----
    def arg_name(self, items):
        return Arg("name", str(items[0]), self._tok_span(items[0]))

    def arg_dotted(self, items):
        return Arg("dotted", tuple(str(t) for t in items), self._tok_span(items[0]))

    def signed_number(self, items):
        t = items[0]
        return (str(t), self._tok_span(t))

    def negative(self, items):
        minus, t = items
        return ("-" + str(t), self._join(self._tok_span(minus), self._tok_span(t)))

    def arg_number(self, items):
        text, span = items[0]
        return Arg("number", text, span)

    def arg_range(self, items):
        (lo, span), (hi, _) = items
        return Arg("range", (lo, hi), span)

    def arg_string(self, items):
        return Arg("string", _unquote(str(items[0])), self._tok_span(items[0]))

    def arg_tiles(self, items):
        return Arg("tiles", str(items[0])[1:-1], self._tok_span(items[0]))

    def arg_true(self, items):
        return Arg("bool", True, self._tok_span(items[0]))

    def arg_false(self, items):
        return Arg("bool", False, self._tok_span(items[0]))

    def arg_none(self, items):
        return Arg("none", None, self._tok_span(items[0]))

    def arg_list(self, items):
        lsqb, *inner, rsqb = items
        return Arg("list", tuple(i for i in inner if isinstance(i, Arg)),
                   self._join(self._tok_span(lsqb), self._tok_span(rsqb)))

    def arg_signature(self, items):
        """`NAME(p: TYPE, …)`: value (name, ((param, type word, span), …))."""
        name, *params = items
        params = tuple(p for p in params if p is not None)
        return Arg("signature", (str(name), params), self._tok_span(name))

    def param(self, items):
        name, typ = items
        return (str(name), str(typ), self._tok_span(name))

    # ---- expressions ----
    def number(self, items):
        return E.Num(str(items[0]), span=self._tok_span(items[0]))

    def string(self, items):
        return E.Str(_unquote(str(items[0])), span=self._tok_span(items[0]))

    def tiles(self, items):
        return E.TileLit(str(items[0])[1:-1], span=self._tok_span(items[0]))

    def true(self, items):
        return E.Bool(True, span=self._tok_span(items[0]))

    def false(self, items):
        return E.Bool(False, span=self._tok_span(items[0]))

    def none(self, items):
        return E.NoneLit(span=self._tok_span(items[0]))

    def name(self, items):
        return E.Name(str(items[0]), span=self._tok_span(items[0]))

    def listlit(self, items):
        lsqb, *inner, rsqb = items
        return E.ListLit(tuple(i for i in inner if isinstance(i, E.Expr)),
                         span=self._join(self._tok_span(lsqb), self._tok_span(rsqb)))

    def ifexpr(self, items):
        return E.If(items[1], items[3], items[5], span=self._join(self._tok_span(items[0]), items[5].span))

    def or_(self, items):
        return E.Binary("or", items[0], items[2], span=self._join(items[0].span, items[2].span))

    def and_(self, items):
        return E.Binary("and", items[0], items[2], span=self._join(items[0].span, items[2].span))

    def not_(self, items):
        return E.Unary("not", items[1], span=self._join(self._tok_span(items[0]), items[1].span))

    def comp_op(self, items):
        return " ".join(str(t) for t in items)

    def comparison(self, items):
        operands = tuple(items[0::2])
        ops = tuple(items[1::2])
        return E.Compare(ops, operands, span=self._join(operands[0].span, operands[-1].span))

    def _bin(op):  # noqa: N805 - a small factory used in the class body
        def f(self, items):
            left, right = items[0], items[-1]  # `sub` keeps its MINUS token in the middle
            return E.Binary(op, left, right, span=self._join(left.span, right.span))
        return f

    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    floordiv = _bin("//")
    mod = _bin("%")
    pow = _bin("^")

    def neg(self, items):
        minus, operand = items
        return E.Unary("-", operand, span=self._join(self._tok_span(minus), operand.span))

    def getattr(self, items):
        return E.Attr(items[0], str(items[1]), span=self._join(items[0].span, self._tok_span(items[1])))

    def callargs(self, items):
        return items

    def call(self, items):
        func = str(items[0])
        span = self._tok_span(items[0])
        parts = items[1] or [None]
        body = parts[-1]
        args = [a for a in parts[:-1] if a is not None]
        if body is None:
            return E.Call(func, tuple(args), span=span)
        # `f(a, b in S: body)`: the last argument parsed as the comparison `b in S`.
        last = args[-1] if args else None
        if not (isinstance(last, E.Compare) and last.ops == ("in",) and isinstance(last.operands[0], E.Name)
                and all(isinstance(a, E.Name) for a in args[:-1])):
            raise _CompError(span, f"`{func}(… : …)` must read `{func}(x in LIST: …)` or "
                                   f"`{func}(a, b in LIST: …)`")
        binders = tuple(a.name for a in args[:-1]) + (last.operands[0].name,)
        return E.Comp(func, binders, last.operands[1], body, span=span)


class _CompError(Exception):
    def __init__(self, span: Span, message: str):
        super().__init__(message)
        self.span = span
        self.message = message


_EXPECT_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "LONG_STRING": "a string",
    "TILES": "a tile literal", "_NL": "end of line", "LBRACE": "`{`", "RBRACE": "`}`",
    "EQUAL": "`=`", "LSQB": "`[`", "RSQB": "`]`", "LPAR": "`(`", "RPAR": "`)`", "COLON": "`:`",
    "COMMA": "`,`", "SEMICOLON": "`;`", "$END": "end of file",
}


@lru_cache(maxsize=1)
def _literal_terminals() -> dict[str, str]:
    """Terminals that match one fixed text (`-`, `==`, `when`), shown as that text."""
    return {t.name: f"`{t.pattern.value}`" for t in _parser()[0].terminals if t.pattern.type == "str"}


def _expected(exc: UnexpectedInput) -> str:
    shown = {**_literal_terminals(), **_EXPECT_NAMES}
    names = sorted({shown.get(t, f"`{t.lower()}`" if t.isupper() and t.isalpha() else t)
                    for t in (getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())})
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["…"]
    return "expected " + ", ".join(names)


def parse_source(text: str, file: str, diags: Diagnostics) -> tuple[Stmt, ...] | None:
    """Parse one file. On a syntax error, report it and return None (one syntax error per file)."""
    from ..runtime.ir.span import Span as S

    parser, transformer = _parser()
    transformer.file = file
    try:
        return parser.parse(text)
    except _CompError as exc:
        diags.error("E404", exc.message, exc.span)
        return None
    except VisitError as exc:
        if isinstance(exc.orig_exc, _CompError):
            diags.error("E404", exc.orig_exc.message, exc.orig_exc.span)
            return None
        raise
    except UnexpectedCharacters as exc:
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        hint = "strings use double quotes, tile literals single quotes" if ch in "“”‘’" else ""
        diags.error("E102", f"unexpected character {ch!r}", S(file, exc.line, exc.column), hint)
        return None
    except UnexpectedEOF as exc:
        lines = text.splitlines() or [""]
        diags.error("E103", "unexpected end of file" + (f"; {_expected(exc)}" if _expected(exc) else ""),
                    S(file, len(lines), len(lines[-1]) + 1), "is a `}` or `)` missing?")
        return None
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            diags.error("E103", "unexpected end of file; " + _expected(exc),
                        S(file, len(lines), len(lines[-1]) + 1), "is a `}` or `)` missing?")
            return None
        shown = "end of line" if tok.type == "_NL" else f"`{tok}`"
        diags.error("E101", f"unexpected {shown}; {_expected(exc)}",
                    S(file, tok.line, tok.column, tok.end_line or tok.line,
                      tok.end_column or tok.column + 1))
        return None
