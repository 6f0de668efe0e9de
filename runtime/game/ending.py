"""The hand's end: wins (effects, reveals at a win, scoring, payments), an exhaustive draw, the hand-end
decisions and settlement, the next dealer.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from typing import Any

from ..hand import HandError
from ..hand_score import Scoring
from ..money import exact
from .records import (
    EVAL_ERRORS,
    ONE_WIN,
    WinInfo,
)
from .state import Seat, plain
from .steps import DONE, Done, Step, step


class Ending:
    """The ending steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    # ------------------------------------------------------------------ the end of the hand

    def _win(self, infos: list[WinInfo], source: int | None = None) -> Step:
        """The wins of one tile, settled winner by winner. `source`: whose tile it was when no seat
        discarded it (a turned card's drawer). Returns None when the hand's play is over, else where
        play goes on (`table winners_leave`): the seat after the last winner, from the tile's source."""
        return Step("win", {"infos": infos, "source": source})

    @step
    def _s_win(self, f, v):  # noqa: C901 - one branch per resumption point
        st = self.st
        L = f.loc
        infos = L["infos"]
        leave = self.rs.table.winners_leave
        while True:
            at = f.at
            if at == 0:
                if not st.winners:
                    st.first_winners = [i.seat for i in infos]
                    st.discarder = infos[0].discarder
                    st.robbed = infos[0].robbed
                st.winners = st.winners + [i.seat for i in infos]
                if not leave:  # the win ends the hand: what the hand's end sees of it is bound now
                    st.finished = True
                    self._bind_win_values(infos[0], scored=False)
                L["i"] = 0
                f.at = 1
            elif at == 1:  # each winner in turn
                if L["i"] >= len(infos):
                    if leave:
                        st.finished = self._hand_ends_after_win()
                    if st.finished:
                        self._bind_win_values(self.infos[st.first_winners[0]], scored=True)
                        return DONE
                    return Done((self.next_seat(self._last_winner(infos, L["source"])), "draw"))
                info = infos[L["i"]]
                seat = st.seats[info.seat]
                a = self.prog.actions[info.action]
                b = L["b"] = {"actor": seat, "winner": seat, "tile": self.tv(info.tile), "self_drawn": info.self_drawn,
                              "discarder": self.seat_of(info.discarder), "robbed": self.seat_of(info.robbed),
                              ONE_WIN: True}
                found = info.untried or info  # (the reading before anything the win sets)
                for name in self._run_effects(a.effects, found.reading_env(self), **b):
                    self._hooks_only(name, b)
                f.at = 2
                c = self._event(a.name, {**b, "reading": found.reading_env(self)})
                if c:
                    return c
            elif at == 2:
                info = infos[L["i"]]
                seat = st.seats[info.seat]
                self._reveals("win")
                # scored before the `win` hooks: a hand they lift to a win may not win yet (the offer's
                # trial found it wins once they have run, runtime/game/win_trial.py)
                final = self._rescore(info, final=False)
                self.infos[info.seat] = final
                wb = {**L["b"], **self.winner_binding(info.seat)}

                def rescore(info=info, seat=seat, wb=wb):
                    f = self._rescore(info)
                    self.infos[seat.index] = f
                    wb.update(self.winner_binding(seat.index))

                f.at = 3
                c = self._event("win", wb, between=rescore)
                if c:
                    return c
            else:
                self._record(self.infos[infos[L["i"]].seat])
                L["i"] += 1
                f.at = 1

    def _bind_win_values(self, info: WinInfo, scored: bool) -> None:
        """What game rules read of the hand's (first) win once play is over: the winner, the discarder and
        the robbed player; once it is scored, its score, self-draw and task factor."""
        base = self._base
        if not scored or self.rs.table.winners_leave:
            base["builtin:winner"] = self.st.seats[info.seat]
            base["builtin:discarder"] = self.seat_of(info.discarder)
            base["builtin:robbed"] = self.seat_of(info.robbed)
        if scored:
            base["builtin:self_drawn"] = info.self_drawn
            base["builtin:score"] = info.result.score
            base["builtin:task_factor"] = self._task_factor(info)

    def _hand_ends_after_win(self) -> bool:
        """`table winners_leave`: the hand ends after a win when fewer than two players are left in it, or
        when `ends_when` holds."""
        if sum(1 for s in range(self.n) if self.in_play(s)) < 2:
            return True
        if self.prog.ends_when is None:
            return False
        try:
            return bool(self.prog.ends_when(self.env()))
        except EVAL_ERRORS as exc:
            self.note_error(f"ends_when: {exc}")
            return False

    def _last_winner(self, infos: list[WinInfo], source: int | None) -> int:
        """The winner farthest in play order from the tile's source (the discarder, the robbed player or
        the drawer of a turned card); a self-drawn win's own winner."""
        ref = infos[0].discarder if infos[0].discarder is not None else source
        if ref is None:
            return infos[-1].seat
        return max((i.seat for i in infos), key=lambda w: self.distance(ref, w))

    def _rescore(self, info: WinInfo, final: bool = True) -> WinInfo:
        """The win scored again on the context as it is now. Not `final` (before the `win` hooks): a
        hand that scores without winning is kept as it scores, for the hooks to read."""
        if self.shortcuts:
            if info.scored_at == self._ctx_version:
                return info  # nothing the scoring reads has changed since
            last = self._last_rescore
            if last is not None and last[0] is info and last[1] == self._ctx_version and \
                    (last[2].result.win or not final):
                return last[2]  # asked again (after the `win` hooks) with no context value changed
        seat = self.st.seats[info.seat]
        forms = tuple(self.prog.actions[info.action].ir.win_forms)
        rules = self._rules_for(forms) if forms else self.rules
        h = self.hand_of(seat, list(info.concealed), info.tile, info.self_drawn)
        sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
        try:
            res = sc.run()
        except (HandError, *EVAL_ERRORS) as exc:
            self.note_error(f"scoring the win: {exc}")
            return info
        if not res.win and (final or res.evaluation is None):
            self.note_error(f"the win no longer scores after the win's effects: {res.reason}")
            return info
        out = WinInfo(info.seat, info.tile, info.self_drawn, info.concealed, res, sc, info.discarder,
                      info.robbed, info.action, scored_at=self._ctx_version)
        self._last_rescore = (info, self._ctx_version, out)
        return out

    def _record(self, info: WinInfo) -> None:
        res = info.result
        ev = res.evaluation
        self.st.results[info.seat] = {
            "action": info.action, "tile": info.tile.name if info.tile else None, "self_drawn": info.self_drawn,
            "tile_code": info.tile.notation_code if info.tile else None,
            "score": plain(res.score), "total": plain(res.total), "form": ev.reading.form if ev else "",
            "fans": [{"name": f.name, "pattern": f.pattern, "value": plain(f.value), "count": f.count,
                      "value_exact": exact(f.value)} for f in res.fans],
            "task_factor": plain(self._task_factor(info)),
            "score_exact": exact(res.score), "total_exact": exact(res.total),
        }

    def _exhaust(self) -> Step:
        return Step("exhaust", {})

    @step
    def _s_exhaust(self, f, v):
        st = self.st
        if f.at == 0:
            st.exhausted = True
            st.finished = True
            if st.winners:  # (`table winners_leave`: the hand was won before the wall ran out)
                self._bind_win_values(self.infos[st.first_winners[0]], scored=True)
            f.at = 1
            c = self._event("exhaust", {"actor": self.seat_of(st.last_drawer)})
            if c:
                return c
        if f.at == 1:
            f.at = 2
            return self._hand_end()
        return DONE

    def _hand_end(self) -> Step:
        return Step("hand_end", {})

    @step
    def _s_hand_end(self, f, v):
        st = self.st
        L = f.loc
        if f.at == 0:
            bind: dict[str, Any] = {}
            if st.winners:
                bind.update(self.winner_binding(st.winners[0]))
            L["bind"] = bind
            f.at = 1
            c = self._event("hand_end", bind)
            if c:
                return c
        if f.at == 1:
            f.at = 2
            c = self._event("settled", L["bind"])
            if c:
                return c
        nd = st.dealer
        if self.prog.next_dealer is not None:
            try:
                v = self.prog.next_dealer(self.env())
                if isinstance(v, Seat):
                    nd = v.index
            except EVAL_ERRORS as exc:
                self.note_error(f"next_dealer: {exc}")
        st.next_dealer = nd
        return DONE
