"""The builders of what a reading is scored by (statements -> IR): winning forms, requirements, units,
patterns, combines, quantities, the score, examples."""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.ir.span import NO_SPAN, Span
from .fields import Fields, arg_to_expr, flatten
from .syntax import Stmt


class ReadingBuilders:
    """Builders of what a reading is scored by: winning forms, requirements, units, patterns, combines,
    quantities, the score, examples (a mixin of `Builder`, dsl/build.py)."""

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
