"""The hand's course and one player's turn: the deal-time decisions, the turn loop, the decisions of a
turn, taking an action, follow-ups.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from ..tiles import TileInfo
from .moves import PASS, Move
from .program import CAction
from .records import (
    Offer,
    pick,
    unbound,
)
from .state import GMeld, Seat


class Turns:
    """The turn steps of `Game`."""

    def _hand(self):
        st = self.st
        rs = self.rs
        if self.prog.tasks:
            st.task = self.rng.choice(self.prog.tasks)[0].name
        self._reveals("deal")
        self._deal()
        self._flowers_at_deal()
        yield from self._event("deal", {})
        for ev in ("deal", "opening"):
            if ev == "opening":
                yield from self._event("opening", {})
            yield from self._start_wins(ev)
            if st.winners and not st.exhausted:
                yield from self._hand_end()
            if st.winners or st.exhausted:
                return
            for s in self.order_from(st.dealer):
                yield from self._start_decisions(ev, s)
                if st.winners and not st.exhausted:
                    yield from self._hand_end()
                if st.winners or st.exhausted:
                    return
        nxt = (st.dealer, "first")
        turned = bool(self.prog.actions_on.get("reveal"))
        while True:
            s, how = nxt
            seat = st.seats[s]
            if turned and how == "draw":
                nxt = yield from self._turn_card(s)
                if st.winners or st.exhausted:
                    if not st.exhausted:
                        yield from self._hand_end()
                    return
                if nxt is not None:
                    continue
                nxt = (self.next_seat(s), "draw")
                continue
            if how in ("draw", "replace"):
                t = self._draw(s, "head" if how == "draw" else rs.table.replacement)
                if t is None:
                    yield from self._exhaust()
                    return
                yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})
            if how != "claimed":
                st.turn += 1
                yield from self._event("turn", {"actor": seat, "tile": self.tv(seat.drawn)})
            out = yield from self._play_turn(s, claimed=(how == "claimed" or (turned and how == "first")))
            if st.winners or st.exhausted:
                if not st.exhausted:
                    yield from self._hand_end()
                return
            kind, val = out
            if kind == "pass":
                nxt = (self.next_seat(s), "draw")
            elif kind == "goto":
                nxt = val
            else:
                nxt = yield from self._after_discard(s, val)
                if st.winners or st.exhausted:
                    if not st.exhausted:
                        yield from self._hand_end()
                    return

    def _start_wins(self, event: str):
        """The wins `event` (deal or opening) offers, for every seat at once, resolved like a claim
        window: by `priority`, then `order` (after the dealer); several with `multiple`. A seat that
        passes declines them (its `decline` effects run)."""
        st = self.st
        offers: dict[int, list[tuple[Move, Offer]]] = {}
        for s in self.order_from(st.dealer):
            ms = self._win_moves(s, event, None, s)
            if ms:
                offers[s] = ms
        if not offers:
            return
        answers = yield from self._answers("deal", offers, event, st.dealer, None)
        for c in sorted(answers, key=lambda x: self.distance(st.dealer, x)):
            yield from self._declines(c, offers[c], answers[c][0], {"actor": st.seats[c]})
        claims = []
        for c in sorted(answers, key=lambda x: self.distance(st.dealer, x)):
            mv, o = answers[c]
            if mv == PASS or o.action is None:
                continue
            if o.win is None:  # an `instead_of` choice: applied, counts as a pass
                yield from self._take(c, o, mv, {"actor": st.seats[c]})
                continue
            claims.append((c, o))
        if not claims:
            return
        claims.sort(key=lambda it: (it[1].action.level, self._order_key(it[1].action, st.dealer, it[0])))
        top = claims[0][1]
        wins = [top.win]
        if top.action.ir.multiple:
            wins += [o.win for _, o in claims[1:] if o.action.level == top.action.level and o.action.ir.multiple]
        yield from self._win(wins)

    def _start_decisions(self, event: str, s: int):
        """The deal (or opening) decisions of one seat: melds, wins, or pass; asked again after a kong."""
        st = self.st
        seat = st.seats[s]
        acts = [a for a in self.prog.actions_on.get(event, ()) if self._by_ok(a.ir.by, s, s)
                or a.ir.by in ("dealer", "non_dealer", "any") and self._by_ok(a.ir.by, s, None)]
        if not acts:
            return
        taken: set[Move] = set()
        melded = False  # the seat's wins were resolved with everyone's (`_start_wins`) until it melds
        while True:
            moves = self._win_moves(s, event, None, s) if melded else []
            for a in acts:
                moves.extend(self._action_moves(a, seat, None, None))
            moves = [(m, o) for m, o in moves if not (o.compulsory and m in taken)]
            if not moves:
                return
            chosen = self._compulsory(moves)
            if chosen is not None:
                taken.add(chosen[0])
            if chosen is None:
                ans = yield from self._ask("deal", {s: self._with_pass(s, moves)}, event, s)
                mv = ans[s]
                chosen = next(((m, o) for m, o in moves if m == mv), (PASS, Offer(None)))
            yield from self._declines(s, moves, chosen[0], {"actor": seat})
            mv, offer = chosen
            if mv == PASS:
                return
            if offer.win is not None:
                yield from self._win([offer.win])
                return
            then = yield from self._take(s, offer, mv, {"actor": seat})
            melded = True
            if st.winners or st.exhausted:
                return
            if then == "replace":
                t = self._draw(s, self.rs.table.replacement)
                if t is None:
                    yield from self._exhaust()
                    return
                if s == st.dealer:
                    st.last_dealt = t
                yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})

    def _answers(self, kind: str, offers: dict, event: str, s: int, t):
        """Each claimant's answer in a claim window (generator). A compulsory option is taken without
        asking when nothing else the seat is offered ranks higher; otherwise the seat chooses, without
        `pass` when something compulsory is among its options."""
        answers: dict[int, tuple[Move, Offer]] = {}
        ask = {}
        for c, ms in offers.items():
            comp = self._compulsory(ms)
            if comp is not None and comp[1].action.level <= min(o.action.level for _, o in ms if o.action):
                answers[c] = comp
            elif comp is not None:
                ask[c] = [m for m, _ in ms]
            else:
                ask[c] = self._with_pass(c, ms)
        if ask:
            got = yield from self._ask(kind, ask, event, s, t)
            for c, mv in got.items():
                answers[c] = pick(offers[c], mv)
        return answers

    def _play_turn(self, s: int, claimed: bool):
        """The decisions of one turn. Returns ("discarded", tile) | ("pass", None) | ("goto", (seat, how))
        | ("over", None)."""
        st = self.st
        seat = st.seats[s]
        allow_win = True
        taken: set[Move] = set()  # a move taken this turn is not offered again in it
        while True:
            moves = self._turn_moves(s, claimed, allow_win)
            if taken:
                moves = [(m, o) for m, o in moves if m not in taken]
            chosen = self._compulsory(moves)
            if chosen is None and seat.auto:
                if moves:
                    ans = yield from self._ask("turn", {s: self._with_pass(s, moves)}, "turn", s)
                    chosen = next(((m, o) for m, o in moves if m == ans[s]), (PASS, Offer(None)))
                    yield from self._declines(s, moves, chosen[0], {"actor": seat, "tile": self.tv(seat.drawn)})
                    if chosen[0] == PASS:
                        allow_win = False
                        continue
                else:
                    t = self._auto_discard(seat)
                    if t is None:
                        return ("pass", None)
                    self._discard(s, t)
                    return ("discarded", t)
            elif chosen is None:
                if not moves:
                    return ("pass", None)
                options = [m for m, _ in moves]
                if not any(m.action == "discard" for m in options):
                    options = self._with_pass(s, moves)
                ans = yield from self._ask("turn", {s: options}, "turn", s, seat.drawn)
                mv = ans[s]
                chosen = pick(moves, mv)
                yield from self._declines(s, moves, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
            mv, offer = chosen
            taken.add(mv)
            if mv == PASS:
                return ("pass", None)
            if mv.action == "discard":
                t = self.cat.by_name[mv.tiles[0]]
                self._discard(s, t)
                return ("discarded", t)
            if offer.win is not None:
                yield from self._win([offer.win])
                return ("over", None)
            a = offer.action
            if a.ir.instead_of:
                yield from self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
                allow_win = False
                continue
            if offer.meld is not None and offer.meld.extends is not None:
                out = yield from self._added_kong(s, offer, mv)
                if out is not None:
                    return out
                then = a.ir.then
            else:
                then = yield from self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
            if st.winners or st.exhausted:
                return ("over", None)
            match then:
                case "replace" | "draw":
                    t = self._draw(s, self.rs.table.replacement if then == "replace" else "head")
                    if t is None:
                        yield from self._exhaust()
                        return ("over", None)
                    yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})
                    claimed, allow_win = False, True
                case "discard":
                    claimed = True
                case "next_turn":
                    return ("pass", None)
                case "auto":
                    seat.auto = True
                case _:
                    if seat.drawn is not None and seat.drawn not in seat.hand:
                        seat.drawn = None

    def _auto_discard(self, seat: Seat) -> TileInfo | None:
        if seat.drawn is not None and seat.drawn in seat.hand and not self._restricted("discard", seat, seat.drawn):
            return seat.drawn
        for t in seat.hand:
            if not self._restricted("discard", seat, t):
                return t
        return None

    def _discard(self, s: int, t: TileInfo) -> None:
        seat = self.st.seats[s]
        seat.hand.remove(t)
        seat.discards.append(t)
        seat.drawn = None
        seat.changed()

    def _take(self, s: int, offer: Offer, mv: Move, bind: dict):
        """Apply a non-win action for seat s (a meld from the hand, or a plain action). Returns its `then`."""
        st = self.st
        seat = st.seats[s]
        a = offer.action
        bind = dict(bind)
        if mv.choice is not None:
            bind["choice"] = self.choice_value(a, mv.choice, unbound(bind))
        opt = offer.meld
        if opt is not None:
            for t in opt.from_hand:
                seat.hand.remove(t)
            mk = self.mk.get(opt.kind)
            if opt.extends is not None:
                seat.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed,
                                                seat.melds[opt.extends].source, seat.melds[opt.extends].claimed)
            else:
                seat.melds.append(GMeld(opt.kind, list(opt.tiles), mk.exposed))
            if seat.drawn is not None and seat.drawn not in seat.hand:
                seat.drawn = None
            seat.changed()
            bind["tile"] = self.tv(opt.key)
        for name in self._run_effects(a.effects, **unbound(bind)):
            self._hooks_only(name, bind)
        yield from self._event(a.name, bind)
        if opt is not None and self.mk.get(opt.kind).kong:
            yield from self._event("kong", bind)
        if a.ir.ready and not seat.ready:
            seat.ready = True
            yield from self._event("ready", bind)
        if a.ir.follow and not (st.winners or st.exhausted):
            yield from self._follow(s, a, bind.get("tile"))
        if a.ir.then == "auto":
            seat.auto = True
        return a.ir.then

    def _follow(self, c: int, a: CAction, t: TileInfo | None):
        """`follow [X…]`: after action a, its follow-ups are offered to the same seat, repeatedly while
        one is legal (compulsory ones taken), before a's `then`. A follow-up's meld uses the tile of a
        (`tile` in its guard) from the hand."""
        if not a.ir.follow or t is None:
            return
        st = self.st
        seat = st.seats[c]
        for _ in range(16):
            moves: list[tuple[Move, Offer]] = []
            for name in a.ir.follow:
                b = self.prog.actions.get(name)
                if b is not None:
                    moves.extend(self._follow_moves(b, seat, t))
            if not moves:
                return
            chosen = self._compulsory(moves)
            if chosen is None:
                ans = yield from self._ask("self", {c: self._with_pass(c, moves)}, a.name, c, t)
                chosen = next(((m, o) for m, o in moves if m == ans[c]), (PASS, Offer(None)))
                yield from self._declines(c, moves, chosen[0], {"actor": seat, "tile": self.tv(t)})
            if chosen[0] == PASS:
                return
            yield from self._take(c, chosen[1], chosen[0], {"actor": seat, "tile": self.tv(t)})
            if st.winners or st.exhausted:
                return
