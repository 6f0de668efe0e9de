"""The JSON API's handlers. Each answers one JSON object; a request that cannot be served is refused with
its status and `{"error": "<one sentence>"}` (app.py turns every refusal, validation error and unknown
path into that form).

All engine work — loading the rule sets, scoring, games, pages — runs on one worker thread of the
service (`Service.call`), one request at a time: one thread keeps the rule sets' caches (not guarded by
locks) free of races."""
from __future__ import annotations

import asyncio
import gc
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import HTTPException

from ...runtime.game import Game, GameError, IllegalMove
from ...runtime.game.log import ReplayError
from ...runtime.game.moves import Move, MoveError
from ...runtime.hand import HandError
from .games import GameStore
from .library import Library, Served, load_library
from .limits import MAX_CHECK_BODY, MAX_REPLAY_BODY
from .models import Error, HandRequest, MoveRequest, NewGame, ScoreRequest

LONG_JOB = 0.2  # seconds


class Service:
    """What the handlers share: the worker thread, the rule sets served (loaded on it), the games kept."""

    # The cyclic garbage a job leaves is collected on the worker right after it, so its memory is given back
    # at once rather than whenever a collection happens to run on the event loop's thread. After a short job
    # the youngest generations (what it made), after a long one everything (a collection takes a small
    # fraction of such a job); `paili serve` itself, which owns its process, turns the automatic collection
    # off and collects everything after every job (its loaded rule sets frozen out of it, so that is cheap).
    collect_generation = 1

    def __init__(self, rules: list[str] | None = None, store: GameStore | None = None):
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paili-serve")
        self.library: Library = self.worker.submit(self._load, rules).result()
        self.store = store or GameStore()
        self.pages: dict[str, str] | None = None  # rendered on first use (pages.py)

    @staticmethod
    def _load(rules):
        library = load_library(rules)
        gc.collect()  # what compiling the rule files left (a long job: not only the young generations)
        return library

    async def call(self, fn):
        """`fn()` on the worker thread. A refusal comes back as a new exception carrying only its status and
        sentence, an unexpected error as its type's name (its traceback printed by the worker): an
        exception's traceback holds the worker's frames, whose native objects must not be freed here."""
        def guarded():
            started = time.monotonic()
            try:
                return fn(), None
            except HTTPException as exc:
                return None, (exc.status_code, str(exc.detail))
            except Exception as exc:  # never expected: reported by app.py as a 500 with its type's name
                import traceback

                traceback.print_exc()
                return None, (500, type(exc).__name__)
            finally:
                gc.collect(2 if time.monotonic() - started > LONG_JOB else self.collect_generation)

        result, refused = await asyncio.wrap_future(self.worker.submit(guarded))
        if refused is None:
            return result
        if refused[0] == 500:
            raise InternalError(refused[1])
        raise refuse(*refused)

    def close(self) -> None:
        """Drop the rule sets and games on the thread that made them, then stop the worker."""

        def drop():
            self.library.items.clear()
            self.store.games.clear()
            self.pages = None

        self.worker.submit(drop).result()
        self.worker.shutdown()


class InternalError(Exception):
    """An unexpected error on the worker thread (the name of its type)."""


