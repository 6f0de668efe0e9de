"""Moves, and the melds a player can make.

A `Move` is what a player answers when asked: an action name (a declared action, or the engine's own
`discard` and `pass`), the tiles it uses (the discarded tile; a meld's tiles; the winning tile),
for actions with `choices`, the chosen value, and for an action that `forms` several meld kinds, the
kind the meld is laid down as. Moves are plain values: equal moves are the same move.
A move offered by `Game.legal_moves` also carries `decision`, the number of the decision it answers
(not part of its value: equal moves of different decisions compare equal), so that the game can refuse
a stale move — one offered at an earlier decision — even when an equal move is legal again now.

One set of tiles may have the shape of several kinds an action forms (a run 1-2-3 and a kind of the
ranks 1, 2, 3). `one_kind_per_meld` keeps, of such options, the kind whose declared `value` is highest
(the one the rules value most; the others would only lose the player points); kinds of equal value
all stay, as distinct moves, since only the player can tell which one is meant.

`meld_options` lists the melds of one kind a seat can lay down, from its concealed tiles and
optionally a tile it does not hold (a claimed discard, a robbed kong tile):

- a kind with `upgrades U` is made by adding one tile to a meld of a kind in U the seat already has
  (the tile must make the shape of the new kind) — or, for a `hand` kind in U (one that is never laid
  down), to concealed tiles of that kind's shape;
- a kind with `grows` is formed anew from the hand, and also extends a meld of that same kind the seat
  already has by one more tile while it is within its `grow_limit` (`rules.meld_matches` bounds the size);
- any other kind is formed anew: its shape, the required tile included when there is one.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

from ..ir import nodes as ir
from ..ir.describe import kind, short
from ..tiles import TileInfo


@dataclass(frozen=True)
class Move:
    action: str
    tiles: tuple[str, ...] = ()
    choice: Any = None
    meld: str | None = None  # the meld kind laid down, for an action that forms several kinds
    decision: int | None = field(default=None, compare=False)  # the decision it answers (see Game.apply)

    def __deepcopy__(self, memo):  # a value: shared by a copy
        return self

    def __str__(self) -> str:
        out = self.action
        if self.tiles:
            out += " " + "".join(self.tiles)
        if self.meld is not None:
            out += f" [{self.meld}]"
        if self.choice is not None:
            out += f" ={self.choice}"
        return out

    def to_json(self, code_of: Callable[[str], str | None] | None = None) -> dict:
        """The move as a JSON object; with `code_of` (a tile's name → its notation code, e.g.
        `Game.tile_code`), `codes` stands beside `tiles`: the codes the rule set's notation writes them with."""
        d: dict[str, Any] = {"action": self.action}
        if self.tiles:
            d["tiles"] = list(self.tiles)
            if code_of is not None:
                d["codes"] = [code_of(t) for t in self.tiles]
        if self.choice is not None:
            d["choice"] = self.choice if isinstance(self.choice, (int, str)) else str(self.choice)
        if self.meld is not None:
            d["meld"] = self.meld
        if self.decision is not None:
            d["decision"] = self.decision
        return d

    @staticmethod
    def from_json(d: dict, code_of: Callable[[str], str | None] | None = None) -> Move:
        """A move from its JSON object; MoveError (one short sentence) when it is not one. With `code_of`
        (as for `to_json`) the object may carry `codes` beside `tiles` (as `to_json` writes it); they must
        be exactly the codes of its tiles (the move is read by its tiles: codes that disagree are refused,
        never ignored)."""
        if not isinstance(d, dict):
            raise MoveError(f"a move is a JSON object, not {kind(d)}")
        extra = set(d) - ({"action", "tiles", "choice", "meld", "decision", "codes"} if code_of is not None
                          else {"action", "tiles", "choice", "meld", "decision"})
        if extra:
            raise MoveError(f"a move has no field {short(sorted(map(str, extra))[0])}")
        action = d.get("action")
        if type(action) is not str:
            raise MoveError(f"a move's action is text, not {kind(action)}")
        tiles = d.get("tiles", [])
        if not isinstance(tiles, list) or any(type(t) is not str for t in tiles):
            raise MoveError("a move's tiles are a list of tile names")
        if "codes" in d:
            codes = d["codes"]
            if not isinstance(codes, list) or any(type(c) is not str for c in codes):
                raise MoveError("a move's codes are a list of tile codes")
            if codes != [code_of(t) for t in tiles]:
                raise MoveError(f"a move's codes {short(codes)} are not the codes of its tiles {short(tiles)}")
        choice = d.get("choice")
        if isinstance(choice, str):
            try:
                choice = Fraction(choice)
            except (ValueError, ZeroDivisionError):
                pass
        elif choice is not None and type(choice) is not int:
            raise MoveError(f"a move's choice is a number or text, not {kind(choice)}")
        meld = d.get("meld")
        if meld is not None and type(meld) is not str:
            raise MoveError(f"a move's meld kind is text, not {kind(meld)}")
        decision = d.get("decision")
        if decision is not None and type(decision) is not int:
            raise MoveError(f"a move's decision is a whole number, not {kind(decision)}")
        return Move(action, tuple(tiles), choice, meld, decision=decision)

    def without_meld(self) -> Move:
        """The move as written before moves named their meld kind (older logs, callers that leave it out)."""
        return Move(self.action, self.tiles, self.choice) if self.meld is not None else self

    def stamped(self, decision: int) -> Move:
        """This move as offered at `decision` (a copy; moves are immutable). Every field is passed on
        (`dataclasses.replace(self, decision=decision)` does the same at twice the cost: every legal
        move of every decision is stamped)."""
        return Move(self.action, self.tiles, self.choice, self.meld, decision)


