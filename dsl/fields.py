"""Reading a block's statements against what the block accepts.

Each builder in dsl/build.py asks for the keys it knows (`f.int("copies")`, `f.expr("when")`, …). A
key nobody asked for is reported as unknown (with a "did you mean"), a key given twice as a duplicate,
arguments of the wrong kind with an example of the right form. Nothing here raises: a bad field yields
its default and a diagnostic, so one run reports every mistake.
"""
from __future__ import annotations

import difflib

from ..runtime.ir import expr as E
from ..runtime.ir.span import Span
from .diagnostics import Diagnostics
from .syntax import Arg, Stmt

MISSING = object()


class Fields:
    def __init__(self, stmts: tuple[Stmt, ...] | None, diags: Diagnostics, where: str, span: Span):
        self.stmts = stmts or ()
        self.diags = diags
        self.where = where
        self.span = span
        self.known: set[str] = set()

    # ---------------------------------------------------------------- plumbing

    def all(self, key: str) -> list[Stmt]:
        self.known.add(key)
        return [s for s in self.stmts if s.key == key]

    def one(self, key: str, required: bool = False, usage: str = "") -> Stmt | None:
        found = self.all(key)
        if len(found) > 1:
            self.diags.error("E202", f"`{key}` is given more than once in {self.where}", found[1].span)
        if not found:
            if required:
                self.diags.error("E203", f"{self.where} needs `{key}`", self.span,
                                 f"add e.g. `{usage}`" if usage else "")
            return None
        return found[0]

    def bad(self, stmt: Stmt, usage: str, what: str = "") -> None:
        msg = what or f"wrong arguments for `{stmt.key}`"
        self.diags.error("E204", msg, stmt.args[0].span if stmt.args else stmt.span,
                         f"write it as `{usage}`" if usage else "")

    def plain(self, stmt: Stmt, *, allow_expr=False, allow_cond=False, allow_block=False) -> None:
        """Report parts of a statement its key does not take."""
        if stmt.expr is not None and not allow_expr:
            self.diags.error("E207", f"`{stmt.key}` takes no `= expression`", stmt.expr.span)
        if stmt.cond is not None and not allow_cond:
            self.diags.error("E208", f"`{stmt.key}` takes no `when` condition", stmt.cond.span)
        if stmt.block is not None and not allow_block:
            self.diags.error("E205", f"`{stmt.key}` takes no `{{ … }}` block", stmt.span)

    def finish(self) -> None:
        """Report every key of the block that no builder asked for."""
        for s in self.stmts:
            if s.key not in self.known:
                close = difflib.get_close_matches(s.key, sorted(self.known), n=1, cutoff=0.5)
                hint = f"did you mean `{close[0]}`?" if close else (
                    "known keys here: " + ", ".join(sorted(self.known)) if self.known else "")
                self.diags.error("E201", f"unknown key `{s.key}` in {self.where}", s.span, hint)

    # ---------------------------------------------------------------- typed readers

    def _single(self, key: str, kinds: tuple[str, ...], usage: str, required: bool) -> Arg | None:
        s = self.one(key, required, usage)
        if s is None:
            return None
        self.plain(s)
        if len(s.args) != 1 or s.args[0].kind not in kinds:
            self.bad(s, usage)
            return None
        return s.args[0]

    def int(self, key: str, default=None, usage: str = "", required=False, lo=None, hi=None):
        a = self._single(key, ("number",), usage or f"{key} 4", required)
        if a is None:
            return default
        return self.check_int(a, default, lo, hi)

    def check_int(self, a: Arg, default=None, lo=None, hi=None):
        text = str(a.value)
        if not text.lstrip("-").isdigit():
            self.diags.error("E401", f"expected a whole number, got {text}", a.span)
            return default
        v = int(text)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            bounds = f"{lo if lo is not None else '…'}..{hi if hi is not None else '…'}"
            self.diags.error("E402", f"{v} is out of range {bounds}", a.span)
            return default
        return v

    def bool(self, key: str, default=False):
        s = self.one(key)
        if s is None:
            return default
        self.plain(s)
        if not s.args:  # a bare flag: `concealed`
            return True
        if len(s.args) != 1 or s.args[0].kind != "bool":
            self.bad(s, f"{key} true")
            return default
        return bool(s.args[0].value)

    def string(self, key: str, default="", usage="", required=False) -> str:
        a = self._single(key, ("string",), usage or f'{key} "…"', required)
        return default if a is None else str(a.value)

    def name(self, key: str, default="", usage="", required=False, words: tuple[str, ...] = ()) -> str:
        a = self._single(key, ("name", "none") if "none" in words else ("name",), usage or f"{key} NAME",
                         required)
        if a is None:
            return default
        v = "none" if a.kind == "none" else str(a.value)
        if words and v not in words:
            self.diags.error("E204", f"`{key}` must be one of: {', '.join(words)}", a.span,
                             _suggest(v, words))
            return default
        return v

    def range(self, key: str, usage="", required=False, lo_bound=None, hi_bound=None) -> tuple[int, int] | None:
        """`key LO..HI` or `key N`; with bounds, a range reaching outside them is E402 (a range the runtime
        iterates over must be small)."""
        s = self.one(key, required, usage)
        if s is None:
            return None
        self.plain(s)
        if len(s.args) == 1 and s.args[0].kind == "range":
            lo, hi = s.args[0].value  # type: ignore[misc]
            if not (lo.lstrip("-").isdigit() and hi.lstrip("-").isdigit()):
                self.diags.error("E401", "a range needs whole numbers", s.args[0].span)
                return None
            if int(lo) > int(hi):
                self.diags.error("E402", f"empty range {lo}..{hi}", s.args[0].span)
                return None
            if (lo_bound is not None and int(lo) < lo_bound) or (hi_bound is not None and int(hi) > hi_bound):
                self.diags.error("E402", f"{lo}..{hi} is out of range {lo_bound}..{hi_bound}", s.args[0].span)
                return None
            return int(lo), int(hi)
        if len(s.args) == 1 and s.args[0].kind == "number":
            v = self.check_int(s.args[0], lo=lo_bound, hi=hi_bound)
            return None if v is None else (v, v)
        self.bad(s, usage or f"{key} 1..9")
        return None

    def names(self, key: str, usage: str = "") -> list[tuple[str, Span]]:
        """All names given to `key`, over repeated statements and flattened lists."""
        out: list[tuple[str, Span]] = []
        for s in self.all(key):
            self.plain(s)
            for a in flatten(s.args):
                if a.kind != "name":
                    self.bad(s, usage or f"{key} A B C", f"`{key}` takes names, not {a.describe()}")
                    continue
                out.append((str(a.value), a.span))
        return out

    def expr(self, key: str, required=False, usage="") -> E.Expr | None:
        """`key = EXPR`; a single literal argument (`key 4`, `key true`) is accepted too."""
        s = self.one(key, required, usage or f"{key} = …")
        if s is None:
            return None
        self.plain(s, allow_expr=True)
        if s.expr is not None:
            if s.args:
                self.bad(s, usage or f"{key} = …")
            return s.expr
        if len(s.args) == 1:
            lit = arg_to_expr(s.args[0])
            if lit is not None:
                return lit
        self.bad(s, usage or f"{key} = …")
        return None

    def cond(self, key: str = "when") -> E.Expr | None:
        s = self.one(key)
        if s is None:
            return None
        return s.expr

    def text(self, key: str) -> str:
        parts = []
        for s in self.all(key):
            self.plain(s)
            if len(s.args) != 1 or s.args[0].kind != "string":
                self.bad(s, f'{key} "…"')
                continue
            parts.append(str(s.args[0].value))
        return "\n\n".join(parts)

    def docs(self) -> dict:
        notes = []
        for s in self.all("note"):
            self.plain(s)
            if len(s.args) != 1 or s.args[0].kind != "string":
                self.bad(s, 'note "…"')
                continue
            notes.append(str(s.args[0].value))
        return {"doc": self.text("doc"), "notes": tuple(notes)}


def flatten(args) -> list[Arg]:
    out: list[Arg] = []
    for a in args:
        if a.kind == "list":
            out.extend(flatten(a.value))
        else:
            out.append(a)
    return out


def arg_to_expr(a: Arg) -> E.Expr | None:
    match a.kind:
        case "number":
            text = str(a.value)
            if text.startswith("-"):
                return E.Unary("-", E.Num(text[1:], span=a.span), span=a.span)
            return E.Num(text, span=a.span)
        case "string":
            return E.Str(str(a.value), span=a.span)
        case "bool":
            return E.Bool(bool(a.value), span=a.span)
        case "none":
            return E.NoneLit(span=a.span)
        case "name":
            return E.Name(str(a.value), span=a.span)
        case "tiles":
            return E.TileLit(str(a.value), span=a.span)
        case "list":
            items = [arg_to_expr(x) for x in a.value]  # type: ignore[union-attr]
            if any(i is None for i in items):
                return None
            return E.ListLit(tuple(items), span=a.span)  # type: ignore[arg-type]
    return None


def _suggest(word: str, words) -> str:
    close = difflib.get_close_matches(word, list(words), n=1, cutoff=0.4)
    return f"did you mean `{close[0]}`?" if close else ""
