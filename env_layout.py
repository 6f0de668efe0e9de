"""The layout of a learning environment's arrays over one rule set (`Layout`: the observation vector's parts,
the action slots) and what the environments share: the rule set a name stands for, numbers read from the
engine's exact values, the native first hand made with the environment, an ended hand's rewards. The
environments themselves: `paili.env` (`PailiEnv`) and `paili.env_tables` (`Tables`); docs/env.md is the
reference of both."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np

from .runtime.game import Game
from .runtime.game.native_game import native_played
from .runtime.game.native_pool import prepare
from .runtime.rules import Rules

EXTRA = 64  # overflow slots for legal moves that share a slot (paili.env's docstring)
BOUND = 1e9  # observation values are clipped to ±BOUND (balances)


def rules_of(rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    from . import load

    return load(rules)


def number(v) -> float:
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


def prepare_native(env) -> None:
    """On the native backend, the first native hand of the environment's rule set and room options made
    with the environment (`native_pool.prepare`: its programs lowered, its scoring and the layout's observer
    set up, tens of milliseconds once), not by its first hand: every hand then costs alike."""
    if env.backend == "native" and env.rules.backend == "native":
        prepare(Game, env.rules, env.options, env.layout.json)


def settled(g, layout_json: str) -> tuple[list[float], list[int]]:
    """An ended hand's deltas as rewards (`number` of `result()["deltas"]`) and its winners: read from the
    native hand alone where it played the hand (engine/observe.rs `settled`: no result written), else from
    `result()`."""
    got = g.observer(layout_json).settled(g.engine_hand) if native_played(g) else None
    if got is not None:
        return got
    res = g.result()
    return [number(x) for x in res["deltas"]], list(res["winners"])


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
            v[base + 4] = min(BOUND, max(-BOUND, number(s["balance_exact"])))
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
            v[base + q] = min(BOUND, max(-BOUND, number(state.get(k))))
        base = off["table_states"]
        table = obs["table"]
        for q, k in enumerate(self.table_states):
            v[base + q] = min(BOUND, max(-BOUND, number(table.get(k))))
        if out is None:
            return np.asarray(v, dtype=np.float32)
        out[:] = v
        return out
