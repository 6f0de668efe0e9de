"""The native signature search (runtime/native_search.py, src/signatures/search.rs: the observers of
runtime/observe.py in Rust) against the reference's: seeded hands holding 2–4 wildcards of one kind under
random contexts give the same splits, the same full-enumeration answers and the same work left, none
declined; and the native game asks it without calling back into Python (the reference's search is asked
only for what the native one declines, counted)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from paili import load
from paili.runtime.backend import native_module
from paili.runtime.limits import HAND_WORK

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(getattr(native_module(), "SigSearch", None) is None,
                                reason="the native core is not built (or built before its signature search)")


def _bench():
    spec = importlib.util.spec_from_file_location("sig_native_diff", ROOT / "bench" / "sig_native_diff.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", ["chehuzi", "joker"])
def test_answers_equal_the_reference(name):
    bench = _bench()
    rules, cat, dec, search = bench.setup(bench.VARIANTS[name])
    assert type(search).__name__ == "SigSearch"
    ref, tables = search.fallback, dec.structure.tables
    found = 0
    for q in bench.questions(rules, cat, 120, 7):
        a = search(tables, *q, HAND_WORK)
        b = ref(*q, HAND_WORK)
        assert json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False), q
        found += a[0] == 0 and bool(a[1])
    answered, declined, why = search.stats()
    assert (answered, declined, why) == (120, 0, {})
    if name == "chehuzi":
        assert found > 30  # hands made of groups: most are read


def test_native_game_asks_no_python_observer():
    from paili.runtime.game.simulate import play_games, seeds_of

    rules = load(ROOT / "rules" / "chehuzi.pai", backend="native")
    play_games(rules, seeds_of(30, 3), "random", {})
    cat, dec = rules.catalog_for(rules.settings_env({}))
    searches = [ss for _, ss in rules.native_hands_for(cat, dec).searches.values()]
    assert searches
    answered = sum(ss.stats()[0] for ss in searches)
    declined = sum(ss.stats()[1] for ss in searches)
    assert answered > 0 and declined == 0
    assert not rules.observers  # no reference observer was built: its search was never asked


def test_a_walk_kept_for_one_context_is_not_taken_where_a_condition_reads_otherwise():
    """The native observers take a kept walk of the rule set's expressions where every shared condition
    it asked is as true under their own context (src/signatures/search.rs `Walks`). 扯胡子's 醒 reads the
    winning tile's kind only under the context 海底: the same hands asked under 海底 false, true, false
    again (a walk kept for each) answer as the reference under each, and 海底 changes some answers (so a
    walk taken across them would have shown)."""
    bench = _bench()
    rules, cat, dec, search = bench.setup(bench.VARIANTS["chehuzi"])
    ref, tables = search.fallback, dec.structure.tables
    changed = 0
    for q in bench.questions(rules, cat, 40, 11):
        env = [[k, (v if k != "context:海底" else None)] for k, v in json.loads(q[0])]
        got = []
        for sea in (False, True, False):
            e = json.dumps([[k, sea if k == "context:海底" else v] for k, v in env], ensure_ascii=False)
            qq = (e, *q[1:])
            a = search(tables, *qq, HAND_WORK)
            assert json.dumps(a, ensure_ascii=False) == json.dumps(ref(*qq, HAND_WORK), ensure_ascii=False), qq
            got.append(json.dumps(a[:-1], ensure_ascii=False))  # the splits (the work left is a memo's hits)
        assert got[0] == got[2]
        changed += got[0] != got[1]
    assert changed > 0 and search.stats()[1] == 0
