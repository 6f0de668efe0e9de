"""The hand's end: wins (effects, reveals at a win, scoring, payments), an exhaustive draw, the hand-end
decisions and settlement, the next dealer.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from typing import Any

from ..hand import HandError
from ..hand_score import Scoring
from .records import (
    EVAL_ERRORS,
    WinInfo,
)
from .state import Seat, plain


class Ending:
    """The ending steps of `Game`."""

    # ------------------------------------------------------------------ the end of the hand

    def _win(self, infos: list[WinInfo]):
        st = self.st
        st.winners = [i.seat for i in infos]
        st.discarder = infos[0].discarder
        st.robbed = infos[0].robbed
        base = self._base
        base["builtin:winner"] = st.seats[infos[0].seat]
        base["builtin:discarder"] = self.seat_of(infos[0].discarder)
        base["builtin:robbed"] = self.seat_of(infos[0].robbed)
        for info in infos:
            seat = st.seats[info.seat]
            a = self.prog.actions[info.action]
            b = {"actor": seat, "winner": seat, "tile": self.tv(info.tile), "self_drawn": info.self_drawn,
                 "discarder": self.seat_of(info.discarder), "robbed": self.seat_of(info.robbed)}
            for name in self._run_effects(a.effects, info.reading_env(self), **b):
                self._hooks_only(name, b)
            yield from self._event(a.name, {**b, "reading": info.reading_env(self)})
            self._reveals("win")
            final = self._rescore(info)
            self.infos[info.seat] = final
            wb = {**b, **self.winner_binding(info.seat)}

            def rescore(info=info, seat=seat, wb=wb):
                f = self._rescore(info)
                self.infos[seat.index] = f
                wb.update(self.winner_binding(seat.index))

            yield from self._event("win", wb, between=rescore)
            self._record(self.infos[info.seat])
        first = self.infos[infos[0].seat]
        base["builtin:self_drawn"] = first.self_drawn
        base["builtin:score"] = first.result.score
        base["builtin:task_factor"] = self._task_factor(first)

    def _rescore(self, info: WinInfo) -> WinInfo:
        if self.shortcuts:
            if info.scored_at == self._ctx_version:
                return info  # nothing the scoring reads has changed since
            last = self.__dict__.get("_last_rescore")
            if last is not None and last[0] is info and last[1] == self._ctx_version:
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
        if not res.win:
            self.note_error(f"the win no longer scores after the win's effects: {res.reason}")
            return info
        out = WinInfo(info.seat, info.tile, info.self_drawn, info.concealed, res, sc, info.discarder,
                      info.robbed, info.action, scored_at=self._ctx_version)
        self.__dict__["_last_rescore"] = (info, self._ctx_version, out)
        return out

    def _record(self, info: WinInfo) -> None:
        res = info.result
        ev = res.evaluation
        self.st.results[info.seat] = {
            "action": info.action, "tile": info.tile.name if info.tile else None, "self_drawn": info.self_drawn,
            "score": plain(res.score), "total": plain(res.total), "form": ev.reading.form if ev else "",
            "fans": [{"name": f.name, "pattern": f.pattern, "value": plain(f.value), "count": f.count}
                     for f in res.fans],
            "task_factor": plain(self._task_factor(info)),
        }

    def _exhaust(self):
        st = self.st
        st.exhausted = True
        yield from self._event("exhaust", {"actor": self.seat_of(st.last_drawer)})
        yield from self._hand_end()

    def _hand_end(self):
        st = self.st
        bind: dict[str, Any] = {}
        if st.winners:
            bind.update(self.winner_binding(st.winners[0]))
        yield from self._event("hand_end", bind)
        yield from self._event("settled", bind)
        nd = st.dealer
        if self.prog.next_dealer is not None:
            try:
                v = self.prog.next_dealer(self.env())
                if isinstance(v, Seat):
                    nd = v.index
            except EVAL_ERRORS as exc:
                self.note_error(f"next_dealer: {exc}")
        st.next_dealer = nd
