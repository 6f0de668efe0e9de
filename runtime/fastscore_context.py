"""What generated scoring code reads of one reading (the Ctx object: lists, tallies and summaries computed
on first use), what it gives back (ReadingScore), and when the reference decides instead
(REFERENCE_DECIDES)."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .evaluate import EvalError
from .reading import RTile


class ReadingScore(NamedTuple):
    """What the generated evaluator makes of one reading."""

    best: object  # the `best` expression's value (the reading chosen is the highest (best, score))
    score: object
    total: object
    units: list  # each unit's value, in `unit_order`
    final: dict  # pattern index -> its count after exclusions, for the patterns that count
    value: Callable  # pattern index -> its value
    failed: str | None  # why the reading fails a requirement, or None
    # (ctx, settings, raw counts, fired, combinations, namespace): what the result's explanations
    # (`FastScorer.excluded_of`, `quantities_of`) are computed from
    state: tuple | None = None


class Unusual(Exception):
    """A reading the generated code does not decide the way the reference would (the reference decides)."""


# The documented unusual cases (module docstring of runtime/codegen.py): values the closures accept but
# Python's own operators do not (an ordering comparison with none, a field or arithmetic of none: TypeError,
# AttributeError, KeyError, ZeroDivisionError), what the shared helpers refuse (EvalError) and `Unusual`.
# The reference evaluates such a reading, and the evaluator counts it (`fallbacks`); any other exception
# is a bug of the generated code and is raised.
REFERENCE_DECIDES = (TypeError, AttributeError, KeyError, ZeroDivisionError, EvalError, Unusual)


class Unsupported(Exception):
    """A construct the generator does not handle: the rule set is scored by the reference only."""


class Ctx:
    """The reading scope seen by generated code. Cheap values are set up front; lists derived from the
    groups are built on first use (`__getattr__` runs only for attributes not yet set)."""

    def __init__(self, reading, sc, pv: int):
        self.r = reading
        self.sc = sc
        self.pv = pv
        self.b_groups = reading.groups
        self.b_win_tile = reading.win_tile
        self.b_win_group = reading.win_group
        self.b_form = reading.form
        self.b_self_drawn = sc.hand.self_drawn

    def __getattr__(self, name):
        # Each value is set as an attribute of its own, so this runs once per name and reading.
        if name in _GROUP_LISTS:
            group_lists(self)
            return getattr(self, name)
        make = _LAZY.get(name)
        if make is None:
            if name.startswith("tl_"):  # tl_<list>_<field index>: a tally (see _tally)
                _, lst, k = name.split("_", 2)
                v = self.tally(lst, TALLY_FIELDS[int(k)])
                setattr(self, name, v)
                return v
            raise AttributeError(name)
        v = make(self)
        setattr(self, name, v)
        return v

    def _shared(self, lst: str) -> dict | None:
        """Where a per-hand value of a tile list may be kept (`Reading.shared`): when every reading of the
        hand is made of natural tiles, its `tiles` and `hand` lists hold the same tiles in another order
        and tiles of one kind are indistinguishable, so counts and distinct kinds are the same."""
        return self.r.shared if lst in ("tiles", "hand") else None

    def distinct(self, lst: str, order_free: bool) -> list:
        """`distinct` of a reading's tile list (always tiles of the reading, `RTile`). Tiles are equal
        when they play as the same kind, so the first of each kind is kept by its name (as `_distinct`
        does with ==, without comparing every pair). Where the order cannot matter (iterated over,
        counted) the list of the hand's first reading serves all its readings."""
        key = "_distinct_" + lst
        shared = self._shared(lst) if order_free else None
        store = shared if shared is not None else self.memo
        d = store.get(key)
        if d is None:
            counts = shared.get("counts:" + lst) if shared is not None else None
            if counts is not None:  # one natural tile of each kind held, in catalog order
                natural = self._natural_tile
                d = [natural(i) for i, c in enumerate(counts) if c]
            else:
                seen: dict = {}
                for x in getattr(self, "b_" + lst):
                    if x.kind.name not in seen:
                        seen[x.kind.name] = x
                d = list(seen.values())
            store[key] = d
        return d

    def _natural_tile(self, i: int) -> RTile:
        """The shared natural tile of kind i (natural tiles never change)."""
        return self.sc.dec.pieces.natural_tile(self.sc.cat.kinds[i])

    def tally(self, lst: str, fname) -> dict:
        """How many items of a reading list have each value of field `fname` (None: the item itself;
        a tuple of names: the tuple of those fields)."""
        key = ("tally", lst, fname)
        shared = self._shared(lst)
        store = shared if shared is not None else self.memo
        d = store.get(key)
        if d is None and shared is not None and "counts:" + lst in shared:
            # from the hand's counts per kind: a natural tile's fields are its kind's
            d = {}
            kinds = self.sc.cat.kinds
            for i, c in enumerate(shared["counts:" + lst]):
                if c:
                    if fname is None:
                        k = self._natural_tile(i)
                    elif type(fname) is tuple:
                        f = kinds[i].f
                        k = tuple(self._natural_tile(i) if n is None else f[n] for n in fname)
                    else:
                        k = kinds[i].f[fname]
                    d[k] = d.get(k, 0) + c
            store[key] = d
        if d is None:
            d = {}
            items = getattr(self, "b_" + lst)
            if fname is None:
                for x in items:
                    d[x] = d.get(x, 0) + 1
            elif type(fname) is tuple and len(fname) == 2 and None not in fname:
                a, b = fname
                for x in items:
                    f = x.f
                    k = (f[a], f[b])
                    d[k] = d.get(k, 0) + 1
            elif type(fname) is tuple:
                for x in items:
                    f = x.f
                    k = tuple(x if n is None else f[n] for n in fname)
                    d[k] = d.get(k, 0) + 1
            else:
                for x in items:
                    k = x.f[fname]
                    d[k] = d.get(k, 0) + 1
            store[key] = d
        return d


