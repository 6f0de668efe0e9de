"""What the commands' arguments share: the bundled rule files, a RULES argument resolved and loaded, and
the one exception a user's mistake on the command line raises."""
from __future__ import annotations

import sys
from pathlib import Path

# ROOT is the package: the checkout, or site-packages/paili once installed. It is only read from (bundled
# rule files, the language reference); what `build` and `docs` write goes to the current directory or -o,
# never into the installed package.
ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"


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


def load_ruleset(arg: str, examples: bool = False):
    """Load a rule set from any RULES argument; UsageError with the diagnostics when it does not compile
    (with `examples`, a .pai file's examples must hold too: E506, E508)."""
    return load_ruleset_text(arg, examples)[0]


def load_ruleset_text(arg: str, examples: bool = False):
    """`load_ruleset` with the rule set's JSON text when it was read from one (a compiled file, a bundled
    variant's shipped one; None when compiled here), for `Rules(rs, backend, text)`."""
    from ..runtime.ir.serialize import FormatError, loads, read_text

    p = resolve_rules_arg(arg)
    if p.suffix == ".json":
        try:
            text = read_text(p)
            return loads(text), text
        except (OSError, UnicodeDecodeError, FormatError) as exc:
            raise UsageError(f"{p}: {exc}") from None
    if not examples:  # a bundled variant: its shipped compiled JSON, when compiled from this very source
        from ..runtime.ir.precompiled import load_bundled_text

        shipped = load_bundled_text(p)
        if shipped is not None:
            return shipped
    from .compiler import compile_file

    res = compile_file(p, examples)
    if not res.ok:
        sys.stderr.write(res.render() + "\n")
        raise UsageError(f"{p} does not compile")
    return res.ruleset, None


def load_runtime(arg: str):
    """The `Rules` of a RULES argument, as the commands that score use them; UsageError otherwise."""
    from ..runtime.backend import BackendError
    from ..runtime.hand import HandError
    from ..runtime.rules import Rules

    rs, text = load_ruleset_text(arg)
    try:
        return Rules(rs, None, text)
    except BackendError as exc:
        raise UsageError(str(exc)) from None
    except HandError as exc:  # e.g. the default options set up more tiles than the limits allow
        raise UsageError(f"{arg}: {exc}") from None
