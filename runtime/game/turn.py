"""The hand's course and one player's turn: the hand's start in order (its steps are in opening.py), the
turn loop, the decisions of a turn, taking an action, follow-ups.

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
from .steps import DONE, Done, Step, step

OPENING_EVENTS = ("deal", "opening")  # the events of the hand's start whose decisions come before the turns


class Turns:
    """The turn steps of `Game` (how a step function is written: docs/engine.md, "Steps and the
    continuation")."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def _hand(self) -> Step:
        return Step("hand", {})

    @step
    def _s_hand(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        while True:
            at = f.at
            if at == 0:
                self._setup_hand()
                L["ev"] = 0  # index into OPENING_EVENTS
                # per seat, the decisions (actions without a meld or a win) it took at the deal or the
                # opening: not offered to it again in this hand (one set shared with `start_decisions`)
                L["decided"] = {s: set() for s in range(st.n)}
                f.at = 2
                c = self._event("deal", {})
                if c:
                    return c
            elif at == 2:  # for each of deal, opening
                f.at = 3
                if OPENING_EVENTS[L["ev"]] == "opening":
                    c = self._event("opening", {})
                    if c:
                        return c
            elif at == 3:
                f.at = 4
                return self._start_wins(OPENING_EVENTS[L["ev"]])
            elif at == 4:
                f.at = 5
                if st.finished and not st.exhausted:
                    return self._hand_end()
            elif at == 5:
                if st.finished:
                    return DONE
                f.at = 16
                return self._together(OPENING_EVENTS[L["ev"]], L["decided"])
            elif at == 16:  # then the other decisions, seat by seat
                L["order"] = self.order_from(st.dealer)
                L["i"] = 0
                f.at = 6
            elif at == 6:  # each seat's decisions, dealer first
                if L["i"] >= len(L["order"]):
                    L["ev"] += 1
                    f.at = 2 if L["ev"] < len(OPENING_EVENTS) else 9
                    continue
                f.at = 7
                s = L["order"][L["i"]]
                return self._start_decisions(OPENING_EVENTS[L["ev"]], s, L["decided"][s])
            elif at == 7:
                f.at = 8
                if st.finished and not st.exhausted:
                    return self._hand_end()
            elif at == 8:
                if st.finished:
                    return DONE
                L["i"] += 1
                f.at = 6
            elif at == 9:  # the turns
                for k in ("ev", "order", "i", "decided"):
                    del L[k]
                # (a dealer who won at the deal and left the hand, `winners_leave`: the next seat draws)
                L["nxt"] = (st.dealer, "first") if self.in_play(st.dealer) else (self.next_seat(st.dealer), "draw")
                L["turned"] = bool(self.prog.actions_on.get("reveal"))
                f.at = 10
            elif at == 10:  # the turn loop
                s, how = L["nxt"]
                seat = st.seats[s]
                if L["turned"] and how == "draw":
                    f.at = 11
                    return self._turn_card(s)
                f.at = 12
                if how in ("draw", "replace"):
                    t = self._draw(s, "head" if how == "draw" else self.rs.table.replacement)
                    if t is None:
                        f.at = 99
                        return self._exhaust()
                    c = self._event("draw", {"actor": seat, "tile": self.tv(t)})
                    if c:
                        return c
            elif at == 11:
                if st.finished:
                    f.at = 99
                    if not st.exhausted:
                        return self._hand_end()
                    continue
                L["nxt"] = v if v is not None else (self.next_seat(L["nxt"][0]), "draw")
                f.at = 10
            elif at == 12:
                s, how = L["nxt"]
                seat = st.seats[s]
                f.at = 13
                if how != "claimed":
                    st.turn += 1
                    c = self._event("turn", {"actor": seat, "tile": self.tv(seat.drawn)})
                    if c:
                        return c
            elif at == 13:
                s, how = L["nxt"]
                f.at = 14
                return self._play_turn(s, claimed=(how == "claimed" or (L["turned"] and how == "first")))
            elif at == 14:
                if st.finished:
                    f.at = 99
                    if not st.exhausted:
                        return self._hand_end()
                    continue
                s = L["nxt"][0]
                kind, val = v
                if kind == "pass":
                    L["nxt"] = (self.next_seat(s), "draw")
                    f.at = 10
                elif kind == "goto":
                    L["nxt"] = val
                    f.at = 10
                else:
                    f.at = 15
                    return self._after_discard(s, val)
            elif at == 15:
                L["nxt"] = v
                f.at = 10
                if st.finished:
                    f.at = 99
                    if not st.exhausted:
                        return self._hand_end()
            else:  # 99: the hand is over
                return DONE
            v = None

    def _answers(self, kind: str, offers: dict, event: str, s: int, t) -> Step:
        """Each claimant's answer in a claim window. A compulsory option is taken without asking when
        nothing else the seat is offered ranks higher; otherwise the seat chooses, without `pass` when
        something compulsory is among its options."""
        return Step("answers", {"kind": kind, "offers": offers, "event": event, "s": s, "t": t})

    @step
    def _s_answers(self, f, v):
        L = f.loc
        offers = L["offers"]
        if f.at == 0:
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
            if not ask:
                return Done(answers)
            L["answers"] = answers
            f.at = 1
            a = self._ask(L["kind"], ask, L["event"], L["s"], L["t"])
            if a:
                return a
            v = {}
        answers = L["answers"]
        for c, mv in v.items():
            answers[c] = pick(offers[c], mv)
        return Done(answers)

    def _play_turn(self, s: int, claimed: bool) -> Step:
        """The decisions of one turn. Returns ("discarded", tile) | ("pass", None) | ("goto", (seat, how))
        | ("over", None)."""
        return Step("play_turn", {"s": s, "claimed": claimed, "allow_win": True, "taken": set()})

    @step
    def _s_play_turn(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        s = L["s"]
        seat = st.seats[s]
        while True:
            at = f.at
            if at == 0:  # asked again after each action that does not end the turn
                moves = self._turn_moves(s, L["claimed"], L["allow_win"])
                taken = L["taken"]  # a move taken this turn is not offered again in it
                if taken:
                    moves = [(m, o) for m, o in moves if m not in taken]
                L["moves"] = moves
                chosen = self._compulsory(moves)
                if chosen is None and seat.auto:
                    if moves:
                        f.at = 1
                        ask = self._ask("turn", {s: self._with_pass(s, moves)}, "turn", s)
                        if ask:
                            return ask
                        v = {}
                        continue
                    t = self._auto_discard(seat)
                    if t is None:
                        return Done(("pass", None))
                    self._discard(s, t)
                    return Done(("discarded", t))
                if chosen is None:
                    if not moves:
                        return Done(("pass", None))
                    options = [m for m, _ in moves]
                    if not any(m.action == "discard" for m in options):
                        options = self._with_pass(s, moves)
                    f.at = 3
                    ask = self._ask("turn", {s: options}, "turn", s, seat.drawn)
                    if ask:
                        return ask
                    v = {}
                    continue
                L["chosen"] = chosen
                f.at = 5
            elif at == 1:  # an auto seat's answer about its wins
                moves = L["moves"]
                chosen = L["chosen"] = next(((m, o) for m, o in moves if m == v[s]), (PASS, Offer(None)))
                f.at = 2
                d = self._declines(s, moves, chosen[0], {"actor": seat, "tile": self.tv(seat.drawn)})
                if d:
                    return d
            elif at == 2:
                if L["chosen"][0] == PASS:
                    L["allow_win"] = False
                    f.at = 0
                else:
                    f.at = 5
            elif at == 3:
                mv = v[s]
                L["chosen"] = pick(L["moves"], mv)
                f.at = 5
                d = self._declines(s, L["moves"], mv, {"actor": seat, "tile": self.tv(seat.drawn)})
                if d:
                    return d
            elif at == 5:  # the move chosen
                mv, offer = L["chosen"]
                L["taken"].add(mv)
                if mv == PASS:
                    return Done(("pass", None))
                if mv.action == "discard":
                    t = self.cat.by_name[mv.tiles[0]]
                    self._discard(s, t)
                    return Done(("discarded", t))
                if offer.win is not None:
                    f.at = 99
                    return self._win([offer.win])
                a = offer.action
                if a.ir.instead_of:
                    f.at = 6
                    return self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
                if offer.meld is not None and offer.meld.extends is not None:
                    f.at = 7
                    return self._added_kong(s, offer, mv)
                f.at = 8
                return self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
            elif at == 6:
                L["allow_win"] = False
                f.at = 0
            elif at == 7:  # the added kong stood (None) or was robbed
                if v is not None:
                    return Done(v)
                L["then"] = L["chosen"][1].action.ir.then
                f.at = 9
            elif at == 8:
                L["then"] = v
                f.at = 9
            elif at == 9:  # the action's `then`
                if st.finished:
                    return Done(("over", None))
                f.at = 0
                match L["then"]:
                    case "replace" | "draw":
                        t = self._draw(s, self.rs.table.replacement if L["then"] == "replace" else "head")
                        if t is None:
                            f.at = 99
                            return self._exhaust()
                        L["claimed"], L["allow_win"] = False, True
                        c = self._event("draw", {"actor": seat, "tile": self.tv(t)})
                        if c:
                            return c
                    case "discard":
                        L["claimed"] = True
                    case "next_turn":
                        return Done(("pass", None))
                    case "auto":
                        seat.auto = True
                    case _:
                        if seat.drawn is not None and seat.drawn not in seat.hand:
                            seat.drawn = None
            else:  # 99: won or exhausted; or won and play goes on (`winners_leave`) from the seat the win says
                if st.finished or v is None:
                    return Done(("over", None))
                return Done(("goto", v))

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

    def _take(self, s: int, offer: Offer, mv: Move, bind: dict) -> Step:
        """Apply a non-win action for seat s (a meld from the hand, or a plain action). Returns its `then`."""
        return Step("take", {"s": s, "offer": offer, "mv": mv, "bind": bind})

    @step
    def _s_take(self, f, v):
        st = self.st
        L = f.loc
        seat = st.seats[L["s"]]
        a = L["offer"].action
        while True:
            at = f.at
            if at == 0:
                bind = L["bind"] = dict(L["bind"])
                mv = L["mv"]
                if mv.choice is not None:
                    bind["choice"] = self.choice_value(a, mv.choice, unbound(bind))
                elif a.ir.select:  # the tiles chosen, which the move names
                    bind["choice"] = [self.cat.by_name[n] for n in mv.tiles]
                opt = L["offer"].meld
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
                f.at = 1
                c = self._event(a.name, bind)
                if c:
                    return c
            elif at == 1:
                opt = L["offer"].meld
                f.at = 2
                if opt is not None and self.mk.get(opt.kind).kong:
                    c = self._event("kong", L["bind"])
                    if c:
                        return c
            elif at == 2:
                f.at = 3
                if a.ir.ready and not seat.ready:
                    seat.ready = True
                    c = self._event("ready", L["bind"])
                    if c:
                        return c
            elif at == 3:
                f.at = 4
                if a.ir.follow and not (st.finished):
                    return self._follow(L["s"], a, L["bind"].get("tile"))
            else:
                if a.ir.then == "auto":
                    seat.auto = True
                return Done(a.ir.then)

    def _follow(self, c: int, a: CAction, t: TileInfo | None) -> Step:
        """`follow [X…]`: after action a, its follow-ups are offered to the same seat, repeatedly while
        one is legal (compulsory ones taken), before a's `then`. A follow-up's meld uses the tile of a
        (`tile` in its guard) from the hand."""
        return Step("follow", {"c": c, "action": a.name, "t": t, "k": 0})

    @step
    def _s_follow(self, f, v):
        st = self.st
        L = f.loc
        c = L["c"]
        a = self.prog.actions[L["action"]]
        t = L["t"]
        seat = st.seats[c]
        if not a.ir.follow or t is None:
            return DONE
        while True:
            at = f.at
            if at == 0:  # at most 16 follow-ups
                if L["k"] >= 16:
                    return DONE
                L["k"] += 1
                moves: list[tuple[Move, Offer]] = []
                for name in a.ir.follow:
                    b = self.prog.actions.get(name)
                    if b is not None:
                        moves.extend(self._follow_moves(b, seat, t))
                if not moves:
                    return DONE
                L["moves"] = moves
                chosen = self._compulsory(moves)
                if chosen is not None:
                    L["chosen"] = chosen
                    f.at = 2
                    continue
                f.at = 1
                ask = self._ask("self", {c: self._with_pass(c, moves)}, a.name, c, t)
                if ask:
                    return ask
                v = {}
            elif at == 1:
                chosen = L["chosen"] = next(((m, o) for m, o in L["moves"] if m == v[c]), (PASS, Offer(None)))
                f.at = 2
                d = self._declines(c, L["moves"], chosen[0], {"actor": seat, "tile": self.tv(t)})
                if d:
                    return d
            elif at == 2:
                if L["chosen"][0] == PASS:
                    return DONE
                f.at = 3
                return self._take(c, L["chosen"][1], L["chosen"][0], {"actor": seat, "tile": self.tv(t)})
            else:
                if st.finished:
                    return DONE
                f.at = 0
