"""The game engine: one hand of a rule set as a state machine.

    game = Game(rules, {"OPTION": value}, seed=7)
    while not game.is_over():
        seat = game.current_seats()[0]
        game.apply(seat, game.legal_moves(seat)[0])
    game.result()

The model below is the contract between a rule file and the engine; docs/engine.md states the same
model with the reasons for each choice.

Hand start
    The catalog's tiles (every kind × its copies under the room options) are shuffled with
    random.Random(seed). Each `reveal … at deal` flips a tile from its declared end (after `offset`
    tiles): a tile with its `skip` attribute is set aside face up and the next one flipped; with
    `removes_copy` the flipped copy leaves play, otherwise it stays in the wall, pinned (draws from the
    replacement end pass over it; a draw from the head takes it when the head reaches it). Its kind is
    the reveal's value (a context value for scoring). Then `table.hand` tiles go to each player,
    dealer first in play order, and `dealer_extra` more to the dealer (the last of them is the "last
    dealt" tile). Flowers (category flower) are set aside and replaced from the replacement end, in
    rounds, dealer first, until nobody holds one. One `task`, if the rule set declares any, is drawn at
    random for the hand. Player and table states start from their initial values every hand, except those
    declared `lives session`, which keep their values across the hands of a session; phases and context
    values always start afresh.
Seats and rotation
    Seats are numbered 0..players-1 in counter-clockwise order; `next(s)` is s+1 (s-1 when the table's
    rotation is clockwise). The first dealer is seat 0 (`first_dealer owner`) or drawn at random.
Deal and opening
    The `deal` event is raised; then the wins it opens are offered to every seat at once and resolved
    like a claim window (priority, then order after the dealer). If nobody wins, each player in turn,
    dealer first, is offered the other actions opened by `deal` (by self / any / dealer / non_dealer):
    melds formed from the hand (kongs take a replacement tile and the player is asked again, its wins
    included), or pass. Wins: `win_tile last_dealt` (the dealer's last dealt tile, self-drawn), `none`
    (the hand as it stands), `best_wait` (the best tile waited on; a dealer holding its extra tile gives
    one up first). The same for `opening`.
Turn
    The player to move draws from the head of the wall (`draw`), except on the dealer's first turn,
    which starts with the last dealt tile as its drawn tile; then `turn` is raised. Legal moves: a
    `discard` of each distinct concealed tile that no `restrict` on `discard` forbids (`actor`, `tile`
    bound); every action opened by `turn` or `draw` for the player (by self or any) whose guard holds,
    that no `restrict` forbids, and that can be done: a `wins` action when the hand with the drawn tile
    as winning tile, self-drawn, wins (Rules' scoring, after a fast structural test); a `forms K`
    action for every meld of kind K the hand can make (runtime/game/moves.py), with `tile` bound to the
    tile the meld uses (an added tile, else its lowest tile); tiles fitting several kinds the action
    forms are offered as the kind of highest `value` (equal values: one move per kind, each naming it),
    so no two legal moves are equal. Actions with `instead_of W` are offered
    beside W and mean declining W (the turn goes on without the win). Compulsory actions are taken
    without asking — except one with no meld, win, choice, effect, follow-up or guard opened only by
    `turn`/`draw`: it restates the engine's own draw or discard and is not taken. A player with no
    allowed discard may `pass` (the turn passes without a discard) unless a `restrict` forbids `pass`.
    After `then replace` the player draws a replacement from the `table.replacement` end (`draw`) and
    is asked again; after `then discard` (and after a claim) only discards are offered; `then
    next_turn` ends the turn without a discard; `then auto` hands the seat to the engine (below).
Turned cards
    When actions are opened by `reveal`, a draw from the head lies face up on the drawer's discard
    pile: the drawer alone is offered its `draw`/`turn` melds with the card; otherwise
    `reveal` is raised and every seat is asked at once (wins — self-drawn for the drawer —, melds with
    the card, plain actions that take it into the hand), resolved by priority then `order` (`order
    actor`: the drawer first); unclaimed, the card stays on the pile and the next seat draws. A
    compulsory move is taken unasked only when nothing the seat is offered ranks higher. The dealer's
    first turn offers discards only.
Follow-ups
    After an action with `follow`, its follow-ups (melds with the action's tile wholly from the hand,
    or plain actions) are offered to the same player while legal, compulsory ones taken, before `then`.
Discard and claims
    A discard raises `discard`. The discarder is first offered the actions `discard` opens `by self`
    (declarations such as readiness). Then every other player gets, at once, the actions `discard`
    opens for it (`by others`, `next` = the discarder's next seat only, `previous`, `any`) that apply
    to the tile: a meld of the action's kinds made of the tile and concealed tiles; a win with the hand
    plus the tile (not self-drawn, `win_tile claimed`); plus `pass`. When everyone has answered, the
    answers are resolved by `priority` (an unlisted action ranks below every listed one), then by the
    action's `order` (seat order starting after the discarder — or after the robbed player, the actor,
    the dealer); the first answer wins; several wins at the top level all stand when their action has
    `multiple` (one discard, several winners). Answers that neither win nor lay down a meld (an `instead_of` choice) are
    applied and count as passes. Every action a player was offered and did not choose is declined:
    its `decline` effects run and `decline` is raised. A claim moves the tile from the discarder's
    discards into the claimant's new meld, runs the action's effects, raises `claim`, the action's name
    and (for a kong kind) `kong`, and continues by its `then`. Without a claim the next player draws;
    when the wall holds no more than `table.exhaust_at` tiles the hand is an exhaustive draw.
Added kong
    A meld that grows by one tile on the own turn (a kind with `upgrades`, or a `grows` kind
    extending its meld) first raises `added_kong`: the other players may rob the tile with the actions
    it opens (wins, and melds such as a robbing pung). A robbed kong is not made (its action's name and
    `kong` are not raised, so their payments are not made); its effects already ran. The robbed player
    is also the `discarder` of the winning tile.
Wins
    `win_offer` is raised when a player could win; the offered moves are the wins actions open in the
    situation and the `instead_of` actions naming them. A win runs the action's effects, raises its
    name, flips the `at win` reveals (unless their `unless` holds), scores the hand provisionally (for
    hooks that read the reading or `task_factor`), raises `win` (its hooks may set context values), scores
    it again with the final context, and makes the payments on `win` with `score` and the reading of the
    winner bound. With several winners each goes through these steps in order. The winning tile stays
    where it was (the discarder's discards, or the player's own hand).
Hand end
    `exhaust` (an exhaustive draw) or the wins, then `hand_end`: its hooks, its payments, the decisions
    it opens (`by winner`, `loser`, …; an action's name opens further decisions, e.g. an answer by the
    other player; compulsory ones are taken), then the payments with `after`, then `settled`. The next
    dealer is `table.next_dealer` evaluated at the end (`won`, `winner`, `dealer`, `last_drawer`,
    `next(seat)`); without it the dealer stays.
Events
    Within one event: phase triggers are evaluated against the state before any of them changes (player
    phases for the event's actor), then phases change (raising `phase_enter` / `phase_leave`), then the
    hooks run in file order, then the event's payments, then the actions it opens. `emit NAME` raises
    NAME after the current hook (hooks and payments). Every action taken raises its own name.
Auto seats
    A seat under `then auto` is asked only about wins (and their `instead_of` alternatives); otherwise
    the engine discards its drawn tile (or its first allowed tile) and it never claims.
Effects
    `set/add/remove/clear` on a player state of a bound seat (`actor.X`, `winner.X`, …), a table state
    (`table.X`) or a context value (kept for the hand and passed to scoring); `add`/`remove` on a list
    state append/remove an element or a list. A failing expression is recorded (`Game.errors`) and the
    effect skipped; a failing guard is false.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from typing import Any

from ..evaluate import EvalError, compile_expr
from ..hand import Hand, HandError, Meld
from ..ir import nodes as ir
from ..limits import MAX_TABLE_SIZE
from ..reading import Group, RTile
from ..rules import Rules, ScoreResult, Scoring, load
from ..scoring import ReadingEvaluator
from ..tiles import TileInfo
from . import settle
from .engine_limits import unexecuted
from .moves import PASS, MeldOption, Move, check_move, describe, meld_options, one_kind_per_meld
from .program import ENGINE_OFFERED, CAction, program_for
from .scope import GAME_DEFAULTS, GameEnv
from .state import GMeld, HandState, Seat, TableFields, plain

DEFAULT_BALANCE = 1000
_MAX_DEPTH = 16  # events raised by events (emit, decisions on an action's name) nest at most this deep
_EVAL_ERRORS = (EvalError, TypeError, KeyError, AttributeError, ValueError, ZeroDivisionError)
_MISSING = object()
_PLAIN = (bool, int, str, Fraction)
_BUILTIN_KEYS: dict[str, str] = {}  # binding name -> its environment key ("builtin:actor"), made once
_NAME = attrgetter("name")


class GameError(Exception):
    """The rule set or the room options cannot be played by this engine (one sentence)."""


def _kind_of(v) -> str:
    """What a value is, for a message that must not echo it."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    return {int: "a number", float: "a number", str: "text", list: "a list", dict: "a dict",
            tuple: "a tuple"}.get(type(v), type(v).__name__)


def _option_value_problem(s: ir.Setting, v) -> str | None:
    """Why a room option's value cannot be taken (a value as a caller or a log gives it), or None.
    Numbers are exact: a float is taken only where the option is a number (`num`) and it is finite."""
    if isinstance(v, str):
        return None if len(v) <= 100 else "the value is too long"
    if s.type == "bool":
        return None if isinstance(v, bool) else f"takes true or false, not {_kind_of(v)}"
    if isinstance(v, bool):
        return f"takes {'a number' if s.type in ('int', 'num', 'seat') else 'a tile'}, not true or false"
    if s.type in ("int", "seat"):
        if isinstance(v, int):
            return None if v.bit_length() <= 64 else "the number is too large"
        if isinstance(v, Fraction) and v.denominator == 1:
            return None
        return f"takes a whole number, not {_kind_of(v) if not isinstance(v, (float, Fraction)) else v}"
    if s.type == "num":
        if isinstance(v, Fraction) or (isinstance(v, int) and v.bit_length() <= 64):
            return None
        if isinstance(v, float):
            return None if math.isfinite(v) else f"takes a finite number, not {v}"
        return f"takes a number, not {_kind_of(v)}"
    return f"takes a tile name, not {_kind_of(v)}"


def _num_text(n: int) -> str:
    return str(n) if n.bit_length() <= 64 else "a very large number"


class IllegalMove(ValueError):
    """A move that is not allowed now; the state is unchanged (one sentence)."""


@dataclass
class Ask:
    """A decision point: the seats asked and each one's legal moves."""

    kind: str  # deal | turn | self | claim | rob | window
    options: dict[int, list[Move]]
    event: str = ""
    actor: int | None = None
    tile: TileInfo | None = None


@dataclass
class WinInfo:
    seat: int
    tile: TileInfo | None
    self_drawn: bool
    concealed: list[TileInfo]  # without the winning tile
    result: ScoreResult
    scoring: Scoring
    discarder: int | None = None
    robbed: int | None = None
    action: str = ""
    _reading: Any = None
    scored_at: int = -1  # the context version it was scored under (the same version scores the same)

    def reading_env(self, game: Game):
        if self._reading is None and self.result.evaluation is not None:
            r = self.result.evaluation.reading
            sc = self.scoring
            self._reading = ReadingEvaluator(game.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand).env
        return self._reading


@dataclass
class _Offer:
    """What a move stands for, beside the move itself."""

    action: CAction | None
    meld: MeldOption | None = None
    win: WinInfo | None = None
    compulsory: bool = False


_NO_OFFER = _Offer(None)  # a discard or a pass: no action behind it (offers are never changed)

# the situations a win can happen in, and which declared actions open a win in each
_WIN_CTX_EVENTS = {"self": ("turn", "draw"), "discard": ("discard",), "added_kong": ("added_kong",),
                   "reveal": ("reveal",), "deal": ("deal",), "opening": ("opening",)}
_WIN_TILE_OK = {"self": ("", "drawn"), "discard": ("", "claimed"), "added_kong": ("", "claimed"),
                "reveal": ("", "drawn", "claimed"),
                "deal": ("", "last_dealt", "none", "best_wait"),
                "opening": ("", "last_dealt", "none", "best_wait")}


def unsupported(rs: ir.RuleSet) -> list[str]:
    """What this rule set asks of the engine that it does not execute, as sentence fragments with their
    place (the checker's W605 list: `runtime/game/engine_limits.py`)."""
    return [f"{what} ({span})" for what, span in unexecuted(rs)]


