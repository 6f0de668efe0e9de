"""The typed, immutable intermediate representation of a rule set.

Built by dsl/build.py from the parsed statements, checked by dsl/checker.py, serialised by
runtime/ir/serialize.py, and read by the runtime and the page generator. No Lark here: a game server loads a
compiled JSON rule set with only this module, runtime/ir/expr.py and runtime/ir/span.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from .expr import Expr
from .span import NO_SPAN, Span
from .version import FORMAT, VERSION  # noqa: F401 - (the IR's format and version, read as ir.VERSION)


@dataclass(frozen=True)
class Node:
    """Common to every IR node: where it was written, and the page text attached to it."""

    span: Span = field(default=NO_SPAN, kw_only=True)
    doc: str = field(default="", kw_only=True)
    notes: tuple[str, ...] = field(default=(), kw_only=True)


# ---------------------------------------------------------------- variant and tiles


@dataclass(frozen=True)
class Variant(Node):
    """The variant's identity: its id, title and the seed document it encodes."""

    id: str
    title: str
    seed: str = ""


@dataclass(frozen=True)
class Suit(Node):
    """A suit of ranked tiles (`lo`..`hi`), expanded into one `TileKind` per rank."""

    name: str
    lo: int
    hi: int
    copies: Expr
    code: str = ""
    chars: str = ""
    names: tuple[str, ...] = ()
    glyphs: str = ""
    attrs: tuple[str, ...] = ()
    enabled: Expr | None = None


@dataclass(frozen=True)
class TileKind(Node):
    """One kind of tile or card (there are `copies` physical copies of it)."""

    name: str
    category: str  # suited | honor | flower | joker
    copies: Expr
    suit: str = ""
    rank: int = 0
    code: str = ""
    char: str = ""
    glyph: str = ""
    attrs: tuple[str, ...] = ()
    flower_class: str = ""
    enabled: Expr | None = None


@dataclass(frozen=True)
class AttrDef(Node):
    """A computed tile attribute: `expr`, a condition on the tile `t`."""

    name: str
    expr: Expr  # boolean over the tile `t`


@dataclass(frozen=True)
class Ink(Node):
    """Pages draw the tiles that have `attr` (an attribute, or flower / honor / joker) in `colour`."""

    colour: str  # one of INK_COLOURS
    attr: str


INK_COLOURS = ("red", "green", "blue")


@dataclass(frozen=True)
class Tiles(Node):
    """The tile set: the suits, every kind in declaration order, the computed attributes, the inks."""

    suits: tuple[Suit, ...]
    kinds: tuple[TileKind, ...]  # every tile kind, suits expanded, in declaration order
    attrs: tuple[AttrDef, ...]
    inks: tuple[Ink, ...] = ()  # print colours by attribute, for pages only


# ---------------------------------------------------------------- settings and table


@dataclass(frozen=True)
class Setting(Node):
    """A room option (chosen at room creation) or a context value (a fact of the situation)."""

    name: str
    role: str  # option | context
    type: str  # bool | int | num | tile | seat
    default: Expr
    values: tuple[Expr, ...] = ()
    range: tuple[int, int] | None = None


@dataclass(frozen=True)
class Table(Node):
    """The table: players, hand size, dealer and rotation, the wall's end and replacement draws."""

    players: Expr
    hand: int
    dealer_extra: int = 1
    first_dealer: str = "random"
    rotation: str = "counter_clockwise"
    next_dealer: Expr | None = None
    exhaust_at: int = 0
    replacement: str = "tail"
    exhaust_word: str = "流局"  # the variant's own word for a drawn hand (play, pages, the service)
    # the variant's own names of the seats, counted in play order from the dealer (the dealer's first); a
    # table of more players than names has none (seats are then numbered)
    seat_names: tuple[str, ...] = ()
    # A win takes the winner out of the hand's play and the others play on (false: a win ends the hand);
    # the hand then ends when `ends_when` holds after a win, fewer than two players are left, or the wall
    # runs out.
    winners_leave: bool = False
    ends_when: Expr | None = None


