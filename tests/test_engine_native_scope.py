"""The native game scope (runtime/native/src/engine/scope.rs, values.rs, snapshot.rs; docs/engine-native.md
step 2) against the reference: at every decision point of seeded games, the state read natively from
`HandState.snapshot()` writes back the same snapshot, and every game-scope expression of the rule set
(and a set of hand-made ones over every game name, seat field and game function) evaluates to the
reference's value under the bindings of the moment, or stops where the reference raises. What needs the
win and wait machinery is refused by name. bench/engine_equivalence.py native-scope runs 1,000 games per
configuration."""
from __future__ import annotations

import json

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from paili import load
from paili.runtime import backend
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_scope import ScopeCheck, Tally, native_snapshot
from paili.runtime.game.session import Session
from paili.runtime.ir import expr as E

pytestmark = native_engine_only()

CONFIGS = ENGINE_CONFIGS
# the only refusals allowed: what the win and wait machinery (engine/winning.rs) does not answer yet — a
# reading of a win, and the waits of a rule set with wildcards or stand-ins
NAMED = {f"the native game scope does not evaluate {what} yet" for what in (
    "a reading of a win", *(f"{q} (a rule set with wildcards or stand-ins)" for q in (
        "the seat field `waits`", "the seat field `group_waits`", "the function `waits_without`",
        "the function `group_waits_without`")))}


def _n(ref: str) -> E.Name:
    return E.Name(name=ref.split(":", 1)[1], ref=ref)


ACTOR, TILE, DEALER = _n("builtin:actor"), _n("builtin:tile"), _n("builtin:dealer")


def _call(f: str, *args) -> E.Call:
    return E.Call(func=f, args=tuple(args))


def _cmp(op: str, a, b) -> E.Compare:
    return E.Compare(ops=(op,), operands=(a, b))


