"""The game scope: the environment game-rule expressions are evaluated in.

A fresh `GameEnv` is made for every evaluation (comprehensions write their binders into it, and
equality tallies are cached in it). It starts from the game's base values — options, context values,
reveals, the dealer, the table, the game functions — plus the bindings of the moment (`actor`, `tile`,
`payer`, …). Values that change all the time (`wall_left`, `turn`, `round`, table states by their bare
name) are computed when read. Reading-scope names (`form`, a pattern, a quantity, `waits`, …) come
from the reading of the hand that wins (or would win) in this situation, when there is one.
"""
from __future__ import annotations

GAME_DEFAULTS = {
    "builtin:actor": None, "builtin:tile": None, "builtin:winner": None, "builtin:discarder": None,
    "builtin:robbed": None, "builtin:payer": None, "builtin:payee": None, "builtin:choice": None,
    "builtin:viewer": None, "builtin:owner": None, "builtin:score": 0, "builtin:task_factor": 1,
}


class GameEnv(dict):
    __slots__ = ("game", "reading")

    def __missing__(self, key):
        g = self.game
        st = g.st
        match key:
            case "builtin:wall_left":
                return len(st.wall)
            case "builtin:turn":
                return st.turn
            case "builtin:round":
                return 1 + max(st.turn - 1, 0) // st.n
            case "builtin:last_drawer":
                return st.seats[st.last_drawer] if st.last_drawer is not None else None
            case "builtin:won":
                return bool(st.winners)
            case "builtin:winners":  # every winner of the hand (several on one discard), in claim order
                return [st.seats[w] for w in st.winners]
            case "builtin:first_winners":  # the winners of the hand's first win (several on one discard)
                return [st.seats[w] for w in st.first_winners]
            case "builtin:in_play":  # the seats still in the hand (a winner leaves it under `winners_leave`)
                return [s for s in st.seats if g.in_play(s.index)]
        if key.startswith("table:"):
            return st.table[key[6:]]
        r = self.reading
        if r is not None:
            return r[key]
        raise KeyError(key)
