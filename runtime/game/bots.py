"""Bots: a random one, a greedy one and a mix of the two. A bot picks one of the legal moves it is given.

- `RandomBot(seed)`: uniform over the legal moves.
- `GreedyBot(seed)`: wins whenever it can — except that on its own turn it gives up a self-drawn win
  for a discard after which its hand wins on *any* tile (a hand with a wildcard left alone), when it did
  not already win on any tile before this draw or when the drawn tile is itself a wildcard; lays down
  melds of identical tiles (pungs, kongs) — never other melds; declines every other offer (plain
  actions, choices, alternatives to winning); discards the tile with the fewest neighbours (copies of
  it, suited tiles within two ranks, and tiles it forms a concealed fixed-set group with — a hand meld
  of `tiles` shape), the highest-indexed one on a tie — except that a hand without melds holding all
  but `ORPHANS_GAP` of an `orphans` form's kinds discards towards that form (`bot_reads.orphans_discard`);
  passes otherwise — but a `select` decision it may not pass (a `restrict` on `pass`) it answers with the
  tiles it needs least (`give_up`).
- `MixedBot(seed)`: greedy, but it declares ready when offered (an action with `ready true`, or one
  that hands the seat to the engine, `then auto`; one of several at random); and at a decision
  offering more than discards it picks, with probability 1/2, one of the kinds of move offered (each
  action, `discard` and `pass`) uniformly at random — then the greedy discard if it picked `discard`,
  else a random move of that kind. It reaches the choices greedy never makes (claims of every meld
  kind, declining wins, alternatives to winning, hand-end decisions) while still building hands that
  win. A hand that wins on any tile keeps waiting (gives up a self-drawn win on an ordinary tile,
  throwing that tile) with probability `patience` (19/20), hoping for a wildcard, until it has thrown a
  wildcard itself and while a wildcard can still be drawn (not every copy is in sight or in its own
  hand). Seeded: the same seed, the same moves.
- `EfficiencyBot(seed)`: plays for the nearest win by the rule set's forms (`runtime/distance.py`) — a
  win whose groups are worth what the rules ask, where a requirement asks a sum over the groups to reach
  a number (`group_values.value_floor`): takes every win (but gives up a self-drawn one for a discard
  that wins on any tile, as greedy does); declares ready when its waits hold `READY_LIVE` live tiles;
  lays down a meld after which the hand is nearer a win (a kong: no farther; a claimed run: only to be
  one tile away); discards to be nearest, then for the most live wanted tiles (at one tile away the
  winning waits: real waits and completing tiles, scored when the rules ask more than the waits see);
  declines the rest. Once a hand one tile away has no winning waits (the rules ask for more: a minimum
  score), it plays for value for the rest of the hand: every meld of identical tiles, discards for
  winning waits, else towards a win of the groups that score. The whole policy is docs/engine.md, "Bots".
"""
from __future__ import annotations

import random
from collections import Counter

from ..distance import FAR, Distance
from ..tiles import kind_counts
from .bot_reads import orphans_discard, set_partners, wildcard_to_come, wins_on_anything
from .bot_state import RuleSetState, RuleSetStates
from .group_values import group_worth, value_floor, valued_kinds
from .moves import PASS, Move, neighbours
from .native_bot import NativeGenerators, game_choice, native_choice


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        return moves[self.rng.randrange(len(moves))]