# every game name, seat field and game function, and expressions the reference cannot evaluate
HAND_MADE = [
    *((f"name {r}", _n(f"builtin:{r}")) for r in (
        "actor", "tile", "winner", "discarder", "robbed", "payer", "payee", "choice", "viewer", "owner", "score",
        "task_factor", "dealer", "players", "wall_left", "turn", "round", "last_drawer", "won", "winners",
        "first_winners", "in_play")),
    *((f"actor.{f}", E.Attr(obj=ACTOR, name=f)) for f in (
        "hand", "melds", "concealed", "dealer", "wilds", "balance", "discards", "ready", "seat", "in_play")),
    *((f"tile.{f}", E.Attr(obj=TILE, name=f)) for f in ("wild", "joker", "honor", "flower", "rank", "suit", "kind")),
    ("next(actor)", _call("next", ACTOR)),
    ("next(next(dealer))", _call("next", _call("next", DEALER))),
    ("after(actor, -1)", _call("after", ACTOR, E.Num(text="-1"))),
    ("after(actor, 2)", _call("after", ACTOR, E.Num(text="2"))),
    ("after(actor, 7/2)", _call("after", ACTOR, E.Binary(op="/", left=E.Num(text="7"), right=E.Num(text="2")))),
    ("held(actor, tile)", _call("held", ACTOR, TILE)),
    ("visible_count(tile)", _call("visible_count", TILE)),
    ("actor == dealer", _cmp("==", ACTOR, DEALER)),
    ("actor in winners", _cmp("in", ACTOR, _n("builtin:winners"))),
    ("tile in actor.hand", _cmp("in", TILE, E.Attr(obj=ACTOR, name="hand"))),
    ("count(m in actor.melds: m.exposed)", E.Comp(func="count", binders=("m",), source=E.Attr(obj=ACTOR, name="melds"),
                                                  body=E.Attr(obj=_n("binder:m"), name="exposed"))),
    ("the melds' first tiles", E.Comp(func="filter", binders=("m",), source=E.Attr(obj=ACTOR, name="melds"),
                                      body=_cmp("==", E.Attr(obj=_n("binder:m"), name="tile"), TILE))),
    ("sum of seats' balances", E.Comp(func="sum", binders=("s",), source=_n("builtin:in_play"),
                                      body=E.Attr(obj=_n("binder:s"), name="balance"))),
    ("pairs of seats", E.Comp(func="count", binders=("a", "b"), source=_n("builtin:in_play"),
                              body=_cmp("==", _call("next", _n("binder:a")), _n("binder:b")))),
    ("distinct(actor.hand)", _call("distinct", E.Attr(obj=ACTOR, name="hand"))),
    ("len(actor.discards) + wall_left / 3", E.Binary(op="+", left=_call("len", E.Attr(obj=ACTOR, name="discards")),
                                                     right=E.Binary(op="/", left=_n("builtin:wall_left"),
                                                                    right=E.Num(text="3")))),
    ("score * task_factor ^ 2", E.Binary(op="*", left=_n("builtin:score"), right=E.Binary(
        op="^", left=_n("builtin:task_factor"), right=E.Num(text="2")))),
    # conditions read for their truth (engine/values/truth.rs): a seat's flags, none's fields, seats and
    # numbers compared in place, an `if`'s test
    ("not actor.ready and actor.concealed", E.Binary(
        op="and", left=E.Unary(op="not", operand=E.Attr(obj=ACTOR, name="ready")),
        right=E.Attr(obj=ACTOR, name="concealed"))),
    ("actor.dealer or not actor.in_play", E.Binary(
        op="or", left=E.Attr(obj=ACTOR, name="dealer"),
        right=E.Unary(op="not", operand=E.Attr(obj=ACTOR, name="in_play")))),
    ("not winner.ready", E.Unary(op="not", operand=E.Attr(obj=_n("builtin:winner"), name="ready"))),
    ("not actor.hand or not actor.balance", E.Binary(
        op="or", left=E.Unary(op="not", operand=E.Attr(obj=ACTOR, name="hand")),
        right=E.Unary(op="not", operand=E.Attr(obj=ACTOR, name="balance")))),
    ("winner == actor", _cmp("==", _n("builtin:winner"), ACTOR)),
    ("discarder != actor", _cmp("!=", _n("builtin:discarder"), ACTOR)),
    ("wall_left >= turn", _cmp(">=", _n("builtin:wall_left"), _n("builtin:turn"))),
    ("if tile.wild then 1 else 2", E.If(cond=E.Attr(obj=TILE, name="wild"), then=E.Num(text="1"),
                                       orelse=E.Num(text="2"))),
    # the reference raises on each of these: the native side must stop
    ("not actor.no_such_field", E.Unary(op="not", operand=E.Attr(obj=ACTOR, name="no_such_field"))),
    ("actor.hand + 1", E.Binary(op="+", left=E.Attr(obj=ACTOR, name="hand"), right=E.Num(text="1"))),
    ("actor < dealer", _cmp("<", ACTOR, DEALER)),
    ("len(actor)", _call("len", ACTOR)),
    ("actor.no_such_field", E.Attr(obj=ACTOR, name="no_such_field")),
    ("visible_count(actor)", _call("visible_count", ACTOR)),
    ("held(tile, tile)", _call("held", TILE, TILE)),
    ("a missing table state", _n("table:no_such_state")),
    ("a missing context value", _n("context:no_such_value")),
    ("turn / (wall_left - wall_left)", E.Binary(op="/", left=_n("builtin:turn"), right=E.Binary(
        op="-", left=_n("builtin:wall_left"), right=_n("builtin:wall_left")))),
    ("-choice", E.Unary(op="-", operand=_n("builtin:choice"))),
]


def _play(check: ScopeCheck, rules, options, seed: int, tally: Tally, bots: str = "random") -> None:
    session = Session(rules, options, seed, 1)
    g = session.new_hand()
    players = [BOTS[bots](seed * 31 + i) for i in range(g.n)]
    while True:
        check.check(g, tally)
        if g.is_over():
            return
        seat = g.current_seats()[0]
        g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))


def _rules(path: str):
    return load(ROOT / path)


@pytest.mark.parametrize("path,options", CONFIGS, ids=[f"{p.split('/')[-1]}-{o}" for p, o in CONFIGS])
def test_every_game_scope_expression_agrees_at_every_decision(path, options):
    rules = _rules(path)
    check = ScopeCheck(rules, options)
    tally = Tally()
    for seed in (3, 1234567):
        _play(check, rules, options, seed, tally)
    assert tally.differences == []
    assert tally.states > 20 and tally.states_different == 0  # every state read back is the same snapshot
    assert set(check.refused()) <= NAMED
    if check.labels:  # a win question not answered on a state is declined (counted, never compared)
        assert tally.equal > 0
        assert tally.evaluations == tally.equal + tally.both_stop + sum(tally.declined.values())


@pytest.mark.parametrize("path,options", [CONFIGS[1], CONFIGS[4], CONFIGS[2]])
def test_every_game_name_field_and_function_agrees(path, options):
    rules = _rules(path)
    check = ScopeCheck(rules, options, extra=HAND_MADE)
    first = len(check.labels) - len(HAND_MADE)
    assert all(why is None for why in check.refusals[first:])  # every hand-made expression is lowered
    tally = Tally()
    for seed in (5, 77):
        _play(check, rules, options, seed, tally)
    assert tally.differences == []
    assert tally.both_stop > 0  # the expressions the reference raises on stopped natively


