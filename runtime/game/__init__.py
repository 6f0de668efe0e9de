"""The game engine: a rule set played as a state machine (see flow.py and docs/engine.md)."""
from .arguments import ArgumentError
from .flow import Game, GameError, IllegalMove
from .moves import PASS, Move
from .snapshot import SnapshotError

__all__ = ["ArgumentError", "Game", "GameError", "IllegalMove", "Move", "PASS", "SnapshotError"]
