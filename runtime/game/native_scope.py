"""The differential check of the native game scope (runtime/native/src/engine/scope.rs, values.rs) against
the reference: every game-scope expression of a rule set, evaluated on the state a Python game has reached
under the bindings of a moment, by the reference (`Game.env(**bind)` and the compiled closure) and by the
native evaluator (the state loaded from `HandState.snapshot()`). They agree when the values are equal, or
when the reference raises one of the errors it catches (`EVAL_ERRORS`) where the native side stops.

docs/engine-native.md describes the port; bench/engine_equivalence.py `native-scope` runs this over 1,000
games per configuration, tests/test_engine_native_scope.py over a seeded sample.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from ..evaluate import compile_expr
from ..ir import nodes as ir
from ..ir.serialize import to_data
from ..reading import Group, RTile
from ..tiles import TileInfo
from .native import table
from .records import EVAL_ERRORS
from .state import Seat

STOP = "stop"
DECLINED = "declined: "  # engine/winning.rs: a question not answered natively on this state


def expressions(rs: ir.RuleSet) -> list[tuple[str, object]]:
    """Every game-scope expression of the rule set, with where it stands: actions' guards, choice
    conditions and lists and effect values, hooks, payments (amount, condition, factors), restrictions,
    observations, phase triggers, the table's `next_dealer` and `ends_when`, reveals' conditions, tasks,
    fees."""
    out: list[tuple[str, object]] = []

    def add(label: str, e) -> None:
        if e is not None:
            out.append((label, e))

    def effects(label: str, effs) -> None:
        for k, ef in enumerate(effs):
            add(f"{label} effect {k} {ef.op}", ef.value)
            add(f"{label} effect {k} to", ef.to)

    for a in rs.actions:
        add(f"action {a.name} when", a.when)
        add(f"action {a.name} choice_when", a.choice_when)
        add(f"action {a.name} choices", a.choice_list)
        effects(f"action {a.name}", a.effects)
        effects(f"action {a.name} decline", a.decline)
    for i, h in enumerate(rs.hooks):
        add(f"hook {i} on {h.event} when", h.when)
        effects(f"hook {i} on {h.event}", h.effects)
    for p in rs.payments:
        add(f"payment {p.name} amount", p.amount)
        add(f"payment {p.name} when", p.when)
        for f in p.factors:
            add(f"payment {p.name} factor {f.name}", f.value)
            add(f"payment {p.name} factor {f.name} when", f.when)
    for i, r in enumerate(rs.restricts):
        add(f"restrict {i} when", r.when)
    for i, o in enumerate(rs.observes):
        add(f"observe {i} when", o.when)
    for ph in rs.phases:
        for t in ph.enter:
            add(f"phase {ph.name} enter on {t.event}", t.cond)
        for t in ph.leave:
            add(f"phase {ph.name} leave on {t.event}", t.cond)
    add("table next_dealer", rs.table.next_dealer)
    add("table ends_when", rs.table.ends_when)
    for r in rs.reveals:
        add(f"reveal {r.name} moves_when", r.moves_when)
        add(f"reveal {r.name} unless", r.unless)
    for t in rs.tasks:
        add(f"task {t.name} factor", t.factor)
        add(f"task {t.name} when", t.when)
    for f in rs.fees:
        add(f"fee {f.name} rate", f.rate)
    return out


def canon(v):
    """A value as the check compares it; the native side writes its own the same way (values.rs `canon`)."""
    if v is None or isinstance(v, bool) or isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return {"rat": [v.numerator, v.denominator]}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, TileInfo):
        return {"tile": v.name, "wild": bool(v.f.get("wild", False))}
    if isinstance(v, RTile):
        return {"tile": v.kind.name, "wild": bool(v.wild)}
    if isinstance(v, Seat):
        return {"seat": v.index}
    if isinstance(v, Group):
        return {"group": [v.kind, [t.kind.name for t in v.tiles], v.exposed, v.concealed, v.is_pair, v.is_kong]}
    if isinstance(v, list):
        return [canon(x) for x in v]
    return {"other": repr(v)}


def set_scoring(table, game) -> bool:
    """Hand `game`'s native whole-hand scoring to `table` (an `EngineTable`) for its win questions
    (engine/winning.rs): the rule set's `Hands`, the positions of the forms it wins by, and the check
    that records a laid-down meld, what a group holding wildcards or stand-ins is worth and the signature
    search of a hand holding several wildcards of one kind (as the batch path asks them); False when the
    game has none (yet)."""
    nh = game.rules.native_hands_for(game.cat, game.dec)
    if nh is None:
        return False
    rules, cat = game.rules, game.cat
    table.set_scoring(nh.hands_native, list(nh.form_positions(rules)),
                      lambda kind, kinds: nh.batch_meld(rules, cat, kind, kinds), nh.group_info_for(rules, cat),
                      nh.signature_search_for(rules, cat, game.dec, game.settings))
    return True


def native_snapshot(game) -> str:
    """`HandState.snapshot()` with what the native reader takes beside it (the copies each reveal turned,
    the last tile dealt), as JSON text."""
    st = game.st
    snap = st.snapshot()
    snap["reveal_ids"] = {k: list(v) for k, v in st.reveal_ids.items()}
    snap["last_dealt"] = st.last_dealt.name if st.last_dealt is not None else None
    return json.dumps(snap, ensure_ascii=False)


def moments(game, with_wins: bool = False) -> list[dict]:
    """The bindings the check evaluates under at a decision point: for each seat as the actor (and owner,
    viewer, winner, payer), the tile of the moment as `Game.tv` gives it (the decision's, else the tile the
    seat has just drawn), the seat after it as the payee, the decision's actor as the discarder of a claim,
    a score and a task factor; the game's `self_drawn` where it has one; with `with_wins`, the reading of
    the seat's best win on a wait (`reading`: the reading and the win it is of), where it has one."""
    ask = game.pending
    tile = ask.tile if ask is not None else None
    seats = game.st.seats
    claim = ask is not None and ask.kind in ("claim", "rob") and ask.actor is not None
    env = game.env()
    out = []
    for s in seats:
        b = {"actor": s, "owner": s, "viewer": s, "winner": s, "payer": s,
             "payee": seats[(s.index + 1) % game.n], "tile": game.tv(tile if tile is not None else s.drawn),
             "discarder": seats[ask.actor] if claim else None,
             "robbed": seats[ask.actor] if claim and ask.kind == "rob" else None,
             "score": 1 + s.index * 3, "task_factor": 1 + s.index % 2}
        if "builtin:self_drawn" in env:  # the hand's first win, once scored (`_bind_win_values`)
            b["self_drawn"] = env["builtin:self_drawn"]
        if with_wins:  # the reading of the seat's best win on a wait, where it has one
            info = game.win_offered(s.index, "best_wait", None)
            if info is not None and info.reading_env(game) is not None:
                b["reading"] = (info.reading_env(game), {
                    "seat": info.seat, "tile": info.tile.name if info.tile is not None else None,
                    "self_drawn": bool(info.self_drawn), "concealed": [t.name for t in info.concealed], "forms": []})
        out.append(b)
    return out


