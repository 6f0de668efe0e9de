"""Every way to split a hand's concealed tiles into the groups a winning form asks for.

The search always takes the lowest-indexed natural tile still unplaced and tries every group shape
that can contain it, filling missing members with wildcards. Tiles below it are all placed, so any
member of lower index must be a wildcard; this makes each split come out once per choice of
wildcard use. When only wildcards remain they form groups of their own ("pure-wild" groups), whose
represented tiles are enumerated for scoring and only counted for a win check.

Slots: a group's members are `(kind_index, wild)` pairs; for a wildcard, kind_index is the tile it
stands for.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .ir import nodes as ir
from .limits import SPLIT_LIMIT
from .reading import SharedPieces
from .tiles import Catalog

Slot = tuple[int, bool]
_DIGIT = 20  # bits of one choice in a `signature_splits` key: more than the groups one state can try




class SplitLimit(Exception):
    """The work a hand's decomposition may take was used up (the caller reports it in one sentence)."""


@dataclass(frozen=True)
class ShapeSpec:
    """A hand-formable group kind, compiled against the catalog."""

    kind: str
    shape: str  # run | same | ranks | tiles | same_rank
    size: int
    is_pair: bool
    ranks: tuple[int, ...] = ()
    tiles: tuple[int, ...] = ()  # kind indexes for `tiles` shapes (sorted)
    mixed: bool = False


