"""The language reference (docs/language.md) is runnable: every ```pai block in it compiles.

A block that contains a `variant` statement is a complete rule file and is compiled on its own. Any
other block is a fragment: it is compiled after the PRELUDE below (which the document prints verbatim
in its section "Running the examples"). A fragment that declares a singleton (`tiles`, `table`, `score`,
`priority`) or a prelude name again with the same key (`meld 碰 { … }`) replaces the prelude's statement.

Every block must compile with no error and no warning, and the examples written inside a block
(`example` / `counterexample` of a pattern, top-level `example … { expect … }`) must hold when the
runtime scores them. Further tests keep the document from falling behind the schema: every top-level
key of dsl/build.py, every engine event, every diagnostic code and every word of the closed
vocabularies must appear in it.
"""
from __future__ import annotations

import re

import pytest
from conftest import ROOT
from paili.dsl.build import TOP_LEVEL
from paili.dsl.compiler import compile_text
from paili.dsl.diagnostics import CODES, Diagnostics
from paili.dsl.resolve import FUNC_SIGS, QUALIFIERS, SEAT_BUILTIN_FIELDS
from paili.dsl.syntax import parse_source
from paili.runtime.ir import vocab as V

DOC = ROOT / "docs" / "language.md"

PRELUDE = """\
variant 示例 "示例麻将" {
  doc "语言参考里各段示例共用的前提"
}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; attrs 风 }
  honor 南 { code "2z"; attrs 风 }
  honor 白 { code "5z"; attrs 箭 }
  honor 中 { code "7z"; attrs 箭 }
  attr 幺九 = t.rank in [1, 9] or t.honor
}
table { players 4; hand 13 }
option 底分 int = 1 { range 1..100 }
state player 报听 bool = false
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
meld 明杠 { shape same 4; exposed true; kong true }
meld 暗杠 { shape same 4; kong true }
meld 补杠 { shape same 4; exposed true; kong true; upgrades [碰] }
win 标准 { melds 4; pairs 1 }
unit 番 sum
score = 番
"""

SINGLETONS = ("variant", "tiles", "table", "score", "priority")


def pai_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the opening fence, code) of every ```pai block."""
    out = []
    for m in re.finditer(r"^```pai[ \t]*\n(.*?)^```[ \t]*$", text, re.DOTALL | re.MULTILINE):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def statements(text: str) -> list[tuple[str, object, str]]:
    """Top-level statements of a rule text: (key, declared name or None for singletons, its text)."""
    stmts = parse_source(text, "<block>", Diagnostics())
    assert stmts is not None, f"does not parse:\n{text}"
    lines = text.splitlines(keepends=True)
    out = []
    for i, s in enumerate(stmts):
        end = stmts[i + 1].span.line - 1 if i + 1 < len(stmts) else len(lines)
        if s.key in SINGLETONS:
            name = None
        elif s.key == "state":  # `state player NAME TYPE`: the name is the second argument
            name = f"{s.args[0].value} {s.args[1].value}" if len(s.args) > 1 else s.name
        elif s.key == "on":  # hooks declare nothing: a fragment's hook never replaces one
            name = object()
        else:
            name = s.name
        out.append((s.key, name, "".join(lines[s.span.line - 1:end])))
    return out


def is_complete(code: str) -> bool:
    return any(k == "variant" for k, _, _ in statements(code))


def assemble(code: str) -> str:
    """The text to compile for a block: the block itself, or the prelude (less what it replaces) + it."""
    if is_complete(code):
        return code
    mine = {(k, n) for k, n, _ in statements(code)}
    kept = "".join(t for k, n, t in statements(PRELUDE) if (k, n) not in mine)
    return kept + "\n" + code


DOC_TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = pai_blocks(DOC_TEXT)


def _block_id(block: tuple[int, str]) -> str:
    line, code = block
    first = next((ln.strip() for ln in code.splitlines() if ln.strip()), "")
    return f"line {line}: {first[:40]}"


def test_the_document_has_blocks():
    assert len(BLOCKS) >= 30


def test_prelude_is_printed_in_the_document():
    assert any(code == PRELUDE for _, code in BLOCKS), \
        "docs/language.md must print the test's PRELUDE verbatim in a ```pai block"


