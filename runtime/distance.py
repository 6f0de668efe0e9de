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
        # per block: its packing (made on first use), and per (M, P) the packed tables by packed counts
        self._packing: list[_Packing | None] = [None for _ in self.blocks]
        self._tables: list[dict] = [dict() for _ in self.blocks]
        self._tops: list[dict] = [dict() for _ in self.blocks]  # per block: (counts, M, P) -> table, as asked
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
        slots hold (monotone in both). Worked out on packed integers (`_Packing`), memoised per block
        and slots by the packed counts, and as asked (most asks are repeats: a block the discard does not
        touch)."""
        tops = self._tops[b]
        got = tops.get((key, M, P))
        if got is not None:
            return got
        pk = self._packing[b]
        if pk is None or max(key) > pk.cap:
            pk = self._packing[b] = _Packing(self.parts[b], max(max(key), max(self.copies[k] for k in self.blocks[b])))
            self._tables[b].clear()  # the old packing's keys mean other counts
        memo = self._tables[b].get((M, P))
        if memo is None:
            memo = self._tables[b][(M, P)] = {}
        elif len(memo) > 1_000_000:  # bounded: start afresh
            memo.clear()
        got = pk.unpack(pk.table(pk.pack(key), pk.slots(M, P), memo), M, P)
        if len(tops) > 200_000:
            tops.clear()
        tops[(key, M, P)] = got
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


class _Slots:
    """The constants of packed tables for M meld slots and P pair slots: entry m·(P+1)+p in field number
    m·(P+1)+p, `bits` wide, its top bit a guard (always clear in a table)."""

    __slots__ = ("width", "entries", "ones", "guards", "low", "full", "pairs", "shift")

    def __init__(self, M: int, P: int, bits: int):
        self.width = P + 1
        self.entries = (M + 1) * self.width
        self.ones = sum(1 << (i * bits) for i in range(self.entries))
        self.guards = self.ones << (bits - 1)
        self.low = self.guards - self.ones  # every value bit of every entry
        self.full = (1 << (self.entries * bits)) - 1
        # the entries with a pair slot (p ≥ 1): a pair part moves an entry one field up within its row
        self.pairs = sum(((1 << bits) - 1) << (i * bits) for i in range(self.entries) if i % self.width)
        self.shift = self.width * bits  # a meld part moves an entry one row up


class _Packing:
    """A block's counts and tables as integers, so that a part is taken and a table improved by a few
    integer operations instead of a loop per kind and per entry (the same tables as kind by kind).

    Counts: the count at block position j in field j, `kbits` wide, its top bit a guard — a part's
    counts subtracted from the counts with every guard set leaves every guard set exactly when the
    part is held. Tables (`_Slots`): entries at most the tiles of the block, `tbits` wide with a guard
    — the entrywise maximum of two tables is the guards' borrow test (SWAR). `cap`: the largest count
    a field holds."""

    def __init__(self, parts, cap: int):
        self.kbits = kbits = cap.bit_length() + 1
        self.cap = (1 << (kbits - 1)) - 1
        n = len(parts)
        self.kguards = sum(1 << (j * kbits + kbits - 1) for j in range(n))
        self.fmask = (1 << kbits) - 1
        self.tbits = (self.cap * n).bit_length() + 1
        self.parts = [[(sum(c << (q * kbits) for q, c in members), size, is_pair) for members, size, is_pair in at]
                      for at in parts]
        self._slots: dict[tuple[int, int], _Slots] = {}

    def slots(self, M: int, P: int) -> _Slots:
        got = self._slots.get((M, P))
        if got is None:
            got = self._slots[(M, P)] = _Slots(M, P, self.tbits)
        return got

    def pack(self, key: tuple) -> int:
        kbits = self.kbits
        return sum(c << (j * kbits) for j, c in enumerate(key))

    def unpack(self, table: int, M: int, P: int) -> tuple:
        tbits = self.tbits
        mask = (1 << tbits) - 1
        return tuple((table >> (i * tbits)) & mask for i in range((M + 1) * (P + 1)))

    def table(self, key: int, sl: _Slots, memo: dict) -> int:
        """The packed table of the packed counts: the tiles of the first kind held either left out or
        the lowest member of a part in a slot, the rest worked out the same way (memoised in `memo`)."""
        got = memo.get(key)
        if got is not None:
            return got
        if not key:
            memo[key] = 0
            return 0
        kbits = self.kbits
        j = ((key & -key).bit_length() - 1) // kbits
        rest = key & ~(self.fmask << (j * kbits))
        best = memo.get(rest)
        if best is None:
            best = self.table(rest, sl, memo)  # the tiles of this kind left out
        guards = self.kguards
        armed = key | guards
        ones, sguards, low, full, pairs, shift = sl.ones, sl.guards, sl.low, sl.full, sl.pairs, sl.shift
        tbits1 = self.tbits - 1
        for value, size, is_pair in self.parts[j]:
            t = armed - value
            if t & guards != guards:
                continue  # a count of the part not held
            t ^= guards
            sub = memo.get(t)
            if sub is None:
                sub = self.table(t, sl, memo)
            if is_pair:
                cand = ((sub + size * ones) << self.tbits) & pairs
            else:
                cand = ((sub + size * ones) << shift) & full
            ge = ((best | sguards) - cand) & sguards  # per entry: best ≥ cand
            keep = ge - (ge >> tbits1)
            best = (best & keep) | (cand & (low ^ keep))
        memo[key] = best
        return best


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
