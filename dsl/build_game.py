"""The builders of the game rules (statements -> IR): payments, fees, caps, tasks, states, phases, actions
and their effects, restrictions, observations, priority, hooks."""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.limits import MAX_ROLL_TIMES, MAX_SELECT
from .build_support import respan
from .fields import Fields, arg_to_expr, flatten
from .syntax import Stmt


class GameBuilders:
    """Builders of the game rules: payments, fees, caps, tasks, states, phases, actions, restrictions,
    observations, priority, hooks (a mixin of `Builder`, dsl/build.py)."""

    def payment(self, s: Stmt) -> ir.Payment:
        usage = "payment NAME { on win; from each_loser; to winner; amount = score }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`payment {name}`")
        factors = []
        for st in f.all("factor"):
            f.plain(st, allow_cond=True, allow_expr=True)
            a = st.args
            if len(a) == 2 and a[0].kind == "name" and a[1].kind == "number" and st.expr is None:
                factors.append(ir.Factor(str(a[0].value), arg_to_expr(a[1]), st.cond, span=a[0].span))
            elif len(a) == 1 and a[0].kind == "name" and st.expr is not None:
                factors.append(ir.Factor(str(a[0].value), st.expr, st.cond, span=a[0].span))
            else:
                f.bad(st, "factor NAME 2 when payer == discarder")
        out = ir.Payment(name, on=self.event(f, "on", required=True), payer=f.name("from", "each_loser",
                         words=V.PAYERS), payee=f.name("to", "winner", words=V.PAYEES),
                         amount=f.expr("amount", required=True, usage="amount = score") or E.Num("0"),
                         factors=tuple(factors), when=f.cond("when"), after=tuple(n for n, _ in f.names("after")),
                         span=s.span, **f.docs())
        f.finish()
        return out

    def event(self, f: Fields, key: str, required=False) -> str:
        """Event names: the engine's own (vocab.EVENTS) or an event the rule file emits (checked later)."""
        return f.name(key, "", f"{key} discard", required=required)

    def fee(self, s: Stmt) -> ir.Fee:
        usage = "fee NAME = 0.0125"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True, expr=True)
        if s.expr is None:
            self.diags.error("E207", f"`fee {name}` needs `= rate`", s.span, f"write it as `{usage}`")
        f = self.fields(s, f"`fee {name}`")
        out = ir.Fee(name, s.expr or E.Num("0"), span=s.span, **f.docs())
        f.finish()
        return out

    def cap(self, s: Stmt) -> ir.Cap:
        usage = "cap balance"
        kind = self.decl_name(s, usage)
        if kind != "balance":
            self.diags.error("E204", f"unknown cap `{kind}`; the cap known is `balance`", s.span)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, "`cap`")
        out = ir.Cap(kind, of=f.name("of", "payer", words=V.CAP_OF), span=s.span, **f.docs())
        f.finish()
        return out

    def task(self, s: Stmt) -> ir.Task:
        usage = "task NAME { factor 6; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`task {name}`")
        when = f.cond("when")
        if when is None:
            self.diags.error("E203", f"`task {name}` needs `when …`", s.span)
        out = ir.Task(name, f.expr("factor", required=True, usage="factor 6") or E.Num("1"),
                      when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    # ---------------------------------------------------------------- game flow

    def state(self, s: Stmt) -> ir.StateVar:
        usage = "state player NAME TYPE = INIT"
        a = s.args
        self.plain_stmt(s, block=True, expr=True)
        if len(a) != 3 or any(x.kind != "name" for x in a) or a[0].value not in V.SCOPES \
                or a[2].value not in V.STATE_TYPES:
            self.diags.error("E204", "a state needs a scope (player/table), a name and a type ("
                             + ", ".join(V.STATE_TYPES) + ")", a[0].span if a else s.span,
                             f"write it as `{usage}`")
            name = str(a[1].value) if len(a) > 1 else f"<state@{s.span.line}>"
            return ir.StateVar(name, "player", "bool", E.Bool(False), span=s.span)
        scope, name, typ = (str(x.value) for x in a)
        init = s.expr or respan({"bool": E.Bool(False), "int": E.Num("0"), "num": E.Num("0"),
                                  "tiles": E.ListLit(())}.get(typ, E.NoneLit()), s.span)
        f = self.fields(s, f"`state {name}`")
        visible = f.bool("visible", False)
        if visible and scope != "player":
            self.diags.error("E204", "`visible` is for player states: every seat sees the table's states already",
                             f.one("visible").span, f"leave it out of `state table {name}`")
            visible = False
        out = ir.StateVar(name, scope, typ, init, lives=f.name("lives", "hand", words=V.LIFETIMES),
                          visible=visible, span=a[1].span, **f.docs())
        f.finish()
        return out

    def triggers(self, f: Fields, key: str) -> tuple[ir.Trigger, ...]:
        out = []
        for st in f.all(key):
            f.plain(st, allow_expr=True)
            if len(st.args) != 1 or st.args[0].kind != "name":
                f.bad(st, f"{key} discard = CONDITION")
                continue
            out.append(ir.Trigger(str(st.args[0].value), st.expr, span=st.args[0].span))
        return tuple(out)

    def phase(self, s: Stmt) -> ir.Phase:
        usage = "phase NAME { scope player; enter discard = …; leave discard = … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`phase {name}`")
        out = ir.Phase(name, f.name("scope", "player", words=V.SCOPES), enter=self.triggers(f, "enter"),
                       leave=self.triggers(f, "leave"), level=f.int("level", 0, lo=0),
                       span=s.span, **f.docs())
        f.finish()
        return out

    def effects(self, f: Fields, key: str) -> tuple[ir.Effect, ...]:
        out: list[ir.Effect] = []
        for st in f.all(key):
            f.plain(st, allow_block=True)
            if not self.need_block(st, f"{key} {{ set actor.NAME = … }}"):
                continue
            out.extend(self.effect_block(st))
        return tuple(out)

    def effect_block(self, st: Stmt) -> list[ir.Effect]:
        out = []
        for e in st.block or ():
            if e.key not in V.EFFECT_OPS:
                self.diags.error("E201", f"unknown effect `{e.key}`; effects are: " + ", ".join(V.EFFECT_OPS),
                                 e.span)
                continue
            if e.key == "give":
                give = self.give_effect(e)
                if give is not None:
                    out.append(give)
                continue
            self.plain_stmt(e, expr=e.key in ("set", "add", "remove", "roll"), block=e.key == "roll")
            if len(e.args) != 1 or e.args[0].kind not in ("name", "dotted"):
                self.diags.error("E204", f"`{e.key}` needs one target name", e.span,
                                 f"write it as `{e.key} actor.NAME" + (" = …`" if e.key != "clear" else "`"))
                continue
            target = e.args[0].value if e.args[0].kind == "dotted" else (e.args[0].value,)
            if e.key in ("set", "add", "remove", "roll") and e.expr is None:
                self.diags.error("E207", f"`{e.key}` needs `= expression`", e.span)
                continue
            times = 1
            if e.key == "roll" and e.block is not None:
                f = Fields(e.block, self.diags, f"`roll {'.'.join(map(str, target))}`", e.span)
                times = f.int("times", 1, "times 2", lo=1, hi=MAX_ROLL_TIMES)
                f.finish()
            out.append(ir.Effect(e.key, tuple(target), e.expr, times=times,  # type: ignore[arg-type]
                                 span=e.args[0].span))
        return out

    def give_effect(self, e: Stmt) -> ir.Effect | None:
        """`give = TILES { to = SEAT }`: the actor's concealed tiles TILES go to the hand of SEAT."""
        usage = "give = choice { to = next(actor) }"
        self.plain_stmt(e, expr=True, block=True)
        if e.args:
            self.diags.error("E204", "`give` takes no target: it gives from the actor's concealed tiles",
                             e.args[0].span, f"write it as `{usage}`")
            return None
        if e.expr is None:
            self.diags.error("E207", "`give` needs `= TILES`, the tiles the actor gives", e.span,
                             f"write it as `{usage}`")
            return None
        f = Fields(e.block, self.diags, "`give`", e.span)
        to = f.one("to", True, "to = next(actor)")
        f.finish()
        if to is None:
            return None
        f.plain(to, allow_expr=True)
        if to.args or to.expr is None:
            f.bad(to, "to = next(actor)")
            return None
        return ir.Effect("give", (), e.expr, to=to.expr, span=e.span)

    def action(self, s: Stmt) -> ir.Action:
        usage = "action 碰 { on discard; by others; forms 碰; then discard }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`action {name}`")
        choices = []
        choice_when = None
        cs = f.one("choices")
        choice_list = None
        if cs is not None:
            f.plain(cs, allow_cond=True, allow_expr=True)
            choice_when = cs.cond
            choice_list = cs.expr
            if choice_list is not None and cs.args:
                f.bad(cs, "choices [2, 4, 8]   or   choices = EXPR")
            for a in flatten(cs.args):
                e = arg_to_expr(a)
                if e is None:
                    f.bad(cs, "choices [2, 4, 8]")
                else:
                    choices.append(e)
        select = 0
        sel = f.one("select")
        if sel is not None:
            f.plain(sel, allow_cond=True)
            if len(sel.args) != 1 or sel.args[0].kind != "number":
                f.bad(sel, "select 3 when all(a, b in choice: a.suit == b.suit)")
            else:
                select = f.check_int(sel.args[0], 0, 1, MAX_SELECT)
            if cs is not None:
                self.diags.error("E204", f"`action {name}` has both `choices` and `select`: a decision is one "
                                 "or the other", sel.span)
            else:
                choice_when = sel.cond
        events = self.events(f)
        win_forms: tuple[str, ...] = ()
        wins = False
        ws = f.one("wins")
        if ws is not None:
            f.plain(ws)
            if len(ws.args) == 1 and ws.args[0].kind == "bool":
                wins = bool(ws.args[0].value)
            elif ws.args and all(a.kind == "name" for a in flatten(ws.args)):
                wins, win_forms = True, tuple(str(a.value) for a in flatten(ws.args))
            else:
                f.bad(ws, "wins true   or   wins [FORM, FORM]")
        out = ir.Action(name, on=events[0] if events else "", also_on=tuple(events[1:]),
                        by=f.name("by", "self", words=V.WHO), forms=tuple(n for n, _ in f.names("forms")),
                        then=f.name("then", "none", words=V.THEN), compulsory=f.bool("compulsory"),
                        when=f.cond("when"), effects=self.effects(f, "effect"), decline=self.effects(f, "decline"),
                        choices=tuple(choices), choice_when=choice_when, choice_list=choice_list,
                        instead_of=f.name("instead_of"),
                        wins=wins, win_forms=win_forms, win_tile=f.name("win_tile", "", words=V.WIN_TILE),
                        order=f.name("order", "seat", words=V.ORDER), multiple=f.bool("multiple", True),
                        follow=tuple(n for n, _ in f.names("follow")), ready=f.bool("ready"),
                        grow=f.name("grow", "any", words=V.GROW), select=select or 0,
                        together=f.bool("together"), span=s.span,
                        **f.docs())
        self.check_decision_keys(out, f)
        f.finish()
        return out

    def check_decision_keys(self, a: ir.Action, f: Fields) -> None:
        """`select` is a decision of the actor's own tiles (no meld, no win); `together` asks every seat at
        once at the hand's start, and applies the answers when all are in (no meld, win or follow-up)."""
        if a.select and (a.forms or a.wins):
            self.diags.error("E204", f"`action {a.name}` selects tiles: it cannot also lay down a meld or win",
                             _span_of(f, "select"), "a `select` decision only chooses tiles of the actor's hand")
        if a.together:
            span = _span_of(f, "together")
            events = (a.on, *a.also_on)
            if any(e not in ("deal", "opening") for e in events):
                self.diags.error("E204", f"`action {a.name}` is asked of every seat together, which the engine "
                                 "does at the hand's start only: open it `on deal` or `on opening`", span)
            if a.forms or a.wins or a.follow or a.then != "none" or a.instead_of:
                self.diags.error("E204", f"`action {a.name}` is asked together: it is a decision (`choices`, "
                                 "`select` or a plain action), without a meld, a win, a follow-up or a `then`",
                                 span)

    def events(self, f: Fields) -> list[str]:
        """`on discard` or `on [reveal, discard]`."""
        st = f.one("on")
        if st is None:
            return []
        f.plain(st)
        names = [a for a in flatten(st.args)]
        if not names or any(a.kind != "name" for a in names):
            f.bad(st, "on discard   or   on [reveal, discard]")
            return []
        return [str(a.value) for a in names]

    def restrict(self, s: Stmt) -> ir.Restrict:
        usage = "restrict NAME { actions [discard]; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`restrict {name}`")
        actions = tuple(n for n, _ in f.names("actions"))
        when = f.cond("when")
        if not actions:
            self.diags.error("E203", f"`restrict {name}` needs `actions [...]`", s.span)
        if when is None:
            self.diags.error("E203", f"`restrict {name}` needs `when …`", s.span)
        out = ir.Restrict(name, actions, when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    def observe(self, s: Stmt) -> ir.Observe:
        usage = "observe NAME { what hand; when … }"
        name = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        f = self.fields(s, f"`observe {name}`")
        what = f.name("what", "hand", "what hand", required=True, words=V.OBSERVE_WHAT)
        when = f.cond("when")
        if when is None:
            self.diags.error("E203", f"`observe {name}` needs `when …`", s.span)
        out = ir.Observe(name, what, when or E.Bool(False), span=s.span, **f.docs())
        f.finish()
        return out

    def priority(self, s: Stmt) -> tuple[tuple[str, ...], ...]:
        self.plain_stmt(s)
        usage = "priority [A, [B, C], D]"
        if len(s.args) != 1 or s.args[0].kind != "list":
            self.diags.error("E204", "`priority` takes one list of action names, highest first", s.span,
                             f"write it as `{usage}`")
            return ()
        levels = []
        for a in s.args[0].value:  # type: ignore[union-attr]
            if a.kind == "name":
                levels.append((str(a.value),))
            elif a.kind == "list" and all(x.kind == "name" for x in a.value):
                levels.append(tuple(str(x.value) for x in a.value))
            else:
                self.diags.error("E204", "`priority` levels are action names or lists of them", a.span, usage)
        return tuple(levels)

    def hook(self, s: Stmt) -> ir.Hook:
        usage = "on discard { when …; set table.NAME = … }"
        event = self.decl_name(s, usage)
        self.no_extra(s, 1, usage)
        self.plain_stmt(s, block=True)
        if not self.need_block(s, usage):
            return ir.Hook(event, span=s.span)
        when = None
        docs = {"doc": "", "notes": ()}
        body = []
        for st in s.block or ():
            if st.key == "when":
                when = st.expr
            elif st.key in ("doc", "note"):
                body.append(st)
        f = Fields(tuple(body), self.diags, f"`on {event}`", s.span)
        docs = f.docs()
        f.finish()
        effects = self.effect_block(Stmt("effect", (), None, None, tuple(
            st for st in s.block or () if st.key not in ("when", "doc", "note")), s.span))
        return ir.Hook(event, when, tuple(effects), span=s.span, **docs)

    # ---------------------------------------------------------------- examples and sections


def _span_of(f: Fields, key: str):
    """Where the block's first `key` statement is written (a key already read)."""
    return next((st.span for st in f.stmts if st.key == key), f.span)
