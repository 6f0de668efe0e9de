"""A seat's whole-number state set to itself plus or minus a constant (`set actor.出牌数 = actor.出牌数 + 1`)
done in place, without an evaluation (runtime/native/src/engine/effects.rs `bumped`): every seat's states
equal the reference's after every move of seeded 白金岛 hands (its discard and draw counters), which moved."""
import json

from conftest import native_engine_only
from paili import Game, load
from paili.runtime.game.bots import BOTS

pytestmark = native_engine_only()


def _seats(g) -> str:
    return json.dumps(g.snapshot()["seats"], ensure_ascii=False)


def test_bumped_counters_equal_the_references_after_every_move():
    rules = load("baijindao")
    for seed in (3, 8):
        native, ref = Game(rules, {}, seed, backend="native"), Game(rules, {}, seed, backend="python")
        players = [BOTS["random"](seed * 13 + i) for i in range(ref.n)]
        while not ref.is_over():
            assert _seats(native) == _seats(ref)
            seat = ref.current_seats()[0]
            mv = players[seat].choose(ref, seat, ref.legal_moves(seat))
            ref.apply(seat, mv)
            native.apply(seat, mv)
        assert native.is_over() and _seats(native) == _seats(ref)
        # the counters moved (the bumped effects ran at the draws and discards)
        seats = native.snapshot()["seats"]
        assert sum(s["vars"]["出牌数"] for s in seats) > 4 and sum(s["vars"]["摸牌数"] for s in seats) > 4
