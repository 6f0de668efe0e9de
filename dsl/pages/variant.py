"""The help page of one variant, as data: built from the IR (and the runtime, for counts and examples),
rendered by the templates in dsl/templates/ to HTML and Markdown.

The page follows the order a rule page is usually written in: introduction; the tiles; players, dealer
and dealing; revealed tiles and wildcards; groups; winning; play (actions and the order of claims);
patterns with their values; scoring; settlement; room options; special rules; worked examples; the
situation values a game supplies. Each chapter appears only when the rule file has something for it.
Every word of a variant (names, page text) comes from the rule file; the words of the language come
from words.py.
"""
from __future__ import annotations

from markupsafe import Markup

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from ...runtime.ir.typecheck import decision_types
from . import words as W
from .chapters_scoring import ScoringChapters
from .chapters_setup import SetupChapters
from .examples import ExampleRunner
from .formula import Writer
from .page_data import Chapter, DesignPage, ExampleCheck, Fact, Item, SectionView, SettingRow, Text, VariantPage
from .page_support import all_notes, defaults_by_name, is_condition, markup, statement_ends
from .tiles import TileBook

# ---------------------------------------------------------------------- building


class PageBuilder(SetupChapters, ScoringChapters):
    """A variant's page from its rules: the chapters in page order (the chapters of the tiles and the
    table, and of winning and scoring, are the mixins), each construct's text placed once."""

    def __init__(self, rules, stem: str):
        self.rules = rules
        self.rs: ir.RuleSet = rules.ir
        self.stem = stem
        self.w = Writer(self.rs)
        self.book = TileBook(self.rs, stem)
        self.units = {u.name: u.combine for u in self.rs.units}
        self.defaults = defaults_by_name(self.rs)
        self.runner = ExampleRunner(rules, self.w, self.book, self.score_quantities())
        self.placed: list[tuple[str, ir.Node | ir.Span]] = []  # (chapter key, construct) for sections
        self.checks: list[ExampleCheck] = []  # every example run, for the designer's appendix

    # ------------------------------------------------------------------ helpers

    def place(self, key: str, *nodes) -> None:
        for n in nodes:
            span = n if isinstance(n, ir.Span) else n.span
            if span.line:
                self.placed.append((key, span))

    def default_text(self, s: ir.Setting) -> str:
        v = self.defaults.get(s.name)
        if s.type == "bool":
            return "选中" if v else "不选"
        if isinstance(s.default, E.TileLit):
            return "、".join(s.default.tiles)
        return W.num(v)

    def setting_note(self, e: E.Expr) -> str:
        """「（房间选项「X」，默认4）」 for an expression that is one setting's value."""
        if isinstance(e, E.Name) and e.ref.partition(":")[0] in ("option", "context"):
            s = self.rs.setting(e.name)
            if s is not None:
                role = "房间选项" if s.role == "option" else "情境值"
                return f"由{role}「{s.name}」决定，默认{self.default_text(s)}"
        return ""

    def eval_setup(self, e: E.Expr, extra: dict | None = None):
        """The value of a setup expression under the default settings (None when it needs more)."""
        from ...runtime.evaluate import compile_expr

        env = {f"{s.role}:{s.name}": self.defaults.get(s.name) for s in self.rs.settings}
        env["tile-lookup"] = lambda name: None
        env.update(extra or {})
        try:
            return compile_expr(e)(env)
        except Exception:  # noqa: BLE001 — the expression needs a hand or a game: not a setup value
            return None

    def choice_text(self, c: E.Expr) -> str:
        """One value of a decision as the page names it: a number or a suit as it is, several tiles written
        together, a seat by its word."""
        if isinstance(c, E.TileLit) and c.tiles:
            return "".join(c.tiles)
        v = self.eval_setup(c)
        return W.num(v) if v is not None else self.w.text(c)

    def score_quantities(self) -> list[str]:
        """Numeric quantities the score depends on (shown with each computed example)."""
        if self.rs.score is None:
            return []
        qs = {q.name: q for q in self.rs.quantities}
        out: list[str] = []

        def visit(e):
            for x in E.walk(e):
                if isinstance(x, E.Name) and x.ref.startswith("quantity:") and x.name not in out:
                    q = qs.get(x.name)
                    if q is not None and not is_condition(q.expr):
                        visit(q.expr)
                        out.append(x.name)
        visit(self.rs.score.expr)
        return out

    # ------------------------------------------------------------------ the page

    def build(self) -> VariantPage:
        rs = self.rs
        # the order a rule page is read in: the game, its tiles and table, how play goes, how a hand wins,
        # what it scores (with the worked examples), how it is paid; the room's choices last
        chapters = [
            self.intro(), self.tiles(), self.table(), self.wilds(), self.melds(), self.play(), self.winning(),
            self.patterns(), self.scoring(), self.examples(), self.settle(), self.special(), self.options(),
        ]
        chapters = [c for c in chapters if c is not None]
        self.attach_sections(chapters)
        for i, c in enumerate(chapters, 1):
            c.number = W.cn_ordinal(i)
        summary = self.summary()
        design = self.design()
        return VariantPage(self.stem, rs.variant.id, rs.variant.title, rs.variant.seed, summary, chapters,
                           self.book.sprite(), design)

    def summary(self) -> list[Fact]:
        out = [Fact("玩家", self.players_text())]
        total, extra = self.tile_totals({})
        out.append(Fact("用牌", f"{total}张" + "".join(f"，另有{t}" for t in extra)))
        t = self.rs.table
        out.append(Fact("开局", f"每人{t.hand}张" + (f"，庄{t.hand + t.dealer_extra}张" if t.dealer_extra else "")))
        if self.rs.units:
            out.append(Fact("计分单位", "、".join(u.name for u in self.rs.units)))
        return out

    def intro(self) -> Chapter:
        self.place("intro", self.rs.variant)
        return Chapter("intro", "游戏介绍", {"text": Text.of(self.rs.variant)})

    # ------------------------------------------------------------------ play

    def play(self) -> Chapter | None:
        rs = self.rs
        if not rs.actions and not rs.priority:
            return None
        items = []
        types = decision_types(rs)
        for a in rs.actions:
            self.place("play", a)
            self.w.choice_word = W.CHOICE.get(types.get(a.name, ""), "")
            events = [a.on] + list(getattr(a, "also_on", ()))
            when_txt = "或".join(W.event(rs, e, "「{}」之后") for e in events)
            facts = [Fact("时机", f"{when_txt}，{W.WHO.get(a.by, a.by)}{'必须' if a.compulsory else '可以'}做")]
            if getattr(a, "wins", False):
                how = "这个动作就是和牌"
                if a.win_forms:
                    how += "，只能以" + "、".join(f"「{x}」" for x in a.win_forms) + "和"
                if a.win_tile:
                    how += f"；和张是{W.WIN_TILE.get(a.win_tile, a.win_tile)}"
                facts.append(Fact("和牌", how))
            if a.when is not None:
                c = self.w.both(a.when, True)
                facts.append(Fact("条件", c.text, c.html))
            if a.forms:
                facts.append(Fact("组成", "、".join(a.forms)))
            grow = getattr(a, "grow", "any")
            if grow == "new":
                facts.append(Fact("只新亮", "只能从手里新亮出一副，不能加到已亮出的同种牌组上"))
            elif grow == "extend":
                facts.append(Fact("只加张", "只能把一张牌加到已亮出的同种牌组上，不能新亮出一副"))
            if a.instead_of:
                facts.append(Fact("代替", f"选择它就不做「{a.instead_of}」"))
            if a.choices:
                facts.append(Fact("可选", "、".join(self.choice_text(c) for c in a.choices)))
            if getattr(a, "choice_list", None) is not None:  # computed when offered: its formula
                c = self.w.both(a.choice_list)
                facts.append(Fact("可选", "每一项：" + c.text, Markup("每一项：") + c.html))
            if getattr(a, "select", 0):
                facts.append(Fact("选牌", f"从自己手里选出{W.num(a.select)}张牌"))
            if getattr(a, "together", False):
                facts.append(Fact("同时", "各家同时选择；所有人都选好后才一起生效，选好之前谁也看不到别人选了什么"))
            if getattr(a, "choice_when", None) is not None:
                c = self.w.both(a.choice_when, True)
                facts.append(Fact("可选条件", c.text, c.html))
            facts += self.effect_facts(a.effects)
            if getattr(a, "follow", ()):
                facts.append(Fact("随后", "必须接着做" + "、".join(f"「{x}」" for x in a.follow)))
            if getattr(a, "ready", False):
                facts.append(Fact("宣布", "做了这个动作即宣布听和，进入听和状态"))
            if getattr(a, "order", "seat") != "seat" or not getattr(a, "multiple", True):
                who = W.ORDER.get(a.order, a.order)
                facts.append(Fact("多人可做", who + ("，只有第一位可以做" if not a.multiple else "")))
            then = W.THEN.get(a.then, a.then)
            if then:
                facts.append(Fact("之后", then))
            items.append(Item(a.name, facts, Text.of(a), anchor=f"action-{a.name}"))
        self.w.choice_word = ""
        priority = [list(level) for level in rs.priority]
        if rs.priority:
            self.place("play", rs.priority_span)
        restricts = []
        for r in getattr(rs, "restricts", ()):
            self.place("play", r)
            c = self.w.both(r.when, True)
            restricts.append(Item(r.name, [Fact("不能", "、".join(self.action_word(x) for x in r.actions)),
                                           Fact("何时", c.text, c.html)], Text.of(r), anchor=f"restrict-{r.name}"))
        observes = []
        for o in getattr(rs, "observes", ()):
            self.place("play", o)
            c = self.w.both(o.when, True)
            observes.append(Item(o.name, [Fact("可以看", f"对手的{W.OBSERVE_WHAT.get(o.what, o.what)}"),
                                          Fact("何时", c.text, c.html)], Text.of(o), anchor=f"observe-{o.name}"))
        return Chapter("play", "行牌：动作与优先次序", {"items": items, "priority": priority,
                                                   "restricts": restricts, "observes": observes})

    def effect_facts(self, effects) -> list[Fact]:
        """What a page says of the effects a player cannot read off the rule's own text: a roll of the
        dice (chance) and tiles passed to another seat. Other effects keep the rule file's memory and are
        told by the rule's `doc`."""
        out = []
        for ef in effects:
            if ef.op == "roll":
                t = ef.target
                if len(t) != 2:
                    target = f"「{t[0]}」"
                else:
                    target = f"「{t[1]}」" if t[0] == "table" else f"{W.BUILTIN.get(t[0], t[0])}的「{t[1]}」"
                items = self.w.both(ef.value)
                times = f"，取{'两' if ef.times == 2 else W.cn_number(ef.times)}次相加" if ef.times > 1 else ""
                text = f"{target}从{items.text}中随机取一个{times}"
                out.append(Fact("随机", text, markup(f"{target}从", items.html, f"中随机取一个{times}")))
            elif ef.op == "give":
                tiles, to = self.w.both(ef.value, True), self.w.both(ef.to, True)  # (names quoted: 「方向」)
                out.append(Fact("交牌", f"把{tiles.text}交给{to.text}", markup("把", tiles.html, "交给")
                                + to.html))
        return out

    def action_word(self, name: str) -> str:
        return name if any(a.name == name for a in self.rs.actions) else W.BUILTIN_ACTION.get(name, name)

    # ------------------------------------------------------------------ options, special rules, examples

    def setting_row(self, s: ir.Setting, full: bool = False) -> SettingRow:
        allowed = ""
        if s.values:
            allowed = "、".join(W.num(self.eval_setup(v)) for v in s.values)
        elif s.range:
            allowed = f"{s.range[0]}～{s.range[1]}"
        elif s.type == "bool":
            allowed = "选中 / 不选"
        return SettingRow(s.name, W.TYPE.get(s.type, s.type), self.default_text(s), allowed, Text.of(s, full))

    def options(self) -> Chapter | None:
        rows = []
        for s in self.rs.settings:
            if s.role == "option":
                self.place("options", s)
                rows.append(self.setting_row(s))
        return Chapter("options", "房间选项", {"rows": rows}) if rows else None

    def context(self) -> list[SettingRow]:
        rows = []
        for s in self.rs.settings:
            if s.role == "context":
                rows.append(self.setting_row(s, full=True))
        for r in self.rs.reveals:
            rows.append(SettingRow(r.name, W.TYPE["tile"], "—", "", Text([f"本局翻出的「{r.name}」"], [])))
        return rows

    def states(self) -> list[Item]:
        return [Item(s.name, [Fact("记录", W.SCOPE.get(s.scope, s.scope)),
                              Fact("保留", W.LIFETIME.get(s.lives, s.lives))]
                     + ([Fact("公开", "每位玩家都看得到各家的这个值")] if getattr(s, "visible", False) else []),
                     Text.of(s, full=True))
                for s in self.rs.states]

    def design(self) -> DesignPage:
        return DesignPage(self.context(), self.states(), self.checks, all_notes(self.rs))

    def special(self) -> Chapter | None:
        rs = self.rs
        phases = []
        for ph in rs.phases:
            self.place("special", ph)
            facts = [Fact("范围", W.SCOPE.get(ph.scope, ph.scope))]
            for label, trig in (("进入", ph.enter), ("离开", ph.leave)):
                for t in trig:
                    c = self.w.both(t.cond, True)
                    ev = W.event(rs, t.event)
                    facts.append(Fact(label, f"{ev}，若{c.text}" if c else ev, markup(f"{ev}，若", c.html, "")
                                      if c else None))
            phases.append(Item(ph.name, facts, Text.of(ph), anchor=f"phase-{ph.name}"))
        hooks = []
        for h in rs.hooks:
            if not (h.doc or h.notes):
                continue
            self.place("special", h)
            facts = []
            if h.when is not None:
                c = self.w.both(h.when, True)
                facts.append(Fact("条件", c.text, c.html))
            facts += self.effect_facts(h.effects)
            hooks.append(Item(W.event(rs, h.event), facts, Text.of(h)))
        if not (phases or hooks):
            return None
        return Chapter("special", "特殊规则", {"phases": phases, "hooks": hooks})

    def examples(self) -> Chapter | None:
        if not self.rs.examples:
            return None
        views = []
        for ex in self.rs.examples:
            self.place("examples", ex)
            views.append(self.example(ex, "worked"))
        return Chapter("examples", "算例", {"examples": views})

    # ------------------------------------------------------------------ free-standing sections

    def attach_sections(self, chapters: list[Chapter]) -> None:
        """A `section` goes into the chapter of the construct written nearest to it in the file: at the
        top of the chapter when that construct follows it, at the bottom when it precedes it."""
        keys = {c.key: c for c in chapters}
        ends = statement_ends(self.rs.source)
        for sec in self.rs.sections:
            best = None
            sec_end = ends.get(sec.span.line, sec.span.end_line or sec.span.line)
            for key, span in self.placed:
                if key not in keys:
                    continue
                end = ends.get(span.line, span.end_line or span.line)
                if span.line > sec.span.line:
                    d, where = span.line - sec_end, "before"
                else:
                    d, where = sec.span.line - end, "after"
                cand = (d, span.line, key, where)
                if best is None or cand < best:
                    best = cand
            view = SectionView(sec.title, Text.of(sec))
            if best is None:
                keys[chapters[0].key].after.append(view)
            else:
                getattr(keys[best[2]], best[3]).append(view)


def build_page(rules, stem: str) -> VariantPage:
    return PageBuilder(rules, stem).build()
