"""The bundled rule files ship compiled (rules/compiled/, runtime/ir/precompiled.py): loading a bundled
variant reads its compiled JSON when, and only when, it was compiled from the source as it is now in this
format version, so a command on a bundled variant needs neither the compiler nor Lark; `paili docs`
writes the files in a checkout and `paili docs --check` refuses stale ones (dsl/precompile.py)."""
import json
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT
from paili.dsl import precompile
from paili.dsl.compiler import compile_file
from paili.runtime.ir import precompiled
from paili.runtime.ir.serialize import dumps

BUNDLED = sorted((ROOT / "rules").glob("*.pai"))


def test_the_committed_compiled_files_are_current():
    assert precompile.stale() == []


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_bundled_variant_loads_as_the_compiler_gives_it(path):
    shipped = precompiled.load_bundled(path)
    assert shipped is not None
    assert dumps(shipped) == dumps(compile_file(path).ruleset)


def test_only_the_bundled_files_are_read_compiled(tmp_path):
    mine = tmp_path / "chehuzi.pai"
    shutil.copy(ROOT / "rules" / "chehuzi.pai", mine)
    assert precompiled.load_bundled(mine) is None  # the same text elsewhere is not a bundled file
    assert precompiled.load_bundled(ROOT / "rules" / "compiled" / "chehuzi.json") is None