class GreedyBot:
    name = "greedy"
    declares_ready = False  # an auto seat makes no kongs and claims nothing: greedy stays in control

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._partners = None

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        chosen = game_choice(self, game, seat, moves, set_partners, EfficiencyBot) if type(self) is GreedyBot else None
        if chosen is not None:  # the same move, by the native bots on a native game's state
            return chosen
        prog = game.prog
        rs = game.rs
        wins = [m for m in moves if (a := prog.actions.get(m.action)) is not None and a.wins]
        if wins:
            better = self._wait_for_any(game, seat, moves)
            return better if better is not None else wins[0]
        if self.declares_ready:
            ready = [m for m in moves if (a := prog.actions.get(m.action)) is not None and not a.forms
                     and (getattr(a.ir, "ready", False) or a.ir.then == "auto")]
            if ready:
                return ready[self.rng.randrange(len(ready))]
        for m in moves:
            a = prog.actions.get(m.action)
            if a is None or not a.forms or not m.tiles:
                continue
            if len(set(m.tiles)) == 1 and any(rs.meld(k) is not None and rs.meld(k).shape.kind == "same"
                                              for k in a.forms):
                return m
        return self.fallback(game, seat, moves, [m for m in moves if m.action == "discard"])

    def fallback(self, game, seat: int, moves: list[Move], discards: list[Move]) -> Move:
        """The move when no win, declaration or meld was taken: a discard (`discards`: those offered),
        else pass, else the tiles least needed for a `select` it may not pass, else the first move."""
        if discards:
            return self.discard(game, seat, discards)
        if PASS in moves:  # the offered move itself, stamped with its decision (as a log writes it)
            return moves[moves.index(PASS)]
        prog = game.prog
        selects = [m for m in moves if (a := prog.actions.get(m.action)) is not None and a.ir.select]
        if selects:
            return self.give_up(game, seat, selects)
        return moves[0]

    @staticmethod
    def give_up(game, seat: int, selects: list[Move]) -> Move:
        """Of the tiles a `select` decision it cannot decline may take, the set it needs least: the fewest
        neighbours in its hand (as for a discard), the first offered on a tie."""
        hand = game.st.seats[seat].hand
        by_name = game.cat.by_name
        return min(selects, key=lambda m: sum(neighbours(hand, by_name[n]) for n in m.tiles))

    def discard(self, game, seat: int, discards: list[Move]) -> Move:
        chase = orphans_discard(game, game.st.seats[seat], discards)
        if chase is not None:
            return chase
        s = game.st.seats[seat]
        return min(discards, key=lambda m: self._neighbours_key(game, s, m))

    def _neighbours_key(self, game, s, m: Move) -> tuple[int, int]:
        """Greedy's measure of a discard (lower: more useless): the tile's neighbours in the hand and the
        fixed-set partners it holds; the highest-indexed kind first on a tie."""
        if self._partners is None or self._partners[0] is not game.rs:
            self._partners = (game.rs, set_partners(game.rs))
        t = game.cat.by_name[m.tiles[0]]
        held = self._partners[1].get(t.name)
        return (neighbours(s.hand, t) + (sum(1 for x in held if any(y.name == x for y in s.hand)) if held else 0),
                -t.index)

    @staticmethod
    def _wait_for_any(game, seat: int, moves: list[Move]) -> Move | None:
        """On the own turn with a self-drawn win offered: a discard after which the hand wins on any
        tile, if giving up the win for it is worth it (see the module docstring); else None."""
        s = game.st.seats[seat]
        wild = game.hand_wild_names
        drawn = s.drawn
        if drawn is None or not wild or not any(t.name in wild for t in s.hand):
            return None
        discards = [m for m in moves if m.action == "discard"]
        if not discards:
            return None
        if drawn.name not in wild and wins_on_anything(game, s, drawn.name):
            return None  # it already won on anything: waiting again gains nothing
        for m in sorted(discards, key=lambda m: m.tiles[0] not in wild):  # a wildcard first
            if wins_on_anything(game, s, m.tiles[0]):
                return m
        return None


