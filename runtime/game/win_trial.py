"""The trial a win is offered on: the context values a win would set before it is scored — by its action's
effects, the hooks on the action's name and the hooks on `win` — applied to a copy of the context, and the
hand scored under it as the win would score it. A win is offered when that scoring wins; the score and
reading it offers are that scoring's. Nothing else changes: no state, phase, payment, roll or event.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md "### Wins"."""
from __future__ import annotations

from ..hand import HandError
from ..hand_score import Scoring
from .events import added
from .records import EVAL_ERRORS, WinInfo
from .state import Seat

# the statements a trial applies: those that store a context value (a bare target); `roll` draws from the
# hand's generator and is left out (a trial changes nothing, the generator included)
TRIAL_OPS = frozenset({"set", "add", "remove", "clear"})


class WinTrial:
    """The win-trial steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def trial_statements(self, action: str) -> tuple:
        """What a win by `action` sets of the context before it is scored, in the order the win runs it:
        ((hook condition or None, context statements) of the action's effects, of each hook on the
        action's name, then — after the first scoring — of each hook on `win`). Empty when nothing a win
        runs stores a context value: such a win is offered on the context of the moment, untried."""
        got = self._trial_cache.get(action)
        if got is None:
            prog = self.prog

            def ctx_only(effects):
                return tuple(ef for ef in effects if ef.op in TRIAL_OPS and len(ef.target) == 1)

            a = prog.actions[action]
            before = [(None, ctx_only(a.effects))]
            before += [(h.when, ctx_only(h.effects)) for h in prog.hooks_on.get(action, ())]
            after = [(h.when, ctx_only(h.effects)) for h in prog.hooks_on.get("win", ())]
            before = tuple(x for x in before if x[1])
            after = tuple(x for x in after if x[1])
            got = self._trial_cache[action] = (before, after) if before or after else ()
        return got

    def trial_context(self, stage, trial: dict, reading, bind: dict) -> bool:
        """Apply one stage of `trial_statements` to `trial` (the context values changed so far, by name),
        each statement seeing the context as the earlier ones left it; whether any value changed. An
        evaluation error skips its statement (a hook's condition: the hook), as the win itself would
        skip it, without noting it: the trial is asked again and again."""
        changed = False
        for when, effects in stage:
            env = self.env(reading, **bind)
            for k, v in trial.items():
                env[f"context:{k}"] = v
            try:
                if when is not None and not when(env):
                    continue
            except EVAL_ERRORS:
                continue
            for ef in effects:
                name = ef.target[0]
                try:
                    value = ef.value(env) if ef.value is not None else None
                except EVAL_ERRORS:
                    continue
                cur = trial[name] if name in trial else self.st.context.get(name)
                if ef.op == "set":
                    new = value
                elif ef.op == "clear":
                    new = self.rules.settings_env(None).get(f"context:{name}")
                else:
                    try:
                        new = added(ef.op, cur, value)
                    except TypeError:  # skipped, as the win itself skips it
                        continue
                trial[name] = new
                env[f"context:{name}"] = new
                changed = True
        return changed

    def _trial_task_factor(self, info: WinInfo):
        """`_task_factor` of a tried win, noting no error (a trial raises nothing): a condition that
        fails to evaluate does not hold, as it does not when the win is taken."""
        for t, factor, when in self.prog.tasks:
            if t.name != self.st.task:
                continue
            env = info.reading_env(self)
            try:
                if env is not None and when(env):
                    return factor(self.setup_env)
            except EVAL_ERRORS:
                pass
        return 1

    def _trial_env(self, trial: dict) -> dict:
        env = dict(self._score_env())
        for k, v in trial.items():
            env[f"context:{k}"] = v
        return self.rules.retile(env, self.cat)

    def _trial_score(self, seat: Seat, conc, tile, self_drawn: bool, forms: tuple[str, ...], trial: dict):
        rules = self._rules_for(forms) if forms else self.rules
        sc = Scoring(rules, self.cat, self.dec, self._trial_env(trial), self.hand_of(seat, conc, tile, self_drawn))
        try:
            return sc.run(), sc
        except (HandError, *EVAL_ERRORS):
            return None, None

    def win_on_trial(self, found: WinInfo, action: str) -> WinInfo | None:
        """The win `found` (scored on the context of the moment, won or not) as its action would score it:
        the action's effects and the hooks on its name applied to a trial context (seeing `found`'s
        reading), the hand scored; the hooks on `win` applied (seeing that score, its reading and task
        factor), the hand scored again. None when that last scoring is no win."""
        stages = self.trial_statements(action)
        if not stages:
            return found if found.result.win else None
        before, after = stages
        seat = self.st.seats[found.seat]
        bind = dict(actor=seat, winner=seat, tile=self.tv(found.tile), self_drawn=found.self_drawn,
                    discarder=self.seat_of(found.discarder), robbed=self.seat_of(found.robbed))
        trial: dict = {}
        info = found
        for stage, more in ((before, {}), (after, None)):
            if not stage:
                continue
            if more is None:  # the `win` hooks see the win as scored so far, as `winner_binding` binds it
                more = dict(score=info.result.score, task_factor=self._trial_task_factor(info))
            if self.trial_context(stage, trial, info.reading_env(self), {**bind, **more}):
                res, sc = self._trial_score(seat, list(found.concealed), found.tile, found.self_drawn,
                                            tuple(self.prog.actions[action].ir.win_forms), trial)
                if res is None or res.evaluation is None:
                    return None
                info = WinInfo(found.seat, found.tile, found.self_drawn, found.concealed, res, sc, found.discarder,
                               found.robbed, trial=dict(trial), untried=found)
        return info if info.result.win else None
