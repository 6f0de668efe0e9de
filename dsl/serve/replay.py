"""A game log opened in the viewer: its text read line by line as `paili replay` reads a file (UTF-8, one
JSON value per line, no NaN or Infinity), checked in full by the engine's own `replay` (every line's
shape, every move legal, each hand's result as logged), then played again to give one view per move.

A view shows the table as an onlooker may see it — the engine's `Game.onlooker_observation()`: each
seat's concealed tiles as a count unless an `observe` rule shows them to someone not seated — with the
wall, the seats to act, and at a hand's end its result (the payments)."""
from __future__ import annotations

import json

from ...runtime.game.log import ReplayError, parse_numbered, replay
from ...runtime.game.moves import Move
from ...runtime.game.session import Session
from .limits import MAX_REPLAY_MOVES


def read_lines(raw: bytes) -> list[tuple[int, object]]:
    """(line number, JSON value) of each non-blank line; ReplayError naming the line otherwise."""
    out = parse_numbered(raw)
    if not out:
        raise ReplayError("the log is empty")
    moves = sum(1 for _, e in out if isinstance(e, dict) and e.get("type") == "move")
    if moves > MAX_REPLAY_MOVES:
        raise ReplayError(f"the log has {moves:,} moves; the viewer opens logs of at most {MAX_REPLAY_MOVES:,}")
    return out


def rules_ref(entries: list[tuple[int, object]]) -> tuple[str, str]:
    """The rule file and variant the first line names (text, or "" when it is not a session line)."""
    head = entries[0][1] if entries else None
    if not isinstance(head, dict):
        return "", ""
    ref, variant = head.get("rules"), head.get("variant")
    return (ref if isinstance(ref, str) else "")[:300], (variant if isinstance(variant, str) else "")[:300]


def onlooker(game) -> dict:
    """The table as an onlooker sees it now (the engine's view; the viewer adds nothing to it)."""
    v = game.onlooker_observation()
    return {k: v[k] for k in ("seats", "dealer", "turn", "wall_left", "reveals", "task", "chance", "to_act",
                              "over")}


def frames(entries: list[tuple[int, object]], rules) -> dict:
    """The log's hands, each a list of steps (the deal, then one per move) and its result; ReplayError
    (one sentence naming the line) when the log does not replay as it records."""
    logs = [e for _, e in entries]
    replay(logs, rules, numbers=[n for n, _ in entries])  # the whole log first: every check of `paili replay`
    head = logs[0]
    session = Session(rules, head["options"], head["seed"], head["hands"])
    hands = []
    game = None
    steps: list[dict] = []
    for e in logs[1:]:
        if e["type"] == "hand":
            game = session.new_hand()
            steps = [{"seat": None, "move": None, "view": onlooker(game)}]
        elif e["type"] == "move":
            move = Move.from_json(e["move"], game.tile_code)
            game.apply(e["seat"], move)
            shown = {k: v for k, v in move.to_json(game.tile_code).items() if k != "decision"}
            steps.append({"seat": e["seat"], "move": shown, "text": str(move), "view": onlooker(game)})
        elif e["type"] == "result":  # a `chance` line: its roll is already in the views (`chance`)
            result = json.loads(json.dumps(game.result(), ensure_ascii=False))
            hands.append({"hand": e["hand"], "seed": game.seed, "dealer": result["dealer"], "steps": steps,
                          "result": result})
            session.finish(game)
            game = None
    return {"variant": rules.ir.variant.id, "title": rules.ir.variant.title, "players": session_players(hands),
            "exhaust_word": rules.ir.table.exhaust_word,
            "options": head["options"], "seed": head["seed"], "hands": hands}


def session_players(hands: list[dict]) -> int:
    return len(hands[0]["steps"][0]["view"]["seats"]) if hands else 0
