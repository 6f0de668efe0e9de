"""One way of describing a client's value in a short sentence (runtime/ir/describe.py): the JSON validator
and the move checks name a value's kind in the same words, and never write out a huge value."""
from fractions import Fraction

import pytest
from paili.runtime.game.moves import Move, MoveError, check_move
from paili.runtime.ir.describe import kind, short
from paili.runtime.ir.jsonvalidate import SchemaError, Validator


@pytest.mark.parametrize("value, word", [
    (None, "null"), (True, "true or false"), (3, "a whole number"), (3.5, "a decimal number"),
    (Fraction(1, 2), "a fraction"), ("x", "text"), ([1], "a list"), ({}, "an object"), ((1,), "a tuple"),
])
def test_kinds(value, word):
    assert kind(value) == word


def test_short_cuts_long_values_and_never_writes_a_huge_number():
    assert short("ab") == "'ab'"
    assert len(short("x" * 1000)) <= 40 and short("x" * 1000).endswith("…")
    assert short(10 ** 5000) == "a very large number"  # repr() of it would raise past 4,300 digits
    assert short(True) == "True"


@pytest.mark.parametrize("value, word", [(7, "a whole number"), (7.5, "a decimal number"), ([], "a list")])
def test_the_validator_and_the_moves_say_it_the_same_way(value, word):
    schema = {"type": "object", "properties": {"action": {"type": "string"}}}
    with pytest.raises(SchemaError, match=f"action: expected text, got {word}$"):
        Validator(schema).validate({"action": value})
    with pytest.raises(MoveError, match=f"^a move's action is text, not {word}$"):
        Move.from_json({"action": value})
    assert check_move(Move(value, ())) == f"a move's action is text, not {word}"


def test_a_float_decision_is_named_as_a_decimal_number():
    with pytest.raises(MoveError, match="^a move's decision is a whole number, not a decimal number$"):
        Move.from_json({"action": "pass", "decision": 2.0})
