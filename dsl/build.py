"""Statements -> IR. One builder per block kind; each reads only the keys it knows (dsl/fields.py).

Name resolution and type checking of expressions happen afterwards, in dsl/checker.py, once every
declaration is known.
"""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from .build_game import GameBuilders
from .build_reading import ReadingBuilders
from .build_support import file_span, show
from .build_tiles import TileBuilders
from .diagnostics import Diagnostics
from .fields import Fields
from .functions import Function, build_function
from .syntax import Stmt

TOP_LEVEL = ("variant", "tiles", "table", "option", "context", "reveal", "wild", "standin", "meld", "win",
             "require", "unit", "pattern", "combine", "quantity", "score", "payment", "fee", "cap", "task",
             "state", "phase", "action", "priority", "on", "restrict", "observe", "example", "section", "def")


class Builder(TileBuilders, ReadingBuilders, GameBuilders):
    """Statements -> a RuleSet: the statement loop and the common checks of a statement; the builders
    of each family of constructs are the mixins (dsl/build_tiles.py, build_reading.py, build_game.py)."""

    def __init__(self, diags: Diagnostics, file: str):
        self.diags = diags
        self.file = file
        self.functions: tuple[Function, ...] = ()  # the file's `def`s (written out by the checker)

    # ---------------------------------------------------------------- helpers

    def fields(self, s: Stmt, where: str) -> Fields:
        return Fields(s.block, self.diags, where, s.span)

    def decl_name(self, s: Stmt, usage: str) -> str:
        """The declared name: the first argument of `KEY NAME …`."""
        if s.name is None:
            self.diags.error("E204", f"`{s.key}` needs a name", s.span, f"write it as `{usage}`")
            return f"<{s.key}@{s.span.line}>"
        return s.name

    def no_extra(self, s: Stmt, n: int, usage: str) -> None:
        if len(s.args) > n:
            self.diags.error("E204", f"unexpected `{show(s.args[n])}` after `{s.key}`", s.args[n].span,
                             f"write it as `{usage}`")

    def need_block(self, s: Stmt, usage: str) -> bool:
        if s.block is None:
            self.diags.error("E205", f"`{s.key}` needs a `{{ … }}` block", s.span, f"write it as `{usage}`")
            return False
        return True

    # ---------------------------------------------------------------- entry

    def build(self, stmts: tuple[Stmt, ...]) -> ir.RuleSet | None:
        top = Fields(stmts, self.diags, "the file", stmts[0].span if stmts else file_span(self.file))
        variants = top.all("variant")
        if len(variants) != 1:
            span = variants[1].span if len(variants) > 1 else file_span(self.file)
            self.diags.error("E206", "a rule file must contain exactly one `variant` block"
                             + (f" (found {len(variants)})" if variants else ""), span,
                             'start the file with `variant ID "名称" { … }`')
        variant = self.variant(variants[0]) if variants else ir.Variant("unknown", "unknown",
                                                                       span=file_span(self.file))
        tiles_stmts = top.all("tiles")
        if not tiles_stmts:
            self.diags.error("E203", "the file needs a `tiles { … }` block", file_span(self.file))
        elif len(tiles_stmts) > 1:
            self.diags.error("E202", "`tiles` is given more than once", tiles_stmts[1].span)
        tiles = self.tiles(tiles_stmts[0]) if tiles_stmts else ir.Tiles((), (), ())
        table_stmts = top.all("table")
        if not table_stmts:
            self.diags.error("E203", "the file needs a `table { … }` block", file_span(self.file))
        elif len(table_stmts) > 1:
            self.diags.error("E202", "`table` is given more than once", table_stmts[1].span)
        table = self.table(table_stmts[0]) if table_stmts else ir.Table(E.Num("0"), 0)

        scores = top.all("score")
        if len(scores) > 1:
            self.diags.error("E202", "`score` is given more than once", scores[1].span)
        priorities = top.all("priority")
        if len(priorities) > 1:
            self.diags.error("E202", "`priority` is given more than once", priorities[1].span)

        self.functions = tuple(f for f in (build_function(s, self.diags) for s in top.all("def")) if f)
        rs = ir.RuleSet(
            variant=variant,
            tiles=tiles,
            table=table,
            settings=tuple(self.setting(s) for s in top.all("option") + top.all("context")),
            reveals=tuple(self.reveal(s) for s in top.all("reveal")),
            wilds=tuple(self.wild(s) for s in top.all("wild")),
            standins=tuple(self.standin(s) for s in top.all("standin")),
            melds=tuple(self.meld(s) for s in top.all("meld")),
            forms=tuple(self.win(s) for s in top.all("win")),
            requires=tuple(self.require(s) for s in top.all("require")),
            units=tuple(self.unit(s) for s in top.all("unit")),
            patterns=tuple(self.pattern(s) for s in top.all("pattern")),
            combines=tuple(self.combine(s) for s in top.all("combine")),
            quantities=tuple(self.quantity(s) for s in top.all("quantity")),
            score=self.score(scores[0]) if scores else None,
            payments=tuple(self.payment(s) for s in top.all("payment")),
            fees=tuple(self.fee(s) for s in top.all("fee")),
            caps=tuple(self.cap(s) for s in top.all("cap")),
            tasks=tuple(self.task(s) for s in top.all("task")),
            states=tuple(self.state(s) for s in top.all("state")),
            phases=tuple(self.phase(s) for s in top.all("phase")),
            actions=tuple(self.action(s) for s in top.all("action")),
            priority=self.priority(priorities[0]) if priorities else (),
            hooks=tuple(self.hook(s) for s in top.all("on")),
            restricts=tuple(self.restrict(s) for s in top.all("restrict")),
            observes=tuple(self.observe(s) for s in top.all("observe")),
            examples=tuple(self.example(s, named=True) for s in top.all("example")),
            sections=tuple(self.section(s) for s in top.all("section")),
            source=self.file,
            priority_span=priorities[0].span if priorities else file_span(self.file),
        )
        top.finish()
        return rs

    # ---------------------------------------------------------------- variant and tiles

    def variant(self, s: Stmt) -> ir.Variant:
        usage = 'variant ID "名称" { … }'
        vid = self.decl_name(s, usage)
        title = vid
        if len(s.args) >= 2 and s.args[1].kind == "string":
            title = str(s.args[1].value)
        elif len(s.args) >= 2:
            self.diags.error("E204", "the variant's title must be a string", s.args[1].span, usage)
        self.no_extra(s, 2, usage)
        f = self.fields(s, "`variant`")
        self.plain_stmt(s, block=True)
        out = ir.Variant(vid, title, seed=f.string("seed"), span=s.span, **f.docs())
        f.finish()
        return out

    def plain_stmt(self, s: Stmt, *, block=False, expr=False, cond=False) -> None:
        Fields(None, self.diags, "", s.span).plain(s, allow_expr=expr, allow_cond=cond, allow_block=block)

    def section(self, s: Stmt) -> ir.Section:
        usage = 'section NAME "标题" { doc "…" }'
        name = self.decl_name(s, usage)
        title = name
        if len(s.args) >= 2 and s.args[1].kind == "string":
            title = str(s.args[1].value)
        self.no_extra(s, 2, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`section {name}`")
        out = ir.Section(name, title, span=s.span, **f.docs())
        f.finish()
        return out
