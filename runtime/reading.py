"""One reading of a hand: its tiles (wildcards resolved to what they play as) split into groups.

These are the values expressions see in the reading scope: `t.rank`, `m.kind`, `win_group.pair`, …
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .tiles import TileInfo


class RTile:
    """A physical tile in a reading: what it is (`physical`) and what it plays as (`kind`)."""

    __slots__ = ("kind", "physical", "wild", "is_win", "f", "sig")

    def __init__(self, kind: TileInfo, physical: TileInfo | None = None, wild: bool = False, is_win: bool = False):
        self.kind = kind
        self.physical = physical = physical or kind
        self.wild = wild
        self.is_win = is_win
        joker = physical.category == "joker"
        if wild or joker != (kind.category == "joker"):
            self.f = {**kind.f, "wild": wild, "joker": joker}
        else:
            self.f = kind.f
        self.sig = (kind.name, wild, physical.name)

    def field(self, name: str):
        if name == "wild":
            return self.wild
        if name == "joker":
            return self.physical.category == "joker"
        return self.kind.field(name)

    # Tiles compare by the kind they play as, so `t == 东` and `win_tile in waits` read naturally.
    def __eq__(self, other):
        if isinstance(other, RTile):
            return self.kind.name == other.kind.name
        if isinstance(other, TileInfo):
            return self.kind.name == other.name
        return NotImplemented

    def __hash__(self):
        return hash(self.kind.name)

    def __repr__(self):
        return f"{self.kind.name}*" if self.wild else self.kind.name


# TileInfo must also compare equal to an RTile of its kind.
def _tileinfo_eq(self, other):
    if isinstance(other, TileInfo):
        return other.name == self.name
    if isinstance(other, RTile):
        return other.kind.name == self.name
    return NotImplemented


TileInfo.__eq__ = _tileinfo_eq  # type: ignore[method-assign]
TileInfo.__hash__ = lambda self: hash(self.name)  # type: ignore[method-assign]


@dataclass(eq=False)
class Group:
    """A meld or a pair in a reading."""

    kind: str  # the meld kind's name
    tiles: list[RTile]
    exposed: bool = False
    concealed: bool = True
    is_pair: bool = False
    is_kong: bool = False
    value: object = 0
    has_win: bool = False
    declared: bool = False  # laid down before the win (given as a meld), not formed from the hand
    # the prefilter's vector of this group (runtime/prefilter.py), computed on first use: a group is
    # shared across readings and hands, so the value is kept with it
    prefilter_vector: int | None = None

    def field(self, name: str):
        t = self.tiles
        match name:
            case "kind":
                return self.kind
            case "size":
                return len(t)
            case "tiles":
                return t
            case "tile":
                return min(t, key=lambda x: (x.kind.index)) if t else None
            case "suit":
                return t[0].kind.suit if t else None
            case "rank" | "start":
                return min(x.kind.rank for x in t) if t else 0
            case "end":
                return max(x.kind.rank for x in t) if t else 0
            case "run":
                return self.is_run
            case "triplet":
                return len(t) >= 3 and all(x.kind is t[0].kind for x in t)
            case "kong":
                return self.is_kong
            case "pair":
                return self.is_pair
            case "exposed":
                return self.exposed
            case "concealed":
                return self.concealed
            case "value":
                return self.value
            case "wilds":
                return sum(1 for x in t if x.wild)
            case "has_win":
                return self.has_win
        raise KeyError(name)

    def all_fields(self) -> dict:
        """Every field by name (for a group that will not change)."""
        return {name: self.field(name) for name in GROUP_FIELDS}

    @property
    def is_run(self) -> bool:
        t = self.tiles
        if len(t) < 3 or t[0].kind.suit is None:
            return False
        if any(x.kind.suit != t[0].kind.suit for x in t):
            return False
        ranks = sorted(x.kind.rank for x in t)
        return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))

    def __post_init__(self):
        # The fields by name, computed on first use (a plain attribute: expressions read it often).
        self.f = _GroupFields(self)

    # The two memos below are taken once a group is complete (readers never change a group after
    # reading them): a signature, and the lists of a reading it joins.
    @cached_property
    def sig(self):
        return (self.kind, tuple(t.sig for t in self.tiles), self.exposed, self.concealed, self.is_pair,
                self.is_kong, self.has_win, str(self.value))

    @cached_property
    def classes(self) -> int:
        """The reading lists this group joins, as bits (runtime/fastscore_context.py `group_lists`): pair 1,
        run 2, triplet 4, kong 8, exposed 16; a group that is not a pair is a meld."""
        f = self.f
        return (1 if self.is_pair else 0) | (2 if f["run"] else 0) | (4 if f["triplet"] else 0) \
            | (8 if self.is_kong else 0) | (16 if self.exposed else 0)

    def __repr__(self):
        mark = "+" if self.has_win else ""
        return f"{self.kind}[{''.join(map(repr, self.tiles))}]{mark}"


GROUP_FIELDS = ("kind", "size", "tiles", "tile", "suit", "rank", "start", "end", "run", "triplet", "kong", "pair",
                "exposed", "concealed", "value", "wilds", "has_win")


class _GroupFields(dict):
    """A group's fields, computed on first use."""

    def __init__(self, g: Group):
        super().__init__()
        self.g = g

    def __missing__(self, name):
        v = self.g.field(name)
        self[name] = v
        return v


