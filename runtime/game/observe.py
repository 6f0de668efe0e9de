"""What one player sees.

By default a player sees its own concealed tiles, the tile it just drew, its own player states, and of
everyone: the number of concealed tiles, the melds as they are shown (exposed melds whole; a concealed
meld only its `shown` tiles), the discards, the tiles set aside, the balances and who plays under
`then auto`; the table's states, the visible reveals, the hand's task, the tiles left in the wall and
who is to act. Never another player's concealed tiles, drawn tile or player states, and never the
wall — unless an `observe` rule shows them: `what` (hand, drawn, melds, kong_tiles) of `owner` to
`viewer` while its `when` holds.
"""
from __future__ import annotations

from ..money import exact
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

    def melds_of(s, full: bool, kong_tiles: bool):
        out = []
        for m in s.melds:
            mk = game.rs.meld(m.kind)
            if full or m.exposed:
                out.append({"kind": m.kind, "tiles": [t.name for t in m.tiles], "exposed": m.exposed})
            else:
                shown = game.shown_tiles(m)
                if kong_tiles and mk.kong and not shown:  # `observe … kong_tiles`: the top tile only
                    shown = m.tiles[-1:]
                out.append({"kind": m.kind, "tiles": [t.name for t in shown],
                            "hidden": len(m.tiles) - len(shown), "exposed": False})
        return out

    seats = []
    for s in st.seats:
        own = s is me
        what = extra.get(s.index, set())
        d = {"seat": s.index, "dealer": s.index == st.dealer, "hand_size": len(s.hand),
             "melds": melds_of(s, own or "melds" in what, "kong_tiles" in what),
             "discards": [t.name for t in s.discards], "aside": [t.name for t in s.aside],
             "balance": plain(s.balance), "balance_exact": exact(s.balance), "auto": s.auto}
        if not own and "hand" in what:
            d["hand"] = sorted((t.name for t in s.hand), key=lambda n: game.cat.by_name[n].index)
        if not own and ("drawn" in what or "hand" in what) and s.drawn is not None:
            d["drawn"] = s.drawn.name
        seats.append(d)
    visible = {r.name for r in game.rs.reveals if r.visible}
    return {
        "seat": seat, "decision": game.decision, "players": st.n, "dealer": st.dealer, "turn": st.turn,
        "wall_left": len(st.wall),
        "hand": sorted((t.name for t in me.hand), key=lambda n: game.cat.by_name[n].index),
        "drawn": me.drawn.name if me.drawn else None,
        "state": {k: plain(v) for k, v in me.vars.items()},
        "seats": seats,
        "table": {k: plain(v) for k, v in st.table.items()},
        "reveals": {k: plain(v) for k, v in st.reveals.items() if k in visible},
        "task": st.task,
        "to_act": game.current_seats(),
        "legal_moves": [str(m) for m in game.legal_moves(seat)],
        "over": st.over,
        "result": game.result() if st.over else None,
    }
