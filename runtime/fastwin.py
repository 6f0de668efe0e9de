"""Fast structural win checks by independent blocks of tile kinds.

Kinds that no hand shape connects can be split independently (suits do not mix in a run; an honor
only forms groups with itself) — but a rule set may connect them (a group of three dragons, a group of
one rank across two suits), so blocks are found by union-find over the declared hand shapes, never
assumed. For each block and each count vector of its kinds we cache the set of `(melds, pairs,
wildcards used)` splits that use all of its tiles; a whole hand is then a combination of its blocks'
sets, itself cached by the interned ids of those sets. A win check is a few slices and dictionary
lookups; wildcards left over form groups of their own.
"""
from __future__ import annotations

from .decompose import Decomposer, _sum_fits

_EMPTY = frozenset({(0, 0, 0)})
WILD_CAP = 8  # more wildcards than this in one hand are not tracked per block (they still combine)


class BlockWin:
    def __init__(self, dec: Decomposer, wild_cap: int = WILD_CAP):
        self.dec = dec
        self.cap = min(wild_cap, WILD_CAP)  # the most wildcards a hand of this rule set can hold
        n = dec.n
        parent = list(range(n))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a, b):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

        # Every concrete group a hand shape can form connects its kinds.
        counts = [4] * n
        for spec in dec.specs:
            for i in range(n):
                for slots in dec.placements(spec, i, counts, 0):
                    for k, _ in slots:
                        union(i, k)
        groups: dict[int, list[int]] = {}
        for i in range(n):
            groups.setdefault(find(i), []).append(i)
        blocks = [tuple(sorted(g)) for _, g in sorted(groups.items())]
        # Adjacent one-kind blocks (honors, typically) are merged: one lookup instead of one per kind,
        # over a key space that stays small. Merging independent kinds is always sound.
        merged: list[tuple[int, ...]] = []
        for blk in blocks:
            if merged and len(blk) == 1 and merged[-1][-1] == blk[0] - 1 and \
                    all(len(x) == 1 for x in [merged[-1][-1:]]) and self._single(merged[-1], blocks):
                merged[-1] = merged[-1] + blk
            else:
                merged.append(blk)
        self.blocks = merged
        self.block_of = [0] * n
        for b, kinds in enumerate(self.blocks):
            for k in kinds:
                self.block_of[k] = b
        # A block whose kinds are contiguous indexes is read with one slice.
        self.slices = [(ks[0], ks[-1] + 1) if list(ks) == list(range(ks[0], ks[-1] + 1)) else None
                       for ks in self.blocks]
        self.msizes = tuple(sorted({s.size for s in dec.meld_specs})) or (3,)
        self.psizes = tuple(sorted({s.size for s in dec.pair_specs})) or (2,)
        self._opts: list[dict[tuple, int]] = [dict() for _ in self.blocks]
        self._sets: list[frozenset] = []
        self._set_ids: dict[frozenset, int] = {}
        self._combined: dict[tuple, int] = {}
        self._answers: dict[tuple, bool] = {}
        self._tmpl: dict[int, list] = {}
        self._split_memo: dict[tuple, frozenset] = {}
        self.empty_id = self._intern(frozenset({(0, 0, 0)}))

    @staticmethod
    def _single(blk, blocks) -> bool:
        """Whether `blk` is made only of kinds that were one-kind blocks."""
        singles = {b[0] for b in blocks if len(b) == 1}
        return all(k in singles for k in blk)

    # ------------------------------------------------------------------ option sets

    def _intern(self, s: frozenset) -> int:
        i = self._set_ids.get(s)
        if i is None:
            i = len(self._sets)
            self._sets.append(s)
            self._set_ids[s] = i
        return i

    def block_key(self, b: int, counts) -> tuple:
        sl = self.slices[b]
        if sl is not None:
            return tuple(counts[sl[0]:sl[1]])
        return tuple(counts[k] for k in self.blocks[b])

    def block_id(self, b: int, key: tuple) -> int:
        cache = self._opts[b]
        i = cache.get(key)
        if i is None:
            if not any(key):
                i = self.empty_id
            else:
                full = [0] * self.dec.n
                for k, c in zip(self.blocks[b], key):
                    full[k] = c
                i = self._intern(frozenset(self._splits(tuple(full))))
            cache[key] = i
        return i

    def _templates(self, i: int) -> list[tuple[tuple[tuple[int, int], ...], int, int, int]]:
        """Every group containing natural tile i as its lowest natural member, precomputed once:
        (natural members with multiplicity, wildcards, melds added, pairs added)."""
        t = self._tmpl.get(i)
        if t is None:
            from collections import Counter

            seen = set()
            t = []
            full = [4] * self.dec.n
            for spec in self.dec.specs:
                for slots in self.dec.placements(spec, i, full, self.cap):
                    nat = tuple(sorted(Counter(k for k, w in slots if not w).items()))
                    key = (nat, len(slots) - sum(c for _, c in nat), 0 if spec.is_pair else 1, 1 if spec.is_pair else 0)
                    if key not in seen:
                        seen.add(key)
                        t.append(key)
            self._tmpl[i] = t
        return t

    def _splits(self, counts: tuple) -> frozenset:
        """All (melds, pairs, wildcards) that split exactly these tiles (memoised per count vector)."""
        memo = self._split_memo
        got = memo.get(counts)
        if got is not None:
            return got
        i = next((j for j, c in enumerate(counts) if c), -1)
        if i < 0:
            return _EMPTY
        out = set()
        cap = self.cap
        lst = list(counts)
        for nat, nw, dm, dp in self._templates(i):
            if any(lst[k] < c for k, c in nat):
                continue
            for k, c in nat:
                lst[k] -= c
            sub = self._splits(tuple(lst))
            for k, c in nat:
                lst[k] += c
            for m, p, w in sub:
                if w + nw <= cap:
                    out.add((m + dm, p + dp, w + nw))
        res = frozenset(out)
        memo[counts] = res
        return res

    def combine(self, ids: tuple) -> int:
        c = self._combined.get(ids)
        if c is None:
            acc = {(0, 0, 0)}
            for i in ids:
                s = self._sets[i]
                if s is self._sets[self.empty_id]:
                    continue
                acc = {(m + m2, p + p2, w + w2) for m, p, w in acc for m2, p2, w2 in s if w + w2 <= self.cap}
                if not acc:
                    break
            c = self._intern(frozenset(acc))
            self._combined[ids] = c
        return c

    # ------------------------------------------------------------------ checks

    def hand_id(self, counts) -> int:
        """The interned option set of a whole hand (counts: a tuple or list over every kind)."""
        ids = []
        opts = self._opts
        for b, sl in enumerate(self.slices):
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            i = opts[b].get(key)
            if i is None:
                i = self.block_id(b, key)
            ids.append(i)
        ids = tuple(ids)
        c = self._combined.get(ids)
        return c if c is not None else self.combine(ids)

    def fits(self, set_id: int, wilds: int, melds: int, pairs: int) -> bool:
        key = (set_id, wilds, melds, pairs)
        a = self._answers.get(key)
        if a is None:
            a = any(w <= wilds and m <= melds and p <= pairs and
                    _sum_fits(wilds - w, melds - m, self.msizes, pairs - p, self.psizes)
                    for m, p, w in self._sets[set_id])
            self._answers[key] = a
        return a

    def can_split(self, counts, wilds: int, melds: int, pairs: int) -> bool:
        sid = self.hand_id(counts)
        a = self._answers.get((sid, wilds, melds, pairs))
        return a if a is not None else self.fits(sid, wilds, melds, pairs)

    # ------------------------------------------------------------------ waits

    def completing_kinds(self, counts, wilds: int, targets: tuple[tuple[int, int], ...]) -> list[int]:
        """Kind indexes whose addition lets the hand split into one of `targets` (melds, pairs).
        Cached per block by (its key, the other blocks' combined option set): a hand's waits only
        change where its tiles change."""
        nb = len(self.blocks)
        keys = []
        ids = []
        for b in range(nb):
            sl = self.slices[b]
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            keys.append(key)
            i = self._opts[b].get(key)
            ids.append(i if i is not None else self.block_id(b, key))
        out: list[int] = []
        cache = self.__dict__.setdefault("_wait_cache", {})
        for b in range(nb):
            others = self.combine(tuple(ids[:b] + ids[b + 1:]))
            ck = (b, keys[b], others, wilds, targets)
            got = cache.get(ck)
            if got is None:
                got = []
                key = list(keys[b])
                for pos, k in enumerate(self.blocks[b]):
                    key[pos] += 1
                    kt = tuple(key)
                    i = self._opts[b].get(kt)
                    if i is None:
                        i = self.block_id(b, kt)
                    both = self.combine((others, i))
                    if any(self.fits(both, wilds, m, p) for m, p in targets):
                        got.append(k)
                    key[pos] -= 1
                cache[ck] = got
            out.extend(got)
        return out

    # ------------------------------------------------------------------ splits without wildcards

    def block_splits(self, b: int, key: tuple) -> list[tuple[int, int, tuple]]:
        """Every split of one block's tiles (no wildcards): (melds, pairs, groups), where groups is a
        tuple of (spec, slots). Cached per block key; a hand's splits are products over its blocks."""
        cache = self.__dict__.setdefault("_block_split_cache", {})
        ck = (b, key)
        got = cache.get(ck)
        if got is None:
            full = [0] * self.dec.n
            for k, c in zip(self.blocks[b], key):
                full[k] = c
            got = []
            acc: list = []

            def rec(m: int, p: int):
                i = next((j for j, c in enumerate(full) if c), -1)
                if i < 0:
                    got.append((m, p, tuple(acc)))
                    return
                for spec in self.dec.specs:
                    for slots in self.dec.placements(spec, i, full, 0):
                        for s_, _ in slots:
                            full[s_] -= 1
                        acc.append((spec, tuple(slots)))
                        rec(m + (not spec.is_pair), p + spec.is_pair)
                        acc.pop()
                        for s_, _ in slots:
                            full[s_] += 1
            rec(0, 0)
            cache[ck] = got
        return got

    def splits_plain(self, counts, melds: int, pairs: int) -> list[list]:
        """Every split of a hand without wildcards into exactly `melds` melds and `pairs` pairs."""
        parts = []
        for b in range(len(self.blocks)):
            sl = self.slices[b]
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            if not any(key):
                continue
            opts = self.block_splits(b, key)
            if not opts:
                return []
            parts.append(opts)
        out: list[list] = []

        def rec(j: int, m: int, p: int, acc: list):
            if m > melds or p > pairs:
                return
            if j == len(parts):
                if m == melds and p == pairs:
                    out.append(list(acc))
                return
            for bm, bp, groups in parts[j]:
                acc.extend(groups)
                rec(j + 1, m + bm, p + bp, acc)
                del acc[len(acc) - len(groups):]
        rec(0, 0, 0, [])
        return out
