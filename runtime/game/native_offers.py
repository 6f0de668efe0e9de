"""The differential check of the native legal moves (runtime/native/src/engine/offers.rs and its
neighbours) against the reference: at a decision a Python game asks, the options of every seat asked
(`Game.pending`, what `Game.legal_moves` gives) and the options the native side works out from the state
(`HandState.snapshot()`) and the decision (its kind and data, read from the reference's pending step:
the continuation is ported later, step 4 of docs/engine-native.md). Whether a seat wins on a tile is
asked of the reference's winning machinery (`WinOracle`), so this step is proved on its own; or, with
`native_wins`, answered natively (engine/winning.rs `StateWins`, with the reading of each win its guard
reads), each answer compared with the reference's, and a win or wait question the native side declines
answered by the reference (counted by why).

bench/engine_equivalence.py `native-offers` runs this over 1,000 games per configuration,
tests/test_engine_native_offers.py over a seeded sample.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from ..backend import native_module
from ..tiles import TileInfo
from .native_scope import native_snapshot, set_scoring
from .records import ONE_WIN, WINNER_TURN
from .state import Seat

NOT_PORTED = "the native legal moves do not take this decision yet"
# the bindings of the moment (runtime/game/scope.py `GAME_DEFAULTS`) an event window passes on
BINDINGS = ("winner", "discarder", "robbed", "payer", "payee", "choice", "viewer", "owner", "score", "task_factor")


def plain_binding(v):
    """A binding's value as the native side reads it; None when it is no value it takes."""
    if v is None or isinstance(v, (bool, int)):
        return ("ok", v)
    if isinstance(v, Seat):
        return ("ok", {"seat": v.index})
    if isinstance(v, TileInfo):
        return ("ok", {"tile": v.name})
    if isinstance(v, Fraction):
        return ("ok", v.numerator if v.denominator == 1 else {"rat": [v.numerator, v.denominator]})
    if isinstance(v, str):
        return ("ok", {"str": v})
    return None


def plain_move(m) -> list:
    """A move as the native side writes it: [action, tiles, choice, meld] (a fraction as {"rat": [n, d]})."""
    c = m.choice
    if isinstance(c, Fraction):
        c = c.numerator if c.denominator == 1 else {"rat": [c.numerator, c.denominator]}
    return [m.action, list(m.tiles), c, m.meld]


def decision_of(game) -> dict | None:
    """The decision now asked, as the native side takes it (offer_decisions.rs `Decision`): read from the
    reference's pending steps. None: a decision the native side does not take (counted apart)."""
    stack = game.pending_steps
    if not stack or game.pending is None:
        return None
    top = stack[-1]
    L = top.loc
    if top.name == "play_turn":
        return {"kind": "turn", "seat": L["s"], "claimed": L["claimed"], "allow_win": L["allow_win"],
                "taken": [plain_move(m) for m in L["taken"]]}
    if top.name == "follow":
        return {"kind": "follow", "seat": L["c"], "action": L["action"], "tile": L["t"].name}
    if top.name == "after_discard":
        return {"kind": "own_discard", "seat": L["s"], "tile": L["t"].name}
    if top.name == "window" and top.at == 1:
        bind = L["bind"]
        actor, tile = bind.get("actor"), bind.get("tile")
        bound = bind.get("winner") if bind.get(ONE_WIN) or bind.get(WINNER_TURN) else None
        plain = {}
        for k in BINDINGS:
            if k in bind:
                got = plain_binding(bind[k])
                if got is None:
                    return None
                plain[k] = got[1]
        if "self_drawn" in bind:
            plain["self_drawn"] = bool(bind["self_drawn"])
        # the window's reading: the event's win's, else the hand's first win's (`_s_window`), which the
        # native side scores itself from the win (its tiles and forms)
        win = None
        reading = bind.get("reading")
        if reading is None and game.st.winners:
            info = game.infos.get(game.st.winners[0])
            reading = info.reading_env(game) if info is not None else None
        else:  # a winner's own (a winner's turn at the hand's end): the final win of that winner
            info = next((i for i in game.infos.values() if reading is not None and i.reading_env(game) is reading),
                        None)
        if reading is not None and info is not None:
            win = {"seat": info.seat, "tile": info.tile.name if info.tile is not None else None,
                   "self_drawn": bool(info.self_drawn), "concealed": [t.name for t in info.concealed],
                   "forms": list(game.prog.actions[info.action].ir.win_forms) if info.action else []}
        return {"kind": "window", "event": L["event"], "actor": actor.index if actor is not None else None,
                "tile": tile.name if tile is not None else None, "others": L.get("others", True),
                "winner": bound.index if bound is not None else None, "bind": plain, "reading": reading is not None,
                "win": win}
    if top.name == "start_decisions":
        return {"kind": "start_decisions", "seat": L["s"], "event": L["event"], "melded": L["melded"],
                "taken": [plain_move(m) for m in L["taken"]], "decided": sorted(L["decided"])}
    if top.name != "answers" or len(stack) < 2:
        return None
    parent = stack[-2]
    P = parent.loc
    if parent.name == "window_resolve" and P["event"] in ("discard", "added_kong"):
        return {"kind": "claim" if P["event"] == "discard" else "rob", "seat": P["s"], "tile": P["t"].name}
    if parent.name == "tile_window":
        return {"kind": "drawn_card" if P["kind"] == "self" else "turned", "seat": P["s"], "tile": P["t"].name}
    if parent.name == "start_wins":
        return {"kind": "start_wins", "event": P["event"]}
    if parent.name == "together":
        return {"kind": "together", "event": P["event"],
                "decided": [sorted(P["decided"].get(s, ())) for s in range(game.n)]}
    return None


