"""Bots: a random one and a greedy one. A bot picks one of the legal moves it is given.

- `RandomBot(seed)`: uniform over the legal moves.
- `GreedyBot(seed)`: wins whenever it can; lays down melds of identical tiles (pungs, kongs) — never
  other melds; declines every other offer (plain actions, choices, alternatives to winning); discards
  the tile with the fewest neighbours (copies of it, and suited tiles within two ranks), the
  highest-indexed one on a tie; passes otherwise.
"""
from __future__ import annotations

import random

from .moves import PASS, Move, neighbours


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        return moves[self.rng.randrange(len(moves))]


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        prog = game.prog
        rs = game.rs
        for m in moves:
            a = prog.actions.get(m.action)
            if a is not None and a.wins:
                return m
        for m in moves:
            a = prog.actions.get(m.action)
            if a is None or not a.forms or not m.tiles:
                continue
            if len(set(m.tiles)) == 1 and any(rs.meld(k) is not None and rs.meld(k).shape.kind == "same"
                                              for k in a.forms):
                return m
        discards = [m for m in moves if m.action == "discard"]
        if discards:
            hand = game.st.seats[seat].hand
            cat = game.cat

            def key(m):
                t = cat.by_name[m.tiles[0]]
                return (neighbours(hand, t), -t.index)
            return min(discards, key=key)
        if PASS in moves:
            return PASS
        return moves[0]


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def play(game, bots) -> dict:
    """Play a game to its end with one bot per seat; returns its result."""
    while not game.is_over():
        seat = game.current_seats()[0]
        game.apply(seat, bots[seat].choose(game, seat, game.legal_moves(seat)))
    return game.result()
