"""Every bundled rule file compiles without errors and its JSON round-trips exactly."""
import json
import subprocess
import sys

import pytest
from conftest import ROOT, RULES
from paili.dsl.compiler import compile_file, compile_text
from paili.runtime.ir.serialize import dumps, loads

BUNDLED = ("baijindao", "chehuzi", "baicheng", "longyan", "guobiao")
NOT_PLAYED = ()  # bundled rule sets the engine refuses (none today)


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
    assert doc["format"] == "paili-ruleset" and doc["version"] == 2
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


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_runtime_loads_json_without_the_compiler(path, tmp_path):
    """A game server loads every bundled rule set's compiled JSON, scores its examples and plays, with
    Lark, Jinja and the other compiler-side packages unimportable; the results are the compiler's."""
    out = tmp_path / f"{path.stem}.json"
    out.write_text(dumps(compile_file(path).ruleset), encoding="utf-8")
    code = (
        "import sys\n"
        "BLOCKED = ('lark', 'jinja2', 'rich', 'markdown_it', 'pygments')\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ImportError(name + ' is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "import json\n"
        "from server_run import run\n"
        "from paili.runtime.rules import load\n"
        f"res = run(load({str(out)!r}))\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in BLOCKED or m.startswith('paili.dsl'))\n"
        "assert not loaded, loaded\n"
        "print(json.dumps(res, ensure_ascii=False, default=str))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    served = json.loads(proc.stdout)
    assert served["examples"] > 0 and served["failed"] == []
    from paili import load
    from server_run import run  # the same run on the rule set the compiler made in this process

    direct = json.loads(json.dumps(run(load(path)), ensure_ascii=False, default=str))
    assert served["moves"] or path.stem in NOT_PLAYED
    assert served == direct


def test_the_runtime_refuses_a_rule_file_with_one_sentence(tmp_path):
    from paili.runtime.rules import load

    with pytest.raises(ValueError, match="compiled .json rule sets; a rule file is compiled by paili.load"):
        load(RULES[0])


@pytest.mark.parametrize("version", [1, 99])  # 1: written before labels carried their expressions
def test_loading_a_wrong_version_is_a_clear_error(tmp_path, version):
    rs_text = dumps(compile_file(RULES[0]).ruleset)
    doc = json.loads(rs_text)
    doc["version"] = version
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "paili", "compile", str(bad)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert f"version {version} is not supported" in proc.stderr and "recompile it" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