class Game:
    """One hand. `options` are room options by name; `seed` decides the shuffle and every random draw.

    Keyword arguments: `dealer` (seat), `balances` (per seat, default 1000 each), `table` (table state
    values carried from an earlier hand), `players` (per seat, player state values carried likewise;
    only states declared `lives session` take a carried value), `wall` / `tail` (tile notation lists
    fixing the first and the last tiles of the wall, for scenarios), `check` (verify invariants after
    every move), `require_decision` (refuse a move that does not say which decision it answers: for
    servers relaying moves from clients; see `apply`)."""

    # Exact shortcuts (a hand that cannot be ready, a seat that cannot claim, …) taken before the full
    # computation they stand for; turned off only to show that play is identical without them.
    shortcuts = True

    def __init__(self, rules: Rules | str | Path, options: dict | None = None, seed: int = 0, *,
                 dealer: int | None = None, balances: list | None = None, table: dict | None = None,
                 wall: list[str] | str | None = None, tail: list[str] | str | None = None, check: bool = True,
                 players: list[dict] | None = None, require_decision: bool = False):
        if not isinstance(rules, Rules):
            rules = load(rules)
        self.rules = rules
        self.rs = rs = rules.ir
        self.prog = program_for(rules)
        missing = unsupported(rs)
        if missing:
            raise GameError(f"this engine does not execute {'; '.join(missing)}, which {rs.variant.id} uses")
        if options is not None and not isinstance(options, dict):
            raise GameError(f"room options are given by name (a dict), not as {type(options).__name__}")
        self.options = dict(options or {})
        self.seed = seed
        self.require_decision = require_decision
        self.decision = 0  # the number of the decision now asked (1 for the first), see `apply`
        self.settings = self._settings(self.options)
        try:
            self.cat, self.dec = rules.catalog_for(self.settings)
        except HandError as exc:  # the options set up more tiles or wildcards than the limits allow
            raise GameError(str(exc)) from None
        cat = self.cat
        self.setup_env = dict(self.settings)
        self.setup_env["tile-lookup"] = lambda name: cat.by_name.get(name)
        n = int(self.prog.players(self.setup_env))
        if n < 2:
            raise GameError(f"a game needs at least two players, and these options give {n}")
        if n > MAX_TABLE_SIZE:
            raise GameError(f"these options give {n} players; the limit is {MAX_TABLE_SIZE}")
        self.n = n
        self.step = -1 if rs.table.rotation == "clockwise" else 1
        self.rng = random.Random(seed)
        if dealer is None:
            dealer = 0 if rs.table.first_dealer == "owner" else self.rng.randrange(n)
        self.check = check
        self.errors: list[str] = []
        self.violations: list[str] = []
        self.moves: list[tuple[int, Move]] = []
        self.fee_rate = sum((Fraction(f(self.setup_env)) for _, f in self.prog.fees), Fraction(0))
        self.start_balances = list(balances) if balances is not None else [DEFAULT_BALANCE] * n
        # tiles
        kind_of = [k for k in cat.kinds for _ in range(k.copies)]
        self.initial_counts = Counter(k.name for k in kind_of)
        self._n_tiles = len(kind_of)
        deal = n * rs.table.hand + rs.table.dealer_extra
        if self._n_tiles < deal:  # refused before dealing from a wall that runs out
            raise GameError(f"the wall has {self._n_tiles} tiles and the deal needs {deal} ({n} players × "
                            f"{rs.table.hand}, and {rs.table.dealer_extra} more for the dealer)")
        ids = self._shuffled_wall(kind_of, wall, tail)
        seats = [Seat(i, self) for i in range(n)]
        self.st = st = HandState(n=n, dealer=dealer, kind_of=kind_of, wall=ids, seats=seats)
        st.deltas = [0] * n
        for s, b in zip(seats, self.start_balances):
            s.balance = b
        # states, phases, context values: a state that lives for the session takes the value carried from
        # the hand before; every other one (and every phase) starts from its initial value
        for sv, init in self.prog.states:
            session = sv.lives == "session"
            if sv.scope == "player":
                for s in seats:
                    carried = players[s.index] if session and players is not None and s.index < len(players) \
                        else None
                    if carried is not None and sv.name in carried:
                        s.vars[sv.name] = self._carried(carried[sv.name])
                    else:
                        s.vars[sv.name] = self._init_value(sv, init)
            elif session and table is not None and sv.name in table:
                st.table[sv.name] = self._carried(table[sv.name])
            else:
                st.table[sv.name] = self._init_value(sv, init)
        for ph in rs.phases:
            if ph.scope == "player":
                for s in seats:
                    s.vars[ph.name] = False
            else:
                st.table[ph.name] = False
        for s in rs.settings:
            if s.role == "context":
                st.context[s.name] = self.settings.get(f"context:{s.name}")
        for r in rs.reveals:
            st.reveals[r.name] = None
        self._hand_wild: set[str] = set()
        self._win_wild: set[str] = set()
        self._update_wilds()  # a wildcard kind of the catalog (not a reveal) is wild from the start
        self._ctx_version = 0
        self._score_env_cache: tuple[int, dict] | None = None
        self._base = self._base_env()
        self._win_actions = self.prog.__dict__.get("_win_index")  # the same for every game of a rule set
        if self._win_actions is None:
            self._win_actions = self.prog.__dict__["_win_index"] = self._index_win_actions()
        self._instead = [a for a in self.prog.actions.values() if a.ir.instead_of]
        self._precheck = self._precheck_targets()
        self._target_cache: dict[tuple, list] = {}
        self._restrict_cache: dict[str, list] = {}
        self._discard_cache: dict[str, Move] = {}  # moves are immutable values: one per tile kind
        self._offerable_cache: dict[str, list[CAction]] = {}
        self._unusable_cache: dict[tuple[str, str], frozenset[str]] = {}
        self._restrict_plans: dict[str, list] = {}
        self._instant_of: dict[tuple, tuple] = {}
        # what each event can touch, so that an event with no phase trigger or moving reveal skips them
        self._phase_events = {e for ph in self.prog.phases for e in (*ph.enter, *ph.leave)}
        self._moving_reveals = any(moves_when is not None for _, moves_when, _ in self.prog.reveals)
        self.mk = {m.name: m for m in rs.melds}
        self._forms_rules: dict[tuple, Rules] = {}
        self._win_cache: dict[tuple, WinInfo | None] = {}
        self.infos: dict[int, WinInfo] = {}
        self.pending: Ask | None = None
        self.answers: dict[int, Move] = {}
        self._depth = self._emit_depth = 0
        self._flow = self._hand()
        self._advance(None)

    # ================================================================== public API

    def current_seats(self) -> list[int]:
        if self.pending is None:
            return []
        return [s for s in sorted(self.pending.options) if s not in self.answers]

    def _seat_arg(self, seat) -> int:
        """A seat given by a caller: an int (not a bool, not a float) of this game; IllegalMove otherwise."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalMove(f"a seat is a whole number from 0 to {self.n - 1}, not {_kind_of(seat)}")
        if not 0 <= seat < self.n:
            shown = seat if seat.bit_length() <= 64 else "a very large number"
            raise IllegalMove(f"seat {shown} is not a seat of this game (seats 0 to {self.n - 1})")
        return int(seat)

    def legal_moves(self, seat: int) -> list[Move]:
        """The moves seat may make now, each carrying the number of the decision it answers."""
        seat = self._seat_arg(seat)
        if self.pending is None or seat in self.answers:
            return []
        return list(self.pending.options.get(seat, []))

    def apply(self, seat: int, move: Move) -> None:
        """Apply seat's answer to the decision now asked. Refused (IllegalMove, one short sentence, the
        state unchanged): a seat that is not an int of this game, a value that is not a well-formed
        Move, a move stamped with an earlier decision (stale, even if an equal move is legal again), a
        move without a decision when the game requires one, and any move not legal now. A move without
        a decision (`Move("discard", ("5m",))`, a log line written before decisions were numbered) is
        taken as an answer to the current decision: safe for a caller that applies moves in order."""
        seat = self._seat_arg(seat)
        bad = check_move(move)
        if bad is not None:
            raise IllegalMove(bad)
        if self.st.over:
            raise IllegalMove("the hand is over, so no move can be applied")
        ask = self.pending
        if ask is None:
            raise IllegalMove("no decision is asked now")
        if move.decision is None and self.require_decision:
            raise IllegalMove("this game requires each move to say which decision it answers (take the moves "
                              "from legal_moves)")
        if move.decision is not None and move.decision != self.decision:
            raise IllegalMove(f"`{describe(move)}` answers decision {_num_text(move.decision)}, which is over "
                              f"(the decision now asked is {self.decision})")
        if seat not in ask.options or seat in self.answers:
            raise IllegalMove(f"seat {seat} may not act now (waiting for seat "
                              f"{', '.join(map(str, self.current_seats()))})")
        legal = ask.options[seat]
        if move not in legal and move.meld is None:
            # a move without its meld kind (a log written before moves named it, or a caller that
            # leaves it out) stands for the one legal move with the same action, tiles and choice
            same = [m for m in legal if m.meld is not None and m.without_meld() == move]
            if len(same) == 1:
                move = same[0]
        if move not in legal:
            shown = ", ".join(map(str, legal[:12])) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
            raise IllegalMove(f"`{describe(move)}` is not a legal move for seat {seat} now (legal: {shown})")
        self.answers[seat] = move
        self.moves.append((seat, move))
        if len(self.answers) == len(ask.options):
            answers, self.answers, self.pending = self.answers, {}, None
            self._advance(answers)
        if self.check:
            problems = self._check_move()
            if problems:
                self.violations.extend(problems)

    def is_over(self) -> bool:
        return self.st.over

    def observation(self, seat: int) -> dict:
        from .observe import observation

        return observation(self, self._seat_arg(seat))

    def result(self) -> dict:
        st = self.st
        return {
            "over": st.over, "winners": list(st.winners), "exhausted": st.exhausted, "dealer": st.dealer,
            "discarder": st.discarder, "robbed": st.robbed, "next_dealer": st.next_dealer, "task": st.task,
            "scores": {w: st.results[w] for w in st.winners if w in st.results},
            "payments": [p.to_json() for p in st.payments], "deltas": [plain(d) for d in st.deltas],
            "fees": plain(st.fees), "balances": [plain(s.balance) for s in st.seats],
            "events": dict(sorted(st.events.items())),
        }

    def snapshot(self) -> dict:
        """Everything about the hand, as plain data (equal snapshots: equal states)."""
        out = self.st.snapshot()
        out["pending"] = None if self.pending is None else {
            "kind": self.pending.kind, "event": self.pending.event,
            "options": {s: [str(m) for m in ms] for s, ms in self.pending.options.items()}}
        out["answers"] = {s: str(m) for s, m in self.answers.items()}
        out["moves"] = [(s, str(m)) for s, m in self.moves]
        out["errors"] = list(self.errors)
        return out

    def table_values(self) -> dict:
        """Table states to carry into the next hand (those that live for the session; seats as numbers)."""
        names = {s.name for s in self.rs.states if s.scope == "table" and s.lives == "session"}
        return {k: self._plain_carry(v) for k, v in self.st.table.items() if k in names}

    def player_values(self) -> list[dict]:
        """Per seat, the player states to carry into the next hand (those that live for the session)."""
        names = [s.name for s in self.rs.states if s.scope == "player" and s.lives == "session"]
        return [{k: self._plain_carry(seat.vars[k]) for k in names} for seat in self.st.seats]

    @staticmethod
    def _plain_carry(v):
        return {"seat": v.index} if isinstance(v, Seat) else (list(v) if isinstance(v, list) else v)

    def check_invariants(self) -> list[str]:
        st = self.st
        out = []
        now = st.tiles_everywhere()
        if now != self.initial_counts:
            diff = (now - self.initial_counts) + (self.initial_counts - now)
            out.append(f"tiles not conserved: {dict(diff)}")
        return out + self._money_problems()

    def _money_problems(self) -> list[str]:
        """The payments balance apart from the fee, and every balance is its start plus its payments."""
        st = self.st
        out = []
        if sum(st.deltas) + st.fees != 0:
            out.append(f"payments do not balance: deltas {st.deltas}, fees {st.fees}")
        for s, b in zip(st.seats, self.start_balances):
            if s.balance != b + st.deltas[s.index]:
                out.append(f"seat {s.index}'s balance {s.balance} is not its start {b} plus its payments")
        return out

    def _check_move(self) -> list[str]:
        """The invariants after one move: the number of tiles and the money every move, the full count
        by kind (`check_invariants`) when the count is off and once the hand is over. A tile lost or
        duplicated shows at once; one turned into another kind shows by the end of the hand at the latest."""
        st = self.st
        if not self.shortcuts or st.over:
            return self.check_invariants()
        n = len(st.wall) + len(st.out)
        for s in st.seats:
            n += len(s.hand) + len(s.discards) + len(s.aside)
            for m in s.melds:
                n += len(m.tiles)
        if n != self._n_tiles:
            return self.check_invariants()
        return self._money_problems()

    def note_error(self, text: str) -> None:
        if len(self.errors) < 100:
            self.errors.append(text)

    # ================================================================== setup

    def _settings(self, options: dict) -> dict:
        rules = self.rules
        for name in options:
            s = self.rs.setting(name)
            if s is None or s.role != "option":
                known = ", ".join(x.name for x in self.rs.settings if x.role == "option") or "none"
                raise GameError(f"'{str(name)[:40]}' is not a room option of this rule set (its options: {known})")
            problem = _option_value_problem(s, options[name])
            if problem:
                raise GameError(f"room option {name}: {problem}")
        try:
            return rules.settings_env(options)
        except HandError as exc:
            raise GameError(str(exc)) from None

    def _shuffled_wall(self, kind_of, head, tail) -> list[int]:
        ids = list(range(len(kind_of)))
        self.rng.shuffle(ids)
        if not head and not tail:
            return ids
        from ..hand import parse_tiles

        def take(text):
            names = [t.name for t in parse_tiles(self.rules.notation, self.cat, "".join(text), "wall")]
            picked = []
            for name in names:
                i = next((x for x in ids if kind_of[x].name == name), None)
                if i is None:
                    raise GameError(f"the wall asks for more copies of {name} than there are")
                ids.remove(i)
                picked.append(i)
            return picked

        first = take(head) if head else []
        last = take(tail) if tail else []
        return first + ids + last

    def _init_value(self, sv: ir.StateVar, init):
        v = init(self.setup_env) if init is not None else None
        if v is None:
            v = {"bool": False, "int": 0, "num": 0, "tiles": []}.get(sv.type)
        return list(v) if isinstance(v, list) else v

    def _carried(self, v):
        if isinstance(v, dict) and "seat" in v:
            return self.st.seats[v["seat"]]
        return v

    def _base_env(self) -> dict:
        cat = self.cat
        st = self.st
        base = dict(self.settings)
        base.update(GAME_DEFAULTS)
        base["tile-lookup"] = lambda name: cat.by_name.get(name)
        base["game-functions"] = {
            "visible_count": self.visible_count,
            "next": lambda s: st.seats[(s.index + self.step) % self.n] if s is not None else None,
            "held": lambda s, t: s.held(t) if s is not None and t is not None else 0,
            "waits_without": self.waits_without,
            "group_waits_without": lambda seat, tile: self.waits_without(seat, tile, groups=True),
        }
        base["builtin:dealer"] = st.seats[st.dealer]
        base["builtin:players"] = self.n
        base["builtin:table"] = TableFields(st.table)
        return base

    def env(self, reading=None, **bind) -> GameEnv:
        e = GameEnv(self._base)
        e.game = self
        e.reading = reading
        keys = _BUILTIN_KEYS
        for k, v in bind.items():
            key = keys.get(k)
            if key is None:
                key = keys[k] = "builtin:" + k
            e[key] = v
        return e

    def _true(self, fn, reading=None, **bind) -> bool:
        if fn is None:
            return True
        try:
            return bool(fn(self.env(reading, **bind)))
        except _EVAL_ERRORS as exc:
            self.note_error(f"condition: {exc}")
            return False

    def _set_context(self, name: str, value) -> None:
        old = self.st.context.get(name, _MISSING)
        self.st.context[name] = value
        self._base[f"context:{name}"] = value
        # Caches of waits, wins and the scoring environment are keyed by this version: setting a value
        # it already has (a plain value, or the very same object) leaves them valid.
        if not (self.shortcuts and (old is value or (type(old) is type(value) and type(value) in _PLAIN
                                                     and old == value))):
            self._ctx_version += 1

    def _set_reveal(self, name: str, value) -> None:
        self.st.reveals[name] = value
        self._unusable_cache.clear()  # a wildcard named by a reveal may have changed
        self._base[f"reveal:{name}"] = value
        self._ctx_version += 1
        self._update_wilds()

    def _update_wilds(self) -> None:
        hand, win = set(), set()
        for w in self.rs.wilds:
            kind = self.cat.by_name.get(w.tiles)
            if kind is None:
                kind = self.st.reveals.get(w.tiles)
            if kind is not None:
                (win if w.scope == "win_tile" else hand).add(kind.name)
        self._hand_wild, self._win_wild = hand, win

    @property
    def hand_wild_names(self) -> set[str]:
        return self._hand_wild

    def tv(self, t: TileInfo | None):
        """A tile as game rules see it: `t.wild` holds for the copies of a wildcard kind."""
        if t is None or t.name not in self._hand_wild:
            return t
        cache = self.__dict__.setdefault("_wild_tiles", {})
        w = cache.get(t.name)
        if w is None:
            w = cache[t.name] = TileInfo(t.name, t.index, t.category, t.suit, t.rank, t.copies, t.glyph,
                                         t.char, t.code, dict(t.attrs), {**t.f, "wild": True})
        return w

    # ================================================================== values expressions read

    def seat_of(self, i: int | None) -> Seat | None:
        return self.st.seats[i] if i is not None else None

    def next_seat(self, s: int) -> int:
        return (s + self.step) % self.n

    def order_from(self, start: int, include_start: bool = True) -> list[int]:
        seq = [(start + self.step * k) % self.n for k in range(self.n)]
        return seq if include_start else seq[1:] + seq[:1]

    def distance(self, ref: int, s: int) -> int:
        d = ((s - ref) * self.step) % self.n
        return d or self.n

    def visible_count(self, t: TileInfo | None) -> int:
        if t is None:
            return 0
        if not self.shortcuts:
            return self._visible_count(t.name)
        # Asked after every event (a reveal's `moves_when`): kept until a tile could have moved in or
        # out of sight — every such move changes a seat's version or a length below.
        st = self.st
        key = (len(st.out), len(st.pinned), len(st.wall), sum(map(len, st.reveal_ids.values())),
               tuple((s.version, len(s.discards), len(s.aside)) for s in st.seats))
        c = self.__dict__.get("_visible")
        if c is None or c[0] != key:
            c = self.__dict__["_visible"] = (key, {})
        n = c[1].get(t.name)
        if n is None:
            n = c[1][t.name] = self._visible_count(t.name)
        return n

    def _visible_count(self, name: str) -> int:
        st = self.st
        n = list(map(_NAME, st.out)).count(name)
        for s in st.seats:
            n += list(map(_NAME, s.discards)).count(name) + list(map(_NAME, s.aside)).count(name)
            for m in s.melds:
                shown = m.tiles if m.exposed else self._shown(m)
                n += list(map(_NAME, shown)).count(name)
        for r in self.rs.reveals:
            if r.visible:
                n += sum(1 for i in st.reveal_ids.get(r.name, ()) if i in st.pinned and st.kind_of[i].name == name)
        return n

    def _shown(self, m: GMeld) -> list[TileInfo]:
        mk = self.mk.get(m.kind)
        k = mk.shown if mk is not None and mk.shown is not None else 0
        return sorted(m.tiles, key=lambda t: t.index)[:k]

    def meld_groups(self, seat: Seat) -> list[Group]:
        key = ("groups", seat.version)
        cached = seat.__dict__.get("_groups")
        if cached is not None and cached[0] == key:
            return cached[1]
        out = []
        for m in seat.melds:
            mk = self.mk.get(m.kind)
            tiles = [RTile(t) for t in m.tiles]
            out.append(Group(m.kind, tiles, exposed=mk.exposed, concealed=not mk.exposed, is_pair=mk.pair,
                             is_kong=mk.kong, declared=True))
        seat.__dict__["_groups"] = (key, out)
        return out

    def waits(self, seat: Seat, groups: bool = False) -> list[TileInfo]:
        """The kinds the seat's concealed hand waits on; with `groups`, only by the forms that split the
        hand into melds and pairs (`group_waits`: not by an `instant` or `orphans` form)."""
        if groups and not self._group_forms_differ():
            groups = False
        slot = "_group_waits" if groups else "_waits"
        key = (seat.version, self._ctx_version)
        cached = seat.__dict__.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        if self.shortcuts and self._not_ready(seat.hand, seat.melds, seat):
            kinds = []
        else:
            kinds = self._waits_of(seat, list(seat.hand), groups)
        seat.__dict__[slot] = (key, kinds)
        return kinds

    def _group_forms(self) -> tuple[str, ...]:
        """The winning forms that split a hand into melds and pairs (not `instant`, not `orphans`)."""
        got = self.prog.__dict__.get("_group_forms")
        if got is None:
            got = self.prog.__dict__["_group_forms"] = tuple(
                f.name for f, _, _ in self.rules._forms if f.instant is None and not f.orphans)
        return got

    def _group_forms_differ(self) -> bool:
        return len(self._group_forms()) != len(self.rules._forms)

    def waits_without(self, seat: Seat | None, tile, groups: bool = False) -> list[TileInfo]:
        """What the seat's concealed hand would wait on after giving up one `tile` (with `groups`: by the
        forms that split the hand into melds and pairs only)."""
        if seat is None or tile is None:
            return []
        name = tile.kind.name if isinstance(getattr(tile, "kind", None), TileInfo) else tile.name
        hand = list(seat.hand)
        for i, t in enumerate(hand):
            if t.name == name:
                del hand[i]
                break
        else:
            return []
        return self._waits_of(seat, hand, groups and self._group_forms_differ())

    def _waits_of(self, seat: Seat, concealed: list[TileInfo], groups: bool = False) -> list[TileInfo]:
        if self.shortcuts and self._not_ready(concealed, seat.melds):
            return []
        only = self._group_forms() if groups else ()
        env = self._score_env()
        h = self.hand_of(seat, concealed, None, False)
        try:
            sc = Scoring(self.rules, self.cat, self.dec, env, h)
            # The scoring runtime's waits (Scoring.wait_kinds): by structure from the block tables when no
            # requirement decides them and every form is melds and pairs; otherwise kind by kind, each
            # first put to the engine's cheap necessary test, then tried in full, requirements included.
            plain = sc._plain_wait_check() if self.rules._plain_waits and not groups else None
            held = Counter(t.name for t in h.all_tiles())
            kinds = []
            for k in self.cat.kinds:
                if k.category == "flower" or held[k.name] >= k.copies:
                    continue
                if plain is not None:
                    if plain(k):
                        kinds.append(k)
                    continue
                if not self._could_win(h.concealed, seat.melds, k, False, only):
                    continue
                trial = self.hand_of(seat, h.concealed, k, False)
                sub = Scoring(self.rules, self.cat, self.dec, env, trial, natural_win=True)
                rs, _ = sub.readings(trial, set(only) if only else None)
                if any(sub.requirements_ok(r, for_waits=True)[0] for r in rs):
                    kinds.append(k)
        except (HandError, *_EVAL_ERRORS):
            kinds = []
        return kinds

    def _free_names(self) -> set[str]:
        """Kinds that may play as another kind in a hand: the hand's wildcards and the stand-ins."""
        c = self.__dict__.get("_free")
        if c is None or c[0] is not self._hand_wild:
            c = self.__dict__["_free"] = (self._hand_wild, self._hand_wild | {s.name for s in self.rs.standins})
        return c[1]

    def _unmendable(self, tiles: list[TileInfo]) -> int:
        """How many tiles these tiles lack, at least, to split into groups (runtime/fastwin.py), beyond
        those of them that may play as another (wildcards, stand-ins): 0 when they might be complete,
        capped at 3. Every group lies in one block. A tile that plays as another — a wildcard, a
        stand-in, or just itself — joins one block; so a hand with d more unsplittable blocks than such
        tiles needs d more tiles. Where a wildcard may play any tile of any hand group, a block needing
        k wildcards at least (its option sets) counts k."""
        free = self._free_names()
        counts = [0] * self.dec.n
        f = 0
        for t in tiles:
            if t.name in free:
                f += 1
            else:
                counts[t.index] += 1
        fast = self.dec.fast
        bad = fast.unsplit_blocks(counts, f + 3)
        if len(bad) - f >= 2 or not bad:
            return len(bad) - f
        if self._wildcards_play_anything():
            return min(3, fast.deficit(counts, f + 3) - f)
        return len(bad) - f

    def _wildcards_play_anything(self) -> bool:
        """Whether a wildcard may stand for any (non-flower) kind in any hand group: then a tile in a
        split can always be swapped for a wildcard, and block deficits (`BlockWin.deficit`) bound how
        many tiles a hand lacks."""
        v = self.__dict__.get("_wild_any")
        if v is None:
            dec = self.dec
            v = dec.fast.cap > 0 and all(dec.wild_ok[k.index] for k in self.cat.kinds if k.category != "flower") \
                and not (dec.no_wild_kinds & {sp.kind for sp in dec.specs})
            self.__dict__["_wild_any"] = v
        return v

    def _natural_blocks(self) -> int:
        """How many blocks hold a kind that is not a wildcard or stand-in: `_unmendable` counts no other,
        so it never exceeds this (a shortcut that needs more is not worth its lookups)."""
        free = self._free_names()
        c = self.__dict__.get("_nat_blocks")
        if c is None or c[0] is not free:
            kinds = self.cat.kinds
            n = sum(1 for blk in self.dec.fast.blocks if any(kinds[k].name not in free for k in blk))
            c = self.__dict__["_nat_blocks"] = (free, n)
        return c[1]

    def _seat_unmendable(self, seat: Seat) -> int:
        """`_unmendable` of the seat's concealed tiles, kept until they change."""
        free = self._free_names()
        c = seat.__dict__.get("_unmendable")  # (version, the free-names set it was counted with, count)
        if c is None or c[0] != seat.version or c[1] is not free:  # `is`: a freed set's id may be reused
            c = seat.__dict__["_unmendable"] = (seat.version, free, self._unmendable(seat.hand))
        return c[2]

    def _hopeless(self, seat: Seat, tile: TileInfo, in_hand: bool, forms: tuple[str, ...]) -> bool:
        """An exact shortcut before `_could_win`: the seat's concealed tiles with the winning tile (among
        them when `in_hand`, else beside them) cannot be split into groups, whatever the forms ask.
        A tile added beside them supplies at most one missing tile (`_unmendable`). Forms that build no
        split (instant, orphans) are never short-cut."""
        fast = self.dec.fast
        if fast is None or self._special_forms(forms):
            return False
        if in_hand and tile.name in self._win_wild and tile.name not in self._free_names():
            return False  # a wildcard only as the winning tile: rare, and not bounded by deficits
        need = 1 if in_hand else 2
        if need > self._natural_blocks() and not self._wildcards_play_anything():
            return False
        return self._seat_unmendable(seat) >= need

    def _special_forms(self, forms: tuple[str, ...]) -> bool:
        c = self.__dict__.setdefault("_special", {})
        v = c.get(forms)
        if v is None:
            v = c[forms] = any((f.instant is not None or f.orphans) and (not forms or f.name in forms)
                               for f, _, _ in self.rules._forms)
        return v

    def _not_ready(self, concealed: list[TileInfo], melds: list[GMeld], seat: Seat | None = None) -> bool:
        """An exact shortcut for most hands that wait on nothing: one more tile mends at most one block
        (`_unmendable`; of `seat`'s hand, kept per version, when the concealed tiles are its hand), so a
        hand short by two blocks is completed by no single tile — unless a form that builds no split
        could still be completed (`_no_special_win`)."""
        if self.dec.fast is None or not (self._natural_blocks() >= 2 or self._wildcards_play_anything()):
            return False
        if (self._seat_unmendable(seat) if seat is not None else self._unmendable(concealed)) < 2:
            return False
        return not self._special_forms(()) or self._no_special_win(concealed, melds)

    def _no_special_win(self, concealed: list[TileInfo], melds: list[GMeld]) -> bool:
        """No form that builds no split is completed by one more tile, by the necessary tests of
        `_could_win`: an orphans form needs no melds and every tile that is not free to have its
        attribute; an instant form needs at least `_instant_wilds` wildcards, and one tile adds at most one."""
        free = self._free_names()
        for f, _, _ in self.rules._forms:
            if f.orphans:
                if not melds and all(t.attrs.get(f.orphans) for t in concealed if t.name not in free):
                    return False
            elif f.instant is not None:
                if sum(1 for t in concealed if t.name in free) + 1 >= self._instant_wilds((f.name,)):
                    return False
        return True

    # ================================================================== scoring

    def hand_of(self, seat: Seat, concealed: list[TileInfo], win: TileInfo | None, self_drawn: bool) -> Hand:
        """A seat's hand as scoring takes it (its melds, and the flowers it set aside)."""
        h = Hand(concealed, [Meld(m.kind, list(m.tiles)) for m in seat.melds], win, self_drawn)
        if hasattr(h, "flowers"):
            h.flowers = [t for t in seat.aside if t.category == "flower"]
        return h

    def _score_env(self) -> dict:
        c = self._score_env_cache
        if c is not None and c[0] == self._ctx_version:
            return c[1]
        env = dict(self.settings)
        for k, v in self.st.context.items():
            env[f"context:{k}"] = v
        for k, v in self.st.reveals.items():
            env[f"reveal:{k}"] = v
        env = self.rules._retile(env, self.cat)
        self._score_env_cache = (self._ctx_version, env)
        return env

    def _rules_for(self, forms: tuple[str, ...]) -> Rules:
        r = self._forms_rules.get(forms)
        if r is None:
            import copy

            r = copy.copy(self.rules)
            r.__dict__ = dict(self.rules.__dict__)
            for k in ("_structural", "_plain_env"):
                r.__dict__.pop(k, None)
            r._forms = [x for x in self.rules._forms if x[0].name in forms]
            self._forms_rules[forms] = r
        return r

    def _precheck_targets(self):
        """A cheap test that rejects hands that cannot win under any reading, form by form: split forms
        by the block tables (wildcards and stand-ins counted as free tiles), `orphans` forms by their
        tiles' attribute, `instant` forms by scoring under those forms alone."""
        return {"instant": tuple(f.name for f, _, _ in self.rules._forms if f.instant is not None)}

    def _could_win(self, concealed: list[TileInfo], melds: list[GMeld], win: TileInfo | None,
                   self_drawn: bool, forms: tuple[str, ...] = ()) -> bool:
        dec = self.dec
        counts = [0] * dec.n
        wilds = 0
        free = self._free_names()
        naturals = []
        for t in concealed:
            if t.name in free:
                wilds += 1
            else:
                counts[t.index] += 1
                naturals.append(t)
        if win is not None:
            if win.name in free or (win.name in self._win_wild):
                wilds += 1
            else:
                counts[win.index] += 1
                naturals.append(win)
        n = len(concealed) + (1 if win is not None else 0)
        has_exposed = any(m.exposed for m in melds)
        key = (n, len(melds), has_exposed, forms)
        plan = self._target_cache.get(key)
        if plan is None:
            probe = Scoring(self.rules, self.cat, dec, {}, Hand([], [], None, False))
            targets, orphans = [], []
            for f, _, _ in self.rules._forms:
                if (forms and f.name not in forms) or (f.concealed and has_exposed) or f.instant is not None:
                    continue
                if f.orphans:
                    need = sum(1 for k in self.cat.kinds if k.attrs.get(f.orphans))
                    if not melds and n == need + 1:
                        orphans.append(f.orphans)
                    continue
                targets.extend((m, p) for m, p in probe._targets(f, len(melds)) if probe._sizes_fit(n, m, p))
            plan = self._target_cache[key] = (list(dict.fromkeys(targets)), orphans)
        targets, orphans = plan
        tup = tuple(counts)
        fast = dec.fast
        if targets and dec.structure is not fast and wilds <= dec.structure.cap:
            if dec.can_split_any(tup, wilds, targets):  # the native core: one call for every target
                return True
        elif targets and fast is not None and wilds <= fast.cap:  # one block lookup for every target
            sid = fast.hand_id(tup) if wilds else fast.hand_id0(tup)
            if any(fast.fits(sid, wilds, m, p) for m, p in targets):
                return True
        elif any(dec.can_split(tup, wilds, m, p) for m, p in targets):
            return True
        if any(all(t.attrs.get(attr) for t in naturals) for attr in orphans):
            return True
        instant = self._instant_of.get(forms)
        if instant is None:
            instant = self._instant_of[forms] = tuple(x for x in self._precheck["instant"] if not forms or x in forms)
        if instant:
            if self.shortcuts and wilds < self._instant_wilds(instant):
                return False  # every instant form asks for more wildcards than the hand could hold
            h = Hand(list(concealed), [Meld(m.kind, list(m.tiles)) for m in melds], win, self_drawn)
            try:
                res = Scoring(self._rules_for(instant), self.cat, dec, self._score_env(), h).run()
            except (HandError, *_EVAL_ERRORS):
                return False
            return res.win
        return False

    def _instant_wilds(self, names: tuple[str, ...]) -> int:
        """The fewest wildcards a hand must hold for one of these instant forms to hold (`_wilds_needed`)."""
        c = self.__dict__.setdefault("_instant_need", {})
        got = c.get(names)
        if got is None:
            got = c[names] = min((_wilds_needed(f.instant) for f, _, _ in self.rules._forms if f.name in names),
                                 default=0)
        return got

    def score(self, seat: Seat, win: TileInfo | None, self_drawn: bool, concealed: list[TileInfo] | None = None,
              forms: tuple[str, ...] = ()) -> tuple[ScoreResult | None, Scoring | None]:
        conc = list(seat.hand) if concealed is None else concealed
        if not self._could_win(conc, seat.melds, win, self_drawn, forms):
            return None, None
        rules = self._rules_for(forms) if forms else self.rules
        h = self.hand_of(seat, conc, win, self_drawn)
        sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
        try:
            res = sc.run()
        except (HandError, *_EVAL_ERRORS):
            return None, None
        return res, sc

    def _win_info(self, s: int, mode: str, tile: TileInfo | None, forms: tuple[str, ...] = (),
                  discarder: int | None = None, robbed: int | None = None) -> WinInfo | None:
        """Whether seat s wins now. mode: drawn (the tile is in the hand, self-drawn), claimed (the tile
        is not in the hand), none (the hand as it stands), best_wait (the best tile the hand waits on)."""
        seat = self.st.seats[s]
        if self.shortcuts and tile is not None and mode in ("drawn", "claimed", "revealed") and \
                self._hopeless(seat, tile, mode == "drawn", forms):
            return None
        key = (s, seat.version, self._ctx_version, mode, tile.name if tile else None, forms)
        if key in self._win_cache:
            return self._win_cache[key]
        info = None
        if mode == "drawn" and tile is not None:
            conc = list(seat.hand)
            conc.remove(tile)
            res, sc = self.score(seat, tile, True, conc, forms)
            if res is not None and res.win:
                info = WinInfo(s, tile, True, conc, res, sc)
        elif mode == "revealed" and tile is not None:  # own turned card: self-drawn, not in the hand
            res, sc = self.score(seat, tile, True, list(seat.hand), forms)
            if res is not None and res.win:
                info = WinInfo(s, tile, True, list(seat.hand), res, sc)
        elif mode == "claimed" and tile is not None:
            res, sc = self.score(seat, tile, False, list(seat.hand), forms)
            if res is not None and res.win:
                info = WinInfo(s, tile, False, list(seat.hand), res, sc, discarder, robbed)
        elif mode == "none":
            rules = self._rules_for(forms) if forms else self.rules
            h = self.hand_of(seat, list(seat.hand), None, False)
            sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
            try:
                res = sc.run()
            except (HandError, *_EVAL_ERRORS):
                res = None
            if res is not None and res.win:
                info = WinInfo(s, None, False, list(seat.hand), res, sc)
        elif mode == "best_wait":
            best = None
            for conc, kinds in self._wait_hands(seat):
                for k in kinds:
                    res, sc = self.score(seat, k, False, conc, forms)
                    if res is not None and res.win and (best is None or
                                                        (res.evaluation.best, res.score) > (best[0].evaluation.best,
                                                                                            best[0].score)):
                        best = (res, sc, k, conc)
            if best is not None:
                info = WinInfo(s, best[2], False, best[3], best[0], best[1])
        if info is not None:
            info.scored_at = self._ctx_version
        if len(self._win_cache) > 512:
            self._win_cache.clear()
        self._win_cache[key] = info
        return info

    def _wait_hands(self, seat: Seat) -> list[tuple[list[TileInfo], list[TileInfo]]]:
        """The concealed hands a `best_wait` win may wait with, each with its waits: the hand as it
        stands, or — for the dealer still holding its extra dealt tile — the hand without each distinct
        tile it could give up (the tile is not really discarded)."""
        st = self.st
        if not (seat.index == st.dealer and self.rs.table.dealer_extra and st.last_dealt in seat.hand):
            return [(list(seat.hand), self.waits(seat))]
        out = []
        for name in dict.fromkeys(t.name for t in seat.hand):
            conc = list(seat.hand)
            conc.remove(next(t for t in conc if t.name == name))
            out.append((conc, self._waits_of(seat, conc)))
        return out

    def winner_binding(self, w: int) -> dict:
        info = self.infos.get(w)
        st = self.st
        b = {"winner": st.seats[w]}
        if info is not None:
            b.update(score=info.result.score, self_drawn=info.self_drawn, discarder=self.seat_of(info.discarder),
                     robbed=self.seat_of(info.robbed), task_factor=self._task_factor(info),
                     reading=info.reading_env(self))
        return b

    def _task_factor(self, info: WinInfo):
        st = self.st
        for t, factor, when in self.prog.tasks:
            if t.name != st.task:
                continue
            env = info.reading_env(self)
            try:
                if env is not None and when(env):
                    return factor(self.setup_env)
            except _EVAL_ERRORS as exc:
                self.note_error(f"task {t.name}: {exc}")
        return 1

    # ================================================================== the wall

    def _draw(self, s: int, end: str) -> TileInfo | None:
        """Seat s draws from `end` (head | tail); flowers are set aside and replaced. None: the wall is
        exhausted (no more than `exhaust_at` tiles left)."""
        st = self.st
        seat = st.seats[s]
        while True:
            if len(st.wall) <= self.rs.table.exhaust_at:
                return None
            if end == "head":
                i = 0
            else:
                i = next((j for j in range(len(st.wall) - 1, -1, -1) if st.wall[j] not in st.pinned),
                         len(st.wall) - 1)
            tid = st.wall.pop(i)
            st.pinned.discard(tid)
            t = st.kind_of[tid]
            st.last_drawer = s
            if t.category == "flower":
                seat.aside.append(t)
                self._flower_effects(s, t)
                end = self.rs.table.replacement
                continue
            seat.hand.append(t)
            seat.drawn = t
            seat.changed()
            return t

    def _flower_effects(self, s: int, t: TileInfo) -> None:
        """A flower set aside: compulsory actions `draw` opens for it (replacing a flower) run their
        effects and raise their name; the engine itself does the replacement."""
        seat = self.st.seats[s]
        for a in self.prog.actions_on.get("draw", ()):
            if a.ir.compulsory and not a.forms and not a.wins and not a.description and \
                    self._true(a.when, actor=seat, tile=t):
                self._run_effects(a.effects, actor=seat, tile=t)
                self._hooks_only(a.name, {"actor": seat, "tile": t})

    def _flip(self, r: ir.Reveal) -> None:
        st = self.st
        order = list(range(len(st.wall) - 1, -1, -1)) if r.source == "tail" else list(range(len(st.wall)))
        skipped = 0
        chosen = None
        aside = []
        for j in order:
            tid = st.wall[j]
            if tid in st.pinned:
                continue
            if skipped < r.offset:
                skipped += 1
                continue
            t = st.kind_of[tid]
            if r.skip and (t.attrs.get(r.skip) or t.f.get(r.skip) or t.category == r.skip):
                aside.append(tid)
                continue
            chosen = tid
            break
        for tid in aside:
            st.wall.remove(tid)
            st.out.append(st.kind_of[tid])
        if aside:  # tallied (not raised) so that simulations show how often a skip tile was passed over
            st.events[f"reveal_skip:{r.name}"] += len(aside)
        if chosen is None:
            return
        st.events[f"reveal:{r.name}"] += 1  # a tally, not an event: no hooks run on it
        st.reveal_ids.setdefault(r.name, []).append(chosen)
        if r.removes_copy:
            st.wall.remove(chosen)
            st.out.append(st.kind_of[chosen])
        else:
            st.pinned.add(chosen)
        self._set_reveal(r.name, st.kind_of[chosen])

    def _reveals(self, at: str) -> None:
        for r, _, unless in self.prog.reveals:
            if r.at != at:
                continue
            if unless is not None and self._true(unless):
                continue
            self._flip(r)

    def _moves_reveals(self) -> None:
        for r, moves_when, _ in self.prog.reveals:
            if moves_when is None or self.st.reveals.get(r.name) is None:
                continue
            guard = 0
            while guard < 8 and self._true(moves_when):
                before = self.st.reveals.get(r.name)
                n_ids = len(self.st.reveal_ids.get(r.name, []))
                self._flip(r)
                guard += 1
                if len(self.st.reveal_ids.get(r.name, [])) == n_ids and self.st.reveals.get(r.name) is before:
                    break
                self.st.events[f"reveal_move:{r.name}"] += 1

    # ================================================================== effects, hooks, events

    def _target(self, ef, bind: dict):
        t = ef.target
        if len(t) == 2 and t[0] == "table":
            return self.st.table, t[1]
        if len(t) == 2:
            seat = bind.get(t[0])
            if seat is None and t[0] == "dealer":
                seat = self.st.seats[self.st.dealer]
            if seat is None and t[0] == "winner" and self.st.winners:
                seat = self.st.seats[self.st.winners[0]]
            if seat is None:
                raise EvalError(f"`{t[0]}` has no value here")
            return seat.vars, t[1]
        return None, t[0]

    def _initial(self, name: str, scope: str):
        for sv, init in self.prog.states:
            if sv.name == name and sv.scope == scope:
                return self._init_value(sv, init)
        s = self.rs.setting(name)
        if s is not None:
            return self.rules.settings_env(None).get(f"context:{name}")
        return False  # a phase

    def _run_effects(self, effects, reading=None, **bind) -> list[str]:
        """Run effects; returns the events they emit."""
        emitted = []
        for ef in effects:
            if ef.op == "emit":
                emitted.append(ef.target[0])
                continue
            try:
                holder, name = self._target(ef, bind)
                value = ef.value(self.env(reading, **bind)) if ef.value is not None else None
            except _EVAL_ERRORS as exc:
                self.note_error(f"effect {ef.op} {'.'.join(ef.target)}: {exc}")
                continue
            if holder is None:
                cur = self.st.context.get(name)
            else:
                cur = holder.get(name)
            if ef.op == "set":
                new = value
            elif ef.op == "clear":
                new = self._initial(name, "table" if holder is self.st.table else "player") if holder is not None \
                    else self.rules.settings_env(None).get(f"context:{name}")
            elif isinstance(cur, list):
                new = list(cur)
                items = value if isinstance(value, list) else [value]
                for x in items:
                    if ef.op == "add":
                        new.append(x)
                    elif x in new:
                        new.remove(x)
            else:
                try:
                    new = (cur or 0) + value if ef.op == "add" else (cur or 0) - value
                except TypeError as exc:
                    self.note_error(f"effect {ef.op} {'.'.join(ef.target)}: {exc}")
                    continue
                if isinstance(new, Fraction) and new.denominator == 1:
                    new = int(new)
            if holder is None:
                self._set_context(name, new)
            else:
                if new is True and cur is not True:  # a flag state turning on: tallied for simulations
                    self.st.events[f"state:{name}"] += 1
                holder[name] = new
        return emitted

    def _phases(self, event: str, bind: dict) -> None:
        st = self.st
        changes = []
        actor = bind.get("actor")
        for ph in self.prog.phases:
            enter, leave = ph.enter.get(event), ph.leave.get(event)
            if not enter and not leave:
                continue
            if ph.scope == "table":
                holder = st.table
            elif actor is not None:
                holder = actor.vars
            else:
                continue
            cur = holder.get(ph.name, False)
            conds = leave if cur else enter
            if conds and any(c is None or self._true(c, bind.get("reading"), **_b(bind)) for c in conds):
                changes.append((holder, ph, not cur))
        for holder, ph, value in changes:
            holder[ph.name] = value
            if value:  # per-phase tally beside the generic phase_enter event
                st.events[f"phase_enter:{ph.name}"] += 1
            sub = {"actor": actor if ph.scope == "player" else None}
            self._hooks_only("phase_enter" if value else "phase_leave", sub)

    def _hooks_only(self, event: str, bind: dict, pay: bool | None = None, between=None) -> None:
        """Phases, hooks and payments of an event (no decisions). `between` runs after the hooks and
        before the payments (a win's final scoring)."""
        if self._emit_depth >= _MAX_DEPTH:
            self.note_error(f"`{event}` emitted inside {_MAX_DEPTH} nested events: not raised")
            return
        self._emit_depth += 1
        try:
            self._hooks_body(event, bind, pay, between)
        finally:
            self._emit_depth -= 1

    def _hooks_body(self, event: str, bind: dict, pay, between) -> None:
        st = self.st
        st.events[event] += 1
        prog = self.prog
        if event in self._phase_events:
            self._phases(event, bind)
        hooks = prog.hooks_on.get(event)
        if hooks:
            reading = bind.get("reading")
            b = _b(bind)
            for h in hooks:
                if h.when is not None and not self._true(h.when, reading, **b):
                    continue
                for name in self._run_effects(h.effects, reading, **b):
                    self._hooks_only(name, dict(bind))
        if between is not None:
            between()
        if event in prog.payments_on:
            settle.settle(self, event, bind, deferred=pay)
        if self._moving_reveals:
            self._moves_reveals()

    def _event(self, event: str, bind: dict, between=None):
        """Raise an event: phases, hooks, payments, then the decisions it opens (generator)."""
        self._hooks_only(event, bind, pay=False, between=between)
        if event not in ENGINE_OFFERED and self.prog.actions_on.get(event):
            if self._depth >= _MAX_DEPTH:
                self.note_error(f"`{event}` raised inside {_MAX_DEPTH} nested decisions: not offered again")
            else:
                self._depth += 1
                try:
                    yield from self._window(event, bind)
                finally:
                    self._depth -= 1
        if event in self.prog.payments_on:
            settle.settle(self, event, bind, deferred=True)

    def _ask(self, kind: str, options: dict[int, list[Move]], event: str = "", actor: int | None = None,
             tile: TileInfo | None = None):
        opts = {s: ms for s, ms in options.items() if ms}
        if not opts:
            return {}
        answers = yield Ask(kind, opts, event, actor, tile)
        return answers

    def _advance(self, value) -> None:
        try:
            ask = self._flow.send(value)
        except StopIteration:
            self.pending = None
            self.st.over = True
            return
        # a new decision: its moves carry its number, so an answer to an earlier one is recognised
        self.decision += 1
        d = self.decision
        ask.options = {s: [m.stamped(d) for m in ms] for s, ms in ask.options.items()}
        self.pending = ask

    # ================================================================== offering actions

    def _by_ok(self, word: str, c: int, actor: int | None) -> bool:
        st = self.st
        match word:
            case "self":
                return c == actor
            case "others":
                return actor is not None and c != actor
            case "next":
                return actor is not None and c == self.next_seat(actor)
            case "previous":
                return actor is not None and self.next_seat(c) == actor
            case "any":
                return True
            case "winner":
                return c in st.winners
            case "loser":
                return bool(st.winners) and c not in st.winners
            case "dealer":
                return c == st.dealer
            case "non_dealer":
                return c != st.dealer
        return False

    def _restricted(self, action: str, seat: Seat, tile: TileInfo | None, reading=None) -> bool:
        fns = self._restrict_cache.get(action)
        if fns is None:
            fns = self._restrict_cache[action] = self.prog.restricted(action)
        if not fns:
            return False
        return any(self._true(fn, reading, actor=seat, tile=self.tv(tile)) for fn in fns)

    def _index_win_actions(self) -> dict[str, list[CAction]]:
        out: dict[str, list[CAction]] = {}
        for ctx, events in _WIN_CTX_EVENTS.items():
            acts = []
            for a in self.prog.actions.values():
                if not a.wins or a.ir.win_tile not in _WIN_TILE_OK[ctx]:
                    continue
                if any(e in a.events for e in events) or (ctx in ("self", "discard", "added_kong")
                                                          and "win_offer" in a.events):
                    acts.append(a)
            out[ctx] = acts
        return out

    def _win_moves(self, c: int, ctx: str, tile: TileInfo | None, actor: int | None,
                   discarder: int | None = None, robbed: int | None = None) -> list[tuple[Move, _Offer]]:
        seat = self.st.seats[c]
        out: list[tuple[Move, _Offer]] = []
        for a in self._win_actions[ctx]:
            word = a.ir.by
            if "win_offer" in a.events and not any(e in a.events for e in _WIN_CTX_EVENTS[ctx]):
                ok = word in ("any", "self") if ctx == "self" else word in ("any", "others")
            else:
                ok = self._by_ok(word, c, actor)
            if not ok:
                continue
            if ctx == "reveal":
                mode = "revealed" if c == actor else "claimed"
            else:
                mode = a.ir.win_tile or ("drawn" if ctx == "self" else "claimed" if ctx in ("discard", "added_kong")
                                         else "drawn")
            if mode == "last_dealt":
                mode = "drawn"
                tile = self.st.last_dealt if c == self.st.dealer and self.st.last_dealt in seat.hand else None
                if tile is None:
                    continue
            info = self._win_info(c, mode, tile, tuple(a.ir.win_forms), discarder, robbed)
            if info is None:
                continue
            reading = info.reading_env(self)
            b = dict(actor=seat, tile=self.tv(info.tile), self_drawn=info.self_drawn,
                     discarder=self.seat_of(discarder), robbed=self.seat_of(robbed), score=info.result.score)
            if not self._true(a.when, reading, **b) or self._restricted(a.name, seat, info.tile, reading):
                continue
            info = WinInfo(**{**info.__dict__, "action": a.name})
            out.append((Move(a.name, (info.tile.name,) if info.tile else ()), _Offer(a, win=info,
                                                                                     compulsory=a.ir.compulsory)))
        if out:
            self._hooks_only("win_offer", {"actor": seat, "tile": self.tv(tile)})
            offered = {m.action for m, _ in out}
            for a in self._instead:
                if a.ir.instead_of in offered and self._by_ok_offer(a, c, actor, ctx) and \
                        self._true(a.when, actor=seat, tile=self.tv(tile)) and \
                        not self._restricted(a.name, seat, tile):
                    out.extend(self._plain_moves(a, seat, tile))
        return out

    def _by_ok_offer(self, a: CAction, c: int, actor: int | None, ctx: str) -> bool:
        if "win_offer" in a.events:
            return a.ir.by in ("any", "self") if ctx == "self" else a.ir.by in ("any", "others", "self")
        return self._by_ok(a.ir.by, c, actor)

    def _plain_moves(self, a: CAction, seat: Seat, tile: TileInfo | None, reading=None,
                     **bind) -> list[tuple[Move, _Offer]]:
        """An action without a meld or a win: one move, or one per open choice."""
        if not a.choices:
            return [(Move(a.name), _Offer(a, compulsory=a.ir.compulsory))]
        out = []
        for ch in a.choices:
            try:
                v = ch(self.setup_env)
            except _EVAL_ERRORS:
                continue
            if a.choice_when is not None and not self._true(a.choice_when, reading, actor=seat, tile=tile,
                                                            choice=v, **bind):
                continue
            if a.when is not None and not self._true(a.when, reading, actor=seat, tile=tile, choice=v, **bind):
                continue
            out.append((Move(a.name, (), v), _Offer(a, compulsory=a.ir.compulsory)))
        return out

    def _unusable(self, a: CAction, kind: str) -> frozenset[str]:
        key = (a.name, kind)
        got = self._unusable_cache.get(key)
        if got is None:
            got = self._unusable_cache[key] = self._unusable_now(a, kind)
        return got

    def _unusable_now(self, a: CAction, kind: str) -> frozenset[str]:
        bad = set()
        for w in self.rs.wilds:
            if w.scope != "hand":
                continue
            if kind in w.no_meld or a.name in w.no_action:
                k = self.cat.by_name.get(w.tiles) or self.st.reveals.get(w.tiles)
                if k is not None:
                    bad.add(k.name)
        return frozenset(bad)

    def _avail(self, seat: Seat, unusable: frozenset[str]) -> Counter:
        key = (seat.version, unusable)
        c = seat.__dict__.get("_avail")
        if c is not None and c[0] == key:
            return c[1]
        got = Counter([t.name for t in seat.hand if t.name not in unusable] if unusable else map(_NAME, seat.hand))
        seat.__dict__["_avail"] = (key, got)
        return got

    def _may_claim(self, seat: Seat, a: CAction, t: TileInfo) -> bool:
        """False when action a cannot make a meld of the tile t with this seat's concealed tiles: every
        kind it forms is a `same` shape formed anew (no upgrade, no growth) and the seat holds fewer than
        size − 1 usable copies of t. The names it could claim are listed once per seat version, so a
        seat asked about several discards between its turns answers each with one lookup."""
        key = (seat.version, self._ctx_version)  # a reveal (a context change) may change the wildcards
        c = seat.__dict__.get("_claimable")
        if c is None or c[0] != key:
            c = seat.__dict__["_claimable"] = (key, {})
        names = c[1].get(a.name, _MISSING)
        if names is _MISSING:
            names = set()
            for kind in a.forms:
                mk = self.mk.get(kind)
                if mk is None:
                    continue
                sh = mk.shape
                if sh.kind != "same" or mk.upgrades or mk.grows or sh.size < 2:
                    names = None  # no quick list for this kind: always ask
                    break
                avail = self._avail(seat, self._unusable(a, kind))
                names.update(n for n, k in avail.items() if k >= sh.size - 1)
            c[1][a.name] = names
        return names is None or t.name in names

    def _meld_options(self, seat: Seat, mk: ir.MeldKind, required: TileInfo | None,
                      unusable: frozenset[str]) -> list[MeldOption]:
        """`meld_options`, kept per seat until its tiles or melds change (several actions form the same
        kind: a meld that grows is both formed and extended)."""
        c = seat.__dict__.get("_meld_opts")
        if c is None or c[0] != seat.version:
            c = seat.__dict__["_meld_opts"] = (seat.version, {})
        key = (mk.name, required.name if required is not None else None, unusable)
        got = c[1].get(key)
        if got is None:
            avail = self._avail(seat, unusable)
            got = c[1][key] = [] if self.shortcuts and self._no_meld(seat, mk, required, avail) else \
                meld_options(self.rules, self.cat, seat, mk, required, unusable, avail)
        return got

    def _no_meld(self, seat: Seat, mk: ir.MeldKind, required: TileInfo | None, avail: Counter) -> bool:
        """An exact refusal before `meld_options` for the common cases: an upgrade with no meld to
        upgrade (and no concealed `hand` kind among those it upgrades); a growing kind of fixed tiles with
        no meld of its kind and not all its tiles held; too few copies for a `same` shape; for a run
        with the required tile, no run through it whose other tiles are held."""
        sh = mk.shape
        if mk.upgrades:
            if any(m.kind in mk.upgrades for m in seat.melds):
                return False
            return not any((k := self.mk.get(u)) is not None and k.hand for u in mk.upgrades)
        if mk.grows:
            if required is not None or sh.kind != "tiles" or any(m.kind == mk.name for m in seat.melds):
                return False
            return any(avail.get(n, 0) < c for n, c in _tally(sh.tiles))
        if sh.kind == "same":
            if required is not None:
                return avail.get(required.name, 0) < sh.size - 1
            return not avail or max(avail.values()) < sh.size
        if sh.kind == "run" and required is not None:
            if required.suit is None:
                return True
            names = self._rank_names(required.suit)
            r, size = required.rank, sh.size
            for start in range(r - size + 1, r + 1):
                if all(x == r or avail.get(names.get(x), 0) > 0 for x in range(start, start + size)) and \
                        all(x in names for x in range(start, start + size)):
                    return False
            return True
        return False

    @staticmethod
    def _grown(a: CAction, mk: ir.MeldKind, opts: list[MeldOption]) -> list[MeldOption]:
        """The options of a growing kind that the action's `grow` allows: formed anew (`new`), added to
        a meld already laid down (`extend`), or both (`any`)."""
        if not mk.grows or a.ir.grow == "any":
            return opts
        extend = a.ir.grow == "extend"
        return [o for o in opts if (o.extends is not None) == extend]

    def _rank_names(self, suit: str) -> dict[int, str]:
        c = self.__dict__.setdefault("_ranks", {})
        got = c.get(suit)
        if got is None:
            got = c[suit] = {k.rank: k.name for k in self.cat.kinds if k.suit == suit}
        return got

    def _meld_moves(self, a: CAction, seat: Seat, required: TileInfo | None, reading=None,
                    **bind) -> list[tuple[Move, _Offer]]:
        out = []
        if required is not None:  # a claim: the tile is known before any meld is tried
            opts = []
            for kind in a.forms:  # the melds first: most claimants have none, and then no guard is read
                mk = self.mk.get(kind)
                if mk is not None:
                    unusable = self._unusable(a, kind)
                    avail = self._avail(seat, unusable)
                    sh = mk.shape
                    if sh.kind == "same" and not (mk.upgrades or mk.grows) and \
                            avail.get(required.name, 0) < sh.size - 1:
                        continue  # `meld_options` would refuse at once: too few copies held
                    opts.extend(self._grown(a, mk, self._meld_options(seat, mk, required, unusable)))
            if not opts:
                return out
            t = self.tv(required)
            if (a.when is not None and not self._true(a.when, reading, actor=seat, tile=t, **bind)) or \
                    self._restricted(a.name, seat, required):
                return out
            return [(self._meld_move(a, opt), _Offer(a, meld=opt, compulsory=a.ir.compulsory))
                    for opt in self._one_kind(a, opts)]
        found = []
        for kind in a.forms:
            mk = self.mk.get(kind)
            if mk is None:
                continue
            unusable = self._unusable(a, kind)
            for opt in self._grown(a, mk, self._meld_options(seat, mk, required, unusable)):
                if required is None:
                    t = self.tv(opt.key)
                    if a.when is not None and not self._true(a.when, reading, actor=seat, tile=t, **bind):
                        continue
                    if self._restricted(a.name, seat, opt.key):
                        continue
                found.append(opt)
        return [(self._meld_move(a, opt), _Offer(a, meld=opt, compulsory=a.ir.compulsory))
                for opt in self._one_kind(a, found)]

    def _one_kind(self, a: CAction, opts: list[MeldOption]) -> list[MeldOption]:
        """One kind per set of tiles (`one_kind_per_meld`): only an action forming several kinds can
        offer the same tiles twice."""
        return one_kind_per_meld(opts, self._meld_value) if len(a.forms) > 1 else opts

    @staticmethod
    def _meld_move(a: CAction, opt: MeldOption) -> Move:
        """The move laying down `opt`; it names the kind when the action forms several (so that the log
        and the player see which one, and two kinds of equal value are two moves)."""
        return Move(a.name, tuple(x.name for x in opt.tiles), None, opt.kind if len(a.forms) > 1 else None)

    def _meld_value(self, opt: MeldOption):
        """The kind's declared `value` for the option's suit (a constant per kind and suit), 0 without one."""
        cache = self.__dict__.setdefault("_meld_values", {})
        suit = opt.tiles[0].suit if opt.tiles else None
        key = (opt.kind, suit)
        if key not in cache:
            mk = self.mk[opt.kind]
            chosen = next((v for v in mk.values if v.suit == suit), None) or next(
                (v for v in mk.values if not v.suit), None)
            cache[key] = compile_expr(chosen.value)({}) if chosen is not None else 0
        return cache[key]

    def _action_moves(self, a: CAction, seat: Seat, tile: TileInfo | None, required: TileInfo | None,
                      reading=None, **bind) -> list[tuple[Move, _Offer]]:
        """Moves of a non-win action (meld or plain) for a seat."""
        if a.description or a.wins or a.ir.instead_of:
            return []
        if a.forms:
            return self._meld_moves(a, seat, required, reading, **bind)
        if a.choices:
            return [x for x in self._plain_moves(a, seat, self.tv(tile), reading, **bind)
                    if not self._restricted(a.name, seat, tile)]
        if not self._true(a.when, reading, actor=seat, tile=self.tv(tile), **bind) or \
                self._restricted(a.name, seat, tile):
            return []
        return self._plain_moves(a, seat, tile, reading, **bind)

    def _offerable(self, event: str) -> list[CAction]:
        """The actions `event` opens that `_action_moves` can offer (not descriptions, wins or
        `instead_of` choices, for which it offers nothing), in file order; computed once."""
        c = self._offerable_cache.get(event)
        if c is None:
            c = self._offerable_cache[event] = [a for a in self.prog.actions_on.get(event, ())
                                                if not (a.description or a.wins or a.ir.instead_of)]
        return c

    def _own_turn_actions(self) -> list[CAction]:
        """The actions `turn` or `draw` open by self / any, each once (turn's first)."""
        c = self._offerable_cache.get(" own turn")
        if c is None:
            seen: dict[str, CAction] = {}
            for ev in ("turn", "draw"):
                for a in self._offerable(ev):
                    if a.name not in seen and a.ir.by in ("self", "any"):
                        seen[a.name] = a
            c = self._offerable_cache[" own turn"] = list(seen.values())
        return c

    def _live_restrictions(self, action: str, seat: Seat) -> list:
        """The restrictions on `action` that may hold for some tile of this seat now: one whose leading
        conditions do not read `tile` and are false now (`restrict … when PHASE and …` outside the phase)
        holds for no tile, so it is not asked tile by tile. Exact: the closures stop at the first false
        condition too; when those conditions fail to evaluate, the restriction is asked per tile as before."""
        plan = self._restrict_plans.get(action)
        if plan is None:
            plan = self._restrict_plans[action] = [(_tile_free_prefix(r.when), fn) for r, fn in self.prog.restricts
                                                   if action in r.actions]
        live = []
        for pre, fn in plan:
            if pre is not None and self.shortcuts:
                try:
                    if not pre(self.env(None, actor=seat)):
                        continue
                except _EVAL_ERRORS:
                    pass
            live.append(fn)
        return live

    def _discard_moves(self, seat: Seat) -> list[tuple[Move, _Offer]]:
        """A discard of each distinct concealed tile, in catalog order, that no `restrict` forbids."""
        first: dict[int, TileInfo] = {}
        for t in seat.hand:
            if t.index not in first:
                first[t.index] = t
        cache = self._discard_cache
        live = self._live_restrictions("discard", seat)
        out = []
        for i in sorted(first):
            t = first[i]
            if live and any(self._true(fn, None, actor=seat, tile=self.tv(t)) for fn in live):
                continue
            mv = cache.get(t.name)
            if mv is None:
                mv = cache[t.name] = Move("discard", (t.name,))
            out.append((mv, _NO_OFFER))
        return out

    # ================================================================== the hand

    def _hand(self):
        st = self.st
        rs = self.rs
        if self.prog.tasks:
            st.task = self.rng.choice(self.prog.tasks)[0].name
        self._reveals("deal")
        self._deal()
        self._flowers_at_deal()
        yield from self._event("deal", {})
        for ev in ("deal", "opening"):
            if ev == "opening":
                yield from self._event("opening", {})
            yield from self._start_wins(ev)
            if st.winners and not st.exhausted:
                yield from self._hand_end()
            if st.winners or st.exhausted:
                return
            for s in self.order_from(st.dealer):
                yield from self._start_decisions(ev, s)
                if st.winners and not st.exhausted:
                    yield from self._hand_end()
                if st.winners or st.exhausted:
                    return
        nxt = (st.dealer, "first")
        turned = bool(self.prog.actions_on.get("reveal"))
        while True:
            s, how = nxt
            seat = st.seats[s]
            if turned and how == "draw":
                nxt = yield from self._turn_card(s)
                if st.winners or st.exhausted:
                    if not st.exhausted:
                        yield from self._hand_end()
                    return
                if nxt is not None:
                    continue
                nxt = (self.next_seat(s), "draw")
                continue
            if how in ("draw", "replace"):
                t = self._draw(s, "head" if how == "draw" else rs.table.replacement)
                if t is None:
                    yield from self._exhaust()
                    return
                yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})
            if how != "claimed":
                st.turn += 1
                yield from self._event("turn", {"actor": seat, "tile": self.tv(seat.drawn)})
            out = yield from self._play_turn(s, claimed=(how == "claimed" or (turned and how == "first")))
            if st.winners or st.exhausted:
                if not st.exhausted:
                    yield from self._hand_end()
                return
            kind, val = out
            if kind == "pass":
                nxt = (self.next_seat(s), "draw")
            elif kind == "goto":
                nxt = val
            else:
                nxt = yield from self._after_discard(s, val)
                if st.winners or st.exhausted:
                    if not st.exhausted:
                        yield from self._hand_end()
                    return

    def _deal(self) -> None:
        st = self.st
        hand = self.rs.table.hand
        for s in self.order_from(st.dealer):
            seat = st.seats[s]
            for _ in range(hand):
                seat.hand.append(st.kind_of[st.wall.pop(0)])
        dealer = st.seats[st.dealer]
        for _ in range(self.rs.table.dealer_extra):
            t = st.kind_of[st.wall.pop(0)]
            dealer.hand.append(t)
            st.last_dealt = t
        if st.last_dealt is not None:
            dealer.drawn = st.last_dealt
        for seat in st.seats:
            seat.changed()

    def _flowers_at_deal(self) -> None:
        st = self.st
        end = self.rs.table.replacement
        for _ in range(64):
            found = False
            for s in self.order_from(st.dealer):
                seat = st.seats[s]
                flowers = [t for t in seat.hand if t.category == "flower"]
                for t in flowers:
                    found = True
                    seat.hand.remove(t)
                    seat.aside.append(t)
                    seat.changed()  # before the hooks: they may ask for the seat's waits or melds
                    self._flower_effects(s, t)
                for _ in flowers:
                    if len(st.wall) <= self.rs.table.exhaust_at:
                        break
                    i = next((j for j in range(len(st.wall) - 1, -1, -1) if st.wall[j] not in st.pinned),
                             len(st.wall) - 1) if end == "tail" else 0
                    t = st.kind_of[st.wall.pop(i)]
                    seat.hand.append(t)
                    if s == st.dealer and st.last_dealt is not None and flowers:
                        st.last_dealt = t
                        seat.drawn = t
                seat.changed()
            if not found:
                return

    def _start_wins(self, event: str):
        """The wins `event` (deal or opening) offers, for every seat at once, resolved like a claim
        window: by `priority`, then `order` (after the dealer); several with `multiple`. A seat that
        passes declines them (its `decline` effects run)."""
        st = self.st
        offers: dict[int, list[tuple[Move, _Offer]]] = {}
        for s in self.order_from(st.dealer):
            ms = self._win_moves(s, event, None, s)
            if ms:
                offers[s] = ms
        if not offers:
            return
        answers = yield from self._answers("deal", offers, event, st.dealer, None)
        for c in sorted(answers, key=lambda x: self.distance(st.dealer, x)):
            yield from self._declines(c, offers[c], answers[c][0], {"actor": st.seats[c]})
        claims = []
        for c in sorted(answers, key=lambda x: self.distance(st.dealer, x)):
            mv, o = answers[c]
            if mv == PASS or o.action is None:
                continue
            if o.win is None:  # an `instead_of` choice: applied, counts as a pass
                yield from self._take(c, o, mv, {"actor": st.seats[c]})
                continue
            claims.append((c, o))
        if not claims:
            return
        claims.sort(key=lambda it: (it[1].action.level, self._order_key(it[1].action, st.dealer, it[0])))
        top = claims[0][1]
        wins = [top.win]
        if top.action.ir.multiple:
            wins += [o.win for _, o in claims[1:] if o.action.level == top.action.level and o.action.ir.multiple]
        yield from self._win(wins)

    def _start_decisions(self, event: str, s: int):
        """The deal (or opening) decisions of one seat: melds, wins, or pass; asked again after a kong."""
        st = self.st
        seat = st.seats[s]
        acts = [a for a in self.prog.actions_on.get(event, ()) if self._by_ok(a.ir.by, s, s)
                or a.ir.by in ("dealer", "non_dealer", "any") and self._by_ok(a.ir.by, s, None)]
        if not acts:
            return
        taken: set[Move] = set()
        melded = False  # the seat's wins were resolved with everyone's (`_start_wins`) until it melds
        while True:
            moves = self._win_moves(s, event, None, s) if melded else []
            for a in acts:
                moves.extend(self._action_moves(a, seat, None, None))
            moves = [(m, o) for m, o in moves if not (o.compulsory and m in taken)]
            if not moves:
                return
            chosen = self._compulsory(moves)
            if chosen is not None:
                taken.add(chosen[0])
            if chosen is None:
                ans = yield from self._ask("deal", {s: self._with_pass(s, moves)}, event, s)
                mv = ans[s]
                chosen = next(((m, o) for m, o in moves if m == mv), (PASS, _Offer(None)))
            yield from self._declines(s, moves, chosen[0], {"actor": seat})
            mv, offer = chosen
            if mv == PASS:
                return
            if offer.win is not None:
                yield from self._win([offer.win])
                return
            then = yield from self._take(s, offer, mv, {"actor": seat})
            melded = True
            if st.winners or st.exhausted:
                return
            if then == "replace":
                t = self._draw(s, self.rs.table.replacement)
                if t is None:
                    yield from self._exhaust()
                    return
                if s == st.dealer:
                    st.last_dealt = t
                yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})

    def _with_pass(self, s: int, moves) -> list[Move]:
        """The moves offered plus `pass`, unless a `restrict` forbids passing (and there is a choice)."""
        out = [m for m, _ in moves]
        if not out or not self._restricted("pass", self.st.seats[s], None):
            out.append(PASS)
        return out

    @staticmethod
    def _compulsory(moves):
        return next(((m, o) for m, o in moves if o.compulsory), None)

    def _answers(self, kind: str, offers: dict, event: str, s: int, t):
        """Each claimant's answer in a claim window (generator). A compulsory option is taken without
        asking when nothing else the seat is offered ranks higher; otherwise the seat chooses, without
        `pass` when something compulsory is among its options."""
        answers: dict[int, tuple[Move, _Offer]] = {}
        ask = {}
        for c, ms in offers.items():
            comp = self._compulsory(ms)
            if comp is not None and comp[1].action.level <= min(o.action.level for _, o in ms if o.action):
                answers[c] = comp
            elif comp is not None:
                ask[c] = [m for m, _ in ms]
            else:
                ask[c] = self._with_pass(c, ms)
        if ask:
            got = yield from self._ask(kind, ask, event, s, t)
            for c, mv in got.items():
                answers[c] = _pick(offers[c], mv)
        return answers

    def _turn_moves(self, s: int, claimed: bool, allow_win: bool) -> list[tuple[Move, _Offer]]:
        st = self.st
        seat = st.seats[s]
        moves: list[tuple[Move, _Offer]] = []
        if not claimed:
            if allow_win and seat.drawn is not None:
                moves.extend(self._win_moves(s, "self", seat.drawn, s))
            if not seat.auto:
                for a in self._own_turn_actions():
                    moves.extend(self._action_moves(a, seat, seat.drawn, None))
        if seat.auto and not any(o.compulsory for _, o in moves):
            return moves
        moves.extend(self._discard_moves(seat))
        return moves

    def _play_turn(self, s: int, claimed: bool):
        """The decisions of one turn. Returns ("discarded", tile) | ("pass", None) | ("goto", (seat, how))
        | ("over", None)."""
        st = self.st
        seat = st.seats[s]
        allow_win = True
        taken: set[Move] = set()  # a move taken this turn is not offered again in it
        while True:
            moves = self._turn_moves(s, claimed, allow_win)
            if taken:
                moves = [(m, o) for m, o in moves if m not in taken]
            chosen = self._compulsory(moves)
            if chosen is None and seat.auto:
                if moves:
                    ans = yield from self._ask("turn", {s: self._with_pass(s, moves)}, "turn", s)
                    chosen = next(((m, o) for m, o in moves if m == ans[s]), (PASS, _Offer(None)))
                    yield from self._declines(s, moves, chosen[0], {"actor": seat, "tile": self.tv(seat.drawn)})
                    if chosen[0] == PASS:
                        allow_win = False
                        continue
                else:
                    t = self._auto_discard(seat)
                    if t is None:
                        return ("pass", None)
                    self._discard(s, t)
                    return ("discarded", t)
            elif chosen is None:
                if not moves:
                    return ("pass", None)
                options = [m for m, _ in moves]
                if not any(m.action == "discard" for m in options):
                    options = self._with_pass(s, moves)
                ans = yield from self._ask("turn", {s: options}, "turn", s, seat.drawn)
                mv = ans[s]
                chosen = _pick(moves, mv)
                yield from self._declines(s, moves, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
            mv, offer = chosen
            taken.add(mv)
            if mv == PASS:
                return ("pass", None)
            if mv.action == "discard":
                t = self.cat.by_name[mv.tiles[0]]
                self._discard(s, t)
                return ("discarded", t)
            if offer.win is not None:
                yield from self._win([offer.win])
                return ("over", None)
            a = offer.action
            if a.ir.instead_of:
                yield from self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
                allow_win = False
                continue
            if offer.meld is not None and offer.meld.extends is not None:
                out = yield from self._added_kong(s, offer, mv)
                if out is not None:
                    return out
                then = a.ir.then
            else:
                then = yield from self._take(s, offer, mv, {"actor": seat, "tile": self.tv(seat.drawn)})
            if st.winners or st.exhausted:
                return ("over", None)
            match then:
                case "replace" | "draw":
                    t = self._draw(s, self.rs.table.replacement if then == "replace" else "head")
                    if t is None:
                        yield from self._exhaust()
                        return ("over", None)
                    yield from self._event("draw", {"actor": seat, "tile": self.tv(t)})
                    claimed, allow_win = False, True
                case "discard":
                    claimed = True
                case "next_turn":
                    return ("pass", None)
                case "auto":
                    seat.auto = True
                case _:
                    if seat.drawn is not None and seat.drawn not in seat.hand:
                        seat.drawn = None

    def _auto_discard(self, seat: Seat) -> TileInfo | None:
        if seat.drawn is not None and seat.drawn in seat.hand and not self._restricted("discard", seat, seat.drawn):
            return seat.drawn
        for t in seat.hand:
            if not self._restricted("discard", seat, t):
                return t
        return None

    def _discard(self, s: int, t: TileInfo) -> None:
        seat = self.st.seats[s]
        seat.hand.remove(t)
        seat.discards.append(t)
        seat.drawn = None
        seat.changed()

    def _take(self, s: int, offer: _Offer, mv: Move, bind: dict):
        """Apply a non-win action for seat s (a meld from the hand, or a plain action). Returns its `then`."""
        st = self.st
        seat = st.seats[s]
        a = offer.action
        bind = dict(bind)
        if mv.choice is not None:
            bind["choice"] = mv.choice
        opt = offer.meld
        if opt is not None:
            for t in opt.from_hand:
                seat.hand.remove(t)
            mk = self.mk.get(opt.kind)
            if opt.extends is not None:
                seat.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed,
                                                seat.melds[opt.extends].source, seat.melds[opt.extends].claimed)
            else:
                seat.melds.append(GMeld(opt.kind, list(opt.tiles), mk.exposed))
            if seat.drawn is not None and seat.drawn not in seat.hand:
                seat.drawn = None
            seat.changed()
            bind["tile"] = self.tv(opt.key)
        for name in self._run_effects(a.effects, **_b(bind)):
            self._hooks_only(name, bind)
        yield from self._event(a.name, bind)
        if opt is not None and self.mk.get(opt.kind).kong:
            yield from self._event("kong", bind)
        if a.ir.ready and not seat.ready:
            seat.ready = True
            yield from self._event("ready", bind)
        if a.ir.follow and not (st.winners or st.exhausted):
            yield from self._follow(s, a, bind.get("tile"))
        if a.ir.then == "auto":
            seat.auto = True
        return a.ir.then

    def _declines(self, s: int, moves, chosen: Move, bind: dict):
        """Every action offered to seat s and not chosen is declined."""
        chosen_action = chosen.action
        done = set()
        for _m, o in moves:
            a = o.action
            if a is None or a.name == chosen_action or a.name in done or o.compulsory:
                continue
            done.add(a.name)
            if a.decline:
                for name in self._run_effects(a.decline, **_b(bind)):
                    self._hooks_only(name, bind)
            self.st.events[f"decline:{a.name}"] += 1  # per-action tally beside the generic decline event
            yield from self._event("decline", bind)

    # ------------------------------------------------------------------ turned cards (the `reveal` event)

    def _turn_card(self, s: int):
        """A draw when the rule set has actions opened by `reveal`: the card drawn is not taken into
        the hand. It lies face up on the drawer's discard pile while it is offered: first to the drawer
        alone (the actions `draw`/`turn` open by self: melds with the card), then, turned
        over (`reveal`), to every seat at once (wins, melds, plain actions), resolved by priority.
        Unclaimed, it stays on the drawer's pile and the next seat draws. Returns the next (seat, how),
        or None (nothing claimed, or the hand ended)."""
        st = self.st
        seat = st.seats[s]
        t = self._draw(s, "head")
        if t is None:
            yield from self._exhaust()
            return None
        seat.hand.remove(t)
        seat.discards.append(t)
        seat.drawn = None
        seat.changed()
        st.turn += 1
        tile = self.tv(t)
        for ev in ("draw", "turn"):
            yield from self._event(ev, {"actor": seat, "tile": tile})
            if st.winners or st.exhausted:
                return None
        if not seat.auto:
            own: list[tuple[Move, _Offer]] = []
            seen = set()
            for ev in ("draw", "turn"):
                for a in self.prog.actions_on.get(ev, ()):
                    if a.name in seen or a.ir.by not in ("self", "any"):
                        continue
                    seen.add(a.name)
                    own.extend(self._action_moves(a, seat, t, t if a.forms else None, discarder=None))
            if own:
                res = yield from self._tile_window("self", "draw", s, t, {s: own})
                if res is not None or st.winners or st.exhausted:
                    return res
        yield from self._event("reveal", {"actor": seat, "tile": tile})
        if st.winners or st.exhausted:
            return None
        offers: dict[int, list[tuple[Move, _Offer]]] = {}
        for c in range(self.n):
            cs = st.seats[c]
            ms = self._win_moves(c, "reveal", t, s)
            if not cs.auto:
                for a in self.prog.actions_on.get("reveal", ()):
                    if a.wins or not self._by_ok(a.ir.by, c, s):
                        continue
                    if self.shortcuts and a.forms and not self._may_claim(cs, a, t):
                        continue
                    ms.extend(self._action_moves(a, cs, t, t if a.forms else None, discarder=None))
            if ms:
                offers[c] = ms
        if not offers:
            return None
        return (yield from self._tile_window("window", "reveal", s, t, offers))

    def _tile_window(self, kind: str, event: str, s: int, t: TileInfo, offers):
        """Offer a turned card (lying on seat s's discard pile) to the seats with offers; resolve by
        priority, then `order`. A seat's compulsory move is taken without asking when nothing it is
        offered ranks higher; otherwise it is asked without `pass`. Every answer is a claim: a win, a
        meld with the card, or a plain action (the card goes into the claimant's hand)."""
        st = self.st
        answers = yield from self._answers(kind, offers, event, s, t)
        tile = self.tv(t)
        for c in sorted(answers, key=lambda x: self._order_key_plain(s, x)):
            yield from self._declines(c, offers[c], answers[c][0],
                                      {"actor": st.seats[c], "tile": tile, "discarder": None})
        claims = [(c, mv, o) for c, (mv, o) in answers.items() if mv != PASS and o.action is not None]
        if not claims:
            return None
        claims.sort(key=lambda it: (it[2].action.level, self._order_key(it[2].action, s, it[0])))
        c, mv, o = claims[0]
        if o.win is not None:
            wins = [o.win]
            if o.action.ir.multiple:
                wins += [x.win for cc, _, x in claims[1:] if x.win is not None and x.action.level == o.action.level
                         and x.action.ir.multiple]
            yield from self._win(wins)
            return None
        if o.meld is not None:
            return (yield from self._claim(c, s, o, mv, t, turned=True))
        # a plain action: the card goes into the claimant's hand
        giver, claimant = st.seats[s], st.seats[c]
        giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
        claimant.hand.append(t)
        claimant.drawn = t
        giver.changed()
        claimant.changed()
        then = yield from self._take(c, o, mv, {"actor": claimant, "tile": tile, "discarder": None})
        if st.winners or st.exhausted:
            return None
        return self._after_claim(then, c, s)

    def _order_key_plain(self, s: int, c: int) -> int:
        return ((c - s) * self.step) % self.n

    def _follow(self, c: int, a: CAction, t: TileInfo | None):
        """`follow [X…]`: after action a, its follow-ups are offered to the same seat, repeatedly while
        one is legal (compulsory ones taken), before a's `then`. A follow-up's meld uses the tile of a
        (`tile` in its guard) from the hand."""
        if not a.ir.follow or t is None:
            return
        st = self.st
        seat = st.seats[c]
        for _ in range(16):
            moves: list[tuple[Move, _Offer]] = []
            for name in a.ir.follow:
                b = self.prog.actions.get(name)
                if b is not None:
                    moves.extend(self._follow_moves(b, seat, t))
            if not moves:
                return
            chosen = self._compulsory(moves)
            if chosen is None:
                ans = yield from self._ask("self", {c: self._with_pass(c, moves)}, a.name, c, t)
                chosen = next(((m, o) for m, o in moves if m == ans[c]), (PASS, _Offer(None)))
                yield from self._declines(c, moves, chosen[0], {"actor": seat, "tile": self.tv(t)})
            if chosen[0] == PASS:
                return
            yield from self._take(c, chosen[1], chosen[0], {"actor": seat, "tile": self.tv(t)})
            if st.winners or st.exhausted:
                return

    def _follow_moves(self, b: CAction, seat: Seat, t: TileInfo) -> list[tuple[Move, _Offer]]:
        if b.wins or b.ir.instead_of:
            return []
        if not b.forms:
            return self._action_moves(b, seat, t, None)
        tv = self.tv(t)
        if (b.when is not None and not self._true(b.when, actor=seat, tile=tv)) or self._restricted(b.name, seat, t):
            return []
        found = []
        for kind in b.forms:
            mk = self.mk.get(kind)
            if mk is None:
                continue
            unusable = self._unusable(b, kind)
            avail = self._avail(seat, unusable)
            for opt in meld_options(self.rules, self.cat, seat, mk, t, unusable, avail):
                if opt.extends is not None:
                    continue
                need = Counter(x.name for x in opt.tiles)
                if all(avail[n] >= k for n, k in need.items()):
                    found.append(MeldOption(opt.kind, opt.tiles, opt.tiles, None, t))
        return [(self._meld_move(b, opt), _Offer(b, meld=opt, compulsory=b.ir.compulsory))
                for opt in self._one_kind(b, found)]

    # ------------------------------------------------------------------ discards and claims

    def _after_discard(self, s: int, t: TileInfo):
        st = self.st
        seat = st.seats[s]
        tile = self.tv(t)
        yield from self._event("discard", {"actor": seat, "tile": tile})
        if st.winners or st.exhausted:
            return None
        # the discarder's own declarations
        own = []
        if not seat.auto:  # an auto seat declares nothing: its offers are not even worked out
            for a in self._offerable("discard"):
                if a.ir.by == "self":
                    own.extend(self._action_moves(a, seat, t, None))
        if own and not seat.auto:
            chosen = self._compulsory(own)
            if chosen is None:
                ans = yield from self._ask("self", {s: self._with_pass(s, own)}, "discard", s, t)
                chosen = next(((m, o) for m, o in own if m == ans[s]), (PASS, _Offer(None)))
            yield from self._declines(s, own, chosen[0], {"actor": seat, "tile": tile})
            if chosen[0] != PASS:
                yield from self._take(s, chosen[1], chosen[0], {"actor": seat, "tile": tile})
        # the others' claims
        offers: dict[int, list[tuple[Move, _Offer]]] = {}
        for c in range(self.n):
            if c == s:
                continue
            cs = st.seats[c]
            ms = self._win_moves(c, "discard", t, s, discarder=s)
            if not cs.auto:
                for a in self._offerable("discard"):
                    if a.ir.by == "self" or not self._by_ok(a.ir.by, c, s):
                        continue
                    if self.shortcuts and a.forms and not self._may_claim(cs, a, t):
                        continue
                    ms.extend(self._action_moves(a, cs, t, t, discarder=seat))
            if ms:
                offers[c] = ms
        if not offers:
            return (self.next_seat(s), "draw")
        result = yield from self._window_resolve("claim", "discard", s, t, offers, {"discarder": seat})
        if st.winners or st.exhausted:
            return None
        if result is None:
            return (self.next_seat(s), "draw")
        return result

    def _window_resolve(self, kind: str, event: str, s: int, t: TileInfo, offers, extra: dict):
        """Ask the seats with offers, resolve by priority; apply the outcome. Returns the next (seat, how),
        or None when nothing was claimed (or the hand ended)."""
        st = self.st
        answers = yield from self._answers(kind, offers, event, s, t)
        tile = self.tv(t)
        for c in sorted(answers, key=lambda x: self.distance(s, x)):
            yield from self._declines(c, offers[c], answers[c][0], {"actor": st.seats[c], "tile": tile, **extra})
        claims = []
        for c in sorted(answers, key=lambda x: self.distance(s, x)):
            mv, o = answers[c]
            if mv == PASS:
                continue
            if o.win is None and o.meld is None:
                yield from self._take(c, o, mv, {"actor": st.seats[c], "tile": tile, **extra})
                continue
            claims.append((c, mv, o))
        if not claims:
            return None

        def rank(item):
            c, _, o = item
            return (o.action.level, self._order_key(o.action, s, c))

        claims.sort(key=rank)
        top = claims[0]
        if top[2].win is not None:
            wins = [top[2].win]
            if top[2].action.ir.multiple:
                wins += [o.win for c, _, o in claims[1:] if o.win is not None and o.action.level == top[2].action.level
                         and o.action.ir.multiple]
            yield from self._win(wins)
            return None
        c, mv, o = top
        return (yield from self._claim(c, s, o, mv, t))

    def _order_key(self, a: CAction, s: int, c: int) -> int:
        """Seat order among claimants of one priority level: after the event's player `s` (or the
        dealer); under `order actor` the event's player itself comes first."""
        if a.ir.order == "actor":
            return ((c - s) * self.step) % self.n
        ref = self.st.dealer if a.ir.order == "dealer" else s
        return self.distance(ref, c)

    def _claim(self, c: int, s: int, o: _Offer, mv: Move, t: TileInfo, turned: bool = False):
        """Seat c claims tile t from seat s's discards into a meld. `turned`: a card turned from the
        stock (no discarder)."""
        st = self.st
        claimant, giver = st.seats[c], st.seats[s]
        opt = o.meld
        giver.discards.pop(len(giver.discards) - 1 - giver.discards[::-1].index(t))
        for x in opt.from_hand:
            claimant.hand.remove(x)
        mk = self.mk.get(opt.kind)
        if opt.extends is not None:
            old = claimant.melds[opt.extends]
            claimant.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t)
            del old
        else:
            claimant.melds.append(GMeld(opt.kind, list(opt.tiles), mk.exposed, s, t))
        claimant.drawn = None
        claimant.changed()
        giver.changed()
        bind = {"actor": claimant, "tile": self.tv(t), "discarder": None if turned else giver}
        for name in self._run_effects(o.action.effects, **bind):
            self._hooks_only(name, bind)
        yield from self._event("claim", bind)
        yield from self._event(o.action.name, bind)
        if mk.kong:
            yield from self._event("kong", bind)
        if st.winners or st.exhausted:
            return None
        yield from self._follow(c, o.action, t)
        if st.winners or st.exhausted:
            return None
        return self._after_claim(o.action.ir.then, c, s)

    def _after_claim(self, then: str, c: int, s: int):
        claimant = self.st.seats[c]
        match then:
            case "replace":
                return (c, "replace")
            case "draw":
                return (c, "draw")
            case "next_turn":
                return (self.next_seat(c), "draw")
            case "none":
                return (self.next_seat(s), "draw")
            case "auto":
                claimant.auto = True
                return (c, "claimed")
        return (c, "claimed")

    def _added_kong(self, s: int, offer: _Offer, mv: Move):
        """A meld grows by a tile on the own turn: others may rob it first. Returns None when the kong
        stands (its events raised), or the turn's outcome when it was robbed."""
        st = self.st
        seat = st.seats[s]
        opt = offer.meld
        a = offer.action
        t = opt.from_hand[0]
        seat.hand.remove(t)
        seat.discards.append(t)  # in the open while it may be robbed
        if seat.drawn is not None and seat.drawn not in seat.hand:
            seat.drawn = None
        seat.changed()
        bind = {"actor": seat, "tile": self.tv(t)}
        for name in self._run_effects(a.effects, **bind):
            self._hooks_only(name, bind)
        yield from self._event("added_kong", bind)
        offers = {}
        for c in range(self.n):
            if c == s:
                continue
            cs = st.seats[c]
            ms = self._win_moves(c, "added_kong", t, s, discarder=s, robbed=s)
            if not cs.auto:
                for b in self.prog.actions_on.get("added_kong", ()):
                    if b.wins or not self._by_ok(b.ir.by, c, s):
                        continue
                    ms.extend(self._action_moves(b, cs, t, t, discarder=seat, robbed=seat))
            if ms:
                offers[c] = ms
        result = None
        if offers:
            result = yield from self._window_resolve("rob", "added_kong", s, t, offers,
                                                     {"discarder": seat, "robbed": seat})
        if st.winners or st.exhausted:
            return ("over", None)
        if result is not None:
            return ("goto", result)
        # the kong stands
        seat.discards.pop()
        mk = self.mk.get(opt.kind)
        old = seat.melds[opt.extends]
        seat.melds[opt.extends] = GMeld(opt.kind, list(opt.tiles), mk.exposed, old.source, old.claimed)
        seat.changed()
        yield from self._event(a.name, bind)
        if mk.kong:
            yield from self._event("kong", bind)
        return None

    # ------------------------------------------------------------------ generic decisions

    def _window(self, event: str, bind: dict):
        """The decisions an event opens outside the turn and the claims (hand end, an action's name…)."""
        st = self.st
        actor = bind.get("actor")
        ai = actor.index if actor is not None else None
        tile = bind.get("tile")
        reading = bind.get("reading")
        if reading is None and st.winners:
            reading = self.winner_binding(st.winners[0]).get("reading")
        offers: dict[int, list[tuple[Move, _Offer]]] = {}
        lead = self.prog.actions.get(event)
        followers = set(lead.ir.follow) if lead is not None else set()
        for a in self.prog.actions_on.get(event, ()):
            if a.description or a.name in followers:
                continue
            for c in range(self.n):
                if not self._by_ok(a.ir.by, c, ai):
                    continue
                extra = {k: v for k, v in _b(bind).items() if k not in ("actor", "tile")}
                # a meld here is made from the seat's own tiles: the event's tile lies wherever the
                # event left it (the engine claims tiles only in the discard, added-kong and reveal windows)
                ms = self._action_moves(a, st.seats[c], tile, None, reading, **extra)
                if ms:
                    offers.setdefault(c, []).extend(ms)
        if not offers:
            return
        answers = {}
        ask = {}
        for c, ms in offers.items():
            comp = self._compulsory(ms)
            if comp is not None:
                answers[c] = comp
            else:
                ask[c] = self._with_pass(c, ms)
        if ask:
            got = yield from self._ask("window", ask, event, ai, tile)
            for c, mv in got.items():
                answers[c] = next(((m, o) for m, o in offers[c] if m == mv), (PASS, _Offer(None)))
        order = sorted(answers, key=lambda c: (answers[c][1].action.level if answers[c][1].action else 1 << 30,
                                               self.distance(ai if ai is not None else st.dealer, c)))
        for c in order:
            mv, o = answers[c]
            cb = {**bind, "actor": st.seats[c]}
            cb.pop("reading", None)
            yield from self._declines(c, offers[c], mv, _b(cb))
            if mv == PASS:
                continue
            yield from self._take(c, o, mv, _b(cb))

    # ------------------------------------------------------------------ the end of the hand

    def _win(self, infos: list[WinInfo]):
        st = self.st
        st.winners = [i.seat for i in infos]
        st.discarder = infos[0].discarder
        st.robbed = infos[0].robbed
        base = self._base
        base["builtin:winner"] = st.seats[infos[0].seat]
        base["builtin:discarder"] = self.seat_of(infos[0].discarder)
        base["builtin:robbed"] = self.seat_of(infos[0].robbed)
        for info in infos:
            seat = st.seats[info.seat]
            a = self.prog.actions[info.action]
            b = {"actor": seat, "winner": seat, "tile": self.tv(info.tile), "self_drawn": info.self_drawn,
                 "discarder": self.seat_of(info.discarder), "robbed": self.seat_of(info.robbed)}
            for name in self._run_effects(a.effects, info.reading_env(self), **b):
                self._hooks_only(name, b)
            yield from self._event(a.name, {**b, "reading": info.reading_env(self)})
            self._reveals("win")
            final = self._rescore(info)
            self.infos[info.seat] = final
            wb = {**b, **self.winner_binding(info.seat)}

            def rescore(info=info, seat=seat, wb=wb):
                f = self._rescore(info)
                self.infos[seat.index] = f
                wb.update(self.winner_binding(seat.index))

            yield from self._event("win", wb, between=rescore)
            self._record(self.infos[info.seat])
        first = self.infos[infos[0].seat]
        base["builtin:self_drawn"] = first.self_drawn
        base["builtin:score"] = first.result.score
        base["builtin:task_factor"] = self._task_factor(first)

    def _rescore(self, info: WinInfo) -> WinInfo:
        if self.shortcuts:
            if info.scored_at == self._ctx_version:
                return info  # nothing the scoring reads has changed since
            last = self.__dict__.get("_last_rescore")
            if last is not None and last[0] is info and last[1] == self._ctx_version:
                return last[2]  # asked again (after the `win` hooks) with no context value changed
        seat = self.st.seats[info.seat]
        forms = tuple(self.prog.actions[info.action].ir.win_forms)
        rules = self._rules_for(forms) if forms else self.rules
        h = self.hand_of(seat, list(info.concealed), info.tile, info.self_drawn)
        sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
        try:
            res = sc.run()
        except (HandError, *_EVAL_ERRORS) as exc:
            self.note_error(f"scoring the win: {exc}")
            return info
        if not res.win:
            self.note_error(f"the win no longer scores after the win's effects: {res.reason}")
            return info
        out = WinInfo(info.seat, info.tile, info.self_drawn, info.concealed, res, sc, info.discarder,
                      info.robbed, info.action, scored_at=self._ctx_version)
        self.__dict__["_last_rescore"] = (info, self._ctx_version, out)
        return out

    def _record(self, info: WinInfo) -> None:
        res = info.result
        ev = res.evaluation
        self.st.results[info.seat] = {
            "action": info.action, "tile": info.tile.name if info.tile else None, "self_drawn": info.self_drawn,
            "score": plain(res.score), "total": plain(res.total), "form": ev.reading.form if ev else "",
            "fans": [{"name": f.name, "pattern": f.pattern, "value": plain(f.value), "count": f.count}
                     for f in res.fans],
            "task_factor": plain(self._task_factor(info)),
        }

    def _exhaust(self):
        st = self.st
        st.exhausted = True
        yield from self._event("exhaust", {"actor": self.seat_of(st.last_drawer)})
        yield from self._hand_end()

    def _hand_end(self):
        st = self.st
        bind: dict[str, Any] = {}
        if st.winners:
            bind.update(self.winner_binding(st.winners[0]))
        yield from self._event("hand_end", bind)
        yield from self._event("settled", bind)
        nd = st.dealer
        if self.prog.next_dealer is not None:
            try:
                v = self.prog.next_dealer(self.env())
                if isinstance(v, Seat):
                    nd = v.index
            except _EVAL_ERRORS as exc:
                self.note_error(f"next_dealer: {exc}")
        st.next_dealer = nd


