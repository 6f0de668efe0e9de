"""An action's `when` made of the actor's own flags and one wait question's length compared with a whole
number (`not actor.已报听 and len(actor.waits) > 0`), answered natively without an evaluation set up
(runtime/native/src/engine/offers/ready_guard.rs): the same answer as the reference's evaluation at every
decision. 白金岛 with its two declarations' guards rewritten in the shapes the guard reads — a flag under
one and three `not`s, a positive flag, the number on either side, `waits`
and `group_waits`, `>`, `>=`, `<`, `==`, `!=` — and in a shape it leaves to the evaluator (a flag that is
a computed field): seeded hands played on the reference and, move for move, on the native hand, every
point compared (states, continuations, the legal moves offered)."""
from __future__ import annotations

import pytest
from conftest import ROOT, native_engine_only
from native_lockstep import lockstep, seeded_bots
from paili.dsl.compiler import compile_text
from paili.runtime.game.native_play import PlayCheck
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

DECLARE = "when not actor.已报听 and len(actor.waits) > 0"
CLOSED = "when not actor.已报听 and not actor.已副露 and len(actor.waits) > 0"

VARIANTS = {
    # the number on the left, an odd count of `not`s; group waits
    "shapes": (
        "when not not not actor.已报听 and not actor.杠后 and 0 < len(actor.waits)",
        "when not actor.已报听 and not actor.已副露 and len(actor.group_waits) >= 1",
    ),
    # declarations offered on hands that wait on nothing, and on hands that claimed (a positive flag)
    "inverted": (
        "when not actor.已报听 and len(actor.waits) == 0",
        "when not actor.已报听 and actor.已副露 and len(actor.waits) != 0",
    ),
    # a computed field as the flag (`concealed`): not the guard's shape, evaluated as before
    "evaluated": (
        "when actor.concealed and not actor.已报听 and len(actor.waits) < 3",
        CLOSED,
    ),
}


def _rules(declare: str, closed: str) -> Rules:
    src = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8")
    assert src.count(DECLARE) == 1 and src.count(CLOSED) == 1
    res = compile_text(src.replace(CLOSED, closed).replace(DECLARE, declare), "白金岛-ready.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset, backend="native")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ready_guards_offer_the_declarations_as_the_reference(variant):
    rules = _rules(*VARIANTS[variant])
    check = PlayCheck(rules, {})
    offered = dict.fromkeys(("报听", "立直"), 0)
    points = 0
    for seed in range(6):
        for bots in ("random", "efficiency"):
            for _g, _p, _seat, moves, _mv in lockstep(check, seed, seeded_bots(bots, seed)):
                names = {m.action for m in moves}
                for k in offered:
                    offered[k] += k in names
                points += 1
    # each declaration was offered at some decisions and not at others (the guards answered both ways)
    assert all(0 < n < points for n in offered.values()), (offered, points)