class Reading:
    """One reading: its form, its groups (declared melds first), every tile of the winner (`tiles`:
    hand and melds), the concealed tiles (`hand`: winning tile included), the winning tile and the
    group it completes. `tiles` and `hand` may be left None when the groups hold every tile: they are
    then gathered from the groups on first use."""

    __slots__ = ("form", "groups", "_tiles", "_hand", "win_tile", "win_group", "shared", "shape")

    def __init__(self, form: str, groups: list[Group], tiles: list[RTile] | None, hand: list[RTile] | None,
                 win_tile: RTile | None, win_group: Group | None):
        self.form = form
        self.groups = groups
        self._tiles = tiles
        self._hand = hand
        self.win_tile = win_tile
        self.win_group = win_group
        # Set on the readings of one hand made only of natural tiles: there, a tile list holds the same
        # tiles in every reading (in another order), so its order-free summaries can be kept here.
        self.shared: dict | None = None
        # Shared by the readings of one split of natural tiles (they differ only in where the winning
        # tile is): what does not depend on that is kept here once.
        self.shape: dict | None = None

    @property
    def tiles(self) -> list[RTile]:
        t = self._tiles
        if t is None:
            t = []
            for g in self.groups:
                t += g.tiles
            self._tiles = t
        return t

    @property
    def hand(self) -> list[RTile]:
        h = self._hand
        if h is None:
            h = []
            for g in self.groups:
                if not g.declared:
                    h += g.tiles
            self._hand = h
        return h

    @property
    def gathered(self) -> bool:
        """Whether `tiles` and `hand` are the groups' tiles in order (neither was given)."""
        return self._tiles is None and self._hand is None

    @property
    def complete(self) -> bool:
        """Whether the groups hold every tile (not so for instant and orphan forms)."""
        return self._tiles is None or sum(len(g.tiles) for g in self.groups) == len(self._tiles)

    def describe(self) -> str:
        return " ".join(repr(g) for g in self.groups) if self.groups else " ".join(map(repr, self.hand))

    def __repr__(self):
        return f"Reading({self.form}: {self.describe()})"


class SharedPieces:
    """The immutable pieces readings of one tile catalog are made of, shared by every hand (natural tiles
    and groups never change once made, and keep their memoised fields). Held by the catalog's decomposer
    (`Decomposer.pieces`): the keys are its kind indexes, meld kinds and the block tables' split items."""

    def __init__(self):
        self.natural: dict[tuple[int, bool], RTile] = {}  # (kind index, is the winning tile) -> tile
        # (meld kind, slots, winning position or -1, concealed) -> group of natural tiles
        self.groups: dict[tuple, Group] = {}
        # id of a split item of the block tables -> (the item, its group, its kind indexes)
        self.item_groups: dict[int, tuple] = {}
        # (id of a split item, winning kind, concealed) -> (the item, its group holding the winning tile)
        self.win_groups: dict[tuple, tuple] = {}
        # (meld kind, slots, winning position, concealed, the wildcards' physical tile) -> group
        self.wild_groups: dict[tuple, Group] = {}
        # (form, exposed melds, concealed tiles) -> the (melds, pairs) of the form a hand may split into;
        # they depend on the rule set's forms (the decomposer's rule set), by name, so the engine's
        # copies of the rules that win by fewer forms (`Rules.with_forms`) share them
        self.form_targets: dict[tuple, list[tuple[int, int]]] = {}

    def natural_tile(self, kind: TileInfo, is_win: bool = False) -> RTile:
        """The shared natural tile of a kind (the winning tile is a tile of its own)."""
        key = (kind.index, is_win)
        x = self.natural.get(key)
        if x is None:
            x = self.natural[key] = RTile(kind, kind, False, is_win)
        return x
