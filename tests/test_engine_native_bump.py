"""A seat's whole-number state set to itself plus or minus a constant (`set actor.出牌数 = actor.出牌数 + 1`)
done in place, without an evaluation (runtime/native/src/engine/effects.rs `bumped`): every seat's states
equal the reference's after every move of seeded 白金岛 hands (its discard and draw counters), which moved."""
import json

from conftest import native_engine_only
from native_lockstep import twin_games
from paili import load

pytestmark = native_engine_only()


def _seats(g) -> str:
    return json.dumps(g.snapshot()["seats"], ensure_ascii=False)


def test_bumped_counters_equal_the_references_after_every_move():
    rules = load("baijindao")
    for seed in (3, 8):
        for native, ref in twin_games(rules, {}, seed, seed * 13):
            assert _seats(native) == _seats(ref)
        # the counters moved (the bumped effects ran at the draws and discards)
        seats = native.snapshot()["seats"]
        assert sum(s["vars"]["出牌数"] for s in seats) > 4 and sum(s["vars"]["摸牌数"] for s in seats) > 4
