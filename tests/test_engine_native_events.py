"""The native events and settlement (runtime/native/src/engine/events.rs, settle.rs; docs/engine-native.md
step 3) against the reference: at every event seam of seeded games (an event's phases, hooks and
payments, its deferred payments, an action's effects) the native run on the state before it reaches the
reference's state after it, with the same generator, events emitted and tiles in transit — or stops where
the reference notes an error. Hand-made rule sets exercise every effect, phase trigger, cap, fee and money
fraction; what needs the win and wait machinery is refused by name. bench/engine_equivalence.py
native-events runs 1,000 games per configuration."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from paili import load
from paili.dsl.compiler import compile_file, compile_text
from paili.runtime.game.bots import BOTS
from paili.runtime.game.native_events import EventCheck
from paili.runtime.rules import Rules

pytestmark = native_engine_only()

CONFIGS = ENGINE_CONFIGS
# the only refusals the bundled rule sets meet: what engine/winning.rs does not answer (the waits of a rule
# set with wildcards or stand-ins; a question or a win's reading it declines on a state, by why)
WILD_WAITS = {f"the native game scope does not evaluate {what} (a rule set with wildcards or stand-ins) yet"
              for what in ("the seat field `waits`", "the seat field `group_waits`", "the function `waits_without`",
                           "the function `group_waits_without`")}


def _named(why: str) -> bool:
    return why in WILD_WAITS or why.startswith(("a reading of a win (", "a win or wait question declined natively ("))


def _bots(seed: int):
    return lambda g: [BOTS["random"](seed * 31 + i) for i in range(g.n)]


def _play(rules, options, seeds, balances=None) -> tuple[EventCheck, list]:
    chk = EventCheck(rules, options)
    games = [chk.play(seed, _bots(seed), balances) for seed in seeds]
    assert chk.tally.differences == []
    return chk, games


@pytest.mark.parametrize("path, options", CONFIGS)
def test_seeded_games_of_every_configuration(path, options):
    """Two seeded games per configuration: every seam the native side runs agrees with the reference."""
    chk, _ = _play(load(ROOT / path), options, [11, 12])
    t = chk.tally
    assert t.equal > 100
    assert t.runs["all"] > 100
    assert all(_named(why) for why in t.refused), t.refused


@pytest.mark.parametrize("path", ["rules/baijindao.pai", "rules/guobiao.pai"])
def test_the_events_of_a_win_read_its_reading_natively(path):
    """白金岛's hooks on a win (`self_drawn`, its waits) and 国标's payment on a win (`self_drawn`, the score):
    with the win's `self_drawn` and reading handed over (the reading scored natively from the win, on the
    context values it was scored under) and the waits answered by engine/winning.rs, no run is refused,
    and the win's own runs (the hooks and payments around its final scoring) agree with the reference."""
    chk = EventCheck(load(ROOT / path, backend="native"), {})
    for seed in range(4):  # efficiency bots: most hands are won
        chk.play(seed, lambda g, seed=seed: [BOTS["efficiency"](seed * 31 + i) for i in range(g.n)])
    t = chk.tally
    assert t.differences == [] and not t.refused and t.equal > 300
    assert t.runs["hooks"] >= 3 and t.runs["pay"] >= 3 and t.payments >= 3


def test_deferred_payments_with_a_cap_and_a_fee():
    """baijindao: its payment after the hand-end decisions (`after`), bounded by the payer's balance, with the
    house's fee, settled natively as the reference settles it."""
    chk, games = _play(load(ROOT / "rules/baijindao.pai"), {}, range(6))
    assert chk.tally.runs["settle"] >= 6
    assert any(p.fee for g in games for p in g.st.payments)


