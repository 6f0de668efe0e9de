"""Claim windows: a discard, an added kong (robbing), a turned card, and the windows of actions opened by
other events; answers resolved by priority and order.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from ..tiles import TileInfo
from .moves import PASS, Move
from .program import CAction
from .records import (
    Offer,
    unbound,
)
from .state import GMeld


class Claims:
    """The claims steps of `Game`."""

    # ------------------------------------------------------------------ turned cards (the `reveal` event)

    def _turn_card(self, s: int):
        """A draw when the rule set has actions opened by `reveal`: the card drawn is not taken into
        the hand. It lies face up on the drawer's discard pile while it is offered: first to the drawer
        alone (the actions `draw`/`turn` open by self: melds with the card), then, turned
        over (`reveal`), to every seat at once (wins, melds, plain actions), resolved by priority.
        Unclaimed, it stays on the drawer's pile and the next seat draws. Returns the next (seat, how),
        or None (nothing claimed, or the hand ended)."""
        st = self.st
        seat = st.seats[s]
        t = self._draw(s, "head")
        if t is None:
            yield from self._exhaust()
            return None
        seat.hand.remove(t)
        seat.discards.append(t)
        seat.drawn = None
        seat.changed()
        st.turn += 1
        tile = self.tv(t)
        for ev in ("draw", "turn"):
            yield from self._event(ev, {"actor": seat, "tile": tile})
            if st.winners or st.exhausted:
                return None
        if not seat.auto:
            own: list[tuple[Move, Offer]] = []
            seen = set()
            for ev in ("draw", "turn"):
                for a in self.prog.actions_on.get(ev, ()):
                    if a.name in seen or a.ir.by not in ("self", "any"):
                        continue
                    seen.add(a.name)
                    own.extend(self._action_moves(a, seat, t, t if a.forms else None, discarder=None))
            if own:
                res = yield from self._tile_window("self", "draw", s, t, {s: own})
                if res is not None or st.winners or st.exhausted:
                    return res
        yield from self._event("reveal", {"actor": seat, "tile": tile})
        if st.winners or st.exhausted:
            return None
        offers: dict[int, list[tuple[Move, Offer]]] = {}
        for c in range(self.n):
            cs = st.seats[c]
            ms = self._win_moves(c, "reveal", t, s)
            if not cs.auto:
                for a in self.prog.actions_on.get("reveal", ()):
                    if a.wins or not self._by_ok(a.ir.by, c, s):
                        continue
                    if self.shortcuts and a.forms and not self._may_claim(cs, a, t):
                        continue
                    ms.extend(self._action_moves(a, cs, t, t if a.forms else None, discarder=None))
            if ms:
                offers[c] = ms
        if not offers:
            return None
        return (yield from self._tile_window("window", "reveal", s, t, offers))

    def _tile_window(self, kind: str, event: str, s: int, t: TileInfo, offers):
        """Offer a turned card (lying on seat s's discard pile) to the seats with offers; resolve by
        priority, then `order`. A seat's compulsory move is taken without asking when nothing it is
        offered ranks higher; otherwise it is asked without `pass`. Every answer is a claim: a win, a
        meld with the card, or a plain action (the card goes into the claimant's hand)."""
        st = self.st
        answers = yield from self._answers(kind, offers, event, s, t)
        tile = self.tv(t)
        for c in sorted(answers, key=lambda x: self._order_key_plain(s, x)):
            yield from self._declines(c, offers[c], answers[c][0],
                                      {"actor": st.seats[c], "tile": tile, "discarder": None})
        claims = [(c, mv, o) for c, (mv, o) in answers.items() if mv != PASS and o.action is not None]
        if not claims:
            return None
        claims.sort(key=lambda it: (it[2].action.level, self._order_key(it[2].action, s, it[0])))
        c, mv, o = claims[0]
        if o.win is not None:
            wins = [o.win]
            if o.action.ir.multiple:
                wins += [x.win for cc, _, x in claims[1:] if x.win is not None and x.action.level == o.action.level
                         and x.action.ir.multiple]
            yield from self._win(wins)
            return None
        if o.meld is not None:
            return (yield from self._claim(c, s, o, mv, t, turned=True))
        # a plain action: the card goes into the claimant's hand
        giver, claimant = st.seats[s], st.seats[c]
        giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
        claimant.hand.append(t)
        claimant.drawn = t
        giver.changed()
        claimant.changed()
        then = yield from self._take(c, o, mv, {"actor": claimant, "tile": tile, "discarder": None})
        if st.winners or st.exhausted:
            return None
        return self._after_claim(then, c, s)

    def _order_key_plain(self, s: int, c: int) -> int:
        return ((c - s) * self.step) % self.n

    # ------------------------------------------------------------------ discards and claims

    def _after_discard(self, s: int, t: TileInfo):
        st = self.st
        seat = st.seats[s]
        tile = self.tv(t)
        yield from self._event("discard", {"actor": seat, "tile": tile})
        if st.winners or st.exhausted:
            return None
        # the discarder's own declarations
        own = []
        if not seat.auto:  # an auto seat declares nothing: its offers are not even worked out
            for a in self._offerable("discard"):
                if a.ir.by == "self":
                    own.extend(self._action_moves(a, seat, t, None))
        if own and not seat.auto:
            chosen = self._compulsory(own)
            if chosen is None:
                ans = yield from self._ask("self", {s: self._with_pass(s, own)}, "discard", s, t)
                chosen = next(((m, o) for m, o in own if m == ans[s]), (PASS, Offer(None)))
            yield from self._declines(s, own, chosen[0], {"actor": seat, "tile": tile})
            if chosen[0] != PASS:
                yield from self._take(s, chosen[1], chosen[0], {"actor": seat, "tile": tile})
        # the others' claims
        offers: dict[int, list[tuple[Move, Offer]]] = {}
        for c in range(self.n):
            if c == s:
                continue
            cs = st.seats[c]
            ms = self._win_moves(c, "discard", t, s, discarder=s)
            if not cs.auto:
                for a in self._offerable("discard"):
                    if a.ir.by == "self" or not self._by_ok(a.ir.by, c, s):
                        continue
                    if self.shortcuts and a.forms and not self._may_claim(cs, a, t):
                        continue
                    ms.extend(self._action_moves(a, cs, t, t, discarder=seat))
            if ms:
                offers[c] = ms
        if not offers:
            return (self.next_seat(s), "draw")
        result = yield from self._window_resolve("claim", "discard", s, t, offers, {"discarder": seat})
        if st.winners or st.exhausted:
            return None
        if result is None:
            return (self.next_seat(s), "draw")
        return result

    def _window_resolve(self, kind: str, event: str, s: int, t: TileInfo, offers, extra: dict):
        """Ask the seats with offers, resolve by priority; apply the outcome. Returns the next (seat, how),
        or None when nothing was claimed (or the hand ended)."""
        st = self.st
        answers = yield from self._answers(kind, offers, event, s, t)
        tile = self.tv(t)
        for c in sorted(answers, key=lambda x: self.distance(s, x)):
            yield from self._declines(c, offers[c], answers[c][0], {"actor": st.seats[c], "tile": tile, **extra})
        claims = []
        for c in sorted(answers, key=lambda x: self.distance(s, x)):
            mv, o = answers[c]
            if mv == PASS:
                continue
            if o.win is None and o.meld is None:
                yield from self._take(c, o, mv, {"actor": st.seats[c], "tile": tile, **extra})
                continue
            claims.append((c, mv, o))
        if not claims:
            return None

        def rank(item):
            c, _, o = item
            return (o.action.level, self._order_key(o.action, s, c))

        claims.sort(key=rank)
        top = claims[0]
        if top[2].win is not None:
            wins = [top[2].win]
            if top[2].action.ir.multiple:
                wins += [o.win for c, _, o in claims[1:] if o.win is not None and o.action.level == top[2].action.level
                         and o.action.ir.multiple]
            yield from self._win(wins)
            return None
        c, mv, o = top
        return (yield from self._claim(c, s, o, mv, t))

    def _order_key(self, a: CAction, s: int, c: int) -> int:
        """Seat order among claimants of one priority level: after the event's player `s` (or the
        dealer); under `order actor` the event's player itself comes first."""
        if a.ir.order == "actor":
            return ((c - s) * self.step) % self.n
        ref = self.st.dealer if a.ir.order == "dealer" else s
        return self.distance(ref, c)

    def _claim(self, c: int, s: int, o: Offer, mv: Move, t: TileInfo, turned: bool = False):
        """Seat c claims tile t from seat s's discards into a meld. `turned`: a card turned from the
        stock (no discarder)."""
        st = self.st
        claimant, giver = st.seats[c], st.seats[s]
        opt = o.meld
        giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
        for x in opt.from_hand:
            claimant.hand.remove(x)
        mk = self.mk.get(opt.kind)
        if opt.extends is not None:
            old = claimant.melds[opt.extends]
            claimant.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t)
            del old
        else:
            claimant.melds.append(GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t))
        claimant.drawn = None
        claimant.changed()
        giver.changed()
        bind = {"actor": claimant, "tile": self.tv(t), "discarder": None if turned else giver}
        for name in self._run_effects(o.action.effects, **bind):
            self._hooks_only(name, bind)
        yield from self._event("claim", bind)
        yield from self._event(o.action.name, bind)
        if mk.kong:
            yield from self._event("kong", bind)
        if st.winners or st.exhausted:
            return None
        yield from self._follow(c, o.action, t)
        if st.winners or st.exhausted:
            return None
        return self._after_claim(o.action.ir.then, c, s)

    def _after_claim(self, then: str, c: int, s: int):
        claimant = self.st.seats[c]
        match then:
            case "replace":
                return (c, "replace")
            case "draw":
                return (c, "draw")
            case "next_turn":
                return (self.next_seat(c), "draw")
            case "none":
                return (self.next_seat(s), "draw")
            case "auto":
                claimant.auto = True
                return (c, "claimed")
        return (c, "claimed")

    def _added_kong(self, s: int, offer: Offer, mv: Move):
        """A meld grows by a tile on the own turn: others may rob it first. Returns None when the kong
        stands (its events raised), or the turn's outcome when it was robbed."""
        st = self.st
        seat = st.seats[s]
        opt = offer.meld
        a = offer.action
        t = opt.from_hand[0]
        seat.hand.remove(t)
        seat.discards.append(t)  # in the open while it may be robbed
        if seat.drawn is not None and seat.drawn not in seat.hand:
            seat.drawn = None
        seat.changed()
        bind = {"actor": seat, "tile": self.tv(t)}
        for name in self._run_effects(a.effects, **bind):
            self._hooks_only(name, bind)
        yield from self._event("added_kong", bind)
        offers = {}
        for c in range(self.n):
            if c == s:
                continue
            cs = st.seats[c]
            ms = self._win_moves(c, "added_kong", t, s, discarder=s, robbed=s)
            if not cs.auto:
                for b in self.prog.actions_on.get("added_kong", ()):
                    if b.wins or not self._by_ok(b.ir.by, c, s):
                        continue
                    ms.extend(self._action_moves(b, cs, t, t, discarder=seat, robbed=seat))
            if ms:
                offers[c] = ms
        result = None
        if offers:
            result = yield from self._window_resolve("rob", "added_kong", s, t, offers,
                                                     {"discarder": seat, "robbed": seat})
        if st.winners or st.exhausted:
            return ("over", None)
        if result is not None:
            return ("goto", result)
        # the kong stands
        seat.discards.pop()
        mk = self.mk.get(opt.kind)
        old = seat.melds[opt.extends]
        seat.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, old.source, old.claimed)
        seat.changed()
        yield from self._event(a.name, bind)
        if mk.kong:
            yield from self._event("kong", bind)
        return None

    # ------------------------------------------------------------------ generic decisions

    def _window(self, event: str, bind: dict):
        """The decisions an event opens outside the turn and the claims (hand end, an action's name…)."""
        st = self.st
        actor = bind.get("actor")
        ai = actor.index if actor is not None else None
        tile = bind.get("tile")
        reading = bind.get("reading")
        if reading is None and st.winners:
            reading = self.winner_binding(st.winners[0]).get("reading")
        offers: dict[int, list[tuple[Move, Offer]]] = {}
        lead = self.prog.actions.get(event)
        followers = set(lead.ir.follow) if lead is not None else set()
        for a in self.prog.actions_on.get(event, ()):
            if a.description or a.name in followers:
                continue
            for c in range(self.n):
                if not self._by_ok(a.ir.by, c, ai):
                    continue
                extra = {k: v for k, v in unbound(bind).items() if k not in ("actor", "tile")}
                # a meld here is made from the seat's own tiles: the event's tile lies wherever the
                # event left it (the engine claims tiles only in the discard, added-kong and reveal windows)
                ms = self._action_moves(a, st.seats[c], tile, None, reading, **extra)
                if ms:
                    offers.setdefault(c, []).extend(ms)
        if not offers:
            return
        answers = {}
        ask = {}
        for c, ms in offers.items():
            comp = self._compulsory(ms)
            if comp is not None:
                answers[c] = comp
            else:
                ask[c] = self._with_pass(c, ms)
        if ask:
            got = yield from self._ask("window", ask, event, ai, tile)
            for c, mv in got.items():
                answers[c] = next(((m, o) for m, o in offers[c] if m == mv), (PASS, Offer(None)))
        order = sorted(answers, key=lambda c: (answers[c][1].action.level if answers[c][1].action else 1 << 30,
                                               self.distance(ai if ai is not None else st.dealer, c)))
        for c in order:
            mv, o = answers[c]
            cb = {**bind, "actor": st.seats[c]}
            cb.pop("reading", None)
            yield from self._declines(c, offers[c], mv, unbound(cb))
            if mv == PASS:
                continue
            yield from self._take(c, o, mv, unbound(cb))