def test_prelude_compiles_cleanly():
    res = compile_text(PRELUDE, "prelude.pai")
    assert res.ok and not res.diagnostics, res.render()


@pytest.mark.parametrize("block", BLOCKS, ids=[_block_id(b) for b in BLOCKS])
def test_block_compiles(block):
    line, code = block
    text = assemble(code)
    res = compile_text(text, f"<block at docs/language.md:{line}, with the prelude>")
    first = code.strip().splitlines()[0]
    errors = [d for d in res.diagnostics if d.is_error]
    assert not errors, f"block at docs/language.md line {line} (`{first}`) does not compile:\n{res.render()}"
    assert not res.diagnostics, f"block at docs/language.md line {line} (`{first}`) warns:\n{res.render()}"


@pytest.mark.parametrize("block", BLOCKS, ids=[_block_id(b) for b in BLOCKS])
def test_block_examples_hold(block):
    from paili.runtime.examples import check_all
    from paili.runtime.rules import Rules

    line, code = block
    if "example" not in code:
        return
    res = compile_text(assemble(code), f"language.md:{line}")
    assert res.ok, res.render()
    failed = [f"{o.where}: {o.message}" for o in check_all(Rules(res.ruleset)) if not o.ok]
    first = code.strip().splitlines()[0]
    assert not failed, f"block at docs/language.md line {line} (`{first}`):\n" + "\n".join(failed)


def test_every_top_level_key_has_an_example():
    used = {k for _, code in BLOCKS for k, _, _ in statements(code)}
    missing = [k for k in TOP_LEVEL if k not in used]
    assert not missing, f"no ```pai example uses these top-level keys: {missing}"


def test_every_top_level_key_has_a_heading():
    headings = re.findall(r"^#+ .*$", DOC_TEXT, re.MULTILINE)
    missing = [k for k in TOP_LEVEL if not any(f"`{k}" in h for h in headings)]
    assert not missing, f"no heading names these top-level keys: {missing}"


def _table_rows(text: str) -> set[str]:
    """The first cell of every table row written as `| `word` | …`."""
    return set(re.findall(r"^\|\s*`([^`]+)`", text, re.MULTILINE))


def test_every_event_is_described():
    rows = _table_rows(DOC_TEXT)
    missing = [e for e in V.EVENTS if e not in rows]
    assert not missing, f"the events table lacks: {missing}"


def test_every_diagnostic_code_is_listed():
    rows = _table_rows(DOC_TEXT)
    missing = [c for c in CODES if c not in rows]
    assert not missing, f"the diagnostics table lacks: {missing}"


def test_every_vocabulary_word_appears():
    words = set(re.findall(r"`([^`\n]+)`", DOC_TEXT))
    # one backticked word may be a phrase: `by others`; split those too
    words |= {w for phrase in list(words) for w in re.split(r"[\s\[\],.()=:]+", phrase) if w}
    vocab = {
        "WHO": V.WHO, "THEN": V.THEN, "WIN_TILE": V.WIN_TILE, "ORDER": V.ORDER, "ROTATION": V.ROTATION,
        "OBSERVE_WHAT": V.OBSERVE_WHAT, "CAP_OF": V.CAP_OF, "REVEAL_AT": V.REVEAL_AT, "PAYERS": V.PAYERS,
        "PAYEES": V.PAYEES, "EFFECT_OPS": V.EFFECT_OPS, "EXPECT_KEYS": V.EXPECT_KEYS,
        "SETTING_TYPES": V.SETTING_TYPES, "STATE_TYPES": V.STATE_TYPES, "SHAPE_KINDS": V.SHAPE_KINDS,
        "UNIT_COMBINE": V.UNIT_COMBINE, "COMBINE_RULES": V.COMBINE_RULES, "FIRST_DEALER": V.FIRST_DEALER,
        "WALL_ENDS": V.WALL_ENDS, "WILD_SCOPES": V.WILD_SCOPES, "SCOPES": V.SCOPES,
        "BUILTIN_ACTIONS": V.BUILTIN_ACTIONS, "READING_BUILTINS": tuple(V.READING_BUILTINS),
        "GAME_BUILTINS": tuple(V.GAME_BUILTINS), "TILE_FIELDS": tuple(V.TILE_FIELDS),
        "MELD_FIELDS": tuple(V.MELD_FIELDS), "SEAT_FIELDS": tuple(SEAT_BUILTIN_FIELDS),
        "FUNCTIONS": V.FUNCTIONS + tuple(FUNC_SIGS), "QUALIFIERS": tuple(QUALIFIERS),
    }
    missing = {name: [w for w in ws if w not in words] for name, ws in vocab.items()}
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, f"docs/language.md does not mention (in `code`): {missing}"


