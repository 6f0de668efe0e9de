"""How far a concealed hand is from a winning form: the fewest tiles it lacks (a generic shanten number).

A form that splits the hand (`melds M`, `pairs P`, or `groups G`) is a set of slots, M meld slots and P pair
slots; with the tiles one more than the hand holds (the tile it waits for) the form needs T tiles. A hand
fills a slot with the part of a group it holds (any sub-multiset of a group of natural tiles that a hand
shape of the rule set builds: one tile, two of a run, a pair, a whole group); the distance is T less the
most tiles such a filling uses, less the hand's wildcards (each fills a missing member). So a hand that
waits is at distance 1 and a complete hand at 0, whatever the form. An `orphans` form needs one of each
of its kinds and one more of them; an `instant` form is not measured (it has no slots).

Every group lies inside one block of kinds (kinds that no group connects never share a slot), so the
best filling is worked out per block, as a table of the most tiles used with at most m meld slots and p
pair slots, memoised by the block's counts, and the blocks are combined by a max-plus product (memoised
by the tables combined). Copies, requirements and what is in sight are not this module's business: the
caller weighs the tiles that lower the distance by how many are still live, and asks the scoring runtime
for the real waits once a hand is one tile away.

With `values` (a value per hand shape and suit: what the rule set declares a group worth) the distance
can be asked with a floor: the fewest tiles lacking to a win whose groups are worth at least `need`
together. A slot then aims at one group; the part held counts that group's value (a part of a group
larger than the smallest meld slot only when it is the whole group), and a slot left empty may aim at
the worthiest group. The tables grow a dimension, the value reached (capped at the floor).

Nothing here knows a variant: the groups are the decomposer's placements of the declared hand shapes,
the forms the rule set's `win` declarations, the values its shapes' `value`.
"""
from __future__ import annotations

import math
from collections import Counter

from .decompose import kind_blocks
from .packed_tables import Packing

FAR = 99  # the distance of a hand no measured form fits (a size no form takes, or only instant forms)


class Target:
    """One way to win, for a hand of a given size: `total` tiles in `melds` meld slots and `pairs` pair
    slots (or, for an orphans form, one of each of `members` and one more of them)."""

    __slots__ = ("total", "melds", "pairs", "members", "form")

    def __init__(self, total: int, melds: int = 0, pairs: int = 0, members: tuple[int, ...] = (), form: str = ""):
        self.total, self.melds, self.pairs, self.members, self.form = total, melds, pairs, members, form

    def __repr__(self):
        return f"Target({self.total}, {self.melds}, {self.pairs}, {len(self.members)} members)"


