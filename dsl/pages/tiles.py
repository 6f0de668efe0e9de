"""Tiles and cards as the page shows them: each kind drawn as an SVG face (dsl/pages/faces.py) defined
once per page, with the kind's name as the title and the text alternative, so a tile reads the same
with any font. The Markdown page, which cannot draw, writes a card's character or a tile's name (a
Unicode tile glyph would be a box without a tile font)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from markupsafe import Markup

from ...runtime.ir import nodes as ir
from .faces import Face, card_face, plain_face, sprite, standard_tile, tile_face


@dataclass(frozen=True)
class TileView:
    name: str  # the kind's name
    text: str  # its text form (Markdown): the card's character, else the kind's name (never a tile glyph,
    # which a reader without a tile font sees as a box)
    category: str  # suited | honor | flower | joker
    glyph: bool  # drawn as a standard mahjong tile (the face alone does not spell the name)
    win: bool = False  # the winning tile
    wild: bool = False  # a wildcard in this reading
    plays: str = ""  # for a wildcard or stand-in: the tile it plays as
    ink: str = ""  # the print colour the rule set declares for this kind (`ink`), else the default
    face: Face | None = field(default=None, compare=False)  # the drawn face (its symbol on the page)

    @property
    def title(self) -> str:
        if self.plays and self.plays != self.name:
            return f"{self.name}（当{self.plays}）"
        return self.name

    @property
    def caption(self) -> str:
        """The name beside a drawn tile (a card's character already says what the card is)."""
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
    """The tile kinds of one rule set, by name, with their faces. `prefix` keeps the faces' ids apart
    from another rule set's on a page that shows both (the index)."""

    def __init__(self, rs: ir.RuleSet, prefix: str = ""):
        self.kinds = {k.name: k for k in rs.tiles.kinds}
        self.inks: dict[str, str] = {}
        if rs.tiles.inks:
            from ...runtime.tiles import Catalog

            for k in Catalog(rs, {}).kinds:  # computed attributes under the default room options
                for ink in rs.tiles.inks:  # the first `ink` that applies wins
                    if k.name not in self.inks and (k.attrs.get(ink.attr) or k.category == ink.attr):
                        self.inks[k.name] = ink.colour
        self.prefix = "t" + hashlib.sha1(prefix.encode("utf-8")).hexdigest()[:6]
        self.faces: dict[str, Face] = {}  # by kind name, in the order first drawn

    def face(self, name: str) -> Face:
        f = self.faces.get(name)
        if f is not None:
            return f
        k = self.kinds.get(name)
        fid = f"{self.prefix}-{len(self.faces)}"
        ink = self.inks.get(name, "")
        if k is None:
            f = plain_face(fid, name, ink)
        else:
            suit = k.suit if k.category == "suited" else ""
            f = tile_face(fid, k.name, k.glyph, k.rank, suit) if k.glyph else None
            if f is None:
                f = card_face(fid, k.char or k.name, ink, k.category == "joker") if (
                    k.char or k.category == "joker") else plain_face(fid, k.name, ink)
        self.faces[name] = f
        return f

    def view(self, name: str, win: bool = False, wild: bool = False, plays: str = "") -> TileView:
        k = self.kinds.get(name)
        face = self.face(name)
        if k is None:
            return TileView(name, name, "suited", False, win, wild, plays, face=face)
        drawn = standard_tile(k.glyph) is not None
        text = k.name if drawn else (k.char or k.glyph or k.name)
        return TileView(k.name, text, k.category, drawn, win, wild, plays, self.inks.get(k.name, ""), face)

    def views(self, names) -> list[TileView]:
        return [self.view(n) for n in names]

    def sprite(self) -> str:
        """Every face drawn so far, as the page's symbol definitions."""
        return Markup(sprite(self.faces.values()))

    def plain(self, names) -> str:
        """Tiles as one line of text (the Markdown page): characters, or names joined by ·."""
        views = self.views(names)
        return ("·" if any(v.glyph for v in views) else "").join(v.text for v in views)