class WinOracle:
    """The reference's winning machinery, asked by the native legal moves: the win a seat makes now
    (`Game.win_offered`), as (the winning tile's catalog index or None, the score as numerator and
    denominator), and the wait questions guards read (`ask`)."""

    __slots__ = ("game", "asked", "cpu")

    def __init__(self, game):
        self.game = game
        self.asked = 0
        self.cpu = 0.0  # CPU seconds in the reference's answers (the speed figure leaves them out)

    def win(self, seat: int, mode: str, tile: int | None, forms: list[str], discarder: int | None,
            robbed: int | None, action: str | None = None):
        self.asked += 1
        cpu = time.process_time()
        g = self.game
        t = g.cat.kinds[tile] if tile is not None else None
        info = g.win_offered(seat, mode, t, tuple(forms), discarder, robbed, action)
        self.cpu += time.process_time() - cpu
        if info is None:
            return None
        score = Fraction(info.result.score)
        return (info.tile.index if info.tile is not None else None, score.numerator, score.denominator)

    def ask(self, question: str, seat: int | None, tile: int | None) -> list[int]:
        """A wait question of a guard (a seat's `waits` or `group_waits`, `waits_without`,
        `group_waits_without`), as `Game.seat_field` and the game functions answer it: kinds by index."""
        self.asked += 1
        cpu = time.process_time()
        g = self.game
        s = g.st.seats[seat] if seat is not None else None
        groups = question.startswith("group_")
        if question.endswith("_without"):
            got = g.waits_without(s, g.cat.kinds[tile] if tile is not None else None, groups=groups)
        else:
            got = g.waits(s, groups=groups) if s is not None else []
        self.cpu += time.process_time() - cpu
        return [k.index for k in got]


