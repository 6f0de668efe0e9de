"""The distance module's tables on packed integers: a block's counts and its tables held as integers, so
that a part of a group is taken and a table improved by a few integer operations instead of a loop per
kind and per entry (the same tables as kind by kind; `runtime/distance.py` says what they mean).

Counts: the count at block position j in field j, `kbits` wide, its top bit a guard. A part's counts
subtracted from the counts with every guard set leaves every guard set exactly when the part is held.

Tables (`Slots`): an entry per (v ≤ V, m ≤ M, p ≤ P) — the most tiles m meld slots and p pair slots
hold with groups whose values add up to v at least — in field v·R + m·(P+1) + p (R = (M+1)(P+1)
entries a value level), `tbits` wide with a guard. An entry holds OFFSET + tiles; one below OFFSET is a
filling that cannot be (a value no parts reach): adding a part's tiles keeps it below, since no more
tiles than the block holds are ever added along a filling. The entrywise maximum of two tables is the
guards' borrow test (SWAR). Without values (V = 0) there is one level and every entry can be.
"""
from __future__ import annotations


class Slots:
    """The constants of packed tables for M meld slots, P pair slots and value levels 0..V."""

    __slots__ = ("width", "row", "levels", "entries", "bits", "ones", "guards", "low", "full", "melds",
                 "pairs", "shift", "level0", "empty", "_fill")

    def __init__(self, M: int, P: int, V: int, bits: int, offset: int):
        self.width = P + 1
        self.row = (M + 1) * self.width  # entries a value level
        self.levels = V + 1
        self.entries = self.row * self.levels
        self.bits = bits
        field = (1 << bits) - 1
        self.ones = sum(1 << (i * bits) for i in range(self.entries))
        self.guards = self.ones << (bits - 1)
        self.low = self.guards - self.ones  # every value bit of every entry
        self.full = (1 << (self.entries * bits)) - 1
        # a meld part moves an entry one m up (within its level), a pair part one p up (within its row)
        self.melds = sum(field << (i * bits) for i in range(self.entries) if i % self.row >= self.width)
        self.pairs = sum(field << (i * bits) for i in range(self.entries) if i % self.width)
        self.shift = self.width * bits
        self.level0 = sum(field << (i * bits) for i in range(self.row))
        self.empty = sum(offset << (i * bits) for i in range(self.row))  # no tiles: value 0 only
        self._fill: dict[int, tuple[int, int]] = {}

    def fill(self, value: int) -> tuple[int, int]:
        """For a part worth `value`: how far it moves an entry up (0 when past the last level), and the
        multiplier that copies level 0 into the levels below `value` (a filling worth at least v ≤ value
        is one at least 0 with the part)."""
        got = self._fill.get(value)
        if got is None:
            up = value * self.row * self.bits if value < self.levels else 0
            rep = sum(1 << (i * self.row * self.bits) for i in range(min(value, self.levels)))
            got = self._fill[value] = (up, rep)
        return got


class Packing:
    """A block's parts and its tables as integers (the module's docstring). `parts`: per block position,
    the parts whose lowest held member is there, as (members (position, count), tiles, pair, value);
    `cap`: the largest count a field must hold."""

    def __init__(self, parts, cap: int):
        self.kbits = kbits = cap.bit_length() + 1
        self.cap = (1 << (kbits - 1)) - 1
        n = len(parts)
        self.kguards = sum(1 << (j * kbits + kbits - 1) for j in range(n))
        self.fmask = (1 << kbits) - 1
        most = self.cap * n  # the most tiles a filling holds
        self.offset = 1 << most.bit_length()
        self.tbits = most.bit_length() + 2  # OFFSET + tiles, and a guard
        self.parts = [[(sum(c << (q * kbits) for q, c in members), size, is_pair, value)
                       for members, size, is_pair, value in at] for at in parts]
        self._slots: dict[tuple[int, int, int], Slots] = {}

    def slots(self, M: int, P: int, V: int) -> Slots:
        got = self._slots.get((M, P, V))
        if got is None:
            got = self._slots[(M, P, V)] = Slots(M, P, V, self.tbits, self.offset)
        return got

    def pack(self, key: tuple) -> int:
        kbits = self.kbits
        return sum(c << (j * kbits) for j, c in enumerate(key))

    def unpack(self, table: int, sl: Slots) -> tuple:
        """The table's entries, level-major: the tiles held, or -1 where no filling reaches the level."""
        bits, off = sl.bits, self.offset
        mask = (1 << bits) - 1
        out = []
        for i in range(sl.entries):
            v = (table >> (i * bits)) & mask
            out.append(v - off if v >= off else -1)
        return tuple(out)

    def table(self, key: int, sl: Slots, memo: dict) -> int:
        """The packed table of the packed counts: the tiles of the first kind held either left out or
        the lowest member of a part in a slot, the rest worked out the same way (memoised in `memo`)."""
        got = memo.get(key)
        if got is not None:
            return got
        if not key:
            memo[key] = sl.empty
            return sl.empty
        kbits = self.kbits
        j = ((key & -key).bit_length() - 1) // kbits
        rest = key & ~(self.fmask << (j * kbits))
        best = memo.get(rest)
        if best is None:
            best = self.table(rest, sl, memo)  # the tiles of this kind left out
        guards = self.kguards
        armed = key | guards
        ones, sguards, low, full, shift = sl.ones, sl.guards, sl.low, sl.full, sl.shift
        bits = sl.bits
        levels = sl.levels > 1
        for value, size, is_pair, worth in self.parts[j]:
            t = armed - value
            if t & guards != guards:
                continue  # a count of the part not held
            t ^= guards
            sub = memo.get(t)
            if sub is None:
                sub = self.table(t, sl, memo)
            if is_pair:
                cand = ((sub + size * ones) << bits) & sl.pairs
            else:
                cand = ((sub + size * ones) << shift) & sl.melds
            if worth and levels:
                up, rep = sl.fill(worth)
                cand = (((cand << up) & full) if up else 0) | ((cand & sl.level0) * rep)
            ge = ((best | sguards) - cand) & sguards  # per entry: best ≥ cand
            keep = ge - (ge >> (bits - 1))
            best = (best & keep) | (cand & (low ^ keep))
        memo[key] = best
        return best
