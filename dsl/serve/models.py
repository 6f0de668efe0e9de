"""What each JSON request may hold, checked before any work: every key known (an unknown key is refused,
never ignored), every value of its type (no coercion: `"1"` is not a number, `1` not a boolean), every
text and list within the runtime's limits on hands. `sentence` turns the first problem into the one
sentence the answer carries."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ...runtime.limits import MAX_MELDS, MAX_TABLE_SIZE, MAX_TILE_TEXT

# a room option or context value, as `score --batch` takes it: text, a whole or decimal number, a boolean
Value = StrictBool | StrictInt | float | StrictStr
Values = Annotated[dict[Annotated[str, Field(max_length=200)], Value], Field(max_length=64)]
TileText = Annotated[StrictStr, Field(max_length=MAX_TILE_TEXT)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class HandRequest(Strict):
    """A hand as `paili waits` takes it."""

    hand: TileText = Field("", description="the concealed tiles in the rule set's notation (without the "
                           "winning tile); flowers written here are set aside")
    melds: Annotated[list[Annotated[StrictStr, Field(max_length=MAX_TILE_TEXT)]], Field(max_length=MAX_MELDS)] = \
        Field(default_factory=list, description='laid-down melds, each "KIND:TILES"')
    self_drawn: StrictBool = Field(False, description="the winning tile was drawn by the winner")
    set: Values = Field(default_factory=dict, description="room options and context values by the rule "
                        "set's names (GET /api/variants/{variant} lists them)")


class ScoreRequest(HandRequest):
    """A hand as `paili score` (and a `--batch` line) takes it."""

    win: TileText | None = Field(None, description="the winning tile (null: the hand wins as it stands)")


class NewGame(Strict):
    variant: Annotated[StrictStr, Field(max_length=200)] = Field(description="a served variant's id")
    options: Values = Field(default_factory=dict, description="room options by name")
    seed: Annotated[StrictInt, Field(ge=0, lt=2 ** 63)] = Field(0, description="decides the shuffle and "
                                                                "every random draw")


class MoveBody(Strict):
    """A move as `legal_moves` offers it (GET /api/games/{id}?seat=N lists them)."""

    action: Annotated[StrictStr, Field(max_length=200)]
    tiles: Annotated[list[Annotated[StrictStr, Field(max_length=40)]], Field(max_length=64)] = \
        Field(default_factory=list)
    codes: Annotated[list[Annotated[StrictStr, Field(max_length=40)]], Field(max_length=64)] | None = \
        Field(None, description="the codes of `tiles` in the rule set's notation, as the listed moves carry "
              "them (optional; when given they must be exactly the codes of `tiles`)")
    choice: StrictInt | StrictStr | None = None
    meld: Annotated[StrictStr, Field(max_length=200)] | None = None
    decision: StrictInt | None = Field(None, description="the decision the move answers (refused when stale)")


class MoveRequest(Strict):
    seat: Annotated[StrictInt, Field(ge=0, lt=MAX_TABLE_SIZE)]
    move: MoveBody


class Error(BaseModel):
    """Every refused request: its status and this object, one sentence."""

    error: str


# the tags pydantic adds to a location for each member of a union, and how a sentence names each
_MEMBERS = {"bool": "true or false", "int": "a whole number", "float": "a number", "str": "text",
            "none": "null", "MoveBody": "a move object"}


def _where(loc: tuple) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path") and str(p) not in _MEMBERS]
    out = ""
    for p in parts:
        out += f"[{p}]" if p.isdigit() else (f".{p}" if out else p)
    return out[:80]


def sentence(errors: list[dict[str, Any]]) -> str:
    """The first validation problem as one sentence naming the key it is about."""
    if not errors:
        return "the request is not valid"
    e = errors[0]
    tags = [str(x) for x in e.get("loc", ()) if str(x) in _MEMBERS]
    if tags:  # a value that is none of a union's members: name them all
        where = _where(tuple(e.get("loc", ())))
        kinds = []
        for x in errors:
            if _where(tuple(x.get("loc", ()))) == where:
                kinds += [_MEMBERS[str(t)] for t in x.get("loc", ()) if str(t) in _MEMBERS]
        kinds = list(dict.fromkeys(kinds))
        said = ", ".join(kinds[:-1]) + f" or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
        return f"`{where}` must be {said}"
    where, kind, msg = _where(tuple(e.get("loc", ()))), e.get("type", ""), str(e.get("msg", ""))
    if kind == "missing":
        return f"the request needs `{where}`" if where else "the request needs a JSON body"
    if kind == "extra_forbidden":
        key = where.rsplit(".", 1)[-1]
        return f"unknown key `{key}`" + (f" in `{where.rsplit('.', 1)[0]}`" if "." in where else "")
    if kind in ("model_type", "model_attributes_type", "dict_type") and not where:
        return "the request body must be a JSON object"
    if kind == "json_invalid":
        return "the request body is not JSON"
    msg = msg[0].lower() + msg[1:] if msg else "is not valid"
    return f"`{where}`: {msg}" if where else msg
