"""The diagnostic registry (dsl/codes.py): every code the compiler emits has an entry, every entry's
example really reports its code, the table of docs/language.md §39 is the one generated from the
registry, and `paili explain` prints an entry or refuses an unknown code in one sentence."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import ROOT
from paili.dsl.codes import BY_CODE, EXAMPLE_CODES, PRELUDE, REGISTRY, replace_table
from paili.dsl.compiler import compile_text

# A code written as a string literal ("E301" or 'W605') in the compiler or the runtime: what they emit.
EMITTED = re.compile(r"""["']([EW]\d{3})["']""")


def test_codes_are_unique_and_well_formed():
    codes = [c.code for c in REGISTRY]
    assert len(codes) == len(set(codes)) == len(BY_CODE)
    assert all(re.fullmatch(r"[EW]\d{3}", c) for c in codes), codes


def test_every_emitted_code_has_an_entry():
    emitted: dict[str, str] = {}
    for path in sorted((ROOT / "dsl").rglob("*.py")) + sorted((ROOT / "runtime").rglob("*.py")):
        if path.name == "codes.py":
            continue
        for code in EMITTED.findall(path.read_text(encoding="utf-8")):
            emitted.setdefault(code, str(path.relative_to(ROOT)))
    assert len(emitted) >= 30  # the scan itself works (it finds the compiler's codes)
    missing = {c: f for c, f in emitted.items() if c not in BY_CODE}
    assert not missing, f"codes used without a registry entry in dsl/codes.py: {missing}"


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda c: c.code)
def test_entry_is_complete(entry):
    assert entry.title and "\n" not in entry.title and "|" not in entry.title
    assert entry.explanation and entry.fix
    # exactly one of: an example that triggers the code, or the reason there is none
    assert bool(entry.example) != bool(entry.no_example), entry.code


@pytest.mark.parametrize("entry", [c for c in REGISTRY if c.example], ids=lambda c: c.code)
def test_example_reports_its_code(entry):
    # Examples are scored (which needs the runtime) only for the codes reported by that step.
    res = compile_text(entry.source(), f"{entry.code}.pai", examples=entry.code in EXAMPLE_CODES)
    codes = [d.code for d in res.diagnostics]
    assert codes and set(codes) == {entry.code}, res.render()
    assert res.ok == (entry.severity == "warning"), res.render()


def test_prelude_is_clean():
    res = compile_text(PRELUDE, "prelude.pai")
    assert res.ok and not res.diagnostics, res.render()


def test_language_doc_table_is_generated_from_the_registry():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert replace_table(text) == text, ("docs/language.md §39 is stale: run "
                                         "`python -m paili explain --markdown --write docs/language.md`")


def paili(*args):
    return subprocess.run([sys.executable, "-m", "paili", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=False)


def test_cli_explain_prints_the_entry():
    p = paili("explain", "e502")  # case does not matter
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("E502 (error): exclusion cycle")
    assert "excludes 甲" in p.stdout and "Fix:" in p.stdout
    p = paili("explain")
    assert p.returncode == 0 and len(p.stdout.splitlines()) == len(REGISTRY)


def test_cli_explain_unknown_code_is_one_sentence():
    p = paili("explain", "E509")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "'E509'" in p.stderr and "closest is E508" in p.stderr