def group_lists(c: Ctx) -> None:
    """The lists of groups `Scoring.reading_env` builds (melds, pairs, runs, triplets, kongs, exposed;
    pair, menqing), all in one pass over the groups (each group's classes are kept on the group)."""
    melds, pairs, runs, trips, kongs, exposed = [], [], [], [], [], []
    for g in c.b_groups:
        k = g.classes
        if k & 1:
            pairs.append(g)
        else:
            melds.append(g)
            if k & 2:
                runs.append(g)
            if k & 4:
                trips.append(g)
            if k & 8:
                kongs.append(g)
        if k & 16:
            exposed.append(g)
    c.b_melds, c.b_pairs, c.b_runs, c.b_triplets, c.b_kongs = melds, pairs, runs, trips, kongs
    c.b_exposed = exposed
    c.b_pair = pairs[0] if pairs else None
    c.b_menqing = not exposed


def _suits(c: Ctx):
    shared = c.r.shared  # the same tiles in every reading of a hand of natural tiles
    if shared is not None:
        got = shared.get("suits")
        if got is None:
            counts = shared.get("counts:tiles")
            if counts is not None:
                kinds = c.sc.cat.kinds
                got = sorted({kinds[i].suit for i, n in enumerate(counts) if n and kinds[i].suit})
            else:
                got = sorted({t.kind.suit for t in c.r.tiles if t.kind.suit})
            shared["suits"] = got
        return got
    return sorted({t.kind.suit for t in c.r.tiles if t.kind.suit})


# The reading builtins generated code reads, each with the attribute of `Ctx` that holds it: a closed
# table, so an attribute name in generated code is always one of these, never text from the IR.
BUILTIN_ATTRS = {n: "b_" + n for n in (
    "groups", "win_tile", "win_group", "form", "self_drawn", "melds", "pairs", "pair", "runs", "triplets",
    "kongs", "exposed", "menqing", "tiles", "hand", "suits", "flowers", "waits", "shape_waits")}
TILE_LISTS = {"tiles": "tiles", "hand": "hand", "flowers": "flowers"}  # the lists `distinct` is kept for

# Exactly the values `Scoring.reading_env` builds.
_GROUP_LISTS = ("b_melds", "b_pairs", "b_pair", "b_runs", "b_triplets", "b_kongs", "b_exposed", "b_menqing")
_LAZY = {
    "b_tiles": lambda c: c.r.tiles,
    "b_hand": lambda c: c.r.hand,
    "b_suits": _suits,
    "b_flowers": lambda c: c.sc.flower_tiles(),
    "b_waits": lambda c: c.sc.waits_of_hand(),
    "b_shape_waits": lambda c: c.sc.waits_of_hand(shape=True),
    # this reading's own per-list summaries (`distinct`, `tally`) when the hand's readings do not share them
    "memo": lambda c: {},
    # pattern index -> the combinations a `combine` pattern counted (generated `_combos<i>`), kept for the
    # combination choice after the counts
    "combos": lambda c: {},
}

TALLY_FIELDS: list = []  # field names tallies are taken by (shared by every generated module)
