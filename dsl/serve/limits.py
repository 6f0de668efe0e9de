"""The bounds of the service: what one request may send, and what the service keeps in memory. Each is
refused with one sentence (a 4xx answer); the hand and rule-file limits are the runtime's own."""
from __future__ import annotations

from ...runtime.game.log import MAX_LOG_BYTES
from ...runtime.limits import MAX_BATCH_LINE, MAX_RULE_FILE_BYTES

MAX_JSON_BODY = MAX_BATCH_LINE  # a JSON request (a hand, a move, a new game): the size of one batch line
MAX_CHECK_BODY = MAX_RULE_FILE_BYTES  # a rule file sent to be checked (E701's limit)
MAX_REPLAY_BODY = min(2_000_000, MAX_LOG_BYTES)  # a game log opened in the viewer
MAX_REPLAY_MOVES = 5_000  # moves of one log the viewer steps through (each step is a view of the table)

MAX_GAMES = 64  # games kept at once; the one unused longest is dropped for a new one
GAME_IDLE_SECONDS = 3600  # a game unused this long is dropped
