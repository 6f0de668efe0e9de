"""`paili score --batch`: every line is validated on its own, a bad line yields {"line", "error"} and the
run goes on, and the exit status says whether any line failed (README, "score --batch")."""
import json
import subprocess
import sys

from conftest import ROOT

# 碰碰和 (6 番) with 碰 222m and 444m, winning on 8m; 白金岛 scores 番 × 2^加倍次数.
GOOD = {"hand": "666m 88m 东东", "melds": ["碰:222m", "碰:444m"], "win": "8m"}


def batch(tmp_path, lines: list[bytes | str]):
    f = tmp_path / "hands.jsonl"
    f.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode("utf-8")) + b"\n" for x in lines))
    p = subprocess.run([sys.executable, "-m", "paili", "score", "baijindao", "--batch", str(f), "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    assert "Traceback" not in p.stderr, p.stderr
    return p.returncode, [json.loads(x) for x in p.stdout.splitlines()]


def line(**changes) -> str:
    item = {**GOOD, **changes}
    return json.dumps({k: v for k, v in item.items() if v is not ...}, ensure_ascii=False)


def test_all_good_lines_exit_0(tmp_path):
    rc, rows = batch(tmp_path, [line(set={"加倍次数": 3}), "", line(set={"加倍次数": "1"})])
    assert rc == 0
    assert [r["score"] for r in rows] == [96, 16]  # (6+6)×8 and (6+2)×2; the blank line gives no row


def test_each_bad_line_is_one_error_with_its_number_and_the_run_goes_on(tmp_path):
    bad = [
        line(win=8),                                   # a non-string win
        line(self_drawn="false"),                      # a string where a JSON boolean is needed
        line(set={"加倍次数": [3]}),                    # a list as a setting
        line(set={"加倍次数": 3.5}),                    # not a whole number
        line(set={"加倍次数": True}),                   # a boolean for a number
        line(melds="碰:222m"),                         # melds not a list
        line(melds=[1, 2]),
        line(hand=["666m"]),
        line(extra=1),                                 # an unknown key
        '{"hand": "666m", "set": {"加倍次数": Infinity}}',
        '{"hand": "666m", "set": {"加倍次数": NaN}}',
        '{"hand": "666m", "set": {"加倍次数": 1e400}}',
        '{"hand": "666m", "set": {"加倍次数": 1' + "0" * 5000 + "}}",
        '{"set": ' + "[" * 50000 + "]" * 50000 + "}",  # deep nesting
        b'{"hand": "666m \xff"}',                      # not UTF-8
        "[1, 2]",
        "not json",
        line(hand="1m" * 5000),                        # a hand text over the limit
        line(set={"加倍次数": "1e999999999"}),          # exponent notation is not a setting's number
    ]
    rc, rows = batch(tmp_path, [line()] + bad + [line(set={"加倍次数": 3})])
    assert rc == 1
    assert len(rows) == len(bad) + 2
    assert rows[0]["score"] == 6 and rows[-1]["score"] == 96
    for n, row in enumerate(rows[1:-1], 2):
        assert set(row) == {"line", "error"}, row
        assert row["line"] == n and row["error"].startswith(f"line {n}: ")
        assert len(row["error"]) < 200 and "\n" not in row["error"]
    assert "boolean" in rows[2]["error"]
    assert "'extra'" in rows[9]["error"]
    assert "UTF-8" in rows[15]["error"]


def test_self_drawn_false_is_not_read_as_true(tmp_path):
    rc, rows = batch(tmp_path, [line(self_drawn=False), line(self_drawn=True)])
    assert rc == 0
    # self-drawn adds 自摸 (1) and makes 666m a concealed triplet (双暗刻, 2): 6 against 9
    assert [r["score"] for r in rows] == [6, 9]


def test_an_overlong_line_is_refused_without_stopping(tmp_path):
    rc, rows = batch(tmp_path, [json.dumps({"hand": "1m " * 40000}), line()])
    assert rc == 1
    assert "longer than" in rows[0]["error"] and rows[1]["score"] == 6


def test_usage_errors_exit_2(tmp_path):
    p = subprocess.run([sys.executable, "-m", "paili", "score", "baijindao", "--batch",
                        str(tmp_path / "missing.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and "cannot read" in p.stderr and "Traceback" not in p.stderr


def test_score_many_scores_each_item_and_puts_each_error_in_its_place():
    """`Rules.score_many`: dicts with a batch line's keys, tuples and plain tile strings; a bad item gives
    its one-sentence error in its place and the others are scored as one `score` call each scores them."""
    from paili import load
    from paili.runtime.hand import HandError

    r = load(ROOT / "rules" / "baijindao.pai")
    items = [
        dict(GOOD, set={"加倍次数": 3}),                             # 碰碰和 6 番 + 6 × 2^3
        ("666m 88m 东东", ["碰:222m", "碰:444m"], "8m"),              # the same hand, 6 番
        dict(GOOD, extra=1),                                          # an unknown key
        ("666m 88m 东东", ["碰:222m", "碰:444m"], "8m", False, {"加倍次数": 9}),  # outside its range
        42,                                                           # not a hand at all
        dict(GOOD, set={"加倍次数": "1"}),                           # (6+2)×2
    ]
    got = r.score_many(items)
    assert len(got) == len(items)
    assert [g.score for g in got if not isinstance(g, Exception)] == [96, 6, 16]
    assert isinstance(got[2], ValueError) and "unknown key 'extra'" in str(got[2])
    assert isinstance(got[3], HandError) and "加倍次数" in str(got[3])
    assert isinstance(got[4], ValueError)
    one = r.score("666m 88m 东东", ["碰:222m", "碰:444m"], "8m", context={"加倍次数": 3})
    assert got[0].to_json() == one.to_json()


def test_a_misspelt_key_is_refused_with_its_line_and_the_keys_a_line_may_have(tmp_path):
    """`meld` for `melds` was once ignored, scoring the hand without its melds: now the line is refused."""
    rc, rows = batch(tmp_path, [line(), json.dumps({"hand": "666m 88m 东东", "meld": ["碰:222m"], "win": "8m"},
                                                   ensure_ascii=False), line(set=..., Set={})])
    assert rc == 1 and rows[0]["score"] == 6
    assert rows[1:] == [
        {"line": 2, "error": "line 2: unknown key 'meld' (a line may have: hand, melds, win, self_drawn, set)"},
        {"line": 3, "error": "line 3: unknown key 'Set' (a line may have: hand, melds, win, self_drawn, set)"}]
