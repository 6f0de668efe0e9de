"""`paili play`: one person plays a seat in the terminal against bots.

Everything shown comes from the person's own observation (`observe.py`), so the terminal never shows
what the rules hide: other players' concealed tiles, the wall, a concealed meld's hidden tiles.

What happened between two questions is told from what the person can see change, so that only what
really happened is said: a claim is announced once its window is decided and only when it was taken
(the engine's tally of the action's event grew; a claim that lost on priority is not announced, and the
person is told when their own one lost); discards, turned cards and melds that appear without a move
asked for (compulsory actions, a seat playing under `then auto`) are announced as automatic. A meld is
told as the observation shows it (a concealed meld's hidden tiles are never named).

Tiles are written as their players write them: a suit's `chars` character (paper cards: 捌) when it has
one, else the tile's name; the tiles that are wild now (a `wild` of a tile kind, or of a visible reveal)
carry a `*`, with a line saying which wildcard they are. A win is shown as soon as it is made — before any
decision the rules ask after it — with its fans and the values the rule file's `score` is made of, and is
called by the name of the action that won. Every line fits an 80-column terminal (a CJK
character counts two columns); longer lines are wrapped at spaces.

Input, at each decision: the number of a listed move, the move as listed (the action's name, a space, its
tiles), the action's name alone when only one listed move is of that action, or for a discard just the
tile (its name, its character or its code); `?` lists the moves again, `q` ends the game. Anything else
gets one sentence saying what is wrong and the question again. End of input ends the game too.
"""
from __future__ import annotations

import random
import unicodedata
from collections import Counter
from fractions import Fraction
from typing import TextIO

from ..hand import HandError, parse_tiles
from ..ir import expr as E
from .bots import BOTS
from .moves import Move
from .session import Session

# The engine's own moves, named for the player; declared actions already carry the rule file's names.
ENGINE_WORDS = {"discard": "打出", "pass": "过"}
WIDTH = 80  # the terminal's columns
WILD_MARK = "*"


class Quit(Exception):
    """The player ended the game (`q` or end of input)."""


class PlayError(ValueError):
    """The game cannot be played as asked (one sentence)."""


