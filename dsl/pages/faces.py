"""Tile and card faces drawn as SVG, so a page needs no tile font: each kind's face is one `<symbol>`,
defined once per page and drawn with `<use>` wherever the tile appears.

What a face shows comes from what the rule file declares for the kind:

- a kind with a Unicode mahjong glyph (U+1F000–U+1F02B) is drawn as the standard tile that code point
  stands for: dots and bamboo as circles and sticks by rank, characters as the rank's numeral over the
  suit's own name, winds and dragons by the kind's name (the white dragon as its blue frame), flowers and
  seasons by the kind's name with their number. These are the generic drawing rules of Unicode's tile set;
  every word drawn is the rule file's (names, suit name), never one written here;
- a kind with a character (`chars`, paper cards) is a tall card with that character, printed in the
  colour the rule set's `ink` gives it;
- a joker without either is a card with its name; any other kind, a face with its name.

The glyph itself is never printed: the tile's name is its text alternative (title / aria-label).
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from . import words as W

# the standard mahjong tiles of Unicode, by offset from U+1F000
_BASE = 0x1F000
_WINDS = range(0, 4)
_RED_DRAGON, _GREEN_DRAGON, _WHITE_DRAGON = 4, 5, 6
_CHARACTERS = range(7, 16)
_BAMBOO = range(16, 25)
_DOTS = range(25, 34)
_FLOWERS = range(34, 38)  # plum, orchid, bamboo, chrysanthemum: numbered 1–4
_SEASONS = range(38, 42)  # spring … winter: numbered 1–4
_JOKER = 42

INK = {"red": "#c0261b", "green": "#1d7a3a", "blue": "#1f4f9e", "": "#1d1b17"}
_DARK = "#1d1b17"
_RED, _GREEN, _BLUE = INK["red"], INK["green"], INK["blue"]
_ACCENT = "#a3322a"

TILE_BOX = "0 0 30 40"  # a mahjong tile's face (3:4)
CARD_BOX = "0 0 22 40"  # a paper card (long and narrow)


@dataclass(frozen=True)
class Face:
    id: str  # the symbol's id on the page
    shape: str  # tile | card: the box the face is drawn in
    body: str  # the symbol's content (SVG elements)

    def symbol(self) -> str:
        box = TILE_BOX if self.shape == "tile" else CARD_BOX
        return f'<symbol id="{self.id}" viewBox="{box}">{self.body}</symbol>'


def standard_tile(glyph: str) -> int | None:
    """The offset of a Unicode mahjong tile glyph (None for any other text)."""
    if len(glyph) != 1:
        return None
    o = ord(glyph) - _BASE
    return o if 0 <= o <= _JOKER else None


def _text(s: str, x: float, y: float, size: float, fill: str, weight: str = "700") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="middle">{escape(s, quote=False)}</text>')


def _fit(s: str, width: float, size: float) -> float:
    """A font size at which `s` (CJK, one em per character) fits `width`."""
    return min(size, width / max(1, len(s)))


# --- dots: (x, y) of each circle, its radius, and the colour of each circle, by rank

_DOT_LAYOUT = {
    1: ([(15, 20)], 10),
    2: ([(15, 11), (15, 29)], 6),
    3: ([(8, 9), (15, 20), (22, 31)], 5),
    4: ([(9, 11), (21, 11), (9, 29), (21, 29)], 5.2),
    5: ([(8.5, 10), (21.5, 10), (15, 20), (8.5, 30), (21.5, 30)], 4.6),
    6: ([(9, 8), (21, 8), (9, 20), (21, 20), (9, 32), (21, 32)], 4.6),
    7: ([(7, 6.5), (15, 11), (23, 15.5), (9.5, 25), (20.5, 25), (9.5, 34), (20.5, 34)], 3.9),
    8: ([(9, 6), (21, 6), (9, 15.3), (21, 15.3), (9, 24.7), (21, 24.7), (9, 34), (21, 34)], 4.1),
    9: ([(7, 8), (15, 8), (23, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)], 3.8),
}
_DOT_COLOURS = {
    1: [_BLUE], 2: [_GREEN, _BLUE], 3: [_BLUE, _RED, _GREEN], 4: [_BLUE, _GREEN, _GREEN, _BLUE],
    5: [_BLUE, _GREEN, _RED, _GREEN, _BLUE], 6: [_GREEN, _GREEN] + [_RED] * 4,
    7: [_GREEN] * 3 + [_RED] * 4, 8: [_BLUE] * 8, 9: [_BLUE] * 3 + [_RED] * 3 + [_GREEN] * 3,
}


def _dots(rank: int) -> str:
    spots, r = _DOT_LAYOUT[rank]
    out = []
    for (x, y), c in zip(spots, _DOT_COLOURS[rank]):
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r - .6:g}" fill="none" stroke="{c}" stroke-width="1.2"/>'
                   f'<circle cx="{x:g}" cy="{y:g}" r="{r * .42:g}" fill="{_RED if rank == 1 else c}"/>')
    return "".join(out)


# --- bamboo: the centre of each stick, the sticks' height, and which are red, by rank

_STICK_LAYOUT = {
    2: ([(15, 11), (15, 29)], 14),
    3: ([(15, 11), (9, 29), (21, 29)], 14),
    4: ([(9, 11), (21, 11), (9, 29), (21, 29)], 14),
    5: ([(7, 11), (23, 11), (15, 20), (7, 29), (23, 29)], 13),
    6: ([(7, 11), (15, 11), (23, 11), (7, 29), (15, 29), (23, 29)], 14),
    7: ([(15, 7.5), (7, 20), (15, 20), (23, 20), (7, 32.5), (15, 32.5), (23, 32.5)], 10),
    8: ([(5, 11), (11.7, 11), (18.3, 11), (25, 11), (5, 29), (11.7, 29), (18.3, 29), (25, 29)], 14),
    9: ([(7, 7.5), (15, 7.5), (23, 7.5), (7, 20), (15, 20), (23, 20), (7, 32.5), (15, 32.5), (23, 32.5)], 10),
}
_RED_STICKS = {5: {2}, 7: {0}, 9: {1, 4, 7}}


def _stick(x: float, y: float, h: float, colour: str, w: float = 3.4) -> str:
    top = y - h / 2
    return (f'<rect x="{x - w / 2:g}" y="{top:g}" width="{w:g}" height="{h:g}" rx="1.4" fill="{colour}"/>'
            f'<path d="M{x - w / 2:g} {y:g}h{w:g}" stroke="#fff" stroke-width=".7"/>')


def _bamboo(rank: int) -> str:
    if rank == 1:  # the one of bamboo: a single large stick with its leaves
        return (_stick(15, 21, 28, _GREEN, 6)
                + f'<path d="M15 8 C8 6 6 12 4 14 M15 8 C22 6 24 12 26 14" stroke="{_GREEN}" '
                  f'stroke-width="1.6" fill="none"/><circle cx="15" cy="7" r="2.6" fill="{_RED}"/>')
    spots, h = _STICK_LAYOUT[rank]
    red = _RED_STICKS.get(rank, set())
    return "".join(_stick(x, y, h, _RED if i in red else _GREEN) for i, (x, y) in enumerate(spots))


def _frame(colour: str) -> str:
    return (f'<rect x="6" y="7" width="18" height="26" rx="2" fill="none" stroke="{colour}" stroke-width="2"/>'
            f'<rect x="9.5" y="10.5" width="11" height="19" rx="1" fill="none" stroke="{colour}" stroke-width="1"/>')


def _named(name: str, colour: str, number: int = 0) -> str:
    """The kind's own name, large; with a small number in the corner (flowers and seasons)."""
    size = _fit(name, 26, 21)
    out = _text(name, 15, 20 + size * .38, size, colour)
    if number:
        out += _text(str(number), 6, 9, 8, _RED, "400")
    return out


