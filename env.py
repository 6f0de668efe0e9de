"""A learning environment over any rule set: a PettingZoo AEC environment (`PailiEnv`) and many tables
stepped from one call (`Tables.step_many`). Needs the optional extra `env` (`pip install -e ".[env]"`:
pettingzoo, gymnasium, numpy); `import paili` does not import it. docs/env.md is its reference.

Built on the engine's public API (`Game.current_seats`, `legal_moves`, `apply`, `observation`, `is_over`,
`result`), and on the native backend on the native game's own arrays of the same view (`NativeGame.encoded`,
below). A seat sees exactly what `Game.observation(seat)` shows it (the rules' `observe` declarations
included); nothing else is read.

- Agents are `seat_0 … seat_{n-1}`; one episode is one hand. `reset(seed=S)` deals hand S;
  `reset()` deals the next seed of the environment's own sequence (from its `seed`).
- The action space is `Discrete(A)`, the same for every state of a rule set under its room options:
  `discard` of kind k is action k; `pass` is K (K kinds); a declared action j (in declaration order) with
  lowest tile k is `K + 1 + j*K + k` (a win: its winning tile; an action without tiles: k = 0); a legal
  move whose slot another legal move of the same state already holds (choices, meld kinds of the same
  tiles, selections) takes the next of `extra` overflow slots at the end, in `legal_moves` order.
  `action_mask` marks the legal actions; `move_of(action)` gives the engine's `Move`.
- The observation is `{"observation": float32[D], "action_mask": int8[A]}`, the layout in docs/env.md.
- Rewards are money: the step that ends the hand rewards every seat with its delta (`result()["deltas"]`:
  every payment of the hand, settled); every other step rewards 0.
- `backend` (`Game`'s: native, python, auto; None: `PAILI_BACKEND`, else the native engine where it is
  built): on the native engine the arrays are filled natively from the seat's view (`NativeGame.encoded`,
  `native_tables.encode_many`), the same values `Layout.encode` gives (tests/test_native_observe.py); a
  step's action is taken there and the next seat's arrays filled in the same call (`NativeGame.act_into`,
  `native_tables.step_many`): a `PailiEnv` step writes them into the next row of arrays it keeps (`ROWS`
  rows, then new ones), so the observation it hands out is a view of that row, written once.
"""
from __future__ import annotations

import functools
import json
import random
from fractions import Fraction

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .runtime.backend import choose
from .runtime.game import Game
from .runtime.game.native_game import NativeGame, hands_by_number, native_played
from .runtime.game.native_pool import prepare
from .runtime.game.native_tables import act_many, encode_many, step_many
from .runtime.rules import Rules

EXTRA = 64  # overflow slots for legal moves that share a slot (see the module docstring)
# rows of the arrays an environment's native steps write the next agent's observation and mask into (one
# row a step, each handed out once; `PailiEnv._new_rows`): a row read as a view costs less than new arrays
ROWS = 32
BOUND = 1e9  # observation values are clipped to ±BOUND (balances)
_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)  # (dtype objects: `frombuffer` reads them without parsing)
_frombuffer = np.frombuffer


def _rules(rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    from . import load

    return load(rules)


def _number(v) -> float:
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float, Fraction)):
        return float(v)
    if isinstance(v, str):  # exact money as text ("237/80")
        try:
            return float(Fraction(v))
        except (ValueError, ZeroDivisionError):
            return 0.0
    return 0.0


def _prepared(env) -> None:
    """On the native backend, the first native hand of the environment's rule set and room options made
    with the environment (`native_pool.prepare`: its programs lowered, its scoring and the layout's observer
    set up, tens of milliseconds once), not by its first hand: every hand then costs alike."""
    if env.backend == "native" and env.rules.backend == "native":
        prepare(Game, env.rules, env.options, env.layout.json)


def settled(g, layout_json: str) -> tuple[list[float], list[int]]:
    """An ended hand's deltas as rewards (`_number` of `result()["deltas"]`) and its winners: read from the
    native hand alone where it played the hand (engine/observe.rs `settled`: no result written), else from
    `result()`."""
    got = g.observer(layout_json).settled(g.engine_hand) if native_played(g) else None
    if got is not None:
        return got
    res = g.result()
    return [_number(x) for x in res["deltas"]], list(res["winners"])


