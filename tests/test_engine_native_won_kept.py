"""A won hand's scorings after the win kept per state (engine/winning/record.rs `won_scoring`): the reading
taken, the rescorings before and after the `win` hooks, the decisions the win opens and the simulation's
record score the hand once per state they see, and score it again where the state changed. A rule set made
from 白金岛 whose `win` hook sets a context value the score multiplies (from three patterns of the win):
the scoring after the hooks differs from the one before them, so a scoring kept across that change would
pay, offer and record the score as found. Seeded hands on the native hand beside the reference (equal at
every point) and the native simulation's summary beside the Python path's (every hand played natively)."""
from __future__ import annotations

from conftest import ROOT, native_engine_only
from native_lockstep import lockstep, seeded_bots
from paili.dsl.compiler import compile_text
from paili.runtime.game.native_play import PlayCheck
from paili.runtime.game.simulate import play_games, play_games_python, seeds_of, summarize
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

# a `win` hook changing what the scoring reads between the rescorings around it
HOOK = """
on win {
  set 房间倍率 = 1 + 幺九刻 + 2 * 断幺 + 3 * 平和
}
"""
NATIVE_KEYS = ("native_hands", "native_fallbacks", "native_refusals")


def _rules() -> Rules:
    src = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8") + HOOK
    res = compile_text(src, "白金岛-hooked.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset, backend="native")


def _played(rules: Rules, seed: int, bots: str):
    """One seeded hand on the reference and, move for move, on the native hand, every point compared
    (tests/native_lockstep.py); the reference game at its end."""
    for point in lockstep(PlayCheck(rules, {}), seed, seeded_bots(bots, seed)):
        g = point[0]  # (the same game at every point, over after the last)
    return g


def test_a_won_hand_is_scored_again_where_a_hook_changed_its_state():
    rules = _rules()
    lifted = 0
    for seed in range(10):
        for bots in ("random", "efficiency"):
            g = _played(rules, seed, bots)
            # a win whose `win` hook changed the factor the score multiplies: the final score is not the
            # one before the hook (the states, payments and decisions compared above follow the final one)
            lifted += bool(g.st.winners) and g.st.context.get("房间倍率", 1) != 1
    assert lifted >= 3


def test_the_native_record_of_a_rescored_win_is_the_python_paths():
    rules = _rules()
    seeds = seeds_of(80, 5)
    native = summarize([play_games(rules, seeds, "random", {})], 80, "random", 1.0)
    python = summarize([play_games_python(rules, seeds, "random", {})], 80, "random", 1.0)
    assert native["native_hands"] == 80 and native["native_fallbacks"] == 0
    assert {k: v for k, v in native.items() if k not in NATIVE_KEYS} == python
    assert native["wins"] >= 5
