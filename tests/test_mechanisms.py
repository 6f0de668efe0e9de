"""The mechanism-coverage checklist (`bench/mechanisms.toml`) and a small seeded sample of
`bench/mechanisms.py` (which plays 10,000 hands per run).

- The checklist is well-formed: every check names a summary key, every run a bundled variant and room
  options it accepts, and every player count a variant allows has a run.
- Every mechanism names its source: a sentence found verbatim in the seed text, or a rule-file
  declaration.
- A few dozen hands per variant with the mixed bots: no invariant is violated, and the mechanisms that
  are common at that size occur (the rare ones are left to the full run, docs/engine-coverage.md).
"""
from __future__ import annotations

import sys
from functools import cache

import pytest
from conftest import ROOT, SEEDS
from paili import load
from paili.runtime.game import Game
from paili.runtime.game.simulate import simulate

sys.path.insert(0, str(ROOT / "bench"))
import mechanisms  # noqa: E402

SEED_OF = {"baijindao": "000_a458ac2558942afe.txt", "chehuzi": "001_6853749061b3e1b4.txt",
           "baicheng": "003_1e3c70aff3ac880a.txt", "longyan": "004_b433142e63c93c06.txt"}


@cache
def rules(variant: str):
    return load(ROOT / "rules" / f"{variant}.pai")


@cache
def checklist() -> dict:
    return mechanisms.load_checklist()


def test_every_check_names_a_summary_key():
    summary = {"games": 1, "wins": 0, "draws": 1, "invariant_violations": 0, "event_counts": {"碰": 2},
               "pattern_counts": {}, "payment_counts": {}, "draw_payment_counts": {}, "task_counts": {"x": 1},
               "multiple_wins": 0}
    for m in checklist()["mechanism"]:
        mechanisms.count(summary, m["check"])  # raises on a malformed check
    assert mechanisms.count(summary, "event:碰") == 2 and mechanisms.count(summary, "task:*") == 1
    with pytest.raises(ValueError):
        mechanisms.count(summary, "events:碰")


def test_every_run_is_a_bundled_variant_with_valid_options():
    for r in checklist()["run"]:
        g = Game(rules(r["variant"]), dict(r.get("options", {})), 1)  # GameError on a bad option
        assert g.n == mechanisms.run_players(rules(r["variant"]), r.get("options", {}))


def test_every_allowed_player_count_has_a_run():
    runs = checklist()["run"]
    for variant in SEED_OF:
        counts = mechanisms.player_counts(rules(variant))
        covered = {mechanisms.run_players(rules(variant), r.get("options", {})) for r in runs
                   if r["variant"] == variant}
        assert counts and set(counts) <= covered, variant
    assert mechanisms.player_counts(rules("longyan")) == [2, 3, 4]


def test_every_mechanism_names_its_source():
    for m in checklist()["mechanism"]:
        assert ("seed" in m) != ("rule" in m), m["name"]
        if "rule" in m:
            assert m["rule"] in (ROOT / "rules" / f"{m['variant']}.pai").read_text(encoding="utf-8"), m["name"]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not available here")
def test_every_seed_sentence_is_in_the_seed_text():
    texts = {v: (SEEDS / f).read_text(encoding="utf-8").replace("<br />", "") for v, f in SEED_OF.items()}
    missing = [(m["variant"], m["seed"]) for m in checklist()["mechanism"]
               if "seed" in m and m["seed"] not in texts[m["variant"]]]
    assert missing == []


# hands per run in the sample, and the mechanisms that occur at that size with the mixed bots
SAMPLE = {
    "baijindao": (60, ["吃", "碰", "暗杠", "补杠（碰后摸到第四张）", "加倍（放弃本次和牌）", "报听（托管）", "立直",
                       "死听", "死听保护", "起始加倍（赢家提出）", "起始加倍被接受", "任务完成"]),
    "chehuzi": (12, ["王霸明示（亮王）", "啸", "跑", "碰", "吃", "比牌", "过张（放弃吃）", "胡（只胡牌墩上的牌）",
                     "翻醒"]),
    "baicheng": (30, ["宝牌的产生", "换宝", "分张", "吃", "碰（叉）", "加杠（碰后摸第4张）", "点炮胡", "自摸",
                      "流局（所有人都没有胡牌）"]),
    "longyan-4": (30, ["补花", "开金", "碰", "补杠", "暗杠", "过手杠（可明杠而选择碰或放弃）", "自摸",
                       "游金（单游）", "打金牌的限制"]),
}


@pytest.mark.parametrize("run", sorted(SAMPLE))
def test_a_seeded_sample_shows_the_common_mechanisms(run):
    spec = next(r for r in checklist()["run"] if r["name"] == run)
    games, expected = SAMPLE[run]
    summary = simulate(rules(spec["variant"]), games, seed=3, bots="mixed", options=dict(spec.get("options", {})))
    report = mechanisms.check_runs(checklist(), {run: summary})[run]
    assert report["invariant_violations"] == 0
    seen = {row["name"] for row in report["mechanisms"] if row["count"] > 0}
    assert set(expected) <= {row["name"] for row in report["mechanisms"]}
    assert sorted(set(expected) - seen) == []
