"""The game engine's face: `Game`, one hand of a rule set, assembled from its step modules (values, winning,
setup, events, offers, turn, claims, ending). The model is docs/engine.md."""
from __future__ import annotations

import copy
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

from ..hand import HandError
from ..ir import nodes as ir
from ..limits import MAX_TABLE_SIZE
from ..money import exact
from ..rules import Rules, load
from ..tiles import TileInfo
from . import snapshot as snapshots
from .arguments import check_common, check_game, check_seats, kind_of
from .claims import Claims
from .ending import Ending
from .engine_limits import unexecuted
from .events import Events
from .moves import Move
from .offers import Offers
from .opening import HandStart
from .program import CAction, program_for
from .records import (
    Ask,
    GameError,
    IllegalMove,
    WinInfo,
)
from .refusals import refusal, seat_arg
from .setup import Setup
from .state import HandState, Seat, plain
from .turn import Turns
from .values import Values
from .win_trial import WinTrial
from .winning import Winning

DEFAULT_BALANCE = 1000


def _option_value_problem(s: ir.Setting, v) -> str | None:
    """Why a room option's value cannot be taken (a value as a caller or a log gives it), or None.
    Numbers are exact: a float is taken only where the option is a number (`num`) and it is finite."""
    if isinstance(v, str):
        return None if len(v) <= 100 else "the value is too long"
    if s.type == "bool":
        return None if isinstance(v, bool) else f"takes true or false, not {kind_of(v)}"
    if isinstance(v, bool):
        return f"takes {'a number' if s.type in ('int', 'num', 'seat') else 'a tile'}, not true or false"
    if s.type in ("int", "seat"):
        if isinstance(v, int):
            return None if v.bit_length() <= 64 else "the number is too large"
        if isinstance(v, Fraction) and v.denominator == 1:
            return None
        return f"takes a whole number, not {kind_of(v) if not isinstance(v, (float, Fraction)) else v}"
    if s.type == "num":
        if isinstance(v, Fraction) or (isinstance(v, int) and v.bit_length() <= 64):
            return None
        if isinstance(v, float):
            return None if math.isfinite(v) else f"takes a finite number, not {v}"
        return f"takes a number, not {kind_of(v)}"
    return f"takes a tile name, not {kind_of(v)}"


def unsupported(rs: ir.RuleSet) -> list[str]:
    """What this rule set asks of the engine that it does not execute, as sentence fragments with their
    place (the checker's W605 list: `runtime/game/engine_limits.py`)."""
    return [f"{what} ({span})" for what, span in unexecuted(rs)]


