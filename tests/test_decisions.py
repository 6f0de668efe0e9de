"""Decisions whose value is a tile, several tiles, a suit or a seat (issue 14, point 2; docs/language.md §25):
`choice` has the type of the action's choices, a value that could be none is a compile error, and the
value reaches the effects — never a silent `None` — and survives a move written as JSON."""
from __future__ import annotations

import json

import pytest
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game, Move
from paili.runtime.game.bots import GreedyBot, play
from paili.runtime.game.state import plain
from paili.runtime.ir.serialize import FormatError, dumps, loads
from paili.runtime.rules import Rules
from paili.runtime.tiles import TileInfo

HEAD = """variant 定 "决定" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 } }
table { players 2; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
action 自摸 { on draw; by self; wins true; win_tile drawn }
payment 胡 { on win; amount = score }
"""

DECISIONS = """state player 定缺 suit
state player 留牌 tiles = []
state player 对家 seat
action 定缺 { on deal; by any; choices [万, 条]; when actor.定缺 == none; effect { set actor.定缺 = choice } }
action 留 { on deal; by any; choices ['12m', '23s']; when len(actor.留牌) == 0; effect { add actor.留牌 = choice } }
action 指 { on deal; by any; choices [dealer]; when actor.对家 == none; effect { set actor.对家 = choice } }
"""


