"""The engine's speed paths (issue 5) change nothing: games play identically with `Game.shortcuts` off,
every shortcut agrees with the full computation it skips on hands built to be nearly complete, the
wildcard-free block tables agree with the full ones, and the lighter per-move invariant check still
catches a tile lost at once and a tile turned into another kind by the end of the hand."""
from __future__ import annotations

import json
import random

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.bots import RandomBot
from paili.runtime.game.simulate import simulate

VARIANTS = ["baijindao", "baicheng", "longyan", "chehuzi"]
_RULES: dict = {}


def rules(name: str):
    # the Python backend: `simulate` plays native games where the rules are on the native backend, and
    # the shortcuts compared here are the Python engine's
    if name not in _RULES:
        _RULES[name] = load(ROOT / "rules" / f"{name}.pai", backend="python")
    return _RULES[name]


def _logs(tmp_path, variant: str, games: int, bots: str, shortcuts: bool) -> tuple[dict, list[str]]:
    Game.shortcuts = shortcuts
    try:
        out = tmp_path / f"{variant}-{bots}-{shortcuts}"
        summary = simulate(rules(variant), games, 23, bots, log_dir=out)
    finally:
        Game.shortcuts = True
    summary.pop("seconds")
    summary.pop("games_per_second")
    return summary, [p.read_text(encoding="utf-8") for p in sorted(out.glob("*.jsonl"))]


@pytest.mark.parametrize("variant,games", [("baijindao", 12), ("baicheng", 6), ("longyan", 6), ("chehuzi", 4)])
def test_games_are_identical_without_the_shortcuts(tmp_path, variant, games):
    for bots in ("random", "greedy"):
        with_, logs_with = _logs(tmp_path, variant, games, bots, True)
        without, logs_without = _logs(tmp_path, variant, games, bots, False)
        assert with_ == without
        assert len(logs_with) == games and logs_with == logs_without
        assert with_["invariant_violations"] == 0


def _near_complete(dec, cat, rng, size: int) -> list[int]:
    """Counts per kind of `size` tiles drawn as whole groups, one tile then swapped at random."""
    counts = [0] * dec.n
    kinds = [k for k in cat.kinds if k.category != "flower"]
    while sum(counts) < size:
        k = rng.choice(kinds)
        spec = rng.choice(dec.specs)
        options = list(dec.placements(spec, k.index, [4] * dec.n, 0))
        if not options:
            continue
        for i, _ in rng.choice(options):
            if counts[i] < cat.kinds[i].copies and sum(counts) < size:
                counts[i] += 1
    if rng.random() < 0.5:
        counts[rng.choice([i for i in range(dec.n) if counts[i]])] -= 1
        k = rng.choice(kinds)
        counts[k.index] += counts[k.index] < k.copies
    return counts


@pytest.mark.parametrize("variant", VARIANTS + ["guobiao"])
def test_block_table_shortcuts_agree_with_the_full_tables(variant):
    r = rules(variant)
    cat, dec = r.catalog_for(r.settings_env(None))
    fast = dec.fast
    rng = random.Random(5)
    size = 20 if variant == "chehuzi" else 13
    hands = 12 if variant == "chehuzi" else 150  # one block of 20 kinds: its full tables are slow to fill
    ready = 0
    for _ in range(hands):
        counts = _near_complete(dec, cat, rng, size)
        for wilds in (0, 1):
            if wilds > fast.cap or (wilds and variant == "chehuzi"):
                continue
            targets = ((7, 0), (6, 1)) if variant == "chehuzi" else ((4, 1), (0, 7))
            got = fast.completing_kinds(counts, wilds, targets)
            want = []
            for i in range(dec.n):
                counts[i] += 1
                if any(fast.fits(fast.hand_id(counts), wilds, m, p) for m, p in targets):
                    want.append(i)
                counts[i] -= 1
            assert got == want
            ready += bool(want)
        for m, p in ((4, 1), (0, 7), (7, 0), (6, 1)):  # the wildcard-free tables: the same answers
            assert fast.fits(fast.hand_id0(counts), 0, m, p) == fast.fits(fast.hand_id(counts), 0, m, p)
        full = [b for b in range(len(fast.blocks)) if not fast._natural(fast.block_id(b, fast.block_key(b, counts)))]
        assert fast.unsplit_blocks(counts, 99) == full
    assert ready >= hands // 15  # the hands really were near a win