class MixedBot(NativeGenerators, GreedyBot):
    name = "mixed"
    declares_ready = True

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.mix = random.Random(seed ^ 0x5EED)
        # The chance of passing a win while waiting on any tile: high, so that a wildcard often comes
        # (a wildcard thrown on the very next draw after another is the rarest mechanism of all).
        self.patience = 0.95

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        chosen = game_choice(self, game, seat, moves, set_partners, EfficiencyBot) if type(self) is MixedBot else None
        if chosen is not None:  # the same move, by the native mixed bot on a native game's state
            return chosen
        kinds = list(dict.fromkeys(m.action for m in moves))
        patient = self._keep_waiting(game, seat, moves)
        if patient is not None:
            return patient
        if kinds == ["discard"] or self.mix.random() >= 0.5:
            return super().choose(game, seat, moves)
        kind = kinds[self.mix.randrange(len(kinds))]
        if kind == "discard":
            return self.discard(game, seat, [m for m in moves if m.action == "discard"])
        of_kind = [m for m in moves if m.action == kind]
        return of_kind[self.mix.randrange(len(of_kind))]


    def _keep_waiting(self, game, seat: int, moves: list[Move]) -> Move | None:
        """A hand that wins on any tile, offered a self-drawn win on an ordinary tile, gives it up (and
        throws the drawn tile) with probability `patience`, until it has thrown a wildcard itself and
        while a wildcard can still be drawn: it waits for a wildcard to improve on (greedy then throws
        that wildcard, and again if the very next draw is one). Once it has thrown a wildcard it takes
        the next win: passing then can only lose what the thrown wildcard gained. Passing a win while
        waiting is a choice greedy never makes."""
        s = game.st.seats[seat]
        drawn = s.drawn
        wild = game.hand_wild_names
        if drawn is None or not wild or drawn.name in wild or not any(t.name in wild for t in s.hand):
            return None
        if any(t.name in wild for t in s.discards) or not wildcard_to_come(game, s, wild):
            return None  # it has thrown a wildcard already, or none can come: it takes the win
        if not any((a := game.prog.actions.get(m.action)) is not None and a.wins for m in moves):
            return None
        throw = Move("discard", (drawn.name,))
        if throw not in moves or self.mix.random() >= self.patience or not wins_on_anything(game, s, drawn.name):
            return None
        return moves[moves.index(throw)]  # the offered move itself, stamped with its decision


_MEASURES: dict = {}  # (id(rs), id(dec), which) -> (rs, dec, Distance): shared by the bots of every game


def _shared_measure(game, which: str, build) -> Distance:
    """One `Distance` per rule set, catalog and measure for every efficiency bot of the process: its
    answers depend on nothing else, and its tables (memoised by the hands asked) are worth keeping from
    one game to the next. The rule set and decomposer are held, so their ids are not reused meanwhile."""
    key = (id(game.rs), id(game.dec), which)
    got = _MEASURES.get(key)
    if got is None or got[0] is not game.rs or got[1] is not game.dec:
        if len(_MEASURES) >= 4:  # two measures of two rule sets: a process plays one or two at a time
            _MEASURES.clear()
        got = _MEASURES[key] = (game.rs, game.dec, build())
    return got[2]


def measure_fallbacks(rs) -> int:
    """The hands the native distance tables handed back to runtime/distance.py for the efficiency bots
    of this rule set (its IR, `Rules.ir`), since the process started (bench/bot_backends.py reports it)."""
    return sum(m[2].fallbacks for m in _MEASURES.values() if m[0] is rs)


TIE_BREAK = 4  # discards as near a win as each other whose wanted tiles are counted (greedy's measure picks them)
READY_LIVE = 4  # the efficiency bot declares ready when its waits have at least this many live tiles


