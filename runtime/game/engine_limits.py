"""Constructs the language accepts but the game engine does not execute.

The checker reports each as warning W605 (the file still compiles: scoring, pages and examples work),
and the engine refuses to create a game from such a rule set rather than play it wrongly
(`runtime/game/flow.py`, `unsupported`). One list, so the two never disagree.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir.span import Span

# Events whose actions the engine offers in its own steps (the turn, the claim windows, the deal and
# the opening checks); actions opened by any other event (an action's name, `win`, `hand_end`, …) are
# offered as a decision right after that event's hooks and payments.
ENGINE_OFFERED = frozenset({"turn", "draw", "reveal", "discard", "added_kong", "win_offer", "deal", "opening"})
# What such a decision can continue with: nothing more, or handing the seat to the engine.
DECISION_THEN = ("none", "auto")


def unexecuted(rs: ir.RuleSet) -> list[tuple[str, Span]]:
    """(sentence fragment, where) for each construct of `rs` that games do not execute."""
    out: list[tuple[str, Span]] = []
    opening = {e for a in rs.actions for e in (a.on, *a.also_on)}
    bodies = [(f"`action {a.name}`", a.effects + a.decline) for a in rs.actions]
    bodies += [(f"the `on {h.event}` hook", h.effects) for h in rs.hooks]
    for where, effects in bodies:
        for ef in effects:
            if ef.op == "emit" and ef.target and ef.target[0] in opening:
                # An emitted event runs its hooks and payments inside the current step; offering
                # decisions there would need the step to pause, which the engine does not do.
                out.append((f"`emit {ef.target[0]}` in {where}: actions opened by an emitted event", ef.span))
    followers = {f for a in rs.actions for f in a.follow}
    for a in rs.actions:
        others = [e for e in (a.on, *a.also_on) if e not in ENGINE_OFFERED]
        if others and not a.wins and a.name not in followers and a.then not in DECISION_THEN:
            # The step that raised the event goes on by its own rule; a second continuation (another
            # discard, a replacement draw) would have to interrupt it.
            out.append((f"`then {a.then}` of `action {a.name}`, opened by `{others[0]}`", a.span))
    for r in rs.restricts:
        if "draw" in r.actions:
            # Drawing is the engine's step, not an offered move: nothing could be forbidden.
            out.append((f"`restrict {r.name}` on `draw`", r.span))
    return out