class MoveError(ValueError):
    """A value that is not a move (one short sentence, never echoing more than a few dozen characters)."""


def check_move(move: Any) -> str | None:
    """Why a value is not a well-formed Move (a short sentence), or None."""
    if not isinstance(move, Move):
        return f"a move is a Move, not {kind(move)}"
    if type(move.action) is not str:
        return f"a move's action is text, not {kind(move.action)}"
    if len(move.action) > 200:
        return "a move's action is too long to be an action name"
    if not isinstance(move.tiles, tuple) or any(type(t) is not str for t in move.tiles):
        return "a move's tiles are a tuple of tile names"
    if len(move.tiles) > 64:
        return "a move uses more tiles than any meld has"
    c = move.choice
    if c is not None and type(c) not in (int, bool, str, Fraction):
        return f"a move's choice is a number or text, not {kind(c)}"
    if move.meld is not None and type(move.meld) is not str:
        return f"a move's meld kind is text, not {kind(move.meld)}"
    if move.decision is not None and type(move.decision) is not int:
        return f"a move's decision is a whole number, not {kind(move.decision)}"
    return None


def describe(move: Move) -> str:
    """A move as an error message shows it: at most a few dozen characters."""
    s = str(move)
    return s if len(s) <= 40 else s[:37] + "…"


PASS = Move("pass")


def discard(tile: TileInfo) -> Move:
    return Move("discard", (tile.name,))


@dataclass(frozen=True)
class MeldOption:
    """One way to lay down a meld of `kind`."""

    kind: str
    tiles: tuple[TileInfo, ...]  # the whole meld, sorted
    from_hand: tuple[TileInfo, ...]  # the tiles that leave the concealed hand
    extends: int | None  # index of the seat's meld this one replaces (upgrade / growth), or None
    key: TileInfo  # the tile the action uses (`tile` in guards): the required or added tile, else the lowest

    def __deepcopy__(self, memo):  # a value: shared by a copy
        return self


def one_kind_per_meld(opts: list[MeldOption], value) -> list[MeldOption]:
    """Of options laying down the same tiles in the same place (the same meld extended, or none) as
    different kinds, those whose `value(option)` is highest; the order of the first of each is kept."""
    best: dict[tuple, Any] = {}
    for o in opts:
        key = (tuple(t.name for t in o.tiles), o.extends)
        v = value(o)
        if key not in best or v > best[key]:
            best[key] = v
    return [o for o in opts if value(o) == best[(tuple(t.name for t in o.tiles), o.extends)]]


def _sorted(tiles) -> tuple[TileInfo, ...]:
    return tuple(sorted(tiles, key=lambda t: t.index))


