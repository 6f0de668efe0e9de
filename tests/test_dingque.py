"""A suit decided at the deal and functions over a seat, in play (issue 14, points 2 and 6): seeded games of
tests/rules/dingque.pai — 定缺 by a typed choice, winning actions guarded by a function, a restriction and a
payment (查花猪) written with the same function for the actor, the payer and the payee — keep the engine's
invariants, replay exactly from their JSON moves, and pay exactly what the rules say."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file
from paili.runtime.game import Game, Move
from paili.runtime.game.bots import MixedBot
from paili.runtime.rules import Rules

SUITS = {"万", "条", "筒"}


@pytest.fixture(scope="module")
def rules() -> Rules:
    res = compile_file(ROOT / "tests" / "rules" / "dingque.pai", examples=True)
    assert res.ok, res.render()
    return Rules(res.ruleset)


class Deciding(MixedBot):
    """A mixed bot that, on seeds where `decides`, always takes the deal's decision (a suit at random)."""

    def __init__(self, seed: int, decides: bool):
        super().__init__(seed)
        self.decides = decides

    def choose(self, game, seat, moves):
        picks = [m for m in moves if m.action == "定缺"]
        if picks and self.decides:
            return picks[self.rng.randrange(len(picks))]
        return super().choose(game, seat, moves)


def _play(rules: Rules, seed: int) -> tuple[Game, list[tuple[int, dict]]]:
    g = Game(rules, seed=seed)
    bots = [Deciding(seed * 10 + i, decides=(seed + i) % 3 != 0) for i in range(4)]
    moves = []
    while not g.is_over():
        seat = g.current_seats()[0]
        mv = bots[seat].choose(g, seat, g.legal_moves(seat))
        moves.append((seat, mv.to_json()))
        g.apply(seat, mv)
    return g, moves


def _pig(seat) -> bool:
    return seat.vars["定缺"] is None or any(t.suit == seat.vars["定缺"] for t in seat.hand)


@pytest.mark.parametrize("seed", range(1, 13))
def test_seeded_games_play_as_written_and_replay(rules, seed):
    g, moves = _play(rules, seed)
    assert g.check_invariants() == []
    st = g.st
    chose = [s for s in st.seats if s.vars["定缺"] is not None]
    assert all(s.vars["定缺"] in SUITS for s in chose)
    # each seat was offered the decision once: the deal's moves of 定缺 are one per seat at most
    deal = [(seat, m) for seat, m in moves if m["action"] == "定缺"]
    assert len(deal) == len({seat for seat, _ in deal}) == len(chose)
    assert all(m["choice"] == st.seats[seat].vars["定缺"] for seat, m in deal)
    for w in st.winners:  # nobody wins holding the suit they gave up
        assert not any(t.suit == st.seats[w].vars["定缺"] for t in st.seats[w].hand)
    pigs = {p.payer: p for p in st.payments if p.name == "查花猪"}
    if st.exhausted and not st.winners:
        expected = sorted((a.index, b.index) for a in st.seats for b in st.seats
                          if a is not b and _pig(a) and not _pig(b))
        assert sorted((p.payer, p.payee) for p in st.payments if p.name == "查花猪") == expected
        assert all(p.amount == 16 for p in st.payments if p.name == "查花猪")
    else:
        assert not pigs
    again = Game(rules, seed=seed)
    for seat, m in moves:
        again.apply(seat, Move.from_json(json.loads(json.dumps(m))))
    assert again.result() == g.result()


def test_the_restriction_holds_a_pig_to_its_suit(rules):
    """While a seat holds tiles of the suit it gave up, those are the only tiles it may discard."""
    for seed in range(1, 5):
        g = Game(rules, seed=seed)
        bots = [MixedBot(seed + i) for i in range(4)]
        while not g.is_over():
            seat = g.current_seats()[0]
            moves = g.legal_moves(seat)
            s = g.st.seats[seat]
            gave_up = s.vars["定缺"]
            if gave_up is not None and any(t.suit == gave_up for t in s.hand):
                suits = {g.cat.by_name[m.tiles[0]].suit for m in moves if m.action == "discard"}
                assert suits <= {gave_up}
            g.apply(seat, bots[seat].choose(g, seat, moves))
