"""The distance tables (runtime/distance.py on runtime/packed_tables.py): the packed tables are the tables
worked out kind by kind (a plain reference recurrence here), `used` never grows when a tile is taken away,
`settled` is the least distance over every discard, and a floor on the groups' worth (the values the hand
shapes declare) gives the most tiles a filling of groups worth the floor holds — against a brute force
over every choice of groups for the slots."""
from __future__ import annotations

import itertools
import random

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.distance import FAR, Distance, Target
from paili.runtime.game import Game
from paili.runtime.game.group_values import value_floor

VARIANTS = ["baijindao", "baicheng", "longyan", "guobiao", "chehuzi"]
_RULES = {}


def rules(name: str):
    if name not in _RULES:
        path = ROOT / "bench" / "rules" / "joker.pai" if name == "joker" else ROOT / "rules" / f"{name}.pai"
        _RULES[name] = load(path)
    return _RULES[name]


def measure(name: str, floor: bool = False):
    r = rules(name)
    cat, dec = r.catalog_for({})
    f = value_floor(r) if floor else None
    return r, cat, Distance(r.forms, dec, values=f and f[1], floor_forms=f[2] if f else ())


def reference_table(dist: Distance, b: int, key: tuple, M: int, P: int, memo: dict) -> tuple:
    """The block table kind by kind (the recurrence the packed tables stand for): the first kind held
    either left out, or the lowest member of a part in a meld or pair slot."""
    mk = (key, M, P)
    if mk in memo:
        return memo[mk]
    width = P + 1
    j = next((q for q, c in enumerate(key) if c), -1)
    if j < 0:
        memo[mk] = (0,) * ((M + 1) * width)
        return memo[mk]
    lst = list(key)
    lst[j] = 0
    best = list(reference_table(dist, b, tuple(lst), M, P, memo))
    for members, size, is_pair, _ in dist.parts[b][j]:
        lst = list(key)
        if any(lst[q] < c for q, c in members):
            continue
        for q, c in members:
            lst[q] -= c
        sub = reference_table(dist, b, tuple(lst), M, P, memo)
        for m in range(M + 1):
            for p in range(width):
                src = (m - (not is_pair)) * width + p - is_pair
                if m - (not is_pair) >= 0 and p - is_pair >= 0 and sub[src] + size > best[m * width + p]:
                    best[m * width + p] = sub[src] + size
    memo[mk] = tuple(best)
    return memo[mk]


def random_hands(r, cat, dist, rng, n: int):
    """Hands of a size some target takes (with 0-2 melds laid down), from the wall's natural tiles,
    with wildcards where the rule set has them."""
    g = Game(r, {}, 0)
    wild = g.hand_wild_names
    pool = [k.index for k in cat.kinds if k.category != "flower" and k.name not in wild for _ in range(k.copies)]
    shapes = [(m, s) for m in range(3) for s in range(1, 25) if dist.targets(m, s)]
    for _ in range(n):
        m, size = rng.choice(shapes)
        w = rng.choice([0, 0, 1, 2]) if wild else 0
        counts = [0] * len(cat.kinds)
        for k in rng.sample(pool, max(0, size + 1 - w)):
            counts[k] += 1
        yield counts, w, m


@pytest.mark.parametrize("variant", VARIANTS + ["joker"])
def test_packed_tables_are_the_tables_worked_out_kind_by_kind(variant):
    r, cat, dist = measure(variant)
    rng = random.Random(11)
    memo: dict = {}
    asked = 0
    for counts, w, m in random_hands(r, cat, dist, rng, 25):
        for t in dist.targets(m, sum(counts) + w - 1) + dist.targets(m, sum(counts) + w):
            if t.members:
                continue
            for b in range(len(dist.blocks)):
                key = tuple(counts[k] for k in dist.blocks[b])
                ref = reference_table(dist, b, key, t.melds, t.pairs, memo.setdefault(b, {}))
                assert dist.block_table(b, key, t.melds, t.pairs) == ref
                asked += 1
    assert asked > 25


