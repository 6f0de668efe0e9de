"""Statements -> IR. One builder per block kind; each reads only the keys it knows (dsl/fields.py).

Name resolution and type checking of expressions happen afterwards, in dsl/checker.py, once every
declaration is known.
"""

from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.ir.span import NO_SPAN, Span
from ..runtime.limits import MAX_KINDS
from .diagnostics import Diagnostics
from .fields import Fields, arg_to_expr, flatten
from .syntax import Stmt

TOP_LEVEL = ("variant", "tiles", "table", "option", "context", "reveal", "wild", "standin", "meld", "win",
             "require", "unit", "pattern", "combine", "quantity", "score", "payment", "fee", "cap", "task",
             "state", "phase", "action", "priority", "on", "restrict", "observe", "example", "section")


class Builder:
    def __init__(self, diags: Diagnostics, file: str):
        self.diags = diags
        self.file = file

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
            self.diags.error("E204", f"unexpected `{_show(s.args[n])}` after `{s.key}`", s.args[n].span,
                             f"write it as `{usage}`")

    def need_block(self, s: Stmt, usage: str) -> bool:
        if s.block is None:
            self.diags.error("E205", f"`{s.key}` needs a `{{ … }}` block", s.span, f"write it as `{usage}`")
            return False
        return True

    # ---------------------------------------------------------------- entry

    def build(self, stmts: tuple[Stmt, ...]) -> ir.RuleSet | None:
        top = Fields(stmts, self.diags, "the file", stmts[0].span if stmts else _file_span(self.file))
        variants = top.all("variant")
        if len(variants) != 1:
            span = variants[1].span if len(variants) > 1 else _file_span(self.file)
            self.diags.error("E206", "a rule file must contain exactly one `variant` block"
                             + (f" (found {len(variants)})" if variants else ""), span,
                             'start the file with `variant ID "名称" { … }`')
        variant = self.variant(variants[0]) if variants else ir.Variant("unknown", "unknown",
                                                                       span=_file_span(self.file))
        tiles_stmts = top.all("tiles")
        if not tiles_stmts:
            self.diags.error("E203", "the file needs a `tiles { … }` block", _file_span(self.file))
        elif len(tiles_stmts) > 1:
            self.diags.error("E202", "`tiles` is given more than once", tiles_stmts[1].span)
        tiles = self.tiles(tiles_stmts[0]) if tiles_stmts else ir.Tiles((), (), ())
        table_stmts = top.all("table")
        if not table_stmts:
            self.diags.error("E203", "the file needs a `table { … }` block", _file_span(self.file))
        elif len(table_stmts) > 1:
            self.diags.error("E202", "`table` is given more than once", table_stmts[1].span)
        table = self.table(table_stmts[0]) if table_stmts else ir.Table(E.Num("0"), 0)

        scores = top.all("score")
        if len(scores) > 1:
            self.diags.error("E202", "`score` is given more than once", scores[1].span)
        priorities = top.all("priority")
        if len(priorities) > 1:
            self.diags.error("E202", "`priority` is given more than once", priorities[1].span)

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
            priority_span=priorities[0].span if priorities else _file_span(self.file),
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

    def tiles(self, s: Stmt) -> ir.Tiles:
        self.no_extra(s, 0, "tiles { … }")
        self.plain_stmt(s, block=True)
        f = self.fields(s, "`tiles`")
        suits: list[ir.Suit] = []
        kinds: list[ir.TileKind] = []
        for st in f.all("suit"):
            suit = self.suit(st)
            suits.append(suit)
            kinds.extend(expand_suit(suit))
        for key, category in (("honor", "honor"), ("flower", "flower"), ("joker", "joker")):
            for st in f.all(key):
                kinds.append(self.single_tile(st, category))
        # keep declaration order across kinds of statements
        order = {id(st): i for i, st in enumerate(s.block or ())}
        attrs = []
        for st in f.all("attr"):
            name = self.decl_name(st, "attr NAME = EXPR")
            self.no_extra(st, 1, "attr NAME = EXPR")
            self.plain_stmt(st, expr=True)
            if st.expr is None:
                self.diags.error("E207", f"`attr {name}` needs `= expression` over the tile `t`", st.span)
                continue
            attrs.append(ir.AttrDef(name, st.expr, span=st.span))
        del order
        inks = []
        usage = "ink red 红"
        for st in f.all("ink"):
            self.plain_stmt(st)
            if len(st.args) != 2 or any(a.kind != "name" for a in st.args):
                f.bad(st, usage, "`ink` takes a colour and a tile attribute")
                continue
            colour, attr = (str(a.value) for a in st.args)
            if colour not in ir.INK_COLOURS:
                self.diags.error("E204", f"`ink` colour must be one of: {', '.join(ir.INK_COLOURS)}",
                                 st.args[0].span)
                continue
            inks.append(ir.Ink(colour, attr, span=st.span))
        out = ir.Tiles(tuple(suits), tuple(kinds), tuple(attrs), tuple(inks), span=s.span, **f.docs())
        f.finish()
        return out

    def suit(self, s: Stmt) -> ir.Suit:
        usage = 'suit 万 { code "m"; ranks 1..9; copies 4 }'
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`suit {name}`")
        rng = f.range("ranks", "ranks 1..9", required=True) or (1, 1)
        if rng[1] - rng[0] + 1 > MAX_KINDS:  # refused before the suit is expanded into one kind per rank
            st = f.one("ranks")
            self.diags.error("E706", f"a suit of {rng[1] - rng[0] + 1:,} ranks; the limit is {MAX_KINDS} tile kinds",
                             st.args[0].span if st and st.args else s.span)
            rng = (rng[0], rng[0])
        copies = f.expr("copies", usage="copies 4") or E.Num("4")
        names_text = f.string("names")
        names = tuple(names_text.split()) if names_text else ()
        chars = f.string("chars")
        glyphs = f.string("glyphs")
        count = rng[1] - rng[0] + 1
        for key, seq in (("names", names), ("chars", chars), ("glyphs", glyphs)):
            if seq and len(seq) != count:
                st = f.one(key)
                self.diags.error("E402", f"`{key}` gives {len(seq)} entries for {count} ranks",
                                 st.args[0].span if st and st.args else s.span)
        out = ir.Suit(name, rng[0], rng[1], copies, code=f.string("code"), chars=chars if len(chars) == count
                      else "", names=names if len(names) == count else (),
                      glyphs=glyphs if len(glyphs) == count else "",
                      attrs=tuple(n for n, _ in f.names("attrs")), enabled=f.expr("enabled"),
                      span=s.span, **f.docs())
        f.finish()
        return out

    def single_tile(self, s: Stmt, category: str) -> ir.TileKind:
        usage = f'{s.key} NAME {{ copies 4; glyph "…" }}'
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`{s.key} {name}`")
        default_copies = "1" if category == "flower" else "4"
        copies = f.expr("copies", usage="copies 4") or E.Num(default_copies)
        char = f.string("char") or (name if len(name) == 1 else "")
        flower_class = f.name("class") if category == "flower" else ""
        out = ir.TileKind(name, category, copies, code=f.string("code"), char=char, glyph=f.string("glyph"),
                          attrs=tuple(n for n, _ in f.names("attrs")), flower_class=flower_class,
                          enabled=f.expr("enabled"), span=s.span, **f.docs())
        f.finish()
        return out

    # ---------------------------------------------------------------- settings, table, reveals

    def setting(self, s: Stmt) -> ir.Setting:
        usage = f"{s.key} NAME TYPE = DEFAULT"
        name = self.decl_name(s, usage)
        typ = "bool"
        if len(s.args) < 2 or s.args[1].kind != "name":
            self.diags.error("E204", f"`{s.key} {name}` needs a type ({', '.join(V.SETTING_TYPES)})",
                             s.span, f"write it as `{usage}`")
        else:
            typ = str(s.args[1].value)
            if typ not in V.SETTING_TYPES:
                self.diags.error("E204", f"unknown type `{typ}`; use one of {', '.join(V.SETTING_TYPES)}",
                                 s.args[1].span)
                typ = "bool"
        self.no_extra(s, 2, usage)
        self.plain_stmt(s, block=True, expr=True)
        default = s.expr
        if default is None:
            default = {"bool": E.Bool(False), "int": E.Num("0"), "num": E.Num("0")}.get(typ, E.NoneLit())
            default = _respan(default, s.span)
        f = self.fields(s, f"`{s.key} {name}`")
        values = []
        vs = f.one("values")
        if vs is not None:
            f.plain(vs)
            for a in flatten(vs.args):
                e = arg_to_expr(a)
                if e is None:
                    f.bad(vs, "values [2, 3, 4]")
                else:
                    values.append(e)
        out = ir.Setting(name, s.key, typ, default, tuple(values), f.range("range"), span=s.span, **f.docs())
        f.finish()
        return out

    def table(self, s: Stmt) -> ir.Table:
        self.no_extra(s, 0, "table { … }")
        self.plain_stmt(s, block=True)
        f = self.fields(s, "`table`")
        out = ir.Table(
            players=f.expr("players", required=True, usage="players 4") or E.Num("4"),
            hand=f.int("hand", 13, "hand 13", required=True, lo=1, hi=40),
            dealer_extra=f.int("dealer_extra", 1, lo=0, hi=4),
            first_dealer=f.name("first_dealer", "random", words=V.FIRST_DEALER),
            rotation=f.name("rotation", "counter_clockwise", words=V.ROTATION),
            next_dealer=f.expr("next_dealer"),
            exhaust_at=f.int("exhaust_at", 0, lo=0),
            replacement=f.name("replacement", "tail", words=V.WALL_ENDS),
            span=s.span, **f.docs())
        f.finish()
        return out

    def reveal(self, s: Stmt) -> ir.Reveal:
        usage = "reveal NAME { from tail }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`reveal {name}`")
        out = ir.Reveal(name, source=f.name("from", "tail", words=V.WALL_ENDS), offset=f.int("offset", 0, lo=0),
                        skip=f.name("skip"), removes_copy=f.bool("removes_copy"),
                        visible=f.bool("visible", True), moves_when=f.expr("moves_when"),
                        at=f.name("at", "deal", words=V.REVEAL_AT), unless=f.expr("unless"),
                        span=s.span, **f.docs())
        f.finish()
        return out

    def wild(self, s: Stmt) -> ir.Wild:
        usage = "wild NAME { tiles 王 }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`wild {name}`")
        out = ir.Wild(name, tiles=f.name("tiles", name, "tiles 王"), except_attr=f.name("except"),
                      no_meld=tuple(n for n, _ in f.names("no_meld")),
                      scope=f.name("scope", "hand", words=V.WILD_SCOPES), active=f.expr("active"),
                      no_action=tuple(n for n, _ in f.names("no_action")),
                      span=s.span, **f.docs())
        f.finish()
        return out

    def standin(self, s: Stmt) -> ir.Standin:
        usage = "standin TILE { plays = REVEAL }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`standin {name}`")
        out = ir.Standin(name, f.expr("plays", required=True, usage="plays = REVEAL") or E.NoneLit(),
                         unless=f.expr("unless"), span=s.span, **f.docs())
        f.finish()
        return out

    # ---------------------------------------------------------------- melds and forms

    def meld(self, s: Stmt) -> ir.MeldKind:
        usage = "meld 碰 { shape same 3; exposed true }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`meld {name}`")
        shape = self.shape(f)
        values = self.values(f)
        out = ir.MeldKind(name, shape, hand=f.bool("hand"), pair=f.bool("pair"), exposed=f.bool("exposed"),
                          kong=f.bool("kong"), upgrades=tuple(n for n, _ in f.names("upgrades")),
                          shown=f.int("shown", None, lo=0, hi=8), values=values, span=s.span,
                          **self.grows(f), **f.docs())
        f.finish()
        return out

    def grows(self, f: Fields) -> dict:
        """`grows true` (one further tile) or `grows N` (up to N further tiles, one at a time)."""
        s = f.one("grows")
        if s is None:
            return {}
        f.plain(s)
        a = s.args
        if len(a) == 1 and a[0].kind == "number":
            n = f.check_int(a[0], 1, 1, 32)
            return {"grows": True, "grow_limit": n}
        if not a or (len(a) == 1 and a[0].kind == "bool"):
            return {"grows": bool(a[0].value) if a else True}
        f.bad(s, "grows true | grows 3")
        return {}

    def shape(self, f: Fields) -> ir.Shape:
        usage = "shape run 3 | same 3 | ranks [1, 2, 3] | tiles 'TILES' | same_rank 3 mixed"
        s = f.one("shape", required=True, usage="shape same 3")
        if s is None:
            return ir.Shape("same", 3)
        f.plain(s)
        a = s.args
        kind = str(a[0].value) if a and a[0].kind == "name" else ""
        if kind in ("run", "same") and len(a) == 2 and a[1].kind == "number":
            size = f.check_int(a[1], 3, 1, 8)
            return ir.Shape(kind, size, span=s.span)
        if kind == "same_rank" and len(a) in (2, 3) and a[1].kind == "number":
            mixed = len(a) == 3 and a[2].kind == "name" and a[2].value == "mixed"
            if len(a) == 3 and not mixed:
                f.bad(s, usage)
            return ir.Shape(kind, f.check_int(a[1], 3, 1, 8), mixed=mixed, span=s.span)
        if kind == "ranks" and len(a) == 2 and a[1].kind == "list":
            ranks = [f.check_int(x, 0) if x.kind == "number" else None for x in a[1].value]  # type: ignore
            if any(r is None for r in ranks):
                f.bad(s, "shape ranks [1, 2, 3]")
                ranks = []
            return ir.Shape(kind, len(ranks), ranks=tuple(ranks), span=s.span)  # type: ignore[arg-type]
        if kind == "tiles" and len(a) == 2 and a[1].kind == "tiles":
            # the tile names are filled in by the checker, which knows the notation
            return ir.Shape(kind, 0, tiles=(str(a[1].value),), tiles_span=a[1].span, span=s.span)
        if kind and kind not in V.SHAPE_KINDS:
            self.diags.error("E204", f"unknown shape `{kind}`; use one of {', '.join(V.SHAPE_KINDS)}",
                             a[0].span)
        else:
            f.bad(s, usage)
        return ir.Shape("same", 3, span=s.span)

    def values(self, f: Fields) -> tuple[ir.SuitValue, ...]:
        s = f.one("value")
        if s is None:
            return ()
        f.plain(s, allow_expr=True)
        if s.expr is not None and not s.args:
            return (ir.SuitValue("", s.expr, span=s.span),)
        a = s.args
        if len(a) == 1 and a[0].kind == "number":
            return (ir.SuitValue("", arg_to_expr(a[0]), span=s.span),)  # type: ignore[arg-type]
        if a and len(a) % 2 == 0 and all(x.kind == "name" for x in a[0::2]) and all(
                x.kind == "number" for x in a[1::2]):
            return tuple(ir.SuitValue(str(n.value), arg_to_expr(v), span=n.span)  # type: ignore[arg-type]
                         for n, v in zip(a[0::2], a[1::2]))
        f.bad(s, "value 3   or   value 小 3 大 6")
        return ()

    def win(self, s: Stmt) -> ir.WinForm:
        usage = "win NAME { melds 4; pairs 1 }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`win {name}`")
        out = ir.WinForm(name, melds=f.int("melds", None, lo=0, hi=10),
                         pairs=f.range("pairs", "pairs 1", lo_bound=0, hi_bound=20),
                         groups=f.int("groups", None, lo=1, hi=12), pair_when=f.expr("pair_when"),
                         orphans=f.name("orphans"), concealed=f.bool("concealed"), instant=f.expr("instant"),
                         tiles=f.int("tiles", None, lo=1, hi=40), standins=f.bool("standins", True),
                         span=s.span, **f.docs())
        if out.melds is None and out.pairs is None and out.groups is None and not out.orphans and \
                out.instant is None:
            self.diags.error("E203", f"`win {name}` says nothing about what the hand is made of", s.span,
                             "add `melds N`, `pairs N`, `groups N`, `orphans SET` or `instant = …`")
        f.finish()
        return out

    def require(self, s: Stmt) -> ir.Requirement:
        usage = "require NAME = EXPR { reason \"…\" }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True, expr=True)
        if s.expr is None:
            self.diags.error("E207", f"`require {name}` needs `= condition`", s.span, f"write it as `{usage}`")
        f = self.fields(s, f"`require {name}`")
        out = ir.Requirement(name, s.expr or E.Bool(True), unless=f.expr("unless"),
                             forms=tuple(n for n, _ in f.names("forms")), reason=f.string("reason"),
                             decides_waits=f.bool("waits", True), span=s.span, **f.docs())
        f.finish()
        return out

    # ---------------------------------------------------------------- patterns and scoring

    def unit(self, s: Stmt) -> ir.Unit:
        usage = "unit 番 sum"
        name = self.decl_name(s, usage)
        how = "sum"
        if len(s.args) != 2 or s.args[1].kind != "name" or s.args[1].value not in V.UNIT_COMBINE:
            self.diags.error("E204", f"`unit {name}` needs how values combine: sum, product or max",
                             s.args[1].span if len(s.args) > 1 else s.span, f"write it as `{usage}`")
        else:
            how = str(s.args[1].value)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`unit {name}`")
        out = ir.Unit(name, how, span=s.span, **f.docs())
        f.finish()
        return out

    def pattern(self, s: Stmt) -> ir.Pattern:
        usage = "pattern NAME { value 6 番; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`pattern {name}`")
        value, unit = self.pattern_value(f, name)
        excludes = []
        for st in f.all("excludes"):
            f.plain(st)
            args = list(flatten(st.args))
            i = 0
            while i < len(args):
                a = args[i]
                if a.kind != "name":
                    f.bad(st, "excludes A B 3 C", f"`excludes` takes pattern names, not {a.describe()}")
                    i += 1
                    continue
                dec = None
                if i + 1 < len(args) and args[i + 1].kind == "number":
                    dec = f.check_int(args[i + 1], None, 1, 16)
                    i += 1
                excludes.append(ir.Exclusion(str(a.value), dec, span=a.span))
                i += 1
        when = f.cond("when")
        count = f.expr("count")
        if when is None and count is None:
            self.diags.error("E203", f"`pattern {name}` needs `when …` or `count = …`", s.span)
        out = ir.Pattern(name, value, unit, when=when, count=count, excludes=tuple(excludes),
                         group=f.string("group"), label=f.string("label"), enabled=f.expr("enabled"),
                         examples=tuple(self.example(x) for x in f.all("example")),
                         counterexamples=tuple(self.example(x) for x in f.all("counterexample")),
                         label_span=next((st.args[0].span for st in f.all("label") if st.args), s.span),
                         span=s.span, **f.docs())
        f.finish()
        return out

    def pattern_value(self, f: Fields, name: str) -> tuple[E.Expr, str]:
        usage = "value 6 番   or   value = EXPR  with  unit 番"
        s = f.one("value", required=True, usage="value 6 番")
        unit_stmt = f.one("unit")
        unit = ""
        if unit_stmt is not None:
            f.plain(unit_stmt)
            if len(unit_stmt.args) == 1 and unit_stmt.args[0].kind == "name":
                unit = str(unit_stmt.args[0].value)
            else:
                f.bad(unit_stmt, "unit 番")
        if s is None:
            return E.Num("0"), unit
        f.plain(s, allow_expr=True)
        if s.expr is not None and not s.args:
            if not unit:
                self.diags.error("E203", f"`pattern {name}` has a computed value and needs `unit NAME`", s.span)
            return s.expr, unit
        a = s.args
        if len(a) == 2 and a[0].kind == "number" and a[1].kind == "name":
            if unit_stmt is not None:
                self.diags.error("E202", "the unit is given twice (in `value` and in `unit`)", unit_stmt.span)
            return arg_to_expr(a[0]), str(a[1].value)  # type: ignore[return-value]
        if len(a) == 1 and a[0].kind == "number" and unit:
            return arg_to_expr(a[0]), unit  # type: ignore[return-value]
        f.bad(s, usage)
        return E.Num("0"), unit or "?"

    def combine(self, s: Stmt) -> ir.Combine:
        usage = "combine NAME { patterns [A, B]; rule forest }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`combine {name}`")
        pats = tuple(n for n, _ in f.names("patterns"))
        if not pats:
            self.diags.error("E203", f"`combine {name}` needs `patterns [...]`", s.span)
        out = ir.Combine(name, pats, rule=f.name("rule", "forest", words=V.COMBINE_RULES),
                         distinct=f.bool("distinct", True), span=s.span, **f.docs())
        f.finish()
        return out

    def quantity(self, s: Stmt) -> ir.Quantity:
        usage = "quantity NAME = EXPR"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True, expr=True)
        if s.expr is None:
            self.diags.error("E207", f"`quantity {name}` needs `= expression`", s.span)
        f = self.fields(s, f"`quantity {name}`")
        out = ir.Quantity(name, s.expr or E.Num("0"), span=s.span, **f.docs())
        f.finish()
        return out

    def score(self, s: Stmt) -> ir.Score:
        self.no_extra(s, 0, "score = EXPR")
        self.plain_stmt(s, block=True, expr=True)
        if s.expr is None:
            self.diags.error("E207", "`score` needs `= expression`", s.span, "write it as `score = 番 * 倍`")
        f = self.fields(s, "`score`")
        out = ir.Score(s.expr or E.Num("0"), best=f.expr("best"), total=f.expr("total"), span=s.span, **f.docs())
        f.finish()
        return out

    def payment(self, s: Stmt) -> ir.Payment:
        usage = "payment NAME { on win; from each_loser; to winner; amount = score }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`payment {name}`")
        factors = []
        for st in f.all("factor"):
            f.plain(st, allow_cond=True, allow_expr=True)
            a = st.args
            if len(a) == 2 and a[0].kind == "name" and a[1].kind == "number" and st.expr is None:
                factors.append(ir.Factor(str(a[0].value), arg_to_expr(a[1]), st.cond, span=a[0].span))
            elif len(a) == 1 and a[0].kind == "name" and st.expr is not None:
                factors.append(ir.Factor(str(a[0].value), st.expr, st.cond, span=a[0].span))
            else:
                f.bad(st, "factor NAME 2 when payer == discarder")
        out = ir.Payment(name, on=self.event(f, "on", required=True), payer=f.name("from", "each_loser",
                         words=V.PAYERS), payee=f.name("to", "winner", words=V.PAYEES),
                         amount=f.expr("amount", required=True, usage="amount = score") or E.Num("0"),
                         factors=tuple(factors), when=f.cond("when"), after=tuple(n for n, _ in f.names("after")),
                         span=s.span, **f.docs())
        f.finish()
        return out

    def event(self, f: Fields, key: str, required=False) -> str:
        """Event names: the engine's own (vocab.EVENTS) or an event the rule file emits (checked later)."""
        return f.name(key, "", f"{key} discard", required=required)

    def fee(self, s: Stmt) -> ir.Fee:
        usage = "fee NAME = 0.0125"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True, expr=True)
        if s.expr is None:
            self.diags.error("E207", f"`fee {name}` needs `= rate`", s.span, f"write it as `{usage}`")
        f = self.fields(s, f"`fee {name}`")
        out = ir.Fee(name, s.expr or E.Num("0"), span=s.span, **f.docs())
        f.finish()
        return out

    def cap(self, s: Stmt) -> ir.Cap:
        usage = "cap balance"
        kind = self.decl_name(s, usage)
        if kind != "balance":
            self.diags.error("E204", f"unknown cap `{kind}`; the cap known is `balance`", s.span)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, "`cap`")
        out = ir.Cap(kind, of=f.name("of", "payer", words=V.CAP_OF), span=s.span, **f.docs())
        f.finish()
        return out

    def task(self, s: Stmt) -> ir.Task:
        usage = "task NAME { factor 6; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`task {name}`")
        when = f.cond("when")
        if when is None:
            self.diags.error("E203", f"`task {name}` needs `when …`", s.span)
        out = ir.Task(name, f.expr("factor", required=True, usage="factor 6") or E.Num("1"),
                      when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    # ---------------------------------------------------------------- game flow

    def state(self, s: Stmt) -> ir.StateVar:
        usage = "state player NAME TYPE = INIT"
        a = s.args
        self.plain_stmt(s, block=True, expr=True)
        if len(a) != 3 or any(x.kind != "name" for x in a) or a[0].value not in V.SCOPES \
                or a[2].value not in V.STATE_TYPES:
            self.diags.error("E204", "a state needs a scope (player/table), a name and a type ("
                             + ", ".join(V.STATE_TYPES) + ")", a[0].span if a else s.span,
                             f"write it as `{usage}`")
            name = str(a[1].value) if len(a) > 1 else f"<state@{s.span.line}>"
            return ir.StateVar(name, "player", "bool", E.Bool(False), span=s.span)
        scope, name, typ = (str(x.value) for x in a)
        init = s.expr or _respan({"bool": E.Bool(False), "int": E.Num("0"), "num": E.Num("0"),
                                  "tiles": E.ListLit(())}.get(typ, E.NoneLit()), s.span)
        f = self.fields(s, f"`state {name}`")
        out = ir.StateVar(name, scope, typ, init, lives=f.name("lives", "hand", words=V.LIFETIMES),
                          span=a[1].span, **f.docs())
        f.finish()
        return out

    def triggers(self, f: Fields, key: str) -> tuple[ir.Trigger, ...]:
        out = []
        for st in f.all(key):
            f.plain(st, allow_expr=True)
            if len(st.args) != 1 or st.args[0].kind != "name":
                f.bad(st, f"{key} discard = CONDITION")
                continue
            out.append(ir.Trigger(str(st.args[0].value), st.expr, span=st.args[0].span))
        return tuple(out)

    def phase(self, s: Stmt) -> ir.Phase:
        usage = "phase NAME { scope player; enter discard = …; leave discard = … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`phase {name}`")
        out = ir.Phase(name, f.name("scope", "player", words=V.SCOPES), enter=self.triggers(f, "enter"),
                       leave=self.triggers(f, "leave"), level=f.int("level", 0, lo=0),
                       span=s.span, **f.docs())
        f.finish()
        return out

    def effects(self, f: Fields, key: str) -> tuple[ir.Effect, ...]:
        out: list[ir.Effect] = []
        for st in f.all(key):
            f.plain(st, allow_block=True)
            if not self.need_block(st, f"{key} {{ set actor.NAME = … }}"):
                continue
            out.extend(self.effect_block(st))
        return tuple(out)

    def effect_block(self, st: Stmt) -> list[ir.Effect]:
        out = []
        for e in st.block or ():
            if e.key not in V.EFFECT_OPS:
                self.diags.error("E201", f"unknown effect `{e.key}`; effects are: " + ", ".join(V.EFFECT_OPS),
                                 e.span)
                continue
            self.plain_stmt(e, expr=e.key in ("set", "add", "remove"))
            if len(e.args) != 1 or e.args[0].kind not in ("name", "dotted"):
                self.diags.error("E204", f"`{e.key}` needs one target name", e.span,
                                 f"write it as `{e.key} actor.NAME" + (" = …`" if e.key != "clear" else "`"))
                continue
            target = e.args[0].value if e.args[0].kind == "dotted" else (e.args[0].value,)
            if e.key in ("set", "add", "remove") and e.expr is None:
                self.diags.error("E207", f"`{e.key}` needs `= expression`", e.span)
                continue
            out.append(ir.Effect(e.key, tuple(target), e.expr, span=e.args[0].span))  # type: ignore[arg-type]
        return out

    def action(self, s: Stmt) -> ir.Action:
        usage = "action 碰 { on discard; by others; forms 碰; then discard }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`action {name}`")
        choices = []
        choice_when = None
        cs = f.one("choices")
        if cs is not None:
            f.plain(cs, allow_cond=True)
            choice_when = cs.cond
            for a in flatten(cs.args):
                e = arg_to_expr(a)
                if e is None:
                    f.bad(cs, "choices [2, 4, 8]")
                else:
                    choices.append(e)
        events = self.events(f)
        win_forms: tuple[str, ...] = ()
        wins = False
        ws = f.one("wins")
        if ws is not None:
            f.plain(ws)
            if len(ws.args) == 1 and ws.args[0].kind == "bool":
                wins = bool(ws.args[0].value)
            elif ws.args and all(a.kind == "name" for a in flatten(ws.args)):
                wins, win_forms = True, tuple(str(a.value) for a in flatten(ws.args))
            else:
                f.bad(ws, "wins true   or   wins [FORM, FORM]")
        out = ir.Action(name, on=events[0] if events else "", also_on=tuple(events[1:]),
                        by=f.name("by", "self", words=V.WHO), forms=tuple(n for n, _ in f.names("forms")),
                        then=f.name("then", "none", words=V.THEN), compulsory=f.bool("compulsory"),
                        when=f.cond("when"), effects=self.effects(f, "effect"), decline=self.effects(f, "decline"),
                        choices=tuple(choices), choice_when=choice_when, instead_of=f.name("instead_of"),
                        wins=wins, win_forms=win_forms, win_tile=f.name("win_tile", "", words=V.WIN_TILE),
                        order=f.name("order", "seat", words=V.ORDER), multiple=f.bool("multiple", True),
                        follow=tuple(n for n, _ in f.names("follow")), ready=f.bool("ready"),
                        grow=f.name("grow", "any", words=V.GROW), span=s.span,
                        **f.docs())
        f.finish()
        return out

    def events(self, f: Fields) -> list[str]:
        """`on discard` or `on [reveal, discard]`."""
        st = f.one("on")
        if st is None:
            return []
        f.plain(st)
        names = [a for a in flatten(st.args)]
        if not names or any(a.kind != "name" for a in names):
            f.bad(st, "on discard   or   on [reveal, discard]")
            return []
        return [str(a.value) for a in names]

    def restrict(self, s: Stmt) -> ir.Restrict:
        usage = "restrict NAME { actions [discard]; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`restrict {name}`")
        actions = tuple(n for n, _ in f.names("actions"))
        when = f.cond("when")
        if not actions:
            self.diags.error("E203", f"`restrict {name}` needs `actions [...]`", s.span)
        if when is None:
            self.diags.error("E203", f"`restrict {name}` needs `when …`", s.span)
        out = ir.Restrict(name, actions, when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    def observe(self, s: Stmt) -> ir.Observe:
        usage = "observe NAME { what hand; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`observe {name}`")
        what = f.name("what", "hand", "what hand", required=True, words=V.OBSERVE_WHAT)
        when = f.cond("when")
        if when is None:
            self.diags.error("E203", f"`observe {name}` needs `when …`", s.span)
        out = ir.Observe(name, what, when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    def priority(self, s: Stmt) -> tuple[tuple[str, ...], ...]:
        self.plain_stmt(s)
        usage = "priority [A, [B, C], D]"
        if len(s.args) != 1 or s.args[0].kind != "list":
            self.diags.error("E204", "`priority` takes one list of action names, highest first", s.span,
                             f"write it as `{usage}`")
            return ()
        levels = []
        for a in s.args[0].value:  # type: ignore[union-attr]
            if a.kind == "name":
                levels.append((str(a.value),))
            elif a.kind == "list" and all(x.kind == "name" for x in a.value):
                levels.append(tuple(str(x.value) for x in a.value))
            else:
                self.diags.error("E204", "`priority` levels are action names or lists of them", a.span, usage)
        return tuple(levels)

    def hook(self, s: Stmt) -> ir.Hook:
        usage = "on discard { when …; set table.NAME = … }"
        event = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        if not self.need_block(s, usage):
            return ir.Hook(event, span=s.span)
        when = None
        docs = {"doc": "", "notes": ()}
        body = []
        for st in s.block or ():
            if st.key == "when":
                when = st.expr
            elif st.key in ("doc", "note"):
                body.append(st)
        f = Fields(tuple(body), self.diags, f"`on {event}`", s.span)
        docs = f.docs()
        f.finish()
        effects = self.effect_block(Stmt("effect", (), None, None, tuple(
            st for st in s.block or () if st.key not in ("when", "doc", "note")), s.span))
        return ir.Hook(event, when, tuple(effects), span=s.span, **docs)

    # ---------------------------------------------------------------- examples and sections

    def example(self, s: Stmt, named: bool = False) -> ir.Example:
        usage = "example { hand '…'; win '…' }"
        name = ""
        if named:
            name = self.decl_name(s, "example NAME { hand '…'; win '…'; expect score 96 }")
            self.no_extra(s, 1, usage)
        else:
            self.no_extra(s, 0, usage)
        self.plain_stmt(s, block=True)
        if not self.need_block(s, usage):
            return ir.Example(name, span=s.span)
        f = self.fields(s, f"`{s.key}`")
        hand, hand_span = self.tiles_arg(f, "hand", required=True)
        win, win_span = self.tiles_arg(f, "win")
        melds, meld_spans = [], []
        for st in f.all("meld"):
            f.plain(st)
            if len(st.args) == 2 and st.args[0].kind == "name" and st.args[1].kind == "tiles":
                melds.append((str(st.args[0].value), str(st.args[1].value)))
                meld_spans.append(st.args[1].span)
            else:
                f.bad(st, "meld 碰 '555m'")
        sets = []
        for st in f.all("set"):
            f.plain(st, allow_expr=True)
            if len(st.args) == 1 and st.args[0].kind == "name" and st.expr is not None:
                sets.append((str(st.args[0].value), st.expr))
            else:
                f.bad(st, "set NAME = 3")
        expects = []
        for st in f.all("expect"):
            f.plain(st)
            a = st.args
            if len(a) == 2 and a[0].kind == "name":
                e = arg_to_expr(a[1])
                if e is not None:
                    expects.append((str(a[0].value), e))
                    continue
            f.bad(st, "expect score 96")
        out = ir.Example(name, hand=hand, win=win, melds=tuple(melds), self_drawn=f.bool("self_drawn"),
                         sets=tuple(sets), expects=tuple(expects), hand_span=hand_span, win_span=win_span,
                         meld_spans=tuple(meld_spans), span=s.span, **f.docs())
        f.finish()
        return out

    def tiles_arg(self, f: Fields, key: str, required=False) -> tuple[str, Span]:
        """The tile literal given to `key`, and where it is written."""
        s = f.one(key, required, f"{key} '123m'")
        if s is None:
            return "", NO_SPAN
        f.plain(s)
        if len(s.args) != 1 or s.args[0].kind != "tiles":
            f.bad(s, f"{key} '123m'")
            return "", NO_SPAN
        return str(s.args[0].value), s.args[0].span

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


def expand_suit(suit: ir.Suit) -> list[ir.TileKind]:
    out = []
    for i, rank in enumerate(range(suit.lo, suit.hi + 1)):
        name = suit.names[i] if suit.names else f"{rank}{suit.name}"
        code = f"{rank}{suit.code}" if suit.code else ""
        char = suit.chars[i] if suit.chars else ""
        glyph = suit.glyphs[i] if suit.glyphs else ""
        out.append(ir.TileKind(name, "suited", suit.copies, suit=suit.name, rank=rank, code=code, char=char,
                               glyph=glyph, attrs=suit.attrs, enabled=suit.enabled, span=suit.span))
    return out


def _file_span(file: str):
    from ..runtime.ir.span import Span

    return Span(file, 1, 1)


def _respan(e: E.Expr, span) -> E.Expr:
    import dataclasses

    return dataclasses.replace(e, span=span)


def _show(a) -> str:
    return str(a.value) if a.kind in ("name", "number", "string") else a.describe()
