"""The answers a scripted player gives `paili play` (tests/test_play_terminal.py): the first listed move
whose action is in `prefer` (typed as the bare action name when it is the only listed move of that action,
else by its number), otherwise move 1."""
from __future__ import annotations

import re

MOVE_LINE = re.compile(r"^\s+(\d+)\. (\S+)(.*)$")


def listed_moves(screen: str) -> list[tuple[int, str, str]]:
    """The numbered moves of the last question on the screen: (number, action word, whole text)."""
    block = screen.rsplit("你要：", 1)[-1] if "你要：" in screen.rsplit("轮到你：", 1)[-1] else \
        screen.rsplit("轮到你：", 1)[-1]
    out = []
    for line in block.splitlines():
        m = MOVE_LINE.match(line)
        if m:
            out.append((int(m.group(1)), m.group(2), (m.group(2) + m.group(3)).strip()))
    return out


def answer(screen: str, prefer: list[str]) -> str:
    moves = listed_moves(screen)
    for word in prefer:
        same = [n for n, action, _ in moves if action == word]
        if same:
            return word if len(same) == 1 else str(same[0])
    return "1"