@dataclass(frozen=True)
class Reveal(Node):
    """A tile turned face up from the wall (at the deal or at a win) whose kind the rules then read."""

    name: str
    source: str = "tail"
    offset: int = 0
    skip: str = ""
    removes_copy: bool = False
    visible: bool = True
    moves_when: Expr | None = None
    at: str = "deal"  # deal | win: when the tile is flipped
    unless: Expr | None = None  # no flip when this holds (the value is then set by a rule instead)


@dataclass(frozen=True)
class Wild(Node):
    """Tiles of a kind (or a reveal's) that may stand for any tile, and where they may not."""

    name: str
    tiles: str  # a tile kind name or a reveal name
    except_attr: str = ""
    no_meld: tuple[str, ...] = ()
    scope: str = "hand"  # hand | win_tile
    active: Expr | None = None
    no_action: tuple[str, ...] = ()  # actions whose groups it may not join


@dataclass(frozen=True)
class Standin(Node):
    """A tile kind that plays as another tile (`plays`), unless `unless` holds."""

    name: str  # the tile kind that stands in
    plays: Expr  # the tile it plays as
    unless: Expr | None = None


# ---------------------------------------------------------------- melds and winning forms


@dataclass(frozen=True)
class Shape(Node):
    """What tiles a meld kind holds: a run, identical tiles, given ranks, given tiles or one rank."""

    kind: str  # run | same | ranks | tiles | same_rank
    size: int
    ranks: tuple[int, ...] = ()
    tiles: tuple[str, ...] = ()
    mixed: bool = False
    tiles_span: Span = NO_SPAN  # the tile literal of `shape tiles '…'`


@dataclass(frozen=True)
class SuitValue(Node):
    """The `value` a meld kind's group carries in one suit ("": any suit)."""

    suit: str  # "" = any suit
    value: Expr


@dataclass(frozen=True)
class MeldKind(Node):
    """A kind of group a hand is read into (a meld or a pair), with its shape and flags."""

    name: str
    shape: Shape
    hand: bool = False
    pair: bool = False
    exposed: bool = False
    kong: bool = False
    upgrades: tuple[str, ...] = ()
    grows: bool = False
    grow_limit: int = 1  # with `grows`: the most tiles it may take beyond its shape, one at a time
    shown: int | None = None  # tiles shown face up (default: all when exposed, none otherwise)
    values: tuple[SuitValue, ...] = ()


@dataclass(frozen=True)
class WinForm(Node):
    """A winning form: the melds and pairs a winning hand is read as, or its own condition."""

    name: str
    melds: int | None = None
    pairs: tuple[int, int] | None = None
    groups: int | None = None
    pair_when: Expr | None = None
    orphans: str = ""
    concealed: bool = False
    instant: Expr | None = None
    tiles: int | None = None
    standins: bool = True  # stand-in tiles play as their target in this form


@dataclass(frozen=True)
class Requirement(Node):
    """A condition every winning reading must meet (`unless` exempts), with its reason."""

    name: str
    expr: Expr
    unless: Expr | None = None
    forms: tuple[str, ...] = ()
    reason: str = ""
    decides_waits: bool = True  # `waits false`: about how the tile is won, not which tiles complete the hand


# ---------------------------------------------------------------- patterns and scoring


@dataclass(frozen=True)
class Unit(Node):
    """A unit pattern values add up in, and how they combine: sum, product or max."""

    name: str
    combine: str  # sum | product | max


@dataclass(frozen=True)
class Exclusion(Node):
    """A pattern that another pattern's firing excludes (or whose count it lowers)."""

    pattern: str
    decrement: int | None = None  # None: excluded entirely


@dataclass(frozen=True)
class Example(Node):
    """A worked example of a rule file: a hand and what scoring it must give."""

    name: str = ""
    hand: str = ""
    win: str = ""
    melds: tuple[tuple[str, str], ...] = ()
    self_drawn: bool = False
    sets: tuple[tuple[str, Expr], ...] = ()
    expects: tuple[tuple[str, Expr], ...] = ()  # (what, value): score | total | win | fans | <quantity>
    # where the tile literals are written (for diagnostics): hand, win, and one per meld
    hand_span: Span = NO_SPAN
    win_span: Span = NO_SPAN
    meld_spans: tuple[Span, ...] = ()


