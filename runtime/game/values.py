"""The values expressions read during play: the environment, context values and reveals, wildcards, seats in
play order, tiles in sight, a seat's melds as groups.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from ..evaluate import COMPUTED_FIELDS
from ..ir import nodes as ir
from ..reading import Group, RTile
from ..tiles import TileInfo
from .records import (
    BUILTIN_KEYS,
    BY_NAME,
    EVAL_ERRORS,
    MISSING,
    PLAIN_TYPES,
)
from .scope import GAME_DEFAULTS, GameEnv
from .state import GMeld, Seat, TableFields


def _held(s: Seat | None, t) -> int:
    return s.held(t) if s is not None and t is not None else 0


class Values:
    """The values steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def _init_value(self, sv: ir.StateVar, init):
        v = init(self.setup_env) if init is not None else None
        if v is None:
            v = {"bool": False, "int": 0, "num": 0, "tiles": []}.get(sv.type)
        return list(v) if isinstance(v, list) else v

    def _carried(self, v):
        if isinstance(v, dict) and "seat" in v:
            return self.st.seats[v["seat"]]
        return v

    def _base_env(self) -> dict:
        cat = self.cat
        st = self.st
        base = dict(self.settings)
        base.update(GAME_DEFAULTS)
        base["tile-lookup"] = lambda name: cat.by_name.get(name)
        base[COMPUTED_FIELDS] = self.seat_field
        base["game-functions"] = {
            "visible_count": self.visible_count,
            # bound methods (no closures over the game), so that a copied environment calls its own game
            "next": self._next_of,
            "after": self._after,
            "held": _held,
            "waits_without": self.waits_without,
            "group_waits_without": self._group_waits_without,
            "best_score": self.best_score,
            "best_fans": self.best_fans,
            "best_tile": self.best_tile,
        }
        base["builtin:dealer"] = st.seats[st.dealer]
        base["builtin:players"] = self.n
        base["builtin:table"] = TableFields(st.table)
        return base

    def _next_of(self, s: Seat | None) -> Seat | None:
        return self.st.seats[(s.index + self.step) % self.n] if s is not None else None

    def _after(self, s: Seat | None, k) -> Seat | None:
        """The seat k places after s in `rotation` order (k < 0: before it; any whole k, taken round the
        table): `after(actor, -1)` is the previous player, `after(actor, 2)` the opposite one at four."""
        if s is None or k is None:
            return None
        return self.st.seats[(s.index + self.step * (int(k) % self.n)) % self.n]

    def _group_waits_without(self, seat: Seat | None, tile) -> list[TileInfo]:
        return self.waits_without(seat, tile, groups=True)

    def env(self, reading=None, **bind) -> GameEnv:
        e = GameEnv(self._base)
        e.game = self
        e.reading = reading
        keys = BUILTIN_KEYS
        for k, v in bind.items():
            key = keys.get(k)
            if key is None:
                key = keys[k] = "builtin:" + k
            e[key] = v
        return e

    def condition_holds(self, fn, reading=None, **bind) -> bool:
        """Whether a compiled condition holds for these bindings (no condition: it holds); public because
        observations (observe.py) ask it too."""
        if fn is None:
            return True
        try:
            return bool(fn(self.env(reading, **bind)))
        except EVAL_ERRORS as exc:
            self.note_error(f"condition: {exc}")
            return False

    def _set_context(self, name: str, value) -> None:
        old = self.st.context.get(name, MISSING)
        self.st.context[name] = value
        self._base[f"context:{name}"] = value
        # Caches of waits, wins and the scoring environment are keyed by this version: setting a value
        # it already has (a plain value, or the very same object) leaves them valid.
        if not (self.shortcuts and (old is value or (type(old) is type(value) and type(value) in PLAIN_TYPES
                                                     and old == value))):
            self._ctx_version += 1

    def _set_reveal(self, name: str, value) -> None:
        self.st.reveals[name] = value
        self._unusable_cache.clear()  # a wildcard named by a reveal may have changed
        self._base[f"reveal:{name}"] = value
        self._ctx_version += 1
        self._update_wilds()

    def _update_wilds(self) -> None:
        hand, win = set(), set()
        for w in self.rs.wilds:
            kind = self.cat.by_name.get(w.tiles)
            if kind is None:
                kind = self.st.reveals.get(w.tiles)
            if kind is not None:
                (win if w.scope == "win_tile" else hand).add(kind.name)
        self._hand_wild, self._win_wild = hand, win

    @property
    def hand_wild_names(self) -> set[str]:
        return self._hand_wild

    def tv(self, t: TileInfo | None):
        """A tile as game rules see it: `t.wild` holds for the copies of a wildcard kind."""
        if t is None or t.name not in self._hand_wild:
            return t
        cache = self._wild_tiles
        w = cache.get(t.name)
        if w is None:
            w = cache[t.name] = TileInfo(t.name, t.index, t.category, t.suit, t.rank, t.copies, t.glyph,
                                         t.char, t.code, dict(t.attrs), {**t.f, "wild": True})
        return w

    def seat_of(self, i: int | None) -> Seat | None:
        return self.st.seats[i] if i is not None else None

    def next_seat(self, s: int) -> int:
        """The next seat in play order that is still in the hand (`table winners_leave`: a winner has
        left it; without it every seat is)."""
        nxt = (s + self.step) % self.n
        if self.rs.table.winners_leave:
            winners = self.st.winners
            while nxt in winners and nxt != s:
                nxt = (nxt + self.step) % self.n
        return nxt

    def in_play(self, s: int) -> bool:
        """Whether seat s is still in the hand: under `table winners_leave` a winner leaves it with its
        win; otherwise every seat is in it to the end."""
        return not (self.rs.table.winners_leave and s in self.st.winners)

    def asked_in_play(self, s: int) -> bool:
        """Whether seat s may be asked about a move now: a seat that has left the hand is asked nothing
        while the others play on, and everything again once the hand's play is over (hand-end decisions)."""
        return self.st.finished or self.in_play(s)

    def order_from(self, start: int, include_start: bool = True) -> list[int]:
        seq = [(start + self.step * k) % self.n for k in range(self.n)]
        return seq if include_start else seq[1:] + seq[:1]

    def seat_names(self) -> list[str | None]:
        """Each seat's name (`table { seat_names }`, counted in play order from the dealer), None for every
        seat when the rule set names none or fewer than the table's players."""
        names = self.rs.table.seat_names
        out: list[str | None] = [None] * self.n
        if len(names) >= self.n:
            for k, s in enumerate(self.order_from(self.st.dealer)):
                out[s] = names[k]
        return out

    def distance(self, ref: int, s: int) -> int:
        d = ((s - ref) * self.step) % self.n
        return d or self.n

    def visible_count(self, t: TileInfo | None) -> int:
        if t is None:
            return 0
        if not self.shortcuts:
            return self._visible_count(t.name)
        # Asked after every event (a reveal's `moves_when`): kept until a tile could have moved in or
        # out of sight — every such move changes a seat's version or a length below.
        st = self.st
        key = (len(st.out), len(st.pinned), len(st.wall), sum(map(len, st.reveal_ids.values())),
               tuple((s.version, len(s.discards), len(s.aside)) for s in st.seats))
        c = self._visible
        if c is None or c[0] != key:
            c = self._visible = (key, {})
        n = c[1].get(t.name)
        if n is None:
            n = c[1][t.name] = self._visible_count(t.name)
        return n

    def _visible_count(self, name: str) -> int:
        st = self.st
        n = list(map(BY_NAME, st.out)).count(name)
        for s in st.seats:
            n += list(map(BY_NAME, s.discards)).count(name) + list(map(BY_NAME, s.aside)).count(name)
            for m in s.melds:
                shown = m.tiles if m.exposed else self.shown_tiles(m)
                n += list(map(BY_NAME, shown)).count(name)
        for r in self.rs.reveals:
            if r.visible:
                n += sum(1 for i in st.reveal_ids.get(r.name, ()) if i in st.pinned and st.kind_of[i].name == name)
        return n

    def shown_tiles(self, m: GMeld) -> list[TileInfo]:
        """The tiles of a meld everyone sees (a concealed kong shows only its kind's `shown` count)."""
        mk = self.mk.get(m.kind)
        k = mk.shown if mk is not None and mk.shown is not None else 0
        return sorted(m.tiles, key=lambda t: t.index)[:k]

    def seat_field(self, obj, name: str):
        """A seat's field that the seat does not hold itself (`actor.hand`, `actor.waits`, …), worked out
        for this game; KeyError for a name no seat has (and for a value that is no seat)."""
        if type(obj) is not Seat:
            raise KeyError(name)
        s = obj
        match name:
            case "hand":
                return list(s.hand)
            case "melds":
                return self.meld_groups(s)
            case "concealed":
                return not any(m.exposed for m in s.melds)
            case "dealer":
                return s.index == self.st.dealer
            case "wilds":
                wild = self.hand_wild_names
                return sum(1 for t in s.hand if t.name in wild)
            case "balance":
                return s.balance
            case "discards":
                return list(s.discards)
            case "ready":
                return s.ready
            case "seat":
                return s.index
            case "waits":
                return self.waits(s)
            case "group_waits":
                return self.waits(s, groups=True)
            case "in_play":
                return self.in_play(s.index)
        raise KeyError(name)

    def meld_groups(self, seat: Seat) -> list[Group]:
        cached = seat.memo.groups
        if cached is not None and cached[0] == seat.version:
            return cached[1]
        out = []
        for m in seat.melds:
            mk = self.mk.get(m.kind)
            tiles = [RTile(t) for t in m.tiles]
            out.append(Group(m.kind, tiles, exposed=mk.exposed, concealed=not mk.exposed, is_pair=mk.pair,
                             is_kong=mk.kong, declared=True))
        seat.memo.groups = (seat.version, out)
        return out
