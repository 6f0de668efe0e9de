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
        self._packed_cache: dict[tuple[str, int, int], list] = {}  # `packed_templates` by (kind, tile, width)
        self._placement_ids = 0  # the next number of a packed placement
        self._choice_cache: dict[tuple, list] = {}  # `packed_choices` by its arguments
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
            return self.wild_only_fits(wilds, melds, pairs)
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

    def wild_only_fits(self, wilds: int, melds: int, pairs: int) -> bool:
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

    def packed_templates(self, spec: ShapeSpec, i: int, width: int) -> list:
        """`templates(spec, i)` for tile counts packed into one integer, `width` bits a kind (see
        `signature_splits`): (slots, the natural members packed the same way, wildcards, first wildcard
        slot, first natural slot by kind, the placement's number). A placement needing more tiles of a
        kind than the top bit of a field allows is left out: no hand holds that many."""
        key = (spec.kind, i, width)
        got = self._packed_cache.get(key)
        if got is None:
            top = 1 << (width - 1)
            got = []
            for slots, nat, nw, fw, fn in self.templates(spec, i):
                if any(c >= top for _, c in nat):
                    continue
                got.append((slots, sum(c << (width * k) for k, c in nat), nw, fw, fn, self._placement_ids))
                self._placement_ids += 1
            self._packed_cache[key] = got
        return got

    def packed_choices(self, i: int, width: int, melds: bool, pairs: bool, wilds: int) -> list:
        """Every packed placement holding natural tile i that a state with melds (pairs) left and `wilds`
        wildcards may try, in the order `splits` tries them: the meld shapes', then the pairs', each
        shape's in `templates` order; as (spec, slots, packed naturals, wildcards, first wildcard slot,
        first natural slot by kind, placement number)."""
        key = (i, width, melds, pairs, wilds)
        got = self._choice_cache.get(key)
        if got is None:
            got = self._choice_cache[key] = [
                (spec, slots, delta, nw, fw, fn, pl)
                for spec in (self.meld_specs if melds else []) + (self.pair_specs if pairs else [])
                for slots, delta, nw, fw, fn, pl in self.packed_templates(spec, i, width) if nw <= wilds]
        return got

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
            for slots in self.wild_targets_for(spec):
                for rest in self._wild_groups(w - spec.size, m - (not spec.is_pair), p - spec.is_pair):
                    yield [(spec, slots)] + rest

    def wild_targets_for(self, spec: ShapeSpec):
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


def kind_blocks(n: int, links) -> list[list[int]]:
    """Kinds 0..n-1 split into blocks: the kinds of one link (a sequence of kind indexes: a group's
    members) share a block. Each block in index order, the blocks by their lowest kind."""
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for link in links:
        for k in link[1:]:
            a, b = find(link[0]), find(k)
            if a != b:
                parent[max(a, b)] = min(a, b)
    blocks: dict[int, list[int]] = {}
    for i in range(n):
        blocks.setdefault(find(i), []).append(i)
    return [b for _, b in sorted(blocks.items())]