@pytest.fixture
def copy_of_rules(tmp_path, monkeypatch):
    """The bundled rule files and their compiled files copied, and the loader pointed at the copy."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    monkeypatch.setattr(precompiled, "RULES_DIR", rules.resolve())
    monkeypatch.setattr(precompiled, "COMPILED_DIR", rules / "compiled")
    monkeypatch.setattr(precompiled, "INDEX", rules / "compiled" / "index.json")
    assert precompiled.load_bundled(rules / "chehuzi.pai") is not None
    return rules


def test_a_source_edited_since_is_compiled_instead(copy_of_rules):
    src = copy_of_rules / "chehuzi.pai"
    src.write_text(src.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert precompiled.load_bundled(src) is None


@pytest.mark.parametrize("edit", ["version", "format", "hash", "broken json", "missing", "refused"])
def test_anything_but_a_matching_compiled_file_is_not_used(copy_of_rules, edit):
    index = copy_of_rules / "compiled" / "index.json"
    compiled = copy_of_rules / "compiled" / "chehuzi.json"
    doc = json.loads(index.read_text(encoding="utf-8"))
    if edit == "version":
        doc["version"] += 1
    elif edit == "format":
        doc["format"] = "something else"
    elif edit == "hash":
        doc["sources"]["chehuzi"] = "0" * 64
    index.write_text(json.dumps(doc), encoding="utf-8")
    if edit == "broken json":
        compiled.write_text("{", encoding="utf-8")
    elif edit == "missing":
        compiled.unlink()
    elif edit == "refused":  # a file the loader refuses (here: a number past the limits) is not used
        compiled.write_text(compiled.read_text(encoding="utf-8").replace('"text": "4"', '"text": "' + "4" * 40 + '"',
                                                                          1), encoding="utf-8")
    assert precompiled.load_bundled(copy_of_rules / "chehuzi.pai") is None


def test_a_stale_compiled_file_is_listed(tmp_path, monkeypatch):
    compiled = tmp_path / "compiled"
    shutil.copytree(ROOT / "rules" / "compiled", compiled)
    monkeypatch.setattr(precompile, "COMPILED_DIR", compiled)
    monkeypatch.setattr(precompile, "INDEX", compiled / "index.json")
    (compiled / "chehuzi.json").write_text("{}", encoding="utf-8")
    (compiled / "baicheng.json").unlink()
    (compiled / "old.json").write_text("{}", encoding="utf-8")
    lines = precompile.stale()
    assert any("chehuzi.json is out of date" in x for x in lines), lines
    assert any("baicheng.json is missing" in x for x in lines), lines
    assert any("old.json has no bundled rule file" in x for x in lines), lines
    assert len(lines) == 3
    precompile.write()
    assert precompile.stale() == []


def test_a_command_on_a_bundled_variant_needs_no_compiler(tmp_path):
    """`paili waits` and `paili.load` on a bundled variant import neither Lark nor the compiler."""
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['paili', 'waits', 'chehuzi', '--self-drawn', '--hand',\n"
        "            '贰贰六六六七八九七七柒十拾拾二二王王王王']\n"
        "try:\n"
        "    runpy.run_module('paili', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "import paili\n"
        "paili.load('baijindao')\n"
        "bad = sorted(m for m in sys.modules if m == 'lark' or m.startswith(('lark.', 'paili.dsl.compiler', "
        "'paili.dsl.checker')))\n"
        "print('BAD', bad, file=sys.stderr)\n"
        "assert not bad\n")
    r = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "扯胡子" in r.stdout  # the waits table of the variant


def _count_validation(monkeypatch) -> list:
    """Calls of the loader's full validation (the schema and the checker's passes), recorded."""
    from paili.runtime.ir import check, jsonvalidate

    calls: list = []
    validate, semantic = jsonvalidate.validate, check.check
    monkeypatch.setattr(jsonvalidate, "validate", lambda *a: calls.append("schema") or validate(*a))
    monkeypatch.setattr(check, "check", lambda *a: calls.append("check") or semantic(*a))
    return calls


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_shipped_file_recorded_as_validated_is_not_validated_again(path, monkeypatch):
    calls = _count_validation(monkeypatch)
    shipped = precompiled.load_bundled(path)
    assert calls == []
    assert dumps(shipped) == dumps(compile_file(path).ruleset)
    # the record is the hash of the file's bytes, for the validation `paili docs` ran in full
    data = (ROOT / "rules" / "compiled" / f"{path.stem}.json").read_bytes()
    assert precompiled.read_validated()[path.stem] == precompiled.source_hash(data)


def test_a_shipped_file_not_recorded_as_such_is_validated_in_full(copy_of_rules, monkeypatch):
    compiled = copy_of_rules / "compiled" / "chehuzi.json"
    compiled.write_text(compiled.read_text(encoding="utf-8") + " ", encoding="utf-8")  # same rule set, other bytes
    calls = _count_validation(monkeypatch)
    assert precompiled.load_bundled(copy_of_rules / "chehuzi.pai") is not None
    assert calls == ["schema", "check"]
    # a file edited so that it is refused is refused, whatever the record says of other bytes
    compiled.write_text(compiled.read_text(encoding="utf-8").replace('"text": "4"', '"text": "' + "4" * 40 + '"', 1),
                        encoding="utf-8")
    assert precompiled.load_bundled(copy_of_rules / "chehuzi.pai") is None


def test_a_json_file_given_by_path_is_always_validated_in_full(monkeypatch):
    from paili.dsl.cli_args import load_ruleset_text

    calls = _count_validation(monkeypatch)
    load_ruleset_text(str(ROOT / "rules" / "compiled" / "baijindao.json"))  # the shipped bytes, by path
    assert calls == ["schema", "check"]


def test_the_record_holds_only_files_that_pass_the_validation(monkeypatch):
    from paili.runtime.ir import serialize

    def refuse(text, *a, **k):
        raise serialize.FormatError("refused")

    monkeypatch.setattr(serialize, "loads", refuse)
    index = json.loads(precompile.expected()[precompiled.INDEX])
    assert index["validated"] == {} and len(index["sources"]) == len(BUNDLED)


def _structure(x):
    """A rule set as nested (class, fields…) tuples, the sequence types included (a tuple read as a list
    would compare equal to nothing, but this names where)."""
    import dataclasses

    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,) + tuple((f.name, _structure(getattr(x, f.name))) for f in dataclasses.fields(x))
    if isinstance(x, (tuple, list)):
        return (type(x).__name__,) + tuple(_structure(y) for y in x)
    return x


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_verified_text_read_in_one_pass_is_the_rule_set_read_in_full(path):
    """`loads(verified=True)` makes the nodes as the JSON is read (serialize.py `_node`): the very rule set
    the full reading (schema, rebuild, checker) gives, every node, field, tuple and span."""
    from paili.runtime.ir.serialize import loads

    text = (ROOT / "rules" / "compiled" / f"{path.stem}.json").read_text(encoding="utf-8")
    fast, full = loads(text, verified=True), loads(text)
    assert _structure(fast) == _structure(full)
    assert fast.tiles.kinds[0].span == full.tiles.kinds[0].span and fast.patterns[0].span.line > 0


@pytest.mark.parametrize("edit, sentence", [
    (lambda t: t.replace('"_": "Pattern"', '"_": "Patternx"', 1), "unknown node type 'Patternx'"),
    (lambda t: t.replace('"_": "Pattern",', '"_": "Pattern", "bogus": 1,', 1), "bad Pattern: "),
    (lambda t: t.replace('"span": [', '"span": [0, ', 1), "bad span"),
    (lambda t: t[:-20], "not JSON: "),
])
def test_a_verified_text_that_is_not_one_is_refused_as_the_full_reading_refuses_it(edit, sentence):
    from paili.runtime.ir.serialize import FormatError, from_data, loads

    text = edit((ROOT / "rules" / "compiled" / "guobiao.json").read_text(encoding="utf-8"))
    with pytest.raises(FormatError) as got:
        loads(text, verified=True)
    assert str(got.value).startswith(sentence)
    if sentence != "not JSON: ":  # the sentence the rebuild of the parsed document gives, word for word
        with pytest.raises(FormatError) as want:
            from_data(json.loads(text)["ruleset"])
        assert str(got.value) == str(want.value)
