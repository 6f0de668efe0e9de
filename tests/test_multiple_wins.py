"""Several winners of one discard (一炮多响) in a hand that a win ends (no `table winners_leave`): each
payment on the events of one win — the winning action's name, `win`, an event a `win` hook emits — is
made for that win's winner only, once; a payment on the hand's end is made once per winner. (Before the
fix, a payment `on 胡` paid every winner at each winner's event: twice each for two winners.)"""
from __future__ import annotations

import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game
from paili.runtime.rules import Rules

SOURCE = """
variant 多响 "一炮多响（测试用）" { doc "三门花色，四人；一张牌可以几家同时和" }
tiles {
  suit 万 { code "m"; ranks 1..9 }
  suit 条 { code "s"; ranks 1..9 }
  suit 筒 { code "p"; ranks 1..9 }
}
table { players 4; hand 13; first_dealer owner }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 平和 { value 1 番; when true }
pattern 清一色 { value 2 番; when len(suits) == 1 }
score = 番
action 胡 { on discard; by others; wins true; win_tile claimed }
payment 和牌 { on 胡; from discarder; to winner; amount = 10 }
payment 番钱 { on win; from discarder; to winner; amount = score }
on win { when score >= 3; emit 大牌 }
payment 大牌 { on 大牌; from each_loser; to winner; amount = 100 }
payment 收尾 { on hand_end; from discarder; to winner; amount = 1000 }
"""

# dealt in play order from the dealer (seat 0): 13 each, then the dealer's extra tile (1s)
DEALER = "5p5m5m9m9s9s9s8s8s4s5s3p4p"
SEAT1 = "123m456m789m123s5p"  # waits on 5p: 平和, 1 番
SEAT2 = "123p789p234m678m6s"  # waits on 6s: not on the discard
SEAT3 = "123p456p789p222s5p"  # waits on 5p: 平和, 1 番
SEAT3_PURE = "123p456p789p678p5p"  # waits on 5p: 平和 + 清一色, 3 番


@pytest.fixture(scope="module")
def rules() -> Rules:
    res = compile_text(SOURCE, "multiple.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def discarded(rules: Rules, seat3: str) -> Game:
    """The hand after the dealer's discard of 5p, which seat 1 waits on (and seat 3 when `seat3` does)."""
    g = Game(rules, {}, 3, dealer=0, wall=[DEALER + SEAT1 + SEAT2 + seat3 + "1s" + "1m6s"])
    five_p = tuple(rules.notation.parse("5p"))
    g.apply(0, next(m for m in g.legal_moves(0) if m.action == "discard" and m.tiles == five_p))
    return g


def both_win(rules: Rules, seat3: str) -> Game:
    g = discarded(rules, seat3)
    assert g.current_seats() == [1, 3]
    for s in (1, 3):
        g.apply(s, next(m for m in g.legal_moves(s) if m.action == "胡"))
    assert g.is_over() and g.st.winners == [1, 3]
    return g


def test_each_payment_of_one_win_pays_that_winner_once(rules):
    g = both_win(rules, SEAT3)
    pays = [(p.name, p.payer, p.payee, p.amount) for p in g.st.payments]
    assert pays == [
        ("和牌", 0, 1, 10), ("番钱", 0, 1, 1),  # seat 1's win: its action's event, then `win`
        ("和牌", 0, 3, 10), ("番钱", 0, 3, 1),  # seat 3's win
        ("收尾", 0, 1, 1000), ("收尾", 0, 3, 1000),  # the hand's end: once per winner
    ]
    assert g.result()["deltas"] == [-2022, 1011, 0, 1011]
    assert g.check_invariants() == []


def test_an_event_one_win_emits_pays_that_winner_only(rules):
    g = both_win(rules, SEAT3_PURE)
    big = [(p.payer, p.payee, p.amount) for p in g.st.payments if p.name == "大牌"]
    # only seat 3 scored 3 番; every loser (seats 0 and 2) pays it once, and seat 1 is not paid for it
    assert g.st.results[3]["score"] == 3 and g.st.results[1]["score"] == 1
    assert big == [(0, 3, 100), (2, 3, 100)]
    assert [(p.name, p.payee) for p in g.st.payments if p.name == "和牌"] == [("和牌", 1), ("和牌", 3)]
    assert g.check_invariants() == []
