"""Games and threads: the native engine's objects may move between threads as Python objects do
(runtime/native/src/engine/hand_binding.rs: not `unsendable`). A native game made on one thread plays on
natively on another and ends as the reference's game does; games on several threads at once, the pool's
idle hands and the bots' native tables shared between them, simulations on two threads, and a game
collected on a thread other than its own never panic nor fail to drop (PyO3 reports a class marked
`unsendable` used or dropped on another thread as a panic, or an error while dropping it)."""
from __future__ import annotations

import gc
import threading

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_game import native_played
from paili.runtime.game.simulate import simulate

pytestmark = [
    pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed without a "
                       "Rust toolchain): every game plays in Python, on any thread"),
    # a native object dropped on another thread is reported as an unraisable exception: an error here
    pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning"),
]
_RULES: dict = {}


def rules(name: str):
    if name not in _RULES:
        _RULES[name] = load(ROOT / "rules" / f"{name}.pai", backend="native")
    return _RULES[name]


def play_on(g, bots, upto: int | None = None) -> None:
    """Moves chosen by `bots` until the hand is over (or `upto` moves have been made in all)."""
    while not g.is_over() and (upto is None or len(g.moves) < upto):
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))


def on_a_thread(fn):
    """fn() on a new thread, its exception raised here."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 — a panic is a BaseException: it must reach the test
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


@pytest.mark.parametrize("name,bot", [("baicheng", "random"), ("baijindao", "efficiency")])
def test_a_native_game_used_from_another_thread_plays_on_natively(name, bot):
    r = rules(name)
    seed = 11
    g = Game(r, {}, seed, backend="native")
    assert type(g).__name__ == "NativeGame"
    bots = [BOTS[bot](seed * 31 + i) for i in range(g.n)]
    play_on(g, bots, upto=12)
    before = r.stats()
    on_a_thread(lambda: play_on(g, bots))  # the rest of the hand on another thread
    after = r.stats()
    assert after["engine_fallbacks"] == before["engine_fallbacks"]  # no hand handed to Python
    assert after["engine_mirrors"] == before["engine_mirrors"]  # no Python game beside it
    assert g.is_over() and len(g.moves) > 12 and native_played(g)

    ref = Game(r, {}, seed, backend="python")  # the same moves on the reference from the start
    for s, m in g.moves:
        ref.apply(s, m)
    assert ref.is_over()
    assert g.result() == ref.result()
    assert g.snapshot() == ref.snapshot()


def test_games_on_several_threads_at_once_each_play_natively():
    r = rules("baicheng")
    seeds = [3, 4, 5, 6]

    def one(seed):
        g = Game(r, {}, seed, backend="native")
        bots = [BOTS["efficiency"](seed * 31 + i) for i in range(g.n)]
        play_on(g, bots)
        return [f"{s} {m}" for s, m in g.moves], native_played(g)

    got: dict = {}
    errors: list = []

    def run(seed):
        try:
            got[seed] = one(seed)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    before = r.stats()
    threads = [threading.Thread(target=run, args=(s,)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert r.stats()["engine_fallbacks"] == before["engine_fallbacks"]  # each played on its own thread
    for seed in seeds:
        moves, native = got[seed]
        assert native
        assert moves == one(seed)[0]  # the same game on this thread


def test_a_hand_given_back_on_an_ended_thread_plays_here():
    r = rules("baicheng")

    def made_there():
        g = Game(r, {}, 21, backend="native")
        play_on(g, [BOTS["random"](i) for i in range(g.n)], upto=5)
        del g
        gc.collect()  # its native hand back to the rule set's idle hands

    on_a_thread(made_there)
    gc.collect()
    g = Game(r, {}, 21, backend="native")  # the idle hand the ended thread gave back, taken here
    play_on(g, [BOTS["random"](i) for i in range(g.n)])
    assert g.is_over() and native_played(g)


def test_simulations_on_two_threads_give_the_summary_of_one():
    r = rules("baicheng")

    def run():
        s = simulate(r, 6, 9, "efficiency")
        s.pop("seconds")
        s.pop("games_per_second")
        return s

    here = run()
    assert on_a_thread(run) == here
