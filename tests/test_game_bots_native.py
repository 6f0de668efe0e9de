"""The greedy, efficiency and mixed bots on a `Game` on the native backend (runtime/game/native_bot.py
`game_choice`, `EngineHand.bot_choose`): they choose on the native hand's state with no Python game
replayed beside it, and every move of seeded games of every bundled variant and bench/rules/joker.pai is
the move the reference's bots make on the Python game (bench/game_bots_native.py runs more games and times
both); a subclass of a bot, a list of moves that is not the seat's legal moves, and a game on the Python
backend keep the bot's own policy."""
from __future__ import annotations

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS, EfficiencyBot, GreedyBot
from paili.runtime.game.native_bot import game_choice

pytestmark = pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                                "without a Rust toolchain): there is no native side to compare")

CONFIGS = [("baijindao", {}), ("baicheng", {}), ("longyan", {"人数": 4}), ("longyan", {"人数": 2}),
           ("guobiao", {}), ("chehuzi", {}), ("joker", {})]
_RULES: dict = {}


def rules(name: str):
    if name not in _RULES:
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        _RULES[name] = load(path, backend="native")
    return _RULES[name]


def play(r, options: dict, seed: int, which: str, bot: str) -> list[str]:
    g = Game(r, options, seed, backend=which)
    bots = [BOTS[bot](seed * 31 + i) for i in range(g.n)]
    while not g.is_over():
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
    return [f"{s} {m}" for s, m in g.moves]


@pytest.mark.parametrize("name,options", CONFIGS)
@pytest.mark.parametrize("bot", ["greedy", "efficiency", "mixed"])
def test_native_game_bots_move_as_the_reference(name, options, bot):
    r = rules(name)
    for seed in (3, 8):
        before = r.stats()
        native = play(r, options, seed, "native", bot)
        after = r.stats()
        assert after["engine_mirrors"] == before["engine_mirrors"]  # no Python game beside the native one
        assert after["engine_fallbacks"] == before["engine_fallbacks"]
        assert native == play(r, options, seed, "python", bot)
        assert len(native) > 4


@pytest.mark.parametrize("bot", ["greedy", "efficiency"])
def test_games_alive_together_each_get_the_native_bots(bot):
    # the second game's native hand is a new one (the first still holds its own), set up from the room
    # options' copied shell (runtime/game/native_pool.py `Shell`): the bots read the rule set's program of it
    r = rules("baicheng")
    before = r.stats()
    games = [Game(r, {}, seed, backend="native") for seed in (11, 12, 13)]
    for g, seed in zip(games, (11, 12, 13)):
        bots = [BOTS[bot](seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            s = g.current_seats()[0]
            g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
        assert [f"{s} {m}" for s, m in g.moves] == play(r, {}, seed, "python", bot)
    after = r.stats()
    assert after["engine_mirrors"] == before["engine_mirrors"]
    assert after["engine_fallbacks"] == before["engine_fallbacks"]


def test_native_choice_only_for_the_bots_own_questions():
    r = rules("baicheng")
    before = r.stats()["engine_mirrors"]
    g = Game(r, {}, 5, backend="native")
    s = g.current_seats()[0]
    moves = g.legal_moves(s)
    assert game_choice(GreedyBot(1), g, s, moves, lambda rs: {}, EfficiencyBot) in moves
    # not the seat's legal moves: the bot's own policy decides
    assert game_choice(GreedyBot(1), g, s, moves[:-1], lambda rs: {}, EfficiencyBot) is None
    # a game on the Python backend has no native hand
    p = Game(r, {}, 5, backend="python")
    assert game_choice(GreedyBot(1), p, s, p.legal_moves(s), lambda rs: {}, EfficiencyBot) is None
    assert r.stats()["engine_mirrors"] == before


def test_a_subclass_keeps_its_own_policy():
    class Cautious(GreedyBot):
        def discard(self, game, seat, discards):
            return discards[0]

    r = rules("baijindao")
    g = Game(r, {}, 2, backend="native")
    while True:  # to a decision of discards alone
        s = g.current_seats()[0]
        moves = g.legal_moves(s)
        if all(m.action == "discard" for m in moves) and len(moves) > 1:
            break
        g.apply(s, GreedyBot(1).choose(g, s, moves))
    before = r.stats()["engine_mirrors"]
    assert Cautious(1).choose(g, s, moves) == moves[0]
    # its policy read only the rule set's program and the moves: answered without a Python game
    assert r.stats()["engine_mirrors"] == before
    assert GreedyBot(1).choose(g, s, moves) != moves[0]  # (the greedy bot's own choice differs here)


def test_the_mixed_bots_generators_go_on_where_the_python_game_takes_over():
    # bots that chose natively in one hand and on a Python game in the next draw the numbers the
    # reference's bots draw choosing on Python games throughout (the generators handed back, `_home`)
    r = rules("longyan")
    def two_hands(first: str) -> tuple[list[str], float]:
        bots = [BOTS["mixed"](40 + i) for i in range(4)]
        out = []
        for seed, which in ((21, first), (22, "python")):
            g = Game(r, {"人数": 4}, seed, backend=which)
            while not g.is_over():
                s = g.current_seats()[0]
                g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
            out += [f"{s} {m}" for s, m in g.moves]
        return out, bots[0].mix.random() + bots[1].rng.random()

    before = r.stats()["engine_mirrors"]
    assert two_hands("native") == two_hands("python")
    assert r.stats()["engine_mirrors"] == before
