"""The differential check of the native events and settlement (runtime/native/src/engine/events.rs,
settle.rs) against the reference: seeded games are played by a `Game` whose event seams are probed. At
each seam the reference runs — an event's phases, hooks and payments (`_hooks_only`, split in two around
a win's final scoring), an event's deferred payments (`settle.settle`), an action's effects
(`_run_effects`) — the state before it is taken (`HandState.snapshot()`, read natively), the same run is
made natively (the hand's generator in the state it was in, the bindings of the moment, the game's base
values of the bindings, each winner's bindings), and its state after is compared with the reference's,
with the generator's state, the events emitted and the tiles held in transit.

They agree when the two are equal, or when the reference noted an error (`Game.note_error`: it skips the
condition or effect and goes on) where the native run stops (the hand is to fall back). A run that needs
what the port refuses (an expression the game-scope lowering refuses: waits, a win's reading; a value the
native state does not hold) is counted by its sentence, never compared.

docs/engine-native.md describes the port; bench/engine_equivalence.py `native-events` runs this over
1,000 games per configuration, tests/test_engine_native_events.py over a seeded sample.
"""
from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

from ..backend import native_module
from . import settle
from .flow import Game
from .native import NativeUnavailable
from .native_scope import canon, native_snapshot, set_scoring
from .records import ONE_WIN
from .scope import GAME_DEFAULTS
from .state import plain

BOUND = [k.removeprefix("builtin:") for k in GAME_DEFAULTS]
SAMPLE = 2000  # runs per check kept for the speed figure
NUMBER = re.compile(r"-?\d+(/\d+)?")
HOLD = "the native state does not hold "


@dataclass
class EventTally:
    runs: Counter = field(default_factory=Counter)  # stage -> runs compared or counted
    equal: int = 0
    both_stop: int = 0  # the reference noted an error, the native run stopped
    refused: Counter = field(default_factory=Counter)  # refusal sentence -> runs
    differences: list = field(default_factory=list)  # (stage, event, what differs)
    payments: int = 0  # payments compared (made in runs found equal)

    def add(self, other: EventTally) -> None:
        self.runs.update(other.runs)
        self.equal += other.equal
        self.both_stop += other.both_stop
        self.refused.update(other.refused)
        self.differences.extend(other.differences)
        self.payments += other.payments


def _plain_bind(bind: dict, game=None) -> dict:
    """The bindings as the native run takes them; with `game`, also what they bind of the win of the
    moment: `self_drawn`, and `reading` as the win it reads (`ProbedGame.win_data`)."""
    out = {k: canon(v) for k, v in bind.items() if k in BOUND}
    if game is not None:
        if "self_drawn" in bind:
            out["self_drawn"] = bool(bind["self_drawn"])
        if "reading" in bind:
            out["reading"] = game.win_data(bind["reading"])
    return out


def _sorted(d) -> str:
    return json.dumps(d, sort_keys=True, ensure_ascii=False)


