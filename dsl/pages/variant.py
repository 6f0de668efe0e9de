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

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from . import words as W
from .examples import ExampleRunner, ExampleView, value_text
from .formula import Formula, Writer
from .tiles import TileBook, TileView

_MAX_TABLE = 16  # a setting with at most this many values gets a table of what each value does


# ---------------------------------------------------------------------- page data


@dataclass
class Text:
    """A construct's page text: its `doc` as paragraphs, and its `note`s (shown in a 「说明」 box). The
    player's page gets the text without the encoder's remarks (`for_player`); the designer's appendix, all."""

    paras: list[str]
    notes: list[list[str]]

    @classmethod
    def of(cls, node: ir.Node | None, full: bool = False) -> Text:
        if node is None:
            return cls([], [])
        if full:
            return cls(paragraphs(node.doc), [paragraphs(n) for n in node.notes if n.strip()])
        paras = [q for q in (for_player(p, False) for p in paragraphs(node.doc)) if q]
        notes = [[q for q in (for_player(p, True) for p in paragraphs(n)) if q] for n in node.notes]
        return cls(paras, [n for n in notes if n])

    def __bool__(self) -> bool:
        return bool(self.paras or self.notes)


_ASIDE = re.compile(r"（[^（）]*）|\([^()]*\)")
_SENTENCE = re.compile(r"[^。！？]+[。！？]?")


def _encoders(text: str) -> bool:
    return any(w in text for w in W.SOURCE_WORDS)


def for_player(text: str, note: bool) -> str:
    """Page text for the player's page: parentheses holding the encoder's remarks or the language's own
    names dropped, and, in a note, the sentences about the source or the tools (words.SOURCE_WORDS)."""
    def aside(m):
        inner = m.group(0)
        return "" if _encoders(inner) or re.search(r"[A-Za-z_]", inner) else inner
    out = _ASIDE.sub(aside, text)
    if note:
        out = "".join(s for s in _SENTENCE.findall(out) if not _encoders(s))
    return out.strip()


_ENDS = ("。", "！", "？", "：", ":", "!", "?")


def paragraphs(text: str) -> list[str]:
    """Page text as paragraphs. Rule files wrap long sentences over several lines; a line that ends a
    sentence (。！？：) ends its paragraph, other lines run on into the next."""
    out: list[str] = []
    cur = ""
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            if cur:
                out.append(cur)
            cur = ""
            continue
        cur += line
        if line.endswith(_ENDS):
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


@dataclass
class Fact:
    label: str
    text: str
    html: object = None  # Markup when the fact has markup of its own (formulas)

    def __post_init__(self):
        if self.html is None:
            from markupsafe import escape
            self.html = escape(self.text)


@dataclass
class Item:
    """One rule of the page: a name, facts derived from the IR, its page text, and extras."""

    name: str
    facts: list[Fact] = field(default_factory=list)
    text: Text = field(default_factory=lambda: Text([], []))
    tiles: list[TileView] = field(default_factory=list)
    anchor: str = ""


@dataclass
class TileRow:
    label: str
    tiles: list[TileView]
    each: str  # copies of each kind
    subtotal: str
    text: Text
    condition: str = ""
    each_note: str = ""  # where the number of copies comes from (an option)

    @property
    def names(self) -> str:
        """The kinds' names, when the drawn tiles (glyphs) do not say them already."""
        return "、".join(t.name for t in self.tiles) if any(t.glyph for t in self.tiles) else ""


@dataclass
class AttrRow:
    name: str
    tiles: list[TileView]
    formula: Formula | None
    text: Text


@dataclass
class ValueTable:
    """Values of groups (e.g. points per group) by suit."""

    title: str
    column: str  # what the values are (a quantity's name)
    suits: list[str]
    rows: list[tuple[str, list[str]]]  # (group kind, one cell per suit)


@dataclass
class MeldRow:
    name: str
    shape: str
    tiles: list[TileView]
    flags: str
    values: str
    text: Text


@dataclass
class SettingTable:
    setting: str
    columns: list[str]
    rows: list[list[str]]


