"""`Game(..., backend="native")` (runtime/game/native_game.py; docs/engine-native.md, "Switching backends")
against the reference: seeded games of every configuration played on both backends by the same moves give
equal snapshots and legal moves after every move, equal results and byte-identical logs; a hand the
native engine stops in goes on in Python, counted; an illegal move is refused with the same sentence and
nothing changes; clones, snapshots restored and logs replayed on the native backend; `PAILI_BACKEND`.
bench/engine_equivalence.py `check DIR --backend native` runs the same over 1,000 games per configuration."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import ENGINE_CONFIGS, ROOT, native_engine_only
from paili import load
from paili.runtime.backend import BackendError
from paili.runtime.game import log as gamelog
from paili.runtime.game import native_game
from paili.runtime.game.bots import BOTS
from paili.runtime.game.flow import Game, IllegalMove
from paili.runtime.game.moves import Move
from paili.runtime.game.native_game import NativeGame
from paili.runtime.game.session import Session

pytestmark = native_engine_only()

IDS = [f"{p.split('/')[-1]}-{'-'.join(f'{k}{v}' for k, v in o.items())}" for p, o in ENGINE_CONFIGS]
_RULES: dict[str, object] = {}


def _rules(path: str):
    if path not in _RULES:
        _RULES[path] = load(ROOT / path, backend="native")
    return _RULES[path]


def _both(path: str, options: dict, seed: int, **kw):
    rules = _rules(path)
    return Game(rules, options, seed, backend="python", **kw), Game(rules, options, seed, backend="native", **kw)


def _play_both(py, nat, seed: int) -> int:
    """Play both games by the moves of seeded random bots, comparing after every move; the moves made."""
    bots = [BOTS["random"](seed * 31 + i) for i in range(py.n)]
    made = 0
    while True:
        assert nat.snapshot() == py.snapshot(), f"seed {seed}, after move {made}"
        assert nat.is_over() == py.is_over()
        if py.is_over():
            return made
        seat = py.current_seats()[0]
        assert nat.current_seats() == py.current_seats()
        legal = py.legal_moves(seat)
        got = nat.legal_moves(seat)
        assert got == legal and [m.decision for m in got] == [m.decision for m in legal]
        mv = bots[seat].choose(py, seat, legal)
        py.apply(seat, mv)
        nat.apply(seat, mv)
        made += 1


@pytest.mark.parametrize("path,options", ENGINE_CONFIGS, ids=IDS)
def test_games_equal_on_both_backends(path, options):
    rules = _rules(path)
    before = rules.stats()
    native = 0
    for seed in (3, 11, 40):
        py, nat = _both(path, options, seed)
        native += isinstance(nat, NativeGame)
        assert _play_both(py, nat, seed) > 0
        assert nat.result() == py.result()
        assert json.dumps(nat.result(), ensure_ascii=False) == json.dumps(py.result(), ensure_ascii=False)
        assert nat.table_values() == py.table_values() and nat.player_values() == py.player_values()
        assert nat.violations == py.violations == []
    stats = rules.stats()
    assert native == 3  # every one of these rule sets is taken by the native hand
    assert stats["engine_games"] - before["engine_games"] == 3


def _session_log(path: str, options: dict, seed: int, backend: str, monkeypatch) -> str:
    monkeypatch.setenv("PAILI_BACKEND", backend)
    session = Session(_rules(path), options, seed, 2)
    while (g := session.new_hand()) is not None:
        assert isinstance(g, NativeGame) == (backend == "native")
        bots = [BOTS["random"](seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            s = g.current_seats()[0]
            g.apply(s, bots[s].choose(g, s, g.legal_moves(s)))
        session.finish(g)
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in gamelog.lines(session, "x"))


@pytest.mark.parametrize("path,options", [ENGINE_CONFIGS[1], ENGINE_CONFIGS[4], ENGINE_CONFIGS[8]],
                         ids=[IDS[1], IDS[4], IDS[8]])
def test_logs_byte_identical_and_replayed_on_both_backends(path, options, monkeypatch, tmp_path):
    for seed in (5, 21):
        text = _session_log(path, options, seed, "python", monkeypatch)
        assert _session_log(path, options, seed, "native", monkeypatch) == text  # two hands, values carried
        log = tmp_path / f"{seed}.jsonl"
        log.write_text(text, encoding="utf-8")
        for backend in ("python", "native"):
            monkeypatch.setenv("PAILI_BACKEND", backend)
            assert len(gamelog.replay(log, _rules(path)).played) == 2


class RefusesLater:
    """A native hand that refuses to go on after `after` moves, as a step the port does not cover stops it
    (every bundled hand is now played natively to its end, so the refusal is injected)."""

    SENTENCE = "a step not ported (test)"

    def __init__(self, hand, after: int):
        self.hand, self.after, self.applied = hand, after, 0

    def apply(self, *args):
        self.applied += 1
        return self.hand.apply(*args)

    def refused(self):
        return self.SENTENCE if self.applied >= self.after else self.hand.refused()

    def __getattr__(self, name):
        return getattr(self.hand, name)


def wrap_pool_hands(monkeypatch, wrap) -> None:
    """Every native hand the pool hands out wrapped by `wrap(hand)`; a hand given back to the pool is the
    native one, never the wrapper."""
    take, give_back = native_game.Pool.take, native_game.Pool.give_back

    def wrapped_take(pool, rules, shell):
        hand, idle = take(pool, rules, shell)
        return (None if hand is None else wrap(hand)), idle

    monkeypatch.setattr(native_game.Pool, "take", wrapped_take)
    unwrap = staticmethod(lambda idle, h: give_back(idle, getattr(h, "hand", h)))
    monkeypatch.setattr(native_game.Pool, "give_back", unwrap)


def test_a_hand_the_native_engine_stops_in_goes_on_in_python_counted(monkeypatch):
    path, options = ENGINE_CONFIGS[6]
    wrap_pool_hands(monkeypatch, lambda hand: RefusesLater(hand, 12))
    rules = _rules(path)
    before = rules.stats()
    py, nat = _both(path, options, 5)
    made = _play_both(py, nat, 5)
    assert made > 12  # the refusal came in the middle of the hand, which went on in Python to its end
    assert nat.result() == py.result()
    after = rules.stats()
    assert after["engine_fallbacks"] == before["engine_fallbacks"] + 1
    grew = {k: v - before["engine_fallback_reasons"].get(k, 0) for k, v in after["engine_fallback_reasons"].items()}
    assert {k: v for k, v in grew.items() if v} == {RefusesLater.SENTENCE: 1}


def test_an_illegal_move_is_refused_identically_and_changes_nothing():
    path, options = ENGINE_CONFIGS[3]
    py, nat = _both(path, options, 8)
    seat = py.current_seats()[0]
    other = (seat + 1) % py.n
    legal = py.legal_moves(seat)
    stale = Move(legal[0].action, legal[0].tiles, legal[0].choice, legal[0].meld, decision=py.decision + 5)
    held = {t for m in legal for t in m.tiles}
    absent = next(k.name for k in py.cat.kinds if k.name not in held)
    tries = [(seat, Move("discard", (absent,))), (other, legal[0]), (seat, stale), (seat, "discard"),
             (True, legal[0]), (py.n, legal[0]), (seat, Move("nonesuch")), (seat, Move("discard", ("?",)))]
    for who, mv in tries:
        before = nat.snapshot()
        with pytest.raises(IllegalMove) as want:
            py.apply(who, mv)
        with pytest.raises(IllegalMove) as got:
            nat.apply(who, mv)
        assert str(got.value) == str(want.value)
        assert nat.snapshot() == before == py.snapshot()
    nat.apply(seat, legal[0])
    py.apply(seat, legal[0])
    with pytest.raises(IllegalMove) as want:
        py.apply(seat, legal[0])  # answers a decision that is over
    with pytest.raises(IllegalMove) as got:
        nat.apply(seat, legal[0])
    assert str(got.value) == str(want.value)
    assert nat.snapshot() == py.snapshot()


def test_clone_restore_and_observation_on_the_native_backend():
    path, options = ENGINE_CONFIGS[4]
    rules = _rules(path)
    py, nat = _both(path, options, 17)
    bots = [BOTS["random"](17 * 31 + i) for i in range(py.n)]
    for _ in range(12):
        s = py.current_seats()[0]
        mv = bots[s].choose(py, s, py.legal_moves(s))
        py.apply(s, mv)
        nat.apply(s, mv)
    twin = nat.clone()
    assert isinstance(twin, NativeGame) and twin.snapshot() == nat.snapshot()
    s = twin.current_seats()[0]
    twin.apply(s, twin.legal_moves(s)[-1])
    assert nat.snapshot() == py.snapshot() != twin.snapshot()  # independent
    back = Game.restore(rules, nat.snapshot())
    assert back.snapshot() == py.snapshot()
    mirrors = rules.stats()["engine_mirrors"]
    assert nat.observation(s) == py.observation(s)
    assert nat.onlooker_observation() == py.onlooker_observation()
    assert rules.stats()["engine_mirrors"] == mirrors  # both views answered by the native hand
    assert nat.st.snapshot() == py.st.snapshot()  # the reference's own state: a Python replay answers
    assert rules.stats()["engine_mirrors"] == mirrors + 1  # answered by a Python replay, kept beside it
    # the replay is kept in step with the native hand
    s = py.current_seats()[0]
    mv = py.legal_moves(s)[0]
    py.apply(s, mv)
    nat.apply(s, mv)
    assert nat.observation(s) == py.observation(s) and nat.snapshot() == py.snapshot()


def test_the_backend_is_chosen_by_argument_or_environment(monkeypatch):
    rules = _rules(ENGINE_CONFIGS[0][0])
    monkeypatch.setenv("PAILI_BACKEND", "python")
    assert type(Game(rules, {}, 1)) is Game
    assert isinstance(Game(rules, {}, 1, backend="native"), NativeGame)
    monkeypatch.setenv("PAILI_BACKEND", "native")
    assert isinstance(Game(rules, {}, 1), NativeGame)
    assert type(Game(rules, {}, 1, backend="python")) is Game
    # auto (the default): natively where the rules are on the native backend, else in Python
    monkeypatch.setenv("PAILI_BACKEND", "auto")
    assert isinstance(Game(rules, {}, 1), NativeGame)
    assert isinstance(Game(rules, {}, 1, backend="auto"), NativeGame)
    monkeypatch.delenv("PAILI_BACKEND")
    assert isinstance(Game(rules, {}, 1), NativeGame)
    assert type(Game(load(ROOT / ENGINE_CONFIGS[0][0], backend="python"), {}, 1)) is Game
    assert type(Game(rules, {}, 1, backend="python")) is Game
    with pytest.raises(BackendError, match="unknown backend 'rust'"):
        Game(rules, {}, 1, backend="rust")


def test_a_setup_the_native_hand_does_not_take_plays_in_python_counted():
    rules = _rules(ENGINE_CONFIGS[0][0])
    n = Game(rules, {}, 2, backend="python").n
    before = rules.stats()["engine_fallbacks"]
    g = Game(rules, {}, 2, backend="native", balances=[Fraction(1, 2)] * n)
    assert type(g) is Game
    assert rules.stats()["engine_fallbacks"] == before + 1
    assert rules.stats()["engine_fallback_reasons"]["balances that are not whole numbers"] >= 1


class MoneyAstray:
    """A native hand whose tallies after `after` moves say a seat's payment went astray (no bundled hand
    breaks an invariant, so the fault is injected where `NativeGame` reads the native hand's figures)."""

    def __init__(self, hand, after: int):
        self.hand, self.after, self.applied = hand, after, 0

    def apply(self, *args):
        self.applied += 1
        return self.hand.apply(*args)

    def apply_step(self, *args):
        self.applied += 1
        text, asked, why, intact, over = self.hand.apply_step(*args)
        return text, asked, why, intact and self.applied < self.after, over

    def invariants_hold(self):  # the native check after a move: where it fails, `tally` is read
        return self.hand.invariants_hold() and self.applied < self.after

    def tally(self):
        t = json.loads(self.hand.tally())
        if self.applied >= self.after:
            d = t["deltas"][0]  # an int, or a fraction's text
            t["deltas"][0] = d + 1 if isinstance(d, int) else str(Fraction(d) + 1)
        return json.dumps(t)

    def __getattr__(self, name):
        return getattr(self.hand, name)


