"""The state of one hand: seats (concealed tiles, melds, discards, tiles set aside, player states and
phases), the wall, the table's states and phases, the hand's context values and reveals, counters,
and the money moved so far. Plain data plus the views expressions read (`actor.hand`, `table.X`).

Tiles are the catalog's `TileInfo` objects (one object per kind); only the wall keeps physical
identities (ints), so that a revealed copy that stays in the wall can be told apart from its twins.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..money import exact
from ..tiles import TileInfo


@dataclass
class GMeld:
    """A meld laid down during the hand."""

    kind: str
    tiles: list[TileInfo]
    exposed: bool
    source: int | None = None  # the seat the claimed tile came from (None: formed from the own hand)
    claimed: TileInfo | None = None


class SeatMemo:
    """What the engine works out from one seat's concealed tiles and melds, kept with the seat: each entry
    (None until first worked out) holds the key it was worked out under — the seat's `version`, with
    whatever else it read (the context version, the tiles that may not be used, the set of free kinds) —
    beside the value, or as the key of its dict, so an entry whose key no longer holds is worked out
    again. A copy of the seat (in a clone) starts with an empty memo: the copy works out its own, never
    sharing an entry with the original."""

    __slots__ = ("waits", "group_waits", "avail", "claimable", "meld_opts", "groups", "unmendable", "best_win")

    def __init__(self):
        self.waits: tuple | None = None  # ((version, context version), the kinds the hand waits on)
        self.group_waits: tuple | None = None  # the same, by the forms that split a hand into groups
        self.avail: tuple | None = None  # ((version, unusable kinds), Counter of the usable concealed tiles)
        self.claimable: tuple | None = None  # ((version, context version), {action: names it could claim})
        self.meld_opts: tuple | None = None  # (version, {(meld kind, required tile, unusable): options})
        self.groups: tuple | None = None  # (version, the melds as reading groups)
        self.unmendable: tuple | None = None  # (version, the free-names set it was counted with, count)
        self.best_win: dict = {}  # (version, context version, self-drawn) -> the best win on a wait, or None

    def __deepcopy__(self, memo):
        return SeatMemo()


class Seat:
    """One player in one hand, as plain data (it knows nothing of the game it sits in). Compared by
    identity, so `actor == dealer` compares seats."""

    def __init__(self, index: int):
        self.index = index
        self.hand: list[TileInfo] = []
        self.melds: list[GMeld] = []
        self.discards: list[TileInfo] = []
        self.aside: list[TileInfo] = []  # flowers set aside (visible to everyone)
        self.vars: dict[str, Any] = {}  # player states and player phases
        self.drawn: TileInfo | None = None  # the tile just drawn (still in `hand`), if any
        self.auto = False  # `then auto`: the engine plays for this seat (only wins are asked)
        self.ready = False
        self.balance: Any = 0
        self.version = 0  # bumped whenever the concealed tiles or melds change
        self.memo = SeatMemo()  # what the engine works out from them, each entry keyed by this version
        # the fields expressions read that the seat holds itself (`actor.STATE`); the others (`actor.hand`,
        # `actor.waits`, …) are worked out by the game (`Game.seat_field`, through the evaluation's env)
        self.f = self.vars

    def changed(self) -> None:
        self.version += 1

    def held(self, kind) -> int:
        """How many tiles of this kind the seat holds concealed (a tile of a reading counts as its kind)."""
        name = kind.kind.name if isinstance(getattr(kind, "kind", None), TileInfo) else kind.name
        return sum(1 for t in self.hand if t.name == name)

    def __repr__(self):
        return f"seat{self.index}"


class TableFields:
    """The `table` value: its fields are the table states and table phases."""

    __slots__ = ("f",)

    def __init__(self, values: dict):
        self.f = values


@dataclass
class Payment:
    name: str  # the payment's (or fee's) name
    event: str
    payer: int | None  # None: the house (a fee)
    payee: int | None
    amount: Any
    fee: Any = 0  # withheld from the payee

    def to_json(self) -> dict:
        return {"name": self.name, "event": self.event, "payer": self.payer, "payee": self.payee,
                "amount": plain(self.amount), "fee": plain(self.fee),
                "amount_exact": exact(self.amount), "fee_exact": exact(self.fee)}


@dataclass
class HandState:
    n: int
    dealer: int
    kind_of: list[TileInfo]  # physical tile id -> kind
    wall: list[int]  # physical ids; index 0 is the head, the last is the tail
    seats: list[Seat]
    pinned: set[int] = field(default_factory=set)  # revealed copies that stay in the wall
    out: list[TileInfo] = field(default_factory=list)  # copies taken out of play or set aside by reveals
    table: dict[str, Any] = field(default_factory=dict)  # table states and phases
    context: dict[str, Any] = field(default_factory=dict)  # context values of this hand
    reveals: dict[str, TileInfo | None] = field(default_factory=dict)
    reveal_ids: dict[str, list[int]] = field(default_factory=dict)  # physical copies each reveal turned
    task: str = ""
    turn: int = 0
    last_drawer: int | None = None
    last_dealt: TileInfo | None = None
    winners: list[int] = field(default_factory=list)
    discarder: int | None = None  # who released the winning tile (a discard or a robbed kong)
    robbed: int | None = None
    exhausted: bool = False
    # the hand's play is over (a win that ends it, or the wall run out): hand-end and settlement follow
    finished: bool = False
    first_winners: list[int] = field(default_factory=list)  # the winners of the hand's first win
    over: bool = False
    next_dealer: int | None = None
    payments: list[Payment] = field(default_factory=list)
    fees: Any = 0
    deltas: list[Any] = field(default_factory=list)
    events: Counter = field(default_factory=Counter)
    results: dict[int, dict] = field(default_factory=dict)  # winner -> scoring summary
    # every `roll` of the hand, in order: the moves applied before it, the target, the seat whose state
    # it is (None: a table state or a context value), the items drawn and the value stored (JSON values)
    chance: list[dict] = field(default_factory=list)

    # ------------------------------------------------------------------ tiles

    def tiles_everywhere(self) -> Counter:
        """Every copy by kind name, wherever it is: wall, hands, melds, discards, set aside."""
        kind_of = self.kind_of
        tiles = [kind_of[i] for i in self.wall]
        for s in self.seats:
            tiles += s.hand
            tiles += s.discards
            tiles += s.aside
            for m in s.melds:
                tiles += m.tiles
        tiles += self.out
        return Counter(t.name for t in tiles)

    # ------------------------------------------------------------------ a full, comparable picture

    def snapshot(self) -> dict:
        def seat_json(s: Seat) -> dict:
            return {"hand": [t.name for t in s.hand], "drawn": s.drawn.name if s.drawn else None,
                    "melds": [{"kind": m.kind, "tiles": [t.name for t in m.tiles], "exposed": m.exposed,
                               "source": m.source, "claimed": m.claimed.name if m.claimed else None}
                              for m in s.melds],
                    "discards": [t.name for t in s.discards], "aside": [t.name for t in s.aside],
                    "vars": {k: plain(v) for k, v in s.vars.items()}, "auto": s.auto, "ready": s.ready,
                    "balance": plain(s.balance)}

        return {
            "dealer": self.dealer, "wall": [self.kind_of[i].name for i in self.wall],
            "wall_ids": list(self.wall), "pinned": sorted(self.pinned), "out": [t.name for t in self.out],
            "seats": [seat_json(s) for s in self.seats],
            "table": {k: plain(v) for k, v in self.table.items()},
            "context": {k: plain(v) for k, v in self.context.items()},
            "reveals": {k: plain(v) for k, v in self.reveals.items()}, "task": self.task, "turn": self.turn,
            "last_drawer": self.last_drawer, "winners": list(self.winners), "discarder": self.discarder,
            "robbed": self.robbed, "exhausted": self.exhausted, "finished": self.finished,
            "first_winners": list(self.first_winners), "over": self.over,
            "next_dealer": self.next_dealer, "payments": [p.to_json() for p in self.payments],
            "fees": plain(self.fees), "deltas": [plain(d) for d in self.deltas],
            "events": dict(sorted(self.events.items())), "chance": [dict(c) for c in self.chance],
        }


def plain(v):
    """A JSON-friendly value: tiles by name, seats by number, exact numbers as int or str."""
    if isinstance(v, TileInfo):
        return v.name
    if isinstance(v, Seat):
        return {"seat": v.index}
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else str(v)
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    return str(v)
