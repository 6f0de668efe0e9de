"""四川麻将·血战到底 in one rule file (issue 14, "Done when"): tests/rules/xuezhan.pai, written with the
documented constructs only. Rigged walls show each rule as written — 换三张 in the direction of the dice
and hidden until all have chosen, 定缺 together, 一炮多响 settled winner by winner, play going on until
three have won, 刮风下雨 paid by the players still in the hand, 杠上开花, 杠上炮, 抢杠胡, 天胡 with the
tiles the dealer received, 查花猪 and 查大叫 at an exhaustive draw; seeded bot games keep every tile and
the rules, replay exactly, and random games end."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file
from paili.runtime.game import Game, Move
from paili.runtime.game import log as gamelog
from paili.runtime.game.bots import BOTS
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules

FILE = ROOT / "tests" / "rules" / "xuezhan.pai"
# seeds whose dice pass the tiles to the next (点数 10), the opposite (8) and the previous seat (6)
NEXT, OPPOSITE, PREVIOUS = 1, 2, 3
STEP = {NEXT: 1, OPPOSITE: 2, PREVIOUS: 3}
SUIT = {"m": "万", "s": "条", "p": "筒"}


@pytest.fixture(scope="module")
def rules() -> Rules:
    res = compile_file(FILE, examples=True)
    assert res.ok and not res.diagnostics, res.render()
    return Rules(res.ruleset)


def codes(text: str) -> list[str]:
    """'123m 55s' -> ['1m', '2m', '3m', '5s', '5s']"""
    return [d + part[-1] for part in text.split() for d in part[:-1]]


def names(text: str) -> list[str]:
    return [c[0] + SUIT[c[1]] for c in codes(text)]


def hand(g: Game, s: int) -> Counter:
    return Counter(t.name for t in g.st.seats[s].hand)


def rig(final: list[str], gifts: list[str], draws: str = "", extra: str = "") -> str:
    """The wall (for the seed NEXT: the tiles pass to the next seat) that deals each seat the tiles it
    gives (`gifts[s]`) and, once they have passed, leaves it `final[s]`; the dealer's extra tile (its last
    dealt) is `extra`; then the draws."""
    dealt = [list((Counter(codes(final[s])) - Counter(codes(gifts[s - 1])) + Counter(codes(gifts[s]))).elements())
             for s in range(4)]
    assert all(Counter(codes(gifts[s - 1])) <= Counter(codes(final[s])) for s in range(4))
    if extra:
        dealt[0].remove(extra)
        dealt[0].append(extra)
    return " ".join(dealt[0][:13] + dealt[1] + dealt[2] + dealt[3] + dealt[0][13:] + codes(draws))


def select(g: Game, s: int, text: str) -> Move:
    want = sorted(names(text))
    return next(m for m in g.legal_moves(s) if m.action == "换三张" and sorted(m.tiles) == want)


def que(g: Game, s: int, suit: str) -> Move:
    return next(m for m in g.legal_moves(s) if m.action == "定缺" and m.choice == suit)


def move(g: Game, s: int, action: str, text: str | None = None) -> Move:
    want = sorted(names(text)) if text else None
    for m in g.legal_moves(s):
        if m.action == action and (want is None or sorted(m.tiles) == want):
            return m
    raise AssertionError(f"seat {s} has no {action} {text or ''}: {[str(m) for m in g.legal_moves(s)]}")


def begin(rules: Rules, final: list[str], gifts: list[str], draws: str = "", extra: str = "",
          tail: list[str] | None = None, ques: str = "筒筒筒筒") -> Game:
    """A hand on a rigged wall, past 换三张 (each seat gives `gifts[s]` to the next) and 定缺 (`ques`)."""
    g = Game(rules, {}, NEXT, dealer=0, wall=rig(final, gifts, draws, extra), tail=tail)
    for s in range(4):
        g.apply(s, select(g, s, gifts[s]))
    for s in range(4):
        g.apply(s, que(g, s, ques[s]))
    assert [hand(g, s) for s in range(4)] == [Counter(names(f)) for f in final]
    return g


def pays(g: Game, *which: str) -> list[tuple[str, int, int, int]]:
    return [(p.name, p.payer, p.payee, p.amount) for p in g.st.payments if not which or p.name in which]


def fans(g: Game, s: int) -> list[str]:
    return [f["name"] for f in g.st.results[s]["fans"]]


def passes(g: Game) -> None:
    """Every seat asked about a claim passes."""
    for s in g.current_seats():
        g.apply(s, move(g, s, "pass"))


# ---------------------------------------------------------------------- 换三张 and 定缺

HANDS = ["123456789m 1234s", "123456789s 1234p", "123456789p 1234m", "567m 567s 567p 5m 5s 5p 9m"]
GIVES = ["123m", "123s", "123p", "567m"]


@pytest.mark.parametrize("seed", [NEXT, OPPOSITE, PREVIOUS])
def test_three_tiles_of_one_suit_pass_in_the_direction_of_the_dice(rules, seed):
    g = Game(rules, {}, seed, dealer=0, wall=" ".join(HANDS) + " 9p")
    assert g.st.table["点数"] == {NEXT: 10, OPPOSITE: 8, PREVIOUS: 6}[seed]
    assert [(c["target"], c["value"]) for c in g.observation(2)["chance"]] == [("table.点数", g.st.table["点数"])]
    assert g.current_seats() == [0, 1, 2, 3]
    offered = g.legal_moves(0)
    assert "pass" not in {m.action for m in offered}  # 必须换牌定缺
    assert len(offered) == 84 + 4 and all(len({t[-1] for t in m.tiles}) == 1 for m in offered)
    before = [hand(g, s) for s in range(4)]
    for s in range(4):
        g.apply(s, select(g, s, GIVES[s]))
    for s in range(4):
        giver = (s - STEP[seed]) % 4
        assert hand(g, s) == before[s] - Counter(names(GIVES[s])) + Counter(names(GIVES[giver]))
        assert [t.name for t in g.st.seats[s].vars["换出"]] == names(GIVES[s])
    assert g.check_invariants() == []


def test_nobody_sees_a_choice_before_all_have_chosen(rules):
    a = Game(rules, {}, NEXT, dealer=0, wall=" ".join(HANDS) + " 9p")
    b = Game(rules, {}, NEXT, dealer=0, wall=" ".join(HANDS) + " 9p")
    a.apply(0, select(a, 0, "123m"))
    b.apply(0, select(b, 0, "789m"))  # seat 0 chose otherwise in b
    for s in (1, 2, 3):
        assert a.observation(s) == b.observation(s)
    assert hand(a, 0) == hand(b, 0) == Counter(names(HANDS[0] + " 9p"))  # nothing has moved yet


def test_every_seat_chooses_its_missing_suit_together(rules):
    g = Game(rules, {}, NEXT, dealer=0, wall=" ".join(HANDS) + " 9p")
    for s in range(4):
        g.apply(s, select(g, s, GIVES[s]))
    assert g.current_seats() == [0, 1, 2, 3]
    assert sorted(str(m) for m in g.legal_moves(1)) == ["定缺 =万", "定缺 =条", "定缺 =筒"]  # and no pass
    for s, suit in enumerate("条万条"):
        g.apply(s, que(g, s, suit))
    assert [g.st.seats[s].vars["定缺"] for s in range(4)] == [None] * 4  # nothing applied before the last
    assert [x["state"] for x in g.observation(3)["seats"][:3]] == [{"定缺": None}] * 3
    g.apply(3, que(g, 3, "筒"))
    assert [str(g.st.seats[s].vars["定缺"]) for s in range(4)] == ["条", "万", "条", "筒"]
    # then everyone sees every missing suit (`visible`), and nothing else of another's states
    seen = g.observation(1)["seats"]
    assert [x.get("state") for x in seen] == [{"定缺": "条"}, None, {"定缺": "条"}, {"定缺": "筒"}]
    assert g.onlooker_observation()["seats"][1]["state"] == {"定缺": "万"}
    assert g.current_seats() == [0] and g.st.turn == 1
    # the dealer still holds 条, the suit it does not want: it must discard those first
    assert {m.tiles[0][-1] for m in g.legal_moves(0) if m.action == "discard"} == {"条"}


# ---------------------------------------------------------------------- 一炮多响, three winners

ONE_SHOT = ["123m 456m 789s 11s 77m 5s", "234m 678m 234s 678s 5s", "123s 456s 789s 234m 5s", "111m 345m 678m 999m 5m"]
ONE_SHOT_GIFTS = ["234m", "123s", "111m", "123m"]  # seat s gives what seat s + 1 keeps


def test_a_discard_won_by_two_is_settled_winner_by_winner_and_the_third_winner_ends_the_hand(rules):
    g = begin(rules, ONE_SHOT, ONE_SHOT_GIFTS, draws="5m", extra="5s")
    g.apply(0, move(g, 0, "discard", "5s"))
    assert g.current_seats() == [1, 2]  # both wait on 5s: asked at once
    g.apply(1, move(g, 1, "胡"))
    g.apply(2, move(g, 2, "胡"))
    # each winner paid with its own score at once, and both leave; the hand goes on
    assert pays(g) == [("点炮", 0, 1, 1), ("点炮", 0, 2, 1)]
    assert g.st.winners == [1, 2] and g.st.first_winners == [1, 2] and not g.is_over()
    assert [s["in_play"] for s in g.observation(0)["seats"]] == [True, False, False, True]
    # play goes on from the seat after the last winner: seat 3 draws 5m and wins by itself
    assert g.current_seats() == [3] and g.st.seats[3].drawn.name == "5万"
    g.apply(3, move(g, 3, "自摸"))
    # the third winner ends the hand; 自摸 is paid by the one player still in the hand: 清一色 2 番 is
    # 4, and 自摸加底 1 more
    assert g.is_over() and not g.st.exhausted and g.st.winners == [1, 2, 3]
    assert fans(g, 3) == ["清一色"] and pays(g)[2:] == [("自摸", 0, 3, 5)]
    res = g.result()
    assert res["deltas"] == [-7, 1, 1, 5]
    assert res["next_dealer"] == 0  # the first win was a multiple win: its discarder deals next
    assert g.check_invariants() == []


# ---------------------------------------------------------------------- 刮风下雨 and the kong fans

ROB = ["3s 89s 999s 444s 678m 22m", "12s 456m 789m 234m 55m", "33s 777s 888s 111m 99m", "666s 123m 456m 789m 5s"]
ROB_GIFTS = ["456m", "111m", "123m", "444s"]


def test_a_kong_on_a_discard_a_win_on_its_replacement_discard_and_a_robbed_added_kong(rules):
    g = begin(rules, ROB, ROB_GIFTS, draws="1p 6s 2p 3s", extra="3s", tail=["7s"])
    g.apply(0, move(g, 0, "discard", "3s"))
    assert g.current_seats() == [1, 2]  # seat 1 could win on 3s, seat 2 pung it
    g.apply(1, move(g, 1, "pass"))
    g.apply(2, move(g, 2, "碰"))
    g.apply(2, move(g, 2, "discard", "9m"))
    assert g.st.seats[3].drawn.name == "1筒"
    g.apply(3, move(g, 3, "discard", "1p"))  # (it holds 筒, its missing suit: only 筒 may go)
    g.apply(0, move(g, 0, "discard", "6s"))
    g.apply(3, move(g, 3, "明杠"))
    assert pays(g) == [("直杠", 0, 3, 2)]  # 刮风: the discarder pays a kong on its discard
    assert g.st.seats[3].drawn.name == "7条"  # the replacement, from the tail
    g.apply(3, move(g, 3, "discard", "7s"))
    assert g.current_seats() == [0, 2]  # the dealer wins on it; seat 2 could kong it
    g.apply(2, move(g, 2, "pass"))
    g.apply(0, move(g, 0, "胡"))
    assert fans(g, 0) == ["平胡", "根", "杠上炮"] and g.st.results[0]["score"] == 4
    assert pays(g)[1:] == [("点炮", 3, 0, 4)]
    # seat 1 draws (after the winner), then seat 2 draws its fourth 3s and adds it to its pung: robbed
    g.apply(1, move(g, 1, "discard", "2p"))
    g.apply(2, move(g, 2, "补杠"))
    assert g.current_seats() == [1]
    g.apply(1, move(g, 1, "抢杠胡"))
    assert fans(g, 1) == ["平胡", "抢杠胡"] and g.st.results[1]["score"] == 2
    # the robbed player pays as the discarder would; a robbed kong is not made, so nobody pays 刮风
    assert pays(g)[2:] == [("点炮", 2, 1, 2)]
    assert g.st.winners == [0, 1] and not g.is_over()
    assert g.current_seats() == [2]  # the robbed player draws again: the seat after the last winner
    assert g.check_invariants() == []


BLOOM = ["5555m 123s 456s 789s 1m", "222m 678m 234s 567s 8s", "333m 444m 999m 11s 99s", "666m 777m 888m 2s 3s 4s 5s"]
BLOOM_GIFTS = ["678m", "999m", "666m", "123s"]


def test_a_concealed_kong_is_paid_by_everyone_still_in_the_hand_and_its_replacement_wins(rules):
    g = begin(rules, BLOOM, BLOOM_GIFTS, draws="2m", extra="1m", tail=["9p", "1m"])  # the tail end last
    g.apply(0, move(g, 0, "暗杠"))
    assert pays(g) == [("下雨", 1, 0, 2), ("下雨", 2, 0, 2), ("下雨", 3, 0, 2)]  # every other player
    assert g.st.seats[0].drawn.name == "1万"  # its replacement, from the tail: it wins on it
    g.apply(0, move(g, 0, "自摸"))
    # 根 (the four 5万) and 杠上开花: 2 番, 4; each player pays it and 自摸加底
    assert fans(g, 0) == ["平胡", "根", "杠上开花"] and g.st.results[0]["score"] == 4
    assert pays(g)[3:] == [("自摸", 1, 0, 5), ("自摸", 2, 0, 5), ("自摸", 3, 0, 5)]
    # the winner has left: seat 1's concealed kong is paid by the two players still in the hand
    assert g.current_seats() == [1] and g.st.seats[1].drawn.name == "2万"
    g.apply(1, move(g, 1, "暗杠"))
    assert pays(g)[6:] == [("下雨", 2, 1, 2), ("下雨", 3, 1, 2)]
    assert g.st.seats[1].drawn.name == "9筒"
    g.apply(1, move(g, 1, "discard", "9p"))
    assert g.check_invariants() == []


HEAVEN = ["123m 456m 789m 234s 55s", "123p 456s 789s 11m 22m", "456p 111s 999s 33m 66m", "789p 333s 666s 44m 77m"]
HEAVEN_GIFTS = ["123p", "456p", "789p", "789m"]


def test_the_dealer_wins_with_its_fourteen_tiles_after_giving_away_its_last_dealt_one(rules):
    g = begin(rules, HEAVEN, HEAVEN_GIFTS, extra="3p")
    dealer = g.st.seats[0]
    # it gave away its last dealt tile (3筒): its first turn starts with the last tile it received
    assert dealer.drawn.name == "9万" and g.current_seats() == [0]
    g.apply(0, move(g, 0, "自摸"))
    assert fans(g, 0) == ["平胡", "天胡"] and g.st.results[0]["score"] == 16  # 天胡: the cap, 4 番
    assert pays(g) == [("自摸", 1, 0, 17), ("自摸", 2, 0, 17), ("自摸", 3, 0, 17)]


# ---------------------------------------------------------------------- the exhaustive draw

DRAWN = ["147s 258s 369s 1m 9m 66m 8m", "123m 456m 789m 234m 5m", "147s 258s 369s 1m 5m 7m 9m",
         "11p 1s 1s 2s 2s 4s 4s 5s 5s 7s 7s 8s"]
DRAWN_GIFTS = ["789m", "258s", "124s", "147s"]


def play_out(g: Game) -> None:
    """Every seat discards the tile it drew (or passes on what it is offered) until the hand is over."""
    while not g.is_over():
        for s in g.current_seats():
            ms = g.legal_moves(s)
            drawn = g.st.seats[s].drawn
            own = [m for m in ms if m.action == "discard" and drawn is not None and m.tiles == (drawn.name,)]
            g.apply(s, own[0] if own else next(m for m in ms if m.action in ("pass", "discard")))


def test_at_an_exhaustive_draw_the_flower_pig_and_the_players_not_ready_pay(rules):
    dealt = Counter(codes(" ".join(DRAWN)))
    rest = Counter({f"{r}{s}": 4 for r in range(1, 10) for s in "msp"}) - dealt
    pig = [f"{r}p" for r in range(2, 10) for _ in range(2)][:14]  # seat 3 draws 筒 only
    others = sorted((rest - Counter(pig)).elements())
    draws = []
    for i in range(55):  # the draws go to seats 1, 2, 3, 0, 1, … while nobody claims
        draws.append(pig.pop(0) if i % 4 == 2 else others.pop(0))
    g = begin(rules, DRAWN, DRAWN_GIFTS, draws=" ".join(d[0] + d[1] for d in draws), extra="8m")
    g.apply(0, move(g, 0, "discard", "8m"))
    play_out(g)
    st = g.st
    assert st.exhausted and st.winners == [] and g.st.seats[3].vars["定缺"] is not None
    assert hand(g, 3)["1筒"] == 2  # still holds 筒, its missing suit: a 花猪
    assert [bool(g.waits(st.seats[s])) for s in range(4)][:3] == [False, True, False]
    # 查花猪: the pig pays each of the others the cap (2^4); 查大叫: every player not ready (the pig too)
    # pays seat 1 the best it could win on a discard (清一色 on 2万 or 5万: 2 番, 4)
    assert g.best_win(st.seats[1], False).result.score == 4
    assert pays(g) == [("查花猪", 3, 0, 16), ("查花猪", 3, 1, 16), ("查花猪", 3, 2, 16),
                       ("查大叫", 0, 1, 4), ("查大叫", 2, 1, 4), ("查大叫", 3, 1, 4)]
    assert g.result()["deltas"] == [12, 28, 12, -52]
    assert g.check_invariants() == []


# ---------------------------------------------------------------------- seeded games

KINDS = Counter({f"{r}{SUIT[s]}": 4 for r in range(1, 10) for s in "msp"})
KONG_PAYMENTS = ("刮风", "下雨")


def lacks(g: Game, s: int) -> bool:
    """Seat s holds no tile of the suit it chose to miss (not a 花猪)."""
    seat = g.st.seats[s]
    suit = seat.vars["定缺"]
    return suit is not None and all(t.suit != suit for t in seat.hand)


def play(rules: Rules, seed: int, bots: str):
    session = Session(rules, {}, seed, 1)
    g = session.new_hand()
    players = [BOTS[bots](seed * 31 + i) for i in range(4)]
    steps = []
    passed = None
    while not g.is_over():
        s = g.current_seats()[0]
        mv = players[s].choose(g, s, g.legal_moves(s))
        paid, playing = len(g.st.payments), [i for i in range(4) if g.in_play(i)]
        g.apply(s, mv)
        assert g.st.tiles_everywhere() == KINDS  # 108 tiles, 4 of each kind, after every move
        if passed is None and all(g.st.seats[i].vars["换出"] for i in range(4)):
            passed = [Counter(t.name for t in g.st.seats[i].hand) for i in range(4)]
        steps.append((s, playing, g.st.payments[paid:]))
    session.finish(g)
    return session, g, steps, passed


@pytest.mark.parametrize("seed,bots", [(s, b) for s in range(1, 7) for b in ("greedy", "mixed", "random")])
def test_seeded_games_keep_every_tile_and_the_rules_and_replay(rules, seed, bots, tmp_path):
    session, g, steps, passed = play(rules, seed, bots)
    st = g.st
    assert g.check_invariants() == [] and g.violations == [] and g.errors == []
    # 换三张: three tiles of one suit from each seat, arrived at the seat the dice name
    step = {1: 1, 2: 2, 0: 3}[st.table["点数"] % 3]
    for s in range(4):
        given = [t.name for t in st.seats[s].vars["换出"]]
        assert len(given) == 3 and len({t[-1] for t in given}) == 1
        assert Counter(given) <= passed[(s + step) % 4]
    assert all(st.seats[s].vars["定缺"] is not None for s in range(4))
    for seat, playing, new in steps:
        assert seat in playing  # a seat that has left is asked nothing
        for p in new:
            if p.name in KONG_PAYMENTS or p.name == "自摸":  # paid by the players still in the hand
                assert p.payer in playing
            if p.name == "点炮":
                assert p.payer == g.infos[p.payee].discarder
    # each winner won without a tile of the suit it misses, and was paid its own score when it won
    for w in st.winners:
        assert lacks(g, w) and st.results[w]["tile"][-1] != str(st.seats[w].vars["定缺"])
        score = st.results[w]["score"]
        mine = [p for p in st.payments if p.payee == w and p.event == "win"]
        assert mine and all(p.amount == score + (1 if st.results[w]["self_drawn"] else 0) for p in mine)
    # the end: three winners, or the wall ran out
    assert st.finished and (len(st.winners) == 3 or st.exhausted) and len(st.winners) <= 3
    if st.exhausted:  # 查花猪 and 查大叫 among the players still in the hand, as the rules say
        playing = [s for s in range(4) if s not in st.winners]
        pig = {s for s in playing if not lacks(g, s)}
        ready = {s for s in playing if s not in pig and g.waits(st.seats[s])}
        assert sorted((p.payer, p.payee, p.amount) for p in st.payments if p.name == "查花猪") == sorted(
            (a, b, 16) for a in pig for b in playing if b not in pig)
        assert sorted((p.payer, p.payee, p.amount) for p in st.payments if p.name == "查大叫") == sorted(
            (a, b, g.best_win(st.seats[b], False).result.score) for a in playing if a not in ready for b in ready)
    else:
        assert not [p for p in st.payments if p.name in ("查花猪", "查大叫")]
    # logs replay exactly; a snapshot restores the same state
    path = tmp_path / "hand.jsonl"
    gamelog.write(path, session, "xuezhan")
    gamelog.replay(path, rules)
    again = Game.restore(rules, json.loads(json.dumps(g.snapshot(), ensure_ascii=False)))
    assert again.snapshot() == g.snapshot()


def test_random_games_end(rules):
    for seed in range(20, 40):
        g = Game(rules, {}, seed)
        bots = [BOTS["random"](seed + i) for i in range(4)]
        for _ in range(2000):
            if g.is_over():
                break
            s = g.current_seats()[0]
            g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
        assert g.is_over() and g.check_invariants() == []


def test_a_person_can_play_it_in_the_terminal(rules):
    import io

    from paili.runtime.game.play import play_terminal

    out = io.StringIO()
    assert play_terminal(rules, {}, seat=0, seed=4, inp=io.StringIO("1\n" * 400), out=out) in (0, 1)
    text = out.getvalue()
    assert "掷出 点数：" in text and "你换三张：交出 " in text and "定缺" in text


def test_the_page_says_each_rule_in_chinese():
    from paili.dsl.pages.site import render_variant

    md = render_variant(FILE).md
    for text in ("- **选牌**：从自己手里选出3张牌",
                 "- **同时**：各家同时选择；所有人都选好后才一起生效，选好之前谁也看不到别人选了什么",
                 "- **可选条件**：所选的牌中每两项都花色相同",  # `choice` written as what it is: tiles
                 "- **交牌**：把所选的牌交给行动者之后的第「换牌方向」家",
                 "- **随机**：「点数」从1、2、3、4、5、6中随机取一个，取两次相加",
                 "- **可选**：万、条、筒",
                 "直到和牌的各家的个数 ≥ 3、只剩一位玩家还在局中或牌墙摸完时本局结束",
                 "「暗杠」时，还在局中的每位玩家付给做这个动作的玩家：2 × 底分。",
                 "底分 × 收分者所听的牌别人打出时能和到的最大得分"):
        assert text in md, text
    assert "所选的倍数" not in md
