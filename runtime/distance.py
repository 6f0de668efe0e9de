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

Nothing here knows a variant: the groups are the decomposer's placements of the declared hand shapes,
the forms the rule set's `win` declarations.
"""
from __future__ import annotations

from collections import Counter

from .decompose import kind_blocks

FAR = 99  # the distance of a hand no measured form fits (a size no form takes, or only instant forms)


class Target:
    """One way to win, for a hand of a given size: `total` tiles in `melds` meld slots and `pairs` pair
    slots (or, for an orphans form, one of each of `members` and one more of them)."""

    __slots__ = ("total", "melds", "pairs", "members")

    def __init__(self, total: int, melds: int = 0, pairs: int = 0, members: tuple[int, ...] = ()):
        self.total, self.melds, self.pairs, self.members = total, melds, pairs, members

    def __repr__(self):
        return f"Target({self.total}, {self.melds}, {self.pairs}, {len(self.members)} members)"


class Distance:
    """The distance of hands of one rule set under one catalog (`rules.forms`, the decomposer's shapes)."""

    def __init__(self, forms, dec, kinds=None):
        """`kinds`: the hand shapes (meld kind names) whose groups fill meld slots; None: every shape. Pair
        shapes always fill pair slots."""
        self.dec = dec
        self.n = n = dec.n
        self.flower = [k.category == "flower" for k in dec.cat.kinds]
        self.copies = [k.copies for k in dec.cat.kinds]
        big = [max([8] + [s.size for s in dec.specs])] * n
        groups: set[tuple[tuple[tuple[int, int], ...], bool]] = set()
        for spec in dec.specs:
            if kinds is not None and not spec.is_pair and spec.kind not in kinds:
                continue
            for i in range(n):
                for slots in dec.placements(spec, i, big, 0):
                    groups.add((tuple(sorted(Counter(k for k, _ in slots).items())), spec.is_pair))
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
        # per block and position: the parts of groups whose lowest held member is there (block positions)
        self.parts: list[list[list[tuple[tuple[tuple[int, int], ...], int, bool]]]] = \
            [[[] for _ in kinds] for kinds in self.blocks]
        seen = set()
        for members, is_pair in groups:
            b = self.pos[members[0][0]][0]
            local = [(self.pos[k][1], c) for k, c in members]
            for sub in _sub_multisets(local):
                lowest = min(j for j, _ in sub)
                key = (b, tuple(sub), is_pair)
                if key in seen:
                    continue
                seen.add(key)
                self.parts[b][lowest].append((tuple(sub), sum(c for _, c in sub), is_pair))
        self.forms = []  # (melds, (pairs lo, hi), groups, concealed, orphans members)
        for f, instant, _ in forms:
            if instant is not None:
                continue
            lo, hi = f.pairs if f.pairs else (0, 0)
            members = tuple(k.index for k in dec.cat.kinds if f.orphans and k.attrs.get(f.orphans))
            self.forms.append((f.melds, (lo, hi), f.groups, f.concealed, members))
        self.msizes = dec.sizes[0]
        self.psizes = dec.sizes[1]
        self._targets: dict[tuple[int, int], list[Target]] = {}
        self._tables: list[dict] = [dict() for _ in self.blocks]  # per block: (key, M, P) -> table
        self._combined: dict[tuple, tuple] = {}

    # ------------------------------------------------------------------ targets

    def targets(self, melds: int, size: int) -> list[Target]:
        """The ways a hand of `size` concealed tiles with `melds` melds laid down can win on one tile more."""
        key = (melds, size)
        got = self._targets.get(key)
        if got is None:
            got = []
            total = size + 1
            for fm, (lo, hi), fg, concealed, members in self.forms:
                if concealed and melds:
                    continue
                if members:
                    if not melds and total == len(members) + 1:
                        got.append(Target(total, members=members))
                    continue
                for p in range(lo, hi + 1):
                    m = (fg - p if fg is not None else (fm or 0)) - melds
                    if m < 0:
                        continue
                    if any(ms * m + ps * p == total for ms in self.msizes for ps in self.psizes):
                        got.append(Target(total, m, p))
            self._targets[key] = got
        return got

    # ------------------------------------------------------------------ distance

    def distance(self, counts, wilds: int, melds: int) -> int:
        """The fewest tiles the hand (counts per kind, natural tiles; `wilds` wildcards) lacks to win by
        any measured form, counting the tile it waits for: 1 when it waits, FAR when no form fits."""
        size = sum(counts) + wilds
        best = FAR
        for t in self.targets(melds, size):
            d = t.total - min(t.total, self.used(counts, t) + wilds)
            if d < best:
                best = d
        return best

    def improving(self, counts, wilds: int, melds: int) -> tuple[int, list[int]]:
        """The hand's distance and the kinds one more of which lowers it (the tiles it wants; never a kind
        the hand holds every copy of)."""
        size = sum(counts) + wilds
        targets = self.targets(melds, size)
        if not targets:
            return FAR, []
        best = FAR
        per_target = []
        for t in targets:
            d = t.total - min(t.total, self.used(counts, t) + wilds)
            per_target.append(d)
            best = min(best, d)
        out: list[int] = []
        if best == 0:
            return 0, out
        for t, d in zip(targets, per_target):
            if d > best + 0:  # a target farther than the best: one tile lowers it to `best` at most
                continue
            for k in self._gains(counts, t, d - wilds):
                if k not in out:
                    out.append(k)
        return best, sorted(out)

    def used(self, counts, t: Target) -> int:
        """The most natural tiles of the hand that fill the target's slots."""
        if t.members:
            held = sum(1 for k in t.members if counts[k])
            return held + (1 if any(counts[k] >= 2 for k in t.members) else 0)
        acc = None
        for b in range(len(self.blocks)):
            tab = self._table_of(b, self._key(counts, b), t.melds, t.pairs)
            acc = tab if acc is None else self._combine(acc, tab, t.melds, t.pairs)
        return acc[-1] if acc else 0

    def _gains(self, counts, t: Target, need: int) -> list[int]:
        """Kinds one more of which uses one more natural tile in the target (its distance `need` above
        the wildcards' share)."""
        if need <= 0:
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
        tabs = [self._table_of(b, self._key(counts, b), M, P) for b in range(len(self.blocks))]
        base = _reduce(tabs, self, M, P)[-1]
        out = []
        for b, kinds in enumerate(self.blocks):
            others = _reduce(tabs[:b] + tabs[b + 1:], self, M, P)
            key = list(self._key(counts, b))
            for j, k in enumerate(kinds):
                if self.flower[k] or key[j] >= self.copies[k]:
                    continue
                key[j] += 1
                tab = self._table_of(b, tuple(key), M, P)
                both = tab if others is None else self._combine(others, tab, M, P)
                if both[-1] > base:
                    out.append(k)
                key[j] -= 1
        return out

    def _key(self, counts, b: int) -> tuple:
        return tuple(counts[k] for k in self.blocks[b])

    def _table_of(self, b: int, key: tuple, M: int, P: int) -> tuple:
        """Per (m ≤ M, p ≤ P), flattened m-major: the most of these tiles that m meld slots and p pair
        slots hold (monotone in both)."""
        memo = self._tables[b]
        mk = (key, M, P)
        got = memo.get(mk)
        if got is not None:
            return got
        j = next((q for q, c in enumerate(key) if c), -1)
        width = P + 1
        if j < 0:
            got = (0,) * ((M + 1) * width)
            memo[mk] = got
            return got
        lst = list(key)
        lst[j] = 0
        best = list(self._table_of(b, tuple(lst), M, P))  # the tiles of this kind left out
        lst[j] = key[j]
        for members, size, is_pair in self.parts[b][j]:
            for q, c in members:
                if lst[q] < c:
                    break
            else:
                for q, c in members:
                    lst[q] -= c
                sub = self._table_of(b, tuple(lst), M, P)
                for q, c in members:
                    lst[q] += c
                if is_pair:
                    for m in range(M + 1):
                        row = m * width
                        for p in range(1, width):
                            v = sub[row + p - 1] + size
                            if v > best[row + p]:
                                best[row + p] = v
                else:
                    for i in range(width, len(best)):
                        v = sub[i - width] + size
                        if v > best[i]:
                            best[i] = v
        got = tuple(best)
        if len(memo) > 1_000_000:  # bounded: start afresh
            memo.clear()
        memo[mk] = got
        return got

    def _combine(self, a: tuple, b: tuple, M: int, P: int) -> tuple:
        key = (a, b) if a <= b else (b, a)
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


def _reduce(tabs: list[tuple], dist: Distance, M: int, P: int):
    acc = None
    for tab in tabs:
        acc = tab if acc is None else dist._combine(acc, tab, M, P)
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
