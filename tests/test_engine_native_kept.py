"""Conditions answered without being evaluated again (runtime/native/src/engine/kept.rs): a payment's `when`
that reads neither payer nor payee, answered once for all its pairs, and a condition whose leading conjuncts
read only the table's states (龙岩-4's 分饼: `players == 4 and table.分饼 and …` on every discard, its payment
from the dealer to each other seat), kept false while those states are unchanged. The native hand's table
states, context values, payments and event counts equal the reference's after every move, in hands where
the dealer's tile is kept (the kept part true) and 分饼 is broken off (false for the rest of the hand), and
where a payment is made by or to several seats at once."""
import json
from pathlib import Path

from conftest import native_engine_only
from native_lockstep import twin_games
from paili import load

pytestmark = native_engine_only()

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("table", "context", "payments", "deltas", "events", "seats")


def _state(g) -> str:
    s = g.snapshot()
    return json.dumps({k: s[k] for k in KEYS}, ensure_ascii=False, sort_keys=False)


def test_kept_conditions_answer_as_the_reference_after_every_move():
    rules = load(ROOT / "rules/longyan.pai")
    pairs = set_ = broken = 0
    for seed in range(1, 9):
        for moves, (native, ref) in enumerate(twin_games(rules, {"人数": 4}, seed, seed * 17)):
            assert _state(native) == _state(ref), (seed, moves)
        snap = ref.snapshot()
        names = [p["name"] for p in snap["payments"]]
        pairs += any(names.count(n) > 1 for n in names)  # a payment made to or from several seats at once
        set_ += snap["table"].get("饼牌") is not None  # the dealer's tile kept: the kept part was true
        broken += snap["table"].get("分饼") is False  # broken off: the kept part false from then on
    assert pairs > 0 and set_ > 0 and broken > 0
