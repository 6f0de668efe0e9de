"""What `play_games` counts over its hands (runtime/game/simulate.py), kept one hand at a time by either
engine (the Python engine's moves, the native simulation's hands) and merged part by part, in game order,
for `summarize`. A part travels as a plain dict (processes and Ray tasks pickle it)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

COUNTERS = ("patterns", "events", "errors", "paid", "draw_paid", "tasks", "by_seat")


class Tallies:
    def __init__(self):
        self.wins = self.draws = self.multiple = 0
        self.scores: list[Fraction] = []
        self.violations: list[str] = []
        for name in COUNTERS:
            setattr(self, name, Counter())

    def hand(self, winners: list[int], events, payment_names: set[str], task,
             scores: list[tuple[Fraction, bool, list[str]]]) -> None:
        """One hand's result: its winners, the events it raised, the payments that moved money, its task,
        and each winner's (score, whether the task's factor applied, the patterns of its fans)."""
        self.by_seat.update(winners)
        self.events.update(events)
        self.paid.update(payment_names)
        if not winners:
            self.draw_paid.update(payment_names)
        self.multiple += len(winners) > 1
        if any(factored for _, factored, _ in scores):
            self.tasks[task] += 1
        if winners:
            self.wins += 1
            for score, _, patterns in scores:
                self.scores.append(score)
                self.patterns.update(patterns)
        else:
            self.draws += 1

    def merge(self, part: dict) -> None:
        """Another part's tallies (`as_part`), after these in game order."""
        self.wins += part["wins"]
        self.draws += part["draws"]
        self.multiple += part["multiple"]
        for name in COUNTERS:
            getattr(self, name).update(part[name])
        self.scores.extend(part["scores"])
        self.violations.extend(part["violations"])

    def as_part(self, seats: int) -> dict:
        out = {name: getattr(self, name) for name in COUNTERS}
        out.update(wins=self.wins, draws=self.draws, multiple=self.multiple, scores=self.scores,
                   violations=self.violations, seats=seats)
        return out
