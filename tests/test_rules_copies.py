"""`Rules.with_forms`: the engine's copy of a rule set that wins only by some forms owns its own caches."""
from conftest import ROOT
from paili import load

SEVEN_PAIRS = dict(hand="1122m3344p5566s7z", win="7z", self_drawn=True)  # seven pairs, no melds


def test_a_copy_wins_only_by_its_forms_and_leaves_the_original_alone():
    rules = load(ROOT / "rules" / "guobiao.pai")
    assert rules.score(**SEVEN_PAIRS).win  # 七对 is a form of this rule set
    melds_form = next(f for f, instant, _ in rules.forms if instant is None and f.melds)
    only_melds = rules.with_forms({melds_form.name})
    assert [f.name for f, _, _ in only_melds.forms] == [melds_form.name]
    assert not only_melds.score(**SEVEN_PAIRS).win  # not four melds and a pair
    assert rules.score(**SEVEN_PAIRS).win and len(rules.forms) == len(rules.ir.forms)
    assert only_melds.patterns is rules.patterns and only_melds.fast is rules.fast  # compiled once, shared
