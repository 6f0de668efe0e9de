"""Observations on the native backend (runtime/native/src/engine/observe.rs): after every move of seeded games
of every bundled rule file (龙岩 at 4, 3 and 2 players) and bench/rules/joker.pai, every seat's
`Game.observation` and legal moves, and what an onlooker sees, equal between backends, with no Python game
replayed beside the native one; the learning environment's arrays filled natively equal to the reference's
encoding; the environment's steps and `Tables.step_many` on the native backend giving the same arrays as on
the Python one. The bigger
sample is bench/observe_equivalence.py."""
from __future__ import annotations

import random
from pathlib import Path

import paili
import pytest
from paili.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [("rules/baijindao.pai", {}), ("rules/baicheng.pai", {}), ("rules/longyan.pai", {}),
           ("rules/longyan.pai", {"人数": 3}), ("rules/longyan.pai", {"人数": 2}), ("rules/chehuzi.pai", {}),
           ("rules/guobiao.pai", {}), ("bench/rules/joker.pai", {})]

pytestmark = pytest.mark.skipif(paili.runtime.backend.native_module() is None, reason="the native core is not built")


def _play(rules, options, seed, each):
    """One seeded game on both backends with the same random legal moves; `each(py, nat)` after every move."""
    py = Game(rules, options, seed, backend="python")
    nat = Game(rules, options, seed, backend="native")
    rng = random.Random(seed)
    while True:
        each(py, nat)
        if py.is_over():
            return
        seat = py.current_seats()[0]
        moves = py.legal_moves(seat)
        move = moves[rng.randrange(len(moves))]
        py.apply(seat, move)
        nat.apply(seat, move)


@pytest.mark.parametrize("path, options", CONFIGS)
def test_observations_and_legal_moves_equal_between_backends(path, options):
    rules = paili.load(str(ROOT / path), backend="native")  # native under PAILI_BACKEND=python too
    seen = {"observations": 0, "shown_hand": 0, "shown_drawn": 0}

    def each(py, nat):
        assert nat.onlooker_observation() == py.onlooker_observation()
        for s in range(py.n):
            a = py.observation(s)
            assert nat.observation(s) == a
            assert [str(m) for m in nat.legal_moves(s)] == [str(m) for m in py.legal_moves(s)]
            seen["observations"] += 1
            seen["shown_hand"] += sum("hand" in x for x in a["seats"])
            seen["shown_drawn"] += sum("drawn" in x for x in a["seats"])

    for seed in (1, 3):
        _play(rules, options, seed, each)
    assert seen["observations"] > 50
    stats = rules.stats()
    # answered by the native hand alone: no Python game replayed beside it, nothing handed back
    assert stats["engine_mirrors"] == 0
    assert stats["engine_fallbacks"] == 0
    if "baijindao" in path:  # its `observe` rule shows a declared seat the others' hands: reached here
        assert seen["shown_hand"] > 0
    if "chehuzi" in path:  # its `observe` rule shows a drawn card: reached here
        assert seen["shown_drawn"] > 0


@pytest.mark.parametrize("path, options", CONFIGS)
def test_native_arrays_equal_the_reference_encoding(path, options):
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra")
    from paili.env import Layout

    rules = paili.load(str(ROOT / path), backend="native")  # native under PAILI_BACKEND=python too
    lay = Layout(rules, options)
    checked = [0]

    def each(py, nat):
        for s in range(py.n):
            got = nat.encoded(s, lay.json)
            assert got is not None
            assert np.array_equal(np.frombuffer(got[0], dtype=np.float32), lay.encode(py.observation(s)))
            mask = np.zeros(lay.size, dtype=np.int8)
            legal = lay.actions_of(py.legal_moves(s)) if s in py.current_seats() else {}
            mask[list(legal)] = 1
            assert np.array_equal(np.frombuffer(got[1], dtype=np.int8), mask)
            # each marked slot names the legal move the reference's slot map gives it
            moves = nat.legal_moves(s)
            slots = np.frombuffer(got[2], dtype=np.int32)
            assert {a: str(moves[i]) for a, i in enumerate(slots) if i >= 0} == {a: str(m) for a, m in legal.items()}
            checked[0] += 1

    _play(rules, options, 3, each)
    assert checked[0] > 20


@pytest.mark.parametrize("variant, options", [("baijindao", {}), ("longyan", {"人数": 3}), ("chehuzi", {})])
def test_step_many_native_equals_python(variant, options):
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra")
    from paili.env import Tables

    nat = Tables(paili.load(variant, backend="native"), 4, options, seed=7, backend="native")
    py = Tables(variant, 4, options, seed=7, backend="python")
    a, b = nat.reset(), py.reset()
    rng = np.random.default_rng(7)
    hands = 0
    for _ in range(150):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
        acts = [int(rng.choice(np.flatnonzero(m))) for m in a[1]]
        a, b = nat.step_many(acts), py.step_many(acts)
        for x, y in zip(a[3:], b[3:]):  # rewards and done
            assert np.array_equal(x, y)
        hands += int(a[4].sum())
    assert hands > 0  # hands ended and were dealt anew within the run
    assert all(g.rules.stats()["engine_mirrors"] == 0 for g in nat.games)