# A `{expression}` slot of a pattern's label (the text between slots is shown as written).
LABEL_SLOT = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Pattern(Node):
    """A scoring pattern: when it fires, how many times it counts, its value and unit."""

    name: str
    value: Expr
    unit: str
    when: Expr | None = None
    count: Expr | None = None
    excludes: tuple[Exclusion, ...] = ()
    group: str = ""
    label: str = ""
    enabled: Expr | None = None
    examples: tuple[Example, ...] = ()
    counterexamples: tuple[Example, ...] = ()
    label_span: Span = NO_SPAN  # the `label "…"` string
    # the label's `{…}` slots (LABEL_SLOT), parsed and resolved by the compiler, in order
    label_exprs: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Combine(Node):
    """Patterns counted over combinations of melds, the most valuable buildable set kept."""

    name: str
    patterns: tuple[str, ...]
    rule: str = "forest"
    distinct: bool = True


@dataclass(frozen=True)
class Quantity(Node):
    """A named value computed from a reading (shown in results, read by expressions)."""

    name: str
    expr: Expr


@dataclass(frozen=True)
class Score(Node):
    """The score formula of a winning reading, with the best-reading and total expressions."""

    expr: Expr
    best: Expr | None = None
    total: Expr | None = None  # the "total" reported beside the score (default: the first unit)


@dataclass(frozen=True)
class Factor(Node):
    """A multiplier of a payment, applied when `when` holds."""

    name: str
    value: Expr
    when: Expr | None = None


@dataclass(frozen=True)
class Payment(Node):
    """Who pays whom how much when a hand ends (`on` an outcome), with its factors."""

    name: str
    on: str
    payer: str
    payee: str
    amount: Expr
    factors: tuple[Factor, ...] = ()
    when: Expr | None = None
    after: tuple[str, ...] = ()  # settled only after these actions were decided


@dataclass(frozen=True)
class Fee(Node):
    """A fee taken at the rate `rate`."""

    name: str
    rate: Expr


@dataclass(frozen=True)
class Cap(Node):
    """A bound on payments (by a balance)."""

    kind: str  # balance
    of: str = "payer"  # whose balance bounds a payment: payer | payee


@dataclass(frozen=True)
class Task(Node):
    """A task a player may be given, multiplying the score by `factor` when `when` holds."""

    name: str
    factor: Expr
    when: Expr


# ---------------------------------------------------------------- game flow


@dataclass(frozen=True)
class StateVar(Node):
    """A state value of each player or of the table that the game flow sets and reads."""

    name: str
    scope: str  # player | table
    type: str  # bool | int | tile | seat | tiles
    init: Expr
    lives: str = "hand"  # hand: back to INIT at every hand's start | session: carried to the next hand
    visible: bool = False  # a player state every seat sees of every player (observations), not its own only


@dataclass(frozen=True)
class Trigger(Node):
    """An event (with a condition) that enters a phase."""

    event: str
    cond: Expr | None = None


@dataclass(frozen=True)
class Phase(Node):
    """A phase of play of a player or of the table, entered on its triggers."""

    name: str
    scope: str  # player | table
    enter: tuple[Trigger, ...] = ()
    leave: tuple[Trigger, ...] = ()
    level: int = 0


@dataclass(frozen=True)
class Effect(Node):
    """One change an action or hook makes: set, add, remove, clear, emit, roll or give."""

    op: str  # set | add | remove | clear | emit | roll | give
    target: tuple[str, ...]  # a dotted name: (`actor`, NAME) or (`table`, NAME) or an event name; () for give
    value: Expr | None = None
    times: int = 1  # roll: items drawn from the list (more than one: their sum)
    to: Expr | None = None  # give: the seat that receives the tiles


