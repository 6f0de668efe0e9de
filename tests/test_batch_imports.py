"""What a `paili score VARIANT --batch FILE --json` process loads: the runtime and the native core, not the
compiler (nor Lark), nor the Python scorers a batch the native core scores whole never calls; they are
made at their first use (runtime/rules.py `Made`, runtime/nativecounts.py), so everything else still
answers as before."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)

# Runs the command line in-process, then lists the modules it loaded (on standard error, after the run).
DRIVER = """
import json, sys
from paili.dsl.cli import main
sys.argv = ["paili"] + sys.argv[1:]
try:
    code = main()
finally:
    sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""

COMPILER = ["lark", "paili.dsl.compiler", "paili.dsl.build", "paili.dsl.checker", "paili.dsl.syntax", "jinja2"]
PYTHON_SCORERS = ["paili.runtime.fastscore", "paili.runtime.codegen", "paili.runtime.hand_score",
                  "paili.runtime.scoring", "paili.runtime.hand_readings", "paili.runtime.result",
                  "paili.runtime.ir.jsonvalidate", "paili.runtime.ir.check"]

LINES = {
    "baijindao": [{"hand": "3m 4m 5m 4m 5m 6m 7m 7m 7m 8m 9m 8m 8m", "win": "7m"},
                  {"hand": "1m1m1m2m3m4m5m6m7m8m9m9m东", "win": "东"}],
    "guobiao": [{"hand": "1p 2p 3p 2p 2p 2p 7m 8m 2s 2s 2s 5m 5m 夏", "melds": [], "win": "6m", "self_drawn": False,
                 "set": {"圈风": "南", "门风": "东", "和绝张": False, "海底": False, "杠上": False, "抢杠": False,
                         "起和番": 0}},
                {"hand": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win": "5m"}],
}


def run_batch(tmp_path, variant: str, backend_name: str, *more: str) -> tuple[str, str, list[str]]:
    path = tmp_path / f"{variant}.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in LINES[variant]), "utf-8")
    env = {**os.environ, "PAILI_BACKEND": backend_name}
    p = subprocess.run([sys.executable, "-c", DRIVER, "score", variant, "--batch", str(path), "--json", *more],
                       capture_output=True, text=True, cwd=ROOT, env=env, encoding="utf-8")
    assert p.returncode == 0, p.stderr[-500:]
    err, _, modules = p.stderr.rpartition("\nMODULES ")
    return p.stdout, err, json.loads(modules)


@needs_native
@pytest.mark.parametrize("variant", sorted(LINES))
def test_a_native_batch_imports_neither_the_compiler_nor_the_python_scorers(tmp_path, variant):
    out, _, modules = run_batch(tmp_path, variant, "native")
    assert len(out.splitlines()) == len(LINES[variant]) and '"win": true' in out.splitlines()[0]
    loaded = [m for m in COMPILER + PYTHON_SCORERS if m in modules]
    assert loaded == [], f"a native batch imported {loaded}"
    # (a bundled variant's batch starts on its recorded setup, runtime/quickbatch.py: the native core and
    # not even the native hands' Python side; tests/test_batch_startup.py)
    assert "paili.runtime._native" in modules
    # the reference scores the same lines with the scorers it needs, and writes the same bytes
    ref, _, ref_modules = run_batch(tmp_path, variant, "python")
    assert ref == out
    assert "paili.runtime.hand_score" in ref_modules and "paili.runtime.scoring" in ref_modules
    assert not [m for m in COMPILER if m in ref_modules]


@needs_native
def test_stats_after_a_native_batch_still_report_the_generated_scorer(tmp_path):
    # `generated` asks for the generated scorer, which the batch did not need: it is made then
    _, err, modules = run_batch(tmp_path, "baijindao", "native", "--stats")
    stats = json.loads(err.strip().splitlines()[-1])["stats"]
    assert stats["generated"] is True and stats["scoring"] == "native" and stats["fallbacks"] == 0
    assert stats["batch_lines"] == {"native": 2, "reference": 0}
    assert "paili.runtime.fastscore" in modules and "lark" not in modules


def test_the_python_scorers_are_made_at_first_use_and_shared_by_copies():
    rules = load("baijindao")
    copy = rules.with_forms([f.name for f, _, _ in rules.forms])
    assert rules.fast is copy.fast is not None  # made once (by the first to ask), for both
    assert rules.patterns is copy.patterns
    assert rules.patterns.prefilter is rules.prefilter  # the reference's closures test as the native core does
    hand = "1m1m1m2m3m4m5m6m7m8m9m9m9m"
    want = rules.score(hand, win="9m", self_drawn=True).total
    rules.fast = None  # set aside: the reference evaluates every reading, the same score
    assert rules.fast is None and rules.pattern_lines() is None and copy.fast is not None
    assert rules.score(hand, win="9m", self_drawn=True).total == want


@needs_native
def test_room_options_the_tiles_do_not_read_share_one_catalog():
    rules = load("guobiao", backend="native")
    plain = rules.env_for(None)
    other = rules.env_for({"起和番": 0})
    assert plain[0] is other[0] and plain[1] is other[1]  # the catalog and decomposer
    assert plain[2]["option:起和番"] == 8 and other[2]["option:起和番"] == 0  # each context its own value


# Counts the calls of the IR's full rebuild (serialize.from_data) in a command line run in-process.
COUNTING_DRIVER = """
import sys
from paili.runtime.ir import serialize
calls = [0]
full = serialize.from_data
def counted(*a, **k):
    calls[0] += 1
    return full(*a, **k)
serialize.from_data = counted
from paili.dsl.cli import main
sys.argv = ["paili"] + sys.argv[1:]
code = main()
sys.stderr.write(f"\\nFROM_DATA {calls[0]}\\n")
sys.exit(code)
"""


@pytest.mark.parametrize("variant", sorted(LINES))
def test_a_batch_reads_the_shipped_rule_set_in_one_pass(tmp_path, variant):
    """A bundled variant's shipped file, recorded as validated, is read with its nodes made as the JSON is
    read (runtime/ir/serialize.py `_node`): the document is never walked again (`from_data`), and the
    output is the same bytes as when it is (tests/test_precompiled.py: the same rule set)."""
    # (--stats: the full command, which reads the rule set; without it a bundled variant's batch reads
    # none, tests/test_batch_startup.py)
    out, _, _ = run_batch(tmp_path, variant, "auto", "--stats")
    path = tmp_path / f"{variant}.jsonl"
    p = subprocess.run([sys.executable, "-c", COUNTING_DRIVER, "score", variant, "--batch", str(path), "--json",
                        "--stats"],
                       capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), encoding="utf-8")
    assert p.returncode == 0, p.stderr[-500:]
    assert p.stderr.rsplit("FROM_DATA ", 1)[1].strip() == "0"
    assert p.stdout == out
