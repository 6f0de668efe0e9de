"""Hypothetical scores in game scope (issue 14, point 5): `best_score(S, B)`, `best_fans(S, B)` and
`best_tile(S, B)` give the best win a seat's concealed hand could make on a tile it waits on. With
tests/rules/best_wait_pay.pai (查大叫: at an exhaustive draw a seat that waits on nothing pays each seat
that waits its best hand, doubled for 清一色; 查自摸: the difference a self-draw makes), rigged walls pay
exactly what scoring each wait with `Rules.score` gives, on both backends; games replay exactly."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file, compile_text
from paili.runtime import backend
from paili.runtime.game import Game, Move, log
from paili.runtime.game.bots import RandomBot
from paili.runtime.game.session import Session
from paili.runtime.ir import serialize
from paili.runtime.rules import Rules

RULE_FILE = ROOT / "tests" / "rules" / "best_wait_pay.pai"
BACKENDS = ["python"] + (["native"] if backend.available() else [])


@pytest.fixture(scope="module")
def ruleset():
    res = compile_file(RULE_FILE, examples=True)
    assert res.ok, res.render()
    return res.ruleset


def _hold(rules: Rules, wall: list[str]) -> tuple[Game, list[tuple[int, dict]]]:
    """Dealer 0; every seat throws the tile it drew and passes every claim and win, so the hands at the
    exhaustive draw are the dealt ones (the dealer's extra tile, the wall's thirteenth, thrown first)."""
    g = Game(rules, {}, seed=1, dealer=0, wall=wall)
    dealt = [Counter(t.name for t in s.hand) for s in g.st.seats]
    by_code = {k.code: k.name for k in g.cat.kinds}
    dealt[0] -= Counter([by_code[wall[12]]])
    moves = []
    while not g.is_over():
        seat = g.current_seats()[0]
        legal = g.legal_moves(seat)
        extra = Counter(t.name for t in g.st.seats[seat].hand) - dealt[seat]
        if extra:
            [name] = extra
            mv = next(m for m in legal if m.action == "discard" and m.tiles == (name,))
        else:
            mv = next(m for m in legal if m.action == "pass")
        moves.append((seat, mv.to_json()))
        g.apply(seat, mv)
    return g, moves


# seat 0 (dealer) 5567m waits 5m (3 番) and 8m (5 番, 清一色); seat 1 11s 23m waits 1m and 4m (1 番);
# seat 2 waits on nothing; the dealer's extra tile 9s
WALL = "5m 5m 6m 7m  1s 1s 2m 3m  1m 5m 9s 4s  9s".split()


@pytest.mark.parametrize("name", BACKENDS)
def test_an_exhaustive_draw_pays_the_best_hand_of_each_wait(ruleset, name):
    rules = Rules(ruleset, backend=name)
    g, moves = _hold(rules, WALL)
    st = g.st
    assert st.exhausted and not st.winners and g.errors == []
    paid = {(p["name"], p["payer"], p["payee"]): p["amount"] for p in g.result()["payments"]}
    assert paid == {("查大叫", 2, 0): 10, ("查大叫", 2, 1): 1, ("查自摸", 2, 0): 1, ("查自摸", 2, 1): 1}
    assert g.result()["deltas"] == [11, 2, -13]
    # the same figures from the scoring API, wait by wait
    for seat, hand in ((0, "5567m"), (1, "11s 23m")):
        for drawn in (False, True):
            waits = rules.waits(hand, self_drawn=drawn)
            best_tile, best = max(((t, r) for t, r in waits), key=lambda tr: tr[1].score)
            direct = {t.name: rules.score(hand, win=t.code, self_drawn=drawn).score for t, _ in waits}
            assert max(direct.values()) == best.score == g.best_score(st.seats[seat], drawn)
            assert g.best_tile(st.seats[seat], drawn).name == best_tile.name
            assert g.best_fans(st.seats[seat], drawn) == [f.pattern for f in best.fans]
    assert [t.name for t in g.waits(st.seats[0])] == ["5万", "8万"]
    assert g.best_fans(st.seats[0], False) == ["平和", "清一色", "大张"]
    assert g.best_score(st.seats[2], False) == 0 and g.best_fans(st.seats[2], True) == []
    assert g.best_tile(st.seats[2], True) is None
    info = g.best_win(0, True)  # the Python API: a seat number
    assert (info.tile.name, info.self_drawn, info.result.score) == ("8万", True, 6)
    assert g.best_win(2, False) is None and g.best_win(7, False) is None
    again = Game(rules, {}, seed=1, dealer=0, wall=WALL)
    for seat, m in moves:
        again.apply(seat, Move.from_json(json.loads(json.dumps(m))))
    assert again.result() == g.result()


@pytest.mark.parametrize("name", BACKENDS)
def test_nobody_pays_when_every_seat_waits_or_none_does(ruleset, name):
    rules = Rules(ruleset, backend=name)
    # seat 2 now 5m 6m 7m 9s: waits 9s (1 番, 大张 +2 = 3) — everyone waits: no 查大叫
    g, _ = _hold(rules, "5m 5m 6m 7m  1s 1s 2m 3m  5m 6m 7m 9s  9s".split())
    assert g.st.exhausted and [p for p in g.result()["payments"]] == []
    # nobody waits
    g, _ = _hold(rules, "1m 4m 7m 9s  1s 4s 7s 9m  2m 5m 8m 3s  9s".split())
    assert g.st.exhausted and g.result()["payments"] == []


def test_seeded_bot_sessions_replay_exactly_and_pay_the_best_hands(ruleset):
    rules = Rules(ruleset)
    paid = 0
    for seed in range(1, 5):
        session = Session(rules, {}, seed, hands=3)
        bots = [RandomBot(seed * 10 + i) for i in range(3)]  # random: it passes wins, so hands are drawn
        while (g := session.new_hand()) is not None:
            while not g.is_over():
                seat = g.current_seats()[0]
                g.apply(seat, bots[seat].choose(g, seat, g.legal_moves(seat)))
            assert g.errors == [] and g.check_invariants() == []
            if g.st.exhausted and not g.st.winners:
                ready = {s.index for s in g.st.seats if g.waits(s)}
                for p in g.result()["payments"]:
                    if p["name"] == "查大叫":
                        assert p["payer"] not in ready and p["payee"] in ready
                        payee = g.st.seats[p["payee"]]
                        hand = " ".join(t.code for t in payee.hand)
                        melds = [m.kind + ":" + "".join(t.code for t in m.tiles) for m in payee.melds]
                        best = max(rules.score(hand, melds=melds, win=t.code).score
                                   for t in g.waits(payee))
                        double = "清一色" in g.best_fans(payee, False)
                        assert p["amount"] == best * (2 if double else 1)
                        paid += 1
            session.finish(g)
        logged = [json.loads(json.dumps(line, ensure_ascii=False)) for line in log.lines(session)]
        replayed = log.replay(logged, rules)
        assert [h["result"] for h in replayed.played] == [h["result"] for h in session.played]
    assert paid > 0  # the seeds reach the payment


def test_the_compiled_json_keeps_the_functions_and_refuses_a_wrong_call(ruleset):
    text = serialize.dumps(ruleset)
    g, _ = _hold(Rules(serialize.loads(text)), WALL)
    assert sorted(p["amount"] for p in g.result()["payments"]) == [1, 1, 1, 10]
    doc = json.loads(text)
    call = doc["ruleset"]["payments"][1]["amount"]
    assert call["func"] == "best_score"
    call["args"].append({"_": "Bool", "value": True})  # three arguments
    with pytest.raises(serialize.FormatError, match=r"^ruleset\.payments\[1\]\.amount: `best_score` takes 2"):
        serialize.loads(json.dumps(doc))
    call["args"][1:] = [{"_": "Num", "text": "1"}]  # a number for the flag
    with pytest.raises(serialize.FormatError, match=r"^ruleset\.payments\[\d\]\.amount.*best_score"):
        serialize.loads(json.dumps(doc))


def test_the_functions_are_typed_and_need_a_seat_and_a_flag():
    head = RULE_FILE.read_text(encoding="utf-8").split("payment 查大叫")[0]
    for body, code in (("payment 甲 { on exhaust; amount = best_score(payee) }", "E403"),
                       ("payment 甲 { on exhaust; amount = best_score(payee, 1) }", "E401"),
                       ("payment 甲 { on exhaust; amount = best_score(true, false) }", "E401"),
                       ("payment 甲 { on exhaust; amount = len(best_fans(payee, true)) + best_tile(payee, true) }",
                        "E401")):
        res = compile_text(head + body + "\n", "甲.pai")
        errors = [d for d in res.diagnostics if d.is_error]
        assert [d.code for d in errors] == [code], body
        assert errors[0].span.line == head.count("\n") + 1