@dataclass
class PatternView:
    name: str
    value: str
    value_note: str
    label: str
    excludes: list[str]
    enabled: str
    text: Text
    examples: list[ExampleView]
    counterexamples: list[ExampleView]
    table: SettingTable | None
    anchor: str


@dataclass
class PatternGroup:
    title: str
    patterns: list[PatternView]


@dataclass
class Payment:
    name: str
    when: str
    flow: str
    amount: Formula
    condition: Formula
    factors: list[tuple[str, str, Formula]]
    text: Text


@dataclass
class SettingRow:
    name: str
    type: str
    default: str
    allowed: str
    text: Text


@dataclass
class SectionView:
    title: str
    text: Text


@dataclass
class Chapter:
    key: str
    title: str
    data: dict
    before: list[SectionView] = field(default_factory=list)
    after: list[SectionView] = field(default_factory=list)
    number: str = ""


@dataclass
class ExampleCheck:
    """One example of the rule file as the designer checks it: where it is, what the runtime found, what
    the file expects."""

    where: str  # the pattern it belongs to, or 算例
    role: str
    name: str
    result: str
    checks: list[str]  # the file's expectations that hold (each is checked when the file compiles)


@dataclass
class NoteView:
    where: str  # the construct the note belongs to
    paras: list[str]


@dataclass
class DesignPage:
    """The designer's appendix of a variant: what the player's page leaves out — the situation values a
    game supplies, what the game remembers, every example with its checks, and every reading note in
    full."""

    context: list[SettingRow]
    states: list[Item]
    checks: list[ExampleCheck]
    notes: list[NoteView]


@dataclass
class VariantPage:
    stem: str
    id: str
    title: str
    seed: str
    summary: list[Fact]
    chapters: list[Chapter]
    sprite: str = ""  # the SVG faces of every tile the page draws (dsl/pages/faces.py)
    design: DesignPage | None = None  # the designer's appendix (a page of its own)

    @property
    def pattern_count(self) -> int:
        ch = next((c for c in self.chapters if c.key == "patterns"), None)
        return sum(len(g.patterns) for g in ch.data["groups"]) if ch else 0


# ---------------------------------------------------------------------- building


