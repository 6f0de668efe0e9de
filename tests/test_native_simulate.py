"""`paili simulate`'s native path (runtime/game/native_simulate.py, engine/simulate.rs, engine/bot_play.rs):
seeded games of every bundled variant (龙岩 at 4, 3 and 2 players) and bench/rules/joker.pai played by the
native engine with native random, greedy and efficiency bots give the summary the Python path gives; a
hand the native engine hands back is played again in Python and counted; `--workers` gives the same
summary; the Python backend keeps the Python path; bad bot data is refused with one sentence.
bench/native_simulate.py runs 1,000 games a configuration."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.game import log as gamelog
from paili.runtime.game import native_simulate
from paili.runtime.game.simulate import play_games, play_games_python, seeds_of, simulate, summarize

pytestmark = pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                                "without a Rust toolchain): there is no native path to compare")

NATIVE_KEYS = ("native_hands", "native_fallbacks", "native_refusals")
_RULES: dict = {}


def rules(name: str, which: str = "native"):
    key = (name, which)
    if key not in _RULES:
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        _RULES[key] = load(path, backend=which)
    return _RULES[key]


def both(name: str, options: dict, games: int, bots: str, seed: int = 7) -> tuple[dict, dict]:
    """The summary of the same seeded games on the native path and on the Python path."""
    seeds = seeds_of(games, seed)
    native = summarize([play_games(rules(name), seeds, bots, options)], games, bots, 1.0)
    python = summarize([play_games_python(rules(name), seeds, bots, options)], games, bots, 1.0)
    return native, python


def plain(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in NATIVE_KEYS}


CASES = [("baijindao", {}, 20, "random"), ("baicheng", {}, 20, "random"), ("chehuzi", {}, 20, "random"),
         ("guobiao", {}, 20, "random"), ("longyan", {"人数": 4}, 20, "random"), ("longyan", {"人数": 3}, 20, "random"),
         ("longyan", {"人数": 2}, 20, "random"), ("joker", {}, 20, "random"),
         ("baicheng", {}, 8, "efficiency"), ("guobiao", {}, 6, "efficiency"), ("longyan", {"人数": 4}, 6, "efficiency"),
         ("joker", {}, 8, "efficiency"), ("baicheng", {}, 10, "greedy"), ("longyan", {"人数": 2}, 10, "greedy"),
         ("baicheng", {}, 8, "random,efficiency,greedy,efficiency"), ("baicheng", {}, 8, "mixed"),
         ("longyan", {"人数": 4}, 8, "mixed"), ("joker", {}, 8, "mixed"), ("chehuzi", {}, 6, "mixed,random,greedy")]


@pytest.mark.parametrize("name,options,games,bots", CASES)
def test_the_native_path_gives_the_python_summary(name, options, games, bots):
    native, python = both(name, options, games, bots)
    assert native["native_hands"] + native["native_fallbacks"] == games
    assert sum(native["native_refusals"].values()) == native["native_fallbacks"]
    assert plain(native) == python
    assert native["wins"] + native["draws"] == games and native["invariant_violations"] == 0


def test_native_hands_are_played_natively():
    """Most hands of a variant the port covers are played to their end natively (not all handed back)."""
    native, _ = both("baicheng", {}, 8, "efficiency")
    assert native["native_hands"] == 8 and native["native_fallbacks"] == 0 and native["wins"] > 0
    assert native["pattern_counts"] and native["payment_counts"]


class HandsBack:
    """The native simulation with every other hand handed back, as a step it does not port hands one back."""

    def __init__(self, sim):
        self.sim = sim

    def players(self) -> int:
        return self.sim.players()

    def play(self, hands):
        out = self.sim.play(hands)
        return [json.dumps({"refused": "a step not ported (test)"}) if i % 2 else line for i, line in enumerate(out)]


def test_a_hand_handed_back_is_played_in_python_and_counted():
    r = rules("guobiao")
    seeds = seeds_of(12, 3)
    sim = HandsBack(native_simulate.engine(r, {}))
    names = ["random"] * sim.players()
    part = native_simulate.play(sim, seeds, names, lambda s: play_games_python(r, s, "random", {}))
    native = summarize([part], 12, "random", 1.0)
    python = summarize([play_games_python(r, seeds, "random", {})], 12, "random", 1.0)
    assert native["native_fallbacks"] == 6 and native["native_hands"] == 6
    assert native["native_refusals"] == {"a step not ported (test)": 6}
    assert plain(native) == python


def test_workers_give_the_one_process_summary_natively():
    one = simulate(rules("baicheng"), 8, 11, "random")
    two = simulate(rules("baicheng"), 8, 11, "random", workers=2)
    for timing in ("seconds", "games_per_second"):
        one.pop(timing)
        two.pop(timing)
    assert one == two and one["native_hands"] == 8


def test_the_python_backend_keeps_the_python_path():
    assert not native_simulate.covers(rules("baicheng", "python"), ["random"])
    assert native_simulate.covers(rules("baicheng"), ["random", "efficiency", "greedy", "mixed"])
    s = simulate(rules("baicheng", "python"), 3, 1, "random")
    assert "native_hands" not in s


LOG_CASES = [("baijindao", {}, "random"), ("baicheng", {}, "random"), ("chehuzi", {}, "random"),
             ("guobiao", {}, "random"), ("longyan", {"人数": 4}, "random"), ("longyan", {"人数": 3}, "greedy"),
             ("longyan", {"人数": 2}, "random"), ("joker", {}, "random"), ("baicheng", {}, "efficiency")]


@pytest.mark.parametrize("name,options,bots", LOG_CASES)
def test_logs_on_the_native_path_are_the_python_paths_byte_for_byte(name, options, bots, tmp_path):
    """`paili simulate --log` on the native path: every hand played natively, and each log file the
    Python path's for the same seed, byte for byte; each replays (`paili replay`'s check) on both backends."""
    games = 6
    native = simulate(rules(name), games, 5, bots, options, log_dir=tmp_path / "native", rules_ref=name)
    python = simulate(rules(name, "python"), games, 5, bots, options, log_dir=tmp_path / "python", rules_ref=name)
    assert native["native_hands"] == games and native["native_fallbacks"] == 0
    for timing in ("seconds", "games_per_second"):
        native.pop(timing)
        python.pop(timing)
    assert plain(native) == python
    made = sorted(p.name for p in (tmp_path / "native").iterdir())
    assert made == sorted(p.name for p in (tmp_path / "python").iterdir()) and len(made) == games
    for f in made:
        assert (tmp_path / "native" / f).read_bytes() == (tmp_path / "python" / f).read_bytes(), f
        for which in ("native", "python"):
            assert len(gamelog.replay(tmp_path / "native" / f, rules(name, which)).played) == 1


class Broken:
    """The native simulation with its second hand reported broken, as simulate.rs reports a hand whose tiles
    or money its invariant checks find wrong (no bundled hand breaks one, so the report is injected)."""

    SENTENCE = "tiles not conserved in the native hand (a tile: 4 -> 3)"

    def __init__(self, sim):
        self.sim = sim

    def players(self) -> int:
        return self.sim.players()

    def play(self, hands, moves=False):
        out = self.sim.play(hands, moves)
        return [json.dumps({"refused": f"an invariant broken: {self.SENTENCE}", "invariant": self.SENTENCE})
                if i == 1 else line for i, line in enumerate(out)]


def test_an_invariant_broken_in_a_native_hand_is_reported_as_a_violation():
    r = rules("baicheng")
    seeds = seeds_of(4, 3)
    sim = Broken(native_simulate.engine(r, {}))
    part = native_simulate.play(sim, seeds, ["random"] * sim.players(), lambda s: play_games_python(r, s, "random", {}))
    native = summarize([part], 4, "random", 1.0)
    python = summarize([play_games_python(r, seeds, "random", {})], 4, "random", 1.0)
    assert native["invariant_violations"] == 1 and python["invariant_violations"] == 0
    assert native["violations"] == [f"game 1: the native hand: {Broken.SENTENCE}"]
    assert native["native_fallbacks"] == 1  # the hand's tallies are the reference's, played again in Python
    assert {k: v for k, v in plain(native).items() if k not in ("invariant_violations", "violations")} == \
        {k: v for k, v in python.items() if k not in ("invariant_violations", "violations")}


def test_bad_bots_are_refused_in_one_sentence():
    sim = native_simulate.engine(rules("baicheng"), {})
    with pytest.raises(ValueError, match="no bot"):
        sim.play([(5, [("nobody", 1)] * sim.players())])
    with pytest.raises(ValueError, match="bots named for"):
        sim.play([(5, [("random", 1)])])
    with pytest.raises(ValueError, match="whole number"):
        sim.play([("x", [("random", 1)] * sim.players())])


def test_room_options_given_as_text_are_played_natively():
    """`paili simulate --set 人数=2` gives the options as text: the native path plays them, as the reference
    reads them, and gives the Python path's summary."""
    native, python = both("longyan", {"人数": "2", "有筒子": "false"}, 6, "random")
    assert native["native_hands"] == 6 and native["native_fallbacks"] == 0
    assert plain(native) == python
