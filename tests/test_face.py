"""The public face, `import paili`: one import gives loading (by name, .pai or compiled JSON), compiling,
scoring and playing; the three ways to load a rule set agree."""
from __future__ import annotations

import paili
import pytest
from conftest import ROOT, RULES
from paili.runtime.ir.serialize import dumps

HAND = dict(hand="666m 88m 东东", melds=["碰:222m", "碰:444m"], win="8m")


def test_the_face_names_the_public_api():
    for name in ("load", "compile", "Rules", "ScoreResult", "Game", "Session", "IllegalMove", "ArgumentError", "Move",
                 "bundled"):
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


@pytest.mark.parametrize(("make", "said"), [
    (lambda r: paili.Game(r, seed="x"), "seed is a whole number, not text"),
    (lambda r: paili.Game(r, seed=1.5), "seed is a whole number, not 1.5"),
    (lambda r: paili.Game(r, seed=True), "seed is a whole number, not true or false"),
    (lambda r: paili.Game(r, [1]), "room options are given by name (a dict), not as a list"),
    (lambda r: paili.Game(r, dealer="0"), "dealer is a whole number, not text"),
    (lambda r: paili.Game(r, dealer=2), "dealer 2 is not a seat of this game (seats 0 to 1)"),
    (lambda r: paili.Game(r, dealer=-1), "dealer is at least 0, not -1"),
    (lambda r: paili.Game(r, balances=5), "balances are a list of numbers, one per seat, not a number"),
    (lambda r: paili.Game(r, balances=["a", 1]), "balances are a list of numbers, one per seat; one is text"),
    (lambda r: paili.Game(r, balances=[1, 2, 3]), "balances are one per seat: 3 given for 2 players"),
    (lambda r: paili.Game(r, table=3), "table is a dict of the table states carried into the hand, not a number"),
    (lambda r: paili.Game(r, players=3),
     "players is a list of dicts, one per seat: the player states carried into the hand"),
    (lambda r: paili.Game(r, wall=5),
     "wall is tiles in the variant's notation (text or a list of texts), not a number"),
    (lambda r: paili.Game(r, check="no"), "check is True or False, not text"),
    (lambda r: paili.Game(r, require_decision=1), "require_decision is True or False, not a number"),
    (lambda r: paili.Game(42), "rules is a rule set (paili.load), a bundled variant's name or a rule file's path, "
                               "not a number"),
    (lambda r: paili.Session(r, seed="x"), "seed is a whole number, not text"),
    (lambda r: paili.Session(r, hands=0), "hands is at least 1, not 0"),
    (lambda r: paili.Session(r, hands="2"), "hands is a whole number, not text"),
    (lambda r: paili.Session(r, options=3), "room options are given by name (a dict), not as a number"),
])
def test_a_wrong_argument_of_game_or_session_is_refused_in_one_sentence(make, said):
    """`Game(rules, seed='x')` seeded the shuffle from the text, `balances=['a', 1]` failed at the first
    payment, `dealer=5` raised IndexError: each argument is checked first, refused with ArgumentError (a
    GameError, as the CLI catches, and a ValueError, as IllegalMove is)."""
    rules = paili.load("baijindao")  # two players
    with pytest.raises(paili.ArgumentError) as err:
        make(rules)
    assert str(err.value) == said
    assert isinstance(err.value, paili.GameError) and isinstance(err.value, ValueError)


def test_the_arguments_a_session_carries_into_its_hands_are_taken():
    """What a session hands to each hand's Game (balances as exact fractions, the dealer, the carried
    states) passes the checks: a session of several hands plays through."""
    from fractions import Fraction

    from paili.runtime.game.bots import BOTS

    session = paili.Session(paili.load("baijindao"), seed=5, hands=2, balances=[Fraction(1, 2), 1000])
    results = session.play([BOTS["random"](1), BOTS["random"](2)])
    assert len(results) == 2 and session.balances is not None and len(session.balances) == 2