def refuse(status: int, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


REFUSED = {400: {"model": Error, "description": "the body is not JSON (or not UTF-8 text)"},
           404: {"model": Error, "description": "no such variant or game"},
           413: {"model": Error, "description": "the body is larger than the endpoint takes"},
           422: {"model": Error, "description": "the request is valid JSON but not a valid request for this "
                 "rule set (a value of the wrong type, an unknown key, a bad hand or option, …)"}}
MOVE_REFUSED = {**REFUSED, 409: {"model": Error, "description": "the move is not legal now"}}

router = APIRouter(prefix="/api", responses=REFUSED)


def service(request: Request) -> Service:
    return request.app.state.service


def variant_of(request: Request, name: str) -> Served:
    svc = service(request)
    served = svc.library.get(name)
    if served is None:
        raise refuse(404, f"no variant {name[:40]!r} is served (served: {svc.library.names()})")
    return served


@router.get("/variants", summary="The variants served")
async def variants(request: Request) -> dict:
    """Each variant's id (the name every other endpoint takes), its title, and its player's page."""
    return {"variants": [s.summary() for s in service(request).library.items.values()]}


@router.get("/variants/{variant}", summary="Describe a rule set")
async def describe(request: Request, variant: str) -> dict:
    """What `paili describe --json` prints — room options and context values (the names `set` takes,
    their types and defaults), the patterns — with the meld kinds a hand can lay down and the tile
    kinds with the notation that writes each."""
    served = variant_of(request, variant)
    return await service(request).call(served.describe)


@router.get("/variants/{variant}/tiles", summary="The tile set, with its drawn faces")
async def tiles(request: Request, variant: str) -> dict:
    """Each tile kind in play (name, notation, category, copies, `face`: the id of its SVG symbol) and
    `sprite`, the SVG symbols themselves, as the help pages draw them."""
    served = variant_of(request, variant)
    return await service(request).call(served.tileset)


@router.post("/variants/{variant}/score", summary="Score a hand")
async def score(request: Request, variant: str, body: ScoreRequest) -> dict:
    """The hand's best score, the object `paili score --json` prints: `win`, `fans`, `total`, `score`,
    `quantities`, `trace` (the reading). A hand that does not win answers `win: false` with its `reason`."""
    served = variant_of(request, variant)

    def run():
        try:
            return served.rules.score(body.hand, body.melds, body.win, body.self_drawn, dict(body.set)).to_json()
        except (HandError, ValueError) as exc:
            raise refuse(422, str(exc)) from None

    return await service(request).call(run)


@router.post("/variants/{variant}/waits", summary="The tiles a hand waits on")
async def waits(request: Request, variant: str, body: HandRequest) -> dict:
    """`waits`: every tile whose draw (or claim) wins — its name, its `code` in the notation — each with its
    best score (as `paili waits --json`)."""
    served = variant_of(request, variant)

    def run():
        try:
            got = served.rules.waits(body.hand, body.melds, body.self_drawn, dict(body.set))
        except (HandError, ValueError) as exc:
            raise refuse(422, str(exc)) from None
        return {"waits": [{"tile": k.name, "code": k.code or k.char, **res.to_json()} for k, res in got]}

    return await service(request).call(run)


@router.post("/check", summary="Check a rule file",
             openapi_extra={"requestBody": {"required": True, "description": "the rule file's text (UTF-8)",
                                            "content": {"text/plain": {"schema": {"type": "string",
                                                                                  "maxLength": MAX_CHECK_BODY}}}}})
async def check(request: Request, examples: Annotated[bool, Query(description="score the file's worked "
                                                                   "examples too (as `paili check`)")] = True
                ) -> dict:
    """Every diagnostic of the rule file sent as the body: code, severity, message, position (line and
    column, 1-based), hint, and `text`, the diagnostic rendered with its source line and a caret. `ok` is
    true when there is no error (warnings may remain)."""
    raw = await request.body()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise refuse(400, f"the rule file is not UTF-8 text (byte {exc.start + 1})") from None

    def run():
        from ..compiler import compile_text

        res = compile_text(text, "<request>", examples)
        lines = text.splitlines()
        diags = [{"code": d.code, "severity": "error" if d.is_error else "warning", "message": d.message,
                  "line": d.span.line, "col": d.span.col, "end_line": d.span.end_line, "end_col": d.span.end_col,
                  "hint": d.hint, "text": d.render(lines)} for d in res.diagnostics]
        return {"ok": res.ok, "errors": sum(d["severity"] == "error" for d in diags),
                "warnings": sum(d["severity"] == "warning" for d in diags), "diagnostics": diags}

    return await service(request).call(run)


@router.post("/games", status_code=201, summary="Start a game")
async def new_game(request: Request, body: NewGame) -> dict:
    """A new hand of `variant` with the room `options` and `seed`; answers its `id` (kept in memory, dropped
    after an hour unused) and who is to act."""
    served = variant_of(request, body.variant)
    svc = service(request)

    def run():
        try:
            game = Game(served.rules, dict(body.options), body.seed, require_decision=False)
        except (GameError, HandError, ValueError) as exc:
            raise refuse(422, str(exc)) from None
        gid = svc.store.add(game, served.id)
        return {"id": gid, "variant": served.id, **_status(game)}

    return await service(request).call(run)


def _status(game: Game) -> dict:
    obs = game.observation(0)
    return {"players": obs["players"], "decision": obs["decision"], "to_act": game.current_seats(),
            "over": game.is_over(), "result": _plain(game.result()) if game.is_over() else None}


def _plain(v):
    return json.loads(json.dumps(v, ensure_ascii=False))


def _kept(request: Request, gid: str):
    """The game of an id (on the worker thread: the store drops expired games as it looks)."""
    kept = service(request).store.get(gid)
    if kept is None:
        raise refuse(404, f"no game {gid[:40]!r} (it never existed, or was dropped after an hour unused)")
    return kept


@router.get("/games/{game_id}", summary="What one seat sees")
async def observe(request: Request, game_id: str,
            seat: Annotated[int, Query(ge=0, lt=256, description="the seat whose view is asked")] = 0) -> dict:
    """`Game.observation(seat)`: that seat's tiles, what it sees of the others, the wall, who is to act,
    the result once the hand is over; with `moves`, the seat's legal moves as JSON objects (send one back
    to POST /api/games/{id}/moves)."""
    def run():
        kept = _kept(request, game_id)
        try:
            obs = kept.game.observation(seat)
            obs["moves"] = [m.to_json(kept.game.tile_code) for m in kept.game.legal_moves(seat)]
        except IllegalMove as exc:
            raise refuse(422, str(exc)) from None
        return {"id": game_id, "variant": kept.variant, **_plain(obs)}

    return await service(request).call(run)


@router.get("/games/{game_id}/onlooker", summary="What an onlooker sees")
async def onlooker(request: Request, game_id: str) -> dict:
    """`Game.onlooker_observation()`: the table as someone not seated sees it — each seat's concealed tiles
    as a count (`hand_size`) unless the rules' `observe` declarations show them to an onlooker, the melds
    as shown, the discards, the wall, who is to act, the result once the hand is over. The replay viewer's
    frames are this view."""
    def run():
        kept = _kept(request, game_id)
        return {"id": game_id, "variant": kept.variant, **_plain(kept.game.onlooker_observation())}

    return await service(request).call(run)


@router.post("/games/{game_id}/moves", summary="Play a move", responses=MOVE_REFUSED)
async def play(request: Request, game_id: str, body: MoveRequest) -> dict:
    """Apply `seat`'s `move` (one of its legal moves); answers who is to act next, and the result once the
    hand is over. A move that is not legal now (or answers a decision that is over) is refused with 409."""
    def run():
        kept = _kept(request, game_id)
        try:
            move = Move.from_json({k: v for k, v in body.move.model_dump().items() if v is not None},
                                  kept.game.tile_code)
            kept.game.apply(body.seat, move)
        except MoveError as exc:
            raise refuse(422, str(exc)) from None
        except IllegalMove as exc:
            raise refuse(409, str(exc)) from None
        return {"id": game_id, **_status(kept.game)}

    return await service(request).call(run)


@router.delete("/games/{game_id}", summary="Drop a game")
async def drop(request: Request, game_id: str) -> dict:
    def run():
        if not service(request).store.drop(game_id):
            raise refuse(404, f"no game {game_id[:40]!r}")
        return {"dropped": game_id}

    return await service(request).call(run)


@router.post("/replays", summary="Open a game log",
             openapi_extra={"requestBody": {"required": True, "description": "the JSON lines `paili simulate "
                                            "--log` writes (UTF-8)", "content": {"application/x-ndjson": {
                                                "schema": {"type": "string", "maxLength": MAX_REPLAY_BODY}}}}})
async def open_replay(request: Request, rules: Annotated[str | None, Query(
        max_length=200, description="the served variant to replay with (default: the one the log's "
        "session line names; a rule file a log names is never loaded)")] = None) -> dict:
    """The log checked as `paili replay` checks it (every move legal, each hand's result as logged; a
    refusal names the line), then each hand as steps: the deal, then one per move, each with the table as
    an onlooker sees it, and the hand's result (payments, balances)."""
    from .replay import frames, read_lines, rules_ref

    raw = await request.body()
    svc = service(request)

    def run():
        try:
            entries = read_lines(raw)
            served = svc.library.get(rules) if rules else _named(svc.library, *rules_ref(entries))
            if served is None:
                shown = f"{rules[:40]!r}" if rules else "the variant the log names"
                raise refuse(422, f"{shown} is not served (served: {svc.library.names()}); give ?rules=")
            return {"rules": served.id, **frames(entries, served.rules)}
        except ReplayError as exc:
            raise refuse(422, str(exc)) from None

    return await service(request).call(run)


def _named(library: Library, ref: str, variant: str) -> Served | None:
    """The served rule set a log names: by the stem of its rule file (the path is never opened), else
    by its variant's id."""
    from pathlib import PurePosixPath, PureWindowsPath

    stem = PureWindowsPath(PurePosixPath(ref).name).stem if ref else ""
    got = library.get(stem)
    if got is None:
        got = next((s for s in library.items.values() if s.rules.ir.variant.id == variant), None)
    return got
