"""Semantic checks over a built rule set, and the resolved rule set they produce.

Passes, in order: collect declarations (duplicates), resolve and type-check every expression in its
scope, check cross references (exclusions, combines, priorities, meld and form names, events), check
cycles, fill tile literals from the notation, check examples, then warnings (unreachable patterns, a
lower pattern excluding a higher one).
"""
from __future__ import annotations

import dataclasses
import re

from . import expr as E
from . import ir
from . import vocab as V
from .diagnostics import Diagnostics
from .resolve import CATEGORY_TYPES, Resolver, Symbols
from .span import Span


class Checker:
    def __init__(self, rs: ir.RuleSet, diags: Diagnostics):
        self.rs = rs
        self.diags = diags
        self.sym = Symbols()
        self.res = Resolver(self.sym, diags)
        from ..runtime.notation import Notation

        self.notation = Notation.from_kinds(rs.tiles.kinds)

    # ------------------------------------------------------------------ entry

    def run(self) -> ir.RuleSet:
        self.declare()
        rs = self.resolve_all()
        self.rs = rs
        self.cross_refs()
        self.cycles()
        if not self.diags.has_errors:  # the limits of dsl/limits.py need a checked, acyclic rule set
            from .limits import check_ruleset

            check_ruleset(rs, self.diags)
        self.warnings()
        return rs

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
        self.infer_quantity_types()
        emitted = {ef.target[0] for a in rs.actions for ef in a.effects + a.decline if ef.op == "emit"} | {
            ef.target[0] for h in rs.hooks for ef in h.effects if ef.op == "emit"}
        self.events = set(V.EVENTS) | emitted | {a.name for a in rs.actions}

    def infer_quantity_types(self) -> None:
        """A quantity is a number or a named condition, whichever its expression gives. Quantities may
        use each other, so settle the types over a few rounds with a scratch diagnostics list."""
        from .resolve import Resolver as _R
        from .types import base

        scratch = _R(self.sym, Diagnostics())
        for _ in range(3):
            for q in self.rs.quantities:
                if q.name in self.sym.by_category.get("quantity", {}):
                    _, typ = scratch.expr(self.tile_literals_quiet(q.expr), "reading", {}, None)
                    self.sym.by_category["quantity"][q.name] = "bool" if base(typ) == "bool" else "num"

    def tile_literals_quiet(self, e):
        saved, self.diags = self.diags, Diagnostics()
        try:
            return self.tile_literals(e)
        finally:
            self.diags = saved

    # ------------------------------------------------------------------ expressions

    def resolve_all(self) -> ir.RuleSet:
        rs = self.rs
        r = self.res.check
        R = dataclasses.replace

        def lit(e):
            return self.tile_literals(e)

        tiles = rs.tiles
        tiles = R(tiles,
                  suits=tuple(R(s, copies=r(s.copies, "setup", "int"), enabled=r(s.enabled, "setup", "bool"))
                              for s in tiles.suits),
                  kinds=tuple(R(k, copies=r(k.copies, "setup", "int"), enabled=r(k.enabled, "setup", "bool"))
                              for k in tiles.kinds),
                  attrs=tuple(R(a, expr=r(lit(a.expr), "tile", "bool")) for a in tiles.attrs))
        settings = tuple(self.setting(s) for s in rs.settings)
        table = R(rs.table, players=r(rs.table.players, "setup", "int"),
                  next_dealer=r(rs.table.next_dealer, "game", "seat"))
        reveals = tuple(R(x, moves_when=r(lit(x.moves_when), "game", "bool"), unless=r(lit(x.unless), "game", "bool"))
                        for x in rs.reveals)
        wilds = tuple(R(w, active=r(lit(w.active), "reading", "bool")) for w in rs.wilds)
        standins = tuple(R(s, plays=r(lit(s.plays), "setup", "tile?"), unless=r(lit(s.unless), "setup", "bool"))
                         for s in rs.standins)
        melds = tuple(self.meld(m) for m in rs.melds)
        forms = tuple(R(f, pair_when=r(lit(f.pair_when), "reading", "bool"),
                        instant=r(lit(f.instant), "reading", "bool")) for f in rs.forms)
        requires = tuple(R(q, expr=r(lit(q.expr), "reading", "bool"), unless=r(lit(q.unless), "reading", "bool"))
                         for q in rs.requires)
        patterns = tuple(self.pattern(p) for p in rs.patterns)
        quantities = tuple(R(q, expr=r(lit(q.expr), "reading", self.sym.by_category["quantity"][q.name]))
                           for q in rs.quantities)
        score = R(rs.score, expr=r(lit(rs.score.expr), "reading", "num"),
                  best=r(lit(rs.score.best), "reading", "num"),
                  total=r(lit(rs.score.total), "reading", "num")) if rs.score else None
        payments = tuple(R(p, amount=r(lit(p.amount), "game", "num"), when=r(lit(p.when), "game", "bool"),
                           factors=tuple(R(fc, value=r(fc.value, "game", "num"), when=r(lit(fc.when), "game",
                                                                                          "bool"))
                                         for fc in p.factors)) for p in rs.payments)
        fees = tuple(R(f, rate=r(f.rate, "setup", "num")) for f in rs.fees)
        tasks = tuple(R(t, factor=r(t.factor, "setup", "num"), when=r(lit(t.when), "reading", "bool"))
                      for t in rs.tasks)
        states = tuple(self.state(s) for s in rs.states)
        phases = tuple(R(p, enter=self.triggers(p.enter), leave=self.triggers(p.leave)) for p in rs.phases)
        actions = tuple(R(a, when=r(lit(a.when), "game", "bool"), effects=self.effects(a.effects),
                          decline=self.effects(a.decline), choice_when=r(lit(a.choice_when), "game", "bool"),
                          choices=tuple(r(c, "setup", None) for c in a.choices)) for a in rs.actions)
        restricts = tuple(R(x, when=r(lit(x.when), "game", "bool")) for x in rs.restricts)
        observes = tuple(R(x, when=r(lit(x.when), "game", "bool")) for x in rs.observes)
        hooks = tuple(R(h, when=r(lit(h.when), "game", "bool"), effects=self.effects(h.effects)) for h in rs.hooks)
        examples = tuple(self.example(x) for x in rs.examples)
        return R(rs, tiles=tiles, settings=settings, table=table, reveals=reveals, wilds=wilds, standins=standins,
                 melds=melds, forms=forms, requires=requires, patterns=patterns, quantities=quantities, score=score,
                 payments=payments, fees=fees, tasks=tasks, states=states, phases=phases, actions=actions,
                 hooks=hooks, restricts=restricts, observes=observes, examples=examples)

    def setting(self, s: ir.Setting) -> ir.Setting:
        want = s.type + ("?" if s.type in ("tile", "seat") else "")
        default = self.res.check(self.tile_literals(s.default), "setup", want)
        values = tuple(self.res.check(self.tile_literals(v), "setup", s.type) for v in s.values)
        if s.values and not any(_same_literal(default, v) for v in values):
            self.diags.error("E405", f"the default of `{s.name}` is not one of its values", default.span)
        if s.range and isinstance(default, E.Num) and "." not in default.text:
            v = int(default.text)
            if not s.range[0] <= v <= s.range[1]:
                self.diags.error("E402", f"the default {v} of `{s.name}` is outside {s.range[0]}..{s.range[1]}",
                                 default.span)
        return dataclasses.replace(s, default=default, values=values)

    def meld(self, m: ir.MeldKind) -> ir.MeldKind:
        shape = m.shape
        if shape.kind == "tiles" and shape.tiles:
            names = self.parse_tiles(shape.tiles[0], _written(shape.tiles_span, shape.span))
            shape = dataclasses.replace(shape, tiles=tuple(names), size=len(names))
        values = tuple(dataclasses.replace(v, value=self.res.check(v.value, "setup", "num")) for v in m.values)
        for v in values:
            if v.suit and v.suit not in self.sym.by_category.get("suit", {}):
                self.diags.error("E301", f"unknown suit `{v.suit}` in `value`", v.span)
        return dataclasses.replace(m, shape=shape, values=values)

    def pattern(self, p: ir.Pattern) -> ir.Pattern:
        r = self.res.check
        lit = self.tile_literals
        if p.label:
            self.check_label(p.label, _written(p.label_span, p.span))
        return dataclasses.replace(
            p, value=r(p.value, "reading", "num"), when=r(lit(p.when), "reading", "bool"),
            count=r(lit(p.count), "reading", "int"), enabled=r(p.enabled, "setup", "bool"),
            examples=tuple(self.example(x) for x in p.examples),
            counterexamples=tuple(self.example(x) for x in p.counterexamples))

    def check_label(self, label: str, span: Span) -> None:
        for m in re.finditer(r"\{([^{}]*)\}", label):
            inner = m.group(1)
            e = parse_expression(inner, span, self.diags)
            if e is not None:
                self.res.check(e, "reading", None)
        if re.sub(r"\{[^{}]*\}", "", label).count("{") or re.sub(r"\{[^{}]*\}", "", label).count("}"):
            self.diags.error("E406", "unbalanced `{` `}` in the label", span)

    def state(self, s: ir.StateVar) -> ir.StateVar:
        want = {"tiles": "list[tile]"}.get(s.type, s.type)
        if s.type in ("tile", "seat"):
            want += "?"
        return dataclasses.replace(s, init=self.res.check(self.tile_literals(s.init), "setup", want))

    def triggers(self, ts):
        out = []
        for t in ts:
            self.check_event(t.event, t.span)
            out.append(dataclasses.replace(t, cond=self.res.check(self.tile_literals(t.cond), "game", "bool")))
        return tuple(out)

    def effects(self, effects):
        out = []
        for ef in effects:
            value = ef.value
            if ef.op == "emit":
                out.append(ef)
                continue
            target_type = self.effect_target(ef)
            if value is not None:
                want = target_type
                if ef.op in ("add", "remove") and target_type and target_type.startswith("list["):
                    want = None  # adding an element or a list
                value = self.res.check(self.tile_literals(value), "game", want if want else None)
            out.append(dataclasses.replace(ef, value=value))
        return tuple(out)

    def effect_target(self, ef: ir.Effect) -> str | None:
        t = ef.target
        if len(t) == 2 and t[0] in ("actor", "winner", "payer", "payee", "discarder", "dealer", "robbed"):
            typ = self.sym.player_fields.get(t[1])
            if typ is None:
                self.diags.error("E301", f"no player state `{t[1]}`", ef.span,
                                 f"declare it: `state player {t[1]} bool = false`")
            return typ
        if len(t) == 2 and t[0] == "table":
            typ = self.sym.table_fields.get(t[1])
            if typ is None:
                self.diags.error("E301", f"no table state `{t[1]}`", ef.span,
                                 f"declare it: `state table {t[1]} int = 0`")
            return typ
        if len(t) == 1:
            cands = self.sym.lookup(t[0])
            for cat, typ in cands:
                if cat == "context":
                    return typ
            self.diags.error("E301", f"`{'.'.join(t)}` is not something an effect can change", ef.span,
                             "effects change `actor.STATE`, `table.STATE` or a context value")
            return None
        self.diags.error("E301", f"`{'.'.join(t)}` is not something an effect can change", ef.span)
        return None

    def example(self, x: ir.Example) -> ir.Example:
        for text, span in ((x.hand, x.hand_span), (x.win, x.win_span)):
            if text:
                self.parse_tiles(text, _written(span, x.span))
        melds = self.sym.by_category.get("meld", {})
        for i, (kind, tiles) in enumerate(x.melds):
            if kind not in melds:
                self.diags.error("E301", f"unknown meld kind `{kind}` in an example", x.span)
            self.parse_tiles(tiles, _written(x.meld_spans[i] if i < len(x.meld_spans) else None, x.span))
        sets = []
        for name, value in x.sets:
            cands = [c for c in self.sym.lookup(name) if c[0] in ("option", "context", "reveal")]
            if not cands:
                self.diags.error("E301", f"`set {name}`: no option, context value or reveal of that name",
                                 value.span)
                sets.append((name, value))
                continue
            cat, typ = cands[0]
            sets.append((name, self.res.check(self.tile_literals(value), "setup", typ)))
        expects = []
        for what, value in x.expects:
            if what not in V.EXPECT_KEYS and what not in self.sym.by_category.get("quantity", {}):
                self.diags.error("E204", f"`expect {what}`: expect one of {', '.join(V.EXPECT_KEYS)} or a "
                                 "quantity name", value.span)
            if what == "fans" and isinstance(value, E.ListLit):
                pats = self.sym.by_category.get("pattern", {})
                for item in value.items:
                    if isinstance(item, E.Name) and item.name not in pats:
                        self.diags.error("E501", f"`expect fans` names unknown pattern `{item.name}`", item.span)
            expects.append((what, value))
        return dataclasses.replace(x, sets=tuple(sets), expects=tuple(expects))

    # ------------------------------------------------------------------ tiles

    def parse_tiles(self, text: str, span: Span) -> list[str]:
        from ..runtime.notation import NotationError

        try:
            return self.notation.parse(text)
        except NotationError as exc:
            col = span.col + 1 + exc.offset if span.line else span.col
            self.diags.error("E303", f"in '{text}': {exc}", Span(span.file, span.line, col, span.line, col + 1))
            return []

    def tile_literals(self, e: E.Expr | None) -> E.Expr | None:
        """Fill every tile literal with the tile names it denotes."""
        if e is None or not any(isinstance(n, E.TileLit) for n in E.walk(e)):
            return e

        def fix(node):
            if isinstance(node, E.TileLit):
                names = self.parse_tiles(node.text, node.span)
                return dataclasses.replace(node, tiles=tuple(names), single=len(names) == 1)
            return node

        return _map(e, fix)

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
                                     _close(ex.pattern, patterns))
                elif ex.pattern == p.name:
                    self.diags.warn("W604", f"`{p.name}` excludes itself", ex.span)
        for c in rs.combines:
            for name in c.patterns:
                p = patterns.get(name)
                if p is None:
                    self.diags.error("E501", f"`combine {c.name}` names unknown pattern `{name}`", c.span,
                                     _close(name, patterns))
                elif not (isinstance(p.count, E.Comp) and p.count.func == "count" and len(p.count.binders) >= 2):
                    self.diags.error("E504", f"`{name}` must be counted per combination of melds to be combined",
                                     p.span, "write `count = count(a, b in runs: …)`")
        for m in rs.melds:
            for up in m.upgrades:
                if up not in melds:
                    self.diags.error("E301", f"`meld {m.name}` upgrades unknown meld kind `{up}`", m.span,
                                     _close(up, melds))
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
                    self.diags.error("E301", f"`wild {w.name}`: unknown action `{k}`", w.span, _close(k, actions))
        for s in rs.standins:
            if s.name not in tiles:
                self.diags.error("E301", f"`standin {s.name}`: no tile of that name", s.span)
        for ink in rs.tiles.inks:
            if ink.attr not in attrs and ink.attr not in ("flower", "honor", "joker"):
                self.diags.error("E301", f"`ink {ink.colour}`: unknown tile attribute `{ink.attr}`", ink.span,
                                 _close(ink.attr, attrs))
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
                                     _written(rs.priority_span, rs.variant.span), _close(name, actions))
                if name in seen_levels:
                    self.diags.error("E505", f"priority lists `{name}` twice",
                                     _written(rs.priority_span, rs.variant.span))
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
                                     _close(name, forms))
            for name in a.follow:
                if name not in actions:
                    self.diags.error("E301", f"`action {a.name}` follows with unknown action `{name}`", a.span,
                                     _close(name, actions))
            if (a.win_forms or a.win_tile) and not a.wins:
                self.diags.error("E204", f"`action {a.name}` has `win_tile` but is not a win", a.span,
                                 "add `wins true`")
            for k in a.forms:
                if k not in melds:
                    self.diags.error("E301", f"`action {a.name}` forms unknown meld kind `{k}`", a.span,
                                     _close(k, melds))
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
                                     _close(name, actions))
        for x in rs.restricts:
            for name in x.actions:
                if name not in actions and name not in V.BUILTIN_ACTIONS:
                    self.diags.error("E301", f"`restrict {x.name}` names unknown action `{name}`", x.span,
                                     _close(name, list(actions) + list(V.BUILTIN_ACTIONS)))
        if rs.score is None:
            self.diags.error("E203", "the file needs a `score = …` statement", rs.variant.span)

    def check_event(self, event: str, span: Span) -> None:
        events = self.events
        if event and event not in events:
            self.diags.error("E301", f"unknown event `{event}`", span, _close(event, events) or
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

    def warnings(self) -> None:
        from .engine_limits import unexecuted
        from .reach import unreachable_reasons

        rs = self.rs
        try:
            from ..runtime.tiles import Catalog

            catalog = Catalog(rs)
        except Exception:  # a default that cannot be evaluated: nothing to prove
            catalog = None
        # The search evaluates patterns with the runtime: only on a rule set that checked cleanly.
        reasons = unreachable_reasons(rs, catalog, search=not self.diags.has_errors) if catalog else {}
        for p in rs.patterns:
            why = reasons.get(p.name, "")
            if why:
                self.diags.warn("W601", f"pattern `{p.name}` can never match: {why}", p.span)
        values = {p.name: _const(p.value) for p in rs.patterns}
        units = {p.name: p.unit for p in rs.patterns}
        for p in rs.patterns:
            for ex in p.excludes:
                v, w = values.get(p.name), values.get(ex.pattern)
                if v is not None and w is not None and units.get(ex.pattern) == p.unit and v < w \
                        and ex.decrement is None:
                    self.diags.warn("W602", f"`{p.name}` ({v}) excludes the higher-valued `{ex.pattern}` ({w})",
                                    ex.span, "check the seed; the page will show this exclusion as written")
        for what, span in unexecuted(rs):
            self.diags.warn("W605", f"the game engine does not execute {what}",
                            span, "scoring works; creating a game from this file is refused")


# ---------------------------------------------------------------------- helpers


def parse_expression(text: str, span: Span, diags: Diagnostics) -> E.Expr | None:
    from .syntax import parse_source

    local = Diagnostics()
    stmts = parse_source(f"_ = {text}\n", span.file, local)
    if local.items or not stmts or stmts[0].expr is None:
        diags.error("E406", f"`{{{text}}}` in the label is not an expression", span)
        return None
    return _map(stmts[0].expr, lambda n: dataclasses.replace(n, span=span))


def _map(e: E.Expr, fn):
    """Rebuild an expression bottom-up, applying fn to every node."""
    if not dataclasses.is_dataclass(e):
        return e
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, E.Expr):
            changes[f.name] = _map(v, fn)
        elif isinstance(v, tuple) and v and isinstance(v[0], E.Expr):
            changes[f.name] = tuple(_map(x, fn) for x in v)
    return fn(dataclasses.replace(e, **changes) if changes else e)


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


def _const(e: E.Expr) -> float | None:
    if isinstance(e, E.Num):
        v = float(e.text)
        return int(v) if v.is_integer() else v
    return None


def _same_literal(a: E.Expr, b: E.Expr) -> bool:
    strip = lambda x: dataclasses.replace(x, span=Span("", 0, 0))  # noqa: E731
    try:
        return _map(a, strip) == _map(b, strip)
    except TypeError:
        return False


def _written(span: Span | None, fallback: Span) -> Span:
    """Where a part of a statement is written, when the IR recorded it; else the statement itself."""
    return span if span is not None and span.line else fallback


def _close(name: str, pool) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(pool), n=1, cutoff=0.5)
    return f"did you mean `{close[0]}`?" if close else ""


__all__ = ["Checker", "CATEGORY_TYPES"]