def amount(v) -> str:
    """A balance or payment as a player reads it, exactly: `1165.9`, not `11659/10`; `1004.9375`, never
    rounded (the amounts of a hand add up as shown); an amount with no finite decimal as a fraction (`1/3`)."""
    if isinstance(v, str) and "/" in v:
        v = Fraction(v)
    if isinstance(v, float):
        v = Fraction(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        d, places = v.denominator, 0
        for f in (2, 5):
            while d % f == 0:
                d //= f
        if d != 1:
            return f"{v.numerator}/{v.denominator}"
        while (v * 10 ** places).denominator != 1:
            places += 1
        whole, part = divmod(abs(int(v * 10 ** places)), 10 ** places)
        return f"{'-' if v < 0 else ''}{whole}.{part:0{places}d}"
    return str(v)


def cells(text: str) -> int:
    """The columns a line takes in a terminal: wide (CJK) and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int = WIDTH, indent: str = "    ") -> list[str]:
    """A line cut into lines of at most `width` columns, at spaces where it can be; the continuation
    lines are indented one step more than the line's own indentation."""
    if cells(text) <= width:
        return [text]
    lead = text[:len(text) - len(text.lstrip(" "))]
    more = lead + indent
    out: list[str] = []
    line = lead
    for word in text[len(lead):].split(" "):
        if not word:
            continue
        start = line in (lead, more)
        candidate = line + word if start else f"{line} {word}"
        if cells(candidate) <= width:
            line = candidate
            continue
        if not start:
            out.append(line)
            line = more + word
        else:
            line = candidate
        while cells(line) > width:  # a word longer than a line: cut it by columns
            cut, used = 0, 0
            while cut < len(line) and used + cells(line[cut]) <= width:
                used += cells(line[cut])
                cut += 1
            out.append(line[:cut])
            line = more + line[cut:]
    if line not in (lead, more):
        out.append(line)
    return out


class Faces:
    """How tiles are written in this game: a kind's character (`chars`) or its name, wildcards marked."""

    def __init__(self, game, obs: dict | None = None):
        self.cat = game.cat
        self.wild: dict[str, str] = {}  # tile name -> the wildcard's name in the rule file
        reveals = (obs or {}).get("reveals", {})
        for w in game.rs.wilds:
            kind = game.cat.by_name.get(w.tiles)
            name = kind.name if kind is not None else reveals.get(w.tiles)  # only a reveal the player sees
            if isinstance(name, str) and name in game.cat.by_name:
                self.wild.setdefault(name, w.name)

    def tile(self, name: str) -> str:
        t = self.cat.by_name.get(name)
        text = t.char if t is not None and t.char else name
        return text + (WILD_MARK if name in self.wild else "")

    def tiles(self, names, sep: str = " ") -> str:
        return sep.join(self.tile(n) for n in names)

    def legend(self) -> str:
        by_wild: dict[str, list[str]] = {}
        for name, w in self.wild.items():
            by_wild.setdefault(w, []).append(self.tile(name))
        return "；".join(f"{w}：{'、'.join(ts)}" for w, ts in by_wild.items())


def move_text(m: Move, faces: Faces | None = None) -> str:
    out = ENGINE_WORDS.get(m.action, m.action)
    if m.tiles:
        out += " " + (faces.tiles(m.tiles, "") if faces is not None else "".join(m.tiles))
    if m.meld is not None:  # the kind the meld is laid down as, when the action forms several
        out += f" [{m.meld}]"
    if m.choice is not None:
        out += f"（{amount(m.choice) if isinstance(m.choice, Fraction) else m.choice}）"
    return out


def seat_name(seat: int, me: int, dealer: int, names: list | None = None) -> str:
    """How the terminal calls a seat: 你, else its name (`table { seat_names }`, `Game.seat_names`) or its
    number; the dealer marked."""
    name = "你" if seat == me else (names[seat] if names and names[seat] else f"{seat}号位")
    return name + ("（庄）" if seat == dealer else "")


def meld_text(m: dict, faces: Faces) -> str:
    if not m["tiles"]:
        return f"{m['kind']}（{m.get('hidden', 0)}张暗）"
    return f"{m['kind']}:{faces.tiles(m['tiles'], '')}" + (f"+{m['hidden']}张暗" if m.get("hidden") else "")


def reveals_line(o: dict, faces: Faces) -> str:
    """The visible reveals that hold a value (`亮出：` each reveal's name and tile), or ""."""
    shown = {k: v for k, v in o["reveals"].items() if v is not None}
    return ("亮出：" + "，".join(f"{k} {faces.tile(v) if isinstance(v, str) else v}" for k, v in shown.items())
            if shown else "")


class Terminal:
    """The person's seat: shows the table and asks for a move."""

    def __init__(self, seat: int, inp: TextIO, out: TextIO):
        self.seat = seat
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        for line in wrap(text):
            print(line, file=self.out)

    def show_table(self, game) -> dict:
        """Write the table as the seat sees it; returns the observation it was written from."""
        o = game.observation(self.seat)
        faces = Faces(game, o)
        self.say()
        self.say(f"—— 牌墙剩 {o['wall_left']} 张" + (f"；任务：{o['task']}" if o["task"] else "") + " ——")
        if reveals_line(o, faces):
            self.say(reveals_line(o, faces))
        if faces.wild:
            self.say(f"带 {WILD_MARK} 的是{faces.legend()}")
        for c in o["chance"]:  # every roll of the hand, as thrown in the open
            draws = "、".join(faces.tile(x) if x in game.cat.by_name else str(x) for x in map(str, c["draws"]))
            total = f"，共 {c['value']}" if len(c["draws"]) > 1 else ""
            self.say(f"掷出 {c['target'].removeprefix('table.')}：{draws}{total}")
        names = game.seat_names()
        for s in o["seats"]:
            self.say(f"{seat_name(s['seat'], self.seat, o['dealer'], names)}  余额 {amount(s['balance'])}  "
                     f"手牌 {s['hand_size']} 张" + ("  托管" if s["auto"] else "")
                     + ("  已和牌离场" if not s.get("in_play", True) else ""))
            if s["melds"]:
                self.say("    副露 " + "  ".join(meld_text(m, faces) for m in s["melds"]))
            if s.get("hand"):
                self.say(f"    亮明的手牌：{faces.tiles(s['hand'])}")
            if s["discards"]:
                self.say(f"    弃牌：{faces.tiles(s['discards'])}")
        self.say("你的手牌：" + faces.tiles(o["hand"])
                 + (f"   刚摸到：{faces.tile(o['drawn'])}" if o["drawn"] else ""))
        return o

    def show_moves(self, moves: list[Move], faces: Faces) -> None:
        for i, m in enumerate(moves, 1):
            self.say(f"  {i:>2}. {move_text(m, faces)}")

    def choose(self, game, moves: list[Move]) -> Move:
        faces = Faces(game, self.show_table(game))
        ask = game.pending
        if ask is not None and ask.tile is not None and ask.actor not in (None, self.seat):
            who = seat_name(ask.actor, self.seat, game.dealer(), game.seat_names())
            self.say(f"{who}的{faces.tile(ask.tile.name)}，你要：")
        else:
            self.say("轮到你：")
        self.show_moves(moves, faces)
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
                self.show_moves(moves, faces)
                continue
            move, problem = parse_choice(text, moves, game.cat, faces, game.rules.notation)
            if move is not None:
                return move
            self.say(problem)


def _selection(text: str, moves: list[Move], cat, notation) -> tuple[Move | None, str] | None:
    """For a decision that selects tiles: the listed move whose tiles the text names (in the rules'
    notation, `678m`, or by names and characters separated by spaces), in any order; None when the text
    names no tiles or no move selects any."""
    selects = [m for m in moves if m.tiles and m.action not in ("discard", "pass")]
    if not selects or notation is None:
        return None
    words = text.split()
    by_word = {t.name: t for t in cat.by_name.values()} | {t.char: t for t in cat.by_name.values() if t.char}
    if len(words) > 1 and all(w in by_word for w in words):
        names = sorted(by_word[w].name for w in words)
    else:
        try:
            names = sorted(t.name for t in parse_tiles(notation, cat, text, "tiles"))
        except HandError:
            return None
    for m in selects:
        if sorted(m.tiles) == names:
            return m, ""
    if len(names) < 2:  # one tile: perhaps a discard
        return None
    return None, "这几张牌不能这样选：请输入编号，或列出的一项里的牌。"


def _spans(numbers: list[int]) -> str:
    """Item numbers as a player reads them: runs written as ranges (`1～13`, `2、5～7`)."""
    out: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(str(numbers[i]) if j == i else f"{numbers[i]}、{numbers[j]}" if j == i + 1
                   else f"{numbers[i]}～{numbers[j]}")
        i = j + 1
    return "、".join(out)


def parse_choice(text: str, moves: list[Move], cat, faces: Faces | None = None,
                 notation=None) -> tuple[Move | None, str]:
    """The move a line of input names, or None and one sentence saying why not. With the rules'
    notation, a decision that selects tiles also takes the tiles written out (`678m`, or `6万 7万 8万`)."""
    if not text:
        return None, f"请输入 1 到 {len(moves)} 之间的编号，或输入 ? 查看可选的操作。"
    if text.isdecimal():  # also full-width digits; not "²", which int() refuses
        n = int(text)
        if 1 <= n <= len(moves):
            return moves[n - 1], ""
        return None, f"没有第 {n} 项：请输入 1 到 {len(moves)} 之间的编号。"
    by_text = {move_text(m): m for m in moves} | {str(m): m for m in moves}
    if faces is not None:
        by_text |= {move_text(m, faces): m for m in moves}
    if text in by_text:
        return by_text[text], ""
    named = [m for m in moves if text in (m.action, ENGINE_WORDS.get(m.action))]
    if len(named) == 1:  # the action's name alone, when only one listed move is of that action
        return named[0], ""
    if named:
        numbers = _spans([moves.index(m) + 1 for m in named])
        said = f"“{text}”有 {len(named)} 种（第 {numbers} 项）：请输入编号。"
        return None, said if cells(said) <= WIDTH else f"“{text}”有 {len(named)} 种：请输入编号。"
    chosen = _selection(text, moves, cat, notation)
    if chosen is not None:
        return chosen
    tile = cat.by_name.get(text) or next(
        (t for t in cat.by_name.values() if (t.code and t.code == text) or (t.char and t.char == text)), None)
    if tile is not None:
        for m in moves:
            if m.action == "discard" and m.tiles == (tile.name,):
                return m, ""
        return None, f"现在不能打出{faces.tile(tile.name) if faces is not None else tile.name}。"
    return None, f"看不懂“{text}”：请输入编号、列出的操作，或要打出的牌。"


def turns_cards(game) -> bool:
    """Whether a draw is turned face up for everyone (actions opened by `reveal`): an unclaimed drawn card
    lies on the drawer's pile, so a card appearing there was turned, not discarded."""
    return any(a.on == "reveal" or "reveal" in a.also_on for a in game.rs.actions)


class Teller:
    """Tells the person what the others (and the engine, for them) did since the last look."""

    def __init__(self, term: Terminal, game):
        self.term = term
        self.game = game
        self.turned = turns_cards(game)
        self.wins_shown = 0  # the hand's winners shown so far (several over time under `winners_leave`)
        self.look()

    def look(self) -> None:
        self.obs = self.game.observation(self.term.seat)
        self.events = dict(self.game.result()["events"])

    def name(self, seat: int) -> str:
        return seat_name(seat, self.term.seat, self.obs["dealer"], self.game.seat_names())

    def decided(self, moves: dict[int, Move], asked_tile) -> None:
        """A decision is over: `moves` were its answers; say what came of them."""
        game, me = self.game, self.term.seat
        before, before_events = self.obs, self.events
        self.look()
        after = self.obs
        faces = Faces(game, after)
        winners = set(game.result()["winners"])
        grew = {k: v - before_events.get(k, 0) for k, v in self.events.items() if v > before_events.get(k, 0)}
        seats = list(range(len(after["seats"])))
        changed = {s: [m for i, m in enumerate(after["seats"][s]["melds"])
                       if i >= len(before["seats"][s]["melds"]) or m != before["seats"][s]["melds"][i]]
                   for s in seats}
        # claims first by whether their seat's melds changed, so two claims of one action are told apart
        order = sorted(moves, key=lambda s: (not changed[s] and s not in winners, s))
        lost: list[Move] = []
        taken: list[tuple[int, Move]] = []
        for s in order:
            mv = moves[s]
            if mv.action in ("pass", "discard"):
                continue
            if s in winners or grew.get(mv.action, 0) > 0:
                grew[mv.action] = grew.get(mv.action, 0) - 1
                taken.append((s, mv))
            elif s == me:
                lost.append(mv)
        for mv in lost:
            by = "、".join(f"{self.name(s)}的{m.action}" for s, m in taken)
            self.term.say(f"你的{move_text(mv, faces)}没有成立" + (f"：{by}优先。" if by else "。"))
        told: list[str] = []  # the answers, then what happened without a question
        auto: list[str] = []
        for s in seats:
            mv = moves.get(s)
            new_melds = list(changed[s])
            if mv is not None and (s, mv) in taken:
                meld = new_melds.pop(0) if new_melds and mv.tiles and s not in winners else None
                if s != me:
                    shown = f" {faces.tiles(meld['tiles'], '')}" if meld and meld["tiles"] else ""
                    told.append(f"{self.name(s)}：{mv.action}{shown}")
            for m in new_melds:  # laid down without a question: a compulsory action, a follow-up, `then auto`
                auto.append(f"{self.name(s)}：{meld_text(m, faces)}（自动）")
            self.tell_discards(s, before["seats"][s], after["seats"][s], mv, faces, told, auto)
        mine = moves.get(me)
        if mine is not None and (me, mine) in taken and (a := game.prog.actions.get(mine.action)) is not None \
                and a.ir.select:  # tiles given: what left the hand and what came in (the others' stay hidden)
            kept = Counter(before["hand"]) - Counter(mine.tiles)
            came = sorted((Counter(after["hand"]) - kept).elements(), key=lambda n: game.cat.by_name[n].index)
            told.append(f"你{mine.action}：交出 {faces.tiles(mine.tiles, '')}"
                        + (f"，收到 {faces.tiles(came, '')}" if came else ""))
        for line in told + auto:
            self.term.say(line)

    def tell_discards(self, s: int, before: dict, after: dict, mv: Move | None, faces: Faces,
                      told: list[str], auto: list[str]) -> None:
        old, new = before["discards"], after["discards"]
        same = 0
        while same < min(len(old), len(new)) and old[same] == new[same]:
            same += 1
        added = list(new[same:])
        if mv is not None and mv.action == "discard":
            if mv.tiles and mv.tiles[0] in added:
                added.remove(mv.tiles[0])
            if s != self.term.seat:
                told.append(f"{self.name(s)}：{move_text(mv, faces)}")
        for t in added:
            if after["auto"] or not self.turned:
                auto.append(f"{self.name(s)}：打出 {faces.tile(t)}（自动）")
            else:
                auto.append(f"{self.name(s)}：翻出 {faces.tile(t)}")

    @property
    def win_shown(self) -> bool:
        return self.wins_shown > 0

    def show_win(self) -> None:
        """Each win, once, as soon as it is made (before any decision asked after it); a win after which
        the others play on (`table winners_leave`) says so."""
        game = self.game
        r = game.result()
        new = r["winners"][self.wins_shown:]
        if not new:
            return
        self.wins_shown = len(r["winners"])
        show_wins(self.term, game, r, new)
        if not game.finished():
            names = "、".join(seat_name(w, self.term.seat, r["dealer"], self.game.seat_names()) for w in new)
            self.term.say(f"{names}和牌离场，其余的人接着打。")


def score_values(game, seat: int) -> list[tuple[str, object]]:
    """The values the rule file's `score` expression is made of, at this win (units, quantities, context
    values, room options), in the order the expression names them."""
    score = game.rs.score
    info = game.infos.get(seat)
    ev = info.result.evaluation if info is not None else None
    if score is None or ev is None:
        return []
    out: list[tuple[str, object]] = []
    seen = set()
    for node in E.walk(score.expr):
        if not isinstance(node, E.Name) or node.ref in seen:
            continue
        seen.add(node.ref)
        cat, _, name = node.ref.partition(":")
        if cat == "unit" and name in ev.units:
            out.append((name, ev.units[name]))
        elif cat == "quantity" and name in ev.quantities:
            out.append((name, ev.quantities[name]))
        elif cat == "context" and name in game.st.context:
            out.append((name, game.st.context[name]))
        elif cat == "option" and node.ref in game.settings:
            out.append((name, game.settings[node.ref]))
    return [(n, v) for n, v in out if isinstance(v, (int, Fraction)) and not isinstance(v, bool)]


def show_wins(term: Terminal, game, r: dict, winners: list[int] | None = None) -> None:
    o = game.observation(term.seat)
    faces = Faces(game, o)
    term.say()
    for w in r["winners"] if winners is None else winners:
        info = r["scores"].get(w, {})
        word = info.get("action", "")
        # said once: an action that wins only on a drawn tile already says it was drawn
        drawn_only = any(a.name == word and a.win_tile == "drawn" for a in game.rs.actions)
        how = f"{word}（自己摸到）" if info.get("self_drawn") and not drawn_only else word
        term.say(f"{seat_name(w, term.seat, r['dealer'], game.seat_names())} {how}"
                 + (f" {faces.tile(info['tile'])}" if info.get("tile") else "")
                 + (f"，{info['form']}" if info.get("form") else "")
                 + (f"，合计 {amount(info['total'])}，得分 {amount(info['score'])}" if "score" in info else ""))
        for f in info.get("fans", []):
            term.say(f"    {f['name']} {amount(f['value'])}" + (f" ×{f['count']}" if f["count"] > 1 else ""))
        values = score_values(game, w)
        if values:
            term.say("    得分由：" + "，".join(f"{n} {amount(v)}" for n, v in values)
                     + f" 算出 {amount(info.get('score', ''))}")
    # what the win turned up (a card turned after the win that its score counts): the table is not shown
    # again before the payments
    if reveals_line(o, faces):
        term.say(reveals_line(o, faces))


def show_result(term: Terminal, game, win_shown: bool = False) -> None:
    r = game.result()
    if r["winners"]:
        if not win_shown:
            show_wins(term, game, r)
    else:
        term.say()
        term.say(f"{game.rs.table.exhaust_word}。")  # the variant's own word (`table { exhaust_word }`)
    term.say()
    names = game.seat_names()
    for p in r["payments"]:
        term.say(f"  {p['name']}：{seat_name(p['payer'], term.seat, r['dealer'], names)} 付 "
                 f"{seat_name(p['payee'], term.seat, r['dealer'], names)} {amount(p['amount'])}")
    if r["fees"]:
        term.say(f"  服务费 {amount(r['fees'])}")
    term.say("余额：" + "，".join(f"{seat_name(i, term.seat, r['dealer'], names)} {amount(b)}"
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
    if game is not None and not 0 <= seat < game.n:
        raise PlayError(f"this game has seats 0 to {game.n - 1}, so --seat {seat} is not one of them")
    term.say(f"{rules.ir.variant.title} — 你坐 {seat} 号位；种子 {seed}（用 --seed {seed} 可重玩这一局）")
    while game is not None:
        robots = [BOTS[bots](game.seed * 31 + i) for i in range(game.n)]  # each hand its own bot seeds
        term.say(f"\n=== 第 {len(session.played) + 1} 局 ===")
        teller = Teller(term, game)
        teller.decided({}, None)  # what the deal itself did (compulsory actions before the first question)
        answers: dict[int, Move] = {}
        try:
            while not game.is_over():
                teller.show_win()
                s = game.current_seats()[0]
                moves = game.legal_moves(s)
                decision, tile = game.decision, game.pending.tile
                move = term.choose(game, moves) if s == seat else robots[s].choose(game, s, moves)
                game.apply(s, move)
                answers[s] = move
                if game.is_over() or game.decision != decision:
                    teller.decided(answers, tile)
                    answers = {}
        except Quit:
            term.say("\n对局结束（未打完）。")
            return 1
        teller.show_win()  # a win that ended the hand at the last move
        show_result(term, game, teller.win_shown)
        session.finish(game)
        game = session.new_hand()
    return 0
