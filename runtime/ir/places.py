"""What a game rule's place can see: whether a hand has been won there (so that the winning reading and
the score exist), checked against what the rule reads and changes (E510, E511).

The engine binds the winning reading and the score only around a win (docs/engine.md): the reading
in a winning action's guard and effects and on its own event, and — once the hand is won — on `win`,
`hand_end`, `settled` and the decisions they open; the score in a winning action's guard and from the
`win` event on. Elsewhere (a hook on `discard`, a payment on `exhaust`, the guard of a pung) there is
neither: a reading name would fail at run time and `score` would be 0. Places the rules cannot pin to
an event (an emitted event, a phase's own events, restrictions, observations, the next dealer) are not
checked.

`give` is held to what the engine can move (E511): tiles out of the actor's hand, so only where there is
an actor, and only tiles the actor is sure to hold (the tiles its `select` chose, or tiles of `actor.hand`).

The compiler runs it on what it built (dsl/checker.py) and loading a compiled JSON rule set runs it again
(runtime/ir/check.py), so an edited file cannot bring back a read the compiler refused. Findings go to
`diags`, anything with `error(code, message, span, hint="")`.
"""
from __future__ import annotations

from . import expr as E
from . import nodes as ir
from . import vocab as V

# Engine events at which no hand has been won (nothing is bound of a win there).
NO_WIN_EVENTS = ("deal", "opening", "turn", "draw", "reveal", "discard", "claim", "decline", "kong",
                 "added_kong", "win_offer", "ready", "exhaust")
AFTER_WIN_EVENTS = ("win", "hand_end", "settled")
# Engine events without a player of their own: a hook on them has no `actor` (so nothing to `give` from).
NO_ACTOR_EVENTS = ("hand_end", "settled")
READING_ONLY = tuple(n for n in V.READING_BUILTINS if n not in V.GAME_BUILTINS)


