"""A wait question's length compared with a number (`len(actor.group_waits) == table.牌种数`,
`len(actor.waits) > 0`): evaluated natively, the question is walked only as far as the comparison needs
(runtime/native/src/engine/values/bounded.rs, engine/winning/bounded.rs) — and the answer is the whole
list's, the reference's (runtime/game/winning.py), at every decision of seeded games: on hands where the
walk stops early (some waits, not every kind) and where it runs to the end (no wait, or every kind)."""
from __future__ import annotations

from conftest import ROOT, native_engine_only
from paili import load
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_scope import ScopeCheck, Tally
from paili.runtime.game.session import Session
from paili.runtime.ir import expr as E

pytestmark = native_engine_only()

ACTOR, TILE = E.Name(name="actor", ref="builtin:actor"), E.Name(name="tile", ref="builtin:tile")
KINDS = E.Attr(obj=E.Name(name="table", ref="builtin:table"), name="牌种数")


def _len(q) -> E.Call:
    return E.Call(func="len", args=(q,))


def _cmp(op: str, a, b) -> E.Compare:
    return E.Compare(ops=(op,), operands=(a, b))


QUESTIONS = {
    "actor.waits": E.Attr(obj=ACTOR, name="waits"),
    "actor.group_waits": E.Attr(obj=ACTOR, name="group_waits"),
    "waits_without(actor, tile)": E.Call(func="waits_without", args=(ACTOR, TILE)),
    "group_waits_without(actor, tile)": E.Call(func="group_waits_without", args=(ACTOR, TILE)),
}
NUMBERS = {"0": E.Num(text="0"), "1": E.Num(text="1"), "2": E.Num(text="2"), "table.牌种数": KINDS}
OPS = ("==", "!=", "<", "<=", ">", ">=")

# every question's length against every number by every comparison, the length on either side; the
# length itself (the whole list) and a comparison with no whole number (worked out in full)
LENGTHS = [
    *((f"len({q}) {op} {n}", _cmp(op, _len(qe), ne)) for q, qe in QUESTIONS.items() for n, ne in NUMBERS.items()
      for op in OPS),
    *((f"{n} {op} len({q})", _cmp(op, ne, _len(qe))) for q, qe in QUESTIONS.items() for n, ne in NUMBERS.items()
      for op in ("<", "==", ">=")),
    *((f"len({q})", _len(qe)) for q, qe in QUESTIONS.items()),
    *((f"len({q}) == true", _cmp("==", _len(qe), E.Bool(value=True))) for q, qe in QUESTIONS.items()),
]


def test_a_wait_questions_length_compared_is_the_whole_lists_at_every_decision():
    rules = load(ROOT / "rules/longyan.pai", backend="native")
    options = {"人数": 4}
    check = ScopeCheck(rules, options, extra=LENGTHS)
    first = len(check.labels) - len(LENGTHS)
    assert check.refusals[first:] == [None] * len(LENGTHS)
    tally = Tally()
    early = whole_none = whole_every = 0
    for seed in (5, 11):
        g = Session(rules, options, seed, 1).new_hand()
        players = [BOTS["efficiency"](seed * 31 + i) for i in range(g.n)]
        kinds = g.st.table["牌种数"]
        while True:
            check.check(g, tally)
            # what the walks met (by the reference's whole lists): stopped early for `== 牌种数` and
            # `> 0`, or run to the end
            for seat in g.st.seats:
                n = len(g.waits(seat, groups=True))
                early += 0 < n < kinds
                whole_none += n == 0
                whole_every += n == kinds
            if g.is_over():
                break
            seat = g.current_seats()[0]
            g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
    # a lone gold beside four triplets: waits on every kind, the walk for `== 牌种数` runs to the end
    g = Session(rules, options, 5, 1).new_hand()
    gold = g.st.reveals["金牌"]
    plain = [k for k in g.cat.kinds if k.category != "flower" and k.name != gold.name][:4]
    g.st.seats[0].hand = [k for k in plain for _ in range(3)] + [gold]
    g.st.seats[0].version += 1  # the reference's memo is kept per seat version
    check.check(g, tally)
    whole_every += len(g.waits(g.st.seats[0], groups=True)) == kinds
    assert tally.differences == []
    assert tally.equal > 1000
    assert early > 10 and whole_none > 10 and whole_every > 0, (early, whole_none, whole_every)