class PageBuilder:
    def __init__(self, rules, stem: str):
        self.rules = rules
        self.rs: ir.RuleSet = rules.ir
        self.stem = stem
        self.w = Writer(self.rs)
        self.book = TileBook(self.rs, stem)
        self.units = {u.name: u.combine for u in self.rs.units}
        self.defaults = _setting_defaults(self.rs)
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
                    if q is not None and not _is_condition(q.expr):
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

    # ------------------------------------------------------------------ tiles

    def tile_totals(self, options: dict) -> tuple[int, list[str]]:
        from ...runtime.tiles import Catalog

        cat = Catalog(self.rs, {f"option:{k}": v for k, v in options.items()})
        main = sum(k.copies for k in cat.kinds if k.category in ("suited", "honor"))
        extra = []
        flowers = sum(k.copies for k in cat.kinds if k.category == "flower")
        if flowers:
            extra.append(f"花{flowers}张")
        for k in cat.kinds:
            if k.category == "joker":
                extra.append(f"{k.name}{k.copies}张")
        return main, extra

    def copies_text(self, e: E.Expr) -> tuple[str, str, int | None]:
        """(copies, where the number comes from, value)"""
        v = self.eval_setup(e)
        if isinstance(e, E.Num) or v is not None:
            return W.num(v), self.setting_note(e), v
        return self.w.text(e), "", None

    def tiles(self) -> Chapter:
        rs = self.rs
        t = rs.tiles
        self.place("tiles", t)
        rows: list[TileRow] = []
        for s in t.suits:
            kinds = [k for k in t.kinds if k.category == "suited" and k.suit == s.name]
            each, note, n = self.copies_text(s.copies)
            sub = W.num(n * len(kinds)) if isinstance(n, (int, Fraction)) else ""
            rows.append(TileRow(s.name, self.book.views(k.name for k in kinds), each, sub, Text.of(s),
                                self.only_when(s.enabled), note))
        merged: dict[tuple, TileRow] = {}
        counts: dict[int, int | None] = {}
        for k in t.kinds:
            if k.category == "suited":
                continue
            each, note, n = self.copies_text(k.copies)
            label = ("、".join(k.attrs) if k.attrs else W.CATEGORY[k.category]) if k.category == "honor" else (
                k.flower_class or W.CATEGORY[k.category])
            cond = self.only_when(k.enabled)
            key = (k.category, label, each, note, k.doc, k.notes, cond)
            row = merged.get(key)
            if row is None:
                row = merged[key] = TileRow(label, [], each, "", Text.of(k), cond, note)
                rows.append(row)
                counts[id(row)] = n
            row.tiles.append(self.book.view(k.name))
        for row in rows:
            n = counts.get(id(row))
            if not row.subtotal and isinstance(n, (int, Fraction)):
                row.subtotal = W.num(n * len(row.tiles))
        total, extra = self.tile_totals({})
        totals = [f"全副牌共{total}张" + "".join(f"，另有{x}" for x in extra) + "（按默认的房间选项）"]
        for s in rs.settings:
            if s.role != "option" or s.type != "bool":
                continue
            uses = [x for x in list(t.suits) + list(t.kinds) if x.enabled is not None and any(
                isinstance(n, E.Name) and n.ref == f"option:{s.name}" for n in E.walk(x.enabled))]
            if uses:
                alt = not self.defaults.get(s.name)
                n2, extra2 = self.tile_totals({s.name: alt})
                totals.append(f"{'选' if alt else '不选'}「{s.name}」时共{n2}张"
                              + "".join(f"，另有{x}" for x in extra2))
        attrs: list[AttrRow] = []
        from ...runtime.tiles import Catalog

        cat = Catalog(rs, {})
        declared = []
        for k in t.kinds:
            for a in k.attrs:
                if a not in declared:
                    declared.append(a)
        defs = {a.name: a for a in t.attrs}
        for a in declared + [a.name for a in t.attrs if a.name not in declared]:
            members = [k.name for k in cat.kinds if k.attrs.get(a)]
            d = defs.get(a)
            attrs.append(AttrRow(a, self.book.views(members), self.w.both(d.expr, True) if d else None, Text.of(d)))
        return Chapter("tiles", "牌与张数", {"text": Text.of(t), "rows": rows, "totals": totals, "attrs": attrs})

    def only_when(self, e: E.Expr | None) -> str:
        if e is None:
            return ""
        c = self.w.text(e, True)
        return f"{c}时才有"

    # ------------------------------------------------------------------ table

    def players_text(self) -> str:
        p = self.rs.table.players
        if isinstance(p, E.Num):
            return f"{p.text}人"
        if isinstance(p, E.Name):
            s = self.rs.setting(p.name)
            if s is not None and s.values:
                vals = [W.num(self.eval_setup(v)) for v in s.values]
                return f"{'、'.join(vals[:-1])}或{vals[-1]}人（房间选项「{s.name}」，默认{self.default_text(s)}人）"
            if s is not None:
                return f"{self.default_text(s)}人（房间选项「{s.name}」）"
        return self.w.text(p)

    def table(self) -> Chapter:
        t = self.rs.table
        self.place("table", t)
        facts = [Fact("玩家", self.players_text())]
        hand = f"开局每人{t.hand}张"
        if t.dealer_extra:
            hand += f"，庄多拿{t.dealer_extra}张（共{t.hand + t.dealer_extra}张）"
        facts.append(Fact("开局", hand))
        facts.append(Fact("首局", W.FIRST_DEALER.get(t.first_dealer, t.first_dealer)))
        rotation = getattr(t, "rotation", "")
        if rotation:
            way = W.ROTATION.get(rotation, rotation)
            # the deal passes round the table only when the next dealer is someone's next seat
            rotates = t.next_dealer is not None and any(
                isinstance(n, E.Call) and n.func == "next" for n in E.walk(t.next_dealer))
            what = "出牌和轮流坐庄都" if rotates else "出牌"
            facts.append(Fact("方向", f"{what}按{way}方向，「下家」即{way}方向的下一位"))
        if t.next_dealer is not None:
            cases = self.w.cases(t.next_dealer)
            parts_t, parts_h = [], []
            for cond, who in cases:
                if cond is None:
                    parts_t.append(f"否则由{who.text}坐庄" if len(cases) > 1 else f"由{who.text}坐庄")
                    parts_h.append(f"否则由{who.html}坐庄" if len(cases) > 1 else f"由{who.html}坐庄")
                else:
                    parts_t.append(f"{cond.text}时，由{who.text}坐庄")
                    parts_h.append(f"{cond.html}时，由{who.html}坐庄")
            from markupsafe import Markup
            facts.append(Fact("下一局", "；".join(parts_t), Markup("；".join(parts_h))))
        facts.append(Fact("流局", "牌墙摸完仍没有玩家和牌，即为流局" if t.exhaust_at == 0
                          else f"牌墙只剩{t.exhaust_at}张时仍没有玩家和牌，即为流局"))
        # replacement draws exist only after an action with `then replace` or for a flower set aside
        if any(a.then == "replace" for a in self.rs.actions) or \
                any(k.category == "flower" for k in self.rs.tiles.kinds):
            facts.append(Fact("补牌", f"开杠等需要补牌时，从{W.WALL_END.get(t.replacement, t.replacement)}摸取"))
        return Chapter("table", "玩家、坐庄与发牌", {"facts": facts, "text": Text.of(t)})

    # ------------------------------------------------------------------ reveals and wildcards

    def wilds(self) -> Chapter | None:
        rs = self.rs
        items: list[Item] = []
        for r in rs.reveals:
            self.place("wilds", r)
            at = W.REVEAL_AT.get(getattr(r, "at", "deal"), "发牌后")
            facts = [Fact("翻出", f"{at}从{W.WALL_END.get(r.source, r.source)}翻开一张"
                                 + (f"（跳过{r.offset}张）" if r.offset else "")
                                 + ("，所有人可见" if r.visible else "，不公开"))]
            if r.skip:
                facts.append(Fact("重翻", f"翻出的是{W.FIELD.get(r.skip, r.skip)}时放在一边，再翻一张"))
            facts.append(Fact("这一张", "不再参与牌局" if r.removes_copy else "仍留在牌墙里"))
            if getattr(r, "unless", None) is not None:
                u = self.w.both(r.unless, True)
                facts.append(Fact("不翻", f"{u.text}时不翻", _markup("", u.html, "时不翻")))
            if r.moves_when is not None:
                f = self.w.both(r.moves_when, True)
                facts.append(Fact("换牌", f"当{f.text}时，改翻下一张", _markup("当", f.html, "时，改翻下一张")))
            items.append(Item(r.name, facts, Text.of(r), anchor=f"reveal-{r.name}"))
        for wd in rs.wilds:
            self.place("wilds", wd)
            src = (f"翻出的「{wd.tiles}」及与它相同的牌" if any(r.name == wd.tiles for r in rs.reveals)
                   else f"「{wd.tiles}」")
            facts = [Fact("万能牌", f"{src}可以当作任何一张牌"
                          + (f"（{W.FIELD.get(wd.except_attr, wd.except_attr)}除外）" if wd.except_attr else ""))]
            if wd.no_meld:
                facts.append(Fact("不能组成", "、".join(wd.no_meld)))
            if getattr(wd, "no_action", ()):
                facts.append(Fact("不能用于", "、".join(self.action_word(a) for a in wd.no_action)))
            if wd.scope == "win_tile":
                facts.append(Fact("范围", "只有和的那一张可以当万能牌"))
            if wd.active is not None:
                f = self.w.both(wd.active, True)
                facts.append(Fact("生效", f"仅当{f.text}时", _markup("仅当", f.html, "时")))
            items.append(Item(wd.name, facts, Text.of(wd), self.book.views(
                [wd.tiles] if wd.tiles in self.book.kinds else []), anchor=f"wild-{wd.name}"))
        for s in rs.standins:
            self.place("wilds", s)
            plays = self.w.both(s.plays)
            # A stand-in plays as one tile kind (for a reveal: the kind flipped, its 本牌), never as a wildcard.
            ref = getattr(s.plays, "ref", "") or ""
            if ref.startswith("reveal:"):
                pre, post = f"「{s.name}」当作翻出的", "那种牌本身（本牌）：只当这一种牌，不是万能牌"
            else:
                pre, post = f"「{s.name}」当作", "：只当这一种牌，不是万能牌"
            facts = [Fact("当作", f"{pre}{plays.text}{post}", _markup(pre, plays.html, post))]
            if s.unless is not None:
                u = self.w.both(s.unless, True)
                facts.append(Fact("除非", u.text, u.html))
            items.append(Item(s.name, facts, Text.of(s), self.book.views([s.name] if s.name in self.book.kinds
                                                                          else []), anchor=f"standin-{s.name}"))
        if not items:
            return None
        return Chapter("wilds", "翻牌与万能牌", {"items": items})

    # ------------------------------------------------------------------ melds

    def value_quantity(self) -> str:
        """The quantity that adds up the groups' values (its name heads the value table)."""
        for q in self.rs.quantities:
            if any(isinstance(x, E.Attr) and x.name == "value" for x in E.walk(q.expr)):
                return q.name
        return "数值"

    def shape(self, m: ir.MeldKind) -> tuple[str, list[TileView]]:
        s = m.shape
        if s.kind == "run":
            return f"同一花色相连的{W.cn_count(s.size)}张", []
        if s.kind == "same":
            return f"{W.cn_count(s.size)}张相同的牌", []
        if s.kind == "ranks":
            return f"同一花色的{'、'.join(str(r) for r in s.ranks)}", []
        if s.kind == "tiles":
            return "正是这几张：" + "、".join(s.tiles), self.book.views(s.tiles)
        if s.kind == "same_rank":
            return (f"点数相同的{W.cn_count(s.size)}张" + ("，不止一种花色" if s.mixed else "")), []
        return s.kind, []

    def melds(self) -> Chapter | None:
        rs = self.rs
        if not rs.melds:
            return None
        rows = []
        for m in rs.melds:
            self.place("melds", m)
            flags = []
            if m.pair:
                flags.append("对子")
            if m.hand:
                flags.append("可在手中组成")
            if m.exposed:
                flags.append("亮在桌面（副露）")
            elif not m.hand:
                flags.append("暗放在桌面")
            if m.kong:
                flags.append("算杠")
            if m.upgrades:
                ups = [m.upgrades] if isinstance(m.upgrades, str) else list(m.upgrades)
                flags.append(f"在{'或'.join(f'「{u}」' for u in ups)}上加第四张而成")
            if m.grows:
                flags.append("可再加一张其中的牌" if m.grow_limit == 1 else
                             f"可一次一张地再加其中的牌，最多再加{W.cn_count(m.grow_limit)}张")
            if getattr(m, "shown", None) is not None:
                flags.append(f"亮出{W.cn_count(m.shown)}张" if m.shown else "全部扣着")
            shape, tiles = self.shape(m)
            vals = "，".join(f"{v.suit}{W.num(self.eval_setup(v.value))}" if v.suit else
                            W.num(self.eval_setup(v.value)) for v in m.values)
            rows.append(MeldRow(m.name, shape, tiles, "、".join(flags), vals, Text.of(m)))
        table = None
        valued = [m for m in rs.melds if m.values]
        if valued:
            suits = [s.name for s in rs.tiles.suits if any(v.suit == s.name for m in valued for v in m.values)]
            cols = suits if suits else ["—"]
            trows = []
            for m in valued:
                cells = []
                for s in cols:
                    v = next((x for x in m.values if x.suit == s), None) or next(
                        (x for x in m.values if not x.suit), None)
                    if v is None:
                        cells.append("")
                        continue
                    val = W.num(self.eval_setup(v.value))
                    sample = self.rank_sample(m, s)
                    cells.append(f"{sample} {val}" if sample else val)
                trows.append((m.name, cells))
            q = self.value_quantity()
            table = ValueTable(f"{q}表", q, cols, trows)
        return Chapter("melds", "牌组", {"rows": rows, "table": table})

    def rank_sample(self, m: ir.MeldKind, suit: str) -> str:
        """The cards of a fixed-rank group in one suit (e.g. 贰柒拾), written with the suit's characters."""
        if m.shape.kind != "ranks":
            return ""
        kinds = {k.rank: k for k in self.rs.tiles.kinds if k.suit == suit}
        return "".join((kinds[r].char or kinds[r].name) if r in kinds else str(r) for r in m.shape.ranks)

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
            facts.append(Fact("对子", f"只有{c.text}时才可以有对子", _markup("只有", c.html, "时才可以有对子")))
        if f.instant is not None:
            c = self.w.both(f.instant, True)
            facts.append(Fact("条件", f"只要{c.text}，不论其余的牌怎样都可以和",
                              _markup("只要", c.html, "，不论其余的牌怎样都可以和")))
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
                facts.append(Fact("例外", f"{u.text}时不受此限", _markup("", u.html, "时不受此限")))
            if q.forms:
                facts.append(Fact("适用于", "、".join(q.forms)))
            if q.reason:
                facts.append(Fact("不满足时", q.reason))
            if not q.decides_waits:
                facts.append(Fact("所听的牌", "不受此限：只管怎样胡到这张牌，不影响听哪些牌"))
            reqs.append(Item(q.name, facts, Text.of(q), anchor=f"require-{q.name}"))
        return Chapter("winning", "和牌", {"forms": forms, "requires": reqs})

    # ------------------------------------------------------------------ play

    def play(self) -> Chapter | None:
        rs = self.rs
        if not rs.actions and not rs.priority:
            return None
        items = []
        for a in rs.actions:
            self.place("play", a)
            events = [a.on] + list(getattr(a, "also_on", ()))
            when_txt = "或".join(W.EVENT.get(e, f"「{e}」之后") for e in events)
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
                facts.append(Fact("可选", "、".join(W.num(self.eval_setup(c)) for c in a.choices)))
            if getattr(a, "choice_when", None) is not None:
                c = self.w.both(a.choice_when, True)
                facts.append(Fact("可选条件", c.text, c.html))
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

    def action_word(self, name: str) -> str:
        return name if any(a.name == name for a in self.rs.actions) else W.BUILTIN_ACTION.get(name, name)

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
        import re

        from ..checker import Checker, parse_expression
        from ..diagnostics import Diagnostics

        ch = Checker(self.rs, Diagnostics())
        ch.declare()

        def sub(m):
            e = parse_expression(m.group(1), p.span, Diagnostics())
            return f"〈{self.w.text(ch.res.check(e, 'reading', None))}〉" if e is not None else m.group(0)
        return re.sub(r"\{([^{}]*)\}", sub, p.label)

    def label(self, p: ir.Pattern, env: dict) -> str:
        import re

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
                order_keys[key] = (0, 0) if any_group else (0, _sort_number(v))
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
        self.checks.append(ExampleCheck(p.name if p is not None else "算例", role, ex.name, _result_text(view),
                                        _check_texts(view)))
        return view

    # ------------------------------------------------------------------ scoring and settlement

    def scoring(self) -> Chapter | None:
        rs = self.rs
        if rs.score is None and not rs.quantities:
            return None
        quantities = []
        for q in rs.quantities:
            self.place("scoring", q)
            f = self.w.both(q.expr, _is_condition(q.expr))
            quantities.append(Item(q.name, [Fact("＝" if not _is_condition(q.expr) else "成立条件", f.text, f.html)],
                                   Text.of(q), anchor=f"q-{q.name}"))
        score = None
        if rs.score is not None:
            self.place("scoring", rs.score)
            f = self.w.both(rs.score.expr)
            facts = [Fact("得分", f.text, f.html)]
            if rs.score.best is not None:
                b = self.w.both(rs.score.best)
                facts.append(Fact("组牌取舍", f"一手牌有几种组法时，取 {b.text} 最大的一种",
                                  _markup("一手牌有几种组法时，取 ", b.html, " 最大的一种")))
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
            when = W.EVENT.get(p.on, f"「{p.on}」时")
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
                              Fact("保留", W.LIFETIME.get(s.lives, s.lives))], Text.of(s, full=True))
                for s in self.rs.states]

    def design(self) -> DesignPage:
        return DesignPage(self.context(), self.states(), self.checks, _all_notes(self.rs))

    def special(self) -> Chapter | None:
        rs = self.rs
        phases = []
        for ph in rs.phases:
            self.place("special", ph)
            facts = [Fact("范围", W.SCOPE.get(ph.scope, ph.scope))]
            for label, trig in (("进入", ph.enter), ("离开", ph.leave)):
                for t in trig:
                    c = self.w.both(t.cond, True)
                    ev = W.EVENT.get(t.event, f"「{t.event}」时")
                    facts.append(Fact(label, f"{ev}，若{c.text}" if c else ev, _markup(f"{ev}，若", c.html, "")
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
            hooks.append(Item(W.EVENT.get(h.event, f"「{h.event}」时"), facts, Text.of(h)))
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
        ends = _statement_ends(self.rs.source)
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


# ---------------------------------------------------------------------- small helpers


def _statement_ends(path: str) -> dict[int, int]:
    """For each top-level statement of a rule file: its first line -> its last line (the IR keeps only
    where a statement starts). Empty when the file cannot be read (e.g. a compiled rule set)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, TypeError):
        return {}
    out: dict[int, int] = {}
    depth, line, start, i, n = 0, 1, None, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            if depth == 0 and start is not None:
                out[start] = line
                start = None
            line += 1
        elif c == "#":
            while i + 1 < n and text[i + 1] != "\n":
                i += 1
        elif not c.isspace():
            if start is None and depth == 0:
                start = line
            if text.startswith('"""', i):
                j = text.find('"""', i + 3)
                j = n - 3 if j < 0 else j
                line += text.count("\n", i, j)
                i = j + 2
            elif c in "\"'":
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                i = j
            elif c in "{([":
                depth += 1
            elif c in "})]":
                depth = max(0, depth - 1)
        i += 1
    if start is not None:
        out[start] = line
    return out


def _result_text(view: ExampleView) -> str:
    if view.error:
        return f"无效：{view.error}"
    if not view.won:
        return f"不能和：{view.reason}"
    fans = "、".join(f"{f.name}{f.value}" + (f"×{f.count}" if f.count > 1 else "") for f in view.fans)
    return f"{fans}；得分 {view.score}" if fans else f"得分 {view.score}"


def _check_texts(view: ExampleView) -> list[str]:
    if not view.ok:
        return []
    out = [view.verdict] if view.verdict else []
    out += [f"{what}＝{v}" for what, v in view.expects]
    return out


def _all_notes(rs: ir.RuleSet) -> list[NoteView]:
    """Every `note` of the rule set, in full, with the name of the construct it belongs to (in the order
    they are written)."""
    from dataclasses import fields, is_dataclass

    found: list[tuple[int, int, str, tuple[str, ...]]] = []
    seen: set[int] = set()

    def visit(node, owner: str):
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, ir.Node):
            name = getattr(node, "name", "") or getattr(node, "title", "") or owner
            if node.notes:
                found.append((node.span.line, node.span.col, name if isinstance(name, str) else owner, node.notes))
            owner = name if isinstance(name, str) and name else owner
        if is_dataclass(node):
            for f in fields(node):
                v = getattr(node, f.name)
                for x in (v if isinstance(v, tuple) else (v,)):
                    if is_dataclass(x) and isinstance(x, ir.Node):
                        visit(x, owner)
    visit(rs, "")
    found.sort(key=lambda t: (t[0], t[1]))
    found = [t for i, t in enumerate(found) if i == 0 or t[:2] != found[i - 1][:2]]  # a suit's kinds share its notes
    return [NoteView(where, [q for n in notes for q in paragraphs(n)]) for _, _, where, notes in found]


def _markup(before: str, html, after: str):
    from markupsafe import Markup, escape

    return Markup(escape(before) + Markup(html) + escape(after))


def _is_condition(e: E.Expr) -> bool:
    return isinstance(e, (E.Compare, E.Bool)) or (isinstance(e, E.Unary) and e.op == "not") or (
        isinstance(e, E.Binary) and e.op in ("and", "or"))


def _sort_number(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("inf")


def _setting_defaults(rs: ir.RuleSet) -> dict:
    from ...runtime.tiles import setting_defaults

    return {k.partition(":")[2]: v for k, v in setting_defaults(rs).items()}


def build_page(rules, stem: str) -> VariantPage:
    return PageBuilder(rules, stem).build()
