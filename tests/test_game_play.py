"""`paili play`: a person at one seat, bots at the others, everything in Chinese from the seat's own view."""
from __future__ import annotations

import io
from fractions import Fraction

import pytest
from paili import load
from paili.dsl.cli import main
from paili.runtime.game.play import amount, parse_choice, play_terminal
from paili.runtime.game.session import Session

RULES = "rules/baijindao.pai"


@pytest.fixture(scope="module")
def bjd():
    return load(RULES)


def first_move_always(n=2000) -> io.StringIO:
    return io.StringIO("1\n" * n)


def test_a_whole_hand_played_by_numbers_ends_with_the_result_and_balances(bjd):
    out = io.StringIO()
    rc = play_terminal(bjd, {}, seat=0, seed=5, inp=first_move_always(), out=out)
    text = out.getvalue()
    assert rc == 0
    assert "白金岛二人麻将 — 你坐 0 号位；种子 5" in text
    assert "你的手牌：" in text and "轮到你：" in text and "1. 打出 " in text
    assert "余额：" in text.splitlines()[-1]
    # The same seed and the same answers give the same game: the person's seat plays like a replayed log.
    again = io.StringIO()
    play_terminal(bjd, {}, seat=0, seed=5, inp=first_move_always(), out=again)
    assert again.getvalue() == text


def test_the_terminal_game_equals_the_engine_game_with_the_same_choices(bjd):
    """Choosing move 1 at every question at seat 0 is exactly a session whose seat 0 always takes the first move."""
    out = io.StringIO()
    play_terminal(bjd, {}, seat=0, seed=11, bots="random", inp=first_move_always(), out=out)

    from paili.runtime.game.bots import RandomBot

    class First:
        def choose(self, game, seat, moves):
            return moves[0]

    s = Session(bjd, {}, 11, 1)
    g = s.new_hand()
    bots = [First(), RandomBot(g.seed * 31 + 1)]
    while not g.is_over():
        seat = g.current_seats()[0]
        g.apply(seat, bots[seat].choose(g, seat, g.legal_moves(seat)))
    balances = "，".join(f"{'你' if i == 0 else f'{i}号位'}{'（庄）' if i == g.st.dealer else ''} {amount(b)}"
                        for i, b in enumerate(g.result()["balances"]))
    assert out.getvalue().splitlines()[-1] == f"余额：{balances}"


def test_bad_input_gets_one_sentence_and_the_question_again(bjd):
    out = io.StringIO()
    rc = play_terminal(bjd, {}, seat=0, seed=5, inp=io.StringIO("abc\n99\n\n?\nq\n"), out=out)
    text = out.getvalue()
    assert rc == 1
    assert "看不懂“abc”：请输入编号、列出的操作，或要打出的牌。" in text
    assert "没有第 99 项：请输入 1 到" in text
    assert "查看可选的操作" in text
    assert text.rstrip().endswith("对局结束（未打完）。")


def test_end_of_input_ends_the_game_cleanly(bjd):
    out = io.StringIO()
    assert play_terminal(bjd, {}, seat=1, seed=2, inp=io.StringIO(""), out=out) == 1
    assert "对局结束（未打完）" in out.getvalue()


def test_a_discard_can_be_named_by_tile_name_or_code(bjd):
    g = Session(bjd, {}, 5, 1).new_hand()
    seat = g.current_seats()[0]
    moves = g.legal_moves(seat)
    discard = next(m for m in moves if m.action == "discard")
    tile = g.cat.by_name[discard.tiles[0]]
    assert parse_choice(tile.name, moves, g.cat) == (discard, "")
    assert parse_choice(tile.code, moves, g.cat) == (discard, "")
    assert parse_choice(f"打出 {tile.name}", moves, g.cat) == (discard, "")
    held = {m.tiles[0] for m in moves if m.action == "discard"}
    other = next(t for t in g.cat.by_name.values() if t.name not in held)
    assert parse_choice(other.name, moves, g.cat) == (None, f"现在不能打出{other.name}。")


