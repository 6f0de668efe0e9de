"""The efficiency bot's choice by the native core (runtime/native/src/engine/bots.rs): the seat's data as
catalog indices, the moves as the flags the policy reads, and the questions only the game answers (its
waits, its waits without a tile, whether a win on a tile meets the rules, the copies in sight) asked
back through `SeatOracle`. runtime/game/bots.py `EfficiencyBot` is the reference and the caller: it asks
here first when its measure is the native tables' (the rules on the native backend) and plays the
same move as its own policy would (bench/bot_backends.py, tests/test_distance_native.py).
"""
from __future__ import annotations

import random

from ..backend import native_module
from .group_values import value_floor
from .moves import PASS

_ENCODINGS: dict = {}  # (id(rs), id(dec)) -> (rs, dec, Encoding): shared by the bots of every game


class Encoding:
    """One rule set under one catalog as the native policy takes it: its constants (`EfficiencyRules`),
    meld kind ids, and the moves' flags, kept as they are asked."""

    def __init__(self, game, partners: dict[str, set[str]]):
        mod = native_module()
        rs, cat = game.rs, game.cat
        self.kinds = cat.kinds
        self.by_name = cat.by_name
        self.shape_ids = {mk.name: i for i, mk in enumerate(rs.melds)}
        suits: dict = {None: -1}
        for k in cat.kinds:
            suits.setdefault(k.suit, len(suits) - 1)
        floor = value_floor(game.rules)
        values = []
        for mk in rs.melds:
            of = (floor[1].get(mk.name) or {}) if floor else {}
            values.append([(suits.setdefault(s, len(suits) - 1), v) for s, v in of.items()])
        idx = {k.name: k.index for k in cat.kinds}
        self.rules = mod.EfficiencyRules(
            [k.copies for k in cat.kinds], [k.category == "flower" for k in cat.kinds],
            [suits[k.suit] for k in cat.kinds], [k.rank if isinstance(k.rank, int) else 0 for k in cat.kinds],
            [sorted({idx[x] for x in partners.get(k.name, ()) if x in idx}) for k in cat.kinds],
            [[k.index for k in cat.kinds if k.attrs.get(f.orphans)] for f, _, _ in game.rules.forms if f.orphans],
            floor[0] if floor else None, values, len(game.rules.requires) == len(game.rules.wait_requires))
        self.prog, self.rs = game.prog, rs
        self.moves: dict = {}
        self.wild: tuple = (None, [])

    def move(self, m) -> tuple:
        key = (m.action, m.tiles, m.meld, m.choice is None)
        got = self.moves.get(key)
        if got is None:
            a = self.prog.actions.get(m.action)
            forms = a.forms if a is not None else ()
            kind = (m.meld or next(iter(forms), None)) if a is not None else None
            got = (a is not None and bool(a.wins),
                   a is not None and not a.forms and not a.wins and bool(getattr(a.ir, "ready", False)
                                                                         or a.ir.then == "auto"),
                   bool(a is not None and a.forms and m.tiles), m.action == "discard", m == PASS,
                   bool(a is not None and a.ir.select),
                   any((mk := self.rs.meld(k)) is not None and mk.kong for k in forms),
                   self.shape_ids.get(kind, -1) if kind else -1,
                   [self.by_name[x].index for x in m.tiles])
            if len(self.moves) > 50_000:
                self.moves.clear()
            self.moves[key] = got
        return got

    def wild_of(self, names) -> list[int]:
        if self.wild[0] is not names:
            self.wild = (names, [self.by_name[x].index for x in names if x in self.by_name])
        return self.wild[1]


class SeatOracle:
    """What only the game answers, for the native policy (kinds as catalog indices)."""

    __slots__ = ("game", "seat", "kinds")

    def __init__(self, game, seat):
        self.game, self.seat, self.kinds = game, seat, game.cat.kinds

    def waits(self) -> list[int]:
        return [k.index for k in self.game.waits(self.seat)]

    def waits_without(self, kind: int, groups: bool) -> list[int]:
        return [k.index for k in self.game.waits_without(self.seat, self.kinds[kind], groups=groups)]

    def wins(self, without: int, kind: int, drawn: bool) -> bool:
        conc = list(self.seat.hand)
        name = self.kinds[without].name
        del conc[next(i for i, t in enumerate(conc) if t.name == name)]
        res, _ = self.game.score(self.seat, self.kinds[kind], drawn, conc)
        return res is not None and res.win

    def visible(self, kind: int) -> int:
        return self.game.visible_count(self.kinds[kind])


def action_flags(game) -> tuple[list[str], list[tuple]]:
    """The meld kinds by name (their ids) and per action what the bots read of it (native_bot `Encoding.move`)."""
    rs = game.rs
    shapes = [mk.name for mk in rs.melds]
    ids = {n: i for i, n in enumerate(shapes)}
    out = []
    for name, a in game.prog.actions.items():
        forms = list(a.forms)
        melds = [rs.meld(k) for k in forms]
        out.append((name, bool(a.wins),
                    not a.forms and not a.wins and bool(getattr(a.ir, "ready", False) or a.ir.then == "auto"),
                    bool(a.forms), bool(a.ir.select), any(m is not None and m.kong for m in melds),
                    ids.get(forms[0], -1) if forms else -1,
                    any(m is not None and m.shape.kind == "same" for m in melds)))
    return shapes, out