class ProbedGame(Game):
    """A `Game` whose event seams report to `probe_check` (an `EventCheck`, set on the subclass it makes)."""

    probe_check: EventCheck
    __slots__ = ("probe_busy", "noted", "probe_wins")

    # ---- the wins found, each with what it was scored on (the reading an event reads is worked out
    # natively from it: the seat, the tiles, the forms, the context values and reveals of that moment)

    def _win_info(self, s, mode, tile, forms=(), discarder=None, robbed=None, action=None):
        info = super()._win_info(s, mode, tile, forms, discarder, robbed, action)
        if info is not None:
            self.note_win(info, forms)
            if info.untried is not None:  # (the reading the action's effects read)
                self.note_win(info.untried, forms)
        return info

    def _rescore(self, info, final=True):
        out = super()._rescore(info, final)
        self.note_win(out, self.prog.actions[out.action].ir.win_forms if out.action else ())
        return out

    def note_win(self, info, forms) -> None:
        env = info.reading_env(self)
        if env is None:
            return
        wins = getattr(self, "probe_wins", None)
        if wins is None:
            wins = self.probe_wins = {}
        if id(env) not in wins:
            st = self.st
            wins[id(env)] = (env, {
                "seat": info.seat, "tile": info.tile.name if info.tile is not None else None,
                "self_drawn": bool(info.self_drawn), "concealed": [t.name for t in info.concealed],
                "forms": list(forms), "context": {k: plain(v) for k, v in {**st.context, **(info.trial or {})}.items()},
                "reveals": {k: plain(v) for k, v in st.reveals.items()}})

    def win_data(self, reading) -> dict | None:
        """The win whose reading `reading` is (None: none; {"unknown": true}: not one this game noted)."""
        if reading is None:
            return None
        got = getattr(self, "probe_wins", {}).get(id(reading))
        return got[1] if got is not None and got[0] is reading else {"unknown": True}

    def note_error(self, text: str) -> None:
        self.noted = getattr(self, "noted", 0) + 1
        super().note_error(text)

    def _busy(self) -> bool:
        return getattr(self, "probe_busy", False) or self.emit_depth > 0

    def _hooks_only(self, event: str, bind: dict, pay: bool | None = None, between=None) -> None:
        if self._busy():
            return super()._hooks_only(event, bind, pay, between)
        chk = self.probe_check
        self.probe_busy = True
        try:
            if between is None:
                before = chk.before(self)
                super()._hooks_only(event, bind, pay, between)
                chk.compare(self, before, {"stage": "all", "event": event, "pay": pay}, bind)
                return None
            parts = {}

            def probed_between():
                chk.compare(self, parts["before"], {"stage": "hooks", "event": event, "pay": pay}, bind)
                between()
                parts["mid"] = chk.before(self)

            parts["before"] = chk.before(self)
            super()._hooks_only(event, bind, pay, probed_between)
            if "mid" in parts:
                chk.compare(self, parts["mid"], {"stage": "pay", "event": event, "pay": pay}, bind)
            return None
        finally:
            self.probe_busy = False

    def _run_effects(self, effects, reading=None, **bind) -> list[str]:
        where = self.probe_check.effects_of.get(id(effects))
        if self._busy() or where is None:
            return super()._run_effects(effects, reading, **bind)
        chk = self.probe_check
        self.probe_busy = True
        try:
            before = chk.before(self)
            transit = len(self._transit) if self._transit is not None else None
            emitted = super()._run_effects(effects, reading, **bind)
            given = None
            if transit is not None:
                given = [[to.index, [t.name for t in tiles]] for to, tiles in self._transit[transit:]]
            chk.compare(self, before, {"stage": "effects", "action": where[0], "decline": where[1],
                                       "transit": transit is not None}, bind, emitted=emitted, given=given)
            return emitted
        finally:
            self.probe_busy = False

    def probed_settle(self, event: str, bind: dict, deferred) -> None:
        """`settle.settle` outside an event's hooks (an event's deferred payments), probed."""
        chk = self.probe_check
        self.probe_busy = True
        try:
            before = chk.before(self)
            ORIGINAL_SETTLE(self, event, bind, deferred=deferred)
            chk.compare(self, before, {"stage": "settle", "event": event, "pay": deferred}, bind)
        finally:
            self.probe_busy = False


ORIGINAL_SETTLE = settle.settle


def _settle(game, event: str, bind: dict, deferred=None) -> None:
    if isinstance(game, ProbedGame) and not game._busy():
        game.probed_settle(event, bind, deferred)
    else:
        ORIGINAL_SETTLE(game, event, bind, deferred=deferred)


