"""Wins that do not end the hand (issue 14, point 4): tests/rules/continuing.pai declares `table {
winners_leave true; ends_when = len(winners) >= 3 }`. Rigged walls show who leaves, who draws next, the
payments of each win at the moment it is made (一炮多响 included), that a seat that left is asked
nothing, the end condition and the next dealer; seeded bot games keep the invariants, pay 查叫 only
among the players still in the hand, and replay exactly (log, snapshot, clone)."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file, compile_text
from paili.runtime.game import Game, Move
from paili.runtime.game import log as gamelog
from paili.runtime.game.bots import BOTS
from paili.runtime.game.session import Session
from paili.runtime.ir.serialize import FormatError, dumps, loads
from paili.runtime.rules import Rules


@pytest.fixture(scope="module")
def rules() -> Rules:
    res = compile_file(ROOT / "tests" / "rules" / "continuing.pai", examples=True)
    assert res.ok, res.render()
    return Rules(res.ruleset)


def names(r: Rules, text: str) -> tuple[str, ...]:
    return tuple(r.notation.parse(text))


def move(g: Game, seat: int, action: str, tiles: str | None = None) -> Move:
    want = sorted(names(g.rules, tiles)) if tiles else None
    for m in g.legal_moves(seat):
        if m.action == action and (want is None or sorted(m.tiles) == want):
            return m
    raise AssertionError(f"seat {seat} has no legal {action} {tiles or ''}: {list(map(str, g.legal_moves(seat)))}")


def pays(g: Game) -> list[tuple[str, int, int, int]]:
    return [(p.name, p.payer, p.payee, p.amount) for p in g.st.payments]


# Hands are dealt in play order from the dealer (seat 0): the dealer's 13, seat 1's, seat 2's, seat 3's,
# then the dealer's extra tile; the tiles after that are the draws.

def test_a_multiple_win_settles_each_winner_and_play_goes_on_after_the_last(rules):
    dealer, extra = "5p5m5m9m9s9s9s8s8s4s5s3p4p", "1s"
    seat1 = "123m456m789m123s5p"  # waits on 5p
    seat2 = "123p789p234m678m6s"  # waits on 6s
    seat3 = "234s567s789p11m55p"  # waits on 1m and 5p
    g = Game(rules, {}, 3, dealer=0, wall=[dealer + seat1 + seat2 + seat3 + extra + "1m" + "6s"])
    assert g.current_seats() == [0]
    g.apply(0, move(g, 0, "discard", "5p"))
    assert g.current_seats() == [1, 3]  # seat 3 may also pung: both are asked at once
    g.apply(1, move(g, 1, "胡"))
    g.apply(3, move(g, 3, "胡"))
    # both wins stand (multiple), each paid with its own score at once; the hand goes on
    assert g.st.winners == [1, 3] and g.st.first_winners == [1, 3]
    assert not g.is_over() and not g.st.finished
    assert pays(g) == [("点炮", 0, 1, 1), ("点炮", 0, 3, 1)]
    assert g.result()["scores"][1]["score"] == 1 and g.result()["scores"][3]["score"] == 1
    # play goes on from the seat after the last winner from the discarder (3): the dealer draws 1m
    assert g.current_seats() == [0] and g.st.seats[0].drawn.name == names(rules, "1m")[0]
    seen = g.observation(0)["seats"]
    assert [s["in_play"] for s in seen] == [True, False, True, False]
    hands = {s: list(g.st.seats[s].hand) for s in (1, 3)}
    # seat 3 (left) waits on 1m, but is not asked: nobody may claim, and seat 2 (in play) draws next
    g.apply(0, move(g, 0, "discard", "1m"))
    assert g.current_seats() == [2]
    assert {m.action for m in g.legal_moves(2)} >= {"自摸", "discard"}
    g.apply(2, move(g, 2, "自摸"))
    # the third winner ends the hand (ends_when); 自摸 is paid by the players still in the hand: the dealer
    assert g.is_over() and g.st.finished and not g.st.exhausted
    assert g.st.winners == [1, 3, 2]
    assert pays(g) == [("点炮", 0, 1, 1), ("点炮", 0, 3, 1), ("自摸", 0, 2, 2)]
    assert {s: list(g.st.seats[s].hand) for s in (1, 3)} == hands  # the seats that left drew nothing
    res = g.result()
    assert res["deltas"] == [-4, 1, 2, 1] and res["first_winners"] == [1, 3]
    assert res["next_dealer"] == 0  # the first win was a multiple win: its discarder deals
    assert g.check_invariants() == []


def test_a_single_win_passes_play_to_the_winners_next_seat_and_left_seats_pay_no_kong(rules):
    dealer, extra = "5p9s9s9s1p3p6p8p2s4s6s7m9m", "5m"
    seat1 = "2p4p7p9p3s5s7s8s1m3m6m8m4p"
    seat2 = "123m456m789m123s5p"  # waits on 5p
    seat3 = "2m4m6m9m1s4s6s7s1p3p6p8p7p"
    g = Game(rules, {}, 5, dealer=0, wall=[dealer + seat1 + seat2 + seat3 + extra + "9s" + "8s" + "3m"],
             tail=["2p"])
    g.apply(0, move(g, 0, "discard", "5p"))
    assert g.current_seats() == [2]
    g.apply(2, move(g, 2, "胡"))
    assert pays(g) == [("点炮", 0, 2, 1)] and g.st.winners == [2] and not g.is_over()
    # the winner's next seat draws (seat 1, between the discarder and the winner, is passed over)
    assert g.current_seats() == [3] and g.st.seats[3].drawn.name == names(rules, "9s")[0]
    g.apply(3, move(g, 3, "discard", "9s"))
    assert g.current_seats() == [0]
    g.apply(0, move(g, 0, "明杠", "9s9s9s9s"))
    # the kong is paid by every player still in the hand but the kong's maker: seats 1 and 3, not 2
    assert pays(g)[1:] == [("杠", 1, 0, 2), ("杠", 3, 0, 2)]
    assert g.current_seats() == [0] and g.st.seats[0].drawn.name == names(rules, "2p")[0]
    g.apply(0, move(g, 0, "discard", "2p"))
    assert g.current_seats() == [1]
    g.apply(1, move(g, 1, "discard", "8s"))
    assert g.current_seats() == [3]  # seat 2 has left: seat 3 draws after seat 1
    assert g.st.seats[3].drawn.name == names(rules, "3m")[0]
    assert g.check_invariants() == []


def test_a_dealer_who_wins_first_alone_deals_again(rules):
    dealer, extra = "123m456m789m123s5p", "5p"  # the dealer's fourteen win at once
    others = "2p4p7p9p3s5s7s8s1m3m6m8m4p" + "1p3p6p8p2s4s6s7m9m9s9s9s5m" + "2m4m6m9m1s4s6s7s1p3p6p8p7p"
    g = Game(rules, {}, 7, dealer=0, wall=[dealer + others + extra + "1s2s3s"])
    g.apply(0, move(g, 0, "自摸"))
    assert g.st.winners == [0] and not g.is_over()
    # every player still in the hand paid the dealer's 自摸, and seat 1 draws
    assert pays(g) == [("自摸", 1, 0, 2), ("自摸", 2, 0, 2), ("自摸", 3, 0, 2)]
    assert g.current_seats() == [1]
    env = g.env()
    assert [s.index for s in env["builtin:in_play"]] == [1, 2, 3]


def _play(rules: Rules, seed: int, bots: str):
    session = Session(rules, {}, seed, 1)
    g = session.new_hand()
    players = [BOTS[bots](seed * 31 + i) for i in range(g.n)]
    steps = []
    while not g.is_over():
        seat = g.current_seats()[0]
        left = [s for s in g.st.winners]
        mv = players[seat].choose(g, seat, g.legal_moves(seat))
        before = len(g.st.payments), list(g.st.winners)
        g.apply(seat, mv)
        steps.append((seat, left, before, list(g.st.winners), g.st.payments[before[0]:]))
    session.finish(g)
    return session, g, steps


@pytest.mark.parametrize("seed,bots", [(s, b) for s in range(1, 9) for b in ("greedy", "mixed", "random")])
def test_seeded_games_keep_the_rules_and_replay(rules, seed, bots, tmp_path):
    session, g, steps = _play(rules, seed, bots)
    st = g.st
    assert g.check_invariants() == [] and g.violations == []
    for seat, left, (_, won_before), won_after, new in steps:
        # a seat that had left was asked nothing while play went on
        assert seat not in left
        # a kong is paid by the players still in the hand only
        assert all(p.payer not in won_before for p in new if p.name == "杠")
        # every win was paid when it was made, with its own score, by the seats the payment names
        for w in won_after[len(won_before):]:
            score = st.results[w]["score"]
            mine = [p for p in new if p.payee == w and p.event == "win"]
            assert mine and all(p.amount == score for p in mine)
            if st.results[w]["self_drawn"]:
                assert sorted(p.payer for p in mine) == [s for s in range(4) if s not in won_after]
            else:
                assert [p.payer for p in mine] == [g.infos[w].discarder]
    # the end: three winners, or the wall ran out (then nobody else had won a third time)
    assert st.finished and (len(st.winners) >= 3 or st.exhausted)
    assert len(st.winners) <= 3 and len(set(st.winners)) == len(st.winners)
    chajiao = [(p.payer, p.payee) for p in st.payments if p.name == "查叫"]
    if st.exhausted:
        playing = [s for s in st.seats if s.index not in st.winners]
        expected = sorted((a.index, b.index) for a in playing for b in playing
                          if a is not b and not g.waits(a) and g.waits(b))
        assert sorted(chajiao) == expected
    else:
        assert chajiao == []
    nd = g.result()["next_dealer"]
    if not st.winners:
        assert nd == st.dealer
    elif len(st.first_winners) > 1:
        assert nd == st.discarder
    else:
        assert nd == st.first_winners[0]
    # logs replay exactly; a snapshot restores and a clone plays on as the original
    path = tmp_path / "hand.jsonl"
    gamelog.write(path, session, "continuing")
    gamelog.replay(path, rules)
    again = Game.restore(rules, json.loads(json.dumps(g.snapshot())))
    assert again.snapshot() == g.snapshot()


@pytest.mark.parametrize("seed", [2, 4])
def test_a_clone_mid_hand_after_a_win_plays_on_as_the_original(rules, seed):
    g = Game(rules, {}, seed)
    bots = [BOTS["greedy"](seed * 7 + i) for i in range(4)]
    while not g.is_over() and not g.st.winners:
        s = g.current_seats()[0]
        g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
    assert not g.is_over(), "the seed should give a first win that does not end the hand"
    copy = g.clone()
    snap = Game.restore(rules, g.snapshot())
    for game in (g, copy, snap):
        bs = [BOTS["greedy"](seed * 11 + i) for i in range(4)]
        while not game.is_over():
            s = game.current_seats()[0]
            game.apply(s, bs[s].choose(game, s, game.legal_moves(s)))
    assert copy.result() == g.result() == snap.result()
    assert copy.snapshot()["winners"] == g.snapshot()["winners"]


def test_the_seeded_games_reach_both_ends(rules):
    """The seeds above are worth their time: the greedy games end by a third winner, by the wall run out
    after wins and by the wall run out with no win."""
    ends = set()
    for seed in range(1, 9):
        _, g, _ = _play(rules, seed, "greedy")
        ends.add("three" if len(g.st.winners) == 3 else "wall after wins" if g.st.winners else "wall")
    assert ends == {"three", "wall after wins", "wall"}


# ---------------------------------------------------------------------- the checker

SOURCE = (ROOT / "tests" / "rules" / "continuing.pai").read_text(encoding="utf-8")
ENDS = "  ends_when = len(winners) >= 3\n"


def _errors(text: str) -> list[tuple[str, int, int, str]]:
    res = compile_text(text, "continuing.pai")
    return [(d.code, d.span.line, d.span.col, d.message) for d in res.diagnostics if d.is_error]


def _line_col(text: str, needle: str) -> tuple[int, int]:
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def test_ends_when_without_winners_leave_is_refused_where_it_is_written():
    text = SOURCE.replace("  winners_leave true\n", "")
    [(code, line, col, message)] = _errors(text)
    assert (code, (line, col)) == ("E203", _line_col(text, "len(winners) >= 3"))
    assert "winners_leave true" in message


@pytest.mark.parametrize("cond, code, needle", [
    ("score > 2", "E510", "score"),
    ("len(melds) > 0", "E510", "melds"),
    ("len(in_play) + 1", "E401", "len(in_play) + 1"),
])
def test_ends_when_is_a_condition_on_the_hand_as_a_whole(cond, code, needle):
    text = SOURCE.replace(ENDS, f"  ends_when = {cond}\n")
    errors = _errors(text)
    assert [(c, (ln, col)) for c, ln, col, _ in errors] == [(code, _line_col(text, needle))]


def test_the_players_still_in_the_hand_are_words_and_names_of_the_language():
    text = SOURCE.replace(ENDS, "  ends_when = len(in_play) <= 1 or len(first_winners) > 1\n")
    text += "state player 留 bool = false\non settled { when actor.in_play; set actor.留 = true }\n"
    assert _errors(text) == []
    text = SOURCE.replace("from each_in_play; to winner", "from each_still; to winner")
    assert [c for c, *_ in _errors(text)] == ["E204"]


def test_a_compiled_rule_set_keeps_the_construct_and_is_checked_on_load(rules):
    again = loads(dumps(rules.ir))
    assert again.table.winners_leave and dumps(again) == dumps(rules.ir)
    data = json.loads(dumps(rules.ir))
    del data["ruleset"]["table"]["winners_leave"]
    with pytest.raises(FormatError, match="winners_leave"):
        loads(json.dumps(data))


def test_paili_play_tells_each_win_when_it_is_made_and_marks_the_seats_that_left(rules):
    import io

    from paili.runtime.game.play import play_terminal

    out = io.StringIO()
    assert play_terminal(rules, {}, seat=0, seed=1, inp=io.StringIO("1\n" * 400), out=out) == 0
    text = out.getvalue()
    first = text.index("3号位 胡 3万")  # seed 1: seat 3 wins on the dealer's discard, the others play on
    assert text.index("3号位和牌离场，其余的人接着打。") > first
    assert "3号位  余额 999  手牌 10 张  已和牌离场" in text[first:]
    assert "已和牌离场" not in text[:first]
    assert text.count("3号位 胡 3万") == 1  # told once, not again with the result
    assert "点炮：1号位（庄） 付 3号位 1" in text


def test_the_help_page_says_that_a_win_does_not_end_the_hand():
    from paili.dsl.pages.site import render_variant

    md = render_variant(ROOT / "tests" / "rules" / "continuing.pai").md
    assert "- **和牌之后**：玩家和牌时本局并不结束：赢家离场，不再抓牌、出牌" in md
    assert "直到和牌的各家的个数 ≥ 3、只剩一位玩家还在局中或牌墙摸完时本局结束" in md
    assert "和牌时，还在局中的每位玩家付给赢家：得分（条件：自己摸到）" in md
    assert "第一次和牌的各家的个数 ＞ 1时，由打出这张牌的人坐庄" in md
