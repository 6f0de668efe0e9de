"""The chapters of a help page about winning and scoring: winning forms and requirements, patterns with
their values, labels and setting tables, scoring and settlement."""
from __future__ import annotations

import re

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from . import words as W
from .examples import ExampleView, value_text
from .page_data import Chapter, ExampleCheck, Fact, Item, PatternGroup, PatternView, Payment, SettingTable, Text
from .page_support import check_texts, is_condition, markup, result_text, sort_number

_MAX_TABLE = 16  # a setting with at most this many values gets a table of what each value does


class ScoringChapters:
    """The chapters of winning and scoring: winning forms, patterns with their values and tables,
    scoring and settlement (a mixin of `PageBuilder`, dsl/pages/variant.py)."""

    # ------------------------------------------------------------------ winning

    def form_facts(self, f: ir.WinForm) -> list[Fact]:
        parts = []
        if f.melds is not None:
            parts.append(f"{W.cn_number(f.melds)}副牌组")
        if f.groups is not None:
            parts.append(f"共{W.cn_number(f.groups)}组牌")
        if f.pairs is not None:
            lo, hi = f.pairs
            if lo == hi:
                parts.append(f"{W.cn_number(lo)}个对子" if f.melds is None and f.groups is None else
                             f"加{W.cn_number(lo)}对")
            elif lo == 0:
                parts.append(f"其中最多{W.cn_number(hi)}对")
            else:
                parts.append(f"其中{W.cn_number(lo)}至{W.cn_number(hi)}对")
        facts = []
        if parts:
            facts.append(Fact("组成", "".join(p if i == 0 or p.startswith("加") else "，" + p
                                              for i, p in enumerate(parts))))
        if f.orphans:
            facts.append(Fact("组成", f"「{f.orphans}」的牌每种一张，再加其中任意一张成对"))
        if f.pair_when is not None:
            c = self.w.both(f.pair_when, True)
            facts.append(Fact("对子", f"只有{c.text}时才可以有对子", markup("只有", c.html, "时才可以有对子")))
        if f.instant is not None:
            c = self.w.both(f.instant, True)
            facts.append(Fact("条件", f"只要{c.text}，不论其余的牌怎样都可以和",
                              markup("只要", c.html, "，不论其余的牌怎样都可以和")))
        if f.concealed:
            facts.append(Fact("门清", "不能有任何副露（吃、碰或亮在桌面的杠）"))
        if f.tiles is not None:
            facts.append(Fact("张数", f"手中有{f.tiles}张即可和"))
        if not getattr(f, "standins", True) and self.rs.standins:
            facts.append(Fact("替身", "这种形式里" + "、".join(f"「{s.name}」" for s in self.rs.standins)
                              + "不当作它所代替的牌"))
        return facts

    def winning(self) -> Chapter | None:
        rs = self.rs
        if not rs.forms and not rs.requires:
            return None
        forms = []
        for f in rs.forms:
            self.place("winning", f)
            forms.append(Item(f.name, self.form_facts(f), Text.of(f), anchor=f"form-{f.name}"))
        reqs = []
        for q in rs.requires:
            self.place("winning", q)
            c = self.w.both(q.expr, True)
            facts = [Fact("须满足", c.text, c.html)]
            if q.unless is not None:
                u = self.w.both(q.unless, True)
                facts.append(Fact("例外", f"{u.text}时不受此限", markup("", u.html, "时不受此限")))
            if q.forms:
                facts.append(Fact("适用于", "、".join(q.forms)))
            if q.reason:
                facts.append(Fact("不满足时", q.reason))
            if not q.decides_waits:
                facts.append(Fact("所听的牌", "不受此限：只管怎样胡到这张牌，不影响听哪些牌"))
            reqs.append(Item(q.name, facts, Text.of(q), anchor=f"require-{q.name}"))
        return Chapter("winning", "和牌", {"forms": forms, "requires": reqs})

    # ------------------------------------------------------------------ patterns

    def pattern_value(self, p: ir.Pattern) -> tuple[str, str, object]:
        """(shown value, note, default value) of a pattern."""
        combine = self.units.get(p.unit, "sum")
        if isinstance(p.value, E.Num):
            v = self.eval_setup(p.value)
            return value_text(v, p.unit, combine), "", v
        v = self.eval_setup(p.value)
        note = self.setting_note(p.value)
        if v is not None and note:
            return value_text(v, p.unit, combine), note, v
        return f"{self.w.text(p.value)} {p.unit}", "", None

    def setting_domain(self, s: ir.Setting) -> list:
        if s.type != "int":
            return []
        if s.values:
            vals = [self.eval_setup(v) for v in s.values]
            return vals if len(vals) <= _MAX_TABLE else []
        if s.range and s.range[1] - s.range[0] + 1 <= _MAX_TABLE:
            return list(range(s.range[0], s.range[1] + 1))
        return []

    def score_factors(self) -> list[E.Expr]:
        out = []

        def split(e):
            if isinstance(e, E.Binary) and e.op == "*":
                split(e.left)
                split(e.right)
            else:
                out.append(e)
        if self.rs.score is not None:
            split(self.rs.score.expr)
        return out

    def setting_tables(self) -> tuple[dict[str, SettingTable], list[SettingTable]]:
        """Tables of what each value of a small int setting does: the patterns it names (label, value)
        and the factor of the score it is part of. Returns ({pattern: table}, tables for the score)."""
        from ...runtime.evaluate import compile_expr

        by_pattern: dict[str, SettingTable] = {}
        loose: list[SettingTable] = []
        factors = self.score_factors()
        for s in self.rs.settings:
            dom = self.setting_domain(s)
            if not dom:
                continue
            ref = f"{s.role}:{s.name}"

            def uses(e, ref=ref):
                return e is not None and any(isinstance(x, E.Name) and x.ref == ref for x in E.walk(e))
            pats = [p for p in self.rs.patterns if uses(p.value)]
            # factors of the score that depend on this setting alone
            fac = [f for f in factors if uses(f) and all(x.ref == ref for x in E.walk(f) if isinstance(x, E.Name))]
            if not pats and not fac:
                continue
            cols = [s.name]
            for p in pats:
                if p.label:
                    cols.append("名称")
                cols.append(p.unit)
            if fac:
                cols.append("得分倍数")
            rows = []
            for v in dom:
                env = {ref: v}
                row = [W.num(v)]
                present = False
                for p in pats:
                    on = True
                    if p.when is not None:
                        r = self.eval_setup(p.when, env)
                        on = r is None or bool(r)
                    if p.label:
                        row.append(self.label(p, env) if on else "")
                    val = self.eval_setup(p.value, env)
                    row.append(("+" + value_text(val, p.unit, self.units.get(p.unit, "sum"))) if on and val is not None
                               else "")
                    present |= on
                prod = 1
                for f in fac:
                    prod *= compile_expr(f)({ref: v, "tile-lookup": lambda n: None})
                if fac:
                    row.append(f"×{W.num(prod)}")
                if present or (fac and prod != 1):
                    rows.append(row)
            table = SettingTable(s.name, cols, rows)
            if pats:
                for p in pats:
                    by_pattern[p.name] = table
            else:
                loose.append(table)
        return by_pattern, loose

    def label_text(self, p: ir.Pattern) -> str:
        """A label with its {expressions} written out: 「X〈次数〉次」."""

        from ..checker import Checker, parse_expression
        from ..diagnostics import Diagnostics

        ch = Checker(self.rs, Diagnostics())
        ch.declare()

        def sub(m):
            e = parse_expression(m.group(1), p.span, Diagnostics())
            return f"〈{self.w.text(ch.res.check(e, 'reading', None))}〉" if e is not None else m.group(0)
        return re.sub(r"\{([^{}]*)\}", sub, p.label)

    def label(self, p: ir.Pattern, env: dict) -> str:

        from ...runtime.evaluate import compile_expr
        from ..checker import Checker, parse_expression
        from ..diagnostics import Diagnostics

        ch = Checker(self.rs, Diagnostics())
        ch.declare()
        out, pos = [], 0
        for m in re.finditer(r"\{([^{}]*)\}", p.label):
            out.append(p.label[pos:m.start()])
            e = parse_expression(m.group(1), p.span, Diagnostics())
            if e is not None:
                e = ch.res.check(e, "reading", None)
                try:
                    out.append(str(compile_expr(e)(dict(env, **{"tile-lookup": lambda n: None}))))
                except Exception:  # noqa: BLE001 — a label that needs the hand: keep the braces
                    out.append(m.group(0))
            pos = m.end()
        out.append(p.label[pos:])
        return "".join(out)

    def patterns(self) -> Chapter | None:
        rs = self.rs
        if not rs.patterns:
            return None
        for u in rs.units:
            self.place("patterns", u)
        for c in rs.combines:
            self.place("patterns", c)
        tables, loose = self.setting_tables()
        self.loose_tables = loose
        groups: dict[str, PatternGroup] = {}
        order_keys: dict[str, object] = {}
        any_group = any(p.group for p in rs.patterns)
        for p in rs.patterns:
            self.place("patterns", p)
            value, note, v = self.pattern_value(p)
            excl = [x.pattern if x.decrement is None else f"{x.pattern}（少计{x.decrement}次）" for x in p.excludes]
            enabled = ""
            if p.enabled is not None:
                enabled = (f"选了房间选项「{p.enabled.name}」时才有" if isinstance(p.enabled, E.Name)
                           else f"当{self.w.text(p.enabled, True)}时才有")
            exs = [self.example(ex, "example", p) for ex in p.examples]
            cexs = [self.example(ex, "counterexample", p) for ex in p.counterexamples]
            table = tables.get(p.name)
            label = "" if (table is not None or not p.label) else self.label_text(p)
            pv = PatternView(p.name, value, note, label, excl, enabled, Text.of(p), exs, cexs, table, f"p-{p.name}")
            key = p.group or value
            if key not in groups:
                groups[key] = PatternGroup(key, [])
                order_keys[key] = (0, 0) if any_group else (0, sort_number(v))
            groups[key].patterns.append(pv)
        ordered = list(groups.values())
        if not any_group:
            ordered.sort(key=lambda g: order_keys[g.title])
        units = [Item(u.name, [Fact("合计方式", W.UNIT_COMBINE.get(u.combine, u.combine))], Text.of(u))
                 for u in rs.units]
        combines = [Item(c.name, [Fact("适用于", "、".join(c.patterns))], Text.of(c)) for c in rs.combines]
        unit_names = "、".join(u.name for u in rs.units)
        return Chapter("patterns", f"牌型与{unit_names}" if unit_names else "牌型",
                       {"units": units, "groups": ordered, "combines": combines})

    def example(self, ex: ir.Example, role: str, p: ir.Pattern | None = None) -> ExampleView:
        view = self.runner.run(ex, role, p)
        self.checks.append(ExampleCheck(p.name if p is not None else "算例", role, ex.name, result_text(view),
                                        check_texts(view)))
        return view

    # ------------------------------------------------------------------ scoring and settlement

    def scoring(self) -> Chapter | None:
        rs = self.rs
        if rs.score is None and not rs.quantities:
            return None
        quantities = []
        for q in rs.quantities:
            self.place("scoring", q)
            f = self.w.both(q.expr, is_condition(q.expr))
            quantities.append(Item(q.name, [Fact("＝" if not is_condition(q.expr) else "成立条件", f.text, f.html)],
                                   Text.of(q), anchor=f"q-{q.name}"))
        score = None
        if rs.score is not None:
            self.place("scoring", rs.score)
            f = self.w.both(rs.score.expr)
            facts = [Fact("得分", f.text, f.html)]
            if rs.score.best is not None:
                b = self.w.both(rs.score.best)
                facts.append(Fact("组牌取舍", f"一手牌有几种组法时，取 {b.text} 最大的一种",
                                  markup("一手牌有几种组法时，取 ", b.html, " 最大的一种")))
            else:
                facts.append(Fact("组牌取舍", "一手牌有几种组法时，取得分最高的一种"))
            if rs.score.total is not None:
                t = self.w.both(rs.score.total)
                facts.append(Fact("合计", t.text, t.html))
            score = Item("得分", facts, Text.of(rs.score))
        return Chapter("scoring", "计分", {"quantities": quantities, "score": score,
                                          "tables": getattr(self, "loose_tables", [])})

    def settle(self) -> Chapter | None:
        rs = self.rs
        if not (rs.payments or rs.fees or rs.caps or rs.tasks):
            return None
        pays = []
        for p in rs.payments:
            self.place("settle", p)
            when = W.event(rs, p.on)
            flow = f"{W.PAYER.get(p.payer, p.payer)}付给{W.PAYEE.get(p.payee, p.payee)}"
            factors = [(f.name, f"×{W.num(self.eval_setup(f.value))}" if self.eval_setup(f.value) is not None
                        else self.w.text(f.value), self.w.both(f.when, True)) for f in p.factors]
            after = getattr(p, "after", ())
            if after:
                when += "（在" + "、".join(f"「{x}」" for x in after) + "决定之后）"
            pays.append(Payment(p.name, when, flow, self.w.both(p.amount), self.w.both(p.when, True), factors,
                                Text.of(p)))
        fees = []
        for f in rs.fees:
            self.place("settle", f)
            v = self.eval_setup(f.rate)
            txt = f"输赢值的{W.percent(v)}（{W.num(v)}）" if v is not None else self.w.text(f.rate)
            fees.append(Item(f.name, [Fact("比例", txt)], Text.of(f)))
        caps = []
        for c in rs.caps:
            self.place("settle", c)
            of = getattr(c, "of", "")
            caps.append(Item("封顶", [Fact("按", f"{W.CAP_OF.get(of, of)}当前的余额封顶")] if of else [], Text.of(c)))
        tasks = []
        for t in rs.tasks:
            self.place("settle", t)
            v = self.eval_setup(t.factor)
            tasks.append(Item(t.name, [Fact("倍数", f"×{W.num(v)}" if v is not None else self.w.text(t.factor))],
                              Text.of(t)))
        return Chapter("settle", "结算", {"payments": pays, "fees": fees, "caps": caps, "tasks": tasks})
