"""The application: the JSON API (api.py) and the pages (pages.py) behind the body limits (bodies.py),
with every refusal answered as `{"error": "<one sentence>"}` — a validation error, an unknown path, a
method an endpoint does not take, and (never expected) an internal error, which says so without a
traceback."""
from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .api import InternalError, Service
from .api import router as api_router
from .bodies import BodyLimits
from .games import GameStore
from .models import sentence
from .pages import router as pages_router
from .pages import static_files

DESCRIPTION = """The rule sets `paili serve` was started with, as a JSON API: score a hand, list its waits,
describe a rule set, check a rule file, play a game move by move, open a game log. Every refused request
answers a 4xx status with `{"error": "<one sentence>"}`. Bodies are bounded: 65,536 bytes for a JSON
request, 1,000,000 for a rule file, 2,000,000 for a log; hands within the runtime's limits
(docs/language.md, "Limits"). Money: every key carrying an amount (`amount`, `fee`, `deltas`, `fees`,
`balances`, `balance`, `score`, `total`, a fan's `value`) keeps its long-standing value and has a twin named
with the suffix `_exact` (`amount_exact`, `balances_exact`, …) whose every amount is an `ExactAmount`: a
string holding the exact amount in lowest terms (docs/engine.md, "Money in JSON"). Tiles are named by
their names, and beside every key that names tiles stand the codes the rule set's notation writes them
with: a move's `tiles` → `codes` (a move sent back may carry them; they must then be its tiles' codes), an
observation's `hand` → `hand_codes`, `drawn` → `drawn_code`, `discards` → `discards_codes`, `aside` →
`aside_codes`, a meld's `tiles` → `codes`, `reveals_codes`; a result's `tile` → `tile_code`; a score
trace's `codes`, `concealed_codes`, `win_tile_code` (docs/engine.md, "Tile codes in results")."""

# the twin keys' amounts, listed in the schema's components (the answers are plain objects, not models)
EXACT_AMOUNT = {
    "type": "string", "pattern": r"^-?[0-9]+(/[0-9]+)?$", "examples": ["-3", "0", "237/80"],
    "description": "an exact amount in lowest terms: an integer without a slash, else numerator/denominator; "
                   "the value of every `*_exact` key (amount_exact, fee_exact, deltas_exact, fees_exact, "
                   "balances_exact, balance_exact, score_exact, total_exact, value_exact)"}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(rules: list[str] | None = None, store: GameStore | None = None) -> FastAPI:
    """The service for `rules` (RULES arguments; default: every bundled rule file). A rule set that does
    not load is a UsageError (one sentence)."""
    from contextlib import asynccontextmanager

    from ... import __version__

    svc = Service(rules, store)

    @asynccontextmanager
    async def lifespan(app):
        yield
        svc.close()

    app = FastAPI(title="paili serve", version=__version__, description=DESCRIPTION, docs_url=None,
                  redoc_url=None, lifespan=lifespan)
    app.state.service = svc

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "the request cannot be served"
        if exc.status_code == 404 and message == "Not Found":
            message = f"there is no page or endpoint {request.url.path[:80]}"
        elif exc.status_code == 405:
            message = f"{request.url.path[:80]} does not take {request.method}"
        return _error(exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _error(422, sentence(list(exc.errors())))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception):
        name = str(exc) if isinstance(exc, InternalError) else type(exc).__name__
        return _error(500, f"internal error ({name[:60]}); please report it with the request")

    base_openapi = app.openapi

    def openapi() -> dict:
        spec = base_openapi()  # built once and kept by FastAPI; the component is added to that copy
        spec.setdefault("components", {}).setdefault("schemas", {}).setdefault("ExactAmount", EXACT_AMOUNT)
        return spec

    app.openapi = openapi
    app.include_router(api_router)
    app.include_router(pages_router)
    app.mount("/static", static_files(), name="static")
    app.add_middleware(BodyLimits)
    return app