class EfficiencyBot(GreedyBot):
    """Plays for the fastest win (the module's docstring states its policy; docs/engine.md, "Bots").

    Its measure is the distance of the concealed hand to the nearest winning form (`runtime/distance.py`:
    tiles lacking, 1 when it waits) and the live tiles that lower it (copies neither in its hand nor in
    sight); once one tile away, the winning waits (`_winning_live`: the real waits, each scored when
    the rules ask more of a win than the waits see) replace the structural count, and a hand with none
    counts as two away.

    Such a hand tells it that the rule set asks more of a win than its shape (a minimum score, say):
    from then on (`gated`) it plays for value — every meld of identical tiles offered, and discards for
    winning waits, else towards a win of the groups that score (`_value_discard`)."""

    name = "efficiency"
    native = True  # ask the native policy first (runtime/game/native_bot.py); False: this policy always

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._dist = None
        self._vdist = None
        self._floor = None  # (rules, `value_floor`)
        self.states = RuleSetStates()  # what it learns, per rule set and catalog

    def state(self, game) -> RuleSetState:
        """The bot's state under the game's rule set and catalog (runtime/game/bot_state.py)."""
        return self.states.of(game)

    @property
    def gated(self) -> bool:
        """Whether it plays for value under the rule set it last played."""
        return self.states.last is not None and self.states.last.gated

    def value_measure(self, game) -> Distance:
        """The distance by the groups that score (`valued_kinds`)."""
        d = self._vdist
        if d is None or d[0] is not game.rs or d[1] is not game.dec:
            d = self._vdist = (game.rs, game.dec, _shared_measure(game, "value", lambda: Distance(
                game.rules.forms, game.dec, valued_kinds(game.rs))))
        return d[2]

    def measure(self, game) -> Distance:
        d = self._dist
        if d is None or d[0] is not game.rs or d[1] is not game.dec:
            floor = self.floor(game)
            d = self._dist = (game.rs, game.dec, _shared_measure(game, "floor", lambda: Distance(
                game.rules.forms, game.dec, values=floor and floor[1], floor_forms=floor[2] if floor else ())))
        return d[2]

    def floor(self, game):
        """The rule set's floor on its groups' worth (`value_floor`), or None."""
        f = self._floor
        if f is None or f[0] is not game.rs:
            f = self._floor = (game.rs, value_floor(game.rules))
        return f[1]

    def need(self, game, s, extra: int = 0) -> int:
        """The worth the concealed groups must still add: the floor less what the laid melds are worth
        (and `extra`, a meld about to be laid); 0 without a floor."""
        floor = self.floor(game)
        if floor is None:
            return 0
        laid = sum(group_worth(floor[1], m.kind, m.tiles) for m in s.melds)
        return max(0, floor[0] - laid - extra)

    def choose(self, game, seat: int, moves: list[Move]) -> Move:
        native = self.native and type(self) is EfficiencyBot
        chosen = game_choice(self, game, seat, moves, set_partners, EfficiencyBot) if native else None
        if chosen is None and self.native:
            chosen = native_choice(self, game, seat, moves, set_partners)
        if chosen is not None:  # the same move, natively
            return chosen
        prog = game.prog
        wins = [m for m in moves if (a := prog.actions.get(m.action)) is not None and a.wins]
        if wins:  # greedy's rule: a self-drawn win given up for a discard that wins on any tile
            better = self._wait_for_any(game, seat, moves)
            return better if better is not None else wins[0]
        s = game.st.seats[seat]
        discards = [m for m in moves if m.action == "discard"]
        ready = [m for m in moves if (a := prog.actions.get(m.action)) is not None and not a.forms and not a.wins
                 and (getattr(a.ir, "ready", False) or a.ir.then == "auto")]
        if ready and self._live_waits(game, s) >= READY_LIVE:
            return ready[0]
        melds = [m for m in moves if (a := prog.actions.get(m.action)) is not None and a.forms and m.tiles]
        if melds:
            taken = self._meld(game, seat, melds, bool(discards))
            if taken is not None:
                return taken
        return self.fallback(game, seat, moves, discards)

    # ------------------------------------------------------------------ the hand as counts

    def _counts(self, game, tiles) -> tuple[list[int], int]:
        return kind_counts(tiles, game.dec.n, game.hand_wild_names)

    def _live(self, game, s, kind) -> int:
        own = sum(1 for t in s.hand if t.name == kind.name)
        return max(0, kind.copies - game.visible_count(kind) - own)

    def _live_waits(self, game, s) -> int:
        return sum(self._live(game, s, k) for k in game.waits(s))

    def _settled(self, game, counts, w: int, melds: int, need: int = 0) -> int:
        """The distance of a hand as it will stand once it has discarded, if it must (the best discard)."""
        dist = self.measure(game)
        size = sum(counts) + w
        if dist.targets(melds, size):
            return dist.distance(counts, w, melds, need)
        return dist.settled(counts, w, melds, need)

    # ------------------------------------------------------------------ melds

    def _meld(self, game, seat: int, melds: list[Move], own_turn: bool) -> Move | None:
        """The meld to lay down: the one after which the hand is nearest a win, if it is nearer than
        without it — or, for a kong, no farther (the replacement tile is a tile more)."""
        if self.state(game).gated:
            same = [m for m in melds if len(set(m.tiles)) == 1]
            if same:
                return same[0]
        s = game.st.seats[seat]
        counts, w = self._counts(game, s.hand)
        now = self._settled(game, list(counts), w, len(s.melds), self.need(game, s))
        floor = self.floor(game)
        pending = game.pending
        outside = pending.tile if pending is not None and pending.kind not in ("turn", "deal") else None
        wild = game.hand_wild_names
        best, best_d = None, FAR + 1
        for m in melds:
            need = Counter(m.tiles)
            if outside is not None and need[outside.name]:
                need[outside.name] -= 1
            c, ww = list(counts), w
            taken = 0
            for name, k in need.items():
                kind = game.cat.by_name.get(name)
                if kind is None:
                    continue
                if name in wild:
                    use = min(k, ww)
                    ww -= use
                else:
                    use = min(k, c[kind.index])
                    c[kind.index] -= use
                taken += use
            new = taken == sum(need.values())  # else it grows a meld laid down before
            worth = 0
            if floor is not None:
                kind = m.meld or next(iter(game.prog.actions[m.action].forms), None)
                worth = group_worth(floor[1], kind, [game.cat.by_name[x] for x in m.tiles])
                if not new:  # it grows a laid meld: that one's worth counts no more
                    worth -= max((group_worth(floor[1], g.kind, g.tiles) for g in s.melds
                                  if g.tiles and g.tiles[0].name == m.tiles[0]), default=0)
            after = self._settled(game, c, ww, len(s.melds) + new, self.need(game, s, worth))
            kong = any((mk := game.rs.meld(k)) is not None and mk.kong for k in game.prog.actions[m.action].forms)
            if outside is not None and len(set(m.tiles)) > 1 and after > 1:
                continue  # a claimed run (or any mixed group) only to be one tile away: it costs patterns
            if after < now or (kong and after <= now):
                if after < best_d:
                    best, best_d = m, after
        return best

    # ------------------------------------------------------------------ discards

    def discard(self, game, seat: int, discards: list[Move]) -> Move:
        """The discard after which the hand is nearest a win; among those, the one whose wanted tiles
        (the kinds that bring it nearer, or at one tile the real waits) have most live copies; then
        greedy's measure (fewest neighbours). Never a wildcard while another discard is as near."""
        s = game.st.seats[seat]
        dist = self.measure(game)
        need = self.need(game, s)
        counts, w = self._counts(game, s.hand)
        wild = game.hand_wild_names
        by_name = game.cat.by_name
        scored = []
        for m in discards:
            name = m.tiles[0]
            kind = by_name[name]
            if name in wild:
                d = dist.distance(counts, w - 1, len(s.melds), need)
            else:
                counts[kind.index] -= 1
                d = dist.distance(counts, w, len(s.melds), need)
                counts[kind.index] += 1
            scored.append((d, m))
        near = min(d for d, _ in scored)
        if self.state(game).gated:
            return self._value_discard(game, s, scored, counts, w)
        real: dict = {}
        if near == 1:  # one tile away by structure: the real waits decide (requirements, every form)
            for i, (d, m) in enumerate(scored):
                if d == 1:
                    real[m] = live = self._winning_live(game, s, m.tiles[0])
                    if not live:
                        scored[i] = (2, m)
                        self.state(game).gated = True
            near = min(d for d, _ in scored)
        best = [m for d, m in scored if d == near]
        if len(best) > TIE_BREAK and near > 1:  # the live count is the dear part: greedy's measure picks first
            best = sorted(best, key=lambda m: self._neighbours_key(game, s, m))[:TIE_BREAK]
        if len(best) > 1 and near < FAR:
            lives = {m: real[m] if near == 1 else self._wanted(game, s, dist, counts, w, m.tiles[0])
                     for m in best}
            top = max(lives.values())
            best = [m for m in best if lives[m] == top]
        if len(best) == 1:
            return best[0]
        plain = [m for m in best if m.tiles[0] not in wild] or best
        return super().discard(game, seat, plain)

    def _winning_live(self, game, s, name: str) -> float:
        """The live copies of the tiles a win on which, after giving up one `name`, meets every
        requirement. The real waits (`Game.waits_without`: a win on a tile claimed, requirements
        included) when every requirement is one the waits see and there are some; else each tile that
        completes the hand by shape (`Distance.improving`) and each real wait is scored in full
        (`Game.score`), claimed and self-drawn. A wait that wins only self-drawn counts 1/n of its copies
        (the seat draws about one tile in n), one that wins claimed too counts them all. Memoised per
        hand shape."""
        conc = list(s.hand)
        del conc[next(i for i, t in enumerate(conc) if t.name == name)]
        memo = self.state(game).wins
        shape = (tuple(sorted(t.name for t in conc)), tuple((m.kind, tuple(t.name for t in m.tiles)) for m in s.melds))
        got = memo.get(shape)
        if got is None:
            waits = game.waits_without(s, game.cat.by_name[name])
            rules = game.rules
            if waits and len(rules.requires) == len(rules.wait_requires):
                got = (waits, None)
            else:
                counts, w = self._counts(game, conc)
                d, kinds = self.measure(game).improving(counts, w, len(s.melds))
                got = (waits, list(dict.fromkeys([k.index for k in waits] + (kinds if d == 1 else []))))
            if len(memo) > 20_000:
                memo.clear()
            memo[shape] = got
        waits, cands = got
        if cands is None:
            return sum(self._live(game, s, k) for k in waits)
        kinds = game.cat.kinds
        claimed = {k.name for k in waits}
        total = 0.0
        for i in cands:
            k = kinds[i]
            key = (shape, k.name)
            got = memo.get(key)
            if got is None:
                got = 0.0
                # a tile not among the real waits does not win claimed: they are the claimed wins that
                # meet the requirements the waits see, a part of every requirement
                tries = ((False, 1.0), (True, 1.0 / game.n)) if k.name in claimed else ((True, 1.0 / game.n),)
                for drawn, weight in tries:
                    res, _ = game.score(s, k, drawn, conc)
                    if res is not None and res.win:
                        got = weight
                        break
                memo[key] = got
            if got:
                total += got * self._live(game, s, k)
        return total

    def _value_discard(self, game, s, scored, counts, w):
        """Playing for value: a discard that leaves winning waits (`_winning_live`, most live first);
        else the one nearest a win made of the groups that score (`value_measure`), then nearest any
        win, then greedy's measure. Never a wildcard while another discard is as good."""
        by_name = game.cat.by_name
        wild = game.hand_wild_names
        real = {}
        for d, m in scored:
            if d == 1:
                live = self._winning_live(game, s, m.tiles[0])
                if live:
                    real[m] = live
        if real:
            top = max(real.values())
            best = [m for m in real if real[m] == top]
            plain = [m for m in best if m.tiles[0] not in wild] or best
            return GreedyBot.discard(self, game, s.index, plain)
        vdist = self.value_measure(game)
        keyed = []
        for d, m in scored:
            name = m.tiles[0]
            if name in wild:
                vd = vdist.distance(counts, w - 1, len(s.melds))
            else:
                k = by_name[name].index
                counts[k] -= 1
                vd = vdist.distance(counts, w, len(s.melds))
                counts[k] += 1
            keyed.append(((vd, d), m))
        low = min(k for k, _ in keyed)
        best = [m for k, m in keyed if k == low]
        plain = [m for m in best if m.tiles[0] not in wild] or best
        return GreedyBot.discard(self, game, s.index, plain)

    def _wanted(self, game, s, dist: Distance, counts, w: int, name: str) -> int:
        """Live copies of the kinds that bring the hand nearer a win after giving up one `name`."""
        wild = name in game.hand_wild_names
        kind = game.cat.by_name[name]
        if not wild:
            counts[kind.index] -= 1
        _, kinds = dist.improving(counts, w - wild, len(s.melds), self.need(game, s))
        if not wild:
            counts[kind.index] += 1
        cat = game.cat.kinds
        return sum(self._live(game, s, cat[k]) for k in kinds)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mixed": MixedBot, "efficiency": EfficiencyBot}


def play(game, bots) -> dict:
    """Play a game to its end with one bot per seat; returns its result."""
    while not game.is_over():
        seat = game.current_seats()[0]
        game.apply(seat, bots[seat].choose(game, seat, game.legal_moves(seat)))
    return game.result()