def _slug(heading: str) -> str:
    """The anchor of a heading, as the help page (dsl/pages/language.py) makes it; the document's headings
    are written so that GitHub's anchors agree."""
    return re.sub(r"[^\w\u4e00-\u9fff]+", "-", heading).strip("-").lower()


def test_internal_links_resolve():
    anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", DOC_TEXT, re.MULTILINE)}
    links = re.findall(r"\]\(#([^)]+)\)", DOC_TEXT)
    assert links
    broken = [a for a in links if a not in anchors]
    assert not broken, f"links to no heading: {broken}"


def test_language_contents_lists_are_clean_and_the_chinese_edition_has_every_heading():
    """Both editions of the language page list their sections without raw Markdown (code marks render as
    <code>); the Chinese edition (generated_docs/language-zh.html, from the same source) has a Chinese
    heading for every section and keeps the English page's anchors."""
    from paili.dsl.pages.language import render_language, translation

    source = DOC.read_text(encoding="utf-8")
    en = render_language(source)
    zh = render_language(source, translation(DOC))
    assert zh.untranslated == [], "add a Chinese heading to docs/language.zh.toml for: " + "; ".join(zh.untranslated)
    sections = re.findall(r"^## (.+)$", source, re.M)
    assert len(en.toc) == len(zh.toc) == len(sections) >= 40
    assert [a for a, _ in en.toc] == [a for a, _ in zh.toc]
    for (_, e), (_, z), raw in zip(en.toc, zh.toc, sections):
        assert "`" not in e and "`" not in z, (e, z)
        assert ("`" in raw) == ("<code>" in e), raw
        assert re.search(r"[\u4e00-\u9fff]", z), z
    assert "`" not in en.title and re.search(r"[\u4e00-\u9fff]", zh.title)


# Sections whose Chinese text (docs/language.zh.md) is still to be written (the page would show their
# English text meanwhile): none. A section added to docs/language.md is translated with it.
UNTRANSLATED: list[str] = []
ZH = ROOT / "docs" / "language.zh.md"


def _compose(english: str, chinese: str, codes: dict | None = None):
    from paili.dsl.pages.language_zh import compose

    return compose(english, chinese, codes)


def test_the_chinese_edition_fits_the_english_source_and_every_section_is_translated():
    """docs/language.zh.md has the English sections in their order, shows each English code block once (by
    reference, never a copy), keeps the shape and row keys of every table, and has Chinese text for every
    section but those still listed in UNTRANSLATED."""
    from paili.dsl.pages.language import translation

    zh = translation(DOC)
    assert "body" in zh, "docs/language.zh.md is missing"
    composed = _compose(DOC_TEXT, zh["body"], zh.get("codes"))
    assert composed.problems == [], "\n".join(composed.problems)
    assert composed.untranslated == UNTRANSLATED, (
        "the sections without Chinese text are not the listed ones: untranslated now "
        f"{composed.untranslated}")
    from paili.dsl.pages.language_zh import chinese_sections

    for s in chinese_sections(zh["body"]):
        prose = "\n".join(ln for ln in s.body if not ln.startswith("{{"))
        assert re.search(r"[\u4e00-\u9fff]{4}", prose), f"no Chinese text under `{s.where}` in {ZH.name}"


def test_the_chinese_page_shows_the_english_code_blocks_and_anchors():
    """The two pages have the same highlighted code, block for block, and the same anchors."""
    from paili.dsl.pages.language import render_language, translation

    en = render_language(DOC_TEXT)
    zh = render_language(DOC_TEXT, translation(DOC))
    pre = re.compile(r"<pre class=\"highlight\">.*?</pre>", re.S)
    assert pre.findall(str(en.body)) == pre.findall(str(zh.body))
    assert len(pre.findall(str(zh.body))) == len(BLOCKS)
    ids = re.compile(r'<h[1-6] id="([^"]+)"')
    assert ids.findall(str(en.body)) == ids.findall(str(zh.body))
    assert "的" in str(zh.body)