@dataclass
class Tally:
    decisions: int = 0  # decision points met
    compared: int = 0  # ... whose options were compared
    equal: int = 0  # ... and found equal
    seats: int = 0  # seats' options compared
    moves: int = 0  # moves compared
    stops: int = 0  # the native evaluation stopped where the reference raises (the hand would fall back)
    refused: Counter = field(default_factory=Counter)  # sentence -> decisions
    differences: list = field(default_factory=list)  # (decision, reference, native)
    native_cpu: float = 0.0  # CPU seconds in the native call (the JSON state read, the answer written) ...
    oracle_cpu: float = 0.0  # ... less these, the reference's answers to the win and wait questions
    repeat_decisions: int = 0  # decisions whose options `legal_moves_repeat` worked out (the state read once) ...
    repeat_cpu: float = 0.0  # ... in this many CPU seconds, the reference's answers left out
    wins_native: int = 0  # wins answered natively (`native_wins`) ...
    wins_declined: Counter = field(default_factory=Counter)  # ... declined, why -> wins the reference answered
    win_differences: list = field(default_factory=list)  # native answers unlike the reference's

    def add(self, other: Tally) -> None:
        for k in ("decisions", "compared", "equal", "seats", "moves", "stops", "native_cpu", "oracle_cpu",
                  "repeat_decisions", "repeat_cpu", "wins_native"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.refused.update(other.refused)
        self.wins_declined.update(other.wins_declined)
        self.win_differences.extend(other.win_differences)
        self.differences.extend(other.differences)


class OffersCheck:
    """One rule set under one table of room options, its legal moves worked out natively."""

    def __init__(self, rules, options: dict | None = None, questions: bool = True, native_wins: bool = False):
        """`questions`: the reference answers the wait questions guards read (`WinOracle.ask`) too; without
        it, a decision reading one is refused by name. `native_wins`: the wins are answered natively
        (`StateWins` inside `EngineOffers`, each compared with the reference's)."""
        self.rules = rules
        self.native_wins = native_wins
        self.native = native_module().EngineOffers(rules.ruleset_json(), options or None, questions, native_wins)
        self.scoring = False  # whether the game's native whole-hand scoring is handed to the native wins

    def oracle(self, game, compare: bool = True) -> WinOracle:
        """What answers the wins and wait questions at this decision: the reference; with `native_wins`,
        only what engine/winning.rs declines (the native legal moves ask `StateWins` directly)."""
        if self.native_wins and not self.scoring:
            self.scoring = set_scoring(self.native, game)
        return WinOracle(game)

    def count_wins(self, game, tally: Tally, compare: bool = True) -> None:
        """The wins the last native call answered natively, counted and (`compare`) each compared with the
        reference's (`Game.win_offered`); those declined counted by why (the reference answered them)."""
        if not self.native_wins:
            return
        ref = WinOracle(game)
        for (seat, mode, tile, forms, discarder, robbed, action), got in json.loads(self.native.native_wins_asked()):
            if isinstance(got, dict):
                tally.wins_declined[got["declined"]] += 1
                continue
            tally.wins_native += 1
            found = tuple(got) if got is not None else None
            if compare:
                want = ref.win(seat, mode, tile, forms, discarder, robbed, action)
                if want != found:
                    tally.win_differences.append((seat, mode, tile, forms, want, found))

    def refusals(self) -> Counter:
        return Counter(self.native.refusals())

    def native_options(self, game, decision: dict, oracle: WinOracle | None = None, timed: list | None = None) -> dict:
        """The native answer: {"moves": {seat: [move, …]}}, or {"refused": sentence}, or {"stop": True}.
        `timed`: the CPU seconds of the native call alone (the state read and the answer written) are added
        to its first item."""
        snap = native_snapshot(game)
        text = json.dumps(decision, ensure_ascii=False)
        cpu = time.process_time()
        got = self.native.legal_moves(snap, text, oracle or WinOracle(game))
        if timed is not None:
            timed[0] += time.process_time() - cpu
        got = json.loads(got)
        if "moves" in got:
            got["moves"] = {s: ms for s, ms in got["moves"]}
        return got

    def check(self, game, tally: Tally, repeat: int = 0) -> None:
        """Compare the options of the decision now asked (if any); `repeat` > 0: also time the native legal
        moves alone, on the state read once, that many times over."""
        ask = game.pending
        if ask is None:
            return
        tally.decisions += 1
        decision = decision_of(game)
        if decision is None:
            tally.refused[NOT_PORTED] += 1
            return
        oracle = self.oracle(game)
        timed = [0.0]
        got = self.native_options(game, decision, oracle, timed)
        tally.native_cpu += timed[0]
        tally.oracle_cpu += oracle.cpu
        self.count_wins(game, tally)
        if "refused" in got:
            tally.refused[got["refused"]] += 1
            return
        if "stop" in got:
            tally.stops += 1
            return
        if repeat:
            oracle = self.oracle(game, compare=False)  # the native wins timed with the legal moves
            snap, text = native_snapshot(game), json.dumps(decision, ensure_ascii=False)
            cpu = time.process_time()
            self.native.legal_moves_repeat(snap, text, oracle, repeat)
            tally.repeat_cpu += time.process_time() - cpu - oracle.cpu
            tally.repeat_decisions += repeat
        reference = {s: [plain_move(m) for m in ms] for s, ms in ask.options.items()}
        tally.compared += 1
        tally.seats += len(reference)
        tally.moves += sum(len(ms) for ms in reference.values())
        if json.dumps(reference, sort_keys=True, ensure_ascii=False) == \
                json.dumps(got["moves"], sort_keys=True, ensure_ascii=False):
            tally.equal += 1
        else:
            tally.differences.append((decision, reference, got["moves"]))
