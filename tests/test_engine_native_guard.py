"""Conditions decided from their bindings before an evaluation is set up (runtime/native/src/engine/guard.rs):
the leading conjuncts that read a binding's flag (a tile's `wild` or a field of its kind, a seat's own state
or phase, under `not`s) or compare seats, the dealer, table states and none. 龙岩-4 (whose discard hooks and
phases begin `tile.wild and …`, `not tile.wild and table.金限制 == actor`, `actor.游金中 and …`) with
hooks added in those shapes — a guard that decides the whole, one whose evaluated tail reads further, a
double `not`, a field of the tile's kind — each counting its firings in a table state: seeded hands on the
reference and, move for move, on the native hand, every point compared (states, payments, event counts)."""
from __future__ import annotations

from conftest import ROOT, native_engine_only
from native_lockstep import lockstep, seeded_bots
from paili.dsl.compiler import compile_text
from paili.runtime.game.native_play import PlayCheck
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

HOOKS = """
state table 守卫一 int = 0
state table 守卫二 int = 0
state table 守卫三 int = 0
state table 守卫四 int = 0
on discard {
  when not not tile.wild and not actor.游金中
  set table.守卫一 = table.守卫一 + 1
}
on discard {
  when tile.honor and dealer != actor
  set table.守卫二 = table.守卫二 + 1
}
on discard {
  when table.金限制 != none and table.金限制 != actor and len(actor.hand) > 0
  set table.守卫三 = table.守卫三 + 1
}
on draw {
  when actor == dealer and not tile.wild and none != actor
  set table.守卫四 = table.守卫四 + 1
}
"""
COUNTERS = ("守卫一", "守卫二", "守卫三", "守卫四")


def _rules() -> Rules:
    src = (ROOT / "rules" / "longyan.pai").read_text(encoding="utf-8") + HOOKS
    res = compile_text(src, "龙岩-guarded.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset, backend="native")


def test_guarded_conditions_answer_as_the_reference_at_every_point():
    rules = _rules()
    fired = dict.fromkeys(COUNTERS, 0)
    for seed in range(8):
        for bots in ("random", "efficiency"):
            for point in lockstep(PlayCheck(rules, {}), seed, seeded_bots(bots, seed)):
                g = point[0]
            for k in COUNTERS:
                fired[k] += g.st.table[k] > 0
    # every added hook fired in some hands (and was false at other discards and draws)
    assert all(n > 0 for n in fired.values()), fired
