"""The `paili score / waits / describe` command-line contract."""
import json
import subprocess
import sys

import pytest
from conftest import ROOT


def paili(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "paili", *args], capture_output=True, text=True, cwd=ROOT,
                          input=stdin)


def test_score_json_keys_and_values():
    p = paili("score", "baijindao", "--hand", "666m 88m 东东", "--meld", "碰:222m", "--meld", "碰:444m",
              "--win", "8m", "--set", "加倍次数=3", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out) >= {"win", "fans", "total", "score", "quantities", "trace"}
    assert out["win"] is True
    assert {"name": "加倍三次", "value": 6, "count": 1, "value_exact": "6"} in out["fans"]
    assert out["total"] == 12 and out["score"] == 96
    assert out["total_exact"] == "12" and out["score_exact"] == "96"  # the exact twins (docs/engine.md)
    assert {"name": "碰碰和", "value": 6, "count": 1, "value_exact": "6"} in out["fans"]
    assert out["trace"]["reading"] and out["trace"]["form"] == "标准"
    # the tiles of the reading beside their names in the notation's codes (docs/engine.md, "Tile codes")
    tr = out["trace"]
    assert [(g["kind"], g["tiles"][0], g["codes"], g["declared"], g["has_win"]) for g in tr["groups"]] == [
        ("碰", "二万", ["2m"] * 3, True, False), ("碰", "四万", ["4m"] * 3, True, False),
        ("刻子", "六万", ["6m"] * 3, False, False), ("刻子", "八万", ["8m"] * 3, False, True),
        ("将", "东", ["1z"] * 2, False, False)]
    assert (tr["win_tile"], tr["win_tile_code"]) == ("八万", "8m")
    assert sorted(tr["concealed_codes"]) == sorted(["6m"] * 3 + ["8m"] * 3 + ["1z"] * 2)
    assert len(tr["concealed"]) == len(tr["concealed_codes"]) == 8


def test_score_accepts_a_pai_file_and_a_compiled_json(tmp_path):
    js = tmp_path / "bjd.json"
    assert paili("compile", "rules/baijindao.pai", "-o", str(js)).returncode == 0
    args = ["--hand", "666m 88m 东东", "--meld", "碰:222m", "--meld", "碰:444m", "--win", "8m", "--json"]
    a = json.loads(paili("score", "rules/baijindao.pai", *args).stdout)
    b = json.loads(paili("score", str(js), *args).stdout)
    assert a == b and a["score"] == 6


def test_not_a_win_has_a_reason():
    p = paili("score", "baijindao", "--hand", "123m 456m 789m 东南西 白", "--win", "发", "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 0 and out["win"] is False and out["reason"]


@pytest.mark.parametrize("args,needle", [
    (["--hand", "123x", "--win", "1m"], "no suit letter"),
    (["--hand", "1111m 1m 23m 456m 789m 东", "--win", "东"], "only 4 exist"),
    (["--hand", "123m", "--win", "1m"], "winning form"),
    (["--hand", "123m 456m 789m 东东东 白", "--win", "白", "--meld", "杠:1111m"], "unknown meld kind"),
    (["--hand", "123m 456m 789m 白", "--win", "白", "--meld", "碰:123m"], "is not a 碰"),
    (["--hand", "123m 456m 789m 东东东 白", "--win", "白", "--set", "加倍次数=9"], "0..8"),
    (["--hand", "123m 456m 789m 东东东 白", "--win", "白", "--set", "不存在=1"], "unknown option or context name"),
])
def test_invalid_input_is_one_line_and_exit_2(args, needle):
    p = paili("score", "baijindao", *args)
    assert p.returncode == 2
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_unknown_rules_argument():
    p = paili("score", "nosuchvariant", "--hand", "1m")
    assert p.returncode == 2 and "baijindao" in p.stderr and "Traceback" not in p.stderr


def test_batch_scores_in_order_and_survives_a_bad_line(tmp_path):
    f = tmp_path / "hands.jsonl"
    f.write_text("\n".join([
        json.dumps({"hand": "666m 88m 东东", "melds": ["碰:222m", "碰:444m"], "win": "8m", "set": {"加倍次数": 3}}),
        json.dumps({"hand": "12x", "win": "3m"}),
        "not json",
        json.dumps({"hand": "77m 55m", "melds": ["碰:111m", "碰:999m", "碰:东东东"], "win": "7m",
                    "set": {"起始加倍": 8}}),
    ]) + "\n", encoding="utf-8")
    p = paili("score", "baijindao", "--batch", str(f), "--json")
    assert p.returncode == 1, p.stderr  # some line failed (docs: 0 all ok, 1 some line failed, 2 usage)
    rows = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(rows) == 4
    assert rows[0]["score"] == 96
    assert "error" in rows[1] and "no suit letter" in rows[1]["error"]
    assert "error" in rows[2]
    assert rows[3]["score"] == 80


def test_human_output_is_chinese_table():
    p = paili("score", "baijindao", "--hand", "666m 88m 东东", "--meld", "碰:222m", "--meld", "碰:444m", "--win",
              "8m")
    assert p.returncode == 0 and "碰碰和" in p.stdout and "得分" in p.stdout


def test_waits_lists_winning_tiles():
    p = paili("waits", "baicheng", "--hand", "567p 789s 55m 13s", "--meld", "碰:111m", "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [(r["tile"], r["code"]) for r in rows] == [("二条", "2s")]  # the tile's name and its notation
    assert any(f["name"] == "夹胡" for f in rows[0]["fans"])


def test_describe_lists_context_names():
    p = paili("describe", "baijindao", "--json")
    out = json.loads(p.stdout)
    names = {c["name"] for c in out["context"]}
    assert {"加倍次数", "起始加倍", "任务加倍", "房间倍率", "庄家"} <= names
    assert any(x["name"] == "碰碰和" for x in out["patterns"])
    p = paili("describe", "longyan", "--json")
    assert "金牌" in {c["name"] for c in json.loads(p.stdout)["context"]}


def test_a_fractional_score_is_a_float_with_an_exact_twin(tmp_path):
    """`score = 番 / 4`: the plain `score` stays a float, `score_exact` is the exact lowest-terms string."""
    text = (ROOT / "tests/rules/dingque.pai").read_text(encoding="utf-8")
    assert "\nscore = 番\n" in text
    f = tmp_path / "quarter.pai"
    f.write_text(text.replace("\nscore = 番\n", "\nscore = 番 / 4\n"), encoding="utf-8")
    p = paili("score", str(f), "--hand", "123m 456m 789m 123s 5s", "--win", "5s", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["score"], out["score_exact"], out["total"], out["total_exact"]) == (0.25, "1/4", 1, "1")
