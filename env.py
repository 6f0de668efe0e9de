"""A learning environment over any rule set: a PettingZoo AEC environment (`PailiEnv`) and many tables
stepped from one call (`Tables.step_many`, from paili.env_tables; the arrays' layout is paili.env_layout's).
Needs the optional extra `env` (`pip install -e ".[env]"`: pettingzoo, gymnasium, numpy); `import paili` does
not import it. docs/env.md is its reference.

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
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .env_layout import BOUND, EXTRA, Layout, prepare_native, rules_of, settled
from .env_tables import Tables
from .runtime.backend import choose
from .runtime.game import Game
from .runtime.game.native_game import NativeGame, native_played

__all__ = ["BOUND", "EXTRA", "ROWS", "Layout", "PailiEnv", "Tables", "env", "settled"]

# rows of the arrays an environment's native steps write the next agent's observation and mask into (one
# row a step, each handed out once; `PailiEnv._new_rows`): a row read as a view costs less than new arrays
ROWS = 32
_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)  # (dtype objects: `frombuffer` reads them without parsing)
_frombuffer = np.frombuffer


class PailiEnv(AECEnv):
    """A PettingZoo AEC environment: one hand of a rule set per episode (the module's docstring)."""

    metadata = {"name": "paili_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules="baijindao", options: dict | None = None, seed: int = 0,
                 render_mode: str | None = None, extra: int = EXTRA, backend: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {str(render_mode)[:40]!r}")
        self.backend = choose(backend)  # the native engine where it is built (module docstring)
        self.rules = rules_of(rules)
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
        prepare_native(self)

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
            prepare_native(self)
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
