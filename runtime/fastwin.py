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

from .decompose import Decomposer, kind_blocks, sum_fits

_EMPTY = frozenset({(0, 0, 0)})
WILD_CAP = 8  # more wildcards than this in one hand are not tracked per block (they still combine)


class BlockWin:
    def __init__(self, dec: Decomposer, wild_cap: int = WILD_CAP):
        self.dec = dec
        self.cap = min(wild_cap, WILD_CAP)  # the most wildcards a hand of this rule set can hold
        n = dec.n
        # Every concrete group a hand shape can form connects its kinds.
        counts = [4] * n
        blocks = [tuple(b) for b in kind_blocks(n, [[i] + [k for k, _ in slots] for spec in dec.specs
                                                    for i in range(n)
                                                    for slots in dec.placements(spec, i, counts, 0)])]
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
        self._opts0: list[dict[tuple, int]] = [dict() for _ in self.blocks]  # wildcard-free option sets
        self._split0_memo: dict[tuple, frozenset] = {}
        self._nat_groups: list[list[tuple]] | None = None  # `_natural_groups`, made on first use
        self._natural_ok: dict[int, bool] = {}  # option set -> it holds a split without wildcards
        self._min_wild: dict[int, int] = {}  # option set -> the fewest wildcards any of its splits uses
        self._wait_cache: dict[tuple, list[int]] = {}  # `completing_kinds` per block, key and the others' set
        self._block_split_cache: dict[tuple, list] = {}  # `block_splits` by (block, key)
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
        return self._split_set(counts, self.cap, self._split_memo)

    def _split_set(self, counts: tuple, cap: int, memo: dict) -> frozenset:
        """The splits of these tiles that use at most `cap` wildcards, memoised in `memo` (one per cap)."""
        got = memo.get(counts)
        if got is not None:
            return got
        i = next((j for j, c in enumerate(counts) if c), -1)
        if i < 0:
            return _EMPTY
        out = set()
        lst = list(counts)
        for nat, nw, dm, dp in self._templates(i):
            if nw > cap or any(lst[k] < c for k, c in nat):  # (a group of more wildcards fits no split)
                continue
            for k, c in nat:
                lst[k] -= c
            sub = self._split_set(tuple(lst), cap, memo)
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
                    sum_fits(wilds - w, melds - m, self.msizes, pairs - p, self.psizes)
                    for m, p, w in self._sets[set_id])
            self._answers[key] = a
        return a

    def can_split(self, counts, wilds: int, melds: int, pairs: int) -> bool:
        sid = self.hand_id(counts) if wilds else self.hand_id0(counts)
        a = self._answers.get((sid, wilds, melds, pairs))
        return a if a is not None else self.fits(sid, wilds, melds, pairs)

    # ------------------------------------------------------------------ hands without wildcards

    def hand_id0(self, counts) -> int:
        """The interned option set of a hand without wildcards: its splits that use none. Enough for
        `fits(…, 0, …)`, and cheaper to build when a block is large (see `block_id0`)."""
        if not self.cap:
            return self.hand_id(counts)  # no option set holds a wildcard
        ids = []
        opts = self._opts0
        for b, sl in enumerate(self.slices):
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            i = opts[b].get(key)
            ids.append(i if i is not None else self.block_id0(b, key))
        ids = tuple(ids)
        c = self._combined.get(ids)
        return c if c is not None else self.combine(ids)

    def block_id0(self, b: int, key: tuple) -> int:
        """The wildcard-free option set of one block's tiles. Without wildcards a group is made only of
        tiles the hand holds, so the kinds held fall into smaller components (kinds joined by a group
        their tiles can form) that split independently: each component's splits are memoised by its
        own counts, which recur across hands far more often than a whole large block's."""
        if not self.cap:
            return self.block_id(b, key)
        cache = self._opts0[b]
        i = cache.get(key)
        if i is not None:
            return i
        if not any(key):
            i = self.empty_id
        else:
            n = self.dec.n
            full = [0] * n
            for k, c in zip(self.blocks[b], key):
                full[k] = c
            groups = self._natural_groups()
            parent = {k: k for k in self.blocks[b] if full[k]}

            def find(x):
                while parent[x] != x:
                    parent[x] = parent[parent[x]]
                    x = parent[x]
                return x
            for k in list(parent):
                for members in groups[k]:
                    if all(full[x] >= c for x, c in members):
                        for x, _ in members:
                            ra, rb = find(k), find(x)
                            if ra != rb:
                                parent[rb] = ra
            comps: dict[int, list[int]] = {}
            for k in parent:
                comps.setdefault(find(k), []).append(k)
            sub = []
            for ks in comps.values():
                vec = [0] * n
                for k in ks:
                    vec[k] = full[k]
                sub.append(self._intern(self._splits0(tuple(vec))))
            i = self.combine(tuple(sorted(sub)))
        cache[key] = i
        return i

    def _natural_groups(self) -> list[list[tuple]]:
        """Every group natural tiles can form, as its kinds with multiplicity, listed under each kind."""
        got = self._nat_groups
        if got is None:
            from collections import Counter

            n = self.dec.n
            got = [[] for _ in range(n)]
            seen = set()
            full = [max([4] + [s.size for s in self.dec.specs])] * n
            for spec in self.dec.specs:
                for i in range(n):
                    for slots in self.dec.placements(spec, i, full, 0):
                        members = tuple(sorted(Counter(k for k, _ in slots).items()))
                        if members not in seen:
                            seen.add(members)
                            for k, _ in members:
                                got[k].append(members)
            self._nat_groups = got
        return got

    def _splits0(self, counts: tuple) -> frozenset:
        """`_splits` restricted to splits that use no wildcard (memoised per count vector)."""
        return self._split_set(counts, 0, self._split0_memo)

    # ------------------------------------------------------------------ waits

    def _natural(self, set_id: int) -> bool:
        """Whether an option set holds a split that uses no wildcard."""
        ok = self._natural_ok
        good = ok.get(set_id)
        if good is None:
            good = ok[set_id] = any(w == 0 for _, _, w in self._sets[set_id])
        return good

    def deficit(self, counts, limit: int) -> int:
        """The fewest wildcards the blocks of these natural tiles need between them to split, each block
        on its own (cap + 1 for a block that no split within the cap completes); counting stops at
        `limit`."""
        need = self._min_wild
        total = 0
        for b, sl in enumerate(self.slices):
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            i = self._opts[b].get(key)
            if i is None:
                i = self.block_id(b, key)
            d = need.get(i)
            if d is None:
                d = need[i] = min((w for _, _, w in self._sets[i]), default=self.cap + 1)
            total += d
            if total >= limit:
                break
        return total

    def unsplit_blocks(self, counts, limit: int = 2) -> list[int]:
        """Blocks whose tiles (counts of natural tiles) cannot all be split into groups without
        wildcards, at most `limit` of them. Every group lies inside one block, so each such block needs
        a tile from outside these counts (a wildcard, or one more tile) to be completed."""
        out = []
        opts = self._opts0 if self.cap else self._opts
        for b, sl in enumerate(self.slices):
            key = tuple(counts[sl[0]:sl[1]]) if sl is not None else tuple(counts[k] for k in self.blocks[b])
            i = opts[b].get(key)
            if i is None:
                i = self.block_id0(b, key)
            if not self._natural(i):
                out.append(b)
                if len(out) >= limit:
                    break
        return out

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
        todo = range(nb)
        if not wilds:  # a block that cannot be split alone must take the tile: only its kinds can complete
            bad = [b for b in range(nb) if not self._natural(ids[b])]
            if len(bad) > 1:
                return []
            if bad:
                todo = bad
        out: list[int] = []
        cache = self._wait_cache
        for b in todo:
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
        cache = self._block_split_cache
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

    def splits_plain(self, counts, melds: int, pairs: int, limit: int | None = None) -> list[list]:
        """Every split of a hand without wildcards into exactly `melds` melds and `pairs` pairs (all of
        them: `limit` is for backends that stop early; the caller refuses more than it)."""
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
