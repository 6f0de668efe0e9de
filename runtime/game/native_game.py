"""`Game` on the native backend (docs/engine-native.md, "Switching backends"): a hand played by the native
engine (`EngineHand`, runtime/native/src/engine/hand_binding.rs) behind the same public methods, returning
the same Python values as the reference (`flow.Game`).

- `current_seats`, `legal_moves` (as `Move`s stamped with the decision's number), `apply`, `is_over`,
  `snapshot`, `clone`, `result`, `table_values`, `player_values`, the moves, the rolls (`chance`) and the
  invariants checked after every move are answered from the native hand: its decision, its state
  (`HandState.snapshot`), its continuation and the winners' records (`EngineHand.results`). A move is
  checked here, before the native hand sees it, by the reference's own checks in the reference's order
  (`refusals.refusal`), so an illegal move is refused with the same sentence and nothing changes; a move
  `legal_moves` handed out for this decision is applied by its number. Observations are the native
  hand's view (engine/observe.rs, native_views.py); the rule set, catalog, program, settings and seat
  names are the prepared game's (`Shell`); the native bots choose on the native state (native_bot.py
  `game_choice`).
- What the native hand does not answer is answered by a Python game replayed from the hand's setup and
  moves (`Game.restore` rebuilds a hand that way), kept beside it from then on (`mirror`): any other
  attribute of the reference's game a caller reads (its `st`, `infos`, `pending` steps, another bot's
  questions; forwarded one by one, native_forward.py). Each such replay is counted (`Rules.engine`: `mirrors`).
- A hand the native engine stops in (a step not ported, an evaluation the reference would have caught, a
  limit), a rule set or a setup it does not take, or a result it cannot write, goes on in Python, replayed
  from its setup and moves: each is counted with its reason (`Rules.stats()` `engine_fallbacks`).
"""
from __future__ import annotations

import json
import os
import weakref
from fractions import Fraction

from ..backend import CHOICES, ENV, BackendError
from ..money import exact
from .moves import Move
from .native_forward import forward
from .native_offers import plain_move
from .native_pool import Pool, Shell
from .native_records import carried, move_problems, number, winner_record
from .native_views import NativeViews
from .records import Ask, IllegalMove
from .refusals import refusal, seat_arg
from .snapshot import FORMAT, VERSION, setup_json


def asked(backend: str | None) -> bool:
    """Whether games are asked of the native backend: `backend` when given, else `PAILI_BACKEND`;
    `native` and `auto` (the default) do — the game is then played natively where its rules are on the
    native backend and the native engine takes the rule set and the hand (else in Python, counted) —
    `python` keeps it in Python (docs/engine-native.md, "Switching backends")."""
    name = (backend or os.environ.get(ENV) or "auto").strip().lower()
    if name not in CHOICES:
        raise BackendError(f"unknown backend '{name[:40]}' (choose one of: {', '.join(CHOICES)})")
    return name != "python"


_new = object.__new__


def _move(m: list, decision: int) -> Move:
    """A move as the native side writes it ([action, tiles, choice, meld]), stamped with its decision. Made
    with its fields set at once (the frozen dataclass's `__init__` sets each through `object.__setattr__`,
    twice the time, and a decision's every move is made): the same value, equal and hashed alike."""
    action, tiles, choice, meld = m
    if type(choice) is dict and "rat" in choice:
        choice = Fraction(*choice["rat"])
    out = _new(Move)
    out.__dict__.update(action=action, tiles=tuple(tiles), choice=choice, meld=meld, decision=decision)
    return out


def start(cls, rules, options, seed, kw: dict):
    """A native game, or None when this hand is to be played in Python (counted with its reason). `cls`:
    the reference's game class (`flow.Game`), which makes what the native hand takes of the reference."""
    counts = rules.engine
    if counts.pool is None:
        counts.pool = Pool()
    shell = Shell.of(cls, rules, options, seed, kw, counts.pool)  # the reference's checks, settings, catalog
    counts.games += 1
    why = None
    balances = kw.get("balances")
    if balances is not None and not all(type(b) is int and b.bit_length() < 63 for b in balances):
        why = "balances that are not whole numbers"
    hand = None
    if why is None:
        try:
            hand, idle = counts.pool.take(rules, shell)
        except ValueError as exc:  # the native side does not take this rule set (one sentence)
            why = f"the rule set: {exc}"
        else:
            if hand is None:
                why = "no native scoring of whole hands"
    if why is None:
        try:
            hand.start(seed, kw.get("dealer"), balances, kw.get("table"), kw.get("players"), kw.get("wall"),
                       kw.get("tail"))
        except (ValueError, TypeError) as exc:
            why = f"the setup: {exc}"
        else:
            why = hand.refused()
    if why is not None:
        counts.fell_back(why)
        if hand is not None:
            Pool.give_back(idle, hand)
        return None
    forward(NativeGame, NativeGame.OWN, cls)  # (once) what else a caller reads of a game: its Python game's
    g = NativeGame(cls, shell, hand)
    weakref.finalize(g, Pool.give_back, idle, hand)
    return g


