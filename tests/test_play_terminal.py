"""`paili play` in a real terminal (pexpect, 80 columns): a hand of each bundled variant played through the
command line by a scripted player (tests/play_policy.py), checking issue #16 point 5 in the transcript:
one listed move per distinct choice, a claim told only when it wins its window (the player is told when
theirs lost), moves made without a question shown, wildcards marked, bare action names accepted, the win
shown before the winner's follow-up choices with the values its score is made of, the variant's own word
for a win, cards in their players' characters, every line within 80 columns."""
from __future__ import annotations

import os
import re
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game.play import cells
from play_policy import answer, listed_moves

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra (pip install -e '.[test]')")

PROMPT = "你的选择> "
# how the terminal calls a seat: 你, a seat's number, or the name the rules give it (国标's seat winds)
SEAT = r"(?:你|\d号位|[东南西北]家)"


def play(variant: str, seed: int, prefer: list[str]) -> str:
    """The whole transcript of one hand, the player at seat 0 answering by `prefer`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT.parent), os.environ.get("PYTHONPATH", "")]),
               COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "paili", "play", variant, "--seed", str(seed)], cwd=str(ROOT),
                          env=env, encoding="utf-8", dimensions=(24, 80), timeout=60)
    screen = ""
    for _ in range(400):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            screen += child.before
            break
        screen += child.before + PROMPT
        child.sendline(answer(screen, prefer))
    child.close()
    assert child.exitstatus == 0, screen[-2000:]
    return screen.replace("\r\n", "\n")


def win_words(variant: str) -> list[str]:
    return [a.name for a in load(variant).ir.actions if a.wins]


def check_common(variant: str, text: str) -> None:
    assert "Traceback" not in text and "看不懂" not in text and "没有第" not in text
    for line in text.splitlines():
        assert cells(line) <= 80, f"{cells(line)} columns: {line}"
    # one listed move per distinct choice, at every question
    for block in text.split(PROMPT)[:-1]:
        shown = [t for _, _, t in listed_moves(block)]
        assert shown and len(shown) == len(set(shown)), shown
    # a claim told with its tiles is on the table the next time it is shown: told only when it was taken
    for told in re.finditer(rf"^({SEAT})(（庄）)?：(\S+) (\S+)$", text, re.M):
        if told.group(3) in ("打出", "翻出") or told.group(4).endswith("（自动）"):
            continue
        rest = text[told.end():]
        if "\n—— " not in rest:  # the hand ended before the table was shown again
            continue
        table = rest.split("\n—— ", 1)[1].split("你的手牌：", 1)[0]
        seat = re.search(rf"^{re.escape(told.group(1))}(（庄）)?  余额.*\n((?:    .*\n)*)", table, re.M)
        assert seat and f":{told.group(4)}" in seat.group(2), told.group(0)
    # the win is called by the winning action's own name, before the payments
    words = "|".join(map(re.escape, win_words(variant)))
    win = re.search(rf"^({SEAT})(（庄）)? ({words})(（自己摸到）)? \S+，", text, re.M)
    assert win, text[-1500:]
    assert win.start() < text.rindex("余额：")
    assert not re.search(rf"^({SEAT})(（庄）)? 和牌", text, re.M)  # the engine's word of old, in every variant


def test_baijindao_ready_plays_itself_and_the_win_comes_before_the_doubling_choice():
    text = play("baijindao", 49, ["胡", "报听"])
    check_common("baijindao", text)
    # bare action names: 报听 and 胡 typed alone, each the only listed move of its action
    assert f"{PROMPT}报听\n" in text and f"{PROMPT}胡\n" in text
    # after 报听 (`then auto`) the engine discards for the player: each such discard is told
    ready = text.index(f"{PROMPT}报听\n")
    auto = re.findall(r"^你：打出 \S+（自动）$", text[ready:], re.M)
    assert auto and "托管" in text[ready:]
    # 起始加倍 (`on hand_end`, by the winner) is asked only after the win is shown, with the values its
    # score is the product of (score = 房间倍率 × 番 × 2^加倍次数 × 起始加倍 × 任务加倍)
    won = text.index("\n你 胡 ")
    assert won < text.index("起始加倍（2）")
    values = re.search(r"得分由：(.*) 算出 (\d+)", text[won:]).group(1)
    for name in ("房间倍率", "番", "加倍次数", "起始加倍", "任务加倍"):
        assert f"{name} " in values


def test_chehuzi_cards_in_characters_wildcards_marked_and_a_lost_claim_told_as_lost():
    text = play("chehuzi", 1, ["胡", "吃"])
    check_common("chehuzi", text)
    # cards as the players write them (the suits' chars): 壹…拾 and 一…十, never `8大`
    assert not re.search(r"\d+[大小]", text)
    assert "壹" in text and "一" in text
    # the joker is the wildcard: marked, and said which
    assert "王*" in text and "带 * 的是王" in text
    # 跑 ranks above 吃 (`priority`), so the player's 吃 of the turned 壹 loses to seat 1's 跑
    assert re.search(r"^你的吃 \S+ \[\S+\]没有成立：1号位的跑优先。$", text, re.M)
    assert re.search(r"^1号位：跑 壹壹壹壹$", text, re.M)
    # a drawn card is turned face up for all: told as turned, not as a discard
    assert re.search(r"^\d号位：翻出 \S+$", text, re.M)
    # a compulsory meld made without a question is shown
    assert re.search(r"^\d号位：\S+（\d张暗）（自动）$", text, re.M)
    assert f"{PROMPT}胡\n" in text
    # the card turned after the win (醒牌), which the score counts (醒), is shown with the win, before the
    # payments: the table is not shown again
    won = re.search(r"^(你|\d号位)(（庄）)? 胡\S* \S+，.*\n((?:    .*\n)*)", text, re.M)
    assert "醒 " in won.group(3) and re.match(r"亮出：醒牌 [一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾]\n",
                                               text[won.end():])


def test_a_win_on_a_drawn_tile_only_is_not_said_twice():
    """龙岩's 自摸 is declared `win_tile drawn`: its name already says the tile was drawn."""
    text = play("longyan", 1, ["自摸", "碰"])
    assert re.search(r"^\d号位(（庄）)? 自摸 \S+，", text, re.M) and "自摸（自己摸到）" not in text


