"""The learning environment (paili/env.py, docs/env.md): PettingZoo's own API test for every bundled variant,
action masks that are exactly the legal moves, observations that are exactly what `Game.observation` shows,
rewards that are the payments, and `Tables.step_many` playing the same hands as the environment."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the learning environment needs the [env] extra: pip install -e '.[env]'")
import numpy as np  # noqa: E402
import paili  # noqa: E402
from paili.env import PailiEnv, Tables  # noqa: E402
from paili.runtime.game import Game  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

TABLES = [("baijindao", {}), ("baicheng", {}), ("longyan", {}), ("longyan", {"人数": 3}), ("longyan", {"人数": 2}),
          ("chehuzi", {}), ("guobiao", {})]


@pytest.mark.parametrize("variant, options", TABLES)
def test_pettingzoo_api_test_passes(variant, options):
    env = PailiEnv(variant, options, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on dict observations (masked environments have them)
        api_test(env, num_cycles=1000)
    assert env.possible_agents == [f"seat_{i}" for i in range(Game(env.rules, options, 0).n)]


def play_random(env: PailiEnv, seed: int):
    """One hand with uniform random legal actions; returns (rewards summed per agent, steps, last infos)."""
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    infos = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            infos[agent] = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return total, steps, infos


@pytest.mark.parametrize("variant, options", TABLES)
def test_masks_are_exactly_the_legal_moves(variant, options):
    env = PailiEnv(variant, options, seed=5)
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    checked = 0
    while not env.game.is_over():
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        obs = env.observe(agent)
        legal = env.game.legal_moves(seat)
        actions = np.flatnonzero(obs["action_mask"])
        assert len(actions) == len(legal)  # one action per legal move, none left out
        assert sorted(map(str, (env.move_of(a, agent) for a in actions))) == sorted(map(str, legal))
        env.step(int(rng.choice(actions)))
        checked += 1
    assert checked > 10 and all(env.terminations.values())


def test_rewards_of_a_hand_sum_to_its_deltas_and_infos_name_the_winners():
    env = PailiEnv("baijindao", seed=2)
    env.reset(seed=4)
    total, steps, infos = play_random(env, 7)
    g = env.game
    res = g.result()
    assert steps > 10
    assert [total[a] for a in env.possible_agents] == [float(x) for x in res["deltas"]]
    assert all(i["winners"] == list(res["winners"]) for i in infos.values()) and len(infos) == 2


def test_a_seat_observes_only_what_the_game_shows_it():
    env = PailiEnv("longyan", seed=1)
    env.reset(seed=9)
    lay = env.layout
    g = env.game
    for seat in range(g.n):
        v = env.observe(f"seat_{seat}")["observation"]
        shown = g.observation(seat)
        hand = v[lay.offset["hand"]:lay.offset["hand"] + lay.K]
        assert [int(x) for x in hand] == [shown["hand"].count(k) for k in lay.kinds]
        for rel in range(1, g.n):  # another seat's concealed tiles: nothing unless an observe rule shows them
            at = lay.offset[f"seat{rel}.shown_hand"]
            other = shown["seats"][(seat + rel) % g.n]
            assert v[at:at + lay.K].sum() == len(other.get("hand", []))
        sizes = [v[lay.offset[f"seat{rel}.scalars"]] for rel in range(g.n)]
        assert sizes == [shown["seats"][(seat + rel) % g.n]["hand_size"] for rel in range(g.n)]
    # the wall is never in an observation: two hands alike in everything a seat sees observe alike
    assert lay.dim == env.observation_space("seat_0")["observation"].shape[0]


def test_an_illegal_action_is_refused_with_one_sentence():
    env = PailiEnv("baijindao", seed=1)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=f"action {bad} is not legal for seat_"):
        env.step(bad)
    with pytest.raises(ValueError, match="render_mode"):
        PailiEnv("baijindao", render_mode="human")


def test_step_many_plays_the_hands_the_environment_plays():
    """Table 0 of `Tables(seed=S)` deals the environment's first hand of seed S; the same actions give the
    same observations, and every table's finished hand is dealt anew with its deltas as rewards."""
    tables = Tables("baijindao", 6, seed=8)
    obs, masks, seats = tables.reset()
    assert obs.shape == (6, tables.layout.dim) and masks.shape == (6, tables.layout.size)
    env = PailiEnv("baijindao", seed=8)
    env.reset()
    rng = np.random.default_rng(3)
    done_hands = 0
    first_open = True
    for _ in range(400):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if first_open:
            agent = env.agent_selection
            assert np.array_equal(env.observe(agent)["observation"], obs[0])
            assert np.array_equal(env.observe(agent)["action_mask"], masks[0])
            env.step(int(acts[0]))
        obs, masks, seats, rewards, done = tables.step_many(acts)
        assert (rewards[~done] == 0).all()  # money is paid when a hand ends
        done_hands += int(done.sum())
        if done[0]:
            first_open = False
    assert done_hands == tables.hands_done and done_hands >= 6
    with pytest.raises(ValueError, match="5 actions for 6 tables"):
        tables.step_many([0] * 5)