def encoding(game, partners) -> Encoding:
    key = (id(game.rs), id(game.dec))
    got = _ENCODINGS.get(key)
    if got is None or got[0] is not game.rs or got[1] is not game.dec:
        if len(_ENCODINGS) >= 4:
            _ENCODINGS.clear()
        got = _ENCODINGS[key] = (game.rs, game.dec, Encoding(game, partners))
    return got[2]


def native_choice(bot, game, seat: int, moves: list, partners):
    """The move the native policy chooses for `bot` (an EfficiencyBot), or None when its measure is not
    the native tables' (the rules on the Python backend): then the bot's own policy chooses.
    `partners`: a callable giving the rule set's fixed-set partners (`bot_reads.set_partners`)."""
    measure = bot.measure(game)
    if measure.native is None:
        return None
    enc = encoding(game, partners(game.rs))
    st = bot.state(game)  # one policy per rule set and catalog: its memo is by catalog index
    if st.policy is None:
        st.policy = native_module().EfficiencyPolicy()
    s = game.st.seats[seat]
    pending = game.pending
    outside = pending.tile if pending is not None and pending.kind not in ("turn", "deal") else None
    i = st.policy.choose(
        enc.rules, [t.index for t in s.hand], [(enc.shape_ids[m.kind], [t.index for t in m.tiles]) for m in s.melds],
        s.drawn.index if s.drawn is not None else -1, enc.wild_of(game.hand_wild_names),
        outside.index if outside is not None else -1, game.n, [enc.move(m) for m in moves],
        SeatOracle(game, s), measure, bot.value_measure(game))
    st.gated = st.policy.gated
    if i < 0:  # pass: the offered move itself, stamped with its decision (as a log writes it)
        return next((m for m in moves if m == PASS), PASS)
    return moves[i]


def game_choice(bot, game, seat: int, moves: list, partners, efficiency):
    """The move the native bots (engine/bot_play.rs) choose for `bot` — greedy, efficiency with its state
    under the rule set, or mixed with its generators (held natively until its own policy reads them) — on
    a `Game` on the native backend while its native hand plays: chosen on the native state as `paili
    simulate`'s native path chooses, so no Python game is replayed beside it for the bot's questions.
    None where the game is another, `moves` are not the seat's legal moves, or the native side declines:
    then the bot's own policy chooses. `efficiency`: the efficiency bot's class, whose two `Distance`
    objects (shared by its bots) the native hand keeps with the rule set's bot data (`set_bots`,
    made once per native hand)."""
    native = getattr(type(game), "native_bot_hand", None)
    got = native(game) if native is not None else None
    if got is None:
        return None
    shell, hand = got
    if moves != game.legal_moves(seat):
        return None
    if not hand.has_bots():
        enc = encoding(shell, partners(shell.rs))
        shapes, actions = action_flags(shell)
        b = efficiency()
        hand.set_bots(enc.rules, shapes, actions, b.measure(shell), b.value_measure(shell))
    if bot.name == "greedy":
        i = hand.bot_choose(seat)
    elif bot.name == "mixed":
        i = hand.bot_choose(seat, None, bot.native_twin(native_module()))
    else:
        st = bot.states.of(shell)
        if st.policy is None:
            st.policy = native_module().EfficiencyPolicy()
        i = hand.bot_choose(seat, st.policy)
        st.gated = st.policy.gated
    return None if i is None else moves[i]


class NativeGenerators:
    """The mixed bot's two generators (`rng`, `mix`), held natively (`MixedState`) while the native side
    chooses its moves on a native game (`game_choice`) and brought back to the `random.Random` objects
    whenever they are read here, so the bot draws the same numbers whichever side chooses."""

    _twin = None

    @property
    def rng(self) -> random.Random:
        self._home()
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._home()
        self._rng = value

    @property
    def mix(self) -> random.Random:
        self._home()
        return self._mix

    @mix.setter
    def mix(self, value: random.Random) -> None:
        self._home()
        self._mix = value

    def native_twin(self, mod):
        """The generators as the native side holds them (`MixedState`), taken over from here on first use."""
        if self._twin is None:
            def state(r):
                words = r.getstate()[1]
                return list(words[:-1]), words[-1]
            self._twin = mod.MixedState(state(self._rng), state(self._mix), self.patience)
        else:
            self._twin.patience = self.patience
        return self._twin

    def _home(self) -> None:
        twin, self._twin = self._twin, None
        if twin is not None:
            for r, (words, pos) in zip((self._rng, self._mix), twin.state()):
                version, _, gauss = r.getstate()
                r.setstate((version, (*words, pos), gauss))

