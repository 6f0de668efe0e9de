"""The hand's tiles: the shuffled wall, the deal, flowers set aside and replaced, draws, reveals flipped and
moved.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from ..ir import nodes as ir
from ..tiles import TileInfo
from .records import (
    GameError,
)


class Setup:
    """The setup steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def _setup_hand(self) -> None:
        """What happens before the hand's first event: the task drawn, the reveals of the deal, the deal,
        the flowers set aside and replaced (`Game.setup_state` stops here)."""
        if self.prog.tasks:
            self.st.task = self.rng.choice(self.prog.tasks)[0].name
        self._reveals("deal")
        self._deal()
        self._flowers_at_deal()

    def _shuffled_wall(self, kind_of, head, tail) -> list[int]:
        ids = list(range(len(kind_of)))
        self.rng.shuffle(ids)
        if not head and not tail:
            return ids
        from ..hand import parse_tiles

        def take(text):
            names = [t.name for t in parse_tiles(self.rules.notation, self.cat, "".join(text), "wall")]
            picked = []
            for name in names:
                i = next((x for x in ids if kind_of[x].name == name), None)
                if i is None:
                    raise GameError(f"the wall asks for more copies of {name} than there are")
                ids.remove(i)
                picked.append(i)
            return picked

        first = take(head) if head else []
        last = take(tail) if tail else []
        return first + ids + last

    def _deal(self) -> None:
        st = self.st
        hand = self.rs.table.hand
        for s in self.order_from(st.dealer):
            seat = st.seats[s]
            for _ in range(hand):
                seat.hand.append(st.kind_of[st.wall.pop(0)])
        dealer = st.seats[st.dealer]
        for _ in range(self.rs.table.dealer_extra):
            t = st.kind_of[st.wall.pop(0)]
            dealer.hand.append(t)
            st.last_dealt = t
        if st.last_dealt is not None:
            dealer.drawn = st.last_dealt
        for seat in st.seats:
            seat.changed()

    def _flowers_at_deal(self) -> None:
        st = self.st
        end = self.rs.table.replacement
        for _ in range(64):
            found = False
            for s in self.order_from(st.dealer):
                seat = st.seats[s]
                flowers = [t for t in seat.hand if t.category == "flower"]
                for t in flowers:
                    found = True
                    seat.hand.remove(t)
                    seat.aside.append(t)
                    seat.changed()  # before the hooks: they may ask for the seat's waits or melds
                    self._flower_effects(s, t)
                for _ in flowers:
                    if len(st.wall) <= self.rs.table.exhaust_at:
                        break
                    i = next((j for j in range(len(st.wall) - 1, -1, -1) if st.wall[j] not in st.pinned),
                             len(st.wall) - 1) if end == "tail" else 0
                    t = st.kind_of[st.wall.pop(i)]
                    seat.hand.append(t)
                    if s == st.dealer and st.last_dealt is not None and flowers:
                        st.last_dealt = t
                        seat.drawn = t
                seat.changed()
            if not found:
                return

    def _draw(self, s: int, end: str) -> TileInfo | None:
        """Seat s draws from `end` (head | tail); flowers are set aside and replaced. None: the wall is
        exhausted (no more than `exhaust_at` tiles left)."""
        st = self.st
        seat = st.seats[s]
        while True:
            if len(st.wall) <= self.rs.table.exhaust_at:
                return None
            if end == "head":
                i = 0
            else:
                i = next((j for j in range(len(st.wall) - 1, -1, -1) if st.wall[j] not in st.pinned),
                         len(st.wall) - 1)
            tid = st.wall.pop(i)
            st.pinned.discard(tid)
            t = st.kind_of[tid]
            st.last_drawer = s
            if t.category == "flower":
                seat.aside.append(t)
                self._flower_effects(s, t)
                end = self.rs.table.replacement
                continue
            seat.hand.append(t)
            seat.drawn = t
            seat.changed()
            return t

    def _flower_effects(self, s: int, t: TileInfo) -> None:
        """A flower set aside: compulsory actions `draw` opens for it (replacing a flower) run their
        effects and raise their name; the engine itself does the replacement."""
        seat = self.st.seats[s]
        for a in self.prog.actions_on.get("draw", ()):
            if a.ir.compulsory and not a.forms and not a.wins and not a.description and \
                    self.condition_holds(a.when, actor=seat, tile=t):
                self._run_effects(a.effects, actor=seat, tile=t)
                self._hooks_only(a.name, {"actor": seat, "tile": t})

    def _flip(self, r: ir.Reveal) -> None:
        st = self.st
        order = list(range(len(st.wall) - 1, -1, -1)) if r.source == "tail" else list(range(len(st.wall)))
        skipped = 0
        chosen = None
        aside = []
        for j in order:
            tid = st.wall[j]
            if tid in st.pinned:
                continue
            if skipped < r.offset:
                skipped += 1
                continue
            t = st.kind_of[tid]
            if r.skip and (t.attrs.get(r.skip) or t.f.get(r.skip) or t.category == r.skip):
                aside.append(tid)
                continue
            chosen = tid
            break
        for tid in aside:
            st.wall.remove(tid)
            st.out.append(st.kind_of[tid])
        if aside:  # tallied (not raised) so that simulations show how often a skip tile was passed over
            st.events[f"reveal_skip:{r.name}"] += len(aside)
        if chosen is None:
            return
        st.events[f"reveal:{r.name}"] += 1  # a tally, not an event: no hooks run on it
        st.reveal_ids.setdefault(r.name, []).append(chosen)
        if r.removes_copy:
            st.wall.remove(chosen)
            st.out.append(st.kind_of[chosen])
        else:
            st.pinned.add(chosen)
        self._set_reveal(r.name, st.kind_of[chosen])

    def _reveals(self, at: str) -> None:
        for r, _, unless in self.prog.reveals:
            if r.at != at:
                continue
            if unless is not None and self.condition_holds(unless):
                continue
            self._flip(r)

    def _moves_reveals(self) -> None:
        for r, moves_when, _ in self.prog.reveals:
            if moves_when is None or self.st.reveals.get(r.name) is None:
                continue
            guard = 0
            while guard < 8 and self.condition_holds(moves_when):
                before = self.st.reveals.get(r.name)
                n_ids = len(self.st.reveal_ids.get(r.name, []))
                self._flip(r)
                guard += 1
                if len(self.st.reveal_ids.get(r.name, [])) == n_ids and self.st.reveals.get(r.name) is before:
                    break
                self.st.events[f"reveal_move:{r.name}"] += 1
