"""Events and their effects: state changes, phase triggers, hooks, payments on an event, the decisions an
event opens; asking a decision and resuming the hand with its answers.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..evaluate import EvalError
from ..tiles import TileInfo
from . import settle, steps
from .moves import Move
from .program import ENGINE_OFFERED
from .records import (
    EVAL_ERRORS,
    MAX_DEPTH,
    ONE_WIN,
    WINNER_TURN,
    Ask,
    unbound,
)
from .state import Seat, plain
from .steps import DONE, Step, step


def added(op: str, cur, value):
    """An `add`/`remove` effect's new value: a list gains each item, or loses the first equal one of each;
    anything else is `(cur or 0) ± value`, a whole fraction made an int (TypeError when the two do not add).
    Shared by the effects and a win's trial (win_trial.py), which must store what the win would."""
    if isinstance(cur, list):
        new = list(cur)
        for x in value if isinstance(value, list) else [value]:
            if op == "add":
                new.append(x)
            elif x in new:
                new.remove(x)
        return new
    new = (cur or 0) + value if op == "add" else (cur or 0) - value
    if isinstance(new, Fraction) and new.denominator == 1:
        new = int(new)
    return new


class Events:
    """The events steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

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
            if ef.op == "give":
                self._give(ef, reading, bind)
                continue
            try:
                holder, name = self._target(ef, bind)
                value = ef.value(self.env(reading, **bind)) if ef.value is not None else None
            except EVAL_ERRORS as exc:
                self.note_error(f"effect {ef.op} {'.'.join(ef.target)}: {exc}")
                continue
            if holder is None:
                cur = self.st.context.get(name)
            else:
                cur = holder.get(name)
            if ef.op == "roll":
                new = self._roll(ef, value, holder)
                if new is None:
                    continue
            elif ef.op == "set":
                new = value
            elif ef.op == "clear":
                new = self._initial(name, "table" if holder is self.st.table else "player") if holder is not None \
                    else self.rules.settings_env(None).get(f"context:{name}")
            else:
                try:
                    new = added(ef.op, cur, value)
                except TypeError as exc:
                    self.note_error(f"effect {ef.op} {'.'.join(ef.target)}: {exc}")
                    continue
            if holder is None:
                self._set_context(name, new)
            else:
                if new is True and cur is not True:  # a flag state turning on: tallied for simulations
                    self.st.events[f"state:{name}"] += 1
                holder[name] = new
        return emitted

    def _roll(self, ef, items, holder):
        """`roll`: `times` items drawn uniformly from the list with the game's seeded generator (the one
        that shuffled the wall), summed when more than one; recorded in the hand's chance record (logs,
        observations). None (nothing drawn, the error noted) when there is nothing to draw from."""
        if not isinstance(items, list) or not items or any(x is None for x in items):
            self.note_error(f"effect roll {'.'.join(ef.target)}: nothing to draw from")
            return None
        draws = [items[self.rng.randrange(len(items))] for _ in range(ef.times)]
        if ef.times == 1:
            new = draws[0]
        else:
            try:
                new = sum(draws[1:], draws[0])
            except TypeError as exc:
                self.note_error(f"effect roll {'.'.join(ef.target)}: {exc}")
                return None
            if isinstance(new, Fraction) and new.denominator == 1:
                new = int(new)
        owner = next((s.index for s in self.st.seats if s.vars is holder), None)
        self.st.chance.append({"move": len(self.moves), "target": ".".join(ef.target), "seat": owner,
                               "draws": [plain(x) for x in draws], "value": plain(new)})
        return new

    def _give(self, ef, reading, bind: dict) -> None:
        """`give = TILES { to = SEAT }`: the tiles leave the actor's concealed hand for SEAT's. Inside a
        decision asked together (`_s_together`) they are held until every seat's answer is applied, then
        delivered at once; elsewhere at once. Nothing moves when the actor does not hold them all."""
        giver = bind.get("actor")
        try:
            if not isinstance(giver, Seat):
                raise EvalError("`actor` has no value here")
            env = self.env(reading, **bind)
            tiles = ef.value(env)
            to = ef.to(env)
        except EVAL_ERRORS as exc:
            self.note_error(f"effect give: {exc}")
            return
        tiles = [tiles] if isinstance(tiles, TileInfo) else tiles
        if not isinstance(to, Seat) or not isinstance(tiles, list) or \
                not all(isinstance(t, TileInfo) and t.name in self.cat.by_name for t in tiles):
            self.note_error("effect give: it gives tiles to a seat")
            return
        tiles = [self.cat.by_name[t.name] for t in tiles]
        if Counter(t.name for t in tiles) - Counter(t.name for t in giver.hand):
            self.note_error(f"effect give: seat {giver.index} does not hold "
                            f"{' '.join(t.name for t in tiles)[:60]}")
            return
        for t in tiles:
            giver.hand.remove(t)
        if giver.drawn is not None and giver.drawn not in giver.hand:
            giver.drawn = None
        giver.changed()
        if self._transit is not None:
            self._transit.append((to, tiles))
        else:
            self._deliver([(to, tiles)])

    def _deliver(self, transit) -> None:
        st = self.st
        for to, tiles in transit:
            to.hand.extend(tiles)
            # a dealer that gave its last dealt tile away before its first turn starts that turn with the
            # last tile it received, which is now its last dealt tile (`win_tile last_dealt`)
            if tiles and st.turn == 0 and to.index == st.dealer and (to.drawn is None or to.drawn not in to.hand):
                to.drawn = st.last_dealt = tiles[-1]
            to.changed()

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
            if conds and any(c is None or self.condition_holds(c, bind.get("reading"), **unbound(bind)) for c in conds):
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
        if self.emit_depth >= MAX_DEPTH:
            self.note_error(f"`{event}` emitted inside {MAX_DEPTH} nested events: not raised")
            return
        self.emit_depth += 1
        try:
            self._hooks_body(event, bind, pay, between)
        finally:
            self.emit_depth -= 1

    def _hooks_body(self, event: str, bind: dict, pay, between) -> None:
        st = self.st
        st.events[event] += 1
        prog = self.prog
        if event in self._phase_events:
            self._phases(event, bind)
        hooks = prog.hooks_on.get(event)
        if hooks:
            reading = bind.get("reading")
            b = unbound(bind)
            for h in hooks:
                if h.when is not None and not self.condition_holds(h.when, reading, **b):
                    continue
                for name in self._run_effects(h.effects, reading, **b):
                    self._hooks_only(name, dict(bind))
        if between is not None:
            between()
        if event in prog.payments_on:
            settle.settle(self, event, bind, deferred=pay)
        if self._moving_reveals:
            self._moves_reveals()

    def _event(self, event: str, bind: dict, between=None) -> Step | None:
        """Raise an event: phases, hooks, payments, then the decisions it opens. None when it is over at
        once (no decisions), else the step that asks them."""
        self._hooks_only(event, bind, pay=False, between=between)
        if event not in ENGINE_OFFERED and self.prog.actions_on.get(event):
            if self.decision_depth >= MAX_DEPTH:
                self.note_error(f"`{event}` raised inside {MAX_DEPTH} nested decisions: not offered again")
            else:
                self.decision_depth += 1
                return Step("event", {"event": event, "bind": bind})
        if event in self.prog.payments_on:
            settle.settle(self, event, bind, deferred=True)
        return None

    def _winners_in_turn(self, event: str, bind: dict) -> bool:
        """Whether the event's `by winner` decisions are asked of each winner in turn: an event of the hand
        once its play is over (not one win's, not already one winner's turn) with several winners."""
        st = self.st
        return (len(st.winners) > 1 and st.finished and not bind.get(ONE_WIN) and not bind.get(WINNER_TURN)
                and any(a.ir.by == "winner" for a in self.prog.actions_on.get(event, ())))

    def _winner_turn(self, bind: dict, k: int) -> dict:
        """The event's binding in the k-th winner's turn: that winner, its score and its reading."""
        return {**bind, **self.winner_binding(self.st.winners[k]), WINNER_TURN: True}

    @step
    def _s_event(self, f, v):
        L = f.loc
        if f.at == 0:
            f.at = 1
            if self._winners_in_turn(L["event"], L["bind"]):
                # each winner in turn, in the order they won (one tile's winners in play order from its
                # discarder), as their payments are made; the event's other decisions in the first turn
                L["turn"] = 0
                return self._window(L["event"], self._winner_turn(L["bind"], 0))
            return self._window(L["event"], L["bind"])
        if "turn" in L and L["turn"] + 1 < len(self.st.winners):
            L["turn"] += 1
            return self._window(L["event"], self._winner_turn(L["bind"], L["turn"]), others=False)
        self.decision_depth -= 1
        if L["event"] in self.prog.payments_on:
            settle.settle(self, L["event"], L["bind"], deferred=True)
        return DONE

    def _ask(self, kind: str, options: dict[int, list[Move]], event: str = "", actor: int | None = None,
             tile: TileInfo | None = None) -> Ask | None:
        """The decision to ask (None when no seat has a move)."""
        opts = {s: ms for s, ms in options.items() if ms}
        if not opts:
            return None
        return Ask(kind, opts, event, actor, tile)

    def _advance(self, value) -> None:
        ask = steps.run(self, value)
        if ask is None:
            self.pending = None
            self.st.over = True
            return
        # a new decision: its moves carry its number, so an answer to an earlier one is recognised
        self.decision += 1
        d = self.decision
        ask.options = {s: [m.stamped(d) for m in ms] for s, ms in ask.options.items()}
        self.pending = ask

    def _declines(self, s: int, moves, chosen: Move, bind: dict) -> Step | None:
        """Every action offered to seat s and not chosen is declined (None: nothing to decline)."""
        chosen_action = chosen.action
        for _m, o in moves:
            a = o.action
            if a is not None and a.name != chosen_action and not o.compulsory:
                return Step("declines", {"moves": moves, "chosen": chosen_action, "bind": bind, "i": 0,
                                         "done": set()})
        return None

    @step
    def _s_declines(self, f, v):
        L = f.loc
        moves, chosen_action, done, bind = L["moves"], L["chosen"], L["done"], L["bind"]
        while L["i"] < len(moves):
            o = moves[L["i"]][1]
            L["i"] += 1
            a = o.action
            if a is None or a.name == chosen_action or a.name in done or o.compulsory:
                continue
            done.add(a.name)
            if a.decline:
                for name in self._run_effects(a.decline, **unbound(bind)):
                    self._hooks_only(name, bind)
            self.st.events[f"decline:{a.name}"] += 1  # per-action tally beside the generic decline event
            c = self._event("decline", bind)
            if c:
                return c
        return DONE
