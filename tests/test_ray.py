"""Simulation over Ray (paili/cluster.py): the same summary as one process for the same seed. The test starts
a local Ray instance itself (two CPUs) and stops it."""
from __future__ import annotations

import json

import pytest

ray = pytest.importorskip("ray", reason="simulation on Ray needs the [ray] extra: pip install -e '.[ray]'")
from conftest import ROOT  # noqa: E402
from paili import load  # noqa: E402
from paili.cluster import simulate_ray  # noqa: E402
from paili.runtime.game.simulate import simulate  # noqa: E402

TIMING = ("seconds", "games_per_second")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             object_store_memory=100 * 1024 * 1024)
    yield
    ray.shutdown()


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_a_ray_run_gives_the_one_process_summary(local_ray, tmp_path):
    rules = load(ROOT / "rules" / "baicheng.pai")
    one = simulate(rules, 10, 5, "greedy,efficiency,greedy,greedy")
    many = simulate_ray(rules, 10, 5, "greedy,efficiency,greedy,greedy", chunk=3, log_dir=tmp_path)
    assert without_timing(many) == without_timing(one)  # a run writing logs plays natively too
    assert many["games"] == 10 and many["bots"] == ["greedy", "efficiency", "greedy", "greedy"]
    assert len(list(tmp_path.glob("game-*.jsonl"))) == 10  # each chunk logs its games (local: this disk)


def test_paili_simulate_ray_prints_the_same_json(local_ray, capsys):
    from paili.dsl.cli_game import main

    assert main(["simulate", "baijindao", "--games", "6", "--seed", "3", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["simulate", "baijindao", "--games", "6", "--seed", "3", "--json", "--ray"]) == 0
    many = json.loads(capsys.readouterr().out)
    assert without_timing(many) == without_timing(one)
    assert main(["simulate", "baijindao", "--games", "6", "--ray", "--workers", "2"]) == 2
    assert "--ray or --workers" in capsys.readouterr().err


@pytest.mark.parametrize("backend", ["python", "native"])
def test_ray_workers_play_on_the_callers_backend(local_ray, backend, monkeypatch):
    """The workers load the rule set on the backend the caller's rule set has, whatever their environment says:
    the summary is the one process's, the native path's own counts included or absent alike."""
    from paili.runtime import backend as backends

    if backend == "native" and not backends.available():
        pytest.skip("the native core is not built here (no Rust toolchain at install)")
    other = "native" if backend == "python" else "python"
    monkeypatch.setenv("PAILI_BACKEND", other if backends.available() else "python")
    rules = load(ROOT / "rules" / "baijindao.pai", backend=backend)
    one = simulate(rules, 6, 2, "random")
    many = simulate_ray(rules, 6, 2, "random", chunk=2)
    assert without_timing(many) == without_timing(one)
    assert ("native_hands" in many) == (backend == "native")
