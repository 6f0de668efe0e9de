"""`paili serve [--host 127.0.0.1] [--port 8000] [RULES…]`: the service on uvicorn (FastAPI and uvicorn are
the optional extra `serve`; without them the command says how to install them)."""
from __future__ import annotations

import sys


def cmd_serve(args) -> int:
    from ..cli_args import UsageError

    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError:
        raise UsageError('paili serve needs FastAPI and uvicorn: pip install "paili[serve]"') from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, not {args.port}")
    import gc

    from .app import create_app

    app = create_app(args.rules)
    # Every collection on the worker thread (api.Service): the rule sets loaded are kept out of it for good
    # (frozen), so a full collection after each request is cheap.
    gc.freeze()
    gc.disable()
    app.state.service.collect_generation = 2
    served = ", ".join(app.state.service.library.items)
    print(f"paili serve: {served} at http://{args.host}:{args.port}/ (the API: /openapi.json)", file=sys.stderr,
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_command(sub) -> None:
    c = sub.add_parser("serve", help="serve the pages, a calculator, a replay viewer and a JSON API over HTTP")
    c.add_argument("rules", nargs="*", metavar="RULES",
                   help="rule files, compiled .json rule sets or bundled variants' names (default: every bundled "
                        "rule file)")
    c.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    c.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0 picks a free one)")
    c.set_defaults(func=cmd_serve)