class Layout:
    """What a rule set's observation arrays and action slots hold, under one set of room options."""

    SEAT_SCALARS = ("hand_size", "dealer", "in_play", "auto", "balance", "to_act")

    def __init__(self, rules: Rules, options: dict | None, extra: int = EXTRA):
        g = Game(rules, options or {}, 0, backend="python")
        self.players = g.n
        self.kinds = [k.name for k in g.cat.kinds]
        self.kind_index = {n: i for i, n in enumerate(self.kinds)}
        self.K = K = len(self.kinds)
        self.actions = list(g.prog.actions)
        self.action_index = {a: j for j, a in enumerate(self.actions)}
        self.extra = extra
        self.size = K + 1 + len(self.actions) * K + extra
        rs = rules.ir
        self.reveals = [r.name for r in rs.reveals]
        self.wilds = [(w.tiles, w.scope) for w in rs.wilds]
        self.tasks = [t.name for t in getattr(rs, "tasks", ())]
        obs = g.observation(0)
        self.player_states = sorted(obs["state"])
        self.table_states = sorted(obs["table"])
        # layout of the observation vector: (name, offset, length)
        parts = [("hand", K), ("drawn", K)]
        for rel in range(self.players):
            parts += [(f"seat{rel}.melds", K), (f"seat{rel}.discards", K), (f"seat{rel}.aside", K),
                      (f"seat{rel}.shown_hand", K), (f"seat{rel}.scalars", len(self.SEAT_SCALARS))]
        parts += [(f"reveal.{r}", K) for r in self.reveals]
        parts += [("wild", K), ("task", len(self.tasks)), ("wall_left", 1),
                  ("player_states", len(self.player_states)), ("table_states", len(self.table_states))]
        self.parts = []
        at = 0
        for name, n in parts:
            self.parts.append((name, at, n))
            at += n
        self.offset = {name: at for name, at, _ in self.parts}
        self.dim = at
        # what the native observer needs to fill the same arrays (engine/observe.rs `set_layout`)
        self.json = json.dumps({"dim": self.dim, "size": self.size, "extra": extra, "actions": self.actions,
                                "reveals": self.reveals, "wilds": [t for t, _ in self.wilds], "tasks": self.tasks,
                                "player_states": self.player_states, "table_states": self.table_states,
                                "offset": self.offset}, ensure_ascii=False)

    # ------------------------------------------------------------------ actions

    def slot(self, move) -> int:
        """The move's own slot (before overflow)."""
        K = self.K
        if move.action == "discard":
            return self.kind_index[move.tiles[0]]
        if move.action == "pass":
            return K
        j = self.action_index.get(move.action)
        if j is None:
            return -1
        k = min((self.kind_index[t] for t in move.tiles if t in self.kind_index), default=0)
        return K + 1 + j * K + k

    def actions_of(self, moves) -> dict[int, object]:
        """Action index -> move, for one state's legal moves."""
        out: dict[int, object] = {}
        spill = self.size - self.extra
        for m in moves:
            a = self.slot(m)
            if a < 0 or a in out:
                if spill >= self.size:
                    continue  # more sharing moves than overflow slots: left out of the mask
                a = spill
                spill += 1
            out[a] = m
        return out

    # ------------------------------------------------------------------ observations

    def encode(self, obs: dict, out: np.ndarray | None = None) -> np.ndarray:
        """One seat's observation (`Game.observation`) as the vector of docs/env.md (into `out` if given)."""
        v = [0.0] * self.dim  # filled as a list, made an array once (element writes to an array cost more)
        ki = self.kind_index
        off = self.offset

        def count(base: int, tiles):
            for t in tiles:
                i = ki.get(t)
                if i is not None:
                    v[base + i] += 1
        count(off["hand"], obs["hand"])
        if obs.get("drawn"):
            count(off["drawn"], (obs["drawn"],))
        me = obs["seat"]
        n = self.players
        to_act = obs["to_act"]
        for s in obs["seats"]:
            rel = (s["seat"] - me) % n
            base = off[f"seat{rel}.melds"]
            for m in s["melds"]:
                count(base, m["tiles"])
            count(off[f"seat{rel}.discards"], s["discards"])
            count(off[f"seat{rel}.aside"], s["aside"])
            if "hand" in s:
                count(off[f"seat{rel}.shown_hand"], s["hand"])
            base = off[f"seat{rel}.scalars"]
            v[base] = s["hand_size"]
            v[base + 1] = 1.0 if s["dealer"] else 0.0
            v[base + 2] = 1.0 if s["in_play"] else 0.0
            v[base + 3] = 1.0 if s["auto"] else 0.0
            v[base + 4] = min(BOUND, max(-BOUND, _number(s["balance_exact"])))
            v[base + 5] = 1.0 if s["seat"] in to_act else 0.0
        seen = obs["reveals"]
        for r in self.reveals:
            if seen.get(r):
                count(off[f"reveal.{r}"], (seen[r],))
        wild = off["wild"]
        for tiles, _scope in self.wilds:
            name = tiles if tiles in ki else seen.get(tiles)
            if name in ki:
                v[wild + ki[name]] = 1.0
        if obs.get("task") in self.tasks:
            v[off["task"] + self.tasks.index(obs["task"])] = 1.0
        v[off["wall_left"]] = obs["wall_left"]
        base = off["player_states"]
        state = obs["state"]
        for q, k in enumerate(self.player_states):
            v[base + q] = min(BOUND, max(-BOUND, _number(state.get(k))))
        base = off["table_states"]
        table = obs["table"]
        for q, k in enumerate(self.table_states):
            v[base + q] = min(BOUND, max(-BOUND, _number(table.get(k))))
        if out is None:
            return np.asarray(v, dtype=np.float32)
        out[:] = v
        return out


