"""What a native game (native_game.py `NativeGame`) shows: a seat's observation and an onlooker's, read from
the native hand (engine/observe.rs `EngineObserver`) with what the game keeps, and the learning
environment's arrays and actions on it (env.py `Layout`, given as its JSON): the slots looked up, the move
applied and the next seat's arrays written natively. Where the native side does not answer an observation,
the reference's (the game's Python game, `mirror`), counted."""
from __future__ import annotations

import json

from .refusals import seat_arg


class NativeViews:
    """The observations and the learning environment's calls of `NativeGame` (its base class: the
    attributes read here are the game's own, native_game.py)."""

    __slots__ = ()

    def act(self, seat: int, action: int, layout_json: str) -> bool:
        """The learning environment's action (env.py `Layout`, given as its JSON) taken by seat: the legal
        move its slot stands for applied as `apply_index` applies it, the slot looked up natively. False
        (nothing applied) where the action names none of seat's legal moves now. Only for a game whose moves
        go to the native hand alone (`by_number`)."""
        if type(seat) is not int or not 0 <= seat < self._shell.n:
            seat = seat_arg(self._shell.n, seat)
        observer = self._observers.get(layout_json) or self._observer(layout_json)
        try:
            took = observer.act(self._hand, seat, action)
        except ValueError:  # (nothing changed: the slot names no legal move of seat's now)
            return False
        self.took(seat, took)
        return True

    def act_observed(self, seat: int, action: int, layout_json: str):
        """`act`, and the arrays of the seat the game then waits on first, from the same native call (the
        environment's step, whose next observation reads them): None (nothing applied) where the action
        names none of seat's legal moves now; else (that seat — None when none is asked —, its vector as
        float32 bytes and mask as int8 bytes — None where the native side does not answer `encoded`)."""
        if type(seat) is not int or not 0 <= seat < self._shell.n:
            seat = seat_arg(self._shell.n, seat)
        observer = self._observers.get(layout_json) or self._observer(layout_json)
        try:
            took, nxt, arrays = observer.act_observe(self._hand, seat, action)
        except ValueError:  # (nothing changed: the slot names no legal move of seat's now)
            return None
        self.took(seat, took)
        if self._primary:  # the hand went on in Python: its seats
            seats = self._py.current_seats()
            return (seats[0] if seats else None), None
        return nxt, arrays

    def act_into(self, seat: int, action: int, observer, obs: bytearray, masks: bytearray, row: int):
        """`act_observed` with the arrays of the seat the game then waits on first written into row `row` of
        arrays the caller keeps (`obs`: [R, D] float32 bytes, `masks`: [R, A] int8 bytes; engine/observe.rs
        `act_into`) instead of new ones. Only for a game whose moves go to its native hand alone
        (`by_number`); `seat`: an int; `observer`: `observer(layout_json)` (the caller keeps it for the
        hand). None (nothing applied) where the action names none of seat's legal moves now; else a tuple
        whose items 5 and 6 are that seat (None when none is asked) and whether its arrays were written into
        the row (the items before them: what the native hand's move left, `took`)."""
        try:
            took = observer.act_into(self._hand, seat, action, obs, masks, row)
        except ValueError:  # (nothing changed: the slot names no legal move of seat's now, or no such seat)
            return None
        self.took(seat, took)
        if took[2] is not None and not self.by_number():  # a stop: the hand went on in Python — its seats
            seats = self.current_seats()
            return (*took[:5], seats[0] if seats else None, False)
        return took

    def observation(self, seat: int) -> dict:
        """`Game.observation(seat)` (observe.py): the native hand's view of the seat (engine/observe.rs)
        with what this game keeps (the decision, who is to act, the result, the legal moves); where the
        native side does not answer it (a condition of an `observe` rule it does not evaluate exactly),
        the reference's, counted."""
        if self._primary:
            return self._py.observation(seat)
        seat = seat_arg(self._shell.n, seat)
        got = self._observer().observation(self._hand, seat)
        if got is None:
            self._shell.rules.engine.fell_back("an observation the native side does not answer")
            py = self.mirror()
            noted = len(py.errors)
            out = py.observation(seat)
            self.errors.extend(py.errors[noted:])  # what the reference noted answering it (its conditions)
            return out
        o = json.loads(got)
        over = o["over"]
        return {
            "seat": seat, "decision": self.decision, "players": o["players"], "dealer": o["dealer"],
            "turn": o["turn"], "wall_left": o["wall_left"], "seats": o["seats"], "table": o["table"],
            "reveals": o["reveals"], "reveals_codes": o["reveals_codes"], "task": o["task"], "chance": o["chance"],
            "to_act": self.current_seats(), "over": over, "result": self.result() if over else None,
            "hand": o["hand"], "hand_codes": o["hand_codes"], "drawn": o["drawn"], "drawn_code": o["drawn_code"],
            "state": o["state"], "legal_moves": [str(m) for m in self.legal_moves(seat)],
        }

    def encoded(self, seat: int, layout_json: str):
        """The learning environment's arrays of seat's view (env.py `Layout`, given as its JSON): the
        observation vector (float32 bytes), the action mask (int8 bytes) and per action slot the index of
        the legal move it stands for (-1: none); None where the native side does not answer (the caller
        encodes `observation(seat)`)."""
        if self._primary:
            return None
        if type(seat) is not int or not 0 <= seat < self._shell.n:
            seat = seat_arg(self._shell.n, seat)
        observer = self._observers.get(layout_json) or self._observer(layout_json)
        return observer.encode(self._hand, seat)

    @property
    def engine_hand(self):
        """The native hand (`EngineHand`) this game plays on (runtime/game/native_tables.py)."""
        return self._hand

    def observer(self, layout_json: str | None = None):
        """The pool's observer of this game's hands (engine/observe.rs `EngineObserver`), with the learning
        environment's layout (env.py `Layout`, as its JSON) when given."""
        return self._observers.get(layout_json) or self._observer(layout_json)

    def _observer(self, layout_json: str | None = None):
        got = self._observers.get(layout_json)
        if got is None:
            got = self._observers[layout_json] = self._shell.rules.engine.pool.observer(self._shell, self._hand,
                                                                                         layout_json)
        return got

    def onlooker_observation(self) -> dict:
        """`Game.onlooker_observation()` (observe.py): what someone not seated sees, from the native hand
        (engine/observe.rs `onlooker`) with what this game keeps; where the native side does not answer it,
        the reference's, counted."""
        if self._primary:
            return self._py.onlooker_observation()
        got = self._observer().onlooker(self._hand)
        if got is None:
            self._shell.rules.engine.fell_back("an observation the native side does not answer")
            return self.mirror().onlooker_observation()
        o = json.loads(got)
        over = o["over"]
        return {
            "seat": None, "decision": self.decision, "players": o["players"], "dealer": o["dealer"], "turn": o["turn"],
            "wall_left": o["wall_left"], "seats": o["seats"], "table": o["table"], "reveals": o["reveals"],
            "reveals_codes": o["reveals_codes"], "task": o["task"], "chance": o["chance"],
            "to_act": self.current_seats(), "over": over, "result": self.result() if over else None,
        }
