"""Every example written in a bundled rule file is executed: a pattern's examples must score it, its
counterexamples must not, and every top-level example must meet its `expect` lines."""
from functools import cache

import pytest
from conftest import RULES
from paili import load
from paili.runtime.examples import check_example, check_pattern_examples


@cache
def rules_for(path):
    return load(path)


def pattern_cases():
    for path in RULES:
        rules = rules_for(path)
        for p in rules.ir.patterns:
            if p.examples or p.counterexamples:
                yield pytest.param(path, p.name, id=f"{path.stem}:{p.name}")


def example_cases():
    for path in RULES:
        for ex in rules_for(path).ir.examples:
            yield pytest.param(path, ex.name, id=f"{path.stem}:{ex.name}")


@pytest.mark.parametrize("path,name", list(pattern_cases()))
def test_pattern_examples(path, name):
    rules = rules_for(path)
    outcomes = check_pattern_examples(rules, rules.ir.pattern(name))
    bad = [f"{o.where}: {o.message}" for o in outcomes if not o.ok]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path,name", list(example_cases()))
def test_worked_examples(path, name):
    rules = rules_for(path)
    ex = next(e for e in rules.ir.examples if e.name == name)
    assert ex.expects, f"example {name} states no expected outcome"
    o = check_example(rules, ex)
    assert o.ok, f"{o.where}: {o.message}"


def test_every_reachable_pattern_has_an_example():
    """W601 marks patterns that cannot occur with the declared tiles; every other pattern shows a hand."""
    from paili.dsl.compiler import compile_file

    missing = []
    for path in RULES:
        res = compile_file(path)
        unreachable = {d.message.split("`")[1] for d in res.diagnostics if d.code == "W601"}
        for p in res.ruleset.patterns:
            if not p.examples and p.name not in unreachable:
                missing.append(f"{path.stem}:{p.name}")
    assert not missing, "patterns without an example hand: " + ", ".join(missing)


def test_a_wrong_example_is_caught(tmp_path):
    """Guard against a vacuous runner: changing a value makes the worked example fail."""
    src = RULES[0].read_text(encoding="utf-8")
    path = RULES[0]
    rules = rules_for(path)
    ex = next(e for e in rules.ir.examples if any(w == "score" for w, _ in e.expects))
    import dataclasses

    from paili.runtime.ir import expr as E

    wrong = dataclasses.replace(ex, expects=tuple((w, E.Num("123456") if w == "score" else v) for w, v in ex.expects))
    assert not check_example(rules, wrong).ok
    assert src  # the file was read
