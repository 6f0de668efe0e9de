"""The efficiency bot's questions of the game answered natively (runtime/native/src/engine/winning.rs) and
compared with the Python engine's answers (`native_bot.SeatOracle`): at a decision, for the seat to move,
its waits, its waits without each kind it holds (by every form and by the forms that split), whether it
wins on each such wait with that tile given up (claimed and self-drawn), and the copies of each kind in
sight — the questions the native policy asks through `Ask` (engine/bots.rs), and more. The native side
reads the state from `HandState.snapshot()` (as runtime/game/native_scope.py does); a question it does
not answer on that state is declined by name, counted, never compared.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field

from .native import table
from .native_bot import SeatOracle
from .native_scope import DECLINED, native_snapshot, set_scoring


@dataclass
class AskTally:
    questions: int = 0  # questions compared or declined
    equal: int = 0
    declined: Counter = field(default_factory=Counter)  # why -> questions
    differences: list = field(default_factory=list)  # (seat, question, reference, native)
    native_cpu: float = 0.0  # CPU seconds in the native answers (the state read from JSON included)
    python_cpu: float = 0.0  # CPU seconds in SeatOracle's answers

    def add(self, other: AskTally) -> None:
        self.questions += other.questions
        self.equal += other.equal
        self.declined.update(other.declined)
        self.differences.extend(other.differences)
        self.native_cpu += other.native_cpu
        self.python_cpu += other.python_cpu


class AskCheck:
    """One rule set under one table: the native questions of a seat against `SeatOracle`'s."""

    def __init__(self, rules, options: dict | None = None, wins: bool = True):
        """`wins`: also ask whether the seat wins on each wait of each hand without a tile (the costly ones)."""
        self.table = table(rules, options or {})
        self.scoring = False
        self.wins = wins

    def questions(self, game, seat: int) -> list[list]:
        """The questions asked of `seat` at this decision (kinds as catalog indices), the waits without a
        tile worked out by the reference to choose the wins asked."""
        s = game.st.seats[seat]
        oracle = SeatOracle(game, s)
        held = list(dict.fromkeys(t.index for t in s.hand))
        asks: list[list] = [["waits"]]
        for k in held:
            asks.append(["waits_without", k, False])
            asks.append(["waits_without", k, True])
            if self.wins:
                for w in oracle.waits_without(k, False):
                    asks.append(["wins", k, w, False])
                    asks.append(["wins", k, w, True])
        asks.extend(["visible", k.index] for k in game.cat.kinds)
        return asks

    def check(self, game, seat: int, tally: AskTally) -> None:
        if not self.scoring:
            self.scoring = set_scoring(self.table, game)
        asks = self.questions(game, seat)
        snap = native_snapshot(game)
        cpu = time.process_time()
        native = json.loads(self.table.ask_seat(snap, seat, json.dumps(asks)))
        tally.native_cpu += time.process_time() - cpu
        oracle = SeatOracle(game, game.st.seats[seat])
        cpu = time.process_time()
        reference = [answer(oracle, a) for a in asks]
        tally.python_cpu += time.process_time() - cpu
        for a, ref, got in zip(asks, reference, native):
            tally.questions += 1
            if isinstance(got, str) and got.startswith(DECLINED):
                tally.declined[f"{a[0]}: {got[len(DECLINED):]}"] += 1
            elif got == ref:
                tally.equal += 1
            else:
                tally.differences.append((seat, a, ref, got))


def answer(oracle: SeatOracle, a: list):
    """`SeatOracle`'s answer to one question (as `EngineTable.ask_seat` takes it)."""
    match a[0]:
        case "waits":
            return oracle.waits()
        case "waits_without":
            return oracle.waits_without(a[1], a[2])
        case "wins":
            return oracle.wins(a[1], a[2], a[3])
        case _:
            return oracle.visible(a[1])


def play_checked(rules, options: dict, seed: int, check: AskCheck, tally: AskTally, bots) -> None:
    """One seeded game (`Session` hand 1) played by `bots(seat seed)`, every decision's seat checked."""
    from .session import Session

    g = Session(rules, options, seed, 1, backend="python").new_hand()  # the reference, compared
    players = [bots(seed * 31 + i) for i in range(g.n)]
    while not g.is_over():
        seat = g.current_seats()[0]
        check.check(g, seat, tally)
        g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))


__all__ = ["AskCheck", "AskTally", "answer", "play_checked"]
