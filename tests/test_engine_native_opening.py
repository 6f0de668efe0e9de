"""The constructs the native hand (runtime/native/src/engine/opening.rs, win.rs, ending.rs; docs/engine-native.md,
steps 7–9) plays beyond the turn loop, each on seeded hands played to their end on both engines: the wins the
deal offers (`start_wins`), the decisions asked `together` (tiles given delivered once all have answered),
play going on after a win (`table winners_leave`), a reveal turned at a win and read by the win's scoring,
and hands holding more free tiles (wildcards and stand-ins) than wildcards. At every point the state, the
continuation and the decision are the reference's (runtime/game/native_play.py `difference`), and the
payments at the end are the reference's. bench/engine_equivalence.py `native-play` runs the same over 1,000
games per configuration (`--rules` for the rule files of tests/rules)."""
from __future__ import annotations

import json

from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_offers import plain_move
from paili.runtime.game.native_play import PlayCheck, difference, text
from paili.runtime.game.native_scope import set_scoring
from paili.runtime.game.session import Session

pytestmark = native_engine_only()

NO_DOTS = {"人数": 4, "有筒子": False}
_checks: dict = {}


def _check(path: str, options: dict) -> PlayCheck:
    key = (path, tuple(sorted(options.items())))
    if key not in _checks:
        _checks[key] = PlayCheck(load(ROOT / path, backend="native"), options)
    return _checks[key]


def _play(path: str, options: dict, seed: int, bot: str = "random"):
    """One seeded game on both engines, compared at every point; returns the reference game, the native
    final snapshot (state and continuation) and every native state and continuation seen on the way."""
    check = _check(path, options)
    session = Session(check.rules, options, seed, 1)
    g = session.new_hand()
    set_scoring(check.hand, g)
    hand = check.hand
    hand.start(g.seed, session.dealer, session.balances)
    players = [BOTS[bot](seed * 31 + i) for i in range(g.n)]
    seen = []
    while True:
        assert hand.refused() is None, hand.refused()
        assert difference(g, hand) is None
        snap = json.loads(hand.snapshot())
        seen.append(snap)
        if g.is_over():
            assert hand.is_over()
            return g, snap, seen
        s = g.current_seats()[0]
        mv = players[s].choose(g, s, g.legal_moves(s))
        g.apply(s, mv)
        hand.apply(s, text(plain_move(mv)))


def _paid_as_the_reference(g, snap) -> None:
    ref = json.loads(text(g.st.snapshot()))
    for key in ("payments", "deltas", "fees", "winners", "next_dealer"):
        assert snap["state"][key] == ref[key], key


def _asked(seen, step: str) -> list:
    """The records of `step` waiting on a decision (past its first resumption point) on the way."""
    return [r for snap in seen for r in snap["continuation"] if r["step"] == step and r["at"] > 0]


def test_a_win_the_deal_offers_is_played_natively():
    """龙岩 without dots, a recorded seed (the 92nd of native-play's): the deal offers the dealer a win
    (庄家抢金, the tile it could give up left out of the hand it waits with), asked of every seat at once
    and taken before the first turn; the hand's end, its payments and the next dealer are the reference's."""
    g, snap, seen = _play("rules/longyan.pai", NO_DOTS, 2082737481)
    assert _asked(seen, "start_wins"), "the deal offered a win"
    st = snap["state"]
    assert st["winners"] == [st["dealer"]] and st["turn"] == 0
    assert st["payments"], "the win was paid"
    _paid_as_the_reference(g, snap)


def test_decisions_asked_together_are_played_natively():
    """tests/rules/xuezhan.pai: every seat chooses the three tiles it gives and then the suit it drops
    together; the tiles given reach the next seats only once every seat has chosen."""
    for seed in (1, 2):
        g, snap, seen = _play("tests/rules/xuezhan.pai", {}, seed)
        together = _asked(seen, "together")
        assert {r["locals"]["event"] for r in together} == {"deal", "opening"}
        # every seat chose three tiles of one suit to give and a suit to drop
        for seat in snap["state"]["seats"]:
            assert len(seat["vars"]["换出"]) == 3 and seat["vars"]["定缺"] is not None
        _paid_as_the_reference(g, snap)


def test_play_goes_on_after_a_win():
    """tests/rules/xuezhan.pai and continuing.pai (`table winners_leave`): after a win the others play on
    from the seat after the winner until `ends_when` holds or the wall runs out; each win paid when made."""
    for path, seed in (("tests/rules/xuezhan.pai", 4), ("tests/rules/continuing.pai", 1),
                       ("tests/rules/continuing.pai", 3)):
        g, snap, _ = _play(path, {}, seed, "efficiency")
        st = snap["state"]
        assert st["winners"], "someone won"
        _paid_as_the_reference(g, snap)
    # (seed 4 of xuezhan and seed 1 of continuing end with three winners: play went on twice)
    assert len(_play("tests/rules/xuezhan.pai", {}, 4, "efficiency")[1]["state"]["winners"]) == 3
    assert len(_play("tests/rules/continuing.pai", {}, 1, "efficiency")[1]["state"]["winners"]) == 3


def test_a_reveal_at_a_win_is_turned_before_its_scoring():
    """tests/rules/win_reveal.pai: a tile is turned from the wall at a win, and the win's final scoring
    reads it (a fan per tile of its kind in the winning hand); the payments are the reference's."""
    turned = 0
    for seed in (1, 3, 5):
        g, snap, seen = _play("tests/rules/win_reveal.pai", {}, seed, "efficiency")
        assert snap["state"]["winners"]
        # not turned before the win, turned once it is made
        assert all(s["state"]["reveals"]["醒牌"] is None for s in seen[:-1])
        turned += snap["state"]["reveals"]["醒牌"] is not None
        _paid_as_the_reference(g, snap)
    assert turned == 3


def test_hands_holding_more_free_tiles_than_wildcards():
    """龙岩: a stand-in (白) is free in the engine's win tests as the wildcards are, so the native tables are
    built for the wildcards and the stand-ins a hand can hold (`Rules.max_free`); seed 14 without dots holds
    five free tiles, more than the four wildcards, and is played to its end natively."""
    rules = load(ROOT / "rules/longyan.pai", backend="native")
    cat, _ = rules.catalog_for({"option:人数": 4, "option:有筒子": False})
    assert (rules.max_wilds(cat), rules.max_free(cat)) == (4, 8)
    g, snap, seen = _play("rules/longyan.pai", NO_DOTS, 14)
    most = 0
    for s in seen:
        gold = s["state"]["reveals"].get("金牌")
        for seat in s["state"]["seats"]:
            most = max(most, sum(1 for t in seat["hand"] if t in (gold, "白")))
    assert most == 5
    _paid_as_the_reference(g, snap)


def test_native_play_takes_rule_files_of_elsewhere(capsys):
    """bench/engine_equivalence.py `native-play --rules PATH,…`: each file played with its default options,
    named by its stem; a file that is not there is refused (exit status 2)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("paili_engine_equivalence", ROOT / "bench" / "engine_equivalence.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    path = str(ROOT / "tests/rules/continuing.pai")
    assert tool.main(["native-play", "--games", "2", "--rules", path]) == 0
    out = capsys.readouterr().out
    assert "continuing: 2 games:" in out and "2 games played to their end, 0 different" in out
    assert tool.main(["native-play", "--games", "1", "--rules", str(ROOT / "tests/rules/none.pai")]) == 2
    assert "no rule file" in capsys.readouterr().out