def test_tiles_passed_together_and_dice():
    """tests/rules/huanpai.pai: two dice rolled at the deal (the hand's generator), three tiles given by every
    seat at once (held in transit until all have answered): the same draws, the same tiles in transit."""
    res = compile_file(ROOT / "tests" / "rules" / "huanpai.pai")
    assert res.ok, res.render()
    chk, games = _play(Rules(res.ruleset), {}, range(4))
    assert chk.tally.runs["effects"] >= 16
    assert all(g.st.chance for g in games)


HEAD = """variant 事件 "事件测试" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 } }
table { players 4; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
action 自摸 { on draw; by self; wins true; win_tile drawn }
"""
# every effect but give (above), a player and a table phase, an emitted event, hooks on phase changes, a
# context value; payments with a fraction, a factor, a negative amount; a fee and a cap
EVERYTHING = """state table 点数 int = 0
state player 计 int = 0
state player 弃 tiles = []
state table 旗 bool = false
state player 标 bool = false
context 海底 bool = false
phase 连打 { scope player; enter discard = actor.计 >= 2; leave draw = actor.计 >= 4 }
phase 局中 { scope table; enter discard; leave win }
on deal { roll table.点数 = [1, 2, 3, 4, 5, 6] { times 2 } }
on discard {
  add actor.计 = 1
  add actor.弃 = tile
  set table.旗 = not table.旗
  emit 打过
}
on 打过 { when actor.计 >= 3; set actor.标 = true }
on phase_enter { clear actor.计 }
on draw { remove actor.弃 = tile }
on draw { when wall_left < 20; set 海底 = true }
payment 和 { on win; from each_loser; to winner; amount = score * table.点数 / 3; factor 庄 1.5 when payer == dealer }
payment 打 { on discard; from actor; to each_other; amount = 45.5 }
payment 反 { on draw; from actor; to dealer; amount = -1 }
fee 抽 = 0.0125
"""


