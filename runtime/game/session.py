"""A session: many hands of one rule set, with balances, the dealer and the states declared `lives session`
(table and player states) carried from each hand to the next; every other state starts each hand afresh.
Each hand's seed is drawn from the session's seed."""
from __future__ import annotations

import random
from pathlib import Path

from ..rules import Rules, load
from .arguments import check_common, check_session
from .flow import Game


class Session:
    def __init__(self, rules: Rules | str | Path, options: dict | None = None, seed: int = 0, hands: int = 1, *,
                 balances: list | None = None, check: bool = True, backend: str | None = None):
        check_common(rules, options, seed, balances, check)
        check_session(hands)
        self.rules = rules if isinstance(rules, Rules) else load(rules)
        self.options = dict(options or {})
        self.seed = seed
        self.hands = hands
        self.check = check
        self.backend = backend  # each hand's `Game` backend (None: PAILI_BACKEND)
        self.rng = random.Random(seed)
        self.balances = list(balances) if balances is not None else None
        self.dealer: int | None = None
        self.table: dict | None = None
        self.players: list[dict] | None = None  # player states that live for the session, per seat
        self.played: list[dict] = []  # per hand: seed, dealer, moves, its rolls (chance), result
        self.game: Game | None = None

    def new_hand(self) -> Game | None:
        """The next hand's game, or None when the session is complete."""
        if len(self.played) >= self.hands:
            return None
        hand_seed = self.rng.randrange(1 << 31)
        self.game = Game(self.rules, self.options, hand_seed, dealer=self.dealer, balances=self.balances,
                         table=self.table, players=self.players, check=self.check, backend=self.backend)
        return self.game

    def finish(self, game: Game) -> dict:
        """Close a finished hand: record it and carry its balances, next dealer and table states."""
        assert game.is_over(), "the hand is not over"
        result = game.result()
        self.played.append({"seed": game.seed, "dealer": game.dealer(), "moves": list(game.moves),
                            "chance": [dict(c) for c in game.rolls()], "result": result,
                            "violations": list(game.violations), "errors": list(game.errors)})
        self.balances = game.balances()
        self.dealer = result["next_dealer"]
        self.table = game.table_values()
        self.players = game.player_values()
        self.game = None
        return result

    def play(self, bots) -> list[dict]:
        from .bots import play

        while True:
            g = self.new_hand()
            if g is None:
                return [h["result"] for h in self.played]
            play(g, bots)
            self.finish(g)
