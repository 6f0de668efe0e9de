"""The checker's passes that need no source text: declarations (and duplicates), cross references
and cycles of a rule set. The compiler runs them on what it built (`dsl/checker.py` extends this class
with name resolution, types and warnings), and loading a compiled JSON rule set runs them again on what
it read (`runtime/ir/check.py`), so a server checks a file without the compiler.

Findings go to `diags`, anything with `error(code, message, span, hint="")` and `warn(…)`: the compiler's
`Diagnostics` or the plain `Findings` list below.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import expr as E
from . import nodes as ir
from . import vocab as V
from .span import Span


@dataclass
class Symbols:
    """Everything a rule set declares, by category: name -> type."""

    by_category: dict[str, dict[str, str]] = field(default_factory=dict)
    tile_attrs: set[str] = field(default_factory=set)
    player_fields: dict[str, str] = field(default_factory=dict)
    table_fields: dict[str, str] = field(default_factory=dict)

    def add(self, category: str, name: str, typ: str) -> None:
        self.by_category.setdefault(category, {})[name] = typ

    def lookup(self, name: str) -> list[tuple[str, str]]:
        return [(cat, names[name]) for cat, names in self.by_category.items() if name in names]

    def all_names(self) -> list[str]:
        return [n for names in self.by_category.values() for n in names]


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    span: Span
    hint: str = ""


class Findings:
    """A plain collector of findings (the compiler's `Diagnostics` renders them; this only keeps them)."""

    def __init__(self):
        self.items: list[Finding] = []

    def error(self, code: str, message: str, span: Span, hint: str = "") -> None:
        self.items.append(Finding(code, message, span, hint))

    def warn(self, code: str, message: str, span: Span, hint: str = "") -> None:
        self.items.append(Finding(code, message, span, hint))

    @property
    def has_errors(self) -> bool:
        return any(f.code.startswith("E") for f in self.items)


class RuleSetPasses:
    """Declarations, cross references and cycles of one rule set, reported to `diags`."""

    def __init__(self, rs: ir.RuleSet, diags):
        self.rs = rs
        self.diags = diags
        self.sym = Symbols()
        self.events: set[str] = set()

    # ------------------------------------------------------------------ declarations

    def _declare(self, category: str, items, typ_of) -> None:
        seen: dict[str, Span] = {}
        for it in items:
            name = it.name
            if name in seen:
                self.diags.error("E302", f"{category} `{name}` is declared twice (first at line "
                                 f"{seen[name].line})", it.span)
                continue
            seen[name] = it.span
            self.sym.add(category, name, typ_of(it))

    def declare(self) -> None:
        rs = self.rs
        t = rs.tiles
        self._declare("suit", t.suits, lambda _: "suit")
        self._declare("tile", t.kinds, lambda _: "tile")
        attrs = {a for k in t.kinds for a in k.attrs} | {a.name for a in t.attrs}
        for a in t.attrs:
            if any(a.name == k2.name for k2 in t.kinds):
                self.diags.error("E302", f"attribute `{a.name}` has the name of a tile", a.span)
        self.sym.tile_attrs = attrs
        self.sym.by_category.setdefault("flowerclass", {}).update(
            {k.flower_class: "str" for k in t.kinds if k.flower_class})
        for role in ("option", "context"):
            self._declare(role, [s for s in rs.settings if s.role == role], lambda s: s.type)
        both = {s.name for s in rs.settings if s.role == "option"} & {
            s.name for s in rs.settings if s.role == "context"}
        for s in rs.settings:
            if s.role == "context" and s.name in both:
                self.diags.error("E302", f"`{s.name}` is both an option and a context value", s.span)
        self._declare("reveal", rs.reveals, lambda _: "tile?")
        self._declare("meld", rs.melds, lambda _: "meldkind")
        self._declare("form", rs.forms, lambda _: "form")
        self._declare("unit", rs.units, lambda _: "num")
        self._declare("pattern", rs.patterns, lambda _: "int")
        self._declare("quantity", rs.quantities, lambda q: "bool" if _is_condition(q.expr) else "num")
        self._declare("action", rs.actions, lambda _: "action")
        self._declare("task", rs.tasks, lambda _: "task")
        self._declare("wild", rs.wilds, lambda _: "wild")
        self._declare("require", rs.requires, lambda _: "require")
        self._declare("combine", rs.combines, lambda _: "combine")
        self._declare("payment", rs.payments, lambda _: "payment")
        examples = [e for e in rs.examples]
        self._declare("example", examples, lambda _: "example")
        # helper categories that are not expression names
        for cat in ("action", "task", "wild", "require", "combine", "payment", "example"):
            self.sym.by_category.pop(cat, None)
        pf, tf = {}, {}
        seen_state: dict[tuple[str, str], Span] = {}
        for s in rs.states:
            key = (s.scope, s.name)
            if key in seen_state:
                self.diags.error("E302", f"state `{s.name}` is declared twice", s.span)
            seen_state[key] = s.span
            (pf if s.scope == "player" else tf)[s.name] = {"tiles": "list[tile]"}.get(s.type, s.type)
        for p in rs.phases:
            target = pf if p.scope == "player" else tf
            if p.name in target:
                self.diags.error("E302", f"phase `{p.name}` has the name of a state", p.span)
            target[p.name] = "bool"
        self.sym.player_fields = pf
        self.sym.table_fields = tf
        for name, typ in tf.items():  # table states and phases may be named bare in game rules
            self.sym.add("table", name, typ)
        emitted = {ef.target[0] for a in rs.actions for ef in a.effects + a.decline if ef.op == "emit"} | {
            ef.target[0] for h in rs.hooks for ef in h.effects if ef.op == "emit"}
        self.events = set(V.EVENTS) | emitted | {a.name for a in rs.actions}


    # ------------------------------------------------------------------ cross references

    def cross_refs(self) -> None:
        rs = self.rs
        patterns = {p.name: p for p in rs.patterns}
        units = {u.name for u in rs.units}
        melds = {m.name for m in rs.melds}
        forms = {f.name for f in rs.forms}
        actions = {a.name for a in rs.actions}
        attrs = self.sym.tile_attrs
        tiles = {k.name for k in rs.tiles.kinds}
        reveals = {r.name for r in rs.reveals}
        for p in rs.patterns:
            if p.unit and p.unit not in units:
                self.diags.error("E301", f"unknown unit `{p.unit}`", p.span,
                                 f"declare it: `unit {p.unit} sum`" if not units else
                                 "units: " + ", ".join(sorted(units)))
            for ex in p.excludes:
                if ex.pattern not in patterns:
                    self.diags.error("E501", f"`{p.name}` excludes unknown pattern `{ex.pattern}`", ex.span,
                                     did_you_mean(ex.pattern, patterns))
                elif ex.pattern == p.name:
                    self.diags.warn("W604", f"`{p.name}` excludes itself", ex.span)
        for c in rs.combines:
            for name in c.patterns:
                p = patterns.get(name)
                if p is None:
                    self.diags.error("E501", f"`combine {c.name}` names unknown pattern `{name}`", c.span,
                                     did_you_mean(name, patterns))
                elif not (isinstance(p.count, E.Comp) and p.count.func == "count" and len(p.count.binders) >= 2):
                    self.diags.error("E504", f"`{name}` must be counted per combination of melds to be combined",
                                     p.span, "write `count = count(a, b in runs: …)`")
        for m in rs.melds:
            for up in m.upgrades:
                if up not in melds:
                    self.diags.error("E301", f"`meld {m.name}` upgrades unknown meld kind `{up}`", m.span,
                                     did_you_mean(up, melds))
            self.meld_possible(m)
        for w in rs.wilds:
            if w.tiles not in tiles and w.tiles not in reveals:
                self.diags.error("E301", f"`wild {w.name}`: `{w.tiles}` is neither a tile nor a reveal", w.span)
            if w.except_attr and w.except_attr not in attrs and w.except_attr not in ("flower", "honor", "joker"):
                self.diags.error("E301", f"unknown attribute `{w.except_attr}`", w.span)
            for k in w.no_meld:
                if k not in melds:
                    self.diags.error("E301", f"`wild {w.name}`: unknown meld kind `{k}`", w.span)
            for k in w.no_action:
                if k not in actions:
                    self.diags.error("E301", f"`wild {w.name}`: unknown action `{k}`", w.span, did_you_mean(k, actions))
        for s in rs.standins:
            if s.name not in tiles:
                self.diags.error("E301", f"`standin {s.name}`: no tile of that name", s.span)
        for ink in rs.tiles.inks:
            if ink.attr not in attrs and ink.attr not in ("flower", "honor", "joker"):
                self.diags.error("E301", f"`ink {ink.colour}`: unknown tile attribute `{ink.attr}`", ink.span,
                                 did_you_mean(ink.attr, attrs))
        for r in rs.reveals:
            if r.skip and r.skip not in attrs and r.skip not in ("flower", "honor", "joker"):
                self.diags.error("E301", f"`reveal {r.name}`: unknown attribute `{r.skip}`", r.span)
        for f in rs.forms:
            if f.orphans and f.orphans not in attrs:
                self.diags.error("E301", f"`win {f.name}`: unknown tile attribute `{f.orphans}`", f.span)
        for q in rs.requires:
            for name in q.forms:
                if name not in forms:
                    self.diags.error("E301", f"`require {q.name}`: unknown winning form `{name}`", q.span)
        seen_levels: set[str] = set()
        for level in rs.priority:
            for name in level:
                if name not in actions and name not in V.BUILTIN_ACTIONS:
                    self.diags.error("E505", f"priority names unknown action `{name}`",
                                     where_written(rs.priority_span, rs.variant.span), did_you_mean(name, actions))
                if name in seen_levels:
                    self.diags.error("E505", f"priority lists `{name}` twice",
                                     where_written(rs.priority_span, rs.variant.span))
                seen_levels.add(name)
        followers = {name for a in rs.actions for name in a.follow}
        for a in rs.actions:
            if not a.on and a.name not in followers:
                self.diags.error("E203", f"`action {a.name}` needs `on EVENT`", a.span,
                                 "e.g. `on discard` (an action only used in another's `follow` needs none)")
            for ev in (a.on,) + a.also_on:
                self.check_event(ev, a.span)
            for name in a.win_forms:
                if name not in forms:
                    self.diags.error("E301", f"`action {a.name}` wins by unknown form `{name}`", a.span,
                                     did_you_mean(name, forms))
            for name in a.follow:
                if name not in actions:
                    self.diags.error("E301", f"`action {a.name}` follows with unknown action `{name}`", a.span,
                                     did_you_mean(name, actions))
            if (a.win_forms or a.win_tile) and not a.wins:
                self.diags.error("E204", f"`action {a.name}` has `win_tile` but is not a win", a.span,
                                 "add `wins true`")
            for k in a.forms:
                if k not in melds:
                    self.diags.error("E301", f"`action {a.name}` forms unknown meld kind `{k}`", a.span,
                                     did_you_mean(k, melds))
            if a.instead_of and a.instead_of not in actions:
                self.diags.error("E301", f"`action {a.name}`: instead_of names unknown action `{a.instead_of}`",
                                 a.span)
            if a.grow != "any" and not any((m := rs.meld(k)) is not None and m.grows for k in a.forms):
                self.diags.error("E204", f"`action {a.name}` has `grow {a.grow}` but forms no kind that grows",
                                 a.span, "`grow` chooses between forming and extending a `grows` meld kind")
        for h in rs.hooks:
            self.check_event(h.event, h.span)
        for p in rs.payments:
            self.check_event(p.on, p.span)
            for name in p.after:
                if name not in actions:
                    self.diags.error("E301", f"`payment {p.name}` comes after unknown action `{name}`", p.span,
                                     did_you_mean(name, actions))
        for x in rs.restricts:
            for name in x.actions:
                if name not in actions and name not in V.BUILTIN_ACTIONS:
                    self.diags.error("E301", f"`restrict {x.name}` names unknown action `{name}`", x.span,
                                     did_you_mean(name, list(actions) + list(V.BUILTIN_ACTIONS)))
        if rs.table.ends_when is not None and not rs.table.winners_leave:
            self.diags.error("E203", "`ends_when` says when a hand that goes on after a win ends, but "
                             "`table` has no `winners_leave true`: every win ends the hand",
                             where_written(getattr(rs.table.ends_when, "span", None), rs.table.span),
                             "add `winners_leave true` to `table`, or remove `ends_when`")
        if rs.score is None:
            self.diags.error("E203", "the file needs a `score = …` statement", rs.variant.span)

    def check_event(self, event: str, span: Span) -> None:
        events = self.events
        if event and event not in events:
            self.diags.error("E301", f"unknown event `{event}`", span, did_you_mean(event, events) or
                             "events: " + ", ".join(V.EVENTS))

    def meld_possible(self, m: ir.MeldKind) -> None:
        s = m.shape
        suits = self.rs.tiles.suits
        if s.kind == "run" and not any(su.hi - su.lo + 1 >= s.size for su in suits):
            self.diags.error("E507", f"`meld {m.name}`: no suit has {s.size} consecutive ranks", s.span)
        if s.kind == "ranks" and not any(all(su.lo <= r <= su.hi for r in s.ranks) for su in suits):
            self.diags.error("E507", f"`meld {m.name}`: no suit has the ranks {list(s.ranks)}", s.span)
        if s.kind == "same_rank" and s.mixed and len(suits) < 2:
            self.diags.error("E507", f"`meld {m.name}`: mixing suits needs two suits", s.span)

    # ------------------------------------------------------------------ cycles

    def cycles(self) -> None:
        rs = self.rs
        # exclusion cycles
        # Lowering a count is an exclusion too: the order patterns are decided in (only a counted
        # pattern excludes, docs/language.md §37) needs every exclusion to point one way.
        graph = {p.name: [x.pattern for x in p.excludes if x.pattern != p.name]
                 for p in rs.patterns}
        for cyc in _find_cycles(graph):
            p = rs.pattern(cyc[0])
            self.diags.error("E502", "exclusion cycle: " + " → ".join(cyc + [cyc[0]]), p.span if p else rs.variant.span,
                             "two patterns may not exclude each other; keep the exclusion on the higher one")
        # dependencies between quantities, patterns, units
        deps: dict[str, list[str]] = {}
        for q in rs.quantities:
            deps[f"quantity:{q.name}"] = _refs(q.expr)
        unit_members: dict[str, list[str]] = {}
        for p in rs.patterns:
            deps[f"pattern:{p.name}"] = _refs(p.when) + _refs(p.count) + _refs(p.value)
            unit_members.setdefault(p.unit, []).append(f"pattern:{p.name}")
        for u in rs.units:
            deps[f"unit:{u.name}"] = unit_members.get(u.name, [])
        for cyc in _find_cycles(deps):
            cat, name = cyc[0].split(":", 1)
            node = next((x for x in list(rs.quantities) + list(rs.patterns) if x.name == name), None)
            self.diags.error("E503", "these depend on each other: " + " → ".join(c.split(":", 1)[1] for c in
                                                                                   cyc + [cyc[0]]),
                             node.span if node else rs.variant.span)

    # ------------------------------------------------------------------ warnings


# ---------------------------------------------------------------------- helpers


def _is_condition(e: E.Expr) -> bool:
    """Whether an expression is syntactically a condition (its value is true/false)."""
    match e:
        case E.Compare() | E.Bool() | E.Unary(op="not"):
            return True
        case E.Binary(op="and" | "or"):
            return True
        case E.Comp(func="any" | "all"):
            return True
        case E.If(then=t):
            return _is_condition(t)
    return False


def _refs(e: E.Expr | None) -> list[str]:
    if e is None:
        return []
    return [n.ref for n in E.walk(e) if isinstance(n, E.Name) and n.ref.split(":")[0] in
            ("pattern", "quantity", "unit")]


def _find_cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Each elementary cycle once (by its smallest node), found by depth-first search."""
    found: list[list[str]] = []
    seen_sets: set[frozenset] = set()
    color: dict[str, int] = {}
    stack: list[str] = []

    def dfs(n: str) -> None:
        color[n] = 1
        stack.append(n)
        for m in graph.get(n, []):
            if m not in graph:
                continue
            if color.get(m) == 1:
                cyc = stack[stack.index(m):]
                key = frozenset(cyc)
                if key not in seen_sets:
                    seen_sets.add(key)
                    found.append(list(cyc))
            elif color.get(m) is None:
                dfs(m)
        stack.pop()
        color[n] = 2

    for n in graph:
        if color.get(n) is None:
            dfs(n)
    return found



def where_written(span: Span | None, fallback: Span) -> Span:
    """Where a part of a statement is written, when the IR recorded it; else the statement itself."""
    return span if span is not None and span.line else fallback


def did_you_mean(name: str, pool) -> str:

    close = difflib.get_close_matches(name, list(pool), n=1, cutoff=0.5)
    return f"did you mean `{close[0]}`?" if close else ""




def dependency_order(quantities) -> list:
    """The quantities, each after the quantities its expression names (as far as a cycle allows), so
    their types settle in one pass: a quantity's type may depend on the types of those it reads."""
    by_name = {q.name: q for q in quantities}
    out: list = []
    state: dict[str, int] = {}  # 1: being visited, 2: done
    for root in by_name:
        if root in state:
            continue
        stack = [(root, iter(_names_in(by_name[root].expr, by_name)))]
        state[root] = 1
        while stack:  # iterative: a long chain of quantities must not exhaust Python's stack
            name, deps = stack[-1]
            for d in deps:
                if d not in state:
                    state[d] = 1
                    stack.append((d, iter(_names_in(by_name[d].expr, by_name))))
                    break
            else:
                stack.pop()
                state[name] = 2
                out.append(by_name[name])
    return out


def _names_in(e: E.Expr | None, names) -> list[str]:
    if e is None:
        return []
    return [n.name for n in E.walk(e) if isinstance(n, E.Name) and n.name in names]
