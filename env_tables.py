"""Many tables of one rule set stepped from one call (`Tables.step_many`): the batched face of the learning
environment (paili.env's docstring: the action space, the observation, the rewards; docs/env.md)."""
from __future__ import annotations

import random

import numpy as np

from .env_layout import EXTRA, Layout, prepare_native, rules_of, settled
from .runtime.backend import choose
from .runtime.game import Game
from .runtime.game.native_game import NativeGame, hands_by_number, native_played
from .runtime.game.native_tables import act_many, encode_many, step_many

_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)  # (dtype objects: `frombuffer` reads them without parsing)
_frombuffer = np.frombuffer


class Tables:
    """Many tables of one rule set stepped together: `step_many(actions)` applies one action at every
    table (for the seat each table waits on) and returns every table's next observation at once. A table
    whose hand ends is dealt the next hand (the next of `seed`'s sequence) in the same call; its `done`
    is true for that call, and its rewards are the ended hand's deltas (0 for every other step)."""

    def __init__(self, rules, tables: int, options: dict | None = None, seed: int = 0, extra: int = EXTRA,
                 backend: str | None = None):
        if tables < 1:
            raise ValueError(f"tables must be at least 1, not {tables}")
        self.backend = choose(backend)
        self.rules = rules_of(rules)
        self.options = dict(options or {})
        self.layout = Layout(self.rules, self.options, extra)
        self.n = tables
        self._seeds = random.Random(seed)
        self.games: list[Game] = []
        self.hands_done = 0
        prepare_native(self)

    def _deal(self) -> Game:
        return Game(self.rules, self.options, self._seeds.randrange(1 << 31), backend=self.backend)

    def reset(self):
        """Deal every table; returns (observations [T, D], masks [T, A], seats [T])."""
        self.games = [self._deal() for _ in range(self.n)]
        self._legal = [None] * self.n
        self._seats = [0] * self.n
        return self._observe_all()

    def _observe_all(self):
        obs = np.zeros((self.n, self.layout.dim), dtype=np.float32)
        masks = np.zeros((self.n, self.layout.size), dtype=np.int8)
        self._observe(range(self.n), obs, masks)
        return obs, masks, np.array(self._seats, dtype=np.int64)

    def _observe(self, tables, obs: np.ndarray, masks: np.ndarray) -> None:
        """Tables `tables`' seats to act (`_seats`), arrays (into `obs` and `masks`) and legal actions."""
        lay = self.layout
        games = self.games
        seats = self._seats  # the seat each table waits on (`step_many`)
        rest = []
        for t in tables:
            g = games[t]
            seats[t] = seat = g.current_seats()[0]
            # a native game whose moves go to its native hand by number: its arrays read natively, one call
            got = g.encoded(seat, lay.json) if type(g) is NativeGame and g.by_number() else None
            if got is None:
                rest.append(t)
                continue
            obs[t] = _frombuffer(got[0], _F32)
            masks[t] = _frombuffer(got[1], _I8)
            self._legal[t] = None  # the move named natively
        if rest:
            self._observe_rest(rest, obs, masks)
        # whether every table's next action goes to its native hand by number (`step_many` in one call)
        self._by_number = all(x is None for x in self._legal)

    def _observe_rest(self, tables, obs: np.ndarray, masks: np.ndarray) -> None:
        """`_observe` of the tables whose arrays or legal actions are not all read natively."""
        lay = self.layout
        games = self.games
        seats = self._seats
        # the native games' arrays in one native call (engine/observe.rs `encode_many`); their moves are
        # named by action natively (`act_many`, `step_many`) where no Python game is kept beside them
        # (`by_number`)
        native = [t for t in tables if native_played(games[t])]
        done = {}
        if native:
            got_obs, got_slots, got = encode_many([games[t] for t in native], [seats[t] for t in native], lay.json)
            obs[native] = np.frombuffer(got_obs, dtype=np.float32).reshape(len(native), lay.dim)
            masks[native] = np.frombuffer(got_slots, dtype=np.int32).reshape(len(native), lay.size) >= 0
            done = {t: got[j] for j, t in enumerate(native)}
        for t in tables:
            g = games[t]
            if done.get(t) and g.by_number():
                self._legal[t] = None  # the move named natively
                continue
            legal = lay.actions_of(g.legal_moves(seats[t]))
            self._legal[t] = legal
            if not done.get(t):
                masks[t] = 0
                masks[t, list(legal)] = 1
                lay.encode(g.observation(seats[t]), obs[t])

    def _actions(self, actions) -> list[int]:
        actions = np.asarray(actions).reshape(-1)
        if len(actions) != self.n:
            raise ValueError(f"{len(actions)} actions for {self.n} tables")
        acts = actions.tolist()
        if actions.dtype.kind not in "iu":
            acts = [a if isinstance(a, int) else int(a) for a in acts]
        return acts

    def _ended(self, t: int, rewards: np.ndarray, done: np.ndarray) -> None:
        """Table t's hand is over: its deltas as rewards, and the next hand dealt there."""
        rewards[t] = settled(self.games[t], self.layout.json)[0]
        done[t] = True
        self.hands_done += 1
        self.games[t] = None  # its native hand back to the pool before the next hand is dealt
        self.games[t] = self._deal()

    def step_many(self, actions):
        """Apply `actions[t]` at table t; returns (observations, masks, seats, rewards [T, players],
        done [T])."""
        acts = self._actions(actions)
        rewards = np.zeros((self.n, self.layout.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        hands = self._native_hands() if self._by_number else None
        if hands is not None:
            return self._step_native(acts, hands, rewards, done)
        by_action: list[int] = []  # the tables whose action names its move natively (`act_many`)
        moves: list = []
        for t in range(self.n):
            a = acts[t]
            if self._legal[t] is None and not self.games[t].by_number():
                # a Python game kept beside the native one since the table was observed (a reference
                # attribute read): its move named here and applied by `apply`, which keeps both in step
                self._legal[t] = self.layout.actions_of(self.games[t].legal_moves(self._seats[t]))
            if self._legal[t] is None:
                if not 0 <= a < self.layout.size:
                    raise ValueError(f"table {t}: action {a} is not legal now (see its mask)")
                by_action.append(t)
            else:
                move = self._legal[t].get(a)
                if move is None:
                    raise ValueError(f"table {t}: action {a} is not legal now (see its mask)")
                moves.append((t, move))
        # every action checked before any is applied; the native tables' moves in one native call
        if by_action:
            refused = act_many([self.games[t] for t in by_action], [self._seats[t] for t in by_action],
                               [acts[t] for t in by_action], self.layout.json)
            if refused is not None:
                t = by_action[refused]
                raise ValueError(f"table {t}: action {acts[t]} is not legal now (see its mask)")
        for t, move in moves:
            self.games[t].apply(self._seats[t], move)
        for t, g in enumerate(self.games):
            if g.is_over():
                self._ended(t, rewards, done)
        obs, masks, seats = self._observe_all()
        return obs, masks, seats, rewards, done

    def _native_hands(self) -> list | None:
        """Every table's native hand, where every table's moves go to it alone by number (`by_number`);
        else None."""
        return hands_by_number(self.games)

    def _step_native(self, acts: list[int], hands: list, rewards: np.ndarray, done: np.ndarray):
        """`step_many` where every table's action goes to its native hand by number: the moves and the next
        arrays in one native call (engine/observe.rs `step_many`); the tables it leaves unfilled (a hand
        over, stopped, or not answered natively) dealt anew where over, and observed as `reset` observes."""
        lay = self.layout
        refused, got = step_many(self.games, self._seats, acts, lay.json, hands)
        if refused is not None:
            raise ValueError(f"table {refused}: action {acts[refused]} is not legal now (see its mask)")
        got_obs, got_masks, seats, filled = got
        obs = _frombuffer(got_obs, _F32).reshape(self.n, lay.dim)
        masks = _frombuffer(got_masks, _I8).reshape(self.n, lay.size)
        self._seats = seats
        if False in filled:
            rest = [t for t, f in enumerate(filled) if not f]
            for t in rest:
                if self.games[t].is_over():
                    self._ended(t, rewards, done)
            self._observe(rest, obs, masks)
        return obs, masks, np.array(self._seats, dtype=np.int64), rewards, done
