"""A moving reveal's condition kept while what it reads is unchanged (runtime/native/src/engine/moving.rs,
state.rs `Tracked` and `seen_marks`): the native hand asks `moves_when` again only when the tiles every seat
sees or the context and reveal values changed. Rule sets made from 风雷白城 whose 宝牌 moves far more often
— on two copies seen (discards, claimed melds), and only while a context value a hook sets at every draw
holds — are played move by move beside the reference; a kept answer used after a change it missed would
move the reveal at another moment (a different state, event counts and wall)."""
from __future__ import annotations

from collections import Counter

from conftest import native_engine_only, rules_edited
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_play import PlayCheck, PlayTally
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

MOVES = "  moves_when = visible_count(宝牌) >= 4\n"


def _variant(condition: str) -> Rules:
    return rules_edited("rules/baicheng.pai", MOVES, f"  moves_when = {condition}\n")


def _bots(seed):
    return lambda g: [BOTS["random"](seed * 31 + i) for i in range(g.n)]


def _moves(rules: Rules, seeds) -> Counter:
    """How often the reference moves 宝牌 in these seeded games (the reference's own count)."""
    moved = Counter()
    for seed in seeds:
        g = Session(rules, {}, seed, 1, backend="python").new_hand()
        players = _bots(seed)(g)
        while not g.is_over():
            seat = g.current_seats()[0]
            g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
        moved[seed] = g.st.events.get("reveal_move:宝牌", 0)
    return moved


def _equal_at_every_point(rules: Rules, seeds) -> None:
    check = PlayCheck(rules, {})
    tally = PlayTally()
    for seed in seeds:
        check.play(seed, _bots(seed), tally)
    assert tally.differences == []
    assert tally.over == len(seeds)


def test_a_reveal_moving_on_two_copies_seen_moves_as_the_reference():
    """`visible_count(宝牌) >= 2`: it moves again and again through the hand (discards, melds laid down,
    the copies the reveal itself pins), each time at the reference's moment."""
    rules = _variant("visible_count(宝牌) >= 2")
    seeds = (8, 22, 27)
    assert _moves(rules, seeds) == {8: 13, 22: 9, 27: 33}
    _equal_at_every_point(rules, seeds)


def test_a_reveal_moving_on_a_context_value_set_at_every_draw_moves_as_the_reference():
    """`听牌 and visible_count(宝牌) >= 2`: 听牌 (a context value) is set at every draw, most often to the
    value it holds already (the values then stay the same) and sometimes to another: the kept false answer
    must be dropped exactly when it changes."""
    rules = _variant("听牌 and visible_count(宝牌) >= 2")
    seeds = (9, 22, 26)
    assert _moves(rules, seeds) == {9: 17, 22: 5, 26: 6}
    _equal_at_every_point(rules, seeds)
