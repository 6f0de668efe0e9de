"""Every bundled rule file compiles without errors and its JSON round-trips exactly."""
import json
import subprocess
import sys

import pytest
from conftest import ROOT, RULES
from paili.dsl.compiler import compile_file, compile_text
from paili.dsl.serialize import dumps, loads

BUNDLED = ("baijindao", "chehuzi", "baicheng", "longyan", "guobiao")


def test_all_bundled_variants_are_present():
    assert sorted(p.stem for p in RULES) == sorted(BUNDLED)


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_compiles_without_errors(path):
    res = compile_file(path)
    errors = [d for d in res.diagnostics if d.is_error]
    assert not errors, res.render()
    assert res.ruleset.variant.id == path.stem


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_json_round_trip(path):
    # named by the file's name only, as the JSON names it (it carries no folder of the build machine)
    rs = compile_text(path.read_text(encoding="utf-8"), path.name).ruleset
    text = dumps(rs)
    doc = json.loads(text)
    assert doc["format"] == "paili-ruleset" and doc["version"] == 1
    assert loads(text) == rs
    # and the text is stable: dumping the loaded rule set gives the same bytes
    assert dumps(loads(text)) == text


def test_cli_check_all_bundled_exits_zero():
    proc = subprocess.run([sys.executable, "-m", "paili", "check", *map(str, RULES)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "error" not in proc.stderr.lower()


def test_cli_compile_writes_loadable_json(tmp_path):
    out = tmp_path / "r.json"
    proc = subprocess.run([sys.executable, "-m", "paili", "compile", str(RULES[0]), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert loads(out.read_text(encoding="utf-8")) == compile_text(RULES[0].read_text(encoding="utf-8"),
                                                                   RULES[0].name).ruleset


def test_runtime_loads_json_without_lark(tmp_path):
    """A game server loads a compiled rule set with no Lark installed."""
    out = tmp_path / "r.json"
    out.write_text(dumps(compile_file(RULES[0]).ruleset), encoding="utf-8")
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'lark' or name.startswith('lark.'):\n"
        "            raise ImportError('lark is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from paili.dsl.serialize import loads\n"
        "from paili.runtime.tiles import Catalog\n"
        f"rs = loads(open({str(out)!r}, encoding='utf-8').read())\n"
        "cat = Catalog(rs)\n"
        "assert 'lark' not in sys.modules\n"
        "print(len(cat.kinds))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) > 0


def test_loading_a_wrong_version_is_a_clear_error(tmp_path):
    rs_text = dumps(compile_file(RULES[0]).ruleset)
    doc = json.loads(rs_text)
    doc["version"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "paili", "compile", str(bad)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert "version 99" in proc.stderr and "Traceback" not in proc.stderr