def meld_options(rules, cat, seat, mk: ir.MeldKind, required: TileInfo | None,
                 unusable: frozenset[str] = frozenset(), avail: Counter | None = None) -> list[MeldOption]:
    """Every distinct meld of kind `mk` the seat can make (with `required` in it when given).
    Tiles whose kind is in `unusable` (wildcards barred from this meld) never come from the hand;
    `avail` (the usable concealed tiles by name) may be given when the caller has it."""
    if avail is None:
        avail = Counter(t.name for t in seat.hand if t.name not in unusable)
    s = mk.shape
    if not (mk.upgrades or mk.grows):  # quick refusals for the common claims
        if s.kind == "same":
            if required is not None and avail.get(required.name, 0) < s.size - 1:
                return []
        elif s.kind == "run" and required is not None:
            if required.suit is None:
                return []
    out: list[MeldOption] = []
    seen: set = set()

    def add(opt: MeldOption):
        sig = (opt.kind, tuple(t.name for t in opt.tiles), opt.extends)
        if sig not in seen:
            seen.add(sig)
            out.append(opt)

    if mk.upgrades or mk.grows:
        bases = [i for i, m in enumerate(seat.melds) if
                 (m.kind in mk.upgrades if mk.upgrades else m.kind == mk.name)]
        adds = [required] if required is not None else [cat.by_name[n] for n in sorted(avail)]
        for i in bases:
            m = seat.melds[i]
            for t in adds:
                if s.kind == "same" and t.name != m.tiles[0].name:
                    continue  # a `same` shape grows only by its own kind (meld_matches would refuse)
                tiles = list(m.tiles) + [t]
                if rules.meld_matches(mk, tiles):
                    add(MeldOption(mk.name, _sorted(tiles), () if required is not None else (t,), i, t))
        if mk.upgrades:
            # an upgraded `hand` kind is still concealed: its tiles plus the added one, from the hand
            concealed = [rules.ir.meld(k) for k in mk.upgrades]
            concealed = [k for k in concealed if k is not None and k.hand]
            if concealed:
                for tiles in _fresh(cat, mk.shape, avail, required):
                    need = Counter(t.name for t in tiles)
                    if required is not None:
                        need[required.name] -= 1
                    if not all(avail[n] >= c for n, c in need.items()):
                        continue
                    added = [required] if required is not None else list(dict.fromkeys(tiles))
                    for t in added:
                        rest = list(tiles)
                        rest.remove(t)
                        if any(rules.meld_matches(k, rest) for k in concealed):
                            from_hand = [cat.by_name[n] for n, c in need.items() for _ in range(c)]
                            add(MeldOption(mk.name, _sorted(tiles), _sorted(from_hand), None, t))
                            break
            return out
    for tiles in _fresh(cat, mk.shape, avail, required):
        need = Counter(t.name for t in tiles)
        if required is not None:
            need[required.name] -= 1
        if all(avail[n] >= c for n, c in need.items()):
            from_hand = [cat.by_name[n] for n, c in need.items() for _ in range(c)]
            key = required if required is not None else min(tiles, key=lambda t: t.index)
            add(MeldOption(mk.name, _sorted(tiles), _sorted(from_hand), None, key))
    return out


def _fresh(cat, s: ir.Shape, avail: Counter, required: TileInfo | None):
    """Candidate tile lists of a shape (counts checked by the caller)."""
    by_name = cat.by_name
    size = s.size
    if s.kind == "same":
        names = [required.name] if required is not None else [n for n, c in avail.items() if c >= size]
        for n in names:
            yield [by_name[n]] * size
        return
    if s.kind in ("run", "ranks"):
        suits = [required.suit] if required is not None else sorted({by_name[n].suit for n in avail
                                                                     if by_name[n].suit})
        for suit in suits:
            if suit is None:
                continue
            ranks_of = {k.rank: k for k in cat.kinds if k.suit == suit}
            if s.kind == "run":
                starts = range(min(ranks_of, default=0), max(ranks_of, default=0) + 1)
                patterns = [list(range(a, a + size)) for a in starts]
            else:
                patterns = [list(s.ranks)]
            for ranks in patterns:
                if not all(r in ranks_of for r in ranks):
                    continue
                if required is not None and required.rank not in ranks:
                    continue
                yield [ranks_of[r] for r in ranks]
        return
    if s.kind == "tiles":
        if all(n in by_name for n in s.tiles) and (required is None or required.name in s.tiles):
            yield [by_name[n] for n in s.tiles]
        return
    if s.kind == "same_rank":
        ranks = [required.rank] if required is not None else sorted({by_name[n].rank for n in avail
                                                                     if by_name[n].suit})
        for r in ranks:
            kinds = [k for k in cat.kinds if k.suit and k.rank == r]
            for combo in combinations_with_replacement(kinds, size):
                if required is not None and required not in combo:
                    continue
                if s.mixed and len({k.suit for k in combo}) < 2:
                    continue
                yield list(combo)


def neighbours(hand: list[TileInfo], t: TileInfo) -> int:
    """How many other tiles of the hand could join `t` in a group: copies of it, and suited tiles of
    its suit within two ranks (the greedy bot's measure of a useless tile)."""
    n = -1
    for x in hand:
        if x.name == t.name:
            n += 2
        elif t.suit is not None and x.suit == t.suit and abs(x.rank - t.rank) <= 2:
            n += 1
    return n