@pytest.mark.parametrize("by_number", [False, True])
def test_a_broken_invariant_of_a_native_hand_is_reported_after_the_move(monkeypatch, by_number):
    """Whether the move is given (`apply`) or named by its number (`apply_index`, as the environment
    plays): the native check finds it, the reference's sentences report it."""
    path, options = ENGINE_CONFIGS[1]
    wrap_pool_hands(monkeypatch, lambda hand: MoneyAstray(hand, 10))
    g = Game(_rules(path), options, 3, backend="native")
    bots = [BOTS["random"](i) for i in range(g.n)]
    while not g.is_over() and len(g.moves) < 12:
        seat = g.current_seats()[0]
        legal = g.legal_moves(seat)
        move = bots[seat].choose(g, seat, legal)
        if by_number:
            g.apply_index(seat, legal.index(move))
        else:
            g.apply(seat, move)
        if len(g.moves) < 10:
            assert g.violations == []
    assert isinstance(g, NativeGame) and len(g.moves) == 12
    assert not by_number or g.by_number()  # played by number natively, no Python game beside it
    assert len(g.violations) >= 3 and all("payments do not balance" in v or "is not its start" in v
                                          for v in g.violations)


def test_room_options_given_as_text_are_played_natively():
    """`paili simulate --set 人数=2` gives options as text: the native engine takes them as the reference
    reads them (a number, a truth value), so such a hand is not handed back."""
    rules = _rules("rules/longyan.pai")
    before = rules.stats()["engine_fallbacks"]
    text = {"人数": "2", "有筒子": "false"}
    nat, py = Game(rules, text, 9, backend="native"), Game(rules, text, 9, backend="python")
    assert isinstance(nat, NativeGame) and rules.stats()["engine_fallbacks"] == before
    assert _play_both(py, nat, 9) > 0


