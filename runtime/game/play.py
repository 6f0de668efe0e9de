"""`paili play`: one person plays a seat in the terminal against bots.

Everything shown comes from the person's own observation (`observe.py`), so the terminal never shows
what the rules hide: other players' concealed tiles, the wall, a concealed meld's hidden tiles. Bots'
moves are announced by action only, with tiles only for discards (a concealed meld's tiles would
otherwise leak; the table shown next shows each meld as the rules let it be seen).

Input, at each decision: the number of a listed move, the move as listed (the action's name, a space, its
tiles), or for a discard just the tile (its name or its code); `?` lists the moves again, `q` ends the game. Anything
else gets one sentence saying what is wrong and the question again. End of input ends the game too.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import TextIO

from .bots import BOTS
from .moves import Move
from .session import Session

# The engine's own moves, named for the player; declared actions already carry the rule file's names.
ENGINE_WORDS = {"discard": "打出", "pass": "过"}


class Quit(Exception):
    """The player ended the game (`q` or end of input)."""


class PlayError(ValueError):
    """The game cannot be played as asked (one sentence)."""


def amount(v) -> str:
    """A balance or payment as a player reads it: `1165.9`, not `11659/10`."""
    if isinstance(v, str) and "/" in v:
        v = Fraction(v)
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{float(v):g}"
    return str(v)


def move_text(m: Move) -> str:
    out = ENGINE_WORDS.get(m.action, m.action)
    if m.tiles:
        out += " " + "".join(m.tiles)
    if m.meld is not None:  # the kind the meld is laid down as, when the action forms several
        out += f" [{m.meld}]"
    if m.choice is not None:
        out += f"（{amount(m.choice) if isinstance(m.choice, Fraction) else m.choice}）"
    return out


def seat_name(seat: int, me: int, dealer: int) -> str:
    name = "你" if seat == me else f"{seat}号位"
    return name + ("（庄）" if seat == dealer else "")


class Terminal:
    """The person's seat: shows the table and asks for a move."""

    def __init__(self, seat: int, inp: TextIO, out: TextIO):
        self.seat = seat
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def show_table(self, game) -> None:
        o = game.observation(self.seat)
        self.say()
        self.say(f"—— 牌墙剩 {o['wall_left']} 张" + (f"；任务：{o['task']}" if o["task"] else "") + " ——")
        shown = {k: v for k, v in o["reveals"].items() if v is not None}
        if shown:
            self.say("亮出：" + "，".join(f"{k} {v}" for k, v in shown.items()))
        for s in o["seats"]:
            melds = "  ".join(
                f"{m['kind']}:{''.join(m['tiles'])}" + (f"+{m['hidden']}张暗" if m.get("hidden") else "")
                for m in s["melds"])
            line = (f"{seat_name(s['seat'], self.seat, o['dealer'])}  余额 {amount(s['balance'])}  "
                    f"手牌 {s['hand_size']} 张" + ("  托管" if s["auto"] else ""))
            if melds:
                line += f"  副露 {melds}"
            self.say(line)
            if s.get("hand"):
                self.say(f"    亮明的手牌：{' '.join(s['hand'])}")
            if s["discards"]:
                self.say(f"    弃牌：{' '.join(s['discards'])}")
        self.say("你的手牌：" + " ".join(o["hand"]) + (f"   刚摸到：{o['drawn']}" if o["drawn"] else ""))

    def show_moves(self, moves: list[Move]) -> None:
        for i, m in enumerate(moves, 1):
            self.say(f"  {i:>2}. {move_text(m)}")

    def choose(self, game, moves: list[Move]) -> Move:
        self.show_table(game)
        ask = game.pending
        if ask is not None and ask.tile is not None and ask.actor not in (None, self.seat):
            self.say(f"{seat_name(ask.actor, self.seat, game.st.dealer)}的{ask.tile.name}，你要：")
        else:
            self.say("轮到你：")
        self.show_moves(moves)
        while True:
            self.out.write("你的选择> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise Quit
            text = line.strip()
            if text in ("q", "quit", "退出"):
                raise Quit
            if text in ("?", "？", "help", "帮助"):
                self.show_moves(moves)
                continue
            move, problem = parse_choice(text, moves, game.cat)
            if move is not None:
                return move
            self.say(problem)


def parse_choice(text: str, moves: list[Move], cat) -> tuple[Move | None, str]:
    """The move a line of input names, or None and one sentence saying why not."""
    if not text:
        return None, f"请输入 1 到 {len(moves)} 之间的编号，或输入 ? 查看可选的操作。"
    if text.isdecimal():  # also full-width digits; not "²", which int() refuses
        n = int(text)
        if 1 <= n <= len(moves):
            return moves[n - 1], ""
        return None, f"没有第 {n} 项：请输入 1 到 {len(moves)} 之间的编号。"
    by_text = {move_text(m): m for m in moves} | {str(m): m for m in moves}
    if text in by_text:
        return by_text[text], ""
    tile = cat.by_name.get(text) or next((t for t in cat.by_name.values() if t.code and t.code == text), None)
    if tile is not None:
        for m in moves:
            if m.action == "discard" and m.tiles == (tile.name,):
                return m, ""
        return None, f"现在不能打出{tile.name}。"
    return None, f"看不懂“{text}”：请输入编号、列出的操作，或要打出的牌。"


def announce(term: Terminal, game, seat: int, move: Move) -> None:
    if seat == term.seat or move.action == "pass":
        return
    dealer = game.st.dealer
    what = move_text(move) if move.action == "discard" else ENGINE_WORDS.get(move.action, move.action)
    term.say(f"{seat_name(seat, term.seat, dealer)}：{what}")


def show_result(term: Terminal, game) -> None:
    r = game.result()
    term.say()
    if r["winners"]:
        for w in r["winners"]:
            info = r["scores"].get(w, {})
            how = "和牌（自己摸到）" if info.get("self_drawn") else "和牌"
            term.say(f"{seat_name(w, term.seat, r['dealer'])} {how}"
                     + (f" {info['tile']}" if info.get("tile") else "")
                     + (f"，{info['form']}" if info.get("form") else "")
                     + (f"，合计 {amount(info['total'])}，得分 {amount(info['score'])}" if "score" in info else ""))
            for f in info.get("fans", []):
                term.say(f"    {f['name']} {amount(f['value'])}" + (f" ×{f['count']}" if f["count"] > 1 else ""))
    else:
        term.say("流局。")
    for p in r["payments"]:
        term.say(f"  {p['name']}：{seat_name(p['payer'], term.seat, r['dealer'])} 付 "
                 f"{seat_name(p['payee'], term.seat, r['dealer'])} {amount(p['amount'])}")
    if r["fees"]:
        term.say(f"  服务费 {amount(r['fees'])}")
    term.say("余额：" + "，".join(f"{seat_name(i, term.seat, r['dealer'])} {amount(b)}"
                                 for i, b in enumerate(r["balances"])))


def play_terminal(rules, options: dict, *, seat: int = 0, seed: int | None = None, hands: int = 1,
                  bots: str = "greedy", inp: TextIO, out: TextIO) -> int:
    """Play `hands` hands with the person at `seat`; returns 0 when they are played, 1 when the player quit."""
    if hands < 1:
        raise PlayError(f"--hands must be at least 1, not {hands}")
    seed = random.randrange(1 << 31) if seed is None else seed
    session = Session(rules, options, seed, hands)
    term = Terminal(seat, inp, out)
    game = session.new_hand()
    if game is not None and not 0 <= seat < game.st.n:
        raise PlayError(f"this game has seats 0 to {game.st.n - 1}, so --seat {seat} is not one of them")
    term.say(f"{rules.ir.variant.title} — 你坐 {seat} 号位；种子 {seed}（用 --seed {seed} 可重玩这一局）")
    while game is not None:
        robots = [BOTS[bots](game.seed * 31 + i) for i in range(game.st.n)]  # each hand its own bot seeds
        term.say(f"\n=== 第 {len(session.played) + 1} 局 ===")
        try:
            while not game.is_over():
                s = game.current_seats()[0]
                moves = game.legal_moves(s)
                move = term.choose(game, moves) if s == seat else robots[s].choose(game, s, moves)
                game.apply(s, move)
                announce(term, game, s, move)
        except Quit:
            term.say("\n对局结束（未打完）。")
            return 1
        show_result(term, game)
        session.finish(game)
        game = session.new_hand()
    return 0
