"""`paili score VARIANT --batch FILE --json` on a bundled variant starts on its recorded setup
(runtime/batchsetup.py, runtime/quickbatch.py): no IR module imported, no `Rules` made unless a line needs
the reference, and the same bytes as today's path (`--stats`, which makes the `Rules`) and the Python
backend; each recorded piece is what the reference makes now; a tampered file takes today's path, whose
answer is unchanged."""
from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend, batchrecord, batchsetup, quickbatch
from paili.runtime.quickcontext import QuickContexts

sys.path.insert(0, str(ROOT / "bench"))
from batch_native_diff import sample_lines  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
VARIANTS = sorted(p.stem for p in (ROOT / "rules").glob("*.pai"))

# `python -m paili …` run in-process, then the modules it loaded listed on standard error.
DRIVER = """
import json, runpy, sys
sys.argv = ["paili"] + sys.argv[1:]
code = 0
try:
    runpy.run_module("paili", run_name="__main__", alter_sys=True)
except SystemExit as e:
    code = e.code
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""

IR_AND_RULES = ["paili.runtime.ir.nodes", "paili.runtime.ir.expr", "paili.runtime.ir.serialize",
                "paili.runtime.rules", "paili.runtime.tiles", "paili.runtime.hand", "paili.runtime.nativehand",
                "paili.runtime.contexts", "paili.runtime.evaluate", "dataclasses", "lark"]

GUOBIAO = [
    {"hand": "1p 2p 3p 2p 2p 2p 7m 8m 2s 2s 2s 5m 5m 夏", "win": "6m",
     "set": {"圈风": "南", "门风": "东", "和绝张": False, "海底": False, "杠上": False, "抢杠": False, "起和番": 0}},
    {"hand": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win": "5m"},
    {"hand": "1m2m3m4m5m6m7m8m9m1p", "melds": ["pung:东东东"], "win": "1p", "set": {"门风": "东"}},
    {"hand": "1m2m3m4m5m6m7m8m9m1p", "melds": ["chow:3s2s1s"], "win": "1p"},  # not in catalog order
    {"hand": "1m2m3m4m5m6m7m8m9m1p", "melds": ["chow:1s2s3s"], "win": "1p", "set": {"门风": "中"}},
    {"hand": "1m2m3m4m5m6m7m8m9m1p", "melds": ["chow:1s2s4s"], "win": "1p"},
    {"hand": "1m2m3m", "set": {"nope": 1}},
    {"hand": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win": "5m", "set": {"起和番": "8", "海底": "yes"}},
    {"hand": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win": "5m", "set": {"起和番": 99}},
    "not json", "", {"hand": 5},
]


def lines_file(tmp_path, name: str, items: list) -> str:
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in items),
                    "utf-8")
    return str(path)


def run(path: str, variant: str, *more: str, backend_name: str = "native") -> tuple[int, str, str, list]:
    env = {**os.environ, "PAILI_BACKEND": backend_name, "PAILI_BATCH_REPORT": "1"}
    p = subprocess.run([sys.executable, "-c", DRIVER, "score", variant, "--batch", path, "--json", *more],
                       capture_output=True, text=True, cwd=ROOT, env=env, encoding="utf-8")
    err, _, modules = p.stderr.rpartition("\nMODULES ")
    return p.returncode, p.stdout, err, json.loads(modules)


def quick_report(err: str) -> dict:
    got = [json.loads(x)["quick"] for x in err.splitlines() if x.startswith('{"quick"')]
    return got[-1] if got else {}


@needs_native
@pytest.mark.parametrize("variant", ["baijindao", "guobiao"])
def test_a_batch_on_a_bundled_variant_makes_no_ir_objects_and_writes_todays_bytes(tmp_path, variant):
    items = GUOBIAO[:2] if variant == "guobiao" else [
        {"hand": "3m 4m 5m 4m 5m 6m 7m 7m 7m 8m 9m 8m 8m", "win": "7m"},
        {"hand": "1m1m1m2m3m4m5m6m7m8m9m9m东", "win": "东", "set": {"海底": True, "庄家": False}}]
    path = lines_file(tmp_path, variant, items)
    code, out, err, modules = run(path, variant)
    assert code == 0 and len(out.splitlines()) == 2 and '"win": true' in out
    assert [m for m in IR_AND_RULES if m in modules] == []
    # nor the backend's choice and structures, nor the recording of setups (compiled at each start here)
    assert [m for m in ("paili.runtime.backend", "paili.runtime.batchrecord") if m in modules] == []
    assert quick_report(err) == {"native": 2, "reference": 0, "setup": "recorded", "rules_loaded": False}
    # today's path (--stats makes the Rules) and the Python backend write the same bytes
    _, today, _, today_modules = run(path, variant, "--stats")
    assert "paili.runtime.rules" in today_modules and today == out
    _, ref, _, _ = run(path, variant, backend_name="python")
    assert ref == out


@needs_native
def test_lines_the_setup_does_not_cover_load_the_rules_and_answer_as_today(tmp_path):
    # a meld not in catalog order, contexts the table does not convert, refusals, lines that are no item
    path = lines_file(tmp_path, "gb", GUOBIAO)
    code, out, err, modules = run(path, "guobiao")
    report = quick_report(err)
    assert report["rules_loaded"] is True and report["native"] >= 3
    assert "paili.runtime.rules" in modules
    _, today, _, _ = run(path, "guobiao", "--stats")
    _, ref, _, _ = run(path, "guobiao", backend_name="python")
    assert out == today == ref and code == 1  # (lines failed: exit 1 as today)
    assert '"error": "line 7: unknown option or context name' in out


@needs_native
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seeded_sample_gives_todays_bytes(tmp_path, variant):
    # bench/batch_native_diff.py's sample (winning, near-winning, wildcards, melds, room options), small
    path = tmp_path / f"{variant}.jsonl"
    path.write_bytes(sample_lines(ROOT / "rules" / f"{variant}.pai", 40, 5))
    code, out, err, _ = run(str(path), variant)
    assert "setup" in quick_report(err)
    _, today, _, _ = run(str(path), variant, "--stats")
    assert out == today


@needs_native
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_recorded_setup_is_what_the_reference_makes_now(variant):
    got = batchsetup.bundled(variant)
    assert not isinstance(got, str), got
    text, setup = got
    rules = load(variant, backend="native")
    want = batchrecord.record(rules, batchsetup.sha(text))
    want = batchsetup.loads_setup(batchrecord.dumps_setup(want))  # (tuples and bytes as the file holds them)
    # piece by piece: each split group's value and prefilter vectors, the prefilter tests, the settings
    for key in ("hands", "tests", "context", "melds", "contexts", "split_groups", "blocks", "kinds", "cap"):
        assert setup[key] == want[key], key
    assert setup == want


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_recorded_setup_names_no_machine_path(variant):
    from test_portable import ABSOLUTE

    text = batchsetup.setup_path(variant).read_text(encoding="utf-8")
    assert str(ROOT) not in text and not ABSOLUTE.search(text)
    assert batchsetup.loads_setup(text)["compiled"] == json.loads(
        (ROOT / "rules" / "compiled" / "index.json").read_text(encoding="utf-8"))["validated"][variant]


@needs_native
@pytest.mark.parametrize("variant", ["baijindao", "guobiao"])
def test_a_contexts_settings_are_the_references(variant):
    text, setup = batchsetup.bundled(variant)
    rules = load(variant, backend="native")
    cat, dec, _ = rules.env_for(None)
    scorer = rules.native_counts_for(cat).scorer
    quick = QuickContexts(setup["contexts"])
    table = setup["contexts"]["settings"]
    rnd = random.Random(7)
    taken = 0
    for _ in range(300):
        ctx = {}
        listed = sorted(n for n in table if table[n]["values"])
        for name in rnd.sample(listed, rnd.randint(1, min(4, len(listed)))):
            values = table[name]["values"]
            ctx[name] = rnd.choice(values)[1] if rnd.random() < 0.95 else rnd.choice([3, "x", 1.5, None, -1])
        if rnd.random() < 0.05:  # a name the table does not list (unknown, or a value it does not convert)
            ctx[rnd.choice(["nope", *sorted(n for n in table if not table[n]["values"])])] = 2
        changes = quick.changes(ctx)
        try:
            env = rules.env_for(ctx)
        except ValueError:  # refused by the reference: never taken from the table
            assert changes is None
            continue
        if changes is None:
            continue
        assert env[0] is cat  # the same catalog: the same native tables and hands
        want = scorer.hand_state(env[2], False, [])[0]
        got = list(setup["context"][0])
        for pos, v in changes:
            got[pos] = v
        assert tuple(got) == tuple(want), ctx
        taken += 1
    assert taken > 100


@needs_native
@pytest.mark.parametrize("name, edit, why", [
    ("guobiao.json", lambda t: t.replace('"_": "Pattern",', '"_": "Pattern", "bogus": 1,', 1),
     "the compiled file is not the one validated"),
    ("guobiao.batch.json", lambda t: t.replace('"cap":', '"cap":1+', 1), "the batch setup is not the one recorded"),
    ("index.json", lambda t: t.replace('"batch_setups"', '"other"', 1), "the batch setup is not the one recorded"),
])
def test_a_tampered_file_takes_todays_path(compiled_copy, monkeypatch, name, edit, why):
    monkeypatch.setenv("PAILI_BACKEND", "native")
    f = compiled_copy / name
    f.write_text(edit(f.read_text(encoding="utf-8")), encoding="utf-8")
    assert quickbatch.prepare("guobiao", lambda: None) is None
    assert quickbatch.DECLINED == [why]


@needs_native
def test_a_tampered_compiled_file_given_by_path_is_refused_with_todays_sentence(tmp_path):
    from paili.runtime.ir.serialize import FormatError, loads

    text = (ROOT / "rules" / "compiled" / "guobiao.json").read_text(encoding="utf-8")
    bad = text.replace('"_": "Pattern",', '"_": "Pattern", "bogus": 1,', 1)
    path = tmp_path / "guobiao.json"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(FormatError) as want:
        loads(bad)
    code, out, err, modules = run(lines_file(tmp_path, "x", GUOBIAO[:1]), str(path))
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == f"paili: {path}: {want.value}"


def test_the_setups_hash_is_sha256():
    import hashlib

    for data in (b"", b"abc", (ROOT / "rules" / "compiled" / "guobiao.json").read_bytes()):
        assert batchsetup.sha(data) == hashlib.sha256(data).hexdigest()


@needs_native
def test_the_native_core_takes_the_compiled_files_bytes_as_its_text():
    # the quick batch hands the verified file's bytes over undecoded: the same tables and programs as
    # from the str, and bytes that are not UTF-8 refused with one sentence (no panic, nothing made)
    mod = backend.native_module()
    data = (ROOT / "rules" / "compiled" / "guobiao.json").read_bytes()
    text = data.decode("utf-8")
    a, b = mod.Tables(data, {}, 2), mod.Tables(text, {}, 2)
    assert a.kinds() == b.kinds() and a.split_groups() == b.split_groups() and a.blocks() == b.blocks()
    assert mod.Scorer(data, {}).kinds() == mod.Scorer(text, {}).kinds()
    bad = data.replace("幺九".encode(), b"\xff\xfe", 1)
    assert bad != data
    for make in (lambda: mod.Tables(bad, {}, 2), lambda: mod.Scorer(bad, {})):
        with pytest.raises(ValueError, match="not valid JSON"):
            make()
    with pytest.raises(TypeError):
        mod.Tables(list(data[:10]), {}, 2)


@needs_native
def test_the_reference_backend_chosen_runs_todays_path(monkeypatch):
    monkeypatch.setenv("PAILI_BACKEND", "python")
    assert quickbatch.prepare("guobiao", lambda: None) is None
    assert quickbatch.DECLINED == ["the reference backend is chosen"]


@needs_native
def test_the_quick_path_counts_what_it_scored_in_process(monkeypatch):
    monkeypatch.setenv("PAILI_BACKEND", "native")
    q = quickbatch.prepare("guobiao", lambda: load("guobiao", backend="native"))
    data = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in GUOBIAO if isinstance(x, dict)).encode()
    out = io.StringIO()
    failed, counts = q.run(io.BytesIO(data), out)
    rules = load("guobiao", backend="native")
    from paili.runtime.batch import write_lines

    want = io.StringIO()
    want_failed, want_counts = write_lines(rules, io.BytesIO(data), want)
    assert out.getvalue() == want.getvalue() and failed == want_failed
    assert counts["native"] == want_counts["native"] and counts["rules_loaded"] is True


def test_only_the_batch_form_is_taken():
    from paili.dsl.cli_quick import batch_form

    assert batch_form(["score", "guobiao", "--batch", "f", "--json"]) == ("guobiao", "f")
    assert batch_form(["score", "--json", "--batch=f", "guobiao"]) == ("guobiao", "f")
    for argv in (["score", "guobiao", "--batch", "f"], ["score", "guobiao", "--batch", "f", "--json", "--stats"],
                 ["waits", "guobiao", "--batch", "f", "--json"], ["score", "guobiao", "--hand", "1m", "--json"],
                 ["score", "a", "b", "--batch", "f", "--json"], ["score", "guobiao", "--batch=", "--json"],
                 ["score", "guobiao", "--js", "--batch", "f"], ["score", "guobiao", "--batch", "-x", "--json"]):
        assert batch_form(argv) is None
