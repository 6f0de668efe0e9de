"""A seeded sample of bench/engine_equivalence.py (the 1,000-games-per-variant runs are in BENCHMARKS.md):
recorded games check as identical, a changed log or an added key is a difference, and
`--ignore-added-keys` drops only the keys it names."""
import importlib.util
import json

from conftest import ROOT


def _tool():
    spec = importlib.util.spec_from_file_location("paili_engine_equivalence", ROOT / "bench" / "engine_equivalence.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rewrite_first_move(path, change):
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"move"' in line)
    entry = json.loads(lines[at])
    change(entry)
    lines[at] = json.dumps(entry, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_recorded_games_check_identical_and_a_changed_log_does_not(tmp_path, capsys):
    tool = _tool()
    assert tool.main(["record", str(tmp_path), "--games", "3", "--configs", "baijindao", "--seed", "5"]) == 0
    assert tool.main(["check", str(tmp_path), "--configs", "baijindao", "--cli", "0"]) == 0
    assert "total: 3 games, 0 different" in capsys.readouterr().out

    log = tmp_path / "baijindao" / "game-00002.jsonl"
    _rewrite_first_move(log, lambda entry: entry.update(seat=1 - entry["seat"]))
    assert tool.main(["check", str(tmp_path), "--configs", "baijindao", "--cli", "0"]) == 1
    out = capsys.readouterr().out
    assert "game-00002.jsonl: replay:" in out and "total: 3 games, 1 different" in out


def test_added_keys_differ_unless_named(tmp_path, capsys):
    tool = _tool()
    tool.main(["record", str(tmp_path), "--games", "2", "--configs", "baijindao", "--seed", "5"])
    capsys.readouterr()
    # a recording made before the engine wrote a move's tile codes: drop them from the record
    log = tmp_path / "baijindao" / "game-00001.jsonl"
    _rewrite_first_move(log, lambda entry: entry["move"].pop("codes"))
    assert tool.main(["check", str(tmp_path), "--configs", "baijindao", "--cli", "0"]) == 1
    assert "game-00001.jsonl: the regenerated log differs" in capsys.readouterr().out
    assert tool.main(["check", str(tmp_path), "--configs", "baijindao", "--cli", "0",
                      "--ignore-added-keys", "codes"]) == 0
    assert "total: 2 games, 0 different" in capsys.readouterr().out
    # a suffix pattern names keys by their ending, and nothing else is loosened
    ignored = tool.key_filter(["*_exact", "codes"])
    data = {"a_exact": 1, "codes": [1], "b": [{"c_exact": 2, "d": (3,)}]}
    assert tool.without_keys(data, ignored) == {"b": [{"d": [3]}]}
