"""Request bodies, bounded before any handler runs: an ASGI middleware that reads at most the limit of the
endpoint (413 past it, told by Content-Length or counted while reading) and, for the JSON endpoints, parses
the body strictly (UTF-8; no NaN or Infinity, which JSON does not have; numbers of at most
MAX_NUMBER_DIGITS digits; bounded nesting), answering 400 with one sentence when it is not JSON. The body
is then handed on unchanged, and the handler's own validation (models.py) sees only well-formed JSON."""
from __future__ import annotations

import json

from ...runtime.limits import MAX_NUMBER_DIGITS
from .limits import MAX_CHECK_BODY, MAX_JSON_BODY, MAX_REPLAY_BODY

# Endpoints whose body is text, not JSON: a rule file, a game log (JSON lines, checked line by line later)
TEXT_BODIES = {"/api/check": MAX_CHECK_BODY, "/api/replays": MAX_REPLAY_BODY}


class BodyError(ValueError):
    """A request body that is not acceptable (its status and one sentence)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def error_body(message: str) -> bytes:
    return json.dumps({"error": message}, ensure_ascii=False).encode("utf-8")


def body_limit(path: str) -> int:
    return TEXT_BODIES.get(path.rstrip("/"), MAX_JSON_BODY)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(digits)


def _bounded_float(text: str) -> float:
    if sum(c.isdigit() for c in text) > MAX_NUMBER_DIGITS + 8:
        raise ValueError(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return float(text)


def check_json(raw: bytes) -> None:
    """BodyError (400) unless `raw` is one strict JSON value (an empty body is left to the handler)."""
    if not raw.strip():
        return
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(400, f"the request body is not UTF-8 text (byte {exc.start + 1})") from None
    try:
        json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_bounded_float)
    except json.JSONDecodeError as exc:
        raise BodyError(400, f"the request body is not JSON ({exc.msg} at line {exc.lineno} column "
                             f"{exc.colno})") from None
    except RecursionError:
        raise BodyError(400, "the request body is JSON nested too deeply") from None
    except ValueError as exc:
        raise BodyError(400, f"the request body is not acceptable JSON: {exc}") from None


class BodyLimits:
    """ASGI middleware: every POST/PUT/PATCH body within its endpoint's limit, JSON bodies well-formed."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        limit = body_limit(path)
        try:
            raw = await self._read(scope, receive, limit)
            if path.startswith("/api/") and path.rstrip("/") not in TEXT_BODIES:
                check_json(raw)
        except BodyError as exc:
            await self._refuse(send, exc.status, str(exc))
            return
        done = False

        async def replay():
            nonlocal done
            if done:
                return await receive()  # a disconnect, if the client goes away
            done = True
            return {"type": "http.request", "body": raw, "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _read(scope, receive, limit: int) -> bytes:
        too_big = BodyError(413, f"the request body is larger than the {limit:,} bytes this endpoint takes")
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                if not value.strip().isdigit():
                    raise BodyError(400, "the Content-Length header is not a number")
                if int(value) > limit:
                    raise too_big
        chunks, size = [], 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                break
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_big
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        return b"".join(chunks)

    @staticmethod
    async def _refuse(send, status: int, message: str) -> None:
        body = error_body(message)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