def plain_bindings(bind: dict) -> dict:
    """The bindings as the native side takes them: seats as {"seat": n}, the tile of the moment by name."""
    out = {}
    for k, v in bind.items():
        if k == "reading":
            out[k] = v[1]  # the win, whose reading the native side scores
        elif isinstance(v, Seat):
            out[k] = {"seat": v.index}
        elif isinstance(v, TileInfo):
            out[k] = v.name
        else:
            out[k] = v
    return out


@dataclass
class Tally:
    evaluations: int = 0  # (expression, bindings) pairs compared
    equal: int = 0  # the same value on both sides
    both_stop: int = 0  # the reference raised, the native side stopped
    states: int = 0  # states read natively and written back
    states_different: int = 0  # ... whose snapshot came back different
    refused: Counter = field(default_factory=Counter)  # refusal sentence -> expressions (per configuration)
    declined: Counter = field(default_factory=Counter)  # why a win or wait question was not answered natively
    differences: list = field(default_factory=list)  # (label, bindings, reference, native)
    native_cpu: float = 0.0  # CPU seconds in the native reader and evaluator (JSON in and out included)
    repeat_evaluations: int = 0  # evaluations made by `eval_scope_repeat` (the evaluator's own speed) ...
    repeat_cpu: float = 0.0  # ... in this many CPU seconds
    python_cpu: float = 0.0  # CPU seconds in the reference's evaluations

    def add(self, other: Tally) -> None:
        self.evaluations += other.evaluations
        self.equal += other.equal
        self.both_stop += other.both_stop
        self.states += other.states
        self.states_different += other.states_different
        self.refused.update(other.refused)
        self.declined.update(other.declined)
        self.differences.extend(other.differences)
        self.native_cpu += other.native_cpu
        self.python_cpu += other.python_cpu
        self.repeat_evaluations += other.repeat_evaluations
        self.repeat_cpu += other.repeat_cpu


