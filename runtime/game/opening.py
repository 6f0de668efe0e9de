"""The hand's start: the wins the deal or the opening offers, the decisions every seat answers together
(nothing applied until all have answered), and the decisions each seat takes in turn before the first turn.

A part of `Game` (runtime/game/flow.py), run from the hand's course in turn.py; the model is
docs/engine.md."""
from __future__ import annotations

from .moves import PASS, Move
from .records import (
    Offer,
    unbound,
)
from .steps import DONE, Step, step


class HandStart:
    """The hand-start steps of `Game` (how a step function is written: docs/engine.md, "Steps and the
    continuation")."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def _start_wins(self, event: str) -> Step:
        """The wins `event` (deal or opening) offers, for every seat at once, resolved like a claim
        window: by `priority`, then `order` (after the dealer); several with `multiple`. A seat that
        passes declines them (its `decline` effects run)."""
        return Step("start_wins", {"event": event})

    @step
    def _s_start_wins(self, f, v):
        st = self.st
        L = f.loc
        while True:
            at = f.at
            if at == 0:
                offers: dict[int, list[tuple[Move, Offer]]] = {}
                for s in self.order_from(st.dealer):
                    if not self.in_play(s):
                        continue
                    ms = self._win_moves(s, L["event"], None, s)
                    if ms:
                        offers[s] = ms
                if not offers:
                    return DONE
                L["offers"] = offers
                return self._window_ask(f, "deal", L["event"], st.dealer, None)
            elif at == 1:
                self._window_answers(f, v, lambda x: self.distance(st.dealer, x))
            elif at == 2:  # every seat's declines, then the claims
                d = self._window_declines(f, {})
                if d:
                    return d
                L["i"] = 0
                L["claims"] = []
                f.at = 3
            elif at == 3:
                claims = L["claims"]
                while L["i"] < len(L["order"]):
                    c = L["order"][L["i"]]
                    L["i"] += 1
                    mv, o = L["answers"][c]
                    if mv == PASS or o.action is None:
                        continue
                    if o.win is None:  # an `instead_of` choice: applied, counts as a pass
                        return self._take(c, o, mv, {"actor": st.seats[c]})
                    claims.append((c, o))
                if not claims:
                    return DONE
                wins = self._rank_claims(claims, st.dealer)
                f.at = 4
                return self._win(wins)
            else:
                return DONE

    def _together(self, event: str, decided: dict) -> Step:
        """The decisions `event` (deal or opening) opens that are asked `together`: every seat they are
        offered to answers at once, and nothing of an answer is applied before all are in — then each
        seat's declines, then the effects of every answer in seat order from the dealer (tiles given are
        held, and delivered at once when all effects have run), then each taken action's event."""
        return Step("together", {"event": event, "decided": decided})

    @step
    def _s_together(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        while True:
            at = f.at
            if at == 0:
                acts = [a for a in self.prog.actions_on.get(L["event"], ()) if a.ir.together]
                offers: dict[int, list[tuple[Move, Offer]]] = {}
                for s in self.order_from(st.dealer) if acts else ():
                    if not self.in_play(s):  # (a winner at the deal that left the hand, `winners_leave`)
                        continue
                    ms = []
                    for a in acts:
                        if a.name not in L["decided"][s] and (self._by_ok(a.ir.by, s, s) or a.ir.by in (
                                "dealer", "non_dealer", "any") and self._by_ok(a.ir.by, s, None)):
                            ms.extend(self._action_moves(a, st.seats[s], None, None))
                    if ms:
                        offers[s] = ms
                if not offers:
                    return DONE
                L["offers"] = offers
                return self._window_ask(f, "deal", L["event"], st.dealer, None)
            elif at == 1:
                self._window_answers(f, v, lambda x: self.distance(st.dealer, x))
            elif at == 2:  # every seat's declines
                d = self._window_declines(f, {})
                if d:
                    return d
                L["taken"] = self._together_effects(L["order"], L["answers"], L["decided"])
                L["i"] = 0
                f.at = 3
            else:  # each taken action's event, in seat order
                if L["i"] >= len(L["taken"]):
                    return DONE
                name, bind = L["taken"][L["i"]]
                L["i"] += 1
                c = self._event(name, bind)
                if c:
                    return c

    def _together_effects(self, order: list[int], answers: dict, decided: dict) -> list[tuple[str, dict]]:
        """The effects of every answer to a decision asked together, in `order`; the tiles they give are
        delivered once all have run (so each seat gives from the hand it chose from). Returns each taken
        action's name with its bindings."""
        taken = []
        self._transit = []
        try:
            for c in order:
                mv, o = answers[c]
                if mv == PASS or o.action is None:
                    continue
                a = o.action
                decided[c].add(a.name)
                bind = {"actor": self.st.seats[c]}
                if mv.choice is not None:
                    bind["choice"] = self.choice_value(a, mv.choice, unbound(bind))
                elif a.ir.select:
                    bind["choice"] = [self.cat.by_name[n] for n in mv.tiles]
                for name in self._run_effects(a.effects, **unbound(bind)):
                    self._hooks_only(name, bind)
                taken.append((a.name, bind))
            transit = self._transit
        finally:
            self._transit = None
        self._deliver(transit)
        return taken

    def _start_decisions(self, event: str, s: int, decided: set) -> Step:
        """The deal (or opening) decisions of one seat: melds, wins, or pass; asked again after each
        action taken, without the decisions (actions without a meld or a win) it has taken in this hand,
        which `decided` holds (their names)."""
        return Step("start_decisions", {"event": event, "s": s, "decided": decided})

    @step
    def _s_start_decisions(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        s = L["s"]
        seat = st.seats[s]
        event = L["event"]
        while True:
            at = f.at
            if at == 0:
                if not self.in_play(s):
                    return DONE
                acts = [a for a in self.prog.actions_on.get(event, ()) if not a.ir.together and (
                    self._by_ok(a.ir.by, s, s)
                    or a.ir.by in ("dealer", "non_dealer", "any") and self._by_ok(a.ir.by, s, None))]
                if not acts:
                    return DONE
                L["acts"] = acts
                L["taken"] = set()
                L["melded"] = False  # the seat's wins were resolved with everyone's (`_start_wins`) until it melds
                f.at = 1
            elif at == 1:
                moves = self._win_moves(s, event, None, s) if L["melded"] else []
                for a in L["acts"]:
                    moves.extend(self._action_moves(a, seat, None, None))
                decided = L["decided"]
                moves = [(m, o) for m, o in moves if not (o.compulsory and m in L["taken"]) and not (
                    o.meld is None and o.win is None and o.action is not None and o.action.name in decided)]
                if not moves:
                    return DONE
                L["moves"] = moves
                chosen = self._compulsory(moves)
                if chosen is not None:
                    L["taken"].add(chosen[0])
                    L["chosen"] = chosen
                    f.at = 3
                    continue
                f.at = 2
                ask = self._ask("deal", {s: self._with_pass(s, moves)}, event, s)
                if ask:
                    return ask
                v = {}
            elif at == 2:
                mv = v[s]
                L["chosen"] = next(((m, o) for m, o in L["moves"] if m == mv), (PASS, Offer(None)))
                f.at = 3
            elif at == 3:
                f.at = 4
                d = self._declines(s, L["moves"], L["chosen"][0], {"actor": seat})
                if d:
                    return d
            elif at == 4:
                mv, offer = L["chosen"]
                if mv == PASS:
                    return DONE
                if offer.win is not None:
                    f.at = 99
                    return self._win([offer.win])
                if offer.meld is None:
                    L["decided"].add(offer.action.name)
                f.at = 5
                return self._take(s, offer, mv, {"actor": seat})
            elif at == 5:
                L["melded"] = True
                if st.finished:
                    return DONE
                f.at = 1
                if v == "replace":
                    t = self._draw(s, self.rs.table.replacement)
                    if t is None:
                        f.at = 99
                        return self._exhaust()
                    if s == st.dealer:
                        st.last_dealt = t
                    c = self._event("draw", {"actor": seat, "tile": self.tv(t)})
                    if c:
                        return c
            else:
                return DONE