def tile_face(id: str, name: str, glyph: str, rank: int, suit: str) -> Face | None:
    """The face of a standard mahjong tile (None when `glyph` is not one)."""
    o = standard_tile(glyph)
    if o is None:
        return None
    if o in _DOTS:
        body = _dots(o - _DOTS.start + 1)
    elif o in _BAMBOO:
        body = _bamboo(o - _BAMBOO.start + 1)
    elif o in _CHARACTERS:
        numeral = W.cn_number(o - _CHARACTERS.start + 1)
        word = suit or name
        body = _text(numeral, 15, 16, 14, _DARK) + _text(word, 15, 35, _fit(word, 24, 16), _RED)
    elif o in _WINDS:
        body = _named(name, _DARK)
    elif o == _RED_DRAGON:
        body = _named(name, _RED)
    elif o == _GREEN_DRAGON:
        body = _named(name, _GREEN)
    elif o == _WHITE_DRAGON:
        body = _frame(_BLUE)
    elif o in _FLOWERS:
        body = _named(name, _GREEN, o - _FLOWERS.start + 1)
    elif o in _SEASONS:
        body = _named(name, _RED, o - _SEASONS.start + 1)
    else:  # the joker tile
        body = _named(name, _ACCENT)
    return Face(id, "tile", body)


def card_face(id: str, text: str, ink: str, joker: bool) -> Face:
    """A paper card: its character (or, for a joker, its name) in the card's print colour."""
    colour = _ACCENT if joker and not ink else INK.get(ink, _DARK)
    size = _fit(text, 19, 19)
    body = _text(text, 11, 20 + size * .38, size, colour)
    return Face(id, "card", body)


def plain_face(id: str, name: str, ink: str) -> Face:
    """A tile the rule file gives no glyph or character: its name."""
    return Face(id, "tile", _named(name, INK.get(ink, _DARK)))


def sprite(faces) -> str:
    """The page's symbol definitions (each face once, in the order given)."""
    seen: dict[str, Face] = {}
    for f in faces:
        seen.setdefault(f.id, f)
    if not seen:
        return ""
    return ('<svg class="sprite" aria-hidden="true" width="0" height="0" focusable="false">'
            + "".join(f.symbol() for f in seen.values()) + "</svg>")
