"""Tiles passed between seats (issue 14, point 1; docs/language.md §25 `select`, `together`, §27 `give`),
with tests/rules/huanpai.pai (换三张): at the deal two dice are rolled, every seat chooses three tiles of
one suit at the same time, nobody sees another's choice before all have chosen, and the tiles move all
at once to the next, the opposite or the previous seat as the dice say. Rigged walls assert exactly which
tiles went where; seeded bot games keep every tile; logs replay exactly and refuse tampering; snapshots
and clones carry a half-answered decision; misuse is a located compile error."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file, compile_text
from paili.runtime.game import Game, IllegalMove, Move
from paili.runtime.game.bots import GreedyBot, MixedBot, RandomBot
from paili.runtime.game.log import ReplayError, lines, replay
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

# dealt from the head in play order from the dealer (seat 0, `first_dealer owner`), 13 each, then the
# dealer's extra tile (9p)
HANDS = ["123456789m 1234s", "123456789s 1234p", "123456789p 1234m", "567m 567s 567p 5m 5s 5p 9m"]
WALL = " ".join(HANDS) + " 9p"
GIVES = ["1m2m3m", "1s2s3s", "1p2p3p", "5m6m7m"]


@pytest.fixture(scope="module")
def rules() -> Rules:
    res = compile_file(ROOT / "tests" / "rules" / "huanpai.pai", examples=True)
    assert res.ok, res.render()
    return Rules(res.ruleset)


def names(rules: Rules, text: str) -> list[str]:
    from paili.runtime.hand import parse_tiles

    return [t.name for t in parse_tiles(rules.notation, rules.catalog_for({})[0], text, "tiles")]


def hand(g: Game, s: int) -> Counter:
    return Counter(t.name for t in g.st.seats[s].hand)


def select(g: Game, s: int, text: str) -> Move:
    want = sorted(names(g.rules, text))
    return next(m for m in g.legal_moves(s) if sorted(m.tiles) == want)


@pytest.mark.parametrize("seed, rest, step", [(1, 1, 1), (2, 2, 2), (3, 0, 3)])  # next, opposite, previous
def test_each_seat_passes_its_three_tiles_in_the_direction_of_the_dice(rules, seed, rest, step):
    g = Game(rules, seed=seed, wall=WALL)
    assert g.st.table["点数"] % 3 == rest  # the dice this seed throws (from the game's seeded generator)
    assert g.current_seats() == [0, 1, 2, 3]  # asked of everyone at once
    before = [hand(g, s) for s in range(4)]
    for s in range(4):
        g.apply(s, select(g, s, GIVES[s]))
    for s in range(4):
        giver = (s - step) % 4
        assert hand(g, s) == before[s] - Counter(names(rules, GIVES[s])) + Counter(names(rules, GIVES[giver]))
        assert [t.name for t in g.st.seats[s].vars["换出"]] == names(rules, GIVES[s])
    assert [len(g.st.seats[s].hand) for s in range(4)] == [14, 13, 13, 13]
    assert g.check_invariants() == []
    assert g.st.events["换三张"] == 4
    # the dealer kept its extra tile (9p), so it is still the tile its first turn starts with
    assert g.st.seats[0].drawn.name == "9筒" and g.current_seats() == [0]


def test_the_moves_are_every_set_of_three_of_one_suit_and_no_pass(rules):
    g = Game(rules, seed=1, wall=WALL)
    m0 = g.legal_moves(0)
    assert len(m0) == 84 + 4  # three of 1m..9m, or of 1s..4s; never the lone 9p, never mixed suits
    assert all(len({t[-1] for t in m.tiles}) == 1 and len(m.tiles) == 3 for m in m0)
    assert "pass" not in [m.action for m in m0]  # `restrict 必须换牌`
    assert [str(m) for m in g.legal_moves(3)] == [
        "换三张 5万5万6万", "换三张 5万5万7万", "换三张 5万5万9万", "换三张 5万6万7万", "换三张 5万6万9万",
        "换三张 5万7万9万", "换三张 6万7万9万", "换三张 5条5条6条", "换三张 5条5条7条", "换三张 5条6条7条",
        "换三张 5筒5筒6筒", "换三张 5筒5筒7筒", "换三张 5筒6筒7筒"]
    with pytest.raises(IllegalMove):  # tiles it does not hold, or of two suits
        g.apply(0, Move("换三张", ("1万", "2万", "1条")))


def _public(obs: dict) -> dict:
    return {k: v for k, v in obs.items() if k not in ("to_act", "decision")}


def test_nobody_sees_a_choice_before_all_have_chosen(rules):
    a, b = Game(rules, seed=1, wall=WALL), Game(rules, seed=1, wall=WALL)
    start = [_public(a.observation(s)) for s in range(4)]
    a.apply(0, select(a, 0, "123m"))
    b.apply(0, select(b, 0, "789m"))  # another choice of seat 0
    a.apply(1, select(a, 1, "123s"))
    b.apply(1, select(b, 1, "456s"))
    for g in (a, b):
        assert g.current_seats() == [2, 3]
        assert [hand(g, s) for s in range(4)] == [Counter(names(rules, HANDS[s] + (" 9p" if s == 0 else "")))
                                                  for s in range(4)]  # nothing has moved yet
    for s in (2, 3):  # what the seats still to choose see: the same whatever the others chose
        assert _public(a.observation(s)) == _public(b.observation(s)) == start[s]
        assert a.legal_moves(s) == b.legal_moves(s)
    for s in (0, 1):  # a seat that has chosen sees its own hand unchanged, and no one's choice
        assert a.observation(s)["legal_moves"] == []
        assert {k: v for k, v in _public(a.observation(s)).items() if k != "legal_moves"} == \
            {k: v for k, v in start[s].items() if k != "legal_moves"}
    a.apply(2, select(a, 2, "123p"))
    a.apply(3, select(a, 3, "567m"))
    assert hand(a, 1)["1万"] == 1 and a.observation(1)["hand"].count("1万") == 1  # received from seat 0


def test_a_half_answered_decision_survives_snapshot_and_clone(rules):
    g = Game(rules, seed=2, wall=WALL)
    g.apply(3, select(g, 3, "567p"))
    g.apply(1, select(g, 1, "234p"))
    again = Game.restore(rules, json.loads(json.dumps(g.snapshot(), ensure_ascii=False)))
    twin = g.clone()
    for game in (g, again, twin):
        assert game.current_seats() == [0, 2]
        game.apply(0, select(game, 0, "789m"))
        game.apply(2, select(game, 2, "789p"))
        assert game.check_invariants() == []
    assert again.snapshot() == g.snapshot() == twin.snapshot()
    assert hand(g, 3)["2筒"] == 1 and hand(g, 3)["4筒"] == 1  # 234p went two seats on (the dice: 2)


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, MixedBot])
def test_seeded_bot_games_keep_every_tile_and_replay(rules, bot):
    for seed in range(1, 5):
        g = Game(rules, seed=seed)
        moves = []
        while not g.is_over():
            s = g.current_seats()[0]
            mv = bot(seed * 10 + s).choose(g, s, g.legal_moves(s))
            moves.append((s, mv.to_json()))
            g.apply(s, mv)
        assert g.violations == [] and g.check_invariants() == []
        given = [tuple(m["tiles"]) for _, m in moves if m["action"] == "换三张"]
        assert len(given) == 4 and all(len({t[-1] for t in x}) == 1 for x in given)
        again = Game(rules, seed=seed)
        for s, m in moves:
            again.apply(s, Move.from_json(m))
        assert again.snapshot() == g.snapshot()


def test_the_greedy_bot_gives_the_tiles_it_needs_least(rules):
    g = Game(rules, seed=1, wall=WALL)
    # neighbours in 1-9m 1-4s: 1m, 9m, 1s, 4s have two; 1m 2m 9m is the first set of the fewest (7)
    assert GreedyBot(0).choose(g, 0, g.legal_moves(0)).tiles == ("1万", "2万", "9万")


def _log(rules):
    s = Session(rules, {}, seed=5, hands=2)
    s.play([RandomBot(i) for i in range(4)])
    return json.loads(json.dumps(lines(s, "huanpai"), ensure_ascii=False))


def test_a_logged_session_replays_and_a_tampered_choice_is_refused(rules):
    log = _log(rules)
    replay(log, rules)
    k = next(i for i, e in enumerate(log) if e["type"] == "move" and e["move"]["action"] == "换三张")
    assert len(log[k]["move"]["tiles"]) == 3  # a choice names its tiles
    bad = json.loads(json.dumps(log))
    bad[k]["move"]["tiles"] = ["1万", "1条", "1筒"]  # three suits: never a legal choice
    with pytest.raises(ReplayError, match=rf"^line {k + 1}: hand 1: "):
        replay(bad, rules)
    dice = next(i for i, e in enumerate(log) if e["type"] == "chance")
    bad = json.loads(json.dumps(log))
    bad[dice]["draws"] = [7 - x for x in bad[dice]["draws"]]
    with pytest.raises(ReplayError, match=rf"^line {dice + 1}: hand 1: the roll of table.点数"):
        replay(bad, rules)


HEAD = """variant 换 "换" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 }; suit 条 { code "s"; ranks 1..9 } }
table { players 2; hand 4 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
state table 点数 int = 0
"""


@pytest.mark.parametrize("body, expected", [
    ("action 换 { on deal; by any; select 2; choices [1, 2] }", [("E204", 1, 29)]),  # one or the other
    ("action 换 { on deal; by any; select 5 }", [("E402", 1, 36)]),                 # beyond the limit
    ("action 换 { on discard; by others; together true; select 1 }", [("E204", 1, 35)]),  # not at the start
    ("action 换 { on deal; by any; together true; then discard }", [("E204", 1, 29)]),
    ("action 换 { on deal; by any; select 2; effect { give = choice } }", [("E203", 1, 48)]),  # to whom
    ("action 换 { on deal; by any; select 2; effect { give = 3 { to = next(actor) } } }", [("E401", 1, 55)]),
    ("action 换 { on deal; by any; select 2; effect { give = choice { to = 1 } } }", [("E401", 1, 69)]),
    ("action 换 { on deal; by any; select 2; effect { set table.点数 = choice } }", [("E401", 1, 63)]),
])
def test_misused_transfers_are_located_errors(body, expected):
    res = compile_text(HEAD + body + "\n", "换.pai")
    assert not res.ok
    got = sorted((d.code, d.span.line - HEAD.count("\n"), d.span.col) for d in res.diagnostics if d.is_error)
    assert got == expected, res.render()


def test_a_person_chooses_the_tiles_by_writing_them(rules):
    from paili.runtime.game.play import parse_choice

    g = Game(rules, seed=1, wall=WALL)
    moves = g.legal_moves(3)
    for text in ("756m", "5万 7万 6万", "6万 5万 7万"):
        assert parse_choice(text, moves, g.cat, None, rules.notation) == (select(g, 3, "567m"), "")
    move, problem = parse_choice("568m", moves, g.cat, None, rules.notation)  # it holds no 8m
    assert move is None and problem.startswith("这几张牌不能这样选")


def test_the_terminal_game_tells_what_was_given_and_received_and_no_other_choice(rules):
    import io

    from paili.runtime.game.play import play_terminal

    out = io.StringIO()
    assert play_terminal(rules, {}, seat=0, seed=3, inp=io.StringIO("1\n" * 300), out=out) in (0, 1)
    text = out.getvalue()
    assert "掷出 点数：" in text
    told = [line.removeprefix("你的选择> ") for line in text.splitlines()
            if "号位：换三张" in line or "你换三张" in line]
    # the others' choices by their action alone; the person's own: the tiles given and those received
    assert told[:3] == ["1号位：换三张", "2号位：换三张", "3号位：换三张"]
    assert told[3].startswith("你换三张：交出 ") and "，收到 " in told[3] and len(told) == 4


def test_the_page_says_how_the_tiles_are_chosen():
    from paili.dsl.pages.site import render_variant

    page = render_variant(ROOT / "tests" / "rules" / "huanpai.pai").md
    assert "从自己手里选出3张牌" in page
    assert "各家同时选择；所有人都选好后才一起生效，选好之前谁也看不到别人选了什么" in page


def test_after_counts_seats_in_rotation_order_round_the_table():
    text = """variant 数 "数座位" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 } }
table { players 3; hand 4; first_dealer owner; rotation clockwise }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
score = 分
state table 后 seat
state table 前 seat
state table 远 seat
on deal { set table.后 = after(dealer, 1); set table.前 = after(dealer, -1); set table.远 = after(dealer, 7) }
"""
    res = compile_text(text, "数.pai")
    assert res.ok, res.render()
    g = Game(Rules(res.ruleset), seed=1)
    seat = {k: g.st.table[k].index for k in ("后", "前", "远")}
    assert seat == {"后": 2, "前": 1, "远": 2}  # clockwise: seat 0's next is seat 2; 7 = 2 × 3 + 1