def test_the_terminal_shows_the_other_hand_only_when_a_rule_shows_it(bjd):
    """白金岛: "只有听牌（报听）的情况下才能看见对方的手牌。" The terminal shows what the observation shows."""
    from paili.runtime.game.play import Terminal

    g = Session(bjd, {}, 8, 1, backend="python").new_hand()  # (the state is set by hand below: the Python game's)
    other = g.st.seats[1]
    concealed = " ".join(sorted((t.name for t in other.hand), key=lambda n: g.cat.by_name[n].index))

    def table() -> str:
        out = io.StringIO()
        Terminal(0, io.StringIO(), out).show_table(g)
        return out.getvalue()

    assert concealed not in table() and "亮明的手牌" not in table()
    g.st.seats[0].vars["已报听"] = True  # the viewer has declared ready
    assert f"亮明的手牌：{concealed}" in table()


def test_odd_digits_and_bad_hand_counts_are_answered_in_one_sentence(bjd, capsys, monkeypatch):
    g = Session(bjd, {}, 5, 1).new_hand()
    moves = g.legal_moves(g.current_seats()[0])
    assert parse_choice("²", moves, g.cat) == (None, "看不懂“²”：请输入编号、列出的操作，或要打出的牌。")
    assert parse_choice("１", moves, g.cat) == (moves[0], "")  # full-width digits, as a Chinese keyboard types
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "baijindao", "--hands", "0"]) == 2
    assert capsys.readouterr().err.strip() == "error: --hands must be at least 1, not 0"


def test_amounts_read_as_decimals():
    assert amount("11659/10") == "1165.9"
    assert amount(Fraction(42)) == "42"
    assert amount(7) == "7"
    # exact, never rounded: 白金岛's 1.25% fee on 5 leaves the winner 1004.9375 (it was shown as 1004.94,
    # so the balances and the fee did not add up); a fraction with no finite decimal stays a fraction
    assert amount("16079/16") == "1004.9375" and amount(Fraction(1, 16)) == "0.0625"
    assert amount("-237/80") == "-2.9625" and amount(Fraction(-1, 20)) == "-0.05"
    assert amount(Fraction(1, 3)) == "1/3" and amount("-7/6") == "-7/6"


def test_an_action_name_of_many_listed_moves_is_answered_within_80_columns(bjd):
    """Typed alone, an action with several listed moves (every discard) is answered with their numbers, as
    ranges, in one line of at most 80 columns (the 14 discards of a full hand were 83)."""
    from paili.runtime.game.moves import Move
    from paili.runtime.game.play import cells

    moves = [Move("discard", (k.name,)) for k in bjd.catalog.kinds[:16]] + [Move("pass")]
    text, said = parse_choice("打出", moves, None)
    assert text is None and said == "“打出”有 16 种（第 1～16 项）：请输入编号。"
    kong = Move("暗杠", ("东",) * 4)
    mixed = moves[:2] + [kong] + moves[2:7] + [kong] + moves[7:14]
    assert parse_choice("打出", mixed, None)[1] == "“打出”有 14 种（第 1、2、4～8、10～16 项）：请输入编号。"
    # numbers too many to list in a line: only how many
    apart = [m for d in moves[:16] for m in (d, kong)]
    assert parse_choice("打出", apart, None)[1] == "“打出”有 16 种：请输入编号。"
    assert all(cells(parse_choice("打出", x, None)[1]) <= 80 for x in (moves, mixed, apart))


def test_play_command_refuses_a_seat_the_game_does_not_have(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "baijindao", "--seat", "7", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: this game has seats 0 to 1, so --seat 7 is not one of them"


def test_play_command_with_scripted_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", first_move_always())
    assert main(["play", "longyan", "--seat", "2", "--seed", "3", "--set", "人数=3", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("龙岩麻将 — 你坐 2 号位；种子 3")
    assert "=== 第 1 局 ===" in out and "=== 第 2 局 ===" in out
    # three seats, so nobody is called seat 3
    assert "3号位" not in out and "0号位" in out and "1号位" in out