@pytest.mark.parametrize("variant", VARIANTS + ["joker"])
def test_a_tile_taken_away_never_fills_more_and_settled_is_the_best_discard(variant):
    """used() is monotone in the counts, asked in any order (a memo keyed too loosely broke it: the
    product of two tables of one length was taken for another shape's), and the distance after the best
    discard (`settled`) is the least `distance` over every tile given up."""
    r, cat, dist = measure(variant, floor=True)
    rng = random.Random(7)
    floors = (0, 9, 15) if dist.valued else (0,)
    for counts, w, m in random_hands(r, cat, dist, rng, 40):
        for t in dist.targets(m, sum(counts) + w - 1):
            u = dist.used(counts, t)
            for k in range(len(counts)):
                if counts[k]:
                    counts[k] -= 1
                    assert dist.used(counts, t) <= u
                    counts[k] += 1
        for need in floors:
            best = FAR
            for k in range(len(counts)):
                if counts[k]:
                    counts[k] -= 1
                    best = min(best, dist.distance(counts, w, m, need))
                    counts[k] += 1
            if w:
                best = min(best, dist.distance(counts, w - 1, m, need))
            assert dist.settled(counts, w, m, need) == best


def brute_used(groups, values: dict, counts: list[int], M: int, P: int, need: int) -> int:
    """The most tiles M meld slots and P pair slots hold with groups worth `need` together, by trying
    every choice of a group for each slot: the tiles of a kind go to the slots whose groups want it, as
    many as are held. A slot's group is worth its value (0 for a group larger than a meld slot: the
    hands here hold no whole one)."""
    melds, pairs = [], []
    for members, is_pair in sorted(groups):
        (pairs if is_pair else melds).append((members, values.get((members, is_pair), 0)))
    best = -1
    for ms in itertools.combinations_with_replacement(range(len(melds)), M):
        worth_m = sum(melds[i][1] for i in ms)
        for ps in itertools.combinations_with_replacement(range(len(pairs)), P):
            if worth_m + sum(pairs[i][1] for i in ps) < need:
                continue
            want = [0] * len(counts)
            for members, _ in [melds[i] for i in ms] + [pairs[i] for i in ps]:
                for k, c in members:
                    want[k] += c
            best = max(best, sum(min(c, x) for c, x in zip(counts, want)))
    return best


def test_a_floor_is_the_most_tiles_of_groups_worth_it_by_brute_force():
    """扯胡子's shapes declare 胡息 (坎 3/6, 一二三 and 二七十 3/6, plain runs and mixed ranks 0): for small
    hands, `used` with a floor equals the brute force over every group for every slot."""
    r, cat, dist = measure("chehuzi", floor=True)
    assert dist.valued and dist.fresh == 6
    slot = min(dist.msizes)
    values = {g: (v if sum(c for _, c in g[0]) <= slot else 0) for g, v in dist.worth.items()}
    rng = random.Random(3)
    pool = [k.index for k in cat.kinds if k.suit for _ in range(2)]  # the naturals (the joker has no suit)
    checked = 0
    for _ in range(6):
        counts = [0] * len(cat.kinds)
        for k in rng.sample(pool, 6):
            counts[k] += 1
        for M, P in ((2, 0), (1, 1)):
            for need in (0, 3, 6, 9, 12):
                t = Target(3 * M + 2 * P, M, P, form="七门子")
                assert dist.used(counts, t, need) == brute_used(dist.groups, values, counts, M, P, need)
                checked += 1
    assert checked == 60


def test_a_floor_on_the_worth_of_groups_measures_a_hand_of_worthless_runs_farther():
    """A 扯胡子 hand of six plain runs and a mixed-rank pair (worth 0) waiting on one tile is one tile
    away by shape, two from a win worth 3 (a pair of it is most of a 坎), three from 15 胡息; a hand of
    three 坎 of 大 (18) is one away whatever the floor."""
    r, cat, dist = measure("chehuzi", floor=True)
    by = cat.by_name

    def counts(names):
        c = [0] * len(cat.kinds)
        for n in names.split():
            c[by[n].index] += 1
        return c
    runs = counts("3小 4小 5小 3小 4小 5小 6小 7小 8小 3大 4大 5大 3大 4大 5大 6大 7大 8大 9小 9大")
    assert [dist.distance(runs, 0, 0, need) for need in (0, 3, 12, 15)] == [1, 2, 2, 3]
    kan = counts("3大 3大 3大 5大 5大 5大 8大 8大 8大 4小 5小 6小 5小 6小 7小 3小 4小 5小 9小 9小")
    assert [dist.distance(kan, 0, 0, need) for need in (0, 3, 12, 15)] == [1, 1, 1, 1]


def test_value_floor_reads_a_minimum_on_a_sum_over_the_groups():
    f = value_floor(rules("chehuzi"))
    assert f is not None and f[0] == 15 and f[2] == {"七门子"}
    assert f[1]["坎"] == {"小": 3, "大": 6} and f[1]["一句话"] == {None: 0}
    for variant in ("baijindao", "baicheng", "longyan", "guobiao"):
        assert value_floor(rules(variant)) is None  # no hand shape declares a value
