"""What the bounded search for W601 models (dsl/reach_search.py): its bounds, the builtins it reads, the
candidate groups of each meld kind within the tile copies (World), and the rule sets it takes at all
(modelled)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir

# ---------------------------------------------------------------------------- bounds

MAX_ESTIMATE = 60_000  # candidate hands (multisets of groups, before tile copies) per pattern
MAX_NODES = 150_000  # search nodes per pattern
MAX_READINGS = 200_000  # exact evaluations (one reading under one context) per pattern
MAX_TOTAL_NODES = 600_000  # search nodes for every search of one rule set together
# The bounds count work, never wall time: the checker's warnings must not depend on machine load.
MAX_CONTEXTS = 16  # combinations of setting values tried per pattern

GROUP_LISTS = ("groups", "melds", "pairs", "runs", "triplets", "kongs", "exposed")
STRUCT_BUILTINS = {f"builtin:{n}" for n in GROUP_LISTS} | {
    "builtin:pair", "builtin:tiles", "builtin:hand", "builtin:suits", "builtin:menqing", "builtin:form"}
PAIR_BUILTINS = {"builtin:pairs", "builtin:pair"}
WIN_BUILTINS = {"builtin:win_tile", "builtin:win_group", "builtin:self_drawn", "builtin:waits",
                "builtin:shape_waits"}
WIN_FIELDS = {"concealed", "has_win"}  # group fields that change with where the winning tile sits
CONST_CATS = {"binder", "tile", "suit", "meld", "form", "flowerclass"}
GAME_FUNCTIONS = {"visible_count", "held", "next"}


class Found(Exception):
    pass


class GiveUp(Exception):
    pass


# ---------------------------------------------------------------------------- expression helpers



def names_in(e: E.Expr) -> set[str]:
    """Every reference an expression reads that is not a constant or a binder."""
    out = set()
    for n in E.walk(e):
        if isinstance(n, E.Name):
            if n.ref.split(":", 1)[0] not in CONST_CATS:
                out.add(n.ref)
        elif isinstance(n, E.Call) and n.func in GAME_FUNCTIONS:
            out.add(f"call:{n.func}")
    return out


def fields_in(e: E.Expr) -> set[str]:
    return {n.name for n in E.walk(e) if isinstance(n, E.Attr)}


def is_local(e: E.Expr) -> bool:
    """Reads only its binders and constants (so it can be evaluated on one group or one tile)."""
    return not names_in(e)


def int_value(e: E.Expr):
    if isinstance(e, E.Num):
        try:
            v = float(e.text)
        except ValueError:
            return None
        return int(v) if v.is_integer() else None
    if isinstance(e, E.Unary) and e.op == "-":
        v = int_value(e.operand)
        return -v if v is not None else None
    return None


# ---------------------------------------------------------------------------- candidate groups


@dataclass(eq=False)
class Cand:
    """One concrete group: from the hand split (`shown` False) or given as a meld (`shown` True)."""

    kind: str
    tiles: tuple  # TileInfo, sorted by index
    shown: bool
    is_pair: bool
    is_kong: bool
    exposed: bool
    value: object
    need: tuple  # (kind index, n)
    variants: list = field(default_factory=list)  # Group states a single reading may give it
    sig: tuple = ()
    mn: list = field(default_factory=list)
    mx: list = field(default_factory=list)

    def group(self, RTile, Group):
        return Group(self.kind, [RTile(t) for t in self.tiles], exposed=self.exposed, concealed=not self.exposed,
                     is_pair=self.is_pair, is_kong=self.is_kong, value=self.value)

    def plain(self, Group):
        """A fresh group object in the state without the winning tile (its tile objects shared)."""
        g = self.variants[0]
        return Group(g.kind, g.tiles, g.exposed, g.concealed, g.is_pair, g.is_kong, g.value)


def _need(tiles) -> tuple:
    out: dict[int, int] = {}
    for t in tiles:
        out[t.index] = out.get(t.index, 0) + 1
    return tuple(sorted(out.items()))


class World:
    """What the search needs from one rule set, built once (lazily) and shared by its patterns."""

    def __init__(self, rs: ir.RuleSet):
        from ..runtime.hand_score import Scoring
        from ..runtime.reading import Group, RTile
        from ..runtime.rules import Rules

        self.rs = rs
        self.rules = Rules(rs)
        self.cat, self.dec = self.rules.catalog_for({})
        self.env = self.rules.retile(self.rules.settings_env({}), self.cat)
        self.RTile, self.Group, self.Scoring = RTile, Group, Scoring
        kinds = self.cat.kinds
        self.copies = [k.copies for k in kinds]
        self.suits: dict[str, dict[int, object]] = {}
        for k in kinds:
            if k.suit:
                self.suits.setdefault(k.suit, {})[k.rank] = k
        from ..runtime.hand import Hand

        probe = Scoring(self.rules, self.cat, self.dec, self.env, Hand([], [], None, False))
        self.hand_cands: list[Cand] = []
        for spec in self.dec.specs:
            mk = rs.meld(spec.kind)
            for tiles in self._shapes(spec.shape, spec.size, spec.ranks, [kinds[i] for i in spec.tiles], spec.mixed,
                                      False):
                self._add(self.hand_cands, mk, tiles, False, probe)
        # Melds shown beside the hand: the runtime accepts a meld of any kind whose shape fits
        # (runtime.hand.build_hand), so every kind is a candidate, grown by up to its `grow_limit` tiles
        # where it `grows` (the copies of the tiles bound it: `_add`).
        self.shown_cands: list[Cand] = []
        for mk in rs.melds:
            s = mk.shape
            base = [self.cat.by_name[t] for t in s.tiles if t in self.cat.by_name]
            if s.kind == "tiles" and len(base) != len(s.tiles):
                continue
            for size in range(s.size, s.size + (mk.grow_limit if mk.grows else 0) + 1):
                for tiles in self._shapes(s.kind, size, s.ranks, base, s.mixed, size != s.size):
                    if self.rules.meld_matches(mk, list(tiles)):
                        self._add(self.shown_cands, mk, tiles, True, probe)

    def _shapes(self, shape: str, size: int, ranks, base, mixed: bool, grown: bool):
        kinds = self.cat.kinds
        seen = set()
        out = []

        def emit(tiles):
            tiles = tuple(sorted(tiles, key=lambda t: t.index))
            key = tuple(t.index for t in tiles)
            if key not in seen:
                seen.add(key)
                out.append(tiles)
        if shape == "same":
            for k in kinds:
                emit([k] * size)
        elif shape == "run":
            for idx in self.suits.values():
                for start in sorted(idx):
                    rs_ = range(start, start + size)
                    if all(r in idx for r in rs_):
                        emit([idx[r] for r in rs_])
        elif shape == "ranks":
            if not grown:
                for idx in self.suits.values():
                    if all(r in idx for r in ranks):
                        emit([idx[r] for r in sorted(ranks)])
        elif shape == "tiles":
            if not grown:
                emit(base)
            else:
                for extra in itertools.combinations_with_replacement(base, size - len(base)):
                    emit(list(base) + list(extra))
        elif shape == "same_rank":
            all_ranks = sorted({r for idx in self.suits.values() for r in idx})
            for r in all_ranks:
                suits = sorted(s for s, idx in self.suits.items() if r in idx)
                for combo in itertools.combinations_with_replacement(suits, size):
                    if mixed and len(set(combo)) < 2:
                        continue
                    emit([self.suits[s][r] for s in combo])
        return out

    def _add(self, out: list, mk: ir.MeldKind, tiles, shown: bool, probe) -> None:
        need = _need(tiles)
        if any(n > self.copies[i] for i, n in need):
            return
        RTile, Group = self.RTile, self.Group
        value = probe.group_value(mk, [RTile(t) for t in tiles])
        exposed = mk.exposed if shown else False
        c = Cand(mk.name, tiles, shown, mk.pair, mk.kong, exposed, value, need)
        c.sig = (mk.name, shown, tuple(t.index for t in tiles))
        c.variants.append(c.group(RTile, Group))
        if not shown:  # holding the winning tile: self-drawn (or a pair) stays concealed, claimed does not
            g = c.group(RTile, Group)
            g.has_win = True
            c.variants.append(g)
            if not mk.pair:
                g = c.group(RTile, Group)
                g.has_win = True
                g.concealed = False
                c.variants.append(g)
        out.append(c)


# ---------------------------------------------------------------------------- the rule-set gate


def _refs(e: E.Expr | None) -> set[str]:
    return names_in(e) if e is not None else set()


def modelled(rs: ir.RuleSet, cat) -> bool:
    """Whether the search models every reading of this rule set (else it claims nothing)."""
    for w in rs.wilds:
        if w.tiles in cat.by_name or any(r.name == w.tiles for r in rs.reveals):
            return False
        if not any(k.name == w.tiles for k in rs.tiles.kinds):
            return False  # a name the search does not understand
    if rs.standins:
        return False
    if any(f.instant is not None for f in rs.forms):
        return False
    for k in rs.tiles.kinds:
        if any(r.split(":", 1)[0] in ("option", "context") for r in _refs(k.copies) | _refs(k.enabled)):
            return False
    for a in rs.tiles.attrs:
        if any(r.split(":", 1)[0] in ("option", "context") for r in _refs(a.expr)):
            return False
    return True
