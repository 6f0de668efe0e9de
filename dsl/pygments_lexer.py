"""A Pygments lexer for the paili rule language (`.pai`).

Registered as the `pai` lexer through the `pygments.lexers` entry point (pyproject.toml), so any tool
built on Pygments (the generated help pages, `pygmentize -l pai`, documentation builders) highlights
rule files:

    pygmentize -l pai rules/demo.pai

The lexer follows the generic statement syntax of dsl/grammar.lark: the first word of a statement (at
the start of a line, or after `{` or `;`) is its key; inside `( … )` and `[ … ]` newlines do not start
a statement. Builtin names and functions come from runtime/ir/vocab.py, the one list the checker also uses.
"""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from ..runtime.ir import vocab

_WORD = r"[^\W\d]\w*"
_OPERATOR_WORDS = ("and", "or", "not", "in", "if", "then", "else")
_CONSTANTS = ("true", "false", "none")
_COMPREHENSIONS = ("count", "any", "all", "sum", "max", "min", "filter")
_BUILTINS = tuple(sorted(set(vocab.READING_BUILTINS) | set(vocab.GAME_BUILTINS), key=lambda w: (-len(w), w)))
_FUNCTIONS = tuple(sorted(set(vocab.FUNCTIONS) | set(_COMPREHENSIONS), key=lambda w: (-len(w), w)))


def _words(words) -> str:
    return r"(?:{})(?!\w)".format("|".join(re.escape(w) for w in words))


class PaiLexer(RegexLexer):
    """Lexer for paili rule files (牌理规则文件)."""

    name = "Paili"
    aliases = ("pai", "paili")
    filenames = ("*.pai",)
    mimetypes = ("text/x-pai",)
    url = "https://example.invalid/paili"
    flags = re.MULTILINE | re.UNICODE

    tokens = {  # noqa: RUF012 — the Pygments lexer protocol
        "root": [
            # the key of a statement: first word on a line, or after `{` / `;`
            (rf"^([ \t]*)({_WORD})", bygroups(Whitespace, Keyword)),
            (rf"([{{;])([ \t]*)({_WORD})", bygroups(Punctuation, Whitespace, Keyword)),
            (r"[(\[]", Punctuation, "nested"),
            include("common"),
        ],
        "nested": [
            (r"[(\[]", Punctuation, "#push"),
            (r"[)\]]", Punctuation, "#pop"),
            (r"\n", Whitespace),
            include("common"),
        ],
        "common": [
            (r"[ \t]+", Whitespace),
            (r"\n", Whitespace),
            (r"#.*$", Comment.Single),
            (r'"""', String.Doc, "docstring"),
            (r'"', String.Double, "string"),
            (r"'[^'\n]*'", String.Char),  # a tile literal: '123m 东东'
            (r"\d+\.\.\d+", Number.Integer),  # a range 1..9
            (r"\d+\.\d+", Number.Float),
            (r"\d+", Number.Integer),
            (r"\.\.", Operator),
            (r"==|!=|<=|>=|//|[<>+\-*/%^=]", Operator),
            (r"[{}(),;:\[\]]", Punctuation),
            (r"\.", Punctuation),
            (_words(_OPERATOR_WORDS), Operator.Word),
            (_words(_CONSTANTS), Keyword.Constant),
            (_words(_FUNCTIONS) + r"(?=\s*\()", Name.Builtin),
            (_words(_BUILTINS), Name.Builtin.Pseudo),
            (_WORD, Name),
            (r".", Text),
        ],
        "docstring": [
            (r'"""', String.Doc, "#pop"),
            (r'[^"]+', String.Doc),
            (r'"', String.Doc),
        ],
        "string": [
            (r'\\["\\n]', String.Escape),
            (r'"', String.Double, "#pop"),
            (r'[^"\\\n]+', String.Double),
            (r"\\", String.Double),
            (r"\n", String.Double),
        ],
    }
