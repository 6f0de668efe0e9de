"""How a rule set's games were played on the native backend (runtime/game/native_game.py): kept on
`Rules.engine`, reported by `Rules.stats()` (`engine_games`, `engine_fallbacks`, `engine_fallback_reasons`,
`engine_mirrors`)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class EngineCounts:
    games: int = 0  # games asked of the native backend
    fallbacks: int = 0  # of those, hands played on in Python (replayed from their setup and moves)
    reasons: Counter = field(default_factory=Counter)  # why, by sentence
    mirrors: int = 0  # Python games replayed beside a native one to answer what it does not (observations)
    pool: Any = None  # the idle native hands (native_pool.Pool), made by the first native game

    def fell_back(self, why: str) -> None:
        self.fallbacks += 1
        self.reasons[why] += 1