class PailiEnv(AECEnv):
    """A PettingZoo AEC environment: one hand of a rule set per episode (the module's docstring)."""

    metadata = {"name": "paili_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules="baijindao", options: dict | None = None, seed: int = 0,
                 render_mode: str | None = None, extra: int = EXTRA, backend: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {str(render_mode)[:40]!r}")
        self.backend = choose(backend)  # the native engine where it is built (module docstring)
        self.rules = _rules(rules)
        self.options = dict(options or {})
        self.layout = Layout(self.rules, self.options, extra)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(self.layout.players)]
        self._seeds = random.Random(seed)
        box = spaces.Box(-BOUND, BOUND, (self.layout.dim,), np.float32)
        mask = spaces.Box(0, 1, (self.layout.size,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self.game: Game | None = None
        self._moves: tuple | None = None  # (decision, seat, action -> move)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._rewarded = False  # whether a step gave a reward since the last clear (else clearing is a no-op)
        # the agent a native step left to act and the row its arrays were written into (`_new_rows`), for the
        # `observe` that follows the step; handed out once, dropped by the next step
        self._next: tuple | None = None
        self._observer = None  # the native observer of the hand's game (`reset`)
        self._new_rows()
        _prepared(self)

    def _new_rows(self) -> None:
        """New arrays for the next `ROWS` native steps to write the next agent's arrays into, a row each
        (bytearrays the native call writes, and each row's numpy view of them, made all at once: a row handed
        out is never written again — the next step takes the next row)."""
        lay = self.layout
        self._obs_bytes = bytearray(ROWS * lay.dim * 4)
        self._mask_bytes = bytearray(ROWS * lay.size)
        self._obs_rows = list(_frombuffer(self._obs_bytes, _F32).reshape(ROWS, lay.dim))
        self._mask_rows = list(_frombuffer(self._mask_bytes, _I8).reshape(ROWS, lay.size))
        self._row = 0

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the hand

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Deal a new hand: hand `seed`, or the next of the environment's seeds. `options` may carry
        `room` (room options by name) for this and later hands; other keys are ignored."""
        if options and "room" in options:
            self.options = dict(options["room"])
            self.layout = Layout(self.rules, self.options, self.layout.extra)
            self._new_rows()
            _prepared(self)
        hand_seed = seed if seed is not None else self._seeds.randrange(1 << 31)
        self.game = None  # the ended hand's native hand goes back to the pool before the next is dealt
        self.game = Game(self.rules, self.options, hand_seed, backend=self.backend)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._moves = None
        self._next = None
        self._rewarded = False
        # the native observer of this hand's game, where its moves go to its native hand by number (`step`)
        g = self.game
        self._observer = g.observer(self.layout.json) if type(g) is NativeGame and g.by_number() else None
        self._select()

    def _select(self, over: bool | None = None) -> None:
        g = self.game
        if g.is_over() if over is None else over:
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[g.current_seats()[0]]

    def legal(self, agent: str) -> dict[int, object]:
        """Action index -> the engine's `Move`, for the agent's legal moves now (empty when not asked)."""
        g = self.game
        seat = int(agent.rsplit("_", 1)[1])
        key = (g.decision, seat, len(g.current_seats()))
        if self._moves is None or self._moves[0] != key:
            moves = g.legal_moves(seat) if seat in g.current_seats() else []
            self._moves = (key, self.layout.actions_of(moves))
        return self._moves[1]

    def move_of(self, action: int, agent: str | None = None):
        """The engine's move an action stands for now (None if it is not legal)."""
        return self.legal(agent or self.agent_selection).get(int(action))

    def last(self, observe: bool = True):
        """`AECEnv.last`: the agent to act's observation, cumulative reward, termination, truncation and
        info (the same tuple, read without the base class's second look-up of each)."""
        agent = self.agent_selection
        assert agent is not None
        ready = self._next
        if observe and ready is not None and ready[0] == agent:  # (`observe`'s first case written out: a step's)
            self._next = None
            k = ready[1]
            obs = {"observation": self._obs_rows[k], "action_mask": self._mask_rows[k]}
        else:
            obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def observe(self, agent):
        ready = self._next
        if ready is not None and ready[0] == agent:  # written by the step that left agent to act: its row
            self._next = None
            k = ready[1]
            return {"observation": self._obs_rows[k], "action_mask": self._mask_rows[k]}
        g = self.game
        seat = self._seat.get(agent)
        if seat is None:
            seat = int(agent.rsplit("_", 1)[1])
        if type(g) is NativeGame and native_played(g):  # the arrays filled natively (engine/observe.rs)
            got = g.encoded(seat, self.layout.json)
            if got is not None:  # (bytearrays: numpy reads them writable, without a copy)
                return {"observation": np.frombuffer(got[0], dtype=np.float32),
                        "action_mask": np.frombuffer(got[1], dtype=np.int8)}
        mask = np.zeros(self.layout.size, dtype=np.int8)
        if not g.is_over():
            for a in self.legal(agent):
                mask[a] = 1
        return {"observation": self.layout.encode(g.observation(seat)), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        seat = self._seat[agent]
        self._next = None
        nxt = False  # the seat the game waits on next, where the native step gave it
        if action is not None and type(g) is NativeGame and g.by_number():
            # the slot looked up and the move applied natively, and the next seat's arrays written into the
            # next row in the same call (engine/observe.rs `act_into`)
            a = int(action)
            k = self._row
            if k == ROWS:
                self._new_rows()
                k = 0
            observer = self._observer or g.observer(self.layout.json)
            got = (g.act_into(seat, a, observer, self._obs_bytes, self._mask_bytes, k)
                   if 0 <= a < self.layout.size else None)
            if got is None:
                raise ValueError(f"action {str(action)[:20]} is not legal for {agent} now (see its action_mask)")
            nxt = got[5]
            if got[6]:
                self._row = k + 1
                self._next = (self.possible_agents[nxt], k)
        else:
            move = self.legal(agent).get(int(action)) if action is not None else None
            if move is None:
                raise ValueError(f"action {str(action)[:20]} is not legal for {agent} now (see its action_mask)")
            g.apply(seat, move)
        self._cumulative_rewards[agent] = 0.0
        self._moves = None
        if self._rewarded:  # (every reward is 0 until the hand ends: nothing to clear or add before)
            self._clear_rewards()
            self._rewarded = False
        over = False if nxt is not False and nxt is not None else g.is_over()  # (a seat asked: not over)
        if over:
            deltas, winners = settled(g, self.layout.json)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = deltas[i]
                self.terminations[a] = True
                self.infos[a] = {"winners": list(winners), "deltas": list(deltas)}
            self._rewarded = True
        if over or nxt is False or nxt is None:
            self._select(over)
        else:
            self.agent_selection = self.possible_agents[nxt]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self):
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        lines = []
        for s in g.onlooker_observation()["seats"]:
            melds = " ".join("".join(m["tiles"]) for m in s["melds"])
            lines.append(f"seat {s['seat']}: {s['hand_size']} tiles  melds {melds or '-'}  "
                         f"discards {''.join(s['discards'])}  balance {s['balance']}")
        return "\n".join(lines)

    def close(self):
        self.game = None


def env(rules="baijindao", **kw) -> PailiEnv:
    """PettingZoo's usual constructor name."""
    return PailiEnv(rules, **kw)


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
        self.rules = _rules(rules)
        self.options = dict(options or {})
        self.layout = Layout(self.rules, self.options, extra)
        self.n = tables
        self._seeds = random.Random(seed)
        self.games: list[Game] = []
        self.hands_done = 0
        _prepared(self)

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
