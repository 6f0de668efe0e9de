"""A rule set's game declarations, compiled once per `Rules` object.

Every game-scope expression (action guards, effects, hooks, payments, restrictions, observations,
phase triggers, the next-dealer rule, reveal conditions) becomes a closure (runtime/evaluate.py), and
the declarations are indexed the way the engine looks them up: actions, hooks and payments by event,
priority levels by action name, win actions by the situation a win happens in, the winning forms that
split a hand into groups. Nothing here depends on one game: a `Program` is shared by every game of
a rule set.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..evaluate import compile_expr
from ..ir import nodes as ir
from .engine_limits import ENGINE_OFFERED  # noqa: F401  (events offered by the engine's own steps)

# the situations a win can happen in, and which declared actions open a win in each
WIN_CTX_EVENTS = {"self": ("turn", "draw"), "discard": ("discard",), "added_kong": ("added_kong",),
                  "reveal": ("reveal",), "deal": ("deal",), "opening": ("opening",)}

WIN_TILE_OK = {"self": ("", "drawn"), "discard": ("", "claimed"), "added_kong": ("", "claimed"),
               "reveal": ("", "drawn", "claimed"),
               "deal": ("", "last_dealt", "none", "best_wait"),
               "opening": ("", "last_dealt", "none", "best_wait")}


def _c(e):
    return compile_expr(e) if e is not None else None


@dataclass
class CEffect:
    op: str
    target: tuple[str, ...]
    value: object  # compiled closure or None
    times: int = 1  # roll: the items drawn (summed when more than one)
    to: object = None  # give: the receiving seat's compiled closure


@dataclass
class CAction:
    ir: ir.Action
    name: str
    events: tuple[str, ...]
    when: object
    effects: list[CEffect]
    decline: list[CEffect]
    choices: list  # compiled setup-scope closures
    choice_when: object
    level: int = 0  # priority level: lower is stronger
    description: bool = False  # restates an engine step (see `is_description`)
    choice_list: object = None  # `choices = EXPR`: the compiled list expression

    def __post_init__(self):
        # read on every offer: plain attributes, not properties
        self.forms = self.ir.forms
        self.wins = self.ir.wins

    def __deepcopy__(self, memo):  # the rule set's, shared by every game (and by a clone)
        return self


@dataclass
class CHook:
    ir: ir.Hook
    when: object
    effects: list[CEffect]


@dataclass
class CFactor:
    name: str
    value: object
    when: object


@dataclass
class CPayment:
    ir: ir.Payment
    name: str
    amount: object
    when: object
    factors: list[CFactor]


@dataclass
class CPhase:
    ir: ir.Phase
    name: str
    scope: str
    enter: dict[str, list]  # event -> [condition closure or None]
    leave: dict[str, list]


@dataclass
class Program:
    rs: ir.RuleSet
    actions: dict[str, CAction] = field(default_factory=dict)
    actions_on: dict[str, list[CAction]] = field(default_factory=dict)
    hooks_on: dict[str, list[CHook]] = field(default_factory=dict)
    payments_on: dict[str, list[CPayment]] = field(default_factory=dict)
    restricts: list[tuple[ir.Restrict, object]] = field(default_factory=list)
    observes: list[tuple[ir.Observe, object]] = field(default_factory=list)
    phases: list[CPhase] = field(default_factory=list)
    states: list[tuple[ir.StateVar, object]] = field(default_factory=list)
    next_dealer: object = None
    ends_when: object = None
    players: object = None
    reveals: list[tuple[ir.Reveal, object, object]] = field(default_factory=list)
    tasks: list[tuple[ir.Task, object, object]] = field(default_factory=list)
    fees: list[tuple[ir.Fee, object]] = field(default_factory=list)
    # situation (a key of WIN_CTX_EVENTS) -> the actions that may open a win in it, in file order
    win_actions: dict[str, list[CAction]] = field(default_factory=dict)
    # the winning forms that split a hand into melds and pairs (not `instant`, not `orphans`)
    group_forms: tuple[str, ...] = ()

    def restricted(self, action: str) -> list:
        return [w for r, w in self.restricts if action in r.actions]


def effects(effs) -> list[CEffect]:
    return [CEffect(e.op, e.target, _c(e.value), e.times, _c(e.to)) for e in effs]


def is_description(a: ir.Action) -> bool:
    """A compulsory action with nothing of its own to do — no meld, no win, no choice, no effect, no
    follow-up and no guard — opened only by `turn` or `draw`: it restates the engine's own draw or
    discard step. The engine does not take it (its `then` would contradict the step it describes)."""
    events = (a.on, *a.also_on)
    return (a.compulsory and not a.forms and not a.wins and not a.choices and a.choice_list is None
            and not a.effects and not a.follow
            and a.when is None and all(e in ("turn", "draw") for e in events))


def build(rs: ir.RuleSet) -> Program:
    p = Program(rs)
    levels: dict[str, int] = {}
    for i, level in enumerate(rs.priority):
        for name in level:
            levels[name] = i
    n_levels = len(rs.priority)
    for i, a in enumerate(rs.actions):
        ca = CAction(a, a.name, (a.on, *a.also_on), _c(a.when), effects(a.effects), effects(a.decline),
                     [_c(x) for x in a.choices], _c(a.choice_when),
                     levels.get(a.name, n_levels + i), is_description(a), _c(a.choice_list))
        p.actions[a.name] = ca
        for ev in ca.events:
            p.actions_on.setdefault(ev, []).append(ca)
    for h in rs.hooks:
        p.hooks_on.setdefault(h.event, []).append(CHook(h, _c(h.when), effects(h.effects)))
    for pay in rs.payments:
        p.payments_on.setdefault(pay.on, []).append(
            CPayment(pay, pay.name, _c(pay.amount), _c(pay.when),
                     [CFactor(f.name, _c(f.value), _c(f.when)) for f in pay.factors]))
    p.restricts = [(r, _c(r.when)) for r in rs.restricts]
    p.observes = [(o, _c(o.when)) for o in rs.observes]
    for ph in rs.phases:
        enter: dict[str, list] = {}
        leave: dict[str, list] = {}
        for t in ph.enter:
            enter.setdefault(t.event, []).append(_c(t.cond))
        for t in ph.leave:
            leave.setdefault(t.event, []).append(_c(t.cond))
        p.phases.append(CPhase(ph, ph.name, ph.scope, enter, leave))
    p.states = [(s, _c(s.init)) for s in rs.states]
    p.next_dealer = _c(rs.table.next_dealer)
    p.ends_when = _c(rs.table.ends_when)
    p.players = _c(rs.table.players)
    p.reveals = [(r, _c(r.moves_when), _c(r.unless)) for r in rs.reveals]
    p.tasks = [(t, _c(t.factor), _c(t.when)) for t in rs.tasks]
    p.fees = [(f, _c(f.rate)) for f in rs.fees]
    p.win_actions = win_index(p.actions.values())
    p.group_forms = tuple(f.name for f in rs.forms if f.instant is None and not f.orphans)
    return p


def win_index(actions) -> dict[str, list[CAction]]:
    """Per situation a win can happen in, the actions that may open one there: a win action on one of the
    situation's events whose winning tile fits it, or one opened by `win_offer` (after a draw, a discard or
    an added kong)."""
    out: dict[str, list[CAction]] = {}
    for ctx, events in WIN_CTX_EVENTS.items():
        acts = []
        for a in actions:
            if not a.wins or a.ir.win_tile not in WIN_TILE_OK[ctx]:
                continue
            if any(e in a.events for e in events) or (ctx in ("self", "discard", "added_kong")
                                                      and "win_offer" in a.events):
                acts.append(a)
        out[ctx] = acts
    return out


def program_for(rules) -> Program:
    """The compiled program of a `Rules` object: built by its first game, then shared by every game of the
    rule set. It is kept on the rule set (`Rules.game_program`, declared there) because it is made from
    that object alone and lives as long as it; a table beside it keyed by the rules object would need
    weak references to let a rule set go."""
    prog = rules.game_program
    if prog is None:
        prog = rules.game_program = build(rules.ir)
    return prog
