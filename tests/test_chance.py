"""Chance (issue 14, point 3; docs/language.md §27 `roll`): dice and random choices drawn from the game's
seeded generator, stored in a state, recorded in the hand (`chance`), shown to every seat, written to the
log as `chance` lines that replay verifies exactly (a tampered roll is refused naming its line), and kept
by snapshots and clones."""
from __future__ import annotations

import json

import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game
from paili.runtime.game.bots import RandomBot, play
from paili.runtime.game.log import ReplayError, lines, replay
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

HEAD = """variant 掷 "掷骰" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 } }
table { players 4; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
state table 点数 int = 0
state table 方向 int = 0
state player 押 int = 0
action 自摸 { on draw; by self; wins true; win_tile drawn }
"""
BODY = """payment 胡 { on win; from each_loser; to winner; amount = score * table.点数 }
on deal {
  roll table.点数 = [1, 2, 3, 4, 5, 6] { times 2 }
  roll table.方向 = [1, 2, 3]
}
action 押注 { on deal; by dealer; effect { roll actor.押 = [10, 20, 30] } }
"""


def _rules(body: str = BODY) -> Rules:
    res = compile_text(HEAD + body, "掷.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def _errors(body: str) -> list[tuple[str, int, int]]:
    res = compile_text(HEAD + body, "掷.pai")
    assert not res.ok
    return sorted((d.code, d.span.line - HEAD.count("\n"), d.span.col) for d in res.diagnostics if d.is_error)


@pytest.fixture(scope="module")
def rules() -> Rules:
    return _rules()


def _take_bet(g: Game) -> None:
    d = g.st.dealer
    assert g.current_seats() == [d]
    assert [str(m) for m in g.legal_moves(d)] == ["押注", "pass"]
    g.apply(d, g.legal_moves(d)[0])


def test_the_deal_rolls_are_drawn_stored_and_shown_to_every_seat(rules):
    g = Game(rules, seed=7)
    rolls = g.st.chance
    assert [(c["move"], c["target"], c["seat"]) for c in rolls] == [(0, "table.点数", None), (0, "table.方向", None)]
    dice = rolls[0]["draws"]
    assert len(dice) == 2 and all(1 <= x <= 6 for x in dice) and rolls[0]["value"] == sum(dice)
    assert rolls[1]["draws"] == [rolls[1]["value"]] and rolls[1]["value"] in (1, 2, 3)
    assert g.st.table["点数"] == sum(dice) and g.st.table["方向"] == rolls[1]["value"]
    shown = [{k: c[k] for k in ("target", "seat", "draws", "value")} for c in rolls]
    assert all(g.observation(s)["chance"] == shown for s in range(4))
    # a roll in an action's effect: made after the move that took it, into that seat's state, and shown
    # to every seat although another seat's state is not
    _take_bet(g)
    d = g.st.dealer
    bet = g.st.chance[2]
    assert (bet["move"], bet["target"], bet["seat"]) == (1, "actor.押", d)
    assert g.st.seats[d].vars["押"] == bet["value"] in (10, 20, 30)
    other = (d + 1) % 4
    assert g.observation(other)["chance"][2]["value"] == bet["value"]
    assert "押" not in json.dumps(g.observation(other)["seats"], ensure_ascii=False)


def test_rolls_come_from_the_seed_alone(rules):
    def rolls(seed):
        g = Game(rules, seed=seed)
        _take_bet(g)
        return [c["draws"] for c in g.st.chance]

    assert rolls(5) == rolls(5)
    assert len({json.dumps(rolls(s)) for s in range(1, 13)}) > 6  # not one fixed roll


def test_payment_uses_the_rolled_dice(rules):
    for seed in range(1, 30):
        g = Game(rules, seed=seed)
        _take_bet(g)
        play(g, [RandomBot(seed * 4 + i) for i in range(4)])
        if g.st.winners:
            pays = [p for p in g.st.payments if p.name == "胡"]
            assert pays and all(p.amount == g.st.table["点数"] for p in pays)
            assert g.check_invariants() == []
            return
    pytest.fail("no seeded hand was won")


def _log(rules, seed=4, hands=2):
    s = Session(rules, {}, seed=seed, hands=hands)
    s.play([RandomBot(i) for i in range(4)])
    return json.loads(json.dumps(lines(s, "掷"), ensure_ascii=False))


def test_the_log_holds_each_roll_in_its_place_and_replays(rules):
    log = _log(rules)
    kinds = [e["type"] for e in log]
    first = kinds.index("hand")
    # each hand: its two deal rolls before any move, the bet's roll right after the move that took it
    assert kinds[first:first + 5] == ["hand", "chance", "chance", "move", "chance"]
    assert log[first + 1]["target"] == "table.点数" and log[first + 4]["target"] == "actor.押"
    bets = sum(1 for e in log if e["type"] == "move" and e["move"]["action"] == "押注")
    assert sum(1 for k in kinds if k == "chance") == 2 * 2 + bets
    assert all(log[k + 1]["type"] == "chance" for k, e in enumerate(log)
               if e["type"] == "move" and e["move"]["action"] == "押注")
    replay(log, rules)


@pytest.mark.parametrize("tamper", ["draws", "value", "drop", "duplicate", "move_up", "seat"])
def test_a_tampered_roll_is_refused_naming_its_line(rules, tamper):
    log = _log(rules)
    i = [k for k, e in enumerate(log) if e["type"] == "chance"][2]  # the first hand's bet
    line = i + 1
    if tamper == "draws":
        log[i]["draws"] = [log[i]["draws"][0] % 30 + 10]
    elif tamper == "value":
        log[i]["value"] += 10
    elif tamper == "seat":
        log[i]["seat"] = (log[i]["seat"] + 1) % 4
    elif tamper == "drop":
        del log[i]  # the next line (a move) is where the missing roll is noticed
    elif tamper == "duplicate":
        log.insert(i, dict(log[i]))
        line = i + 2
    elif tamper == "move_up":  # before the move that made it
        log[i - 1], log[i] = log[i], log[i - 1]
        line = i
    with pytest.raises(ReplayError, match=rf"^line {line}: hand 1: "):
        replay(log, rules)


def test_snapshots_and_clones_keep_the_rolls(rules):
    g = Game(rules, seed=9)
    _take_bet(g)
    g.apply(g.current_seats()[0], g.legal_moves(g.current_seats()[0])[0])
    again = Game.restore(rules, json.loads(json.dumps(g.snapshot(), ensure_ascii=False)))
    assert again.st.chance == g.st.chance and again.snapshot() == g.snapshot()
    twin = g.clone()
    for game in (g, twin):
        play(game, [RandomBot(i) for i in range(4)])
    assert twin.snapshot() == g.snapshot()


@pytest.mark.parametrize("body, expected", [
    ("on deal { roll table.点数 = 3 }\n", [("E401", 1, 27)]),                        # not a list
    ("on deal { roll table.点数 = ['1m', '2m'] }\n", [("E401", 1, 27)]),             # tiles into an int
    ("on deal { roll table.点数 = ['1m', '2m'] { times 2 } }\n", [("E401", 1, 27)]),  # tiles are not summed
    ("on deal { roll table.点数 = [1, 2] { times 21 } }\n", [("E402", 1, 42)]),      # beyond the limit
    ("on deal { roll table.点数 }\n", [("E207", 1, 11)]),                            # nothing to draw from
    ("on deal { roll table.无 = [1, 2] }\n", [("E301", 1, 16)]),                     # no such state
])
def test_a_misused_roll_is_a_located_error(body, expected):
    assert _errors(body) == expected


def test_the_replay_viewer_reads_a_log_with_rolls(rules):
    from paili.dsl.serve.replay import frames

    log = _log(rules)
    out = frames(list(enumerate(log, 1)), rules)
    assert [h["hand"] for h in out["hands"]] == [1, 2]
    first = out["hands"][0]["steps"]
    assert [c["target"] for c in first[0]["view"]["chance"]] == ["table.点数", "table.方向"]
    assert len(first) == 1 + sum(1 for e in log if e["type"] == "move" and e["hand"] == 1)


def test_a_compiled_rule_set_with_an_unbounded_roll_is_refused_naming_its_path(rules):
    from paili.runtime.ir.serialize import FormatError, dumps, loads

    doc = json.loads(dumps(rules.ir))
    doc["ruleset"]["hooks"][0]["effects"][0]["times"] = 10 ** 12
    with pytest.raises(FormatError, match=r"^ruleset\.hooks\[0\]\.effects\[0\]: a roll draws 1 to 20 items"):
        loads(json.dumps(doc))
