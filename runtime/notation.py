"""Tile notation, derived from the rule set's own declarations.

A suit with `code "m"` accepts `5m` and `123m`; an honor with `code "1z"` accepts `1z` (and `12z`
shares the letter the same way); every tile with a one-character `char` (东, 一, 壹, 王) is written
by that character. Spaces are ignored. Errors say which character is wrong and where.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

TOKEN_MEMO = 10_000


class NotationError(ValueError):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Notation:
    """How a rule set's tiles are written in a hand's text: digit and suit letter, character, name."""

    by_digit_letter: dict[tuple[str, str], str]  # ("5", "m") -> tile name
    by_char: dict[str, str]  # "东" -> tile name
    by_name: dict[str, str]  # display name -> tile name
    # token -> its tile names (`parse`): the notation's own memo, not part of its value
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)

    @classmethod
    def from_kinds(cls, kinds) -> Notation:
        dl: dict[tuple[str, str], str] = {}
        ch: dict[str, str] = {}
        names: dict[str, str] = {}
        for k in kinds:
            code = k.code
            if code and len(code) >= 2 and code[:-1].isdigit() and code[-1].isalpha() and code[-1].isascii():
                dl[(code[:-1], code[-1])] = k.name
            if k.char:
                ch[k.char] = k.name
            names[k.name] = k.name
        return cls(dl, ch, names)

    @property
    def letters(self) -> set[str]:
        return {letter for _, letter in self.by_digit_letter}

    @cached_property
    def _letters(self) -> set[str]:
        return self.letters

    def parse(self, text: str) -> list[str]:
        """Tile names in the order written. Whitespace-separated tokens parse independently (digits
        never carry over a space), so each token's names are remembered (a bounded table: hands are
        written with few distinct tokens); on any error the whole text is parsed again for the message."""
        memo = self.tokens
        out: list[str] = []
        for tok in text.split():
            got = memo.get(tok)
            if got is None:
                try:
                    got = tuple(self._parse(tok))
                except NotationError:
                    return self._parse(text)
                if len(memo) < TOKEN_MEMO:
                    memo[tok] = got
            out += got
        return out

    def _parse(self, text: str) -> list[str]:
        out: list[str] = []
        digits: list[tuple[str, int]] = []
        for i, c in enumerate(text):
            if c.isspace() or c in ",，":
                if digits:
                    raise NotationError(f"digits {''.join(d for d, _ in digits)} have no suit letter", digits[0][1])
                continue
            if c.isdigit() and c.isascii():
                digits.append((c, i))
                continue
            if c.isascii() and c.isalpha() and c in self._letters:
                if not digits:
                    raise NotationError(f"suit letter {c!r} has no digits before it", i)
                for d, pos in digits:
                    name = self.by_digit_letter.get((d, c))
                    if name is None:
                        raise NotationError(f"there is no tile {d}{c}", pos)
                    out.append(name)
                digits = []
                continue
            if digits:
                raise NotationError(f"digits {''.join(d for d, _ in digits)} have no suit letter", digits[0][1])
            name = self.by_char.get(c)
            if name is None:
                raise NotationError(f"unknown tile {c!r}", i)
            out.append(name)
        if digits:
            raise NotationError(f"digits {''.join(d for d, _ in digits)} have no suit letter", digits[0][1])
        return out
