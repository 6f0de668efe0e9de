"""The `paili` command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
BUILD_DIR = ROOT / "build"


class UsageError(Exception):
    """A user mistake on the command line: one line on stderr, exit status 2."""


def bundled_rules() -> list[Path]:
    return sorted(RULES_DIR.glob("*.pai"))


def resolve_rules_arg(arg: str) -> Path:
    """A .pai file, a compiled .json rule set, or a bundled variant's stem."""
    p = Path(arg)
    if p.exists():
        return p
    cand = RULES_DIR / f"{arg}.pai"
    if cand.exists():
        return cand
    stems = ", ".join(x.stem for x in bundled_rules())
    raise UsageError(f"no rule file {arg!r} (give a .pai file, a compiled .json, or one of: {stems})")


def load_ruleset(arg: str):
    """Load a rule set from any RULES argument; UsageError with the diagnostics when it does not compile."""
    from .compiler import compile_file
    from .serialize import FormatError, loads

    p = resolve_rules_arg(arg)
    if p.suffix == ".json":
        try:
            return loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, FormatError) as exc:
            raise UsageError(f"{p}: {exc}") from None
    res = compile_file(p)
    if not res.ok:
        sys.stderr.write(res.render() + "\n")
        raise UsageError(f"{p} does not compile")
    return res.ruleset


# ---------------------------------------------------------------------- commands


def cmd_check(args) -> int:
    from .compiler import compile_file

    files = [resolve_rules_arg(f) for f in args.files] if args.files else bundled_rules()
    errors = warnings = 0
    for f in files:
        res = compile_file(f)
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
    from .serialize import dumps

    rs = load_ruleset(args.file)
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
    from .compiler import compile_file
    from .serialize import dumps

    out_dir = Path(args.output) if args.output else BUILD_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    failed = 0
    for f in bundled_rules():
        res = compile_file(f)
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
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paili", description="牌理 — rule language and runtime for mahjong and "
                                "paper-card games")
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
    c.add_argument("-o", "--output", help="directory for the compiled rule sets (default: build/)")
    c.set_defaults(func=cmd_build)
    return p


def main(argv: list[str] | None = None) -> int:
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
