"""A seeded sample of bench/fuzz_rules.py (the full run over 100,000 cases is in BENCHMARKS.md): generated
and mutated rule files never give a traceback, an internal compiler error or a code execution."""
import importlib.util

from conftest import ROOT


def _fuzz():
    spec = importlib.util.spec_from_file_location("paili_fuzz_rules", ROOT / "bench" / "fuzz_rules.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_fuzzed_rule_files_are_refused_or_run():
    fuzz = _fuzz()
    out = fuzz.run_inline(2000, seed=12)
    assert not out.findings, "\n\n".join(out.findings[:5])
    assert all(out[k] == 0 for k in fuzz.FAILURES), dict(out)
    # the sample exercises both sides: files refused at each stage and files that compile and run
    assert out["ran"] >= 100 and out["refused E1xx"] >= 100 and out["refused E7xx"] >= 20, dict(out)