def test_the_tile_of_the_moment_carries_wild_as_the_game_gives_it():
    """龙岩 has wildcards named by a reveal: `tile.wild` must be true for them, natively as in Python."""
    rules = _rules("rules/longyan.pai")
    wild = E.Attr(obj=TILE, name="wild")
    check = ScopeCheck(rules, {"人数": 4}, extra=[("tile.wild", wild)])
    session = Session(rules, {"人数": 4}, 11, 1)
    g = session.new_hand()
    players = [BOTS["random"](11 * 31 + i) for i in range(g.n)]
    seen = set()
    while not g.is_over():
        for s in g.st.seats:
            if s.drawn is not None:
                answer = json.loads(check.table.eval_scope(native_snapshot(g), json.dumps(
                    [[len(check.labels) - 1, {"tile": s.drawn.name}]])))[0]
                assert answer == g.tv(s.drawn).f.get("wild", False)
                seen.add(answer)
        seat = g.current_seats()[0]
        g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
    assert seen == {True, False}


def test_what_needs_the_win_machinery_is_refused_by_name():
    """白金岛 has no wildcards: its waits and best wins are answered natively (tests/
    test_engine_native_winning.py), and a reading of a win (`form`, a pattern) is lowered (read from the
    win of the moment); a unit of a reading is not (known only inside the scoring). 风雷白城 has
    wildcards: its waits and best wins are answered natively too (engine/winning/wild.rs), the rest alike."""
    extra = [
        ("actor.waits", E.Attr(obj=ACTOR, name="waits")),
        ("actor.group_waits", E.Attr(obj=ACTOR, name="group_waits")),
        ("waits_without", _call("waits_without", ACTOR, TILE)),
        ("group_waits_without", _call("group_waits_without", ACTOR, TILE)),
        ("best_score", _call("best_score", ACTOR, E.Bool(value=True))),
        ("best_fans", _call("best_fans", ACTOR, E.Bool(value=True))),
        ("best_tile", _call("best_tile", ACTOR, E.Bool(value=False))),
        ("form", _n("builtin:form")),
        ("a pattern", E.Binary(op="+", left=E.Num(text="1"), right=E.Name(name="x", ref="pattern:x"))),
        ("a unit", _n("unit:x")),
        ("the table itself", _n("builtin:table")),
    ]
    what = ["a unit of a win's reading", "the table as a value (only its fields)"]
    for path in ("rules/baijindao.pai", "rules/baicheng.pai"):
        got = ScopeCheck(_rules(path), {}, extra=extra).refusals[-11:]
        assert got == [None] * 9 + [f"the native game scope does not evaluate {w} yet" for w in what], path


def _snapshot(path="rules/baicheng.pai", options=None, seed=9):
    rules = _rules(path)
    check = ScopeCheck(rules, options or {})
    g = Session(rules, options or {}, seed, 1).new_hand()
    return check.table, json.loads(native_snapshot(g))


def test_the_snapshot_reader_refuses_what_it_does_not_hold():
    tab, snap = _snapshot()
    native = backend.native_module()
    frac = dict(snap, seats=[dict(snap["seats"][0], balance="-3/2"), *snap["seats"][1:]])
    assert json.loads(tab.state(json.dumps(frac)))["seats"][0]["balance"] == "-3/2"  # money is exact
    huge = dict(snap, seats=[dict(snap["seats"][0], balance=str(10**30)), *snap["seats"][1:]])
    with pytest.raises(native.NotCovered, match="balance"):
        tab.state(json.dumps(huge))
    with pytest.raises(ValueError, match="seats"):
        tab.state(json.dumps(dict(snap, seats=snap["seats"][:2])))
    bad_tile = dict(snap, out=["not a tile"])
    with pytest.raises(ValueError, match="out"):
        tab.state(json.dumps(bad_tile))
    with pytest.raises(ValueError, match="not JSON"):
        tab.state("{")
    dup = dict(snap, wall_ids=[snap["wall_ids"][0]] * len(snap["wall_ids"]))
    with pytest.raises(ValueError, match="wall_ids"):
        tab.state(json.dumps(dup))


def test_the_snapshot_reader_round_trips_the_native_setup():
    tab, _ = _snapshot("rules/longyan.pai", {"人数": 3})
    for seed in range(30):
        written = tab.setup(seed)
        assert json.loads(tab.state(written)) == json.loads(written)
