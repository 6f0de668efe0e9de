"""The `paili` command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cli_args import ROOT, UsageError, bundled_rules, load_ruleset, load_runtime, resolve_rules_arg
from .cli_game import add_commands
from .serve.command import add_command as add_serve_command

LANGUAGE_MD = ROOT / "docs" / "language.md"
BUILD_DIR = Path("build")  # relative: under the directory the command runs in
DOCS_DIR = Path("generated_docs")


# ---------------------------------------------------------------------- commands


def cmd_check(args) -> int:
    from .compiler import compile_file

    files = [resolve_rules_arg(f) for f in args.files] if args.files else bundled_rules()
    errors = warnings = 0
    for f in files:
        res = compile_file(f, examples=True)
        ws = [d for d in res.diagnostics if not d.is_error]
        es = [d for d in res.diagnostics if d.is_error]
        errors += len(es)
        warnings += len(ws)
        shown = res.diagnostics if not args.quiet else tuple(es)
        if shown:
            lines = res.source.splitlines()
            print("\n".join(d.render(lines) for d in shown), file=sys.stderr)
        status = "ok" if not es else f"{len(es)} error(s)"
        if not args.quiet:
            print(f"{f}: {status}" + (f", {len(ws)} warning(s)" if ws else ""))
    if errors:
        print(f"{errors} error(s), {warnings} warning(s) in {len(files)} file(s)", file=sys.stderr)
        return 1
    return 0


def cmd_compile(args) -> int:
    from ..runtime.ir.serialize import dumps

    rs = load_ruleset(args.file, examples=True)
    text = dumps(rs)
    if args.output and args.output != "-":
        out = Path(args.output)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_build(args) -> int:
    from ..runtime.ir.serialize import dumps
    from .compiler import compile_file

    out_dir = Path(args.output) if args.output else BUILD_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    failed = 0
    for f in bundled_rules():
        res = compile_file(f, examples=True)
        if not res.ok:
            print(res.render(), file=sys.stderr)
            failed += 1
            continue
        target = out_dir / f"{f.stem}.json"
        target.write_text(dumps(res.ruleset), encoding="utf-8")
        print(f"{f} -> {target}")
    if failed:
        print(f"{failed} rule file(s) did not compile", file=sys.stderr)
        return 1
    return _docs(bundled_rules(), DOCS_DIR, check=False, full=True)


def cmd_docs(args) -> int:
    files = [resolve_rules_arg(f) for f in args.rules] if args.rules else bundled_rules()
    out_dir = Path(args.output) if args.output else DOCS_DIR
    return _docs(files, out_dir, check=args.check, full=not args.rules)


def _docs(files: list[Path], out_dir: Path, check: bool, full: bool) -> int:
    """Render the help pages of `files` into `out_dir`, or (check) compare them with what is there."""
    from . import precompile
    from .pages.site import PageError, check_pages, render_site, write_pages

    for f in files:
        if f.suffix != ".pai":
            raise UsageError(f"{f}: pages are rendered from .pai rule files (their page text and examples)")
    try:
        pages = render_site(files, LANGUAGE_MD, ROOT)
    except PageError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if check:
        diffs = check_pages(pages, out_dir, stale=full)
        for d in diffs:
            print(d, file=sys.stderr)
        # the compiled bundled rule sets shipped beside the sources (dsl/precompile.py)
        compiled = precompile.stale() if full else []
        for d in compiled:
            print(d, file=sys.stderr)
        if diffs or compiled:
            print(f"{len(diffs)} page(s) and {len(compiled)} compiled rule set(s) out of date; run `paili docs` "
                  "to regenerate them", file=sys.stderr)
            return 1
        print(f"{len(pages)} page(s) in {out_dir} are up to date" + (", and the compiled bundled rule sets"
                                                                     if full else ""))
        return 0
    for target in write_pages(pages, out_dir):
        print(f"wrote {target}")
    if full and precompile.writable():  # a source checkout: the compiled bundled rule sets it ships
        for target in precompile.write():
            print(f"wrote {precompile.shown(target)}")
    return 0


def _context(sets: list[str]) -> dict:
    out = {}
    for item in sets or []:
        if "=" not in item:
            raise UsageError(f"--set takes NAME=VALUE, not {item!r}")
        name, value = item.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def cmd_score(args) -> int:
    import json

    from ..runtime.hand import HandError

    rules = load_runtime(args.rules)
    if args.batch:
        code, counts = _score_batch(rules, args.batch)
        _print_stats(rules, args, {"batch_lines": counts})
        return code
    if args.hand is None:
        raise UsageError("score needs --hand TILES (or --batch FILE)")
    try:
        res = rules.score(args.hand, args.meld, args.win, args.self_drawn, _context(args.set))
    except HandError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(res.to_json(), ensure_ascii=False))
    else:
        from .present import render_score

        sys.stdout.write(render_score(rules, res))
    _print_stats(rules, args)
    return 0


def _print_stats(rules, args, more: dict | None = None) -> None:
    """`score --stats`: which backend answered, and how often each handed work to the reference, as one
    JSON line on standard error (`Rules.stats()`; with --batch also `batch_lines`: the lines the native
    batch driver scored itself and those it gave the reference; the results on standard output are
    unchanged)."""
    if getattr(args, "stats", False):
        import json

        print(json.dumps({"stats": {**rules.stats(), **(more or {})}}, ensure_ascii=False), file=sys.stderr)


def _score_batch(rules, path: str) -> tuple[int, dict]:
    """One hand per JSON line in, one result per line out (runtime/batch.py `write_lines`). A bad line
    gives {"line": N, "error": …} and the run goes on; exit status 1 when any line failed (docs/language.md,
    "score --batch"). Also returns how many lines each scorer answered, for --stats."""
    from ..runtime.batch import write_lines

    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    with stream:
        failed, counts = write_lines(rules, stream, sys.stdout)
    return (1 if failed else 0), counts


def cmd_waits(args) -> int:
    import json

    from ..runtime.hand import HandError

    rules = load_runtime(args.rules)
    try:
        waits = rules.waits(args.hand, args.meld, args.self_drawn, _context(args.set))
    except HandError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps([{"tile": k.name, "code": k.code or k.char, **res.to_json()} for k, res in waits],
                         ensure_ascii=False))
    else:
        from .present import render_waits

        sys.stdout.write(render_waits(rules, waits))
    return 0


def cmd_describe(args) -> int:
    import json

    rules = load_runtime(args.rules)
    if args.json:
        from .describe import describe_json

        print(json.dumps(describe_json(rules), ensure_ascii=False))
    else:
        from .present import render_describe

        sys.stdout.write(render_describe(rules))
    return 0


def cmd_bench(args) -> int:
    import importlib.util

    path = ROOT / "bench" / "hand_speed.py"
    if not path.exists():
        raise UsageError(f"the benchmark script {path} is missing (paili bench runs from a source checkout)")
    spec = importlib.util.spec_from_file_location("paili_hand_speed", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    argv = (["--quick"] if args.quick else []) + (["--json"] if args.json else [])
    return mod.main(argv)


def cmd_explain(args) -> int:
    """`paili explain CODE`: a diagnostic code's explanation and example (the registry, dsl/codes.py)."""
    from .codes import BY_CODE, REGISTRY, closest, markdown_table, replace_table

    if args.markdown:
        if args.write:
            path = Path(args.write)
            try:
                text = path.read_text(encoding="utf-8")
                new = replace_table(text)
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                raise UsageError(f"{path}: {exc}") from None
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"{path}: diagnostic table updated")
            return 0
        print(markdown_table())
        return 0
    if args.write:
        raise UsageError("--write goes with --markdown")
    if not args.code:
        for c in REGISTRY:
            print(f"{c.code}  {c.title}")
        return 0
    entry = BY_CODE.get(args.code.strip().upper())
    if entry is None:
        raise UsageError(f"unknown diagnostic code {args.code!r} (the closest is {closest(args.code)}; "
                         "`paili explain` lists them all)")
    print(entry.render())
    return 0


