"""The evaluation of a hand `Rules.score` read and scored in one native call (runtime/nativelane.py): its
score, total and best given at once; read beyond them — the reading, the fans, units, quantities,
exclusions, the reference evaluator —, it is the evaluation the native payload makes
(`NativeHands.result`), made then with the hand's `Hand` and `Scoring` as they would have been made at
once (the waits the native trials found kept, the work left): nothing else reaches them in between.

Why: a caller that reads the score of a hand new to the process made the hand's Python objects, the
payload's lists and the result's closures for nothing (BENCHMARKS.md, `ngb6`)."""
from __future__ import annotations

from fractions import Fraction

from .scoring import LazyEvaluation


class LaneEvaluation(LazyEvaluation):
    """A `LazyEvaluation` whose every part beyond the score, total and best is the whole evaluation's,
    made at the first read (`whole`)."""

    def __init__(self, late: tuple, score, total, best):  # (not the base's: nothing else to hold yet)
        self._late = late  # (rules, the lane's `LaneCall`, self_drawn, work left, the `LaneHand`, `NativeHands`)
        self._whole = None
        # a fraction comes over as ("q", n, d) (runtime/nativescore.py `value`)
        self.score = score if type(score) is not tuple else Fraction(score[1], score[2])
        self.total = total if type(total) is not tuple else Fraction(total[1], total[2])
        self.best = best if type(best) is not tuple else Fraction(best[1], best[2])

    def whole(self) -> LazyEvaluation:
        """The evaluation `NativeHands.result` makes of the hand's payload, made once."""
        w = self._whole
        if w is None:
            rules, call, self_drawn, left, lh, hands = self._late
            waits, shape_waits, _ = lh.found()
            sc = call.scoring(rules, lh.read(), self_drawn)
            sc.refuse_wild_melds()
            hands.give_waits(sc, (waits, shape_waits))
            sc.work[0] = left
            w = self._whole = hands.result(lambda: sc, lh.payload(), rules).evaluation
            self._late = None
        return w

    @property
    def reading(self):
        return self.whole().reading

    @reading.setter
    def reading(self, r) -> None:
        self.whole().reading = r

    @property
    def fans(self):
        return self.whole().fans

    @fans.setter
    def fans(self, fans) -> None:
        self.whole().fans = fans

    @property
    def units(self):
        return self.whole().units

    @units.setter
    def units(self, units) -> None:
        self.whole().units = units

    @property
    def quantities(self):
        return self.whole().quantities

    @property
    def excluded(self):
        return self.whole().excluded

    def _reference(self):
        return self.whole()._reference()


__all__ = ["LaneEvaluation"]
