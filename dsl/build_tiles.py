"""The builders of the tile set and the table (statements -> IR): tiles, suits, settings, the table,
reveals, wildcards, stand-ins, meld kinds and their shapes."""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.limits import MAX_KINDS, MAX_TABLE_SIZE
from .build_support import expand_suit, respan
from .fields import Fields, arg_to_expr, flatten
from .syntax import Stmt


class TileBuilders:
    """Builders of the tile set and the table: tiles, suits, settings, table, reveals, wildcards, stand-ins,
    meld kinds (a mixin of `Builder`, dsl/build.py)."""

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
            default = respan(default, s.span)
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
            exhaust_word=self.exhaust_word(f),
            seat_names=self.seat_names(f),
            winners_leave=f.bool("winners_leave"),
            ends_when=f.expr("ends_when"),
            span=s.span, **f.docs())
        names = f.all("seat_names")
        if names and isinstance(out.players, E.Num) and out.players.text.isdigit() and \
                int(out.players.text) > len(out.seat_names) > 0:
            f.diags.error("E204", f"`seat_names` names {len(out.seat_names)} seats; the table has "
                          f"{out.players.text} players", names[0].span)
        f.finish()
        return out

    @staticmethod
    def seat_names(f) -> tuple[str, ...]:
        """`seat_names ["…", …]`: distinct words of 1 to 8 characters without spaces (printed inside
        sentences, as the exhaust word is), at most one a seat the language allows."""
        s = f.one("seat_names")
        if s is None:
            return ()
        f.plain(s)
        usage = '`seat_names` is a list of distinct words of 1 to 8 characters without spaces, e.g. ' \
                'seat_names ["甲", "乙"]'
        args = flatten(s.args)
        out: list[str] = []
        for a in args:
            word = str(a.value)
            if a.kind != "string" or not word or len(word) > 8 or any(c.isspace() for c in word) or word in out:
                f.diags.error("E204", usage, a.span)
                return ()
            out.append(word)
        if not out or len(out) > MAX_TABLE_SIZE:
            f.diags.error("E204", usage, s.span)
            return ()
        return tuple(out)

    @staticmethod
    def exhaust_word(f) -> str:
        """`exhaust_word "…"`: one word of at most 8 characters, no spaces (it is printed inside sentences)."""
        given = f.all("exhaust_word")
        word = f.string("exhaust_word", "流局")
        if given and (not word or len(word) > 8 or any(c.isspace() for c in word)):
            f.diags.error("E204", "`exhaust_word` is one word of 1 to 8 characters without spaces", given[0].span)
            return "流局"
        return word

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