class Distance:
    """The distance of hands of one rule set under one catalog (`rules.forms`, the decomposer's shapes)."""

    def __init__(self, forms, dec, kinds=None, values=None, floor_forms=()):
        """`kinds`: the hand shapes (meld kind names) whose groups fill meld slots; None: every shape. Pair
        shapes always fill pair slots. `values`: {shape name: {suit (None: any): value}}, the worth of
        a group (the module's docstring); `floor_forms`: the forms a floor applies to (none: every one)."""
        self.dec = dec
        self.n = n = dec.n
        self.flower = [k.category == "flower" for k in dec.cat.kinds]
        self.copies = [k.copies for k in dec.cat.kinds]
        big = [max([8] + [s.size for s in dec.specs])] * n
        groups: set[tuple[tuple[tuple[int, int], ...], bool]] = set()
        worth: dict[tuple, int] = {}  # (members, pair) -> the most a group of these tiles is worth
        suits = [k.suit for k in dec.cat.kinds]
        for spec in dec.specs:
            if kinds is not None and not spec.is_pair and spec.kind not in kinds:
                continue
            for i in range(n):
                for slots in dec.placements(spec, i, big, 0):
                    g = (tuple(sorted(Counter(k for k, _ in slots).items())), spec.is_pair)
                    groups.add(g)
                    if values:
                        of = values.get(spec.kind) or {}
                        suit = {suits[k] for k, _ in g[0]}
                        v = of.get(suit.pop() if len(suit) == 1 else None, of.get(None, 0))
                        worth[g] = max(worth.get(g, 0), v)
        blocks = kind_blocks(n, [[k for k, _ in members] for members, _ in groups])
        adjacent: dict[int, set[int]] = {i: set() for i in range(n)}
        for members, _ in groups:
            for k, _ in members:
                adjacent[k].update(x for x, _ in members if x != k)
        self.blocks = [_narrow_order(b, adjacent) for b in blocks]
        self.pos = {}  # kind index -> (block, position in it)
        for b, kinds in enumerate(self.blocks):
            for j, k in enumerate(kinds):
                self.pos[k] = (b, j)
        self.msizes = dec.sizes[0]
        self.psizes = dec.sizes[1]
        self.groups = frozenset(groups)  # (members (kind, count), pair)
        self.worth = worth  # group -> the most a group of its tiles is worth (with `values`)
        # per block and position: the parts of groups whose lowest held member is there (block positions),
        # as (members, tiles, pair, value); the valued ones with the value of the group they count as
        self.parts = self._parts(groups, {})
        self.valued = bool(worth) and any(worth.values())
        # the worth of groups in units of their greatest common divisor: the groups' total is a multiple of
        # it, so a floor rounds up to one, and the tables need fewer value levels (15 in units of 3: 5)
        self.unit = math.gcd(*[v for v in worth.values() if v > 0]) if self.valued else 1
        slot = min(self.msizes) if self.msizes else 0
        self.vparts = self._parts(groups, {g: v // self.unit for g, v in worth.items()}, slot) if self.valued else None
        # what an empty meld slot may aim at: the worthiest group of a meld slot's size
        self.fresh = max([v for (members, pair), v in worth.items()
                          if not pair and sum(c for _, c in members) <= slot], default=0)
        self.floor_forms = frozenset(floor_forms)
        self.forms = []  # (melds, (pairs lo, hi), groups, concealed, orphans members)
        for f, instant, _ in forms:
            if instant is not None:
                continue
            lo, hi = f.pairs if f.pairs else (0, 0)
            members = tuple(k.index for k in dec.cat.kinds if f.orphans and k.attrs.get(f.orphans))
            self.forms.append((f.melds, (lo, hi), f.groups, f.concealed, members, f.name))
        self._targets: dict[tuple[int, int], list[Target]] = {}
        # per block and valued or not: its packing (made on first use), per (M, P, V) the packed tables by
        # packed counts, and the tables as asked, by (counts, M, P, V)
        self._packing: dict[tuple[int, bool], Packing] = {}
        self._tables: dict[tuple[int, bool], dict] = {}
        self._tops: list[dict] = [dict() for _ in self.blocks]
        self._combined: dict[tuple, tuple] = {}
        # The per-hand questions natively (engine/distance.rs, the same tables) where the decomposer's
        # structure is the native core's; None: this module answers them. A hand outside what the native
        # tables hold (a count past their packed keys) is answered here, counted in `fallbacks`.
        self.native = _native_tables(self, floor_forms) if getattr(dec.structure, "name", "") == "native" else None
        self.fallbacks = 0

    def _parts(self, groups, worth: dict, slot: int = 0) -> list:
        parts: list[list[list]] = [[[] for _ in kinds] for kinds in self.blocks]
        seen = set()
        for g in sorted(groups):
            members, is_pair = g
            b = self.pos[members[0][0]][0]
            local = [(self.pos[k][1], c) for k, c in members]
            size = sum(c for _, c in members)
            for sub in _sub_multisets(local):
                held = sum(c for _, c in sub)
                value = worth.get(g, 0) if size <= slot or held == size else 0
                key = (b, tuple(sub), is_pair, value)
                if key in seen:
                    continue
                seen.add(key)
                parts[b][sub[0][0]].append((tuple(sub), held, is_pair, value))
        return parts

    # ------------------------------------------------------------------ targets

    def targets(self, melds: int, size: int) -> list[Target]:
        """The ways a hand of `size` concealed tiles with `melds` melds laid down can win on one tile more."""
        key = (melds, size)
        got = self._targets.get(key)
        if got is None:
            got = []
            total = size + 1
            for fm, (lo, hi), fg, concealed, members, name in self.forms:
                if concealed and melds:
                    continue
                if members:
                    if not melds and total == len(members) + 1:
                        got.append(Target(total, members=members, form=name))
                    continue
                for p in range(lo, hi + 1):
                    m = (fg - p if fg is not None else (fm or 0)) - melds
                    if m < 0:
                        continue
                    if any(ms * m + ps * p == total for ms in self.msizes for ps in self.psizes):
                        got.append(Target(total, m, p, form=name))
            self._targets[key] = got
        return got

    # ------------------------------------------------------------------ distance

    def distance(self, counts, wilds: int, melds: int, need: int = 0) -> int:
        """The fewest tiles the hand (counts per kind, natural tiles; `wilds` wildcards) lacks to win by
        any measured form, counting the tile it waits for: 1 when it waits, FAR when no form fits. With
        `need` (and `values`): to a win whose groups are worth `need` at least (where a floor applies)."""
        if self.native is not None:
            got = self.native.distance(counts, wilds, melds, need)
            if got is not None:
                return got
            self.fallbacks += 1
        size = sum(counts) + wilds
        best = FAR
        for t in self.targets(melds, size):
            u = self.used(counts, t, need)
            if u < 0:
                continue  # no filling reaches the floor
            d = t.total - min(t.total, u + wilds)
            if d < best:
                best = d
        return best

    def settled(self, counts, wilds: int, melds: int, need: int = 0) -> int:
        """The distance of the hand after its best discard (a hand one tile over a target's size): the
        least of `distance` over every tile given up, from one filling per target. A filling of the whole
        hand that leaves a tile out fills as well without it; one that uses every tile loses one at most
        (the part it leaves is a part of the same group) — so the best discard uses min(used, tiles - 1)
        natural tiles, and giving up a wildcard instead does no better. Without a floor this is
        `distance`'s answer exactly; with one, a close bound (a whole group larger than a slot, taken
        apart, no longer counts its worth)."""
        if self.native is not None:
            got = self.native.settled(counts, wilds, melds, need)
            if got is not None:
                return got
            self.fallbacks += 1
        nat = sum(counts)
        best = FAR
        for t in self.targets(melds, nat + wilds - 1):
            if nat:
                u = self.used(counts, t, need)
                if u < 0:
                    continue
                filled = min(u, nat - 1) + wilds
            else:
                if self._final(None, t, self._floor(t, need)) < 0:
                    continue
                filled = wilds - 1
            d = t.total - min(t.total, filled)
            if d < best:
                best = d
        return best

    def improving(self, counts, wilds: int, melds: int, need: int = 0) -> tuple[int, list[int]]:
        """The hand's distance and the kinds one more of which lowers it (the tiles it wants; never a kind
        the hand holds every copy of)."""
        if self.native is not None:
            got = self.native.improving(counts, wilds, melds, need)
            if got is not None:
                return got
            self.fallbacks += 1
        size = sum(counts) + wilds
        targets = self.targets(melds, size)
        if not targets:
            return FAR, []
        best = FAR
        per_target = []
        for t in targets:
            u = self.used(counts, t, need)
            d = t.total - min(t.total, u + wilds) if u >= 0 else FAR
            per_target.append(d)
            best = min(best, d)
        out: list[int] = []
        if best == 0:
            return 0, out
        if best >= FAR:
            return FAR, out
        for t, d in zip(targets, per_target):
            if d > best + 0:  # a target farther than the best: one tile lowers it to `best` at most
                continue
            for k in self._gains(counts, t, d, need):
                if k not in out:
                    out.append(k)
        return best, sorted(out)

    def used(self, counts, t: Target, need: int = 0) -> int:
        """The most natural tiles of the hand that fill the target's slots (worth `need` at least: -1
        when no filling is)."""
        if t.members:
            held = sum(1 for k in t.members if counts[k])
            return held + (1 if any(counts[k] >= 2 for k in t.members) else 0)
        V = self._floor(t, need)
        acc = None
        for b in range(len(self.blocks)):
            tab = self.block_table(b, self._key(counts, b), t.melds, t.pairs, V)
            acc = tab if acc is None else self._combine(acc, tab, t.melds, t.pairs, V)
        return self._final(acc, t, V)

    def _floor(self, t: Target, need: int) -> int:
        """The value level the target is asked at: `need`, where values are known and the floor applies
        to its form; else 0 (no floor)."""
        if need <= 0 or not self.valued or (self.floor_forms and t.form not in self.floor_forms):
            return 0
        return -(-need // self.unit)  # in units, rounded up

    def _final(self, acc, t: Target, V: int) -> int:
        """The most tiles used at the target's slots from the combined table (level-major), its empty
        meld slots aiming at the worthiest group (`fresh`) when a floor is asked."""
        if not acc:
            return 0 if V <= 0 else (0 if t.melds * (self.fresh // self.unit) >= V else -1)
        if not V:
            return acc[-1]
        width = t.pairs + 1
        row = (t.melds + 1) * width
        best = -1
        for k in range(t.melds + 1):  # k meld slots left empty
            level = max(0, V - k * (self.fresh // self.unit))
            v = acc[level * row + (t.melds - k) * width + t.pairs]
            if v > best:
                best = v
            if level == 0:
                break
        return best

    def _gains(self, counts, t: Target, lack: int, need: int = 0) -> list[int]:
        """Kinds one more of which uses one more natural tile in the target (`lack`: its distance, the
        wildcards counted; worth `need` at least). A hand whose wildcards outnumber its distance still
        wants the tiles a wildcard would stand for: one more natural tile frees a wildcard."""
        if lack <= 0:
            return []
        if t.members:
            base = self.used(counts, t)
            out = []
            for k in t.members:
                if counts[k] >= self.copies[k]:
                    continue
                counts[k] += 1
                if self.used(counts, t) > base:
                    out.append(k)
                counts[k] -= 1
            return out
        M, P = t.melds, t.pairs
        V = self._floor(t, need)
        tabs = [self.block_table(b, self._key(counts, b), M, P, V) for b in range(len(self.blocks))]
        base = self._final(_reduce(tabs, self, M, P, V), t, V)
        out = []
        for b, kinds in enumerate(self.blocks):
            others = _reduce(tabs[:b] + tabs[b + 1:], self, M, P, V)
            key = list(self._key(counts, b))
            for j, k in enumerate(kinds):
                if self.flower[k] or key[j] >= self.copies[k]:
                    continue
                key[j] += 1
                tab = self.block_table(b, tuple(key), M, P, V)
                both = tab if others is None else self._combine(others, tab, M, P, V)
                if self._final(both, t, V) > base:
                    out.append(k)
                key[j] -= 1
        return out

    def _key(self, counts, b: int) -> tuple:
        return tuple(counts[k] for k in self.blocks[b])

    def block_table(self, b: int, key: tuple, M: int, P: int, V: int = 0) -> tuple:
        """Per (v ≤ V, m ≤ M, p ≤ P), flattened level-major then m-major: the most of these tiles that m
        meld slots and p pair slots hold with groups worth v at least (-1: none is), monotone in m and p.
        Worked out on packed integers (runtime/packed_tables.py), memoised per block and slots by the
        packed counts, and as asked (most asks are repeats: a block the discard does not touch)."""
        tops = self._tops[b]
        got = tops.get((key, M, P, V))
        if got is not None:
            return got
        valued = V > 0
        which = (b, valued)
        pk = self._packing.get(which)
        if pk is None or max(key) > pk.cap:
            parts = (self.vparts if valued else self.parts)[b]
            pk = self._packing[which] = Packing(parts, max(max(key), max(self.copies[k] for k in self.blocks[b])))
            self._tables[which] = {}  # the old packing's keys mean other counts
        memos = self._tables[which]
        memo = memos.get((M, P, V))
        if memo is None:
            memo = memos[(M, P, V)] = {}
        elif len(memo) > 1_000_000:  # bounded: start afresh
            memo.clear()
        sl = pk.slots(M, P, V)
        got = pk.unpack(pk.table(pk.pack(key), sl, memo), sl)
        if len(tops) > 200_000:
            tops.clear()
        tops[(key, M, P, V)] = got
        return got

    def _combine(self, a: tuple, b: tuple, M: int, P: int, V: int = 0) -> tuple:
        if V:
            return self._combine_levels(a, b, M, P, V)
        key = (a, b, M, P) if a <= b else (b, a, M, P)  # (M, P): tables of (3, 1) and (0, 7) are as long
        got = self._combined.get(key)
        if got is not None:
            return got
        width = P + 1
        out = [0] * ((M + 1) * width)
        for m in range(M + 1):
            for p in range(width):
                best = 0
                for m1 in range(m + 1):
                    ra = m1 * width
                    rb = (m - m1) * width
                    for p1 in range(p + 1):
                        v = a[ra + p1] + b[rb + p - p1]
                        if v > best:
                            best = v
                out[m * width + p] = best
        got = tuple(out)
        if len(self._combined) > 500_000:
            self._combined.clear()
        self._combined[key] = got
        return got


    def _combine_levels(self, a: tuple, b: tuple, M: int, P: int, V: int) -> tuple:
        """Two blocks' tables with value levels together: worth v at least is worth v1 in one and v - v1
        in the other. A block holding nothing (only level 0 reached, with no tiles) changes nothing."""
        width = P + 1
        row = (M + 1) * width
        if all(x == 0 for x in b[:row]) and all(x < 0 for x in b[row:]):
            return a
        if all(x == 0 for x in a[:row]) and all(x < 0 for x in a[row:]):
            return b
        key = (a, b, M, P, V) if a <= b else (b, a, M, P, V)
        got = self._combined.get(key)
        if got is not None:
            return got
        out = [-1] * ((V + 1) * row)
        for v in range(V + 1):
            for m in range(M + 1):
                for p in range(width):
                    best = -1
                    for v1 in range(v + 1):
                        for m1 in range(m + 1):
                            for p1 in range(p + 1):
                                x = a[v1 * row + m1 * width + p1]
                                y = b[(v - v1) * row + (m - m1) * width + p - p1]
                                if x >= 0 and y >= 0 and x + y > best:
                                    best = x + y
                    out[v * row + m * width + p] = best
        got = tuple(out)
        if len(self._combined) > 500_000:
            self._combined.clear()
        self._combined[key] = got
        return got


def _native_tables(dist: Distance, floor_forms):
    """The native core's tables (engine/distance.rs `DistanceTables`) over what `dist` worked out, or None
    where it does not take them (a block of more kinds than its packed keys hold: NotCovered)."""
    from .backend import native_module

    mod = native_module()
    if mod is None:
        return None

    def parts(of):
        return [[[(list(members), held, pair, value) for members, held, pair, value in at] for at in blk] for blk in of]
    forms = [(m, (lo, hi), g, bool(c), list(members), not floor_forms or name in floor_forms)
             for m, (lo, hi), g, c, members, name in dist.forms]
    try:
        return mod.DistanceTables(dist.flower, dist.copies, [list(b) for b in dist.blocks], parts(dist.parts),
                                  parts(dist.vparts) if dist.vparts is not None else None,
                                  list(dist.msizes), list(dist.psizes), dist.unit, dist.fresh, dist.valued, forms)
    except mod.NotCovered:
        return None


def _reduce(tabs: list[tuple], dist: Distance, M: int, P: int, V: int = 0):
    acc = None
    for tab in tabs:
        acc = tab if acc is None else dist._combine(acc, tab, M, P, V)
    return acc


def _narrow_order(kinds: list[int], adjacent: dict[int, set[int]]) -> tuple[int, ...]:
    """The block's kinds in an order that keeps the kinds a group joins close together (Cuthill–McKee:
    breadth first from a kind with the fewest partners, partners by fewest partners first). The tables
    are worked out kind by kind in this order, and a group reaching far ahead multiplies the partial
    count vectors met on the way; any order gives the same tables."""
    if len(kinds) <= 2:
        return tuple(kinds)
    left = set(kinds)
    out: list[int] = []
    while left:
        start = min(left, key=lambda k: (len(adjacent[k]), k))
        queue = [start]
        left.discard(start)
        while queue:
            k = queue.pop(0)
            out.append(k)
            for x in sorted(adjacent[k] & left, key=lambda x: (len(adjacent[x]), x)):
                left.discard(x)
                queue.append(x)
    return tuple(out)


def _sub_multisets(members: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Every non-empty sub-multiset of a group's members (position, count), in position order."""
    out: list[list[tuple[int, int]]] = [[]]
    for j, c in sorted(members):
        out = [s + ([(j, x)] if x else []) for s in out for x in range(c + 1)]
    return [s for s in out if s]