def _hand_args(c) -> None:
    c.add_argument("rules", help="a .pai file, a compiled .json rule set, or a bundled variant's name")
    c.add_argument("--hand", help="concealed tiles, without the winning tile (flowers written here are set aside)")
    c.add_argument("--meld", action="append", default=[], metavar="KIND:TILES", help="an exposed meld")
    c.add_argument("--self-drawn", action="store_true", help="the winning tile was self-drawn")
    c.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a room option or context value, by the rule file's name")
    c.add_argument("--json", action="store_true", help="print JSON")


def _version() -> str:
    """`paili --version`: the package version and the hand-evaluation backend in use."""
    from importlib.metadata import PackageNotFoundError, version

    from ..runtime.backend import describe
    from ..runtime.fastscore import POLICY

    try:
        v = version("paili")
    except PackageNotFoundError:
        v = "unknown (not installed)"
    return f"paili {v}; {describe()}; {POLICY}"


class _Version(argparse.Action):
    """Like argparse's version action, but the line is printed as written (not re-wrapped)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paili", description="牌理 — rule language and runtime for mahjong and "
                                "paper-card games")
    p.add_argument("--version", action=_Version, nargs=0, help="print the version and the active backend")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="check rule files and report every mistake")
    c.add_argument("files", nargs="*", help="rule files (default: every bundled rule file)")
    c.add_argument("-q", "--quiet", action="store_true", help="errors only")
    c.set_defaults(func=cmd_check)
    c = sub.add_parser("compile", help="compile a rule file to a JSON rule set")
    c.add_argument("file")
    c.add_argument("-o", "--output", help="output file (default: standard output)")
    c.set_defaults(func=cmd_compile)
    c = sub.add_parser("build", help="compile every bundled rule file (and regenerate the pages)")
    c.add_argument("-o", "--output", help="directory for the compiled rule sets (default: ./build)")
    c.set_defaults(func=cmd_build)
    c = sub.add_parser("docs", help="render the Chinese help pages (HTML and Markdown) from the rule files")
    c.add_argument("rules", nargs="*", metavar="RULES", help="rule files (default: every bundled rule file)")
    c.add_argument("-o", "--output", help="directory for the pages (default: ./generated_docs)")
    c.add_argument("--check", action="store_true",
                   help="do not write; exit 1 naming every page that differs from what the rule files produce")
    c.set_defaults(func=cmd_docs)
    c = sub.add_parser("explain", help="explain a diagnostic code, with an example that triggers it")
    c.add_argument("code", nargs="?", help="a code such as E301 (default: list every code)")
    c.add_argument("--markdown", action="store_true", help="print the code table of docs/language.md §39")
    c.add_argument("--write", metavar="FILE", help="with --markdown: replace the generated table in FILE")
    c.set_defaults(func=cmd_explain)
    c = sub.add_parser("score", help="score a hand")
    _hand_args(c)
    c.add_argument("--win", help="the winning tile (omit for a hand that wins as it stands)")
    c.add_argument("--batch", metavar="FILE", help="JSON lines, one hand per line; prints one result per line")
    c.add_argument("--stats", action="store_true",
                   help="afterwards, one JSON line on standard error: the backends used and how many readings "
                        "went to the reference")
    c.set_defaults(func=cmd_score)
    c = sub.add_parser("waits", help="list the tiles a hand waits on, with the best score for each")
    _hand_args(c)
    c.set_defaults(func=cmd_waits)
    c = sub.add_parser("bench", help="hand-evaluation speed against mahjong and pymahjonggb (bench/hand_speed.py)")
    c.add_argument("--quick", action="store_true", help="a few seconds instead of a minute")
    c.add_argument("--json", action="store_true", help="one JSON object (keys documented in bench/hand_speed.py)")
    c.set_defaults(func=cmd_bench)
    add_commands(sub)  # paili play, paili simulate, paili replay
    add_serve_command(sub)  # paili serve
    c = sub.add_parser("describe", help="list a rule set's context names, options and patterns")
    c.add_argument("rules")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_describe)
    return p


def main(argv: list[str] | None = None, quick: bool = True) -> int:
    if quick:  # `score VARIANT --batch FILE --json` on a verified recorded setup (dsl/cli_quick.py)
        from .cli_quick import quick_main

        code = quick_main(sys.argv[1:] if argv is None else argv)
        if code is not None:
            if argv is None:  # the process's own command, which ends with this status (__main__.py: why)
                import gc

                gc.freeze()
            return code
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"paili: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