class Places:
    def __init__(self, rs: ir.RuleSet, diags):
        self.rs = rs
        self.diags = diags
        actions = {a.name: a for a in rs.actions}
        known = set(V.EVENTS) | set(actions)
        # `reading[e]` / `score[e]`: whether the reading / the score may be bound at event e (None: unknown)
        self.reading: dict[str, bool] = {e: False for e in NO_WIN_EVENTS}
        self.score: dict[str, bool] = {e: False for e in NO_WIN_EVENTS}
        for e in AFTER_WIN_EVENTS:
            self.reading[e] = self.score[e] = True
        for a in rs.actions:
            if a.wins:  # its own event carries the reading of the win, not yet its score
                self.reading[a.name], self.score[a.name] = True, False
        # a decision's event sees what the events that open it see (repeated: decisions open decisions)
        for _ in range(len(actions) + 1):
            changed = False
            for a in rs.actions:
                if a.wins:
                    continue
                opens = [a.on, *a.also_on]
                if not all(e in known and e in self.reading for e in opens):
                    continue
                r = any(self.reading[e] for e in opens)
                s = any(self.score[e] for e in opens)
                if (self.reading.get(a.name), self.score.get(a.name)) != (r, s):
                    self.reading[a.name], self.score[a.name] = r, s
                    changed = True
            if not changed:
                break

    def sees(self, events) -> tuple[bool, bool]:
        """(the reading may be bound, the score may be bound) at a place opened by these events; an
        event whose place is not known counts as seeing both."""
        r = s = False
        for e in events:
            r = r or self.reading.get(e, True)
            s = s or self.score.get(e, True)
        return r, s

    # ------------------------------------------------------------------ the check

    def run(self) -> None:
        rs = self.rs
        for h in rs.hooks:
            self.place(f"`on {h.event}`", [h.event], [h.when, *(ef.value for ef in h.effects)], h.effects)
        for p in rs.phases:
            for t in p.enter + p.leave:
                self.place(f"phase `{p.name}` on `{t.event}`", [t.event], [t.cond], ())
        for p in rs.payments:
            exprs = [p.amount, p.when, *(f.value for f in p.factors), *(f.when for f in p.factors)]
            self.place(f"payment `{p.name}` on `{p.on}`", [p.on], exprs, (), payment=True)
        for a in rs.actions:
            events = [a.on, *a.also_on] if a.on else []
            if not events:
                continue  # a follow-up: it sees what its leading action sees
            guard = [a.when, a.choice_when, *a.choices, a.choice_list]
            effects = [ef.value for ef in a.effects]
            if a.wins:  # the guard is asked with the win's reading and score; the effects before scoring
                self.place(f"action `{a.name}`", ["win"], guard, ())
                self.place(f"the effects of `{a.name}`", [a.name], effects, a.effects, before_score=True)
            else:
                self.place(f"action `{a.name}`", events, guard + effects, a.effects, selects=bool(a.select))
            # declining is answered at the event that offered it, without a win's values
            self.place(f"the `decline` of `{a.name}`", events, [ef.value for ef in a.decline], a.decline)
        self.hand_end_condition(rs.table.ends_when)

    def hand_end_condition(self, e) -> None:
        """`table ends_when` is asked after a win with no winning hand bound: it is about the hand as a
        whole (who has won, who is left, the wall), never one win's reading or score."""
        if e is None:
            return
        for n in E.walk(e):
            if isinstance(n, E.Name) and (n.ref == "builtin:score" or _reads_reading(n)):
                self.diags.error("E510", f"`table ends_when` reads `{n.name}`, a value of one winning hand, "
                                 "but it is asked of the hand as a whole", n.span,
                                 "count the winners (`len(winners)`), the players still in the hand "
                                 "(`len(in_play)`) or the tiles left (`wall_left`)")

    def place(self, where: str, events, exprs, effects, payment: bool = False, before_score: bool = False,
              selects: bool = False):
        reading, score = self.sees(events)
        if before_score:
            score = False
        if not reading or not score:
            for e in exprs:
                if e is None:
                    continue
                for n in E.walk(e):
                    if not isinstance(n, E.Name):
                        continue
                    if not score and n.ref == "builtin:score":
                        what = ("can never see a score: no hand is won when it is settled" if payment else
                                "reads `score`, but no hand has been scored there")
                        self.diags.error("E510", f"{where} {what}", n.span,
                                         "read the score on `win`, `hand_end` or `settled`, or in a winning "
                                         "action's guard")
                    elif not reading and _reads_reading(n):
                        self.diags.error("E510", f"{where} reads `{n.name}`, which is a value of the winning "
                                         "hand, but no hand is won there", n.span,
                                         "read it on `win`, `hand_end`, `settled` or in a winning action")
        won = reading or score
        for ef in effects:
            if ef.op == "give":
                self.give(where, events, ef, selects)
                continue
            if ef.op == "emit" or len(ef.target) != 2:
                continue
            who = ef.target[0]
            if who in ("payer", "payee"):
                self.diags.error("E511", f"`{'.'.join(ef.target)}`: there is no {who} where effects run "
                                 "(effects run in hooks and actions, never in a payment)", ef.span,
                                 "name the seat as the hook sees it: `actor`, `winner`, `discarder` …")
            elif who == "winner" and not won:
                self.diags.error("E511", f"`{'.'.join(ef.target)}`: there is no winner at {where}", ef.span,
                                 "change the winner's state on `win` or `hand_end`")


    def give(self, where: str, events, ef, selects: bool) -> None:
        """`give` moves tiles out of the actor's concealed hand: only where there is an actor, and only
        tiles it is sure to hold — the tiles its `select` chose, or tiles taken from `actor.hand`."""
        if events and all(e in NO_ACTOR_EVENTS for e in events):
            self.diags.error("E511", f"`give` at {where} moves tiles out of the actor's hand, but "
                             f"`{events[0]}` is no player's event: there is no actor", ef.span,
                             "give tiles in an action, or in a hook on a player's event (`deal`, `draw`, "
                             "`discard`, an action's name …)")
        elif not _held(ef.value, selects):
            self.diags.error("E511", f"`give` at {where} moves tiles the actor may not hold: it gives the "
                             "tiles a `select` chose (`give = choice`) or tiles of the actor's hand "
                             "(`actor.hand`, `filter(t in actor.hand: …)`)", ef.value.span,
                             "let the player choose them: `select 3 when …` and `give = choice { to = … }`")


def _held(e, selects: bool) -> bool:
    """Whether a `give`'s tiles are the actor's own by their form: `choice` of a `select`, `actor.hand`, or
    a filter of those."""
    if isinstance(e, E.Name):
        return selects and e.ref == "builtin:choice"
    if isinstance(e, E.Attr):
        return e.name == "hand" and isinstance(e.obj, E.Name) and e.obj.ref == "builtin:actor"
    if isinstance(e, E.Comp):
        return e.func == "filter" and len(e.binders) == 1 and _held(e.source, selects)
    return False


def _reads_reading(n: E.Name) -> bool:
    cat, _, what = n.ref.partition(":")
    return cat in ("pattern", "quantity", "unit") or (cat == "builtin" and what in READING_ONLY)


def check_places(rs: ir.RuleSet, diags) -> None:
    Places(rs, diags).run()