@lru_cache(maxsize=256)
def _tally(names: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """(name, copies) of a fixed tile list, once per list."""
    return tuple(Counter(names).items())


def _pick(moves: list[tuple[Move, _Offer]], mv: Move) -> tuple[Move, _Offer]:
    """The offer behind an answer: the first one with an equal move (a log replays moves by value),
    or a pass."""
    for item in moves:
        m = item[0]
        if m is mv or m == mv:
            return item
    return PASS, _Offer(None)


def _wilds_needed(e) -> int:
    """The fewest wildcards in the hand an `instant` condition can hold with: it says
    `count(t in hand: t.wild) >= N` (or `> N`, `== N`, either way round), alone or as a conjunct of an
    `and`. 0 when it says nothing of the kind. (`hand` holds the concealed tiles and the winning tile;
    only tiles of a wildcard kind can be wild there.)"""
    from ..ir import expr as E

    def counts_wilds(x) -> bool:
        return (isinstance(x, E.Comp) and x.func == "count" and len(x.binders) == 1
                and isinstance(x.source, E.Name) and x.source.ref == "builtin:hand"
                and isinstance(x.body, E.Attr) and x.body.name == "wild" and isinstance(x.body.obj, E.Name)
                and x.body.obj.ref == f"binder:{x.binders[0]}")

    if isinstance(e, E.Binary) and e.op == "and":
        return max(_wilds_needed(e.left), _wilds_needed(e.right))
    if isinstance(e, E.Compare) and len(e.ops) == 1:
        (op,), (a, b) = e.ops, e.operands
        if counts_wilds(b) and isinstance(a, E.Num):
            a, b, op = b, a, {"<=": ">=", "<": ">", "==": "=="}.get(op, "")
        if counts_wilds(a) and isinstance(b, E.Num):
            n = Fraction(b.text)
            if op == ">=" or (op == "==" and n.denominator == 1):
                return max(0, math.ceil(n))
            if op == ">":
                return max(0, math.floor(n) + 1)
    return 0


def _tile_free_prefix(e):
    """The leading `and` conditions of a guard that do not read `tile`, as one compiled closure (None:
    the first condition reads `tile`)."""
    from ..evaluate import compile_expr
    from ..ir import expr as E

    if e is None:
        return None
    lead = []
    for c in E.conjuncts(e):
        if any(isinstance(n, E.Name) and n.ref == "builtin:tile" for n in E.walk(c)):
            break
        lead.append(c)
    if not lead:
        return None
    pre = lead[0]
    for c in lead[1:]:
        pre = E.Binary(op="and", left=pre, right=c, span=pre.span)
    return compile_expr(pre)


def _b(bind: dict) -> dict:
    """Bindings without the reading (passed separately to `env`)."""
    return {k: v for k, v in bind.items() if k != "reading"}