def native_played(g) -> bool:
    """Whether game g is a native game whose native hand plays on (not handed back to Python)."""
    return isinstance(g, NativeGame) and not g._primary


def hands_by_number(games) -> list | None:
    """Every game's native hand, where every game is a native game whose moves go to its native hand alone
    (`NativeGame.by_number`), else None: what the learning environment's `Tables.step_many` checks at every
    call, read in one loop (two method calls a game before)."""
    hands = []
    for g in games:
        if type(g) is not NativeGame or g._primary or g._py is not None:
            return None
        hands.append(g._hand)
    return hands


class NativeGame(NativeViews):
    """One hand played natively (the module's docstring). Built by `Game(..., backend="native")`."""

    # the attributes every instance sets (`__init__`): none is forwarded to the Python game (native_forward.py)
    OWN = ("_cls", "_shell", "_hand", "_py", "_primary", "_moves", "_unread", "_answers", "violations", "errors",
           "decision", "_ask", "_asked_seats", "_ask_read", "_seat_moves", "_snap", "_result", "_observers",
           "require_decision")

    def __init__(self, cls, shell, hand):
        self._cls = cls  # the reference's game class
        self._shell = shell  # the reference's game as `_prepare` left it: rule set, settings, catalog, setup
        self._hand = hand
        self._py = None  # the Python game, once one answers (`mirror`) or plays on (`_fall_back`)
        self._primary = False  # whether the Python game plays the hand (the native one stopped)
        self._moves: list[tuple[int, Move]] = []
        # moves applied by number, as the native hand wrote them ((seat, JSON text, decision)), read into
        # `Move`s when `moves` is first read after them: a step of the environment reads none
        self._unread: list[tuple[int, str, int]] = []
        # the answers given to the decision asked (`answers`): a `Move`, or an answer applied by number as
        # the native hand wrote it (JSON text), read into a `Move` when `answers` is read
        self._answers: dict[int, Move | str] = {}
        self.violations: list[str] = []
        self.errors: list[str] = []
        self.decision = 0
        self._ask: Ask | None = None  # the decision asked, once read (`_asked`)
        self._asked_seats: list[int] | None = None  # the seats it asks (None: none is asked)
        self._ask_read = False
        # one seat's legal moves as `Move`s, read alone (`legal_moves`) while the whole decision is not
        # read: what a caller asking one seat at a time reads, and the objects `apply` knows again
        self._seat_moves: dict[int, list[Move]] = {}
        self._snap: dict | None = None  # the native snapshot, until the next move
        self._result: dict | None = None  # `result()`, until the next move (read at every decision by `paili play`)
        self._observers: dict = {}  # the pool's observers this game asked, by layout (`_observer`)
        self.require_decision = shell.require_decision
        self._new_decision()

    # --- the reference's game, when one is needed
    def mirror(self, counted: bool = True):
        """The Python game in the same state (replayed from the setup and the moves on first use, then
        kept in step): what answers what the native hand does not."""
        if self._py is None:
            self._shell.rules.engine.mirrors += counted
            args = dict(self._shell.setup_args)
            g = self._cls(self._shell.rules, backend="python", **args)
            for seat, mv in self.moves:
                g.apply(seat, mv)
            g.violations = list(self.violations)
            self._py = g
        return self._py

    def native_bot_hand(self):
        """(the reference's game as prepared — rule set, catalog, decomposer, program — and the native
        hand) while the native hand plays, for the native bots (runtime/game/native_bot.py `game_choice`);
        None once the Python game plays the hand."""
        return None if self._primary else (self._shell, self._hand)

    def _fall_back(self, why: str) -> None:
        self._shell.rules.engine.fell_back(why)
        self.mirror(counted=False)
        self._primary = True

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """The moves applied, (seat, `Move`) in order (`Game.moves`)."""
        if self._unread:
            self._moves.extend((seat, _move(json.loads(text), d)) for seat, text, d in self._unread)
            self._unread = []
        return self._moves

    @moves.setter
    def moves(self, value: list) -> None:
        self._moves, self._unread = value, []

    @property
    def answers(self) -> dict[int, Move]:
        """The answers given to the decision asked so far, by seat (`Game.answers`)."""
        got = self._answers
        for s, m in got.items():
            if type(m) is str:
                got[s] = _move(json.loads(m), self.decision)
        return got

    @answers.setter
    def answers(self, value: dict) -> None:
        self._answers = value

    # --- what the native hand answers
    def _new_decision(self, seats=False) -> None:
        """After the native hand ran on: the decision it asks now (`seats`: the seats it asks, as the native
        hand gave them after a move; read from it when not given), numbered as the reference numbers it (its
        options read from the native hand when first asked for, `_asked`)."""
        self._snap = self._result = None
        if seats is False:
            seats = self._hand.asked()
        self._ask = None
        self._seat_moves = {}
        self._asked_seats = None if seats is None else sorted(seats)
        if seats is not None:
            self.decision += 1
            self._ask_read = False

    def _asked(self) -> Ask | None:
        """The decision asked, with every seat's options as `Move`s stamped with its number."""
        if self._asked_seats is not None and not self._ask_read:
            d = json.loads(self._hand.pending())
            cat = self._shell.cat.by_name
            got = self._seat_moves
            options = {int(s): got.get(int(s)) or [_move(m, self.decision) for m in ms]
                       for s, ms in d["options"].items()}
            self._ask = Ask(d["kind"], options, d["event"], d["actor"],
                            cat[d["tile"]] if d["tile"] is not None else None)
            self._ask_read = True
        return self._ask

    def _native(self) -> dict:
        if self._snap is None:
            self._snap = json.loads(self._hand.snapshot())
        return self._snap

    @property
    def rules(self):
        return self._shell.rules

    @property
    def setup_args(self) -> dict:
        return self._shell.setup_args

    @property
    def n(self) -> int:
        return self._shell.n

    @property
    def seed(self):
        return self._shell.seed

    # the reference's prepared game (`Shell`): what `paili play`, the bots and the learning environment read
    # of a game besides its state, answered without a Python game
    @property
    def rs(self):
        return self._shell.rs

    @property
    def cat(self):
        return self._shell.cat

    @property
    def dec(self):
        return self._shell.dec

    @property
    def prog(self):
        return self._shell.prog

    @property
    def settings(self) -> dict:
        return self._shell.settings

    @property
    def options(self) -> dict:
        return self._shell.options

    def seat_names(self) -> list[str | None]:
        """`Game.seat_names`: each seat's name counted in play order from the dealer (None for every seat when
        the rule set names fewer than the table's players)."""
        if self._primary:
            return self._py.seat_names()
        n, table = self._shell.n, self._shell.rs.table
        out: list[str | None] = [None] * n
        if len(table.seat_names) >= n:
            step = -1 if table.rotation == "clockwise" else 1  # (`Game.step`)
            dealer = self.dealer()
            for k in range(n):
                out[(dealer + step * k) % n] = table.seat_names[k]
        return out

    def finished(self) -> bool:
        """`Game.finished`: no more draws or discards in this hand."""
        return self._py.finished() if self._primary else self._native()["state"]["finished"]

    @property
    def pending(self) -> Ask | None:
        return self.mirror().pending if self._primary else self._asked()

    def current_seats(self) -> list[int]:
        if self._primary:
            return self._py.current_seats()
        if self._asked_seats is None:
            return []
        return [s for s in self._asked_seats if s not in self._answers]

    def legal_moves(self, seat: int) -> list[Move]:
        if self._primary:
            return self._py.legal_moves(seat)
        seat = seat_arg(self._shell.n, seat)
        if self._asked_seats is None or seat in self._answers:
            return []
        if self._ask_read:
            return list(self._ask.options.get(seat, []))
        got = self._seat_moves.get(seat)
        if got is None:  # this seat's moves alone, not the whole decision's
            got = self._seat_moves[seat] = [_move(m, self.decision) for m in json.loads(self._hand.legal_moves(seat))]
        return list(got)

    def is_over(self) -> bool:
        return self._py.is_over() if self._primary else self._hand.is_over()

    def apply(self, seat: int, move: Move) -> None:
        """`Game.apply`: the same checks and sentences (`refusals.refusal`), then the native hand."""
        if self._primary:
            self._py.apply(seat, move)
            self.moves = self._py.moves
            return
        if self._py is None and type(seat) is int and seat not in self._answers:
            # a move handed out by `legal_moves` for this decision (the same object): legal, so played by
            # its number, as `apply_index` plays it (the checks below would all pass)
            legal = self._seat_moves.get(seat) or (self._ask.options.get(seat) if self._ask_read else None)
            if legal:
                for i, m in enumerate(legal):
                    if m is move:
                        self.took(seat, self._hand.apply_step(seat, i))
                        return
        seat = seat_arg(self._shell.n, seat)
        move, bad = refusal(self, seat, move, self.is_over(), self._asked())
        if bad is not None:
            raise IllegalMove(bad)
        self._answers[seat] = move
        self.moves.append((seat, move))
        if self._py is not None:
            self._py.apply(seat, move)
        try:
            self._hand.apply(seat, json.dumps(plain_move(move), ensure_ascii=False))
        except ValueError as exc:  # (checked above: a refusal here is the native hand's own)
            self._fall_back(f"a move: {exc}")
            return
        self._applied()

    def apply_index(self, seat: int, index: int) -> None:
        """Apply seat's legal move number `index` (in `legal_moves` order; the learning environment's
        action slots name it): as `apply` applies that move, without reading the decision's options into
        `Move`s first (the move applied is read back from the native hand)."""
        if self._primary or self._py is not None:  # a Python game plays or is kept in step: its way
            moves = self.legal_moves(seat)
            if not 0 <= index < len(moves):
                raise IllegalMove(f"seat {seat} has no legal move number {index} now")
            self.apply(seat, moves[index])
            return
        seat = seat_arg(self._shell.n, seat)
        try:
            took = self._hand.apply_step(seat, index)
        except ValueError as exc:  # (nothing changed: not asked, answered, or no such move)
            raise IllegalMove(str(exc)) from None
        self.took(seat, took)

    def by_number(self) -> bool:
        """Whether `apply_index` goes to the native hand alone (no Python game plays or is kept in step):
        what `apply_many` plays in one native call."""
        return not self._primary and self._py is None

    def took(self, seat: int, took: tuple) -> None:
        """The bookkeeping after the native hand played seat's move by number (`EngineHand.apply_step`:
        the move's text, the seats asked now, why it stopped, whether the invariants hold, over; `act_into`'s
        tuple has more items after these)."""
        text, asked, why, intact = took[0], took[1], took[2], took[3]  # (`act_into` gives more after them)
        self._unread.append((seat, text, self.decision))
        if len(self._answers) + 1 == len(self._asked_seats):  # the decision is answered whole: run on
            self._answers = {}
            # `_new_decision(asked)` written out (a step of the environment takes this path every move)
            self._snap = self._result = self._ask = None
            if self._seat_moves:
                self._seat_moves = {}
            if asked is None:
                self._asked_seats = None
            else:
                self._asked_seats = sorted(asked)
                self.decision += 1
                self._ask_read = False
        else:  # the seats still to answer see this answer (`answers`, `snapshot`)
            self._answers[seat] = text
            self._snap = self._result = None
        if why is not None or not intact:  # (else `_after` has nothing to do: a step of the environment)
            self._after(why, intact)

    def _applied(self) -> None:
        """After the native hand took a move (`apply`): the next decision, a stop, the invariants."""
        if len(self._answers) == len(self._asked_seats):
            self._answers = {}
            self._new_decision()
        else:
            self._snap = self._result = None
        self._after(self._hand.refused(), self._hand.invariants_hold())

    def _after(self, why: str | None, intact: bool) -> None:
        """A stop (`why`), or the invariants: checked natively (`intact`); where one does not hold, the
        reference's sentences written by `_check_move`."""
        if why is not None:
            self._fall_back(why)
            return
        if not intact and self._shell.check:
            problems = move_problems(self._shell, json.loads(self._hand.tally()), self._native)
            if problems:
                self.violations.extend(problems)

    def snapshot(self) -> dict:
        """`Game.snapshot()`: the same keys and values (runtime/game/snapshot.py)."""
        if self._primary:
            return self._py.snapshot()
        snap = self._native()
        out = {"format": FORMAT, "version": VERSION, "variant": self._shell.rs.variant.id}
        out.update(snap["state"])
        ask = self._asked()
        out["pending"] = None if ask is None else {
            "kind": ask.kind, "event": ask.event,
            "options": {str(s): [str(m) for m in ms] for s, ms in ask.options.items()}}
        out["answers"] = {str(s): str(m) for s, m in self.answers.items()}
        out["moves"] = [[s, str(m)] for s, m in self.moves]
        out["errors"] = list(self.errors)
        out["decision"] = self.decision
        out["continuation"] = snap["continuation"]
        out["depth"] = [snap["depth"], 0]  # (no event is being emitted while a decision is asked)
        out["setup"] = setup_json(self._shell)
        out["history"] = [[s, m.to_json()] for s, m in self.moves]
        return out

    def clone(self):
        """An independent game in the same state: the hand set up again and its moves applied natively."""
        if self._primary:
            return self._py.clone()
        g = self._cls(self._shell.rules, backend="native", **self._shell.setup_args)
        for seat, mv in self.moves:
            g.apply(seat, mv)
        g.violations = list(self.violations)
        return g

    def result(self) -> dict:
        """`Game.result()`: the state's fields, and the winners' records (`EngineHand.results`)."""
        if self._primary:
            return self._py.result()
        got = self._result
        if got is None:
            got = self._result = self._made_result()
            if self._primary:  # (the winners' records handed the hand back)
                self._result = None
                return got
        # as the reference gives it, a dict of its own: its lists and dicts copied (the records within shared)
        return {k: v.copy() if type(v) in (list, dict) else v for k, v in got.items()}

    def _made_result(self) -> dict:
        # the fields it reads, without the whole snapshot where none is read yet
        st = self._snap["state"] if self._snap is not None else json.loads(self._hand.outcome())
        scores = {}
        if st["winners"]:
            got = self._hand.results()
            if got is None:
                self._fall_back("the winners' records")
                return self._py.result()
            recs = json.loads(got)
            scores = {w: winner_record(self._shell, recs[str(w)]) for w in st["winners"] if str(w) in recs}
        deltas = [number(d) for d in st["deltas"]]
        plain_balances = st["balances"] if "balances" in st else [s["balance"] for s in st["seats"]]
        balances = [number(b) for b in plain_balances]
        out = {
            "over": st["over"], "winners": list(st["winners"]), "exhausted": st["exhausted"], "dealer": st["dealer"],
            "discarder": st["discarder"], "robbed": st["robbed"], "next_dealer": st["next_dealer"],
            "task": st["task"], "scores": scores, "payments": st["payments"], "deltas": st["deltas"],
            "fees": st["fees"], "balances": list(plain_balances), "events": st["events"],
            "deltas_exact": [exact(d) for d in deltas], "fees_exact": exact(number(st["fees"])),
            "balances_exact": [exact(b) for b in balances],
        }
        if self._shell.rs.table.winners_leave:
            out["first_winners"] = list(st["first_winners"])
        return out

    def table_values(self) -> dict:
        if self._primary:
            return self._py.table_values()
        rs = self._shell.rs
        kinds = {s.name: s for s in rs.states if s.scope == "table" and s.lives == "session"}
        return {k: carried(self._shell, kinds[k], v) for k, v in self._native()["state"]["table"].items() if k in kinds}

    def player_values(self) -> list[dict]:
        if self._primary:
            return self._py.player_values()
        states = [s for s in self._shell.rs.states if s.scope == "player" and s.lives == "session"]
        return [{s.name: carried(self._shell, s, seat["vars"][s.name]) for s in states}
                for seat in self._native()["state"]["seats"]]

    def rolls(self) -> list[dict]:
        return self._py.rolls() if self._primary else self._native()["state"]["chance"]

    def dealer(self) -> int:
        return self._py.dealer() if self._primary else self._native()["state"]["dealer"]

    def balances(self) -> list:
        if self._primary:
            return self._py.balances()
        return [number(s["balance"]) for s in self._native()["state"]["seats"]]

    def tile_code(self, name: str) -> str | None:
        return self._shell.tile_code(name)