EN_SAMPLE = """\
# Title

Intro.

## 1. One

Text.

```pai
unit 番 sum
```

| key | meaning |
|---|---|
| `a` | first |
| `b` | second |

## 2. Two

```pai
score = 1
```

```pai
score = 2
```
"""

ZH_SAMPLE = """\
<!-- 术语表 -->
# Title

引言的中文。

## 1. One

第一节的中文。

{{code 1}}

| 键 | 含义 |
|---|---|
| `a` | 第一个 |
| `b` | 第二个 |

## 2. Two

第二节的中文。

{{code 1}}

{{code 2}}
"""


def test_a_fitting_chinese_text_takes_the_code_from_the_english_source():
    c = _compose(EN_SAMPLE, ZH_SAMPLE)
    assert c.problems == [] and c.untranslated == []
    assert "unit 番 sum" in c.markdown and "score = 2" in c.markdown and "第二节的中文" in c.markdown
    assert "术语表" not in c.markdown and "{{" not in c.markdown
    # an English block edited shows edited in the Chinese edition
    assert "score = 3" in _compose(EN_SAMPLE.replace("score = 2", "score = 3"), ZH_SAMPLE).markdown


@pytest.mark.parametrize("change, problem", [
    (("{{code 2}}", "{{code 3}}"), "refers to no code block"),
    (("{{code 2}}\n", ""), "does not show the English code block(s) {{code 2}}"),
    (("{{code 2}}", "{{code 1}}"), "more than once"),
    (("{{code 1}}\n\n| 键", "```pai\nunit 番 sum\n```\n\n| 键"), "a code block written in the Chinese text"),
    (("## 1. One", "## 1. Uno"), "is not a heading of the English source"),
    (("| `b` | 第二个 |\n", ""), "table 1 has 3 rows"),
    (("| `b` | 第二个 |", "| `c` | 第二个 |"), "the code of its first cell must stay the same"),
    (("{{code 2}}", "{{code two}}"), "is not a placeholder"),
    (("{{code 2}}", "{{codes}}"), "has no generated table"),
])
def test_a_chinese_text_that_does_not_fit_is_refused(change, problem):
    old, new = change
    assert old in ZH_SAMPLE
    c = _compose(EN_SAMPLE, ZH_SAMPLE.replace(old, new, 1))
    assert any(problem in p for p in c.problems), c.problems


def test_sections_out_of_order_or_missing_are_found():
    one = ZH_SAMPLE[ZH_SAMPLE.index("## 1. One"):ZH_SAMPLE.index("## 2. Two")]
    swapped = ZH_SAMPLE.replace(one, "") + "\n" + one
    assert any("out of the English order" in p for p in _compose(EN_SAMPLE, swapped).problems)
    missing = _compose(EN_SAMPLE, ZH_SAMPLE.replace(one, ""))
    assert missing.problems == [] and missing.untranslated == ["1. One"]
    assert "Text." in missing.markdown  # shown in English meanwhile, and listed


def test_the_generated_table_of_codes_takes_its_chinese_meanings_from_the_toml():
    from paili.dsl.codes import MARK_BEGIN, MARK_END, REGISTRY

    en = EN_SAMPLE + f"\n## 3. Codes\n\n{MARK_BEGIN}\n\n| code | meaning |\n|---|---|\n\n{MARK_END}\n"
    zh = ZH_SAMPLE + "\n## 3. Codes\n\n诊断代码如下。\n\n{{codes}}\n"
    meanings = {c.code: f"含义{c.code}" for c in REGISTRY}
    c = _compose(en, zh, meanings)
    assert c.problems == []
    assert "| 代码 | 含义 |" in c.markdown and f"| `{REGISTRY[0].code}` | 含义{REGISTRY[0].code} |" in c.markdown
    meanings.pop(REGISTRY[0].code)
    assert any("no Chinese meaning for: " + REGISTRY[0].code in p for p in _compose(en, zh, meanings).problems)
    assert any("put {{codes}}" in p for p in _compose(en, zh.replace("{{codes}}", "")).problems)