class ScopeCheck:
    """One rule set under one table: its expressions compiled for the reference and lowered natively."""

    def __init__(self, rules, options: dict | None = None, extra: list[tuple[str, object]] = (),
                 with_wins: bool = True):
        """`extra`: expressions checked beside the rule set's own ((label, expression) pairs); `with_wins`:
        the moments bind the reading of each seat's best win on a wait (`moments`)."""
        self.with_wins = with_wins
        self.rules = rules
        self.table = table(rules, options or {})
        exprs = expressions(rules.ir) + list(extra)
        refusals = self.table.lower_scope([json.dumps(to_data(e), ensure_ascii=False) for _, e in exprs])
        self.labels = [label for label, _ in exprs]
        self.refusals = refusals
        self.live = [i for i, why in enumerate(refusals) if why is None]
        self.fns = [compile_expr(e) for _, e in exprs]
        self.scoring = False  # whether the native whole-hand scoring is handed to the win questions

    def hand_scoring(self, game) -> None:
        """Hand the game's native whole-hand scoring (its rule set's `NativeHands`, once the game has made
        it) to the native win questions: without it those that score a win are declined."""
        if not self.scoring:
            self.scoring = set_scoring(self.table, game)

    def refused(self) -> Counter:
        return Counter(why for why in self.refusals if why is not None)

    def check(self, game, tally: Tally, repeat: int = 0) -> None:
        """Compare every expression the native side lowers, under each moment's bindings, on game's state
        (`repeat` > 0: also time the native evaluator alone, on the state read once, that many times over)."""
        self.hand_scoring(game)
        binds = moments(game, self.with_wins and self.scoring)
        plain = [plain_bindings(b) for b in binds]
        asks = [[i, p] for p in plain for i in self.live]
        snap = native_snapshot(game)
        tally.states += 1
        back = json.dumps(json.loads(self.table.state(snap)), sort_keys=True, ensure_ascii=False)
        if back != json.dumps(game.st.snapshot(), sort_keys=True, ensure_ascii=False):
            tally.states_different += 1
        asks_text = json.dumps(asks, ensure_ascii=False)
        cpu = time.process_time()
        native_text = self.table.eval_scope(snap, asks_text)
        tally.native_cpu += time.process_time() - cpu
        if repeat:
            cpu = time.process_time()
            self.table.eval_scope_repeat(snap, asks_text, repeat)
            tally.repeat_cpu += time.process_time() - cpu
            tally.repeat_evaluations += repeat * len(asks)
        cpu = time.process_time()
        reference = []
        for b in binds:
            reading = b.get("reading")
            bare = {k: v for k, v in b.items() if k != "reading"}
            for i in self.live:
                try:
                    reference.append(canon(self.fns[i](game.env(reading[0] if reading else None, **bare))))
                except EVAL_ERRORS:
                    reference.append(STOP)
        tally.python_cpu += time.process_time() - cpu
        tally.evaluations += len(reference)
        stops = reference.count(STOP)
        # the same text as the native side writes (serde_json: compact, keys sorted): all equal at once
        if json.dumps(reference, ensure_ascii=False, separators=(",", ":")) == native_text:
            tally.equal += len(reference) - stops
            tally.both_stop += stops
            return
        native = json.loads(native_text)
        k = 0
        for p in plain:
            for i in self.live:
                ref, got = reference[k], native[k]
                k += 1
                if isinstance(got, str) and got.startswith(DECLINED):
                    tally.declined[got[len(DECLINED):]] += 1  # not answered natively: counted, never compared
                    continue
                if json.dumps(ref, ensure_ascii=False) == json.dumps(got, ensure_ascii=False):
                    if ref == STOP:
                        tally.both_stop += 1
                    else:
                        tally.equal += 1
                else:
                    tally.differences.append((self.labels[i], p, ref, got))
