"""What the greedy and mixed bots (runtime/game/bots.py) read of a seat's hand beyond the legal moves:
whether a discard leaves a hand that wins on any tile, the tiles a fixed tile set holds together, a
discard towards an orphans form, and whether a wildcard may still be drawn.
"""
from __future__ import annotations

from collections import Counter

from .moves import Move


def wins_on_anything(game, seat, without: str) -> bool:
    """Whether the seat's concealed hand, after giving up one `without`, waits on every tile kind it
    could still draw (every non-flower kind of which not all copies are its own), by the forms that split
    the hand into groups (`group_waits`): a wildcard left alone, not an instant form that wins anyway."""
    cat = game.cat
    waits = game.waits_without(seat, cat.by_name[without], groups=True)
    if not waits:
        return False
    held = Counter(t.name for t in seat.hand)
    for m in seat.melds:
        held.update(t.name for t in m.tiles)
    held[without] -= 1
    drawable = sum(1 for k in cat.kinds if k.category != "flower" and held[k.name] < k.copies)
    return len(waits) >= drawable


def set_partners(rs) -> dict[str, set[str]]:
    """For each tile name, the other names it forms a concealed group of a fixed tile set with (a hand
    meld kind of `tiles` shape): such tiles count as neighbours too, so a set is not broken up."""
    out: dict[str, set[str]] = {}
    for mk in rs.melds:
        if mk.hand and mk.shape.kind == "tiles":
            for name in mk.shape.tiles:
                out.setdefault(name, set()).update(x for x in mk.shape.tiles if x != name)
    return out


ORPHANS_GAP = 4  # chase an orphans form when the hand lacks at most this many of its kinds


def orphans_discard(game, seat, discards: list[Move]) -> Move | None:
    """A discard towards an `orphans` form (one of each kind with an attribute, plus one more of them)
    when the seat has no melds and already holds all but `ORPHANS_GAP` of those kinds: first a tile
    without the attribute, then a surplus copy (a third one, or a second pair); never a wildcard nor the
    only copy of a kind. None when no form is worth chasing or nothing is spare."""
    if seat.melds:
        return None
    wild = game.hand_wild_names
    held = Counter(t.name for t in seat.hand)
    for f, _, _ in game.rules.forms:
        if not f.orphans:
            continue
        members = [k.name for k in game.cat.kinds if k.attrs.get(f.orphans)]
        if sum(1 for n in members if held[n]) < len(members) - ORPHANS_GAP:
            continue
        pairs = sum(1 for n in members if held[n] >= 2)

        def spare(m: Move, members=frozenset(members), pairs=pairs) -> int:  # 0: not wanted, 1: surplus, 2: keep
            n = m.tiles[0]
            if n in wild:
                return 2
            if n not in members:
                return 0
            return 1 if held[n] >= 3 or (held[n] == 2 and pairs > 1) else 2
        best = min(discards, key=lambda m: (spare(m), -game.cat.by_name[m.tiles[0]].index))
        if spare(best) < 2:
            return best
    return None


def wildcard_to_come(game, s, wild) -> bool:
    """Whether a copy of a wildcard kind may still be drawn: not all of them are in sight (discards,
    melds, shown reveals) or in the seat's own hand."""
    own = Counter(t.name for t in s.hand)
    return any(game.visible_count(game.cat.by_name[n]) + own[n] < game.cat.by_name[n].copies for n in wild)
