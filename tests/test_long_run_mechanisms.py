"""The long native runs' mechanism check (issue 17: "every seed mechanism present in event_counts"), on a
small seeded sample: bench/native_long_run.py plays 100,000 hands per variant, this a few hundred.

- bench/declared_mechanisms.py reads what each bundled rule file declares (actions taken and declined,
  emitted events, phases, reveals, flag states, payments, tasks, several winners, fees and caps) and maps
  each to the simulation summary's key that shows it;
- a seeded native sample per variant (random bots, whose choices are uniform over the legal moves, and a
  few hands of efficiency bots, which build winning hands) shows a stated set of those mechanisms, with
  no invariant violated and no hand handed back to the Python engine;
- the long-run script reports every mechanism's count and names the ones never seen;
- fees, which the summary does not count, show in `Game.result()`.
"""
from __future__ import annotations

import json
import sys
from fractions import Fraction
from functools import cache

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.backend import native_module
from paili.runtime.game import Game, Move
from paili.runtime.game.bots import BOTS
from paili.runtime.game.session import Session
from paili.runtime.game.simulate import simulate

sys.path.insert(0, str(ROOT / "bench"))
import declared_mechanisms  # noqa: E402
import mechanisms  # noqa: E402
import native_long_run  # noqa: E402

needs_native = pytest.mark.skipif(native_module() is None, reason="the native core is not built")


@cache
def rules(variant: str, backend: str = "python"):
    return load(ROOT / "rules" / f"{variant}.pai", backend=backend)


def checks(variant: str, players: int | None = None) -> dict[str, str]:
    return {m["name"]: m["check"] for m in declared_mechanisms.declared(rules(variant), players)}


def test_the_declared_mechanisms_of_each_bundled_rule_file():
    ly = checks("longyan", 4)
    assert ly["游金中"] == "event:phase_enter:游金中" and ly["三游中"] == "event:phase_enter:三游中"
    assert ly["金牌 passed over (flower)"] == "event:reveal_skip:金牌"
    assert ly["闲家盖宝抢金 declined"] == "event:decline:闲家盖宝抢金"  # a choice with `decline` effects
    assert ly["分饼"] == "payment:分饼" and ly["放弃起手胡"] == "event:state:放弃起手胡"
    assert "分饼 declined" not in ly and "牌种数" not in ly  # an int state is no flag
    bc = checks("baicheng", 4)
    assert bc["宝牌 moved"] == "event:reveal_move:宝牌" and bc["several winners of one tile"] == "multiple_wins"
    bj = checks("baijindao", 2)
    # the compulsory steps that restate the engine's draw and discard stand for those steps
    assert bj["摸牌 (the engine's draw)"] == "event:draw" and bj["打牌 (the engine's discard)"] == "event:discard"
    assert bj["起始加倍"] == "event:起始加倍" and bj["门清任务"] == "task:门清任务"
    assert "several winners of one tile" not in bj  # two players: one can win a discard
    assert bj["爱心奉献"] is None and bj["cap balance of payer"] is None  # declared, not in the summary
    assert checks("chehuzi")["醒牌"] == "event:reveal:醒牌"
    gb = checks("guobiao")
    assert set(gb) == {"吃", "碰", "明杠", "暗杠", "补杠", "自摸和", "点和", "抢和", "杠后", "和牌付分"}


# per run: random-bot hands, efficiency-bot hands (seed 3), and the mechanisms (declared or the seed
# checklist's) that must show
SAMPLE = {
    "baijindao": (200, 30, ["加倍", "报听", "立直", "起始加倍", "应答起始加倍", "应答起始加倍 declined", "死听保护",
                            "放弃本局", "天听", "七对任务", "清一色任务", "摸牌 (the engine's draw)"]),
    "chehuzi": (200, 0, ["亮王", "倾", "重倾", "啸", "臭啸", "跑", "重跑", "比牌", "吃 declined", "碰 declined",
                         "醒牌", "黄庄赔王"]),
    "baicheng": (200, 30, ["幺杠", "九杠", "喜杠", "宝明杠", "宝暗杠", "抢碰", "分张", "宝牌 moved", "手中喜杠分",
                           "several winners of one tile"]),
    "guobiao": (200, 30, ["吃", "暗杠", "补杠", "自摸和", "点和", "和牌付分", "花牌（摸到亮出，补一张，和牌时计番）"]),
    "longyan-4": (200, 30, ["补花", "闲家抢金", "庄家抢金", "天胡", "自摸 declined", "明杠 declined", "游金中",
                            "金牌 passed over (flower)", "上张打金", "暗杠后", "分饼", "花杠分"]),
}


@needs_native
@pytest.mark.parametrize("run", sorted(SAMPLE))
def test_a_seeded_native_sample_shows_the_stated_mechanisms(run):
    data = mechanisms.load_checklist()
    spec = next(r for r in data["run"] if r["name"] == run)
    options = dict(spec.get("options", {}))
    native = rules(spec["variant"], "native")
    random_games, efficiency_games, expected = SAMPLE[run]
    seen: dict[str, int] = {}
    for bots, games in (("random", random_games), ("efficiency", efficiency_games)):
        if not games:
            continue
        summary = simulate(native, games, seed=3, bots=bots, options=options)
        assert summary["invariant_violations"] == 0
        assert summary["native_hands"] == games and summary["native_fallbacks"] == 0
        players = mechanisms.run_players(native, options)
        rows = declared_mechanisms.check(native, summary, players) + \
            mechanisms.check_runs(data, {run: summary})[run]["mechanisms"]
        for r in rows:
            if r["count"] is not None:
                seen[r["name"]] = seen.get(r["name"], 0) + r["count"]
    assert set(expected) <= set(seen)
    assert sorted(n for n in expected if seen[n] == 0) == []