class EventCheck:
    """One rule set under one table: its event rules lowered natively; `play` plays a probed game."""

    def __init__(self, rules, options: dict | None = None):
        mod = native_module()
        if mod is None:
            raise NativeUnavailable("the native core is not built")
        self.rules = rules
        self.options = dict(options or {})
        self.native = mod.EngineEvents(rules.ruleset_json(), self.options)
        self.tally = EventTally()
        self.game_class = type("Probed", (ProbedGame,), {"probe_check": self, "__slots__": ()})
        self.effects_of: dict[int, tuple[str, bool]] = {}
        self.sample: list[tuple[str, str]] = []  # the first runs' (state, request), for `speed`
        self.scoring = False  # whether the game's native whole-hand scoring is handed to the native side

    def lowered(self) -> tuple[int, int]:
        """(expressions of the event rules, how many the native lowering refuses)."""
        r = self.native.refusals()
        return len(r), sum(1 for x in r if x is not None)

    def play(self, seed: int, bots, balances: list | None = None) -> ProbedGame:
        """Play the hand `Session(rules, options, seed, 1)` plays first (from `balances`, if given) to its
        end with `bots` (a function of the game giving a bot per seat), checking every seam."""
        settle.settle = _settle
        try:
            # the action effect lists are the program's (shared by every game of the rule set)
            if not self.effects_of:
                from .program import program_for
                for a in program_for(self.rules).actions.values():
                    self.effects_of[id(a.effects)] = (a.name, False)
                    self.effects_of[id(a.decline)] = (a.name, True)
            g = self.game_class(self.rules, self.options, random.Random(seed).randrange(1 << 31), balances=balances)
            players = bots(g)
            while not g.is_over():
                seat = g.current_seats()[0]
                g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
            return g
        finally:
            settle.settle = ORIGINAL_SETTLE

    def speed(self, rounds: int = 3) -> tuple[int, float]:
        """(runs, CPU seconds) of the native side alone on the sampled runs, `rounds` times over (the JSON
        state read and the answer written included). Timed as one block: the clock is read twice."""
        cpu = time.process_time()
        for _ in range(rounds):
            for snap, req in self.sample:
                self.native.run(snap, req)
        return rounds * len(self.sample), time.process_time() - cpu

    # ------------------------------------------------------------------ one seam

    def before(self, game) -> dict:
        """What a seam's check takes before the reference runs it."""
        return {"snap": native_snapshot(game), "rng": list(game.rng.getstate()[1]), "noted": getattr(game, "noted", 0),
                "moves": len(game.moves), "payments": len(game.st.payments),
                "base": {k: canon(v) for k, v in _base_values(game).items()}}

    def compare(self, game, before: dict, req: dict, bind: dict, emitted=None, given=None) -> None:
        t = self.tally
        stage = req["stage"]
        t.runs[stage] += 1
        erred = getattr(game, "noted", 0) > before["noted"]
        if not self.scoring:
            self.scoring = set_scoring(self.native, game)
        req = {**req, "bind": _plain_bind(bind, game), "base": before["base"], "one_win": bool(bind.get(ONE_WIN)),
               "moves": before["moves"], "rng": before["rng"]}
        st = game.st
        if st.winners and st.finished:
            req["winners"] = _winner_bindings(game)
        req_text = json.dumps(req, ensure_ascii=False)
        if len(self.sample) < SAMPLE:
            self.sample.append((before["snap"], req_text))
        out = json.loads(self.native.run(before["snap"], req_text))
        label = req.get("event") or req.get("action")
        if "refused" in out:
            # the state reader names the value it does not hold: counted by the sentence without it
            why = out["refused"]
            t.refused[NUMBER.sub("N", why) if why.startswith(HOLD) else why] += 1
            return
        if "stop" in out:
            if erred:
                t.both_stop += 1
            else:
                t.differences.append((stage, label, f"the native run stopped ({out['stop']}), the reference did not"))
            return
        if erred:
            t.differences.append((stage, label, "the reference noted an error, the native run went on"))
            return
        ref = json.loads(_sorted(st.snapshot()))
        got = out["state"]
        if ref != got:
            keys = sorted(k for k in ref if ref.get(k) != got.get(k))
            t.differences.append((stage, label, f"states differ in {keys}: reference "
                                  f"{_sorted({k: ref.get(k) for k in keys})[:300]}, native "
                                  f"{_sorted({k: got.get(k) for k in keys})[:300]}"))
            return
        if out["rng"] != list(game.rng.getstate()[1]):
            t.differences.append((stage, label, "the generators differ"))
            return
        if emitted is not None and out["emitted"] != list(emitted):
            t.differences.append((stage, label, f"emitted {emitted} against {out['emitted']}"))
            return
        if given is not None and out["transit"] != given:
            t.differences.append((stage, label, f"tiles in transit {given} against {out['transit']}"))
            return
        t.equal += 1
        t.payments += len(st.payments) - before["payments"]


def _base_values(game) -> dict:
    """The game's values of the bindings an event may leave unbound (`GAME_DEFAULTS`, and what the hand's
    end binds of its first win)."""
    env = game.env()
    out = {k: env[f"builtin:{k}"] for k in BOUND}
    if "builtin:self_drawn" in env:  # once the hand's first win is scored (`_bind_win_values`)
        out["self_drawn"] = bool(env["builtin:self_drawn"])
    return out


def _winner_bindings(game) -> list[dict]:
    """`Game.winner_binding` of each winner, the bindings settle.py gives a payment per winner (asked
    without leaving a note in the game's errors: working a task factor out may note one)."""
    errors, noted = list(game.errors), getattr(game, "noted", 0)
    try:
        return [_plain_bind(game.winner_binding(w), game) for w in game.st.winners]
    finally:
        game.errors[:] = errors
        game.noted = noted
