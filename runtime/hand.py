"""A hand to score, parsed and validated against a rule set: concealed tiles, exposed melds, the
winning tile, self-drawn or not, and situation values. Every problem is one sentence (HandError)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .limits import MAX_HAND_TILES, MAX_MELDS, MAX_TILE_TEXT
from .notation import Notation, NotationError
from .tiles import Catalog, TileInfo


class HandError(ValueError):
    """The hand or its context is invalid; the message is one sentence for the user."""


@dataclass
class Meld:
    """A group laid down (exposed or concealed): its meld kind and tiles."""

    kind: str
    tiles: list[TileInfo]


@dataclass
class Hand:
    """A hand to score: the concealed tiles, the laid-down melds, the winning tile, how it was won."""

    concealed: list[TileInfo]  # without the winning tile
    melds: list[Meld] = field(default_factory=list)
    win: TileInfo | None = None
    self_drawn: bool = False
    flowers: list[TileInfo] = field(default_factory=list)  # flower tiles set aside (in no group)

    def __post_init__(self):
        # a truth value as the reference has always read it (1, numpy's bool_, …), kept as a bool so the native
        # core, which takes a bool only, answers every hand the reference answers
        if self.self_drawn is not True and self.self_drawn is not False:
            self.self_drawn = bool(self.self_drawn)

    def all_tiles(self) -> list[TileInfo]:
        out = list(self.concealed) + [t for m in self.melds for t in m.tiles] + list(self.flowers)
        if self.win is not None:
            out.append(self.win)
        return out


def parse_tiles(notation: Notation, catalog: Catalog, text: str, what: str, reader=None) -> list[TileInfo]:
    """The tiles written in `text`, or HandError naming the mistake. `reader`, when given, is the native
    tables' own reading of the notation (text -> catalog indexes, None for any mistake): it answers text
    without a mistake in one call, and the Python notation reads the rest to say what is wrong."""
    if not isinstance(text, str):
        raise HandError(f"{what} must be text (tiles in the variant's notation), not {type(text).__name__}")
    if len(text) > MAX_TILE_TEXT:  # refused before any parsing: its cost grows with the text
        raise HandError(f"{what} is {len(text)} characters long; at most {MAX_TILE_TEXT} are read")
    if reader is not None:
        try:
            got = reader(text)
        except Exception:  # noqa: BLE001 - the native reading failed (counted there): the notation reads it
            got = None
        if got is not None:
            return list(map(catalog.kinds.__getitem__, got))
    try:
        names = notation.parse(text)
    except NotationError as exc:
        raise HandError(f"{what} '{text}': {exc}") from None
    by_name = catalog.by_name
    try:
        return [by_name[n] for n in names]
    except KeyError:
        n = next(n for n in names if n not in by_name)
        raise HandError(f"{what} '{text}': tile {n} is not in play under these room options") from None


def build_hand(rules, hand: str, melds: list[str] | None = None, win: str | None = None,
               self_drawn: bool = False, catalog: Catalog | None = None, reader=None) -> Hand:
    """Parse `--hand`, `--meld KIND:TILES`, `--win` and check them against the rule set. Flower tiles
    written in the hand are set aside: they join no group and are listed as the reading's `flowers`.
    `reader`: the native reading of the catalog's notation (`parse_tiles`), when there is one."""
    cat = catalog or rules.catalog
    concealed = parse_tiles(rules.notation, cat, hand or "", "hand", reader)
    flowers = [t for t in concealed if t.category == "flower"] if cat.has_flowers else []
    if flowers:
        concealed = [t for t in concealed if t.category != "flower"]
    parsed_melds: list[Meld] = []
    if len(melds or ()) > MAX_MELDS:
        raise HandError(f"{len(melds)} melds given; a hand has at most {MAX_MELDS}")
    for text in melds or []:
        if not isinstance(text, str):
            raise HandError(f"a meld must be text KIND:TILES, not {type(text).__name__}")
        if ":" not in text:
            raise HandError(f"meld '{text}' must be written KIND:TILES, e.g. {_meld_example(rules)}")
        kind, tiles_text = text.split(":", 1)
        kind = kind.strip()
        mk = rules.ir.meld(kind)
        if mk is None or mk.pair:
            known = ", ".join(m.name for m in rules.ir.melds if not m.pair)
            if mk is None:
                raise HandError(f"unknown meld kind '{kind}' (this rule set has: {known})")
            raise HandError(f"'{kind}' is a pair, not a meld that can be laid down (melds: {known})")
        tiles = parse_tiles(rules.notation, cat, tiles_text, f"meld {kind}", reader)
        if not rules.meld_checks.text_matches(mk, tiles_text, cat, tiles):
            raise HandError(f"meld {kind}:{tiles_text} is not a {kind} ({rules.shape_text(mk)})")
        parsed_melds.append(Meld(kind, tiles))
    win_tile = None
    if win:
        ws = parse_tiles(rules.notation, cat, win, "winning tile", reader)
        if len(ws) != 1:
            raise HandError(f"the winning tile is one tile, not {len(ws)} in '{win}'")
        win_tile = ws[0]
        if win_tile.category == "flower":
            raise HandError(f"the winning tile {win} is a flower, which is set aside and never wins (write it in the "
                            "hand)")
    h = Hand(concealed, parsed_melds, win_tile, self_drawn, flowers)
    counts = [0] * len(cat.kinds)
    every = h.all_tiles()
    if len(every) > MAX_HAND_TILES:
        raise HandError(f"the hand has {len(every)} tiles; at most {MAX_HAND_TILES} are scored")
    over = False
    for t in every:
        n = counts[t.index] = counts[t.index] + 1
        over = over or n > t.copies
    if over:  # the first tile, in the hand's order, of a kind used more often than it exists
        t = next(t for t in every if counts[t.index] > t.copies)
        raise HandError(f"the hand uses {counts[t.index]} of {t.name} but only {t.copies} exist")
    return h


def _meld_example(rules) -> str:
    exposed = [m for m in rules.ir.melds if m.exposed]
    return f"{exposed[0].name}:…" if exposed else "KIND:TILES"
