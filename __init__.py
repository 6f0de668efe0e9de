"""paili (牌理): a declarative rule language and a generic runtime for Chinese mahjong and paper-card games.

This is the public face. Everything a game server, a bot or a page needs is here:

    import paili
    rules = paili.load("baijindao")          # a bundled variant, a .pai file or a compiled .json
    rules.score("123m456m789m123p99s", self_drawn=True)
    game = paili.Game(rules, seed=1)

The repository's folders are this package's subpackages (`paili.dsl`, the compiler; `paili.runtime`, the
executor), so the installed distribution claims no top-level name but `paili`. Loading a compiled JSON
rule set imports only the runtime; the compiler (and Lark) is imported when a `.pai` file is read.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["ArgumentError", "Game", "GameError", "IllegalMove", "Move", "Rules", "ScoreResult", "Session",
           "__version__", "bundled", "compile", "load"]

RULES_DIR = Path(__file__).resolve().parent / "rules"  # the bundled rule files (package data)

# The public classes are imported when first used (PEP 562), so that `python -m paili …` — which imports
# this package first — pays only for the modules its command needs (the game engine and
# importlib.metadata are a good part of a command's start-up).
_LAZY = {"ArgumentError": "runtime.game", "Game": "runtime.game", "GameError": "runtime.game",
         "IllegalMove": "runtime.game", "Move": "runtime.game", "Session": "runtime.game.session",
         "ScoreResult": "runtime.result", "Rules": "runtime.rules"}

if TYPE_CHECKING:
    from .runtime.game import ArgumentError, Game, GameError, IllegalMove, Move
    from .runtime.game.session import Session
    from .runtime.result import ScoreResult
    from .runtime.rules import Rules


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("paili")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        value = _package_version()
    elif name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once: later reads find it without this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def bundled() -> list[str]:
    """The names of the bundled variants (`load` takes each)."""
    return sorted(p.stem for p in RULES_DIR.glob("*.pai"))


def _source(source: str | Path) -> Path:
    p = Path(source)
    if p.suffix in (".pai", ".json") or p.exists():
        return p
    if isinstance(source, str) and (RULES_DIR / f"{source}.pai").is_file():
        return RULES_DIR / f"{source}.pai"
    raise FileNotFoundError(f"no rule file {str(source)!r} (give a .pai file, a compiled .json, or one of: "
                            f"{', '.join(bundled())})")


def load(source: str | Path, backend: str | None = None) -> Rules:
    """A rule set ready to score and play: a bundled variant's name, a `.pai` file (compiled here, with
    its diagnostics in the error if it does not compile) or a compiled `.json` rule set (validated on
    load, never executed). `backend`: 'native', 'python' or 'auto' (None: $PAILI_BACKEND)."""
    from .runtime.rules import Rules

    p = _source(source)
    if p.suffix == ".json":
        from .runtime.rules import load as load_json

        return load_json(p, backend)
    from .runtime.ir.precompiled import load_bundled_text

    shipped = load_bundled_text(p)  # a bundled variant: its compiled JSON, when compiled from this very source
    if shipped is not None:
        return Rules(shipped[0], backend, shipped[1])
    from .dsl.compiler import compile_file

    res = compile_file(p)
    if not res.ok:
        raise ValueError(f"{p} does not compile:\n{res.render()}")
    return Rules(res.ruleset, backend)


def compile(source: str | Path, examples: bool = False):  # noqa: A001 - the language's own verb
    """Compile a `.pai` file (or a bundled variant's name) and return the compiler's result: `.ok`,
    `.ruleset` (the IR), `.render()` (the diagnostics, each with file:line:col and a caret). With
    `examples`, every worked example must hold too."""
    from .dsl.compiler import compile_file

    return compile_file(_source(source), examples)
