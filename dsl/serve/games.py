"""Games kept in memory for the API, by an unguessable id: at most MAX_GAMES at once (a new game drops the
one unused longest), each dropped after GAME_IDLE_SECONDS unused. A game id is all it takes to act for
any seat: the service is for one machine's own clients (it listens on 127.0.0.1 unless told otherwise)."""
from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from ...runtime.game import Game
from .limits import GAME_IDLE_SECONDS, MAX_GAMES


@dataclass
class Kept:
    game: Game
    variant: str
    used: float


class GameStore:
    def __init__(self, limit: int = MAX_GAMES, idle: float = GAME_IDLE_SECONDS, clock=time.monotonic):
        self.limit, self.idle, self.clock = limit, idle, clock
        self.games: OrderedDict[str, Kept] = OrderedDict()  # least recently used first

    def _expire(self) -> None:
        now = self.clock()
        for gid in [g for g, k in self.games.items() if now - k.used > self.idle]:
            del self.games[gid]

    def add(self, game: Game, variant: str) -> str:
        self._expire()
        while len(self.games) >= self.limit:
            self.games.popitem(last=False)
        gid = secrets.token_urlsafe(12)
        self.games[gid] = Kept(game, variant, self.clock())
        return gid

    def get(self, gid: str) -> Kept | None:
        self._expire()
        kept = self.games.get(gid)
        if kept is not None:
            kept.used = self.clock()
            self.games.move_to_end(gid)
        return kept

    def drop(self, gid: str) -> bool:
        return self.games.pop(gid, None) is not None
