"""A seeded hand played on the reference and, move for move, on a native hand beside it (`PlayCheck`),
every point compared: for the tests of the native engine's decisions that read what was offered and
taken on the way."""
from __future__ import annotations

import json

from paili import Game
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_offers import plain_move
from paili.runtime.game.native_play import PlayCheck, difference, text
from paili.runtime.game.native_scope import set_scoring
from paili.runtime.game.session import Session


def seeded_bots(kind: str, seed: int):
    """Players for a game: one `kind` bot a seat, each seeded from `seed` and its seat."""
    return lambda g: [BOTS[kind](seed * 31 + i) for i in range(g.n)]


def lockstep(check: PlayCheck, seed: int, players_of):
    """Hand `seed` played by `players_of(game)` on the reference and, move for move, on `check`'s native
    hand: at every point the two compared, then (the reference game, the native pending decision, the
    seat, its legal moves, its move) handed to the caller before the move is applied to both; the ends
    compared (both over, nothing refused natively)."""
    session = Session(check.rules, {}, seed, 1, backend="python")
    g = session.new_hand()
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(g.seed, session.dealer, session.balances)
    players = players_of(g)
    while not g.is_over():
        assert hand.refused() is None
        assert difference(g, hand) is None
        p = json.loads(hand.pending())
        seat = g.current_seats()[0]
        moves = g.legal_moves(seat)
        mv = players[seat].choose(g, seat, moves)
        yield g, p, seat, moves, mv
        g.apply(seat, mv)
        hand.apply(seat, text(plain_move(mv)))
    assert hand.refused() is None
    assert hand.is_over() and difference(g, hand) is None


def twin_games(rules, options: dict, seed: int, bot_seed: int):
    """Hand `seed` as a native `Game` and a reference one, played move for move by random bots (seat i's
    seeded `bot_seed + i`, choosing on the reference): (native, reference) yielded before every move and
    once more at the end, both over."""
    native, ref = Game(rules, options, seed, backend="native"), Game(rules, options, seed, backend="python")
    players = [BOTS["random"](bot_seed + i) for i in range(ref.n)]
    while not ref.is_over():
        yield native, ref
        seat = ref.current_seats()[0]
        mv = players[seat].choose(ref, seat, ref.legal_moves(seat))
        ref.apply(seat, mv)
        native.apply(seat, mv)
    assert native.is_over()
    yield native, ref
