"""What one player sees, and what an onlooker (someone not seated) sees.

By default a player sees its own concealed tiles, the tile it just drew, its own player states, and of
everyone: the number of concealed tiles, the melds as they are shown (exposed melds whole; a concealed
meld only its `shown` tiles), the discards, the tiles set aside, the balances and who plays under
`then auto`; the table's states, the visible reveals, the hand's task, every roll of the hand (`chance`),
the tiles left in the wall and who is to act. Never another player's concealed tiles, drawn tile or
player states (but those declared `visible`), and never the wall — unless an `observe` rule shows them:
`what` (hand, drawn, melds, kong_tiles) of `owner` to `viewer` while its `when` holds.

An onlooker sees what every player sees of everyone, and of each seat what an `observe` rule shows while
its `when` holds with `viewer` bound to none (no seat): a rule that asks about the viewer's own state
(`viewer.STATE`) shows an onlooker nothing, one that asks `viewer != owner` or nothing of the viewer shows
it. It has no hand, no player states and no legal moves.

Tiles are named by their names; beside each key that names tiles stands the codes the rule set's notation
writes them with (`TileInfo.notation_code`; docs/engine.md, "Tile codes in results"): `hand` →
`hand_codes`, `drawn` → `drawn_code`, a seat's `discards` → `discards_codes`, `aside` → `aside_codes`, a
meld's `tiles` → `codes`, and `reveals_codes` for the visible reveals that hold tiles. Each seat carries
its `name` (`table { seat_names }`, counted in play order from the dealer; null where the rules name none).
"""
from __future__ import annotations

from ..money import exact
from ..tiles import TileInfo
from .records import EVAL_ERRORS
from .state import plain


def observation(game, seat: int) -> dict:
    st = game.st
    me = st.seats[seat]
    extra: dict[int, set[str]] = {}
    for o, when in game.prog.observes:
        for owner in st.seats:
            if owner is me:
                continue
            if game.condition_holds(when, viewer=me, owner=owner, actor=owner, tile=game.tv(owner.drawn)):
                extra.setdefault(owner.index, set()).add(o.what)
    return {
        "seat": seat, **_table(game, _seats(game, extra, seat)),
        "hand": (hand := _sorted(game, me.hand)), "hand_codes": _codes(game, hand),
        "drawn": me.drawn.name if me.drawn else None,
        "drawn_code": me.drawn.notation_code if me.drawn else None,
        "state": {k: plain(v) for k, v in me.vars.items()},
        "legal_moves": [str(m) for m in game.legal_moves(seat)],
    }


def onlooker_observation(game) -> dict:
    """What someone not seated sees (the module's docstring): the table, and each seat as the rules'
    `observe` declarations show it to no seat in particular."""
    st = game.st
    extra: dict[int, set[str]] = {}
    for o, when in game.prog.observes:
        for owner in st.seats:
            if _holds_for_onlooker(game, when, owner):
                extra.setdefault(owner.index, set()).add(o.what)
    return {"seat": None, **_table(game, _seats(game, extra, None))}


def _holds_for_onlooker(game, when, owner) -> bool:
    """Whether an `observe` condition holds with no viewer. Asked directly rather than through
    `condition_holds`: a condition that cannot be evaluated without a viewer is simply false for an
    onlooker, not an error of the rules to record in the game."""
    if when is None:
        return True
    try:
        return bool(when(game.env(None, viewer=None, owner=owner, actor=owner, tile=game.tv(owner.drawn))))
    except EVAL_ERRORS:
        return False


def _sorted(game, tiles: list[TileInfo]) -> list[str]:
    return sorted((t.name for t in tiles), key=lambda n: game.cat.by_name[n].index)


def _codes(game, names: list[str]) -> list[str]:
    """The notation codes of tiles given by name."""
    return [game.cat.by_name[n].notation_code for n in names]


def _tile_codes(v):
    """The codes of a value that is a tile or a list of tiles; None for any other value."""
    if isinstance(v, TileInfo):
        return v.notation_code
    if isinstance(v, list) and v and all(isinstance(x, TileInfo) for x in v):
        return [x.notation_code for x in v]
    return None


def _seats(game, extra: dict[int, set[str]], own: int | None) -> list[dict]:
    """Every seat as the viewer sees it (`own`: the viewer's seat, None for an onlooker); `extra`: per
    seat, what `observe` rules show of it."""
    st = game.st

    def melds_of(s, full: bool, kong_tiles: bool):
        out = []
        for m in s.melds:
            mk = game.rs.meld(m.kind)
            if full or m.exposed:
                out.append({"kind": m.kind, "tiles": [t.name for t in m.tiles],
                            "codes": [t.notation_code for t in m.tiles], "exposed": m.exposed})
            else:
                shown = game.shown_tiles(m)
                if kong_tiles and mk.kong and not shown:  # `observe … kong_tiles`: the top tile only
                    shown = m.tiles[-1:]
                out.append({"kind": m.kind, "tiles": [t.name for t in shown],
                            "codes": [t.notation_code for t in shown], "hidden": len(m.tiles) - len(shown),
                            "exposed": False})
        return out

    seats = []
    shown = [v.name for v in game.rs.states if v.scope == "player" and v.visible]  # (`state … { visible }`)
    names = game.seat_names()
    for s in st.seats:
        mine = s.index == own
        what = extra.get(s.index, set())
        d = {"seat": s.index, "name": names[s.index], "dealer": s.index == st.dealer, "hand_size": len(s.hand),
             "melds": melds_of(s, mine or "melds" in what, "kong_tiles" in what),
             "discards": [t.name for t in s.discards], "discards_codes": [t.notation_code for t in s.discards],
             "aside": [t.name for t in s.aside], "aside_codes": [t.notation_code for t in s.aside],
             "balance": plain(s.balance), "balance_exact": exact(s.balance), "auto": s.auto,
             "in_play": game.in_play(s.index)}
        if not mine and shown:
            d["state"] = {k: plain(s.vars.get(k)) for k in shown}
        if not mine and "hand" in what:
            d["hand"] = _sorted(game, s.hand)
            d["hand_codes"] = _codes(game, d["hand"])
        if not mine and ("drawn" in what or "hand" in what) and s.drawn is not None:
            d["drawn"] = s.drawn.name
            d["drawn_code"] = s.drawn.notation_code
        seats.append(d)
    return seats


def _table(game, seats: list[dict]) -> dict:
    """What everyone sees of the table."""
    st = game.st
    visible = {r.name for r in game.rs.reveals if r.visible}
    return {
        "decision": game.decision, "players": st.n, "dealer": st.dealer, "turn": st.turn,
        "wall_left": len(st.wall), "seats": seats,
        "table": {k: plain(v) for k, v in st.table.items()},
        "reveals": {k: plain(v) for k, v in st.reveals.items() if k in visible},
        "reveals_codes": {k: c for k, v in st.reveals.items() if k in visible and (c := _tile_codes(v)) is not None},
        "task": st.task,
        # every roll of the hand is in the open: what was drawn and where it went (a seat's state included)
        "chance": [{k: c[k] for k in ("target", "seat", "draws", "value")} for c in st.chance],
        "to_act": game.current_seats(),
        "over": st.over,
        "result": game.result() if st.over else None,
    }
