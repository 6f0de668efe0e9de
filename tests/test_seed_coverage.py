"""docs/seed-coverage.md lists every section of every seed with the construct that encodes it."""
import re

import pytest
from conftest import ROOT, SEEDS

DOC = ROOT / "docs" / "seed-coverage.md"
# Headings and numbered rules in the seeds' own styles: 一、… / 【…】 / 5.1 … / 1）… / ★… / I.… / 1、…
HEADING = re.compile(r"^\s*(?:[一二三四五六七八九十]+、|【[^】]+】|\d+(?:\.\d+)+\.?|\d+[）)]|★|[IVX]+\.|\d+、|[a-e]\.)")


def norm(text: str) -> str:
    text = re.sub(r"<br\s*/?>", "", text)
    return re.sub(r"[\s\u3000，。；：:、（）()“”\"'`|*]+", "", text)


def seed_headings(path):
    for line in path.read_text(encoding="utf-8").splitlines():
        line = re.sub(r"<br\s*/?>", "", line).strip()
        if line and HEADING.match(line):
            yield line


NUMBERING = re.compile(r"^\s*(?:[一二三四五六七八九十]+、|\d+(?:\.\d+)+\.?|\d+[）)]|★|[IVX]+\.|\d+、|[a-e]\.)\s*")


def key_of(line: str) -> str:
    """What identifies a heading or numbered rule: its name before a colon (碰碰和 in
    `1）碰碰和：…`), a 【…】 title, or else its first words, without the numbering."""
    body = NUMBERING.sub("", line, count=1)
    m = re.match(r"^([^：:（(，,。；;]{1,16})", body)
    text = m.group(1) if m else body
    return norm(text)[:8]


@pytest.fixture(autouse=True)
def seeds_present():
    if not SEEDS.is_dir():
        pytest.skip(f"the seed documents are not beside this checkout ({SEEDS})")


def test_every_seed_heading_is_covered():
    doc = norm(DOC.read_text(encoding="utf-8"))
    missing = []
    for seed in sorted(SEEDS.glob("0*.txt")):
        for line in seed_headings(seed):
            if key_of(line) not in doc:
                missing.append(f"{seed.name}: {line[:40]}")
    assert not missing, "seed sections missing from docs/seed-coverage.md:\n" + "\n".join(missing)


def test_every_row_names_a_construct():
    """Each table row pairs seed text with a construct (a backquoted rule-file name) or says why none."""
    rows = [ln for ln in DOC.read_text(encoding="utf-8").splitlines()
            if ln.startswith("|") and not ln.startswith("|---") and "seed" not in ln.lower()[:20]]
    assert len(rows) > 200
    bare = [r for r in rows if "`" not in r and "不编码" not in r and "not encoded" not in r.lower()
            and "page only" not in r.lower() and "display" not in r.lower()]
    assert len(bare) < len(rows) * 0.05, "rows without a construct:\n" + "\n".join(bare[:20])


def test_the_heading_check_is_not_vacuous():
    n = sum(1 for seed in SEEDS.glob("0*.txt") for _ in seed_headings(seed))
    assert n > 120
