"""Tiles and cards as the page shows them: the kind's Unicode glyph when it has one (mahjong tiles),
else its character (paper cards: 一, 壹, …), else its name; with the name as the tooltip, so a tile is
readable even without a font that has the glyphs."""
from __future__ import annotations

from dataclasses import dataclass

from ...runtime.ir import nodes as ir


@dataclass(frozen=True)
class TileView:
    name: str  # the kind's name
    text: str  # what is drawn: glyph, character or name
    category: str  # suited | honor | flower | joker
    glyph: bool  # `text` is a Unicode tile glyph
    win: bool = False  # the winning tile
    wild: bool = False  # a wildcard in this reading
    plays: str = ""  # for a wildcard or stand-in: the tile it plays as
    ink: str = ""  # the print colour the rule set declares for this kind (`ink`), else the default

    @property
    def title(self) -> str:
        if self.plays and self.plays != self.name:
            return f"{self.name}（当{self.plays}）"
        return self.name

    @property
    def caption(self) -> str:
        """The name beside a glyph (a character already says what the card is)."""
        return self.name if self.glyph else ""

    @property
    def classes(self) -> str:
        out = ["tile", self.category, "glyph" if self.glyph else "card"]
        if self.win:
            out.append("win")
        if self.wild:
            out.append("wild")
        if self.ink:
            out.append(f"ink-{self.ink}")
        return " ".join(out)


class TileBook:
    """The tile kinds of one rule set, by name."""

    def __init__(self, rs: ir.RuleSet):
        self.kinds = {k.name: k for k in rs.tiles.kinds}
        self.inks: dict[str, str] = {}
        if rs.tiles.inks:
            from ...runtime.tiles import Catalog

            for k in Catalog(rs, {}).kinds:  # computed attributes under the default room options
                for ink in rs.tiles.inks:  # the first `ink` that applies wins
                    if k.name not in self.inks and (k.attrs.get(ink.attr) or k.category == ink.attr):
                        self.inks[k.name] = ink.colour

    def view(self, name: str, win: bool = False, wild: bool = False, plays: str = "") -> TileView:
        k = self.kinds.get(name)
        if k is None:
            return TileView(name, name, "suited", False, win, wild, plays)
        text = k.glyph or k.char or k.name
        return TileView(k.name, text, k.category, bool(k.glyph), win, wild, plays, self.inks.get(k.name, ""))

    def views(self, names) -> list[TileView]:
        return [self.view(n) for n in names]

    def plain(self, names) -> str:
        """Tiles as one line of text (the Markdown page): glyphs or characters."""
        return "".join(self.view(n).text for n in names)