def test_guobiao_win_called_by_its_own_action():
    text = play("guobiao", 1, ["自摸和", "点和", "抢和", "碰"])
    check_common("guobiao", text)
    # the seats by the names the rules give them (`table { seat_names }`), never by number
    # (the first line says which seat the player takes, by number: its name changes with the dealer)
    assert re.search(r"^[东南西北]家(（庄）)? 点和 \S+，", text, re.M) and "号位" not in text.split("\n", 1)[1]


def test_longyan_gold_marked():
    text = play("longyan", 1, ["自摸", "碰"])
    check_common("longyan", text)
    gold = re.search(r"^亮出：金牌 (\S+)\*$", text, re.M).group(1)
    assert f"带 * 的是金：{gold}*" in text
    # the gold is marked wherever it is written, never bare
    assert not re.search(rf"(^|[ ：]){re.escape(gold)}($|[ ，])", text, re.M)
    assert f"{PROMPT}碰\n" in text


def test_baicheng_bao_marked_and_bare_peng():
    text = play("baicheng", 1, ["胡", "自摸", "碰"])
    check_common("baicheng", text)
    assert re.search(r"^带 \* 的是宝：\S+\*$", text, re.M)
    assert f"{PROMPT}碰\n" in text


def test_chehuzi_a_bot_claim_that_lost_to_a_win_is_not_told():
    """胡 ranks above 碰 (`priority`): the turned 捌 that seat 1 wins with is also claimed by seat 2's 碰,
    which is not told."""
    text = play("chehuzi", 14, ["胡", "吃"])
    check_common("chehuzi", text)
    turned = text.index("1号位（庄）：翻出 捌\n")
    after = text[turned:]
    assert after.startswith("1号位（庄）：翻出 捌\n1号位（庄）：胡\n")
    assert not re.search(r"^2号位：碰", after, re.M)
    assert re.search(r"^你的吃 \S+ \[\S+\]没有成立：1号位（庄）的碰优先。$", text, re.M)


@pytest.mark.parametrize("variant,word", [("chehuzi", "黄庄"), ("baijindao", "流局")])
def test_a_drawn_hand_is_called_by_the_variants_own_word(variant, word):
    """`table { exhaust_word }`: 扯胡子's page says 黄庄 (“如果黄庄了，…”); a variant that declares no word
    says 流局. Random bots play a hand that nobody wins (seed 0 of each), and the result is told."""
    import io

    from paili.runtime.game import Game
    from paili.runtime.game.bots import RandomBot
    from paili.runtime.game.bots import play as bots_play
    from paili.runtime.game.play import Terminal, show_result

    g = Game(load(variant), {}, 0)
    assert bots_play(g, [RandomBot(i) for i in range(g.n)])["exhausted"]
    out = io.StringIO()
    show_result(Terminal(0, io.StringIO(), out), g)
    assert out.getvalue().split("\n")[1] == f"{word}。"
