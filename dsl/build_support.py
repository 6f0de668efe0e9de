"""What the builders share: a suit expanded into its tile kinds, spans of a whole file and of an
expression, an argument as it is shown in a message."""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir.span import Span


def expand_suit(suit: ir.Suit) -> list[ir.TileKind]:
    out = []
    for i, rank in enumerate(range(suit.lo, suit.hi + 1)):
        name = suit.names[i] if suit.names else f"{rank}{suit.name}"
        code = f"{rank}{suit.code}" if suit.code else ""
        char = suit.chars[i] if suit.chars else ""
        glyph = suit.glyphs[i] if suit.glyphs else ""
        out.append(ir.TileKind(name, "suited", suit.copies, suit=suit.name, rank=rank, code=code, char=char,
                               glyph=glyph, attrs=suit.attrs, enabled=suit.enabled, span=suit.span))
    return out


def file_span(file: str):

    return Span(file, 1, 1)


def respan(e: E.Expr, span) -> E.Expr:
    import dataclasses

    return dataclasses.replace(e, span=span)


def show(a) -> str:
    return str(a.value) if a.kind in ("name", "number", "string") else a.describe()