def test_every_attribute_of_the_reference_game_is_answered_by_a_native_game():
    """`NativeGame` has no `__getattr__` hook (CPython specialises no attribute read of its instances with
    one): each attribute of the reference's game (`flow.Game`: methods, class attributes, the slots each
    instance sets — it has no instance `__dict__`) is answered by the native game or forwarded to its Python
    game (runtime/game/native_forward.py); a name the reference has not raises AttributeError, with no
    Python game replayed for it; a value set on the native game is read back."""
    from paili.runtime.game.native_forward import Forward, reference_names

    assert "__getattr__" not in vars(NativeGame) and Game.__dictoffset__ == 0 and "__dict__" not in dir(Game)
    rules = _rules(ENGINE_CONFIGS[1][0])
    py, nat = _both(ENGINE_CONFIGS[1][0], {}, 5)
    assert isinstance(nat, NativeGame) and set(vars(nat)) <= set(NativeGame.OWN)
    names = reference_names(Game)
    assert {"st", "infos", "pending_steps", "check", "shortcuts", "waits", "note_error"} <= names
    missing = [n for n in names if not hasattr(nat, n)]
    assert missing == []
    # the instances' own names are no class attributes (their reads stay specialised)
    assert not [n for n in NativeGame.OWN if n in dir(NativeGame)]
    mirrors = rules.stats()["engine_mirrors"]
    with pytest.raises(AttributeError):
        nat.no_such_attribute  # noqa: B018
    assert not hasattr(nat, "__no_such__") and not hasattr(NativeGame, "st")
    assert rules.stats()["engine_mirrors"] == mirrors  # nothing replayed for a name the reference has not
    forwarded = [n for n in names if isinstance(vars(NativeGame).get(n), Forward)]
    assert "st" in forwarded and "moves" not in forwarded and "_hand" not in forwarded
    assert nat.st.snapshot() == py.st.snapshot() and nat.check is py.check is True
    assert nat.infos == py.infos and nat.fee_rate == py.fee_rate and nat.shortcuts is Game.shortcuts
    nat.check = False  # set on the native game: its own from then on, as before
    assert nat.check is False and nat.mirror().check is True
