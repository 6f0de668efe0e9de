"""A win's readings for several scopes from one scoring (engine/winning/trial.rs `found_joined`, engine/win.rs
`win_of` and `rescore`): where a win is tried before it is offered, the native hand scores the hand as it
stands once and reads from that scoring the names the legal moves, the events and the hand's end read of it
(the reference evaluates each scope's names on the same win); a win taken is read for the events and the
hand's end from one scoring too. Two rule sets made from 白金岛 make each part count: one whose `win` hook
sets a context value from three patterns of the win (the events' names: the offered score and the payments
follow it) beside 白金岛's task factor (the hand's end's names); one whose win action's guard reads patterns
(the legal moves' names) and whose only `win` hook applies to some wins (a win it leaves as found is offered
with the legal moves' reading of the joined scoring). Seeded hands played on the native hand beside the
reference: equal at every point, wins offered and taken. (Reading one scope's part as another's fails both.)"""
from __future__ import annotations

import pytest
from conftest import ROOT, native_engine_only
from native_lockstep import lockstep, seeded_bots
from paili.dsl.compiler import compile_text
from paili.runtime.game.native_play import PlayCheck
from paili.runtime.rules import Rules

WIN_ACTION = """action 胡 {
  on win_offer
  by any
  wins true
  then none
"""
# the events' names: a `win` hook reading three patterns of the win into a context value the score multiplies
EVENTS_HOOK = """
on win {
  set 房间倍率 = 1 + 幺九刻 + 2 * 断幺 + 3 * 平和
}
"""
# the legal moves' names: the win action's guard reads patterns of the win offered; the only `win` hook
# applies to some wins (a win it leaves as found is offered with the legal moves' reading of that scoring)
GUARDED = WIN_ACTION + "  when 幺九刻 == 0 or 断幺 > 0\n"
SOME_WINS_HOOK = """
on win {
  when 平和 > 0 or 断幺 > 0
  set 房间倍率 = 2 + 幺九刻
}
"""
# a `win` hook that most often sets the value the context holds already (a trial it leaves unchanged offers
# the win as found, not scored again), and otherwise one that multiplies the score
SAME_VALUE_HOOK = """
on win {
  set 房间倍率 = if self_drawn then 3 else 1
}
"""


def _variant(name: str) -> Rules:
    src = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8")
    assert WIN_ACTION in src
    if name == "events":
        src += EVENTS_HOOK
    else:  # 白金岛's own `win` hooks (which apply to every win) left out
        start = src.index("on win {")
        end = src.index("action 报听 {")
        src = src[:start] + src[end:] + (SAME_VALUE_HOOK if name == "same" else SOME_WINS_HOOK)
        if name == "guarded":
            src = src.replace(WIN_ACTION, GUARDED)
    res = compile_text(src, f"白金岛-{name}.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset, backend="native")


def _played(rules: Rules, seed: int, bots: str):
    """One seeded hand on the reference and, move for move, on the native hand, every point compared
    (tests/native_lockstep.py); the wins offered (legal moves of the win action) and the wins taken."""
    offered = taken = 0
    for point in lockstep(PlayCheck(rules, {}), seed, seeded_bots(bots, seed)):
        g, _p, _seat, moves, mv = point  # (g: the same game at every point, over after the last)
        offered += any(m.action == "胡" for m in moves)
        taken += mv.action == "胡"
    return g, offered, taken


@native_engine_only()
@pytest.mark.parametrize("name", ["events", "guarded"])
def test_a_wins_readings_of_one_scoring_equal_the_reference(name):
    rules = _variant(name)
    offered = taken = lifted = 0
    for seed in range(8):
        for bots in ("random", "greedy", "efficiency"):
            g, o, t = _played(rules, seed, bots)
            offered += o
            taken += t
            lifted += name == "events" and t > 0 and g.st.context.get("房间倍率", 1) != 1
    assert offered >= 4 and taken >= 4
    if name == "events":
        assert offered >= 10 and lifted >= 4  # wins whose score the events' reading multiplied


@native_engine_only()
def test_a_trial_setting_the_values_the_context_holds_offers_the_win_as_found():
    """engine/winning/trial.rs: a trial whose hooks leave every context value as it was (the values id
    unchanged) offers the win scored before them; one whose hooks change a value (self-drawn: 房间倍率 3) is
    scored again. Both equal the reference at every point; reading a changed trial as unchanged offers
    and pays the win at a third of its score."""
    rules = _variant("same")
    offered = taken = tripled = 0
    for seed in range(10):
        for bots in ("random", "greedy", "efficiency"):
            g, o, t = _played(rules, seed, bots)
            offered += o
            taken += t
            tripled += t > 0 and g.st.context.get("房间倍率", 1) == 3
    assert offered >= 10 and taken >= 4
    assert 1 <= tripled < taken  # wins of both kinds taken