def test_step_many_refuses_an_illegal_action_before_applying_any():
    """One table's illegal action refuses the whole call with its table's number, and no table moved
    (the native tables' actions are all checked before any is applied: `step_many`, `act_many`)."""
    tables = Tables("baicheng", 4, seed=2)
    _, masks, _ = tables.reset()
    acts = [int(np.flatnonzero(m)[0]) for m in masks]
    acts[2] = int(np.flatnonzero(masks[2] == 0)[0])
    before = [len(g.moves) for g in tables.games]
    with pytest.raises(ValueError, match=f"table 2: action {acts[2]} is not legal now"):
        tables.step_many(acts)
    assert [len(g.moves) for g in tables.games] == before


@pytest.mark.parametrize("backend", ["native", "python"])
def test_render_shows_every_seat_without_a_python_game_beside_the_native_one(backend):
    """`render` (what an onlooker sees: `Game.onlooker_observation`) is the same on both engines, and on
    the native one it is read from the native hand (no Python game replayed beside it)."""
    if backend == "native" and paili.runtime.backend.native_module() is None:
        pytest.skip("the native core is not built")
    rules = paili.load("baicheng", backend=backend)
    shown = {}
    for b in ("python", backend):
        env = PailiEnv(rules if b == backend else "baicheng", seed=4, render_mode="ansi", backend=b)
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        for _ in range(30):
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            env.step(int(rng.choice(legal)))
        shown[b] = env.render()
        assert shown[b].count("seat ") == 4
    assert shown[backend] == shown["python"]
    assert rules.stats().get("engine_mirrors", 0) == 0


@pytest.mark.parametrize("backend", ["native", "python"])
def test_rewards_and_infos_at_a_hands_end_are_its_result_on_a_four_player_table(backend):
    """The step that ends a hand rewards each seat with `result()["deltas"]` and names `result()["winners"]`
    (on the native engine read once from the native hand, engine/observe.rs `settled`, without writing the
    result); a table `step_many` deals anew rewards the ended hand's deltas and shows the new hand's arrays."""
    if backend == "native" and paili.runtime.backend.native_module() is None:
        pytest.skip("the native core is not built")
    ended = 0
    for seed in (3, 6):
        env = PailiEnv("baicheng", seed=seed, backend=backend)
        env.reset(seed=seed)
        total, steps, infos = play_random(env, seed)
        res = env.game.result()
        assert steps > 10 and len(infos) == 4
        assert [total[a] for a in env.possible_agents] == [float(x) for x in res["deltas"]]
        assert all(i["winners"] == list(res["winners"]) for i in infos.values())
        assert all(i["deltas"] == [float(x) for x in res["deltas"]] for i in infos.values())
    tables = Tables("baicheng", 3, seed=5, backend=backend)
    obs, masks, seats = tables.reset()
    rng = np.random.default_rng(5)
    while ended < 2:
        before = list(tables.games)
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, rewards, done = tables.step_many(acts)
        for t in np.flatnonzero(done):
            assert list(rewards[t]) == [float(x) for x in before[t].result()["deltas"]]
            g = tables.games[t]  # the new hand, its arrays as the environment's layout encodes its view
            assert g is not before[t] and seats[t] == g.current_seats()[0]
            assert np.array_equal(obs[t], tables.layout.encode(g.observation(int(seats[t]))))
            legal = tables.layout.actions_of(g.legal_moves(int(seats[t])))
            assert sorted(np.flatnonzero(masks[t])) == sorted(legal)
            ended += 1


def test_the_environment_prepares_its_first_native_hand_when_made():
    """On the native backend, `PailiEnv` makes the rule set's first native hand (and its layout's observer)
    when it is made, idle in the pool and no game counted; its first hand takes that very hand, and plays
    as a hand dealt without the preparation does."""
    rules = paili.load("baicheng", backend="native")
    env = PailiEnv(rules, seed=4, backend="native")
    pool = rules.engine.pool
    idle = [h for hands in pool.idle.values() for h in hands]
    assert len(idle) == 1 and rules.stats()["engine_games"] == 0
    assert len(pool.observers) == 1
    env.reset(seed=11)
    assert env.game.engine_hand is idle[0] and rules.stats()["engine_games"] == 1
    fresh = Game(paili.load("baicheng", backend="native"), {}, 11, backend="native")
    assert env.game.snapshot() == fresh.snapshot()


def test_step_many_plays_natively_only_while_no_python_game_is_kept_beside_a_table():
    """`Tables.step_many` hands every table's move to its native hand in one call only while every table's
    moves go to it alone (`hands_by_number`); once a Python game is kept beside one table (an attribute of
    the reference's game read), it plays as the reference's game plays and stays in step."""
    from paili.runtime.game.native_game import hands_by_number

    tables = Tables(paili.load("baicheng", backend="native"), 3, seed=5, backend="native")
    _, masks, _ = tables.reset()
    assert hands_by_number(tables.games) == [g.engine_hand for g in tables.games]
    tables.games[1].st  # noqa: B018 - a reference attribute: its Python game is replayed and kept in step
    assert hands_by_number(tables.games) is None
    rng = np.random.default_rng(1)
    for _ in range(30):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, masks, _, _, _ = tables.step_many(acts)
    g = tables.games[1]
    assert g.mirror().snapshot()["moves"] == g.snapshot()["moves"]