def _rules(body: str) -> Rules:
    res = compile_text(HEAD + body, "定.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def _errors(body: str) -> list[tuple[str, int]]:
    res = compile_text(HEAD + body, "定.pai")
    assert not res.ok
    return sorted((d.code, d.span.line - HEAD.count("\n")) for d in res.diagnostics if d.is_error)


def _answer(g: Game, wanted: dict[str, object]) -> list[tuple[int, Move]]:
    """Answer the deal's decisions: for each action, the move whose choice is `wanted[action]`."""
    taken = []
    for _ in range(40):
        movers = [s for s in range(g.st.n) if g.legal_moves(s)]
        moves = g.legal_moves(movers[0])
        if not any(m.action in wanted for m in moves):
            break
        mv = next(m for m in moves if m.action in wanted and m.choice == wanted[m.action])
        g.apply(movers[0], mv)
        taken.append((movers[0], mv))
    return taken


def test_each_decision_delivers_its_typed_value_to_the_effects():
    g = Game(_rules(DECISIONS), seed=5)
    dealer = g.st.dealer
    offered = {(m.action, m.choice) for m in g.legal_moves(dealer)}
    # a move carries its choice as plain data: a suit's name, a tile's names, a seat's number
    assert {("定缺", "万"), ("定缺", "条"), ("留", "1万 2万"), ("留", "2条 3条"), ("指", dealer)} <= offered
    _answer(g, {"定缺": "条", "留": "2条 3条", "指": dealer})
    seat = g.st.seats[dealer]
    assert seat.vars["定缺"] == "条"
    assert all(isinstance(t, TileInfo) for t in seat.vars["留牌"])
    assert [t.name for t in seat.vars["留牌"]] == ["2条", "3条"]
    assert seat.vars["对家"] is seat  # the seat itself, not its number
    # guarded by what they record, the decisions are not offered again to that player
    assert not any(m.action in ("定缺", "留", "指") for m in g.legal_moves(dealer))


def test_a_game_with_decisions_replays_from_its_json_moves():
    rules = _rules(DECISIONS)
    g = Game(rules, seed=11)
    taken = _answer(g, {"定缺": "万", "留": "1万 2万", "指": g.st.dealer})
    again = Game(rules, seed=11)
    for seat, mv in taken:
        again.apply(seat, Move.from_json(json.loads(json.dumps(mv.to_json()))))
    def shown(game):
        return [{k: plain(v) for k, v in s.vars.items()} for s in game.st.seats]

    assert shown(again) == shown(g)
    assert shown(g)[g.st.dealer] == {"定缺": "万", "留牌": ["1万", "2万"], "对家": {"seat": g.st.dealer}}
    play(again, [GreedyBot(i) for i in range(2)])
    assert again.check_invariants() == []


UNGUARDED = """state player 押 int = 0
state table 次数 int = 0
action 押注 { on deal; by any; choices [1, 2]; effect { add actor.押 = choice; add table.次数 = 1 } }
action 表态 { on [deal, opening]; by any; effect { add table.次数 = 1 } }
"""


def test_a_decision_taken_at_the_deal_is_not_offered_again_in_the_hand():
    """Without a guard of its own, a deal-time decision is offered to a seat until it takes it (or passes),
    then not again in the hand: not after its other decision, and not at the opening (`on [deal, opening]`)."""
    g = Game(_rules(UNGUARDED), seed=3)
    d = g.st.dealer
    other = 1 - d
    assert g.current_seats() == [d]
    assert [str(m) for m in g.legal_moves(d)] == ["押注 =1", "押注 =2", "表态", "pass"]
    g.apply(d, next(m for m in g.legal_moves(d) if m.choice == 2))
    assert [str(m) for m in g.legal_moves(d)] == ["表态", "pass"]
    g.apply(d, next(m for m in g.legal_moves(d) if m.action == "表态"))
    # the dealer has taken both: its deal decisions are over, and the other seat is asked
    assert g.current_seats() == [other]
    assert [str(m) for m in g.legal_moves(other)] == ["押注 =1", "押注 =2", "表态", "pass"]
    g.apply(other, next(m for m in g.legal_moves(other) if m.action == "pass"))
    # at the opening: the dealer took 表态 in this hand, the other seat declined it and is asked again
    assert g.current_seats() == [other]
    assert [str(m) for m in g.legal_moves(other)] == ["表态", "pass"]
    g.apply(other, next(m for m in g.legal_moves(other) if m.action == "pass"))
    assert g.st.seats[d].vars["押"] == 2 and g.st.seats[other].vars["押"] == 0
    assert g.st.table["次数"] == 2
    assert all(m.action in ("discard", "自摸", "pass") for m in g.legal_moves(g.current_seats()[0]))


@pytest.mark.parametrize("choices, code_line", [
    ("[万, '1m']", 1),        # a suit and a tile: one decision has one type
    ("[winner]", 1),          # a seat or none: a decision's value must exist when it is offered
    ("[none]", 1),
    ("[顺子]", 1),            # a meld kind is not a value a player chooses
])
def test_a_choice_that_cannot_be_a_value_is_a_compile_error(choices, code_line):
    body = f"action 选 {{ on deal; by any; choices {choices} }}\n"
    assert ("E401", code_line) in _errors(body)


def test_choice_is_held_to_the_type_of_the_choices():
    assert _errors("state player 定缺 suit\n"
                   "action 选 { on deal; by any; choices [2, 4]; effect { set actor.定缺 = choice } }\n") \
        == [("E401", 2)]
    assert _errors("action 选 { on deal; by any; choices [万, 条] when choice > 1 }\n") == [("E401", 1)]


def test_a_loaded_rule_set_types_choice_as_the_compiler_does():
    rules = _rules(DECISIONS)
    again = Rules(loads(dumps(rules.ir)))  # `set actor.定缺 = choice` with a suit choice loads
    assert [a.name for a in again.ir.actions] == ["自摸", "定缺", "留", "指"]
    doc = json.loads(dumps(rules.ir))
    doc["ruleset"]["actions"][1]["choices"].append({"_": "NoneLit", "span": ["x", 1, 1, 1, 2]})
    with pytest.raises(FormatError, match="choice"):
        loads(json.dumps(doc))


def test_the_page_names_each_choice_of_a_decision(tmp_path):
    """The help page lists a decision's choices as a player reads them: suits by name, several tiles
    written together, a seat by its Chinese word (a tile's choice used to print as 无)."""
    from paili.dsl.pages import site

    path = tmp_path / "定.pai"
    path.write_text(HEAD + DECISIONS, encoding="utf-8")
    md = site.render_variant(path).md
    lines = [line for line in md.splitlines() if "可选" in line]
    assert any("万、条" in line for line in lines), lines
    assert any("1万2万、2条3条" in line for line in lines), lines
    assert any("庄" in line for line in lines), lines
    assert not any("无" in line for line in lines), lines


# ---------------------------------------------------------------------------- computed choices: choices = EXPR

COMPUTED = """state player 定缺 suit
state player 留牌 tiles = []
action 定缺 {
  on deal
  by any
  choices = filter(s in [万, 条]: any(t in actor.hand: t.suit == s))
  when actor.定缺 == none
  effect { set actor.定缺 = choice }
}
action 留 {
  on deal
  by any
  choices = distinct(actor.hand) when choice.rank > 2
  when len(actor.留牌) == 0
  effect { add actor.留牌 = choice }
}
"""


def test_a_computed_choice_list_offers_one_move_per_distinct_item():
    """`choices = EXPR`: the suits the seat holds, the distinct tiles of its hand above rank 2 — evaluated
    when offered, one move per distinct value, typed values reaching the effects."""
    rules = _rules(COMPUTED)
    # dealer 0: 1m 1m 5m 9m (+ 3m); seat 1: 2s 4s 4s 7m
    g = Game(rules, seed=1, dealer=0, wall="1m 1m 5m 9m 2s 4s 4s 7m 3m".split())
    offered = [(m.action, m.choice) for m in g.legal_moves(0) if m.action != "pass"]
    assert offered == [("定缺", "万"), ("留", "5万"), ("留", "9万"), ("留", "3万")]
    for action, choice in (("定缺", "万"), ("留", "9万")):
        g.apply(0, next(m for m in g.legal_moves(0) if (m.action, m.choice) == (action, choice)))
    assert g.current_seats() == [1]  # the dealer has decided both
    seat = g.st.seats[0]
    assert seat.vars["定缺"] == "万" and [t.name for t in seat.vars["留牌"]] == ["9万"]
    other = [(m.action, m.choice) for m in g.legal_moves(1) if m.action != "pass"]
    assert other == [("定缺", "万"), ("定缺", "条"), ("留", "4条"), ("留", "7万")]
    again = Rules(loads(dumps(rules.ir)))  # the compiled JSON keeps the computed list
    g2 = Game(again, seed=1, dealer=0, wall="1m 1m 5m 9m 2s 4s 4s 7m 3m".split())
    assert [(m.action, m.choice) for m in g2.legal_moves(0) if m.action != "pass"] == offered


@pytest.mark.parametrize("expr, what", [
    ("winner", "must be a list"),                       # not a list
    ("[winner]", "may be none"),                        # an item that may be none never reaches a player
    ("[]", "not known"),                                # no type to give `choice`
    ("filter(m in actor.melds: m.exposed)", "meld"),    # a meld is not a value a player chooses
    ("len(actor.hand)", "must be a list"),
])
def test_a_computed_choice_list_that_cannot_reach_a_player_is_a_compile_error(expr, what):
    body = f"action 选 {{\n  on deal\n  choices = {expr}\n}}\n"
    res = compile_text(HEAD + body, "定.pai")
    errors = [d for d in res.diagnostics if d.is_error]
    assert [(d.code, d.span.line - HEAD.count("\n"), d.span.col) for d in errors] == [("E401", 3, 13)], errors
    assert what in errors[0].message


def test_a_computed_choice_list_is_typed_for_choice_and_checked_where_it_is_offered():
    assert _errors("state player 定缺 suit\n"
                   "action 选 { on deal; by any; choices = distinct(actor.hand); effect { set actor.定缺 = choice } }\n"
                   ) == [("E401", 2)]
    assert _errors("action 选 { on deal; by any; choices = filter(t in hand: t.rank > 1) }\n") == [("E510", 1)]
    assert _errors("action 选 { on deal; by any; choices [1] = [2] }\n") == [("E204", 1)]


def test_a_loaded_rule_set_types_a_computed_choice_list_as_the_compiler_does():
    doc = json.loads(dumps(_rules(COMPUTED).ir))
    action = doc["ruleset"]["actions"][1]
    assert action["name"] == "定缺" and action["choice_list"]["func"] == "filter"
    action["choice_list"] = {"_": "Num", "text": "3", "span": ["x", 1, 1, 1, 2]}
    with pytest.raises(FormatError, match=r"^ruleset\.actions\[1\]\.choice_list: the choices must be a list"):
        loads(json.dumps(doc))


def test_the_page_writes_a_computed_choice_list_as_its_formula(tmp_path):
    from paili.dsl.pages import site

    path = tmp_path / "定.pai"
    path.write_text(HEAD + COMPUTED, encoding="utf-8")
    lines = [line for line in site.render_variant(path).md.splitlines() if "可选" in line]
    assert any("每一项：" in line and "手牌（不重复）" in line for line in lines), lines


def test_the_page_writes_the_choice_as_what_it_is(tmp_path):
    """The page's word for `choice` follows the decision's value type (it said 所选的倍数 of a suit, a tile
    or a player): a number, a tile, several tiles, a suit, a player."""
    from paili.dsl.pages import site

    path = tmp_path / "定.pai"
    path.write_text(HEAD + """state player 定缺 suit
state player 留牌 tiles = []
state player 对家 seat
state table 倍 int = 1
action 加倍 { on deal; by dealer; choices [2, 4] when choice > table.倍; effect { set table.倍 = choice } }
action 定缺 { on deal; by any; choices [万, 条] when choice != 条; effect { set actor.定缺 = choice } }
action 留 { on deal; by any; choices ['1m', '2s'] when choice.rank > 1; effect { add actor.留牌 = choice } }
action 几张 { on deal; by any; choices ['12m', '23s'] when len(choice) == 2; effect { add actor.留牌 = choice } }
action 指 { on deal; by any; choices [dealer, actor] when choice != actor; effect { set actor.对家 = choice } }
""", encoding="utf-8")
    lines = [line for line in site.render_variant(path).md.splitlines() if line.startswith("- **可选条件**")]
    assert lines == ["- **可选条件**：所选的数 ＞ 「倍」",
                     "- **可选条件**：所选的花色不是「条」",
                     "- **可选条件**：所选的牌的点数 ＞ 1",
                     "- **可选条件**：所选的牌的个数 ＝ 2",
                     "- **可选条件**：所选的玩家不是行动者"], lines


def test_the_page_says_a_seats_own_fields_in_chinese(tmp_path):
    """Every field a seat has of itself has a Chinese word on the page (`actor.dealer` was written
    「行动者的dealer」); the yes/no ones are said of the seat (行动者是庄), and negated as such."""
    from paili.dsl.pages import site, words
    from paili.runtime.ir.vocab import SEAT_BUILTIN_FIELDS

    assert set(SEAT_BUILTIN_FIELDS) <= set(words.FIELD) | set(words.SEAT_STATE)
    path = tmp_path / "座.pai"
    path.write_text(HEAD + """state table 倍 int = 1
action 甲 { on deal; by any; choices [2] when actor.dealer; effect { set table.倍 = choice } }
action 乙 { on deal; by any; choices [2] when not actor.ready; effect { set table.倍 = choice } }
action 丙 { on deal; by any; choices [2] when actor.in_play and actor.seat > 0; effect { set table.倍 = choice } }
action 丁 { on deal; by any; choices [2] when actor.balance > 0 and len(actor.discards) == 0
          effect { set table.倍 = choice } }
""", encoding="utf-8")
    lines = [line for line in site.render_variant(path).md.splitlines() if line.startswith("- **可选条件**")]
    assert lines == ["- **可选条件**：行动者是庄",
                     "- **可选条件**：行动者没有宣告待和",
                     "- **可选条件**：行动者还在局中，且行动者的座位号 ＞ 0",
                     "- **可选条件**：行动者的积分 ＞ 0，且行动者的弃牌的个数 ＝ 0"], lines