@needs_native
def test_the_long_run_reports_every_mechanism_and_flags_the_ones_never_seen(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    status = native_long_run.main(["--runs", "guobiao", "--games", "40", "--chunk", "20", "--seed", "3",
                                   "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    r = report["runs"]["guobiao"]
    assert r["games"] == 40 and r["invariant_violations"] == 0 and r["native_fallbacks"] == 0
    assert [g for g, _ in r["rss"]] == [0, 20, 40]  # before the first hand, then after each chunk
    counts = {m["name"]: m["count"] for m in r["declared"]}
    assert set(counts) == set(checks("guobiao")) and counts["吃"] > 0
    assert r["declared_missing"] == [n for n, c in counts.items() if c == 0] and "抢和" in r["declared_missing"]
    assert status == 1  # a mechanism never seen fails the run
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and "report" in json.loads(lines[-1])  # a line per chunk, then the report
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    text = native_long_run.render([saved])
    assert "| guobiao | random | 40 |" in text and "| *action: 抢和* | `event:抢和` | **0** |" in text


def test_a_fee_shows_in_the_result():
    """白金岛's fee is withheld from every payment of a won hand (the summary has no count of it)."""
    rs = rules("baijindao")
    assert {f.name for f in rs.ir.fees} == {"爱心奉献"}
    for seed in range(1, 60):
        session = Session(rs, None, seed, 1)
        g = session.new_hand()
        bots = [BOTS["efficiency"](seed * 31 + i) for i in range(g.n)]
        while not g.is_over():
            seat = g.current_seats()[0]
            g.apply(seat, bots[seat].choose(g, seat, g.legal_moves(seat)))
        res = session.finish(g)
        if res["winners"] and res["payments"]:
            paid = sum(Fraction(p["amount_exact"]) for p in res["payments"])
            fees = Fraction(res["fees_exact"])
            assert 0 < fees < paid and fees == sum(Fraction(p["fee_exact"]) for p in res["payments"])
            return
    pytest.fail("no won hand with a payment in 59 seeded hands")


# The mechanisms no long run reached (BENCHMARKS.md, branch `nlong`): offered by both engines alike when the
# wall brings them, so their absence is chance, not a move the engine never offers.
GOLD = "8p"  # the gold the rigged tail turns up


def longyan_two(wall: str, backend: str) -> Game:
    return Game(rules("longyan", "native"), {"人数": 2}, 11, dealer=0, wall=[wall], tail=[GOLD], backend=backend)


def discard(g: Game, seat: int, tile: str) -> None:
    g.apply(seat, Move("discard", tuple(g.rules.notation.parse(tile))))


@needs_native
@pytest.mark.parametrize("backend", ["python", "native"])
def test_sanyou_is_reached_by_throwing_two_drawn_golds_on_both_engines(backend):
    """三游 (0 in 100,000 random and 5,000 efficiency hands of 龙岩): seat 1 waits on any tile with a lone
    gold (游金), throws the second gold it draws (双游) and the third (三游), then wins."""
    g = longyan_two("159m159p159s1z2z3z4z" + "123m456m789m23p1z2z" + "5z" + "4p6z" + GOLD + "7z" + GOLD + "6z" + GOLD
                    + "7z3s", backend)
    for seat, tile in [(0, "5z"), (1, "2z"), (0, "6z"), (1, "1z"), (0, "7z"), (1, GOLD), (0, "6z"), (1, GOLD),
                       (0, "7z")]:
        discard(g, seat, tile)
    g.apply(1, next(m for m in g.legal_moves(1) if m.action == "自摸"))
    res = g.result()
    assert res["events"]["phase_enter:游金中"] == res["events"]["phase_enter:双游中"] == 1
    assert res["events"]["phase_enter:三游中"] == 1
    assert [f["pattern"] for f in res["scores"][1]["fans"]] == ["三游"] and res["scores"][1]["score"] == 20


@needs_native
@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_dealers_gaibao_qiangjin_is_one_of_four_moves_on_both_engines(backend):
    """庄家盖宝抢金 (offered 8 times in 100,000 random 龙岩 hands, never taken): the dealer's 14 tiles win
    holding the gold, and it is offered beside 天胡, 庄家抢金 and pass — a random bot takes it one time in
    four, so 8 offers without it happen one time in ten."""
    g = longyan_two("123m456m789m234p5s" + "147p258s369m4z5z6z7z" + GOLD + "1z2z3z", backend)
    assert g.current_seats() == [0]
    assert sorted(m.action for m in g.legal_moves(0)) == sorted(["庄家盖宝抢金", "天胡", "庄家抢金", "pass"])
    g.apply(0, next(m for m in g.legal_moves(0) if m.action == "庄家盖宝抢金"))
    res = g.result()
    assert res["events"]["庄家盖宝抢金"] == 1
    assert [f["pattern"] for f in res["scores"][0]["fans"]] == ["盖宝抢金"] and res["scores"][0]["score"] == 10
