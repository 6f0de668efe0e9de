"""Types of the expression language, written as short strings: `bool`, `int`, `num`, `str`, `tile`,
`seat`, `suit`, `meldkind`, `form`, `meld`, `table`, `none`, `any`, `list[T]`, and `T?` (optional).

The compiler's checker (dsl/resolve.py) and the check of a loaded rule set (`runtime/ir/typecheck.py`)
infer the same types from these rules, so they live with the IR."""
from __future__ import annotations

NUMERIC = ("int", "num")

# Category -> the type a bare name of that category has.
CATEGORY_TYPES = {
    "tile": "tile", "suit": "suit", "meld": "meldkind", "form": "form", "pattern": "int", "unit": "num",
    "quantity": "num", "reveal": "tile?", "flowerclass": "str",
}
# Functions: (argument types, result type or a rule: same as the argument, numlike, num2 = int when both are).
FUNC_SIGS = {
    # name: (arg types, result type or a rule)
    "len": (("list|str",), "int"),
    "distinct": (("list",), "same"),
    "abs": (("num",), "numlike"),
    "floor": (("num",), "int"),
    "max": (("num", "num"), "num2"),
    "min": (("num", "num"), "num2"),
    "cn": (("int",), "str"),
    "visible_count": (("tile",), "int"),
    "next": (("seat",), "seat"),
    "after": (("seat", "int"), "seat"),  # the seat K places after S (K < 0: before)
    "held": (("seat", "tile"), "int"),
    "waits_without": (("seat", "tile"), "list[tile]"),
    "group_waits_without": (("seat", "tile"), "list[tile]"),
    # the best win a seat's concealed hand could make on a tile it waits on (self-drawn or not)
    "best_score": (("seat", "bool"), "num"),
    "best_fans": (("seat", "bool"), "list[str]"),
    "best_tile": (("seat", "bool"), "tile?"),
}


def base(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def is_list(t: str) -> bool:
    return base(t).startswith("list[")


def elem(t: str) -> str:
    b = base(t)
    return b[5:-1] if b.startswith("list[") else "any"


def is_num(t: str) -> bool:
    return base(t) in NUMERIC or t == "any"


def compatible(a: str, b: str) -> bool:
    """Whether values of types a and b may be compared for equality."""
    if "any" in (a, b) or a == "none" or b == "none":
        return True
    a, b = base(a), base(b)
    if a in NUMERIC and b in NUMERIC:
        return True
    names = ("str", "form", "meldkind", "suit")  # names of things are text at run time
    if a in names and b in names:
        return True
    if is_list(a) and is_list(b):
        return compatible(elem(a), elem(b))
    return a == b


def assignable(value: str, target: str) -> bool:
    """Whether a value of type `value` may be stored where `target` is expected."""
    if value == "any" or target == "any":
        return True
    if value == "none":
        return target.endswith("?") or target in ("tile", "seat", "suit", "tiles") or is_list(target)
    v, t = base(value), base(target)
    if t == "num" and v == "int":
        return True
    if t == "tiles":
        t = "list[tile]"
    if is_list(v) and is_list(t):
        return elem(v) == "any" or assignable(elem(v), elem(t))
    return v == t


# What a decision's value (an action's `choices`) may be: a number, a tile, several tiles, a suit, a seat.
CHOICE_TYPES = ("int", "num", "tile", "list[tile]", "suit", "seat")


def choice_problem(t: str) -> str:
    """Why a value of type t cannot be a decision's value ("" when it can): `none` never reaches a player."""
    if t == "any":
        return ""
    if t == "none" or t.endswith("?"):
        return f"may be none ({show(t)}): a decision's value must exist when it is offered"
    if t not in CHOICE_TYPES:
        return f"is {show(t)}"
    return ""


def list_choice_problem(t: str) -> str:
    """Why a value of type t cannot be a computed list of choices (`choices = EXPR`; "" when it can):
    a list whose items are values a decision can have, its type known when the rule set is checked."""
    if t == "any":
        return "cannot be typed: write it so that its items' type is known (a list, `filter(…)` of one)"
    if not is_list(t) or t.endswith("?"):
        return f"must be a list, not {show(t)}"
    item = elem(t)
    if item == "any":
        return "are a list whose items' type is not known (an empty list?)"
    problem = choice_problem(item)
    return f"are a list in which an item {problem}" if problem else ""


def choice_type(types) -> str:
    """The type of `choice` in an action whose choices have these types (numbers: `num` unless all whole)."""
    kinds = {base(t) for t in types if t != "any"}
    if not kinds:
        return "num"
    if kinds <= {"int", "num"}:
        return "int" if kinds == {"int"} else "num"
    return kinds.pop() if len(kinds) == 1 else "any"


def quantity_type(t: str) -> str:
    """The type of a quantity whose expression has type t: a named condition (`bool`), a whole number
    (`int`: a count, a sum of whole numbers) or a number."""
    if base(t) == "bool":
        return "bool"
    return "int" if t == "int" else "num"


def show(t: str) -> str:
    names = {"bool": "true/false", "int": "a whole number", "num": "a number", "str": "text",
             "tile": "a tile", "seat": "a player", "suit": "a suit", "meldkind": "a meld kind",
             "form": "a winning form", "meld": "a meld", "table": "the table", "none": "none", "any": "anything"}
    if t.endswith("?"):
        return show(t[:-1]) + " (or none)"
    if is_list(t):
        return "a list of " + show(elem(t)).removeprefix("a ").removeprefix("an ")
    return names.get(t, t)
