"""Whole hands holding wildcards or stand-ins in one native call (runtime/native/src/hand/wild.rs, the
port of runtime/hand_readings.py `_readings_wild`; src/blocks/wild.rs, the splits with wildcards):
seeded random hands of every bundled rule file with wildcards or stand-ins and bench/rules/joker.pai
(winning, near-winning, wildcards and stand-ins in place of tiles, a wildcard as the winning tile, with
melds, self-drawn or not, under room options and context values), the whole `to_json()` against the
Python backend and the native side's own JSON of each; what the native side hands back is counted by
its reason. bench/native_diff.py `--hand-hands` runs 20,000 a file."""
from __future__ import annotations

import json
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

needs_native = pytest.mark.skipif(not backend.available(), reason="the native core is not built here (installed "
                                  "without a Rust toolchain); the Python backend is in use")
# the rule files whose rule sets have wildcards or stand-ins (checked below), and the hands a file; 扯胡子's
# wildcard hands cost the Python reference about a fifth of a second each
WILD = {"baicheng.pai": 200, "chehuzi.pai": 40, "longyan.pai": 200, "joker.pai": 200}


def path_of(name):
    return ROOT / ("bench/rules" if name == "joker.pai" else "rules") / name


def test_the_sample_covers_every_rule_file_with_wildcards_or_stand_ins():
    every = {p.name for p in native_diff.FILES if (lambda r: r.ir.wilds or r.ir.standins)(load(p, backend="python"))}
    assert every - {"shapes.pai", "exprs.pai"} == set(WILD)


@needs_native
@pytest.mark.parametrize("name", sorted(WILD))
def test_hands_holding_wildcards_in_one_native_call_are_the_references(name):
    path = path_of(name)
    nat, ref = load(path, backend="native"), load(path, backend="python")
    diffs: list = []
    stats: dict = {}
    n = WILD[name]
    checks = native_diff.compare_hands(path, nat, ref, random.Random(f"wild:{name}"), n, diffs, stats)
    assert diffs == []
    assert checks > n * 0.9
    # hands holding wildcards or stand-ins went to the native side, and none came back
    assert stats["native_wild_hands"] > (0 if name == "baicheng.pai" else n / 2)
    assert stats["native_hand_fallbacks"] == 0 and stats["native_hand_reasons"] == {}
    assert stats["json"] > 0


def same(nat, ref, *args):
    got = nat.score(*args).to_json()
    assert json.dumps(got, ensure_ascii=False) == json.dumps(ref.score(*args).to_json(), ensure_ascii=False)
    return got


@needs_native
def test_one_wildcard_is_read_natively_in_every_place_it_can_play():
    path = path_of("joker.pai")
    nat, ref = load(path, backend="native"), load(path, backend="python")
    # 5p leaves 1p 2p 王 5p and a 9m pair: no reading; 9m makes the pair and 王 plays 3p (or 9m with 1p2p…)
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 1p 2p 王", [], "5p", False)
    assert not got["win"]
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 1p 2p 王", [], "9m", True)
    assert got["win"] and any(True in g["wild"] for g in got["trace"]["groups"])
    # the wildcard as the winning tile
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 1p 2p 3p", [], "王", True)
    assert got["win"] and got["trace"]["reading"].count("*") == 1
    st = nat.stats()
    assert st["native_wild_hands"] == 3 and st["native_wild_fallbacks"] == 0


@needs_native
def test_a_stand_in_is_read_natively_as_the_tile_it_plays():
    path = path_of("longyan.pai")
    nat, ref = load(path, backend="native"), load(path, backend="python")
    # 金牌 is 9m: 白 plays 9m (a stand-in, not a wildcard) and completes 7m8m9m
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 白 1p 1p 2p 3p", [], "4p", True, {"金牌": "9m"})
    assert got["win"] and "九万" in got["trace"]["concealed"] and "*" not in got["trace"]["reading"]
    st = nat.stats()
    assert st["native_wild_hands"] == 1 and st["native_wild_fallbacks"] == 0


@needs_native
@pytest.mark.parametrize("win", ["1p", "王"])
def test_two_wildcards_of_one_kind_are_read_by_signature_in_the_native_call(win):
    # the reference reads such a hand by signature (runtime/hand_readings.py `signature_found`): the
    # native readings take its splits and make the reference's readings of them, shared groups included
    path = path_of("joker.pai")
    nat, ref = load(path, backend="native"), load(path, backend="python")
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 1p 王 王", [], win, True)
    assert got["win"] and got["trace"]["reading"].count("*") == 2 + (win == "王")
    got = same(nat, ref, "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 王 王 王", [], win, False)
    assert got["win"]
    st = nat.stats()
    assert st["native_wild_hands"] == 2 and st["native_wild_fallbacks"] == 0


@needs_native
def test_a_hand_whose_signature_search_is_refused_has_the_references_sentence():
    from paili.runtime.hand import HandError
    path = path_of("chehuzi.pai")
    for name in ("native", "python"):
        r = load(path, backend=name)
        with pytest.raises(HandError, match="more ways to read its wildcards than paili examines"):
            r.score("贰贰贰六六六七八九七七柒十拾拾二二王王王", None, "王", True, work=[50])