class Decomposer:
    def __init__(self, rs: ir.RuleSet, catalog: Catalog):
        self.cat = catalog
        kinds = catalog.kinds
        self.n = len(kinds)
        # suit -> {rank: index}
        self.suit_index: dict[str, dict[int, int]] = {}
        for k in kinds:
            if k.suit:
                self.suit_index.setdefault(k.suit, {})[k.rank] = k.index
        self.specs: list[ShapeSpec] = []
        for m in rs.melds:
            if not m.hand:
                continue
            s = m.shape
            tiles = tuple(sorted(catalog.by_name[t].index for t in s.tiles if t in catalog.by_name))
            if s.kind == "tiles" and len(tiles) != len(s.tiles):
                continue  # a shape over tiles that are not in play under these options
            self.specs.append(ShapeSpec(m.name, s.kind, s.size, m.pair, s.ranks, tiles, s.mixed))
        self.meld_specs = [s for s in self.specs if not s.is_pair]
        self.pair_specs = [s for s in self.specs if s.is_pair]
        # What a wildcard may stand for: no flower, nothing a `wild … { except ATTR }` rules out (when a
        # rule set has several wildcards, every one's exceptions apply), and no meld kind in `no_meld`.
        excepts = {w.except_attr for w in rs.wilds if w.except_attr}
        self.wild_ok = [k.category in ("suited", "honor") and not any(k.field(a) for a in excepts)
                        for k in kinds]
        self.no_wild_kinds = {name for w in rs.wilds for name in w.no_meld}
        self.wild_targets = [k.index for k in kinds if self.wild_ok[k.index]]
        self._can = lru_cache(maxsize=200_000)(self._can_uncached)
        self._template_cache: dict[tuple[str, int], list] = {}  # `templates` by (meld kind, lowest natural tile)
        # The group sizes of the melds and of the pairs (a form's tile count must be a sum of them).
        self.sizes = (tuple(sorted({s.size for s in self.meld_specs})) or (3,),
                      tuple(sorted({s.size for s in self.pair_specs})) or (2,))
        self.pieces = SharedPieces()  # the tiles and groups every reading of this catalog shares
        self.fast = None  # a BlockWin (runtime/fastwin.py), attached by the rule set once built
        # What answers `can_split` / `completing_kinds` (runtime/backend.py `Structure`): the BlockWin,
        # or the native core's tables for this catalog.
        self.structure = None

    def attach_fast(self, fast) -> None:
        """The block tables built over this decomposer (runtime/fastwin.py imports this module, so the
        rule set builds them and attaches them here)."""
        self.fast = self.structure = fast

    def attach_structure(self, structure) -> None:
        self.structure = structure

    # ------------------------------------------------------------------ placements

    def placements(self, spec: ShapeSpec, i: int, counts: list[int], wilds: int):
        """Every way to build `spec` containing natural tile i (the lowest unplaced): lists of slots."""
        if spec.kind in self.no_wild_kinds:
            wilds = 0
        if wilds:
            ok = self.wild_ok
            for slots in self._placements(spec, i, counts, wilds):
                if all(ok[idx] for idx, w in slots if w):
                    yield slots
            return
        yield from self._placements(spec, i, counts, wilds)

    def _placements(self, spec: ShapeSpec, i: int, counts: list[int], wilds: int):
        k = self.cat.kinds[i]
        if spec.shape == "same":
            top = min(spec.size, counts[i])
            for nat in range(top, 0, -1):
                need = spec.size - nat
                if need <= wilds:
                    yield [(i, False)] * nat + [(i, True)] * need
            return
        if spec.shape in ("run", "ranks"):
            if not k.suit:
                return
            idx = self.suit_index[k.suit]
            if spec.shape == "run":
                patterns = [tuple(range(start, start + spec.size)) for start in
                            range(k.rank - spec.size + 1, k.rank + 1)]
            else:
                patterns = [tuple(sorted(spec.ranks))] if k.rank in spec.ranks else []
            for ranks in patterns:
                if any(r not in idx for r in ranks):
                    continue
                members = [idx[r] for r in ranks]
                yield from self._fill(members, i, counts, wilds)
            return
        if spec.shape == "tiles":
            if i not in spec.tiles:
                return
            yield from self._fill(list(spec.tiles), i, counts, wilds)
            return
        if spec.shape == "same_rank":
            if not k.suit:
                return
            suits = [s for s, idx in self.suit_index.items() if k.rank in idx]
            yield from self._same_rank(spec, i, k.rank, suits, counts, wilds)

    def _fill(self, members: list[int], i: int, counts: list[int], wilds: int):
        """Members is a multiset of kind indexes that must include i. Members below i are wildcards;
        the first i is the natural tile; every other member is natural (when available) or a wildcard."""
        members = sorted(members)
        if i not in members:
            return
        first = members.index(i)
        rest = members[:first] + members[first + 1:]
        used: dict[int, int] = {i: 1}
        out: list[Slot] = [(i, False)]

        def rec(j: int, w: int):
            if j == len(rest):
                yield list(out)
                return
            m = rest[j]
            if m > i or (m == i):
                have = counts[m] - used.get(m, 0)
                if have > 0:
                    used[m] = used.get(m, 0) + 1
                    out.append((m, False))
                    yield from rec(j + 1, w)
                    out.pop()
                    used[m] -= 1
            if w > 0:
                out.append((m, True))
                yield from rec(j + 1, w - 1)
                out.pop()

        if counts[i] <= 0:
            return
        yield from rec(0, wilds)

    def _same_rank(self, spec: ShapeSpec, i: int, rank: int, suits: list[str], counts, wilds):
        import itertools

        seen = set()
        for combo in itertools.combinations_with_replacement(sorted(suits), spec.size):
            if spec.mixed and len(set(combo)) < 2:
                continue
            members = tuple(sorted(self.suit_index[s][rank] for s in combo))
            if i not in members or members in seen:
                continue
            seen.add(members)
            yield from self._fill(list(members), i, counts, wilds)

    # ------------------------------------------------------------------ win check (structure only)

    def can_split(self, counts, wilds: int, melds: int, pairs: int) -> bool:
        s = self.structure
        if s is not None and wilds <= s.cap:
            return s.can_split(counts, wilds, melds, pairs)
        return self._can(tuple(counts), wilds, melds, pairs)

    def can_split_any(self, counts, wilds: int, targets) -> bool:
        """Whether any of `targets` ((melds, pairs) pairs) fits; one native call for all of them."""
        s = self.structure
        if s is not None and s is not self.fast and wilds <= s.cap:
            return s.can_split_any(counts, wilds, targets)
        return any(self.can_split(counts, wilds, m, p) for m, p in targets)

    def _can_uncached(self, counts: tuple[int, ...], wilds: int, melds: int, pairs: int) -> bool:
        i = next((j for j, c in enumerate(counts) if c), -1)
        if i < 0:
            return self._wild_only_fits(wilds, melds, pairs)
        lst = list(counts)
        for spec in (self.meld_specs if melds else []) + (self.pair_specs if pairs else []):
            for slots in self.placements(spec, i, lst, wilds):
                nat = [s for s, w in slots if not w]
                nw = len(slots) - len(nat)
                for s in nat:
                    lst[s] -= 1
                ok = self._can(tuple(lst), wilds - nw, melds - (not spec.is_pair), pairs - spec.is_pair)
                for s in nat:
                    lst[s] += 1
                if ok:
                    return True
        return False

    def _wild_only_fits(self, wilds: int, melds: int, pairs: int) -> bool:
        if melds == 0 and pairs == 0:
            return wilds == 0
        sizes_m = {s.size for s in self.meld_specs}
        sizes_p = {s.size for s in self.pair_specs}
        if pairs and not sizes_p or melds and not sizes_m:
            return False
        return sum_fits(wilds, melds, tuple(sorted(sizes_m)), pairs, tuple(sorted(sizes_p)))

    # ------------------------------------------------------------------ enumeration (for scoring)

    def splits(self, counts: list[int], wilds: int, melds: int, pairs: int, limit: int = SPLIT_LIMIT):
        """Every split as a list of (spec, slots); more than `limit` of them raises `SplitLimit`."""
        if wilds == 0 and self.fast is not None:
            # the structure backend (the native tables, or the BlockWin itself) enumerates them
            got = self.structure.splits_plain(counts, melds, pairs, limit)
            if len(got) > limit:
                raise SplitLimit
            return got
        out: list[list[tuple[ShapeSpec, list[Slot]]]] = []
        acc: list[tuple[ShapeSpec, list[Slot]]] = []

        def rec(w: int, m: int, p: int):
            if len(out) > limit:
                raise SplitLimit
            if not self.can_split(counts, w, m, p):
                return
            i = next((j for j, c in enumerate(counts) if c), -1)
            if i < 0:
                for extra in self._wild_groups(w, m, p):
                    out.append(acc + extra)
                return
            for spec in (self.meld_specs if m else []) + (self.pair_specs if p else []):
                for slots in self.placements(spec, i, counts, w):
                    nat = [s for s, wild in slots if not wild]
                    for s in nat:
                        counts[s] -= 1
                    acc.append((spec, slots))
                    rec(w - (len(slots) - len(nat)), m - (not spec.is_pair), p - spec.is_pair)
                    acc.pop()
                    for s in nat:
                        counts[s] += 1

        rec(wilds, melds, pairs)
        return out

    def templates(self, spec: ShapeSpec, i: int) -> list:
        """Every placement of `spec` holding natural tile i as its lowest natural member, whatever the
        counts: (slots, natural members with multiplicity, wildcards, the slot of the winning tile if it
        is a wildcard, and by kind if it is natural). `placements` for given counts and
        wildcards are exactly those whose members are held, in this same order (the search there only
        drops branches)."""
        cache = self._template_cache
        key = (spec.kind, i)
        got = cache.get(key)
        if got is None:
            full = [max(4, spec.size)] * self.n
            got = []
            for slots in self.placements(spec, i, full, spec.size):
                nat: dict[int, int] = {}
                for k, wild in slots:
                    if not wild:
                        nat[k] = nat.get(k, 0) + 1
                # where the winning tile goes if this group holds it: the first wildcard, or the first
                # natural tile of its kind (as `Scoring` places it)
                first_wild = next((j for j, (_, wild) in enumerate(slots) if wild), -1)
                first_natural: dict[int, int] = {}
                for j, (k, wild) in enumerate(slots):
                    if not wild:
                        first_natural.setdefault(k, j)
                got.append((tuple(slots), tuple(nat.items()), sum(1 for _, wild in slots if wild), first_wild,
                            first_natural))
            cache[key] = got
        return got

    def signature_splits(self, counts: list[int], wilds: int, melds: int, pairs: int, win, part, join, unit,
                         memo: dict, budget: list[int]):
        """The splits of a hand that holds wildcards, one per **signature** (`runtime/observe.py`): what
        scoring can observe of a reading. Readings of equal signature score alike, so only the first
        of each (in the order `splits` would find them, the winning tile placed as `Scoring` places it)
        is returned, as (signature, groups, index of the group holding the winning tile).

        A dynamic programme over the same search as `splits`: a state is (the natural tiles left,
        wildcards left, melds and pairs left, whether the winning tile is still to be placed), and its
        value is a table from the signature of the groups still to come to the first way of forming
        them. States recur across splits (and across hands: `memo` is kept by the caller for one
        observer, and a state whose winning tile is placed does not depend on which tile it is), so
        the work is polynomial in the states and the distinct signatures rather than exponential in
        the wildcards. `win` is None, ("nat", kind index) or ("wild",). `part(spec,
        slots, win_pos)` is the signature part of one group; `join(a, b)` joins parts, a first; `unit`
        is the part of no group. `budget[0]` counts down the table entries made; at 0 `SplitLimit` is
        raised (never a silent truncation).

        Keys: the order in which `splits` and `Scoring` find readings is lexicographic in the choices
        made at each depth (an index over shapes and placements), then the depth of the group holding
        the winning tile; keys are those tuples, relative to the state (written as integers, see
        `merge`), so the smallest key of a signature is its first reading. A natural tile's state is
        only entered when the structure says it can be split (`options`)."""
        specs_m = self.meld_specs
        specs_p = self.pair_specs
        wild_win = win is not None and win[0] == "wild"
        win_kind = win[1] if win is not None and win[0] == "nat" else -1

        def spend(n: int) -> None:
            budget[0] -= n
            if budget[0] < 0:
                raise SplitLimit

        def merge(out: dict, c: int, digits: int, pt: tuple, sub: dict, mode: int, item) -> None:
            # Keys are the choice tuples written as integers, one _DIGIT-bit digit per choice (every key
            # of one table has the same number of digits, the groups still to come, plus one for the
            # depth of the winning group while it is to be placed), so comparing them is comparing the
            # tuples. mode 0: the win is placed already (keys are paths); 1: still to place below (keys
            # end in its relative depth); 2: this group holds it (sub keys are paths). `digits` is the
            # number of digits of the keys of `sub` as they enter `out` below c.
            spend(len(sub))
            get = out.get
            base = c << (_DIGIT * digits)
            if mode == 1:
                base += 1
            for sig, (key, wit) in sub.items():
                s2 = join(pt, sig)
                k2 = base + (key << _DIGIT if mode == 2 else key)
                old = get(s2)
                if old is None or k2 < old[0]:
                    out[s2] = (k2, (item, wit))

        def pure(w: int, m: int, p: int, need: bool) -> dict:
            if need and not wild_win:
                return {}  # a natural winning tile left unplaced
            mk = ("w", w, m, p, win if need else None)
            got = memo.get(mk)
            if got is not None:
                return got
            out: dict = {}
            if m == 0 and p == 0:
                if w == 0 and not need:
                    out[unit] = (0, None)
            elif self._wild_only_fits(w, m, p):
                c = 0
                for spec in (specs_m if m else specs_p):
                    if spec.size > w:
                        continue
                    for slots in self._wild_targets_for(spec):
                        slots = tuple(slots)
                        args = (w - spec.size, m - (not spec.is_pair), p - spec.is_pair)
                        sub = pure(*args, need)
                        if sub:
                            merge(out, c, m + p - 1 + need, part(spec, slots, -1), sub, 1 if need else 0,
                                  (spec, slots, -1))
                        if need and wild_win:
                            sub = pure(*args, False)
                            if sub:
                                merge(out, c, m + p, part(spec, slots, 0), sub, 2, (spec, slots, 0))
                        c += 1
            memo[mk] = out
            return out

        can_split = self.can_split
        templates = self.templates
        n_kinds = self.n

        def rec(key: tuple, i: int, w: int, m: int, p: int, need: bool) -> dict:
            # i: the lowest natural tile left (-1 for none); the state is one `options` found live
            mk = (key, w, m, p, win if need else None)
            got = memo.get(mk)
            if got is not None:
                return got
            if need and (key[win_kind] == 0 if win_kind >= 0 else w == 0):
                return {}  # the winning tile can no longer be placed
            if i < 0:  # no natural tile left
                out = pure(w, m, p, need)
                memo[mk] = out
                return out
            out = {}
            for c, (spec, slots, args, pt, fw, fn) in enumerate(options(key, i, w, m, p)):
                sub = rec(*args, need)
                if sub:
                    merge(out, c, m + p - 1 + need, pt, sub, 1 if need else 0, (spec, slots, -1))
                if need:
                    wp = fw if wild_win else fn.get(win_kind, -1)
                    if wp >= 0:
                        sub = rec(*args, False)
                        if sub:
                            merge(out, c, m + p, part(spec, slots, wp), sub, 2, (spec, slots, wp))
            memo[mk] = out
            return out

        def options(key: tuple, i: int, w: int, m: int, p: int) -> list:
            """The groups that can hold the lowest natural tile i, in the order `splits` tries them, with
            the state each leaves and its signature part (shared by every placement of the winning
            tile). A group whose remaining tiles cannot be split is left out (its state would only give
            an empty table); the order of those kept is unchanged, which is all the keys compare."""
            ok = ("o", key, w, m, p)
            got = memo.get(ok)
            if got is not None:
                return got
            got = []
            for spec in (specs_m if m else []) + (specs_p if p else []):
                dm, dp = m - (not spec.is_pair), p - spec.is_pair
                for slots, nat, nw, fw, fn in templates(spec, i):
                    if nw > w:
                        continue
                    for k, c in nat:
                        if key[k] < c:
                            break
                    else:
                        lst = list(key)
                        for k, c in nat:
                            lst[k] -= c
                        ci = i
                        while ci < n_kinds and not lst[ci]:
                            ci += 1
                        child = tuple(lst)
                        if ci == n_kinds:
                            ci = -1
                        elif not can_split(child, w - nw, dm, dp):
                            continue
                        got.append((spec, slots, (child, ci, w - nw, dm, dp), part(spec, slots, -1), fw, fn))
            memo[ok] = got
            return got

        top_key = tuple(counts)
        top_i = next((j for j, c in enumerate(top_key) if c), -1)
        if top_i >= 0 and not can_split(top_key, wilds, melds, pairs):
            return []
        top = rec(top_key, top_i, wilds, melds, pairs, win is not None)
        out = []
        for sig, (key, wit) in top.items():
            groups = []
            win_gi = -1
            while wit is not None:
                (spec, slots, wp), wit = wit
                if wp >= 0:
                    win_gi = len(groups)
                groups.append((spec, list(slots)))
            out.append((key, sig, groups, win_gi))
        out.sort(key=lambda x: x[0])
        return [(sig, groups, win_gi) for _, sig, groups, win_gi in out]

    def _wild_groups(self, w: int, m: int, p: int):
        """Pure-wild groups filling what is left: every choice of shapes and represented tiles that uses
        every wildcard left (a wildcard is never left out of the reading)."""
        if m == 0 and p == 0:
            if w == 0:
                yield []
            return
        specs = self.meld_specs if m else self.pair_specs
        for spec in specs:
            if spec.size > w:
                continue
            for slots in self._wild_targets_for(spec):
                for rest in self._wild_groups(w - spec.size, m - (not spec.is_pair), p - spec.is_pair):
                    yield [(spec, slots)] + rest

    def _wild_targets_for(self, spec: ShapeSpec):
        if spec.kind in self.no_wild_kinds:
            return
        for slots in self._wild_targets_all(spec):
            if all(self.wild_ok[idx] for idx, _ in slots):
                yield slots

    def _wild_targets_all(self, spec: ShapeSpec):
        if spec.shape == "same":
            for t in self.wild_targets:
                yield [(t, True)] * spec.size
        elif spec.shape in ("run", "ranks"):
            for idx in self.suit_index.values():
                if spec.shape == "run":
                    ranks_list = [tuple(range(s, s + spec.size)) for s in sorted(idx)]
                else:
                    ranks_list = [tuple(sorted(spec.ranks))]
                for ranks in ranks_list:
                    if all(r in idx for r in ranks):
                        yield [(idx[r], True) for r in ranks]
        elif spec.shape == "tiles":
            yield [(t, True) for t in spec.tiles]
        elif spec.shape == "same_rank":
            suits = sorted(self.suit_index)
            if len(suits) >= 2 or not spec.mixed:
                ranks = sorted(set.intersection(*(set(self.suit_index[s]) for s in suits[:2]))) if suits else []
                for r in ranks:
                    combo = (suits * spec.size)[: spec.size]
                    yield [(self.suit_index[s][r], True) for s in sorted(combo)]


@lru_cache(maxsize=4096)
def sum_fits(w: int, m: int, msizes: tuple[int, ...], p: int, psizes: tuple[int, ...]) -> bool:
    """Whether w wildcards alone form exactly m melds and p pairs of the given sizes."""
    if m == 0 and p == 0:
        return w == 0
    if m:
        return any(s <= w and sum_fits(w - s, m - 1, msizes, p, psizes) for s in msizes)
    return any(s <= w and sum_fits(w - s, 0, msizes, p - 1, psizes) for s in psizes)