@pytest.mark.parametrize("variant", ["baijindao", "baicheng", "longyan"])  # chehuzi: one block, never short-cut
def test_not_ready_and_hopeless_never_skip_a_wait_or_a_win(variant):
    g = Game(rules(variant), {}, 3, backend="python")  # the reference's own paths
    cat, dec = g.cat, g.dec
    rng = random.Random(11)
    seat = g.st.seats[0]
    seat.melds = []
    skipped = 0
    for _ in range(120):
        counts = _near_complete(dec, cat, rng, len(seat.hand) - (len(seat.hand) % 3 == 2))
        seat.hand = [cat.kinds[i] for i in range(dec.n) for _ in range(counts[i])]
        seat.changed()
        Game.shortcuts = False
        try:
            waits = g._waits_of(seat, list(seat.hand))
        finally:
            Game.shortcuts = True
        if g._not_ready(list(seat.hand), seat.melds):
            skipped += 1
            assert waits == []
        assert g.waits(seat) == waits
        for k in cat.kinds:
            if k.category == "flower":
                continue
            if g._hopeless(seat, k, False, ()):
                assert not g._could_win(list(seat.hand), seat.melds, k, False)
    assert skipped > 0


def _play_until(g: Game, moves: int) -> None:
    bots = [RandomBot(i) for i in range(g.n)]
    while not g.is_over() and len(g.moves) < moves:
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))


def test_a_lost_tile_is_caught_at_the_next_move():
    g = Game(rules("baijindao"), {}, 4, backend="python")  # the reference's own paths
    _play_until(g, 5)
    assert not g.violations
    g.st.wall.pop()  # a tile disappears
    _play_until(g, 6)
    assert any("tiles not conserved" in v for v in g.violations)


def test_a_tile_turned_into_another_kind_is_caught_by_the_end_of_the_hand():
    g = Game(rules("baijindao"), {}, 4, backend="python")  # the reference's own paths
    _play_until(g, 3)
    st = g.st
    other = next(i for i in range(len(st.kind_of)) if st.kind_of[i].name != st.kind_of[st.wall[-1]].name)
    st.wall[-1] = other  # the same number of tiles, but one copy too many of a kind
    _play_until(g, 10_000)
    assert g.is_over()
    assert any("tiles not conserved" in v for v in g.violations)
    assert g.check_invariants()  # and the full check, asked any time, sees it too


def test_check_invariants_stays_the_full_check():
    g = Game(rules("baicheng"), {}, 2, backend="python")  # the reference's own paths
    _play_until(g, 20)
    assert g.check_invariants() == []
    g.st.seats[1].discards.append(g.st.seats[1].hand[0])
    assert any("tiles not conserved" in v for v in g.check_invariants())
    json.dumps(g.snapshot(), ensure_ascii=False)


def test_instant_forms_are_scored_only_when_the_hand_holds_enough_wildcards():
    from paili.runtime.ir.wilds import wilds_needed

    g = Game(rules("longyan"), {}, 6, backend="python")  # the reference's own paths
    needs = {f.name: wilds_needed(f.instant) for f, _, _ in g.rules.forms if f.instant is not None}
    assert needs and max(needs.values()) == 3  # `count(t in hand: t.wild) >= 3`
    gold = next(k for k in g.cat.kinds if k.name in g.hand_wild_names)
    kinds = [k for k in g.cat.kinds if k.category != "flower" and k.name != gold.name]
    rng = random.Random(2)
    seat = g.st.seats[1]
    wins = 0
    for n_gold in (0, 1, 2, 3, 3, 4):
        for _ in range(25):
            conc = [gold] * min(n_gold, 3) + rng.sample(kinds, 13 - min(n_gold, 3))
            win = gold if n_gold == 4 else rng.choice(kinds)
            results = []
            for shortcuts in (True, False):
                Game.shortcuts = shortcuts
                try:
                    results.append(g._could_win(conc, seat.melds, win, True))
                finally:
                    Game.shortcuts = True
            assert results[0] == results[1]
            wins += results[0]
    assert wins >= 25  # three wildcards do win (the instant form), so the skip was really tested


def test_the_native_scoring_is_handed_each_instant_forms_fewest_wildcards():
    """The native exact shortcuts (src/engine/winning/shortcut.rs) read each form's fewest wildcards from
    the native hands' setup: the reference's own count (`wilds_needed`), 0 for a form that is not instant."""
    from paili.runtime.ir.wilds import wilds_needed
    from paili.runtime.nativehand import instant_wilds

    for name, expect in (("longyan", 3), ("guobiao", 0)):
        r = rules(name)
        got = instant_wilds(r.ir)
        assert got == [wilds_needed(f.instant) if f.instant is not None else 0 for f in r.ir.forms]
        instant = [n for n, f in zip(got, r.ir.forms) if f.instant is not None]
        assert instant and max(instant) == expect
