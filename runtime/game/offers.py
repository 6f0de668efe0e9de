"""The legal moves: which actions a seat is offered in a situation (by, guards, restrictions), the melds
and wins it can make, discards, pass.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..evaluate import compile_expr
from ..ir import nodes as ir
from ..limits import SELECT_WORK
from ..tiles import TileInfo
from .moves import PASS, MeldOption, Move, meld_options, one_kind_per_meld
from .program import WIN_CTX_EVENTS, CAction
from .records import (
    BY_NAME,
    EVAL_ERRORS,
    MISSING,
    NO_OFFER,
    Offer,
    tally,
    tile_free_prefix,
)
from .state import Seat


class Offers:
    """The offers steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def _by_ok(self, word: str, c: int, actor: int | None) -> bool:
        st = self.st
        match word:
            case "self":
                return c == actor
            case "others":
                return actor is not None and c != actor
            case "next":
                return actor is not None and c == self.next_seat(actor)
            case "previous":
                return actor is not None and self.next_seat(c) == actor
            case "any":
                return True
            case "winner":
                return c in st.winners
            case "loser":
                return bool(st.winners) and c not in st.winners
            case "dealer":
                return c == st.dealer
            case "non_dealer":
                return c != st.dealer
        return False

    def _restricted(self, action: str, seat: Seat, tile: TileInfo | None, reading=None) -> bool:
        fns = self._restrict_cache.get(action)
        if fns is None:
            fns = self._restrict_cache[action] = self.prog.restricted(action)
        if not fns:
            return False
        return any(self.condition_holds(fn, reading, actor=seat, tile=self.tv(tile)) for fn in fns)

    def _win_moves(self, c: int, ctx: str, tile: TileInfo | None, actor: int | None,
                   discarder: int | None = None, robbed: int | None = None) -> list[tuple[Move, Offer]]:
        seat = self.st.seats[c]
        out: list[tuple[Move, Offer]] = []
        for a in self._win_actions[ctx]:
            word = a.ir.by
            if "win_offer" in a.events and not any(e in a.events for e in WIN_CTX_EVENTS[ctx]):
                ok = word in ("any", "self") if ctx == "self" else word in ("any", "others")
            else:
                ok = self._by_ok(word, c, actor)
            if not ok:
                continue
            if ctx == "reveal":
                mode = "revealed" if c == actor else "claimed"
            else:
                mode = a.ir.win_tile or ("drawn" if ctx == "self" else "claimed" if ctx in ("discard", "added_kong")
                                         else "drawn")
            if mode == "last_dealt":
                mode = "drawn"
                tile = self.st.last_dealt if c == self.st.dealer and self.st.last_dealt in seat.hand else None
                if tile is None:
                    continue
            info = self._win_info(c, mode, tile, tuple(a.ir.win_forms), discarder, robbed, a.name)
            if info is None:
                continue
            reading = info.reading_env(self)
            b = dict(actor=seat, tile=self.tv(info.tile), self_drawn=info.self_drawn,
                     discarder=self.seat_of(discarder), robbed=self.seat_of(robbed), score=info.result.score)
            if not self.condition_holds(a.when, reading, **b) or self._restricted(a.name, seat, info.tile, reading):
                continue
            info = replace(info, action=a.name)
            out.append((Move(a.name, (info.tile.name,) if info.tile else ()), Offer(a, win=info,
                                                                                     compulsory=a.ir.compulsory)))
        if out:
            self._hooks_only("win_offer", {"actor": seat, "tile": self.tv(tile)})
            offered = {m.action for m, _ in out}
            for a in self._instead:
                if a.ir.instead_of in offered and self._by_ok_offer(a, c, actor, ctx) and \
                        self.condition_holds(a.when, actor=seat, tile=self.tv(tile)) and \
                        not self._restricted(a.name, seat, tile):
                    out.extend(self._plain_moves(a, seat, tile))
        return out

    def _by_ok_offer(self, a: CAction, c: int, actor: int | None, ctx: str) -> bool:
        if "win_offer" in a.events:
            return a.ir.by in ("any", "self") if ctx == "self" else a.ir.by in ("any", "others", "self")
        return self._by_ok(a.ir.by, c, actor)

    def _plain_moves(self, a: CAction, seat: Seat, tile: TileInfo | None, reading=None,
                     **bind) -> list[tuple[Move, Offer]]:
        """An action without a meld or a win: one move, or one per open choice."""
        if not a.choices and a.choice_list is None:
            return [(Move(a.name), Offer(a, compulsory=a.ir.compulsory))]
        out = []
        env = self.env(reading, actor=seat, tile=tile, **bind)
        seen = set()
        for v in self._choice_values(a, env, note=True):
            if v is None:  # the checker refuses a choice that may be none; a loaded rule set is checked too
                continue
            plain = plain_choice(v)
            if plain in seen:  # one move per distinct choice (a computed list may repeat a value)
                continue
            seen.add(plain)
            if a.choice_when is not None and not self.condition_holds(a.choice_when, reading, actor=seat, tile=tile,
                                                            choice=v, **bind):
                continue
            if a.when is not None and not self.condition_holds(a.when, reading, actor=seat, tile=tile, choice=v,
                                                               **bind):
                continue
            out.append((Move(a.name, (), plain), Offer(a, compulsory=a.ir.compulsory)))
        return out

    def _choice_values(self, a: CAction, env, note: bool = False) -> list:
        """The values of an action's choices in this environment: each literal's, then the items of a
        computed list (`choices = EXPR`), in order; one that fails to evaluate is left out (noted)."""
        out = []
        for ch in a.choices:
            try:
                out.append(ch(env))
            except EVAL_ERRORS as exc:
                if note:
                    self.note_error(f"choice of {a.name}: {exc}")
        if a.choice_list is not None:
            try:
                items = a.choice_list(env)
            except EVAL_ERRORS as exc:
                if note:
                    self.note_error(f"choices of {a.name}: {exc}")
                items = []
            out.extend(items if isinstance(items, list) else [])
        return out

    def _select_moves(self, a: CAction, seat: Seat, tile, reading=None, **bind) -> list[tuple[Move, Offer]]:
        """A `select N` decision: one move per distinct set of N of the seat's concealed tiles (by kind, in
        catalog order) for which the selection's condition and the guard hold, `choice` bound to the
        tiles. At most `SELECT_WORK` sets are examined (a larger hand's further sets are not offered)."""
        counts = Counter(t.name for t in seat.hand)
        kinds = sorted({t.name: t for t in seat.hand}.values(), key=lambda t: t.index)
        out: list[tuple[Move, Offer]] = []
        examined = 0
        for combo in _multisets(kinds, counts, a.ir.select):
            examined += 1
            if examined > SELECT_WORK:
                self.note_error(f"{a.name}: more than {SELECT_WORK} sets of tiles to choose from; the rest "
                                "are not offered")
                break
            if a.choice_when is not None and not self.condition_holds(a.choice_when, reading, actor=seat,
                                                                      tile=tile, choice=combo, **bind):
                continue
            if a.when is not None and not self.condition_holds(a.when, reading, actor=seat, tile=tile,
                                                               choice=combo, **bind):
                continue
            out.append((Move(a.name, tuple(t.name for t in combo)), Offer(a, compulsory=a.ir.compulsory)))
        return out

    def choice_value(self, a: CAction, plain, bind: dict):
        """The value a move's choice stands for (a tile, tiles, a seat, a suit, a number): the choice of
        the action, evaluated as it was offered, whose plain form the move carries."""
        if plain is None or (not a.choices and a.choice_list is None):
            return plain
        env = self.env(None, **bind)
        for v in self._choice_values(a, env):
            if v is not None and plain_choice(v) == plain:
                return v
        return plain

    def _unusable(self, a: CAction, kind: str) -> frozenset[str]:
        key = (a.name, kind)
        got = self._unusable_cache.get(key)
        if got is None:
            got = self._unusable_cache[key] = self._unusable_now(a, kind)
        return got

    def _unusable_now(self, a: CAction, kind: str) -> frozenset[str]:
        bad = set()
        for w in self.rs.wilds:
            if w.scope != "hand":
                continue
            if kind in w.no_meld or a.name in w.no_action:
                k = self.cat.by_name.get(w.tiles) or self.st.reveals.get(w.tiles)
                if k is not None:
                    bad.add(k.name)
        return frozenset(bad)

    def _avail(self, seat: Seat, unusable: frozenset[str]) -> Counter:
        key = (seat.version, unusable)
        c = seat.memo.avail
        if c is not None and c[0] == key:
            return c[1]
        got = Counter([t.name for t in seat.hand if t.name not in unusable] if unusable else map(BY_NAME, seat.hand))
        seat.memo.avail = (key, got)
        return got

    def _may_claim(self, seat: Seat, a: CAction, t: TileInfo) -> bool:
        """False when action a cannot make a meld of the tile t with this seat's concealed tiles: every
        kind it forms is a `same` shape formed anew (no upgrade, no growth) and the seat holds fewer than
        size − 1 usable copies of t. The names it could claim are listed once per seat version, so a
        seat asked about several discards between its turns answers each with one lookup."""
        key = (seat.version, self._ctx_version)  # a reveal (a context change) may change the wildcards
        c = seat.memo.claimable
        if c is None or c[0] != key:
            c = seat.memo.claimable = (key, {})
        names = c[1].get(a.name, MISSING)
        if names is MISSING:
            names = set()
            for kind in a.forms:
                mk = self.mk.get(kind)
                if mk is None:
                    continue
                sh = mk.shape
                if sh.kind != "same" or mk.upgrades or mk.grows or sh.size < 2:
                    names = None  # no quick list for this kind: always ask
                    break
                avail = self._avail(seat, self._unusable(a, kind))
                names.update(n for n, k in avail.items() if k >= sh.size - 1)
            c[1][a.name] = names
        return names is None or t.name in names

    def _meld_options(self, seat: Seat, mk: ir.MeldKind, required: TileInfo | None,
                      unusable: frozenset[str]) -> list[MeldOption]:
        """`meld_options`, kept per seat until its tiles or melds change (several actions form the same
        kind: a meld that grows is both formed and extended)."""
        c = seat.memo.meld_opts
        if c is None or c[0] != seat.version:
            c = seat.memo.meld_opts = (seat.version, {})
        key = (mk.name, required.name if required is not None else None, unusable)
        got = c[1].get(key)
        if got is None:
            avail = self._avail(seat, unusable)
            got = c[1][key] = [] if self.shortcuts and self._no_meld(seat, mk, required, avail) else \
                meld_options(self.rules, self.cat, seat, mk, required, unusable, avail)
        return got

    def _no_meld(self, seat: Seat, mk: ir.MeldKind, required: TileInfo | None, avail: Counter) -> bool:
        """An exact refusal before `meld_options` for the common cases: an upgrade with no meld to
        upgrade (and no concealed `hand` kind among those it upgrades); a growing kind of fixed tiles with
        no meld of its kind and not all its tiles held; too few copies for a `same` shape; for a run
        with the required tile, no run through it whose other tiles are held."""
        sh = mk.shape
        if mk.upgrades:
            if any(m.kind in mk.upgrades for m in seat.melds):
                return False
            return not any((k := self.mk.get(u)) is not None and k.hand for u in mk.upgrades)
        if mk.grows:
            if required is not None or sh.kind != "tiles" or any(m.kind == mk.name for m in seat.melds):
                return False
            return any(avail.get(n, 0) < c for n, c in tally(sh.tiles))
        if sh.kind == "same":
            if required is not None:
                return avail.get(required.name, 0) < sh.size - 1
            return not avail or max(avail.values()) < sh.size
        if sh.kind == "run" and required is not None:
            if required.suit is None:
                return True
            names = self._rank_names(required.suit)
            r, size = required.rank, sh.size
            for start in range(r - size + 1, r + 1):
                if all(x == r or avail.get(names.get(x), 0) > 0 for x in range(start, start + size)) and \
                        all(x in names for x in range(start, start + size)):
                    return False
            return True
        return False

    @staticmethod
    def _grown(a: CAction, mk: ir.MeldKind, opts: list[MeldOption]) -> list[MeldOption]:
        """The options of a growing kind that the action's `grow` allows: formed anew (`new`), added to
        a meld already laid down (`extend`), or both (`any`)."""
        if not mk.grows or a.ir.grow == "any":
            return opts
        extend = a.ir.grow == "extend"
        return [o for o in opts if (o.extends is not None) == extend]

    def _rank_names(self, suit: str) -> dict[int, str]:
        c = self._ranks
        got = c.get(suit)
        if got is None:
            got = c[suit] = {k.rank: k.name for k in self.cat.kinds if k.suit == suit}
        return got

    def _meld_moves(self, a: CAction, seat: Seat, required: TileInfo | None, reading=None,
                    **bind) -> list[tuple[Move, Offer]]:
        out = []
        if required is not None:  # a claim: the tile is known before any meld is tried
            opts = []
            for kind in a.forms:  # the melds first: most claimants have none, and then no guard is read
                mk = self.mk.get(kind)
                if mk is not None:
                    unusable = self._unusable(a, kind)
                    avail = self._avail(seat, unusable)
                    sh = mk.shape
                    if sh.kind == "same" and not (mk.upgrades or mk.grows) and \
                            avail.get(required.name, 0) < sh.size - 1:
                        continue  # `meld_options` would refuse at once: too few copies held
                    opts.extend(self._grown(a, mk, self._meld_options(seat, mk, required, unusable)))
            if not opts:
                return out
            t = self.tv(required)
            if (a.when is not None and not self.condition_holds(a.when, reading, actor=seat, tile=t, **bind)) or \
                    self._restricted(a.name, seat, required):
                return out
            return [(self._meld_move(a, opt), Offer(a, meld=opt, compulsory=a.ir.compulsory))
                    for opt in self._one_kind(a, opts)]
        found = []
        for kind in a.forms:
            mk = self.mk.get(kind)
            if mk is None:
                continue
            unusable = self._unusable(a, kind)
            for opt in self._grown(a, mk, self._meld_options(seat, mk, required, unusable)):
                if required is None:
                    t = self.tv(opt.key)
                    if a.when is not None and not self.condition_holds(a.when, reading, actor=seat, tile=t, **bind):
                        continue
                    if self._restricted(a.name, seat, opt.key):
                        continue
                found.append(opt)
        return [(self._meld_move(a, opt), Offer(a, meld=opt, compulsory=a.ir.compulsory))
                for opt in self._one_kind(a, found)]

    def _one_kind(self, a: CAction, opts: list[MeldOption]) -> list[MeldOption]:
        """One kind per set of tiles (`one_kind_per_meld`): only an action forming several kinds can
        offer the same tiles twice."""
        return one_kind_per_meld(opts, self._meld_value) if len(a.forms) > 1 else opts

    @staticmethod
    def _meld_move(a: CAction, opt: MeldOption) -> Move:
        """The move laying down `opt`; it names the kind when the action forms several (so that the log
        and the player see which one, and two kinds of equal value are two moves)."""
        return Move(a.name, tuple(x.name for x in opt.tiles), None, opt.kind if len(a.forms) > 1 else None)

    def _meld_value(self, opt: MeldOption):
        """The kind's declared `value` for the option's suit (a constant per kind and suit), 0 without one."""
        cache = self._meld_values
        suit = opt.tiles[0].suit if opt.tiles else None
        key = (opt.kind, suit)
        if key not in cache:
            mk = self.mk[opt.kind]
            chosen = next((v for v in mk.values if v.suit == suit), None) or next(
                (v for v in mk.values if not v.suit), None)
            cache[key] = compile_expr(chosen.value)({}) if chosen is not None else 0
        return cache[key]

    def _action_moves(self, a: CAction, seat: Seat, tile: TileInfo | None, required: TileInfo | None,
                      reading=None, **bind) -> list[tuple[Move, Offer]]:
        """Moves of a non-win action (meld or plain) for a seat."""
        if a.description or a.wins or a.ir.instead_of:
            return []
        if a.forms:
            return self._meld_moves(a, seat, required, reading, **bind)
        if a.ir.select:
            if self._restricted(a.name, seat, tile):
                return []
            return self._select_moves(a, seat, self.tv(tile), reading, **bind)
        if a.choices or a.choice_list is not None:
            return [x for x in self._plain_moves(a, seat, self.tv(tile), reading, **bind)
                    if not self._restricted(a.name, seat, tile)]
        if not self.condition_holds(a.when, reading, actor=seat, tile=self.tv(tile), **bind) or \
                self._restricted(a.name, seat, tile):
            return []
        return self._plain_moves(a, seat, tile, reading, **bind)

    def _offerable(self, event: str) -> list[CAction]:
        """The actions `event` opens that `_action_moves` can offer (not descriptions, wins or
        `instead_of` choices, for which it offers nothing), in file order; computed once."""
        c = self._offerable_cache.get(event)
        if c is None:
            c = self._offerable_cache[event] = [a for a in self.prog.actions_on.get(event, ())
                                                if not (a.description or a.wins or a.ir.instead_of)]
        return c

    def _own_turn_actions(self) -> list[CAction]:
        """The actions `turn` or `draw` open by self / any, each once (turn's first)."""
        c = self._offerable_cache.get(" own turn")
        if c is None:
            seen: dict[str, CAction] = {}
            for ev in ("turn", "draw"):
                for a in self._offerable(ev):
                    if a.name not in seen and a.ir.by in ("self", "any"):
                        seen[a.name] = a
            c = self._offerable_cache[" own turn"] = list(seen.values())
        return c

    def _live_restrictions(self, action: str, seat: Seat) -> list:
        """The restrictions on `action` that may hold for some tile of this seat now: one whose leading
        conditions do not read `tile` and are false now (`restrict … when PHASE and …` outside the phase)
        holds for no tile, so it is not asked tile by tile. Exact: the closures stop at the first false
        condition too; when those conditions fail to evaluate, the restriction is asked per tile as before."""
        plan = self._restrict_plans.get(action)
        if plan is None:
            plan = self._restrict_plans[action] = [(tile_free_prefix(r.when), fn) for r, fn in self.prog.restricts
                                                   if action in r.actions]
        live = []
        for pre, fn in plan:
            if pre is not None and self.shortcuts:
                try:
                    if not pre(self.env(None, actor=seat)):
                        continue
                except EVAL_ERRORS:
                    pass
            live.append(fn)
        return live

    def _discard_moves(self, seat: Seat) -> list[tuple[Move, Offer]]:
        """A discard of each distinct concealed tile, in catalog order, that no `restrict` forbids."""
        first: dict[int, TileInfo] = {}
        for t in seat.hand:
            if t.index not in first:
                first[t.index] = t
        cache = self._discard_cache
        live = self._live_restrictions("discard", seat)
        out = []
        for i in sorted(first):
            t = first[i]
            if live and any(self.condition_holds(fn, None, actor=seat, tile=self.tv(t)) for fn in live):
                continue
            mv = cache.get(t.name)
            if mv is None:
                mv = cache[t.name] = Move("discard", (t.name,))
            out.append((mv, NO_OFFER))
        return out

    def _with_pass(self, s: int, moves) -> list[Move]:
        """The moves offered plus `pass`, unless a `restrict` forbids passing (and there is a choice)."""
        out = [m for m, _ in moves]
        if not out or not self._restricted("pass", self.st.seats[s], None):
            out.append(PASS)
        return out

    @staticmethod
    def _compulsory(moves):
        return next(((m, o) for m, o in moves if o.compulsory), None)

    def _turn_moves(self, s: int, claimed: bool, allow_win: bool) -> list[tuple[Move, Offer]]:
        st = self.st
        seat = st.seats[s]
        moves: list[tuple[Move, Offer]] = []
        if not claimed:
            if allow_win and seat.drawn is not None:
                moves.extend(self._win_moves(s, "self", seat.drawn, s))
            if not seat.auto:
                for a in self._own_turn_actions():
                    moves.extend(self._action_moves(a, seat, seat.drawn, None))
        if seat.auto and not any(o.compulsory for _, o in moves):
            return moves
        moves.extend(self._discard_moves(seat))
        return moves

    def _follow_moves(self, b: CAction, seat: Seat, t: TileInfo) -> list[tuple[Move, Offer]]:
        if b.wins or b.ir.instead_of:
            return []
        if not b.forms:
            return self._action_moves(b, seat, t, None)
        tv = self.tv(t)
        if (b.when is not None and not self.condition_holds(b.when, actor=seat, tile=tv)) or \
                self._restricted(b.name, seat, t):
            return []
        found = []
        for kind in b.forms:
            mk = self.mk.get(kind)
            if mk is None:
                continue
            unusable = self._unusable(b, kind)
            avail = self._avail(seat, unusable)
            for opt in meld_options(self.rules, self.cat, seat, mk, t, unusable, avail):
                if opt.extends is not None:
                    continue
                need = Counter(x.name for x in opt.tiles)
                if all(avail[n] >= k for n, k in need.items()):
                    found.append(MeldOption(opt.kind, opt.tiles, opt.tiles, None, t))
        return [(self._meld_move(b, opt), Offer(b, meld=opt, compulsory=b.ir.compulsory))
                for opt in self._one_kind(b, found)]


def _multisets(kinds: list[TileInfo], counts: Counter, n: int, start: int = 0):
    """Every way to take n tiles of these kinds (each at most as often as it is held), as lists in the
    kinds' order, each once."""
    if n == 0:
        yield []
        return
    for i in range(start, len(kinds)):
        k = kinds[i]
        for take in range(min(counts[k.name], n), 0, -1):
            for rest in _multisets(kinds, counts, n - take, i + 1):
                yield [k] * take + rest


def plain_choice(v):
    """A decision's value as a move carries it (moves are plain values, written to logs as JSON): a tile
    by its name, several tiles by their names joined by spaces, a seat by its number; a number or a
    suit (its name) as it is."""
    if isinstance(v, TileInfo):
        return v.name
    if isinstance(v, Seat):
        return v.index
    if isinstance(v, list):
        return " ".join(t.name if isinstance(t, TileInfo) else str(t) for t in v)
    return v
