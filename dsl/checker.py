"""Semantic checks over a built rule set, and the resolved rule set they produce.

Passes, in order: collect declarations (duplicates), resolve and type-check every expression in its
scope, check cross references (exclusions, combines, priorities, meld and form names, events), check
cycles, fill tile literals from the notation, check examples, then warnings (unreachable patterns, a
lower pattern excluding a higher one).
"""
from __future__ import annotations

import dataclasses

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.ir.passes import RuleSetPasses, dependency_order, where_written
from ..runtime.ir.span import Span
from ..runtime.ir.types import choice_problem, choice_type, list_choice_problem
from . import types as T
from .diagnostics import Diagnostics
from .resolve import CATEGORY_TYPES, Resolver


class Checker(RuleSetPasses):
    """The source-independent passes (`runtime/ir/passes.py`) plus resolution, types, tile literals,
    labels, examples and warnings."""

    def __init__(self, rs: ir.RuleSet, diags: Diagnostics, functions=()):
        super().__init__(rs, diags)
        self.functions = self.declare_functions(functions)
        self.res = Resolver(self.sym, diags, self.functions)
        from ..runtime.notation import Notation

        self.notation = Notation.from_kinds(rs.tiles.kinds)

    # ------------------------------------------------------------------ entry

    def run(self) -> ir.RuleSet:
        self.declare()
        rs = self.resolve_all()
        self.rs = rs
        self.cross_refs()
        self.cycles()
        if not self.diags.has_errors:  # names are resolved: what each game rule's place can see (E510, E511)
            from ..runtime.ir.places import check_places

            check_places(rs, self.diags)
        if not self.diags.has_errors:  # the limits on the rule set need a checked, acyclic one
            from ..runtime.ir.limitcheck import check_ruleset
            from .limits import set_up_tiles

            check_ruleset(rs, self.diags, set_up_tiles=set_up_tiles(rs, self.diags))
        self.warnings()
        return rs

    def declare(self) -> None:
        super().declare()
        self.functions.update({n: dataclasses.replace(fn, body=self.tile_literals(fn.body))
                               for n, fn in self.functions.items()})
        self.infer_quantity_types()

    def declare_functions(self, functions) -> dict:
        """The file's functions by name: one per name, none named as a builtin function."""
        from ..runtime.ir.types import FUNC_SIGS

        out = {}
        for fn in functions:
            if fn.name in out:
                self.diags.error("E302", f"function `{fn.name}` is declared twice (first at line "
                                 f"{out[fn.name].span.line})", fn.span)
            elif fn.name in FUNC_SIGS or fn.name in E.COMPREHENSIONS:
                self.diags.error("E302", f"`{fn.name}` is a builtin function", fn.span, "give it another name")
            else:
                out[fn.name] = fn
        return out

    def infer_quantity_types(self) -> None:
        """A quantity is a number or a named condition, whichever its expression gives. Quantities may
        use each other, so settle the types in dependency order (one pass, more only where a cycle, an
        error anyway, leaves it open) with a scratch diagnostics list; `runtime/ir/typecheck.py` settles
        them the same way."""
        from ..runtime.ir.types import quantity_type
        from .resolve import Resolver as _R

        scratch = _R(self.sym, Diagnostics(), self.functions)
        q_types = self.sym.by_category.get("quantity", {})
        ordered = dependency_order(self.rs.quantities)
        for _ in range(3):
            before = dict(q_types)
            for q in ordered:
                if q.name in q_types:
                    _, typ = scratch.typed(self.tile_literals_quiet(q.expr), "reading")
                    q_types[q.name] = quantity_type(typ)
            if q_types == before:
                break

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
        for fn in self.functions.values():
            self.res.check_function(fn)

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
                  next_dealer=r(rs.table.next_dealer, "game", "seat"),
                  ends_when=r(lit(rs.table.ends_when), "game", "bool"))
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
        actions = tuple(self.action(a) for a in rs.actions)
        restricts = tuple(R(x, when=r(lit(x.when), "game", "bool")) for x in rs.restricts)
        observes = tuple(R(x, when=r(lit(x.when), "game", "bool")) for x in rs.observes)
        hooks = tuple(R(h, when=r(lit(h.when), "game", "bool"), effects=self.effects(h.effects)) for h in rs.hooks)
        examples = tuple(self.example(x) for x in rs.examples)
        return R(rs, tiles=tiles, settings=settings, table=table, reveals=reveals, wilds=wilds, standins=standins,
                 melds=melds, forms=forms, requires=requires, patterns=patterns, quantities=quantities, score=score,
                 payments=payments, fees=fees, tasks=tasks, states=states, phases=phases, actions=actions,
                 hooks=hooks, restricts=restricts, observes=observes, examples=examples)

    def action(self, a: ir.Action) -> ir.Action:
        """An action; its `choices` first, since their type is the type of `choice` in the rest."""
        r, lit = self.res.check, self.tile_literals
        choices = []
        types = []
        for c in a.choices:
            out, typ = self.res.typed(lit(c), "game")
            choices.append(out)
            problem = choice_problem(typ)
            if problem:
                self.diags.error("E401", f"a choice of `{a.name}` {problem}", c.span,
                                 "a decision's value is a number, a tile, several tiles ('123m'), a suit or a player")
            else:
                types.append(typ)
        choice_list = None
        if a.choice_list is not None:
            choice_list, typ = self.res.typed(lit(a.choice_list), "game")
            problem = list_choice_problem(typ)
            if problem:
                self.diags.error("E401", f"the choices of `{a.name}` {problem}", a.choice_list.span,
                                 "a list of numbers, tiles, lists of tiles, suits or players, none of them none")
            else:
                types.append(T.elem(typ))
        kinds = {T.base(t) for t in types if t != "any"}
        if {"int", "num"} <= kinds:  # whole numbers are numbers
            kinds.discard("int")
        if len(kinds) > 1:
            self.diags.error("E401", f"the choices of `{a.name}` mix " + " and ".join(T.show(k) for k in sorted(kinds)),
                             a.span, "every choice of one decision has one type")
        self.res.overrides = {"choice": "list[tile]" if a.select else choice_type(types) if types else "num"}
        try:
            return dataclasses.replace(
                a, when=r(lit(a.when), "game", "bool"), effects=self.effects(a.effects),
                decline=self.effects(a.decline), choice_when=r(lit(a.choice_when), "game", "bool"),
                choices=tuple(choices), choice_list=choice_list)
        finally:
            self.res.overrides = {}

    def setting(self, s: ir.Setting) -> ir.Setting:
        want = s.type + ("?" if s.type in V.OPTIONAL_TYPES else "")
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
            names = self.parse_tiles(shape.tiles[0], where_written(shape.tiles_span, shape.span))
            shape = dataclasses.replace(shape, tiles=tuple(names), size=len(names))
        values = tuple(dataclasses.replace(v, value=self.res.check(v.value, "setup", "num")) for v in m.values)
        for v in values:
            if v.suit and v.suit not in self.sym.by_category.get("suit", {}):
                self.diags.error("E301", f"unknown suit `{v.suit}` in `value`", v.span)
        return dataclasses.replace(m, shape=shape, values=values)

    def pattern(self, p: ir.Pattern) -> ir.Pattern:
        r = self.res.check
        lit = self.tile_literals
        label_exprs = self.check_label(p.label, where_written(p.label_span, p.span)) if p.label else ()
        return dataclasses.replace(
            p, label_exprs=label_exprs, value=r(p.value, "reading", "num"), when=r(lit(p.when), "reading", "bool"),
            count=r(lit(p.count), "reading", "int"), enabled=r(p.enabled, "setup", "bool"),
            examples=tuple(self.example(x) for x in p.examples),
            counterexamples=tuple(self.example(x) for x in p.counterexamples))

    def check_label(self, label: str, span: Span) -> tuple[E.Expr, ...]:
        """The label's `{…}` slots, parsed and resolved (the runtime only evaluates them)."""
        exprs = []
        for m in ir.LABEL_SLOT.finditer(label):
            e = parse_expression(m.group(1), span, self.diags)
            if e is not None:
                exprs.append(self.res.check(e, "reading", None))
        if ir.LABEL_SLOT.sub("", label).count("{") or ir.LABEL_SLOT.sub("", label).count("}"):
            self.diags.error("E406", "unbalanced `{` `}` in the label", span)
        return tuple(exprs)

    def state(self, s: ir.StateVar) -> ir.StateVar:
        want = {"tiles": "list[tile]"}.get(s.type, s.type)
        if s.type in V.OPTIONAL_TYPES:
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
            if ef.op == "give":
                out.append(self.give_effect(ef))
                continue
            target_type = self.effect_target(ef)
            if ef.op == "roll":
                out.append(self.roll_effect(ef, target_type))
                continue
            if value is not None:
                want = target_type
                if ef.op in ("add", "remove") and target_type and target_type.startswith("list["):
                    want = None  # adding an element or a list
                value = self.res.check(self.tile_literals(value), "game", want if want else None)
            out.append(dataclasses.replace(ef, value=value))
        return tuple(out)

    def roll_effect(self, ef: ir.Effect, target_type: str | None) -> ir.Effect:
        """`roll TARGET = LIST { times N }`: the list's items have the target's type (numbers when several
        are drawn and summed)."""
        value, typ = self.res.typed(self.tile_literals(ef.value), "game")
        if not T.is_list(typ) and typ != "any":
            self.diags.error("E401", f"`roll` draws one item of a list, but this is {T.show(typ)}", ef.value.span,
                             "write the items: `roll table.点数 = [1, 2, 3, 4, 5, 6]`")
        elif T.is_list(typ):
            item = T.elem(typ)
            if ef.times > 1 and not T.is_num(item):
                self.diags.error("E401", f"`roll … {{ times {ef.times} }}` sums the items drawn, but they are "
                                 f"{T.show(item)}", ef.value.span, "draw several numbers, or draw once")
            elif target_type and not T.assignable("num" if ef.times > 1 and T.base(item) != "int" else item,
                                                  target_type):
                self.diags.error("E401", f"`roll` stores {T.show(item)} in `{'.'.join(ef.target)}`, which is "
                                 f"{T.show(target_type)}", ef.value.span)
        return dataclasses.replace(ef, value=value)

    def give_effect(self, ef: ir.Effect) -> ir.Effect:
        """`give = TILES { to = SEAT }`: tiles (one or a list) of the actor's hand, to a seat."""
        value, typ = self.res.typed(self.tile_literals(ef.value), "game")
        if typ not in ("any", "tile", "list[tile]"):
            self.diags.error("E401", f"`give` gives tiles of the actor's hand, but this is {T.show(typ)}",
                             ef.value.span, "give the tiles a decision chose: `give = choice { to = next(actor) }`")
        to = self.res.check(self.tile_literals(ef.to), "game", "seat")
        return dataclasses.replace(ef, value=value, to=to)

    def effect_target(self, ef: ir.Effect) -> str | None:
        t = ef.target
        player_phases = {p.name for p in self.rs.phases if p.scope == "player"}
        table_phases = {p.name for p in self.rs.phases if p.scope == "table"}
        if len(t) == 2 and (t[0] != "table" and t[1] in player_phases or t[0] == "table" and t[1] in table_phases):
            self.diags.error("E511", f"`{'.'.join(t)}` is a phase: the engine enters and leaves it by its "
                             "`enter` and `leave` triggers, an effect cannot set it", ef.span,
                             "change the phase's triggers, or keep the value in a `state`")
            return None
        if len(t) == 2 and t[0] in ("actor", "winner", "payer", "payee", "discarder", "dealer", "robbed"):
            typ = self.sym.player_fields.get(t[1])
            if typ is None and t[1] in V.SEAT_BUILTIN_FIELDS:
                self.diags.error("E511", f"`{'.'.join(t)}` is kept by the engine ({t[1]} of the seat): an effect "
                                 "cannot change it", ef.span,
                                 "an effect changes a declared state: `state player NAME TYPE = INIT`")
                return None
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
            if cands:
                what = {"option": "a room option", "reveal": "a reveal", "table": "a table state or phase"}.get(
                    cands[0][0], f"a {cands[0][0]}")
                self.diags.error("E511", f"`{t[0]}` is {what}: an effect cannot change it", ef.span,
                                 f"write `table.{t[0]}` for a table state" if cands[0][0] == "table" else
                                 "effects change `actor.STATE`, `table.STATE` or a context value")
                return None
            self.diags.error("E301", f"`{'.'.join(t)}` is not something an effect can change", ef.span,
                             "effects change `actor.STATE`, `table.STATE` or a context value")
            return None
        self.diags.error("E301", f"`{'.'.join(t)}` is not something an effect can change", ef.span)
        return None

    def example(self, x: ir.Example) -> ir.Example:
        for text, span in ((x.hand, x.hand_span), (x.win, x.win_span)):
            if text:
                self.parse_tiles(text, where_written(span, x.span))
        melds = self.sym.by_category.get("meld", {})
        for i, (kind, tiles) in enumerate(x.melds):
            if kind not in melds:
                self.diags.error("E301", f"unknown meld kind `{kind}` in an example", x.span)
            self.parse_tiles(tiles, where_written(x.meld_spans[i] if i < len(x.meld_spans) else None, x.span))
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

        return E.map_expr(e, fix)

    def warnings(self) -> None:
        from ..runtime.game.engine_limits import unexecuted
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
    return E.map_expr(stmts[0].expr, lambda n: dataclasses.replace(n, span=span))


def _const(e: E.Expr) -> float | None:
    if isinstance(e, E.Num):
        v = float(e.text)
        return int(v) if v.is_integer() else v
    return None


def _same_literal(a: E.Expr, b: E.Expr) -> bool:
    strip = lambda x: dataclasses.replace(x, span=Span("", 0, 0))  # noqa: E731
    try:
        return E.map_expr(a, strip) == E.map_expr(b, strip)
    except TypeError:
        return False


__all__ = ["Checker", "CATEGORY_TYPES"]
