"""The hand's event counts kept by index for the names a rule set knows (runtime/native/src/engine/counts.rs):
read back from the native state, they are the reference's counts in the reference's order (sorted by name, as
`HandState.snapshot` writes them) after every move; a hand restored from a snapshot (its counts read by name)
counts on by index and ends with the reference's counts."""
import json

from conftest import native_engine_only
from native_lockstep import twin_games
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS

pytestmark = native_engine_only()


def _events(g) -> str:
    return json.dumps(g.snapshot()["events"], ensure_ascii=False)  # the keys' order included


def test_the_counts_are_the_references_in_name_order_after_every_move():
    for stem, seed in (("baijindao", 5), ("baicheng", 7)):
        rules = load(stem)
        for moves, (native, ref) in enumerate(twin_games(rules, {}, seed, seed * 31)):
            assert _events(native) == _events(ref), (stem, moves)
        counts = native.snapshot()["events"]
        assert native.is_over() and _events(native) == _events(ref)
        assert list(counts) == sorted(counts) and counts["discard"] > 0 and moves > 20


def test_a_restored_hand_counts_on_as_the_reference():
    rules = load("baijindao")
    seed = 11
    ref = Game(rules, {}, seed, backend="python")
    players = [BOTS["random"](seed * 31 + i) for i in range(ref.n)]
    restored = None
    while not ref.is_over():
        if restored is None and ref.st.turn == 6:  # mid-hand: the counts so far read back by name
            restored = Game.restore(rules, ref.snapshot())  # (the default backend: native where built)
            assert _events(restored) == _events(ref)
        seat = ref.current_seats()[0]
        mv = players[seat].choose(ref, seat, ref.legal_moves(seat))
        ref.apply(seat, mv)
        if restored is not None:
            restored.apply(seat, mv)
    assert restored is not None and restored.is_over()
    assert _events(restored) == _events(ref)