@pytest.mark.parametrize("variant, options", [("baicheng", {}), ("longyan", {"人数": 2}), ("guobiao", {})])
def test_environment_steps_native_equal_python(variant, options):
    """The AEC environment on the native engine (each step's action taken and the next seat's arrays written
    into a row of the environment's arrays in one native call, `native_tables.act_into`) gives the agent to
    act, its observation and mask, the rewards, the ends and the game's moves the Python engine's
    environment gives, hand after hand; an observation handed out is never written again."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra")
    from paili.env import PailiEnv

    nat = PailiEnv(paili.load(variant, backend="native"), options, seed=11, backend="native")
    py = PailiEnv(variant, options, seed=11, backend="python")
    rng = random.Random(11)
    steps = 0
    kept = []  # (an observation the native environment handed out, a copy made then)
    for _ in range(2):
        nat.reset()
        py.reset()
        for agent in py.agent_iter():
            assert nat.agent_selection == agent
            a, b = nat.last(), py.last()
            assert np.array_equal(a[0]["observation"], b[0]["observation"])
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:] == b[1:]  # reward, termination, truncation, info
            if b[2] or b[3]:
                action = None
            else:
                legal = np.flatnonzero(b[0]["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            kept.append((a[0], {k: v.copy() for k, v in a[0].items()}))
            nat.step(action)
            py.step(action)
        assert nat.agents == py.agents == []
        assert nat.game.moves == py.game.moves
    assert steps > 50
    # the arrays handed out are as they were handed out (each step wrote a row of its own)
    assert all(np.array_equal(o[k], c[k]) for o, c in kept for k in c)
    assert nat.rules.stats()["engine_mirrors"] == 0


def test_act_into_refuses_a_row_outside_the_arrays_and_an_action_that_is_not_legal():
    """`native_tables.act_into`: a row that is not within both arrays is refused (IndexError), an action that
    names no legal move gives None; neither applies anything."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra")
    from paili.env import Layout
    from paili.runtime.game.native_tables import act_into

    rules = paili.load("baicheng", backend="native")
    g = paili.Game(rules, {}, 3, backend="native")
    lay = Layout(rules, {})
    seat = g.current_seats()[0]
    obs_bytes, mask_bytes = g.encoded(seat, lay.json)[:2]
    legal = int(np.flatnonzero(np.frombuffer(mask_bytes, dtype=np.int8))[0])
    illegal = int(np.flatnonzero(np.frombuffer(mask_bytes, dtype=np.int8) == 0)[0])
    obs, masks = bytearray(2 * lay.dim * 4), bytearray(2 * lay.size)
    observer = g.observer(lay.json)
    with pytest.raises(IndexError, match="row 2 is not within"):
        act_into(g, seat, legal, observer, obs, masks, 2)
    with pytest.raises(IndexError):
        act_into(g, seat, legal, observer, obs, bytearray(lay.size), 1)  # the masks hold one row
    assert act_into(g, seat, illegal, observer, obs, masks, 1) is None
    assert g.moves == [] and obs == bytearray(len(obs)) and masks == bytearray(len(masks))
    got = act_into(g, seat, legal, observer, obs, masks, 1)
    assert len(g.moves) == 1 and got[5] == g.current_seats()[0] and got[6]
    vec, mask = g.encoded(got[5], lay.json)[:2]
    assert obs[lay.dim * 4:] == vec and masks[lay.size:] == mask
    assert obs[:lay.dim * 4] == bytearray(lay.dim * 4)  # row 0 untouched


def test_step_many_refuses_an_action_that_is_not_legal():
    pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra")
    from paili.env import Tables

    t = Tables(paili.load("baijindao", backend="native"), 2, seed=1, backend="native")
    _, masks, _ = t.reset()
    bad = int((masks[0] == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="table 0: action"):
        t.step_many([bad, int(masks[1].nonzero()[0][0])])


def test_an_observation_the_native_side_does_not_answer_is_the_references_counted(tmp_path):
    """An `observe` condition the reference notes as an error (a division by zero) is not evaluated to
    another value natively: the observation is the reference's, the error noted as the reference notes it,
    the fallback counted."""
    text = (ROOT / "bench/rules/joker.pai").read_text(encoding="utf-8")
    text += '\nobserve 除零 {\n  what hand\n  when 1 / (wall_left - wall_left) > 0\n}\n'
    path = tmp_path / "joker_observe.pai"
    path.write_text(text, encoding="utf-8")
    rules = paili.load(str(path), backend="native")
    py = Game(rules, {}, 1, backend="python")
    nat = Game(rules, {}, 1, backend="native")
    assert nat.observation(0) == py.observation(0)
    assert nat.errors == py.errors and py.errors  # "condition: division by zero", once per other seat
    stats = rules.stats()
    assert stats["engine_fallback_reasons"] == {"an observation the native side does not answer": 1}
