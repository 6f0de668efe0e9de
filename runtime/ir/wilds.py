"""What an `instant` form's condition says of the wildcards a hand must hold (`wilds_needed`): read by the
game's exact shortcuts (runtime/game/winning.py `_instant_wilds`) and handed to the native scoring's setup
(runtime/nativehand.py), so both skip the same hands."""
from __future__ import annotations

import math
from fractions import Fraction

from . import expr as E


def wilds_needed(e) -> int:
    """The fewest wildcards in the hand an `instant` condition can hold with: it says
    `count(t in hand: t.wild) >= N` (or `> N`, `== N`, either way round), alone or as a conjunct of an
    `and`. 0 when it says nothing of the kind. (`hand` holds the concealed tiles and the winning tile;
    only tiles of a wildcard kind can be wild there.)"""

    def counts_wilds(x) -> bool:
        return (isinstance(x, E.Comp) and x.func == "count" and len(x.binders) == 1
                and isinstance(x.source, E.Name) and x.source.ref == "builtin:hand"
                and isinstance(x.body, E.Attr) and x.body.name == "wild" and isinstance(x.body.obj, E.Name)
                and x.body.obj.ref == f"binder:{x.binders[0]}")

    if isinstance(e, E.Binary) and e.op == "and":
        return max(wilds_needed(e.left), wilds_needed(e.right))
    if isinstance(e, E.Compare) and len(e.ops) == 1:
        (op,), (a, b) = e.ops, e.operands
        if counts_wilds(b) and isinstance(a, E.Num):
            a, b, op = b, a, {"<=": ">=", "<": ">", "==": "=="}.get(op, "")
        if counts_wilds(a) and isinstance(b, E.Num):
            n = Fraction(b.text)
            if op == ">=" or (op == "==" and n.denominator == 1):
                return max(0, math.ceil(n))
            if op == ">":
                return max(0, math.floor(n) + 1)
    return 0
