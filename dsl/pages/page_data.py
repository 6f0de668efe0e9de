"""The help page of a variant as data (what the templates render): text with its notes (the player's text
without the encoder's remarks), facts, rows and tables of tiles, melds, patterns, settings and payments,
chapters, the designer's appendix, the page."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...runtime.ir import nodes as ir
from . import words as W
from .examples import ExampleView
from .formula import Formula
from .tiles import TileView

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


# a name of the rule language (`round`, next(…), each_other, a `max` unit): two or more Latin letters, an
# underscore or a code quote; a lone letter is algebra (第n圈, 2^(n-1)) and stays
_LANGUAGE_NAME = re.compile(r"[A-Za-z]{2,}|_|`")


def _encoders(text: str) -> bool:
    return any(w in text for w in W.SOURCE_WORDS)


def for_player(text: str, note: bool) -> str:
    """Page text for the player's page: parentheses holding the encoder's remarks or the language's own
    names dropped, and, in a note, the sentences about the source or the tools (words.SOURCE_WORDS) or
    speaking in the language's names."""
    def aside(m):
        inner = m.group(0)
        return "" if _encoders(inner) or _LANGUAGE_NAME.search(inner) else inner
    out = _ASIDE.sub(aside, text)
    if note:
        out = "".join(s for s in _SENTENCE.findall(out) if not _encoders(s) and not _LANGUAGE_NAME.search(s))
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
