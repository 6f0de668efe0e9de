"""`paili score VARIANT --batch FILE --json` on a bundled variant, run before the command line's own parser
and modules are imported (runtime/quickbatch.py): the one form a batch job's start-up matters for. Any
other form (`--stats` included: its keys are a `Rules`' own), or a variant without a verified recorded
setup, returns None and the full command runs.

With PAILI_BATCH_REPORT set, one JSON line on standard error says what the quick path did
({"quick": {"native": N, "reference": M, "rules_loaded": …}}) or why it left the batch to the full
command ({"quick": {"declined": "…"}}): for bench/batch_native_diff.py and the tests.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def batch_form(argv: list[str]) -> tuple[str, str] | None:
    """(RULES, FILE) of exactly `score RULES --batch FILE --json` (options in any order), else None."""
    if not argv or argv[0] != "score":
        return None
    rules = path = None
    json_flag = False
    rest = argv[1:]
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--json" and not json_flag:
            json_flag = True
        elif a == "--batch" and path is None and i + 1 < len(rest):
            path = rest[i + 1]
            i += 1
        elif a.startswith("--batch=") and path is None:
            path = a[len("--batch="):]
        elif not a.startswith("-") and rules is None:
            rules = a
        else:
            return None
        i += 1
    if rules is None or not path or not json_flag or path.startswith("-") and path != "-":
        return None
    return rules, path


def bundled_stem(arg: str) -> str | None:
    """The bundled variant RULES names, as dsl/cli_args.py `resolve_rules_arg` finds it, or None."""
    from ..runtime.batchsetup import RULES_DIR

    p = Path(arg)
    if not p.exists():
        p = RULES_DIR / f"{arg}.pai"
        if not p.exists():
            return None
    try:
        if p.suffix == ".pai" and p.resolve().parent == RULES_DIR.resolve():
            return p.stem
    except OSError:
        pass
    return None


def quick_main(argv: list[str]) -> int | None:
    """The exit status of a quick batch, or None when the full command must run it."""
    form = batch_form(argv)
    if form is None:
        return None
    rules_arg, path = form
    stem = bundled_stem(rules_arg)
    if stem is None:
        return None
    from ..runtime.quickbatch import prepare

    def load_rules():
        from .cli_args import load_runtime

        return load_runtime(rules_arg)

    quick = prepare(stem, load_rules)
    report = bool(os.environ.get("PAILI_BATCH_REPORT"))
    if quick is None:
        if report:
            import json  # (only here: the batch itself reads no JSON in Python)

            from ..runtime.quickbatch import DECLINED

            print(json.dumps({"quick": {"declined": DECLINED[0]}}, ensure_ascii=False), file=sys.stderr)
        return None
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:  # as the full command says it (dsl/cli.py `_score_batch`)
        print(f"paili: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        with stream:
            failed, counts = quick.run(stream, sys.stdout)
        if report:
            import json

            print(json.dumps({"quick": counts}, ensure_ascii=False), file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from .cli_args import UsageError  # (loading the Rules a line needed; imported then already)

        if not isinstance(exc, UsageError):
            raise
        print(f"paili: {exc}", file=sys.stderr)
        return 2
    return 1 if failed else 0