@dataclass(frozen=True)
class Action(Node):
    """A move a player may make on an event, with its conditions, priority and effects."""

    name: str
    on: str
    by: str = "self"
    forms: tuple[str, ...] = ()
    then: str = "none"
    compulsory: bool = False
    when: Expr | None = None
    effects: tuple[Effect, ...] = ()
    decline: tuple[Effect, ...] = ()
    choices: tuple[Expr, ...] = ()
    choice_when: Expr | None = None  # which choices are open (with `choice` bound)
    choice_list: Expr | None = None  # `choices = EXPR`: a list computed when offered, each item one choice
    instead_of: str = ""
    also_on: tuple[str, ...] = ()  # further events that open the action
    wins: bool = False  # the action is a win
    win_forms: tuple[str, ...] = ()  # a win only by these winning forms (empty: any)
    win_tile: str = ""  # drawn | claimed | last_dealt | best_wait | none
    # Several claimants of one priority level are asked in seat order starting WITH this seat (itself
    # first when it is a claimant): seat = the seat after the event's actor; robbed, discarder, actor, dealer.
    order: str = "seat"
    multiple: bool = True  # several claimants may all take it (一炮多响-like); false: only the first
    follow: tuple[str, ...] = ()  # compulsory follow-up actions done before `then`
    ready: bool = False  # taking it declares the actor ready (`seat.ready`, the `ready` event)
    grow: str = "any"  # of the kinds it forms that grow: `new` forms one anew only, `extend` only adds to one
    select: int = 0  # a decision whose value is this many of the actor's concealed tiles (0: not one)
    together: bool = False  # asked of every seat at once at the hand's start; applied when all have answered


@dataclass(frozen=True)
class Hook(Node):
    """Effects applied when an event happens and `when` holds."""

    event: str
    when: Expr | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Restrict(Node):
    """Actions a player may not take while `when` holds (`actor`, `tile` bound)."""

    name: str
    actions: tuple[str, ...]
    when: Expr


@dataclass(frozen=True)
class Observe(Node):
    """What a player sees beyond the default: `what` of `owner` is shown to `viewer` when `when` holds."""

    name: str
    what: str  # hand | drawn | melds | kong_tiles
    when: Expr


@dataclass(frozen=True)
class Section(Node):
    """A titled section of the rule file's pages."""

    name: str
    title: str


@dataclass(frozen=True)
class RuleSet:
    """A whole rule set: the root of the IR a compiled JSON file holds."""

    variant: Variant
    tiles: Tiles
    table: Table
    settings: tuple[Setting, ...] = ()
    reveals: tuple[Reveal, ...] = ()
    wilds: tuple[Wild, ...] = ()
    standins: tuple[Standin, ...] = ()
    melds: tuple[MeldKind, ...] = ()
    forms: tuple[WinForm, ...] = ()
    requires: tuple[Requirement, ...] = ()
    units: tuple[Unit, ...] = ()
    patterns: tuple[Pattern, ...] = ()
    combines: tuple[Combine, ...] = ()
    quantities: tuple[Quantity, ...] = ()
    score: Score | None = None
    payments: tuple[Payment, ...] = ()
    fees: tuple[Fee, ...] = ()
    caps: tuple[Cap, ...] = ()
    tasks: tuple[Task, ...] = ()
    states: tuple[StateVar, ...] = ()
    phases: tuple[Phase, ...] = ()
    actions: tuple[Action, ...] = ()
    priority: tuple[tuple[str, ...], ...] = ()
    hooks: tuple[Hook, ...] = ()
    restricts: tuple[Restrict, ...] = ()
    observes: tuple[Observe, ...] = ()
    examples: tuple[Example, ...] = ()
    sections: tuple[Section, ...] = ()
    source: str = ""
    priority_span: Span = NO_SPAN  # the `priority` statement

    # Small lookups used everywhere; computed, never stored.
    def pattern(self, name: str) -> Pattern | None:
        return next((p for p in self.patterns if p.name == name), None)

    def setting(self, name: str) -> Setting | None:
        return next((s for s in self.settings if s.name == name), None)

    @cached_property
    def _meld_index(self) -> dict[str, MeldKind]:
        """Meld kinds by name, the first of a name winning (the game engine asks per offer)."""
        index: dict[str, MeldKind] = {}
        for m in self.melds:
            index.setdefault(m.name, m)
        return index

    def meld(self, name: str) -> MeldKind | None:
        return self._meld_index.get(name)