def _rules(body: str) -> Rules:
    res = compile_text(HEAD + body, "事件.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


@pytest.mark.parametrize("cap", ["", "cap balance { doc \"封顶\" }\n", "cap balance { of payee }\n"])
def test_every_effect_phase_payment_cap_and_fee(cap):
    chk, games = _play(_rules(EVERYTHING + cap), {}, range(5), balances=[100] * 4)
    t = chk.tally
    assert t.equal > 500
    # a fee taken again and again of amounts a balance bounds: denominators past 64 bits, refused by name
    assert all(why == "the native engine does not execute an amount of money past 64 bits yet"
               or why.startswith("the native state does not hold the ") for why in t.refused)
    events = sum((g.st.events for g in games), start=type(games[0].st.events)())
    for tally in ("打过", "phase_enter:连打", "phase_enter:局中", "phase_leave", "state:标", "state:旗"):
        assert events[tally] > 0, tally
    assert all(g.st.chance and g.st.chance[0]["target"] == "table.点数" for g in games)
    pays = [p for g in games for p in g.st.payments]
    assert any(p.fee and Fraction(p.fee).denominator > 1 for p in pays)  # 1.25 % of 45.5
    assert any(p.name == "反" and p.payer == g.st.dealer for g in games for p in g.st.payments)  # -1: the other way
    discards = [p for p in pays if p.name == "打"]
    if cap:
        # a balance bounds a payment, never below zero: some discards paid less than 45.5 to each other seat
        assert len(discards) < 3 * events["discard"]
        assert all(s.balance >= 0 for g in games for s in g.st.seats) or "payee" in cap
        if "payee" not in cap:
            assert any(0 < p.amount < Fraction("45.5") for p in discards)
    else:
        assert len(discards) == 3 * events["discard"] and all(p.amount == Fraction("45.5") for p in discards)
    # the clear of a player state on a table phase's change has no actor: the reference notes it, the
    # native run stops (the hand would fall back)
    assert t.both_stop > 0
    assert any("`actor` has no value here" in e for g in games for e in g.errors)


def test_errors_the_reference_notes_stop_the_native_run():
    """A division by zero in an effect and in a payment's amount, an event emitted past the nesting limit: the
    reference notes each and goes on; the native run stops there, and is never compared
    as equal."""
    body = """state player 计 int = 0
state table 点数 int = 0
on discard { add actor.计 = 1 }
on discard { when actor.计 == 2; set table.点数 = 6 // (actor.计 - 2) }
payment 错 { on discard; from actor; to each_other; amount = 10 // (actor.计 - 3) }
on draw { when actor.计 == 4; emit 回 }
on 回 { emit 回 }
"""
    chk, games = _play(_rules(body), {}, range(8))
    assert chk.tally.both_stop >= 8
    noted = " ".join(e for g in games for e in g.errors)
    assert "effect set table.点数" in noted and "payment 错" in noted and "nested events" in noted


def test_refused_by_name():
    """A hook reading a seat's waits is answered natively (engine/winning.rs `StateWins`, in a rule set
    without wildcards) and compared; a fraction held in a state is refused with its sentence, never
    compared."""
    body = """state player 听 bool = false
on draw { set actor.听 = len(actor.waits) > 0 }
"""
    chk, games = _play(_rules(body), {}, range(2))
    assert not chk.tally.refused and chk.tally.runs["all"] > 20
    assert not any(r for r in chk.native.refusals())
    half = """state table 半 num = 0
on discard { add table.半 = 0.5 }
"""
    chk, _ = _play(_rules(half), {}, range(2))
    assert "the native engine does not execute a fractional value in a state yet" in chk.tally.refused
    assert chk.tally.refused and chk.tally.equal > 0  # runs before the first half was stored are compared


def test_requests_are_checked():
    rules = load(ROOT / "rules/chehuzi.pai")
    chk = EventCheck(rules, {})
    g = chk.play(1, _bots(1))
    from paili.runtime.game.native_scope import native_snapshot

    snap = native_snapshot(g)
    rng = list(g.rng.getstate()[1])
    with pytest.raises(ValueError, match="generator"):
        chk.native.run(snap, json.dumps({"stage": "all", "event": "draw", "rng": rng[:10]}))
    with pytest.raises(ValueError, match="stage"):
        chk.native.run(snap, json.dumps({"stage": "nothing", "rng": rng}))
    with pytest.raises(ValueError, match="request"):
        chk.native.run(snap, "[")
    out = json.loads(chk.native.run(snap, json.dumps({"stage": "all", "event": "no such event", "rng": rng})))
    assert out["state"]["events"]["no such event"] == 1 and out["rng"] == rng


def test_a_hook_and_the_payments_of_one_event_read_the_same_values():
    """A hook on the discard writes the discarder's count and a table value from it; the payments on the same
    discard read both (after the hooks, the reference's order), each pair of payer and payee with its own
    bindings: an amount from the payer's and the payee's counts, a condition and a factor per pair. The
    native payments (their bindings made once per payment and rewritten per pair) agree with the
    reference's at every seam."""
    body = """state player 计 int = 0
state table 额 int = 0
on discard { add actor.计 = 1; set table.额 = actor.计 * 2 }
payment 付 {
  on discard; from each_other; to actor; amount = table.额 + payer.计 - payee.计; factor 下 2 when payer == next(actor)
}
payment 条 { on discard; from actor; to each_other; when payee != dealer and actor.计 >= 2; amount = payee.计 + 1 }
"""
    chk, games = _play(_rules(body), {}, range(4))
    t = chk.tally
    assert t.equal > 100 and t.runs["all"] > 100 and t.payments > 100 and not t.refused
    pays = [p for g in games for p in g.st.payments]
    fu = [p for p in pays if p.name == "付"]
    tiao = [p for p in pays if p.name == "条"]
    assert fu and tiao
    assert len({p.amount for p in fu}) > 2  # the amounts differ per pair and per discard
    assert not any(p.payee == g.st.dealer for g in games for p in g.st.payments if p.name == "条")
