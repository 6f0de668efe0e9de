"""The language and runtime stay generic: no variant, pattern or card name in dsl/ or runtime/ code."""
import re

from conftest import ROOT, RULES
from paili.dsl.compiler import compile_file

# Words too generic to count as a variant's own vocabulary even though a rule file declares them
# (single tile characters like 万 or 东 are the notation's letters, not a variant's knowledge).
ALLOWED = set()


def declared_names():
    names = set()
    for path in RULES:
        rs = compile_file(path).ruleset
        names.add(rs.variant.id)
        names.add(rs.variant.title)
        for group in (rs.patterns, rs.melds, rs.forms, rs.actions, rs.settings, rs.quantities, rs.reveals,
                      rs.wilds, rs.phases, rs.requires, rs.tasks, rs.payments, rs.units):
            names.update(x.name for x in group)
        names.update(k.name for k in rs.tiles.kinds)
        names.update(s.name for s in rs.tiles.suits)
    # Names of one character are tile letters or generic words (番, 分); the check is about names a
    # variant owns, which are at least two characters.
    return {n for n in names if len(n) >= 2 and n not in ALLOWED}


def code_text(folder):
    # Python, and the native core's Rust (runtime/native/src), whose build output is not scanned
    paths = sorted(p for pattern in ("*.py", "*.rs") for p in (ROOT / folder).rglob(pattern) if "target" not in p.parts)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        yield path, text


def test_no_variant_names_in_dsl_or_runtime():
    names = declared_names() | {"白金岛", "扯胡子", "白城", "龙岩", "baijindao", "chehuzi", "baicheng", "longyan"}
    hits = []
    for folder in ("dsl", "runtime"):
        for path, text in code_text(folder):
            for n in names:
                if n in text:
                    line = text[: text.index(n)].count("\n") + 1
                    hits.append(f"{path.relative_to(ROOT)}:{line}: {n}")
    assert not hits, "variant knowledge in generic code:\n" + "\n".join(hits)


def test_the_check_would_catch_a_name():
    """Guard against a vacuous test: the name list is large and contains known pattern names."""
    names = declared_names()
    assert len(names) > 100
    assert re.search("碰碰和|碰碰胡", " ".join(names))
