"""Examples on the page are computed, never copied: each `example` / `counterexample` hand of a pattern
and each top-level `example` is scored by the runtime while the page is generated, and the page shows
what the runtime found — the reading (how the tiles were grouped), the patterns that count, the units,
the quantities and the score — next to what the rule file expects."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from . import words as W
from .formula import Writer
from .tiles import TileBook, TileView

# Messages of the runtime that are not the rule file's own words, as the page says them.
_REASONS = {
    "the tiles do not form any winning hand of this rule set": "这些牌组不成任何一种和牌形式",
    "no reading could be scored": "没有可以计分的组牌方式",
}


@dataclass
class GroupView:
    kind: str
    tiles: list[TileView]
    exposed: bool

    @property
    def standins(self) -> str:
        """「X当Y」 for each tile that plays as another (wildcards, stand-ins)."""
        return "、".join(f"{t.text}当{t.plays}" for t in self.tiles if t.plays and t.plays != t.name)


@dataclass
class FanView:
    name: str
    value: str
    count: int


@dataclass
class ExampleView:
    role: str  # example | counterexample | worked
    name: str
    doc: str
    notes: tuple[str, ...]
    hand: list[TileView]
    win: TileView | None
    melds: list[GroupView]
    self_drawn: bool
    sets: list[tuple[str, str, list[TileView]]]  # (name, value text, tiles when the value is a tile)
    error: str = ""  # the hand itself is invalid
    won: bool = False
    reason: str = ""
    form: str = ""
    groups: list[GroupView] = field(default_factory=list)
    fans: list[FanView] = field(default_factory=list)
    units: list[tuple[str, str]] = field(default_factory=list)
    quantities: list[tuple[str, str]] = field(default_factory=list)
    score: str = ""
    expects: list[tuple[str, str]] = field(default_factory=list)
    verdict: str = ""  # for a pattern's hands: whether the pattern counts, as the file says it must

    @property
    def ok(self) -> bool:
        # every example holds as the file says (E506/E508 refuse a rule file otherwise: pages are only made
        # from files that compile with their examples checked), so a scored hand earns its check mark
        return not self.error


class ExampleRunner:
    """Scores the examples of one rule set with the runtime."""

    def __init__(self, rules, writer: Writer, book: TileBook, shown_quantities: list[str]):
        self.rules = rules
        self.rs: ir.RuleSet = rules.ir
        self.writer = writer
        self.book = book
        self.shown_quantities = shown_quantities
        self.units = {u.name: u.combine for u in self.rs.units}

    def value_text(self, value, unit: str) -> str:
        return value_text(value, unit, self.units.get(unit, "sum"))

    def run(self, ex: ir.Example, role: str, pattern: ir.Pattern | None = None) -> ExampleView:
        from ...runtime.examples import score_example
        from ...runtime.hand import HandError

        notation = self.rules.notation
        view = ExampleView(
            role=role, name=ex.name, doc=ex.doc, notes=ex.notes,
            hand=self.book.views(_names(notation, ex.hand)),
            win=self.book.view(_names(notation, ex.win)[0], win=True) if ex.win else None,
            melds=[GroupView(k, self.book.views(_names(notation, t)), True) for k, t in ex.melds],
            self_drawn=ex.self_drawn,
            sets=[self.setting(n, v) for n, v in ex.sets],
            expects=[(what, self.expect_text(what, v)) for what, v in ex.expects],
        )
        try:
            res = score_example(self.rules, ex)
        except HandError as exc:
            view.error = str(exc)
            return view
        view.won = res.win
        view.reason = _REASONS.get(res.reason, res.reason)
        ev = res.evaluation
        if ev is not None:
            # the usual form goes without saying
            view.form = ev.reading.form if self.rs.forms and ev.reading.form != self.rs.forms[0].name else ""
            groups = sorted(ev.reading.groups, key=lambda g: (g.exposed, g.is_pair and not g.exposed,
                                                              min((t.kind.index for t in g.tiles), default=0)))
            view.groups = [GroupView(g.kind, [self.book.view(t.physical.name, win=t.is_win, wild=t.wild,
                                                             plays=t.kind.name)
                                              for t in sorted(g.tiles, key=lambda t: t.kind.index)], g.exposed)
                           for g in groups]
            if not view.groups:  # a form that wins as it stands: the tiles as held
                view.groups = [GroupView(ev.reading.form, [self.book.view(t.physical.name, win=t.is_win,
                                                                          wild=t.wild, plays=t.kind.name)
                                                           for t in ev.reading.hand], False)]
            view.fans = [FanView(f.name, self.value_text(f.value, f.unit), f.count) for f in ev.fans]
            view.units = [(u, W.num(v)) for u, v in ev.units.items()]
            wanted = list(self.shown_quantities) + [w for w, _ in ex.expects if w in ev.quantities
                                                    and w not in self.shown_quantities]
            view.quantities = [(q, W.num(ev.quantities.get(q))) for q in wanted if q in ev.quantities]
            view.score = W.num(ev.score)
        if pattern is not None:
            counts = pattern.name in {f.pattern for f in res.fans}
            if role == "example":
                view.verdict = f"计「{pattern.name}」" if counts else f"没有计「{pattern.name}」"
            else:
                view.verdict = f"不计「{pattern.name}」" if not counts else f"计了「{pattern.name}」"
        return view

    def setting(self, name: str, value: E.Expr) -> tuple[str, str, list[TileView]]:
        if isinstance(value, E.TileLit):
            views = self.book.views(value.tiles)
            text = "、".join(value.tiles) if any(t.glyph for t in views) else "".join(t.text for t in views)
            return name, text, views
        return name, self.writer.text(value), []

    def expect_text(self, what: str, value: E.Expr) -> str:
        if what == "fans" and isinstance(value, E.ListLit):
            return "、".join(getattr(i, "name", "?") for i in value.items)
        if what == "win" and isinstance(value, E.Bool):
            return "能和" if value.value else "不能和"
        return self.writer.text(value)


def value_text(value, unit: str, combine: str) -> str:
    """6番, 1分; a multiplier as ×2 when the unit is the word for "times"."""
    v = W.num(value)
    if combine == "product" and unit == W.TIMES:
        return f"×{v}"
    return f"{v}{unit}"


def _names(notation, text: str) -> list[str]:
    return notation.parse(text) if text else []
