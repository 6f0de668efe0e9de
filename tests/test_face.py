"""The public face, `import paili`: one import gives loading (by name, .pai or compiled JSON), compiling,
scoring and playing; the three ways to load a rule set agree."""
from __future__ import annotations

import paili
import pytest
from conftest import ROOT, RULES
from paili.runtime.ir.serialize import dumps

HAND = dict(hand="666m 88m 东东", melds=["碰:222m", "碰:444m"], win="8m")


def test_the_face_names_the_public_api():
    for name in ("load", "compile", "Rules", "ScoreResult", "Game", "Session", "IllegalMove", "Move", "bundled"):
        assert name in paili.__all__ and hasattr(paili, name), name
    assert paili.__version__ and paili.__version__[0].isdigit()


def test_bundled_lists_the_rule_files():
    assert paili.bundled() == sorted(p.stem for p in RULES)


def test_a_name_a_rule_file_and_its_compiled_json_load_alike(tmp_path):
    compiled = paili.compile(ROOT / "rules" / "baijindao.pai")
    assert compiled.ok
    (tmp_path / "b.json").write_text(dumps(compiled.ruleset), encoding="utf-8")
    results = [paili.load(src).score(**HAND) for src in
               ("baijindao", ROOT / "rules" / "baijindao.pai", tmp_path / "b.json")]
    assert all(isinstance(r, paili.ScoreResult) and r.win for r in results)
    assert {(r.total, r.score, tuple(f.name for f in r.fans)) for r in results} == \
        {(results[0].total, results[0].score, tuple(f.name for f in results[0].fans))}
    assert results[0].total > 0


def test_compile_reports_diagnostics_with_a_location(tmp_path):
    bad = tmp_path / "bad.pai"
    bad.write_text('game "x" {\n  tiles 1m..9m x4\n  oops\n}\n', encoding="utf-8")
    res = paili.compile(bad)
    assert not res.ok
    assert "bad.pai:" in res.render()


def test_an_unknown_name_is_one_clear_error():
    with pytest.raises(FileNotFoundError, match="no rule file 'nosuch'.*baijindao"):
        paili.load("nosuch")


def test_a_game_plays_from_the_face():
    game = paili.Game(paili.load("baijindao"), seed=3)
    seat = game.current_seats()[0]
    move = game.legal_moves(seat)[0]
    game.apply(seat, move)
    with pytest.raises(paili.IllegalMove):
        game.apply(seat, paili.Move("no-such-action"))


def test_the_python_apis_errors_speak_of_its_arguments_not_of_flags():
    """A mistake in a call of score or waits is told in the call's own words (the winning tile, the hand, an
    option or context name), never as a command-line flag."""
    from paili.runtime.hand import HandError

    rules = paili.load("guobiao")
    calls = [lambda: rules.score("123m 456m 789m 123p", win="5p5p"),
             lambda: rules.score("123m 456m 789m 123p 5p", win="春"),
             lambda: rules.score(**HAND, context={"没有这个名字": 1}),
             lambda: rules.waits("123m 456m 789m 123p 5p", context={"没有这个名字": 1})]
    said = []
    for call in calls:
        with pytest.raises(HandError) as err:
            call()
        said.append(str(err.value))
    assert all("--" not in s for s in said), said
    assert said[0].startswith("the winning tile is one tile, not 2")
    assert said[1].startswith("the winning tile 春 is a flower")
    assert said[2].startswith("unknown option or context name '没有这个名字'") and said[2] == said[3]


def test_the_python_apis_other_errors_name_no_flag_either():
    """Room options of a game, melds, a hand's text, a rule set's name: each mistake is one sentence in the
    call's words (an option, a meld, the hand), with no command-line flag in it."""
    from paili.runtime.game import Game, GameError
    from paili.runtime.hand import HandError

    rules = paili.load("longyan")
    calls = [(GameError, lambda: Game(rules, {"没有": 1})), (GameError, lambda: Game(rules, {"人数": "x"})),
             (HandError, lambda: rules.score("123m", melds=["碰222m"])),
             (HandError, lambda: rules.score("123m", melds=["没有:222m"])),
             (HandError, lambda: rules.score("12x")), (HandError, lambda: rules.waits("1m" * 20)),
             (HandError, lambda: rules.score("123m", context={"人数": "x"})),
             (FileNotFoundError, lambda: paili.load("没有这个玩法"))]
    said = []
    for kind, call in calls:
        with pytest.raises(kind) as err:
            call()
        said.append(str(err.value))
    assert all("--" not in s and "\n" not in s for s in said), said
    assert said[0].startswith("'没有' is not a room option of this rule set")
    assert said[1] == said[6] == "人数 takes a number, not 'x'"
    assert said[2] == "meld '碰222m' must be written KIND:TILES, e.g. 碰:…"
    assert said[4] == "hand '12x': digits 12 have no suit letter"
    assert [r.error if hasattr(r, "error") else str(r) for r in rules.score_many([42])] == [
        "a hand to score is a dict of hand, melds, win, self_drawn and set, a string of tiles, or a tuple "
        "(hand, melds, win, self_drawn, context)"]
