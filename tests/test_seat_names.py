"""`table { seat_names [...] }`: the variant's own names of the seats, counted in play order from the
dealer. The observations (a player's and an onlooker's) carry each seat's `name`, `paili play` and the
replay viewer (tests/test_serve_browser.py) call a seat by it; 国标 names its seats by their winds, the
dealer being 东家. A rule set without names (or a table of more players than names) keeps the numbers."""
from __future__ import annotations

import io

import paili
import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.game.play import Terminal, seat_name, show_result
from paili.runtime.rules import Rules

WINDS = ["东家", "南家", "西家", "北家"]


@pytest.fixture(scope="module")
def guobiao():
    return paili.load("guobiao")


@pytest.mark.parametrize("dealer", [0, 2])
def test_the_seats_are_named_from_the_dealer_in_play_order(guobiao, dealer):
    g = paili.Game(guobiao, seed=1, dealer=dealer)
    order = g.order_from(dealer)
    want = [None] * 4
    for k, s in enumerate(order):
        want[s] = WINDS[k]
    assert g.seat_names() == want and want[dealer] == "东家"
    assert [d["name"] for d in g.onlooker_observation()["seats"]] == want
    assert [d["name"] for d in g.observation(3)["seats"]] == want


def test_the_terminal_calls_the_seats_by_their_names(guobiao):
    g = paili.Game(guobiao, seed=1, dealer=2)
    names = g.seat_names()
    assert names[2] == "东家" and seat_name(2, 0, 2, names) == "东家（庄）" and seat_name(3, 0, 2, names) == names[3]
    assert seat_name(0, 0, 2, names) == "你"  # the player's own seat stays 你
    from paili.runtime.game.bots import RandomBot
    from paili.runtime.game.bots import play as bots_play

    bots_play(g, [RandomBot(i) for i in range(4)])
    out = io.StringIO()
    show_result(Terminal(0, io.StringIO(), out), g)
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("余额：你 ") and all(names[s] in last for s in (1, 2, 3)) and "号位" not in last


def test_without_names_the_seats_keep_their_numbers():
    g = paili.Game(paili.load("baijindao"), seed=1)
    assert g.seat_names() == [None, None]
    assert [d["name"] for d in g.onlooker_observation()["seats"]] == [None, None]
    assert seat_name(1, 0, 1, g.seat_names()) == "1号位（庄）"


def test_a_table_of_more_players_than_names_numbers_its_seats():
    """`players = 人数` may give more players than names: every seat is then numbered, none half-named."""
    src = (paili.RULES_DIR / "longyan.pai").read_text(encoding="utf-8")
    assert "  exhaust_at" in src
    res = compile_text(src.replace("  exhaust_at", '  seat_names ["甲", "乙", "丙"]\n  exhaust_at', 1), "named.pai")
    assert res.ok, res.render()
    rules = Rules(res.ruleset)
    assert paili.Game(rules, {"人数": 3}, 1, dealer=1).seat_names() == ["丙", "甲", "乙"]
    assert paili.Game(rules, {"人数": 4}, 1).seat_names() == [None] * 4
    assert paili.Game(rules, {"人数": 2}, 1, dealer=0).seat_names() == ["甲", "乙"]


def test_describe_lists_the_names(guobiao):
    from paili.dsl.describe import describe_json

    assert describe_json(guobiao)["seat_names"] == WINDS
    assert describe_json(paili.load("baijindao"))["seat_names"] == []
