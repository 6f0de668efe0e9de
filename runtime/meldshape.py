"""Whether tiles laid down form a meld of a kind — the shape its rule set declares — and how the shape is
said in a refusal: the check of every meld a caller gives (`build_hand`, the native batch's melds, the
game's moves).

A caller scoring hand after hand gives the same few melds again and again, written the same way, so
`MeldChecks` keeps each answer by the meld kind, the text and the catalog that read it (the same text
under the same catalog is the same tiles)."""
from __future__ import annotations

from collections import Counter

from .ir import nodes as ir
from .tiles import Catalog, TileInfo

MELD_CHECKS_KEPT = 4096  # answers a rule set keeps (the table starts over past it)


def meld_matches(mk: ir.MeldKind, tiles: list[TileInfo]) -> bool:
    """Whether `tiles` form a meld of kind `mk` (its shape, and its growth within `grow_limit`)."""
    s = mk.shape
    size_ok = len(tiles) == s.size or (mk.grows and s.size < len(tiles) <= s.size + mk.grow_limit)
    if not size_ok:
        return False
    if s.kind == "same":
        return all(t.name == tiles[0].name for t in tiles)
    if s.kind in ("run", "ranks"):
        if tiles[0].suit is None or any(t.suit != tiles[0].suit for t in tiles):
            return False
        ranks = sorted(t.rank for t in tiles)
        if s.kind == "run":
            return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))
        return ranks == sorted(s.ranks)
    if s.kind == "tiles":
        base = Counter(s.tiles)
        got = Counter(t.name for t in tiles)
        if len(tiles) > s.size:  # grown: the shape's tiles plus further ones of the same
            return all(got[k] >= n for k, n in base.items()) and set(got) <= set(base)
        return got == base
    if s.kind == "same_rank":
        if any(t.suit is None or t.rank != tiles[0].rank for t in tiles):
            return False
        return not s.mixed or len({t.suit for t in tiles}) > 1
    return False


def shape_text(mk: ir.MeldKind) -> str:
    """The shape of meld kind `mk` in words (the refusal of a meld that does not have it)."""
    s = mk.shape
    return {"same": f"{s.size} identical tiles", "run": f"{s.size} consecutive tiles of one suit",
            "ranks": f"the ranks {', '.join(map(str, s.ranks))} of one suit",
            "tiles": "exactly " + "".join(s.tiles),
            "same_rank": f"{s.size} tiles of one rank" + (" from more than one suit" if s.mixed else "")}[s.kind]


class MeldChecks:
    """`meld_matches` of melds given as text, each answer kept by (meld kind, text, catalog)."""

    def __init__(self) -> None:
        self.kept: dict[tuple, bool] = {}

    def text_matches(self, mk: ir.MeldKind, text: str, cat: Catalog, tiles: list[TileInfo]) -> bool:
        """Whether `tiles` (what `cat` read from `text`) form a meld of kind `mk`."""
        key = (mk.name, text, cat)
        got = self.kept.get(key)
        if got is None:
            got = meld_matches(mk, tiles)
            if len(self.kept) >= MELD_CHECKS_KEPT:
                self.kept.clear()
            self.kept[key] = got
        return got


__all__ = ["MELD_CHECKS_KEPT", "MeldChecks", "meld_matches", "shape_text"]
