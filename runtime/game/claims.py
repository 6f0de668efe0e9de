"""Claim windows: a discard, an added kong (robbing), a turned card, and the windows of actions opened by
other events; answers resolved by priority and order.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from ..tiles import TileInfo
from .moves import PASS, Move
from .program import CAction
from .records import (
    ONE_WIN,
    WINNER_TURN,
    Offer,
    unbound,
)
from .state import GMeld
from .steps import DONE, Done, Step, step


class Claims:
    """The claims steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    # ------------------------------------------------------------------ turned cards (the `reveal` event)

    def _turn_card(self, s: int) -> Step:
        """A draw when the rule set has actions opened by `reveal`: the card drawn is not taken into
        the hand. It lies face up on the drawer's discard pile while it is offered: first to the drawer
        alone (the actions `draw`/`turn` open by self: melds with the card), then, turned
        over (`reveal`), to every seat at once (wins, melds, plain actions), resolved by priority.
        Unclaimed, it stays on the drawer's pile and the next seat draws. Returns the next (seat, how),
        or None (nothing claimed, or the hand ended)."""
        return Step("turn_card", {"s": s})

    @step
    def _s_turn_card(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        s = L["s"]
        seat = st.seats[s]
        while True:
            at = f.at
            if at == 0:
                t = self._draw(s, "head")
                if t is None:
                    f.at = 99
                    return self._exhaust()
                seat.hand.remove(t)
                seat.discards.append(t)
                seat.drawn = None
                seat.changed()
                st.turn += 1
                L["t"] = t
                L["tile"] = self.tv(t)
                L["i"] = 0
                f.at = 1
            elif at == 1:  # draw, then turn
                if L["i"] >= 2:
                    f.at = 3
                    continue
                f.at = 2
                c = self._event(("draw", "turn")[L["i"]], {"actor": seat, "tile": L["tile"]})
                if c:
                    return c
            elif at == 2:
                if st.finished:
                    return DONE
                L["i"] += 1
                f.at = 1
            elif at == 3:  # the drawer's own melds with the card
                f.at = 5
                if not seat.auto:
                    t = L["t"]
                    own: list[tuple[Move, Offer]] = []
                    seen = set()
                    for ev in ("draw", "turn"):
                        for a in self.prog.actions_on.get(ev, ()):
                            if a.name in seen or a.ir.by not in ("self", "any"):
                                continue
                            seen.add(a.name)
                            own.extend(self._action_moves(a, seat, t, t if a.forms else None, discarder=None))
                    if own:
                        f.at = 4
                        return self._tile_window("self", "draw", s, t, {s: own})
            elif at == 4:
                if v is not None or st.finished:
                    return Done(v)
                f.at = 5
            elif at == 5:  # turned over
                f.at = 6
                c = self._event("reveal", {"actor": seat, "tile": L["tile"]})
                if c:
                    return c
            elif at == 6:
                if st.finished:
                    return DONE
                t = L["t"]
                offers: dict[int, list[tuple[Move, Offer]]] = {}
                for c in range(self.n):
                    if not self.in_play(c):
                        continue
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
                    return DONE
                f.at = 7
                return self._tile_window("window", "reveal", s, t, offers)
            elif at == 7:
                return Done(v)
            else:  # 99: exhausted
                return DONE
            v = None

    def _tile_window(self, kind: str, event: str, s: int, t: TileInfo, offers) -> Step:
        """Offer a turned card (lying on seat s's discard pile) to the seats with offers; resolve by
        priority, then `order`. A seat's compulsory move is taken without asking when nothing it is
        offered ranks higher; otherwise it is asked without `pass`. Every answer is a claim: a win, a
        meld with the card, or a plain action (the card goes into the claimant's hand)."""
        return Step("tile_window", {"kind": kind, "event": event, "s": s, "t": t, "offers": offers})

    @step
    def _s_tile_window(self, f, v):
        st = self.st
        L = f.loc
        s, t = L["s"], L["t"]
        while True:
            at = f.at
            if at == 0:
                return self._window_ask(f, L["kind"], L["event"], s, t)
            elif at == 1:
                self._window_answers(f, v, lambda x: self._order_key_plain(s, x), tile=self.tv(t))
            elif at == 2:
                d = self._window_declines(f, {"tile": L["tile"], "discarder": None})
                if d:
                    return d
                claims = [(c, mv, o) for c, (mv, o) in L["answers"].items() if mv != PASS and o.action is not None]
                if not claims:
                    return DONE
                wins = self._rank_claims(claims, s)
                if wins is not None:
                    f.at = 99
                    return self._win(wins, source=s)
                c, mv, o = claims[0]
                if o.meld is not None:
                    f.at = 4
                    return self._claim(c, s, o, mv, t, turned=True)
                # a plain action: the card goes into the claimant's hand
                giver, claimant = st.seats[s], st.seats[c]
                giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
                claimant.hand.append(t)
                claimant.drawn = t
                giver.changed()
                claimant.changed()
                L["c"] = c
                f.at = 3
                return self._take(c, o, mv, {"actor": claimant, "tile": L["tile"], "discarder": None})
            elif at == 3:
                if st.finished:
                    return DONE
                return Done(self._after_claim(v, L["c"], s))
            elif at == 4:
                return Done(v)
            else:  # 99: won (and, under `winners_leave`, where play goes on)
                return Done(v)

    def _order_key_plain(self, s: int, c: int) -> int:
        return ((c - s) * self.step) % self.n

    # ------------------------------------------------------------------ discards and claims

    def _after_discard(self, s: int, t: TileInfo) -> Step:
        return Step("after_discard", {"s": s, "t": t})

    @step
    def _s_after_discard(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        s, t = L["s"], L["t"]
        seat = st.seats[s]
        while True:
            at = f.at
            if at == 0:
                L["tile"] = self.tv(t)
                f.at = 1
                c = self._event("discard", {"actor": seat, "tile": L["tile"]})
                if c:
                    return c
            elif at == 1:
                if st.finished:
                    return DONE
                # the discarder's own declarations
                own = []
                if not seat.auto:  # an auto seat declares nothing: its offers are not even worked out
                    for a in self._offerable("discard"):
                        if a.ir.by == "self":
                            own.extend(self._action_moves(a, seat, t, None))
                f.at = 5
                if own and not seat.auto:
                    L["own"] = own
                    chosen = self._compulsory(own)
                    if chosen is None:
                        f.at = 2
                        ask = self._ask("self", {s: self._with_pass(s, own)}, "discard", s, t)
                        if ask:
                            return ask
                        v = {}
                        continue
                    L["chosen"] = chosen
                    f.at = 3
            elif at == 2:
                L["chosen"] = next(((m, o) for m, o in L["own"] if m == v[s]), (PASS, Offer(None)))
                f.at = 3
            elif at == 3:
                f.at = 4
                d = self._declines(s, L["own"], L["chosen"][0], {"actor": seat, "tile": L["tile"]})
                if d:
                    return d
            elif at == 4:
                f.at = 5
                chosen = L["chosen"]
                if chosen[0] != PASS:
                    return self._take(s, chosen[1], chosen[0], {"actor": seat, "tile": L["tile"]})
            elif at == 5:  # the others' claims
                offers: dict[int, list[tuple[Move, Offer]]] = {}
                for c in range(self.n):
                    if c == s or not self.in_play(c):
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
                    return Done((self.next_seat(s), "draw"))
                f.at = 6
                return self._window_resolve("claim", "discard", s, t, offers, {"discarder": seat})
            else:
                if st.finished:
                    return DONE
                if v is None:
                    return Done((self.next_seat(s), "draw"))
                return Done(v)

    def _window_resolve(self, kind: str, event: str, s: int, t: TileInfo, offers, extra: dict) -> Step:
        """Ask the seats with offers, resolve by priority; apply the outcome. Returns the next (seat, how),
        or None when nothing was claimed (or the hand ended)."""
        return Step("window_resolve", {"kind": kind, "event": event, "s": s, "t": t, "offers": offers,
                                       "extra": extra})

    @step
    def _s_window_resolve(self, f, v):
        st = self.st
        L = f.loc
        s, t = L["s"], L["t"]
        while True:
            at = f.at
            if at == 0:
                return self._window_ask(f, L["kind"], L["event"], s, t)
            elif at == 1:
                self._window_answers(f, v, lambda x: self.distance(s, x), tile=self.tv(t))
            elif at == 2:  # the declines, in seat order
                d = self._window_declines(f, {"tile": L["tile"], **L["extra"]})
                if d:
                    return d
                L["i"] = 0
                L["claims"] = []
                f.at = 3
            elif at == 3:  # answers that are no claim are applied; the claims ranked
                claims = L["claims"]
                while L["i"] < len(L["order"]):
                    c = L["order"][L["i"]]
                    L["i"] += 1
                    mv, o = L["answers"][c]
                    if mv == PASS:
                        continue
                    if o.win is None and o.meld is None:
                        return self._take(c, o, mv, {"actor": st.seats[c], "tile": L["tile"], **L["extra"]})
                    claims.append((c, mv, o))
                if not claims:
                    return DONE
                wins = self._rank_claims(claims, s)
                if wins is not None:
                    f.at = 99
                    return self._win(wins)
                c, mv, o = claims[0]
                f.at = 4
                return self._claim(c, s, o, mv, t)
            elif at == 4:
                return Done(v)
            else:  # 99: won (and, under `winners_leave`, where play goes on)
                return Done(v)

    # The steps every window shares, as its step function calls them: at 0 ask (`_window_ask`), at 1 keep
    # the answers (`_window_answers`), at 2 run the declines (`_window_declines`), then rank the claims.
    # They write the step's locals under the same names in every window (the continuation shows them).

    def _window_ask(self, f, kind: str, event: str, s: int | None, t: TileInfo | None) -> Step:
        """Ask the seats with offers (`f.loc["offers"]`); the answers come back to the step at 1."""
        f.at = 1
        return self._answers(kind, f.loc["offers"], event, s, t)

    def _window_answers(self, f, answers: dict, key, **more) -> None:
        """Keep the answers (and `more` locals) and walk them in `key` order from the first, at 2."""
        L = f.loc
        L["answers"] = answers
        L.update(more)
        L["order"] = sorted(answers, key=key)
        L["i"] = 0
        f.at = 2

    def _window_declines(self, f, bind: dict) -> Step | None:
        """Each answering seat's declines, in the window's order (bound as `actor`, with `bind`); the step
        the next one raises, or None when all have run (`L["i"]` keeps the place across resumptions)."""
        L = f.loc
        order = L["order"]
        while L["i"] < len(order):
            c = order[L["i"]]
            L["i"] += 1
            d = self._declines(c, L["offers"][c], L["answers"][c][0], {"actor": self.st.seats[c], **bind})
            if d:
                return d
        return None

    def _rank_claims(self, claims: list, ref: int) -> list | None:
        """Sort the claims (each the claimant's seat first and its offer last) by priority, then `order`
        from seat `ref`: the first is taken. Returns the wins it takes (its own and, under `multiple`, every
        other win of its priority that allows `multiple` too), or None when it is no win."""
        claims.sort(key=lambda it: (it[-1].action.level, self._order_key(it[-1].action, ref, it[0])))
        top = claims[0][-1]
        if top.win is None:
            return None
        wins = [top.win]
        if top.action.ir.multiple:
            wins += [o.win for *_, o in claims[1:] if o.win is not None
                     and o.action.level == top.action.level and o.action.ir.multiple]
        return wins

    def _order_key(self, a: CAction, s: int, c: int) -> int:
        """Seat order among claimants of one priority level: after the event's player `s` (or the
        dealer); under `order actor` the event's player itself comes first."""
        if a.ir.order == "actor":
            return ((c - s) * self.step) % self.n
        ref = self.st.dealer if a.ir.order == "dealer" else s
        return self.distance(ref, c)

    def _claim(self, c: int, s: int, o: Offer, mv: Move, t: TileInfo, turned: bool = False) -> Step:
        """Seat c claims tile t from seat s's discards into a meld. `turned`: a card turned from the
        stock (no discarder)."""
        return Step("claim", {"c": c, "s": s, "offer": o, "mv": mv, "t": t, "turned": turned})

    @step
    def _s_claim(self, f, v):
        st = self.st
        L = f.loc
        c, s, o, t = L["c"], L["s"], L["offer"], L["t"]
        while True:
            at = f.at
            if at == 0:
                claimant, giver = st.seats[c], st.seats[s]
                opt = o.meld
                giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
                for x in opt.from_hand:
                    claimant.hand.remove(x)
                mk = self.mk.get(opt.kind)
                if opt.extends is not None:
                    claimant.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t)
                else:
                    claimant.melds.append(GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t))
                claimant.drawn = None
                claimant.changed()
                giver.changed()
                bind = L["bind"] = {"actor": claimant, "tile": self.tv(t), "discarder": None if L["turned"] else giver}
                for name in self._run_effects(o.action.effects, **bind):
                    self._hooks_only(name, bind)
                f.at = 1
                ch = self._event("claim", bind)
                if ch:
                    return ch
            elif at == 1:
                f.at = 2
                ch = self._event(o.action.name, L["bind"])
                if ch:
                    return ch
            elif at == 2:
                f.at = 3
                if self.mk.get(o.meld.kind).kong:
                    ch = self._event("kong", L["bind"])
                    if ch:
                        return ch
            elif at == 3:
                if st.finished:
                    return DONE
                f.at = 4
                return self._follow(c, o.action, t)
            else:
                if st.finished:
                    return DONE
                return Done(self._after_claim(o.action.ir.then, c, s))

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

    def _added_kong(self, s: int, offer: Offer, mv: Move) -> Step:
        """A meld grows by a tile on the own turn: others may rob it first. Returns None when the kong
        stands (its events raised), or the turn's outcome when it was robbed."""
        return Step("added_kong", {"s": s, "offer": offer, "mv": mv})

    @step
    def _s_added_kong(self, f, v):
        st = self.st
        L = f.loc
        s = L["s"]
        seat = st.seats[s]
        opt = L["offer"].meld
        a = L["offer"].action
        t = opt.from_hand[0]
        while True:
            at = f.at
            if at == 0:
                seat.hand.remove(t)
                seat.discards.append(t)  # in the open while it may be robbed
                if seat.drawn is not None and seat.drawn not in seat.hand:
                    seat.drawn = None
                seat.changed()
                bind = L["bind"] = {"actor": seat, "tile": self.tv(t)}
                for name in self._run_effects(a.effects, **bind):
                    self._hooks_only(name, bind)
                f.at = 1
                c = self._event("added_kong", bind)
                if c:
                    return c
            elif at == 1:
                offers = {}
                for c in range(self.n):
                    if c == s or not self.in_play(c):
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
                f.at = 2
                if offers:
                    return self._window_resolve("rob", "added_kong", s, t, offers, {"discarder": seat, "robbed": seat})
                v = None
            elif at == 2:
                if st.finished:
                    return Done(("over", None))
                if v is not None:
                    return Done(("goto", v))
                # the kong stands
                seat.discards.pop()
                mk = self.mk.get(opt.kind)
                old = seat.melds[opt.extends]
                seat.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, old.source, old.claimed)
                seat.changed()
                f.at = 3
                c = self._event(a.name, L["bind"])
                if c:
                    return c
            elif at == 3:
                f.at = 4
                if self.mk.get(opt.kind).kong:
                    c = self._event("kong", L["bind"])
                    if c:
                        return c
            else:
                return DONE

    # ------------------------------------------------------------------ generic decisions

    def _window(self, event: str, bind: dict, others: bool = True) -> Step:
        """The decisions an event opens outside the turn and the claims (hand end, an action's name…).
        `others` False: only its `by winner` decisions (a later winner's turn, events.py)."""
        return Step("window", {"event": event, "bind": bind} if others else {"event": event, "bind": bind,
                                                                              "others": False})

    @step
    def _s_window(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        event, bind = L["event"], L["bind"]
        while True:
            at = f.at
            if at == 0:
                actor = bind.get("actor")
                ai = L["ai"] = actor.index if actor is not None else None
                tile = bind.get("tile")
                reading = bind.get("reading")
                if reading is None and st.winners:
                    reading = self.winner_binding(st.winners[0]).get("reading")
                offers: dict[int, list[tuple[Move, Offer]]] = {}
                lead = self.prog.actions.get(event)
                followers = set(lead.ir.follow) if lead is not None else set()
                others = L.get("others", True)
                # `by winner` where the event is one winner's (one win's events, a winner's turn at the
                # hand's end): that winner only, not every winner of the hand
                bound = bind.get("winner") if bind.get(ONE_WIN) or bind.get(WINNER_TURN) else None
                for a in self.prog.actions_on.get(event, ()):
                    if a.description or a.name in followers or (not others and a.ir.by != "winner"):
                        continue
                    for c in range(self.n):
                        # a seat that left the hand is asked only about the events of its own win
                        if not self._by_ok(a.ir.by, c, ai) or (c != ai and not self.asked_in_play(c)):
                            continue
                        if bound is not None and a.ir.by == "winner" and c != bound.index:
                            continue
                        extra = {k: x for k, x in unbound(bind).items() if k not in ("actor", "tile")}
                        # a meld here is made from the seat's own tiles: the event's tile lies wherever the
                        # event left it (the engine claims tiles only in the discard, added-kong and reveal windows)
                        ms = self._action_moves(a, st.seats[c], tile, None, reading, **extra)
                        if ms:
                            offers.setdefault(c, []).extend(ms)
                if not offers:
                    return DONE
                answers = {}
                ask = {}
                for c, ms in offers.items():
                    comp = self._compulsory(ms)
                    if comp is not None:
                        answers[c] = comp
                    else:
                        ask[c] = self._with_pass(c, ms)
                L["offers"] = offers
                L["answers"] = answers
                f.at = 1
                v = {}
                if ask:
                    q = self._ask("window", ask, event, ai, tile)
                    if q:
                        return q
            elif at == 1:
                answers, offers = L["answers"], L["offers"]
                for c, mv in v.items():
                    answers[c] = next(((m, o) for m, o in offers[c] if m == mv), (PASS, Offer(None)))
                ref = L["ai"] if L["ai"] is not None else st.dealer
                L["order"] = sorted(answers, key=lambda c: (answers[c][1].action.level if answers[c][1].action
                                                            else 1 << 30, self.distance(ref, c)))
                L["i"] = 0
                f.at = 2
            elif at == 2:  # each seat's declines, then its action
                if L["i"] >= len(L["order"]):
                    return DONE
                c = L["order"][L["i"]]
                cb = {**bind, "actor": st.seats[c]}
                cb.pop("reading", None)
                L["cb"] = cb
                f.at = 3
                d = self._declines(c, L["offers"][c], L["answers"][c][0], unbound(cb))
                if d:
                    return d
            else:
                c = L["order"][L["i"]]
                L["i"] += 1
                f.at = 2
                mv, o = L["answers"][c]
                if mv != PASS:
                    return self._take(c, o, mv, unbound(L["cb"]))