class Game(Values, Winning, WinTrial, Setup, Events, Offers, HandStart, Turns, Claims, Ending):
    """One hand. `options` are room options by name; `seed` decides the shuffle and every random draw.

    Keyword arguments: `dealer` (seat), `balances` (per seat, default 1000 each), `table` (table state
    values carried from an earlier hand), `players` (per seat, player state values carried likewise;
    only states declared `lives session` take a carried value), `wall` / `tail` (tile notation lists
    fixing the first and the last tiles of the wall, for scenarios), `check` (verify invariants after
    every move), `require_decision` (refuse a move that does not say which decision it answers: for
    servers relaying moves from clients; see `apply`)."""

    # Every attribute of a game is declared here, the memos with the rest (each is made in `__init__`,
    # with what keys it): a clone copies these fields (runtime/game/snapshot.py), and no memo can be hung
    # on a game undeclared. The step modules' classes declare none of their own.
    __slots__ = (
        # the rule set, the room and what is made from them alone (those a clone shares: snapshot.SHARED)
        "rules", "rs", "prog", "options", "seed", "setup_args", "require_decision", "settings", "cat", "dec",
        "setup_env", "n", "step", "check", "fee_rate", "start_balances", "initial_counts", "_n_tiles", "mk",
        "_win_actions", "_instead", "_precheck", "_phase_events", "_moving_reveals",
        # the hand: its state, its course and what was asked and answered
        "rng", "decision", "errors", "violations", "moves", "st", "_hand_wild", "_win_wild", "_ctx_version",
        "_base", "infos", "pending", "answers", "decision_depth", "emit_depth", "pending_steps", "_transit",
        # memos
        "_score_env_cache", "_target_cache", "_restrict_cache", "_discard_cache", "_offerable_cache",
        "_unusable_cache", "_restrict_plans", "_instant_of", "_forms_rules", "_win_cache", "_free", "_nat_blocks",
        "_wild_any", "_visible", "_wild_tiles", "_last_rescore", "_ranks", "_meld_values", "_special",
        "_instant_need", "_trial_cache",
    )

    # Exact shortcuts (a hand that cannot be ready, a seat that cannot claim, …) taken before the full
    # computation they stand for; turned off only to show that play is identical without them.
    shortcuts = True

    def __new__(cls, rules: Rules | str | Path = None, options: dict | None = None, seed: int = 0, *,
                backend: str | None = None, **kw):
        """`backend` ('auto', 'native', 'python'; None: `PAILI_BACKEND`, else 'auto'): under 'auto' and
        'native', with the rules on the native backend, the hand is played by the native engine behind the
        same methods (runtime/game/native_game.py), or in Python where it does not take the rule set or the
        hand (counted: `Rules.stats()` `engine_fallbacks`); 'python' plays it here."""
        from . import native_game

        if cls is Game and rules is not None and native_game.asked(backend):
            if not isinstance(rules, Rules):
                check_common(rules, options, seed, kw.get("balances"), kw.get("check", True))
                rules = load(rules)
            if rules.backend == "native":
                g = native_game.start(Game, rules, options, seed, kw)
                if g is not None:
                    return g
        return object.__new__(cls)

    def __init__(self, rules: Rules | str | Path, options: dict | None = None, seed: int = 0, *,
                 dealer: int | None = None, balances: list | None = None, table: dict | None = None,
                 wall: list[str] | str | None = None, tail: list[str] | str | None = None, check: bool = True,
                 players: list[dict] | None = None, require_decision: bool = False, backend: str | None = None):
        self._prepare(rules, options, seed, dealer, balances, table, wall, tail, check, players, require_decision)
        self.pending_steps = [self._hand()]  # the hand's continuation: its pending steps, innermost last
        self._advance(None)

    @classmethod
    def setup_state(cls, rules: Rules | str | Path, options: dict | None = None, seed: int = 0, *,
                    dealer: int | None = None, balances: list | None = None, table: dict | None = None,
                    players: list[dict] | None = None, wall: list[str] | str | None = None,
                    tail: list[str] | str | None = None) -> dict:
        """The hand's state (`HandState.snapshot`) after its setup and before its first event: the wall
        shuffled, the dealer chosen, states at their start, the task drawn, the reveals of the deal
        flipped, the tiles dealt and the flowers replaced. The point another engine's setup is compared at
        (the native engine's `engine_setup`, docs/engine-native.md); the game itself is not kept."""
        g = object.__new__(cls)
        g._prepare(rules, options, seed, dealer, balances, table, wall, tail, False, players, False)
        return g._set_up()

    @classmethod
    def prepared(cls, rules: Rules | str | Path, options: dict | None, seed: int, kw: dict) -> Game:
        """A game made as `Game(rules, options, seed, **kw)` makes it, stopped before the hand's course
        starts: the arguments checked, the settings, the catalog and the setup (what the native backend
        takes of the reference, runtime/game/native_game.py)."""
        g = object.__new__(cls)
        g._prepare(rules, options, seed, kw.get("dealer"), kw.get("balances"), kw.get("table"), kw.get("wall"),
                   kw.get("tail"), kw.get("check", True), kw.get("players"), kw.get("require_decision", False))
        return g

    def _set_up(self) -> dict:
        self.pending_steps = []
        self._setup_hand()
        return self.st.snapshot()

    def _prepare(self, rules, options, seed, dealer, balances, table, wall, tail, check, players,
                 require_decision) -> None:
        """Everything `__init__` makes before the hand's course starts (its arguments as there)."""
        check_common(rules, options, seed, balances, check)
        check_game(dealer, table, wall, tail, players, require_decision)
        if not isinstance(rules, Rules):
            rules = load(rules)
        self.rules = rules
        self.rs = rs = rules.ir
        self.prog = program_for(rules)
        missing = unsupported(rs)
        if missing:
            raise GameError(f"this engine does not execute {'; '.join(missing)}, which {rs.variant.id} uses")
        self.options = dict(options or {})
        self.seed = seed
        # what the hand was made with, as given (a snapshot or a clone rebuilds the hand from it)
        self.setup_args = copy.deepcopy({
            "options": self.options, "seed": seed, "dealer": dealer, "balances": balances, "table": table,
            "players": players, "wall": wall, "tail": tail, "check": check, "require_decision": require_decision})
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
        check_seats(n, dealer, balances)
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
        seats = [Seat(i) for i in range(n)]
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
        # memos worked out on first use, each beside what keys it
        self._free: tuple | None = None  # (the hand's wildcard set it was made from, that set with the stand-ins)
        self._nat_blocks: tuple | None = None  # (the free-names set, how many blocks hold a kind outside it)
        self._wild_any: bool | None = None  # whether a wildcard may play any kind in any group (the catalog's)
        self._visible: tuple | None = None  # (where a tile could be seen: lengths and versions, {name: count})
        self._wild_tiles: dict[str, TileInfo] = {}  # a wildcard kind's name -> its tile as wild (`tv`)
        self._last_rescore: tuple | None = None  # (a win, the context version, the win scored again)
        self._ranks: dict[str, dict[int, str]] = {}  # suit -> rank -> kind name
        self._meld_values: dict[tuple, object] = {}  # (meld kind, suit) -> the kind's declared value
        self._special: dict[tuple, bool] = {}  # forms -> whether one of them builds no split
        self._instant_need: dict[tuple, int] = {}  # instant forms -> the fewest wildcards a hand needs for one
        self._base = self._base_env()
        self._win_actions = self.prog.win_actions  # the same for every game of a rule set
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
        self._trial_cache: dict[str, tuple] = {}  # action -> what a win by it sets of the context (win_trial.py)
        self.infos: dict[int, WinInfo] = {}
        self.pending: Ask | None = None
        self.answers: dict[int, Move] = {}
        self._transit: list | None = None  # tiles given inside a decision asked together, not yet delivered
        self.decision_depth = self.emit_depth = 0

    def current_seats(self) -> list[int]:
        if self.pending is None:
            return []
        return [s for s in sorted(self.pending.options) if s not in self.answers]

    def _seat_arg(self, seat) -> int:
        return seat_arg(self.n, seat)

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
        move, bad = refusal(self, seat, move, self.st.over, self.pending)
        if bad is not None:
            raise IllegalMove(bad)
        self.answers[seat] = move
        self.moves.append((seat, move))
        if len(self.answers) == len(self.pending.options):
            answers, self.answers, self.pending = self.answers, {}, None
            self._advance(answers)
        if self.check:
            problems = self._check_move()
            if problems:
                self.violations.extend(problems)

    def is_over(self) -> bool:
        return self.st.over

    def dealer(self) -> int:
        """The hand's dealer (seat)."""
        return self.st.dealer

    def finished(self) -> bool:
        """Whether the hand's play is finished: no more draws or discards (`st.finished`; decisions the end
        opens may still be asked before `is_over`)."""
        return self.st.finished

    def rolls(self) -> list[dict]:
        """Every roll of the hand so far, in order (`HandState.chance`: target, seat, draws, value, move)."""
        return self.st.chance

    def balances(self) -> list:
        """Each seat's balance now (exact numbers)."""
        return [s.balance for s in self.st.seats]

    def observation(self, seat: int) -> dict:
        from .observe import observation

        return observation(self, self._seat_arg(seat))

    def onlooker_observation(self) -> dict:
        """What someone not seated sees (observe.py): revealed tiles and counts, no seat's own view."""
        from .observe import onlooker_observation

        return onlooker_observation(self)

    def tile_code(self, name: str) -> str | None:
        """The notation code of the tile named `name` (a suit's code such as `5m`, else the tile's character:
        `TileInfo.notation_code`), None for a name that is no tile of the rule set: `Move.to_json(game.tile_code)`
        writes a move's tiles' codes."""
        k = self.cat.by_name.get(name)
        return k.notation_code if k is not None else None

    def result(self) -> dict:
        st = self.st
        out = {
            "over": st.over, "winners": list(st.winners), "exhausted": st.exhausted, "dealer": st.dealer,
            "discarder": st.discarder, "robbed": st.robbed, "next_dealer": st.next_dealer, "task": st.task,
            "scores": {w: st.results[w] for w in st.winners if w in st.results},
            "payments": [p.to_json() for p in st.payments], "deltas": [plain(d) for d in st.deltas],
            "fees": plain(st.fees), "balances": [plain(s.balance) for s in st.seats],
            "events": dict(sorted(st.events.items())),
            "deltas_exact": [exact(d) for d in st.deltas], "fees_exact": exact(st.fees),
            "balances_exact": [exact(s.balance) for s in st.seats],
        }
        if self.rs.table.winners_leave:  # (only there: a log of any other rule set keeps its result lines)
            out["first_winners"] = list(st.first_winners)
        return out

    def snapshot(self) -> dict:
        """Everything about the hand, as JSON-exact plain data (equal snapshots: equal states), versioned;
        `Game.restore(rules, snapshot)` gives the game back."""
        return snapshots.snapshot(self)

    @classmethod
    def restore(cls, rules: Rules | str | Path, data: dict) -> Game:
        """The game a snapshot records; SnapshotError (one sentence) for anything that is not one."""
        return snapshots.restore(cls, rules if isinstance(rules, Rules) else load(rules), data)

    def clone(self) -> Game:
        """An independent game in the same state, which plays on exactly as this one would."""
        return snapshots.clone(self)

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
