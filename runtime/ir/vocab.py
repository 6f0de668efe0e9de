"""Closed vocabularies of the language: the words a field may take, the events the engine raises,
and the built-in names of each expression scope. One table, so the checker, the docs and the runtime
agree on them."""
from __future__ import annotations

SETTING_TYPES = ("bool", "int", "num", "tile", "seat", "suit")
STATE_TYPES = ("bool", "int", "num", "tile", "seat", "suit", "tiles")
# Types whose value may be `none` (their default when the declaration gives none).
OPTIONAL_TYPES = ("tile", "seat", "suit")
SHAPE_KINDS = ("run", "same", "ranks", "tiles", "same_rank")
UNIT_COMBINE = ("sum", "product", "max")
COMBINE_RULES = ("forest",)
FIRST_DEALER = ("random", "owner")
WALL_ENDS = ("tail", "head")
WILD_SCOPES = ("hand", "win_tile")
SCOPES = ("player", "table")
# How long a state keeps its value: one hand (reset to its initial value when a hand starts; the default)
# or the whole session (carried from each hand into the next).
LIFETIMES = ("hand", "session")

# Events the game engine raises; actions open on them, hooks and phases react to them.
EVENTS = (
    "deal",        # the deal (and reveals, flower replacement) is complete
    "opening",     # the opening checks before the dealer's first discard
    "turn",        # a player's own turn, before discarding
    "draw",        # a player drew a tile (from the wall or as a replacement)
    "reveal",      # a card turned from the stock and offered to the table
    "discard",     # a tile was discarded
    "claim",       # a claim was applied
    "decline",     # a player declined an action offered to them
    "kong",        # a kong was made
    "added_kong",  # a tile was added to a meld laid down: a pung's fourth, a growing kind's next (may be robbed)
    "win_offer",   # a player could win now (decisions offered instead of winning)
    "ready",       # a player declared ready
    "win",         # a hand was won
    "exhaust",     # the wall ran out (an exhaustive draw)
    "hand_end",    # the hand is over (won or drawn), before settlement
    "settled",     # after the hand's payments
    "phase_enter", "phase_leave",
)
WHO = ("self", "others", "next", "previous", "any", "winner", "loser", "dealer", "non_dealer")
THEN = ("discard", "replace", "none", "next_turn", "draw", "auto")
# for a kind that grows: form it anew, extend one already laid down, or either
GROW = ("any", "new", "extend")
WIN_TILE = ("drawn", "claimed", "last_dealt", "best_wait", "none")
ORDER = ("seat", "robbed", "discarder", "actor", "dealer")
ROTATION = ("counter_clockwise", "clockwise")
OBSERVE_WHAT = ("hand", "drawn", "melds", "kong_tiles")
CAP_OF = ("payer", "payee")
REVEAL_AT = ("deal", "win")
# Engine primitives that restrictions and priorities may name besides the declared actions.
BUILTIN_ACTIONS = ("discard", "draw", "pass")
PAYERS = ("each_loser", "discarder", "each_other", "each", "robbed", "winner", "actor", "dealer", "each_in_play")
PAYEES = ("winner", "each", "each_other", "actor", "dealer", "each_in_play")
EFFECT_OPS = ("set", "add", "remove", "clear", "emit", "roll", "give")
EXPECT_KEYS = ("score", "total", "win", "fans", "reason")

# Built-in names of the reading scope (patterns, requirements, quantities, score) and their types.
READING_BUILTINS: dict[str, str] = {
    "melds": "list[meld]", "groups": "list[meld]", "pairs": "list[meld]", "pair": "meld?",
    "runs": "list[meld]", "triplets": "list[meld]", "kongs": "list[meld]", "exposed": "list[meld]",
    "tiles": "list[tile]", "hand": "list[tile]", "win_tile": "tile?", "self_drawn": "bool",
    "waits": "list[tile]", "form": "form", "suits": "list[str]", "win_group": "meld?", "menqing": "bool",
    "flowers": "list[tile]", "shape_waits": "list[tile]",
}
# Built-in names of the game scope (actions, hooks, phases, payments, dealer rules).
GAME_BUILTINS: dict[str, str] = {
    "actor": "seat", "tile": "tile?", "dealer": "seat", "winner": "seat?", "winners": "list[seat]",
    "discarder": "seat?",
    "payer": "seat", "payee": "seat", "won": "bool", "last_drawer": "seat?", "wall_left": "int",
    "turn": "int", "round": "int", "players": "int", "table": "table", "choice": "num", "robbed": "seat?",
    "score": "num", "self_drawn": "bool", "task_factor": "num", "viewer": "seat", "owner": "seat",
    # under `table winners_leave`: the players still in the hand; the winners of the hand's first win
    "in_play": "list[seat]", "first_winners": "list[seat]",
}
TILE_FIELDS: dict[str, str] = {
    "kind": "str", "suit": "str?", "rank": "int", "honor": "bool", "flower": "bool", "joker": "bool",
    "wild": "bool", "name": "str",
}
MELD_FIELDS: dict[str, str] = {
    "kind": "str", "size": "int", "tiles": "list[tile]", "tile": "tile", "suit": "str?", "rank": "int",
    "start": "int", "end": "int", "run": "bool", "triplet": "bool", "kong": "bool", "pair": "bool",
    "exposed": "bool", "concealed": "bool", "value": "num", "wilds": "int", "has_win": "bool",
}
# Functions of the game scope: they read the game (the rest are pure).
GAME_FUNCTIONS = ("visible_count", "next", "after", "held", "waits_without", "group_waits_without", "best_score",
                  "best_fans", "best_tile")
FUNCTIONS = ("len", "distinct", "abs", "floor", "max", "min", "cn", *GAME_FUNCTIONS)

# The fields every seat has (a rule set's `state player …` adds its own).
SEAT_BUILTIN_FIELDS = {"hand": "list[tile]", "melds": "list[meld]", "concealed": "bool", "dealer": "bool",
                       "wilds": "int", "balance": "num", "discards": "list[tile]", "ready": "bool",
                       "seat": "int", "waits": "list[tile]", "group_waits": "list[tile]", "in_play": "bool"}
