"""Compiled rule sets and rule files are data: validated when loaded, never pasted into code (issue 12, point 1).

A compiled JSON rule set is checked against the format's JSON Schema (shipped as package data) and the
checker's semantic passes before anything reads it; a bad one is refused with one sentence naming the
JSON path. Generated scoring code maps every operator, function and builtin through closed tables, so
even an IR built by hand (never validated) cannot put text of its own into the source. The known
tricks — dunder names, format strings, Python text in any string field, `__import__`, template syntax
in prose — are tried on `.pai` files and on JSON; each is refused or inert (a sentinel file is never
created, a template expression is never evaluated).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import random
import re

import jsonschema
import pytest
from conftest import ROOT
from paili.dsl.compiler import compile_file, compile_text
from paili.dsl.ruleset_schema import SCHEMA_PATH, schema_text
from paili.runtime.codegen import Gen, Names, Refused
from paili.runtime.ir import expr as E
from paili.runtime.ir.jsonvalidate import SchemaError, Validator
from paili.runtime.ir.serialize import FormatError, dumps, loads, schema
from paili.runtime.rules import Rules

RULES = sorted((ROOT / "rules").glob("*.pai"))

MINI = """\
variant demo "示例麻将" {
  doc "说明"
}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; attrs 风 }
  honor 中 { code "7z"; attrs 箭 }
  attr 幺九 = t.rank in [1, 9] or t.honor
}
table { players 2; hand 13 }
option 清一色 bool = false
context 加倍次数 int = 0 { range 0..8 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 碰碰和 {
  value 6 番
  when count(m in melds: m.triplet) == 4 and 1 <= len(tiles) <= 18
}
pattern 清一色 { value 24 番; when len(suits) == 1 and all(t in tiles: not t.honor) and option.清一色 }
pattern 加倍 { value = 2 * 加倍次数; unit 番; label "加倍{cn(加倍次数)}次"; when 加倍次数 > 0 }
pattern 大数 { value = max(sum(m in melds: m.rank) // 3, 1); unit 番; when any(m in runs: m.start % 2 == 0) }
score = 番 * 2 ^ 加倍次数
"""
HAND = dict(hand="111m 222m 333m 东东东 5m", win="5m", context={"加倍次数": 1})


@pytest.fixture(scope="module")
def mini_doc():
    res = compile_text(MINI, "mini.pai")
    assert res.ok, res.render()
    return json.loads(dumps(res.ruleset))


def _leaves(o, path=()):
    """(path, value) of every string leaf of a JSON document."""
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _leaves(v, path + (i,))
    elif isinstance(o, str):
        yield path, o


def _set(doc, path, value):
    d = copy.deepcopy(doc)
    o = d
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value
    return d


def _node_field(doc, path) -> tuple[str, str]:
    """(class, field) a leaf belongs to: the nearest enclosing node's "_" and the key under it."""
    o, cls, fld = doc, "", ""
    for k in path:
        if isinstance(o, dict):
            cls, fld = o.get("_", cls), k  # a list's items belong to the field holding the list
        o = o[k]
    return cls, str(fld)


def _score_all_ways(rs, sentinel) -> None:
    """Load, score, list waits and score with the reference: whatever happens, no code of the file runs."""
    try:
        rules = Rules(rs)
        rules.score(**HAND)
        rules.waits(hand="111m 222m 333m 东东东 5m", context={"加倍次数": 1})
    except Exception:  # noqa: BLE001 - a refused hand or an evaluation error is fine; running the payload is not
        pass
    assert not sentinel.exists()


def test_shipped_schema_is_current():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), \
        "runtime/ir/schema is out of date: run `python -m paili.dsl.ruleset_schema`"


@pytest.mark.parametrize("path", RULES, ids=[p.stem for p in RULES])
def test_bundled_rule_sets_match_the_schema(path):
    doc = json.loads(dumps(compile_file(path).ruleset))
    jsonschema.Draft202012Validator.check_schema(schema())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    Validator(schema()).validate(doc)


POOL = [None, True, 7, -1, 1.5, "", "x", "__class__", [], [1], {}, {"_": "Num", "text": "1"}, {"_": "Nope"},
        {"_": "Name", "name": "x", "ref": "builtin:melds"}, {"_": "Exec", "code": "1"}]


def test_validator_agrees_with_jsonschema(mini_doc):
    """Seeded mutations of a compiled rule set: the stdlib validator and jsonschema accept the same ones."""
    rng = random.Random(12)
    js = jsonschema.Draft202012Validator(schema())
    mine = Validator(schema())
    paths = []

    def walk(o, p=()):
        paths.append(p)
        if isinstance(o, dict):
            for k, v in o.items():
                walk(v, p + (k,))
        elif isinstance(o, list):
            for i, v in enumerate(o):
                walk(v, p + (i,))
    walk(mini_doc)
    paths = [p for p in paths if p]
    agreed = {True: 0, False: 0}
    for _ in range(80):
        d = _set(mini_doc, rng.choice(paths), copy.deepcopy(rng.choice(POOL)))
        ok_js = js.is_valid(d)
        try:
            mine.validate(d)
            ok_mine = True
        except SchemaError:
            ok_mine = False
        assert ok_mine == ok_js, d
        agreed[ok_js] += 1
    assert agreed[False] > 20 and agreed[True] > 3  # both outcomes were exercised


@pytest.mark.parametrize("field,payload,message", [
    (("Compare", "ops"), "== __import__('os') ==", "unknown operator"),
    (("Binary", "op"), "+ __import__('os').getpid() +", "unknown operator"),
    (("Comp", "func"), "__import__('os').system", "unknown comprehension"),
    (("Call", "func"), "eval", "unknown function"),
    (("Num", "text"), "1 if __import__('os') else 2", "not a valid number"),
])
def test_a_word_outside_the_language_is_refused_naming_its_path(mini_doc, field, payload, message):
    cls, fld = field
    path = next(p for p, _ in _leaves(mini_doc) if _node_field(mini_doc, p) == field)
    bad = _set(mini_doc, path, payload)
    with pytest.raises(FormatError) as got:
        loads(json.dumps(bad))
    text = str(got.value)
    want = "ruleset" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path[1:])
    assert text.startswith(want + ": " + message), text
    assert "\n" not in text and len(text) < 200


def test_references_must_name_what_the_rule_set_declares(mini_doc):
    for path, v in _leaves(mini_doc):
        if path[-1] == "ref" and v.startswith("pattern:"):
            with pytest.raises(FormatError, match=r"\.ref: the rule set declares no pattern '没有'"):
                loads(json.dumps(_set(mini_doc, path, "pattern:没有")))
        if path[-1] == "ref" and v.startswith("binder:"):
            with pytest.raises(FormatError, match="is not bound by an enclosing comprehension"):
                loads(json.dumps(_set(mini_doc, path, "binder:zz")))
        if path[-1] == "ref" and v.startswith("builtin:"):
            with pytest.raises(FormatError, match="unknown builtin"):
                loads(json.dumps(_set(mini_doc, path, "builtin:__class__")))


def _payloads(sentinel) -> list[str]:
    cmd = f"open({str(sentinel)!r}, 'w').write('ran')"
    return [
        f"__import__('builtins').exec({cmd!r})",
        f"x') or {cmd} or ('",
        f"\") or {cmd} or (\"",
        f"\n{cmd}\n",
        "__class__", "{0.__class__.__mro__}%(x)s%s",
        "{{ 7*7 }}{% for x in range(3) %}{{ x }}{% endfor %}",
        f"{{{{ cycler.__init__.__globals__.os.system({cmd!r}) }}}}",
    ]


def test_python_text_in_every_string_field_of_json_is_refused_or_inert(mini_doc, tmp_path):
    sentinel = tmp_path / "sentinel"
    seen: set[tuple[str, str]] = set()
    refused = inert = 0
    for path, _ in _leaves(mini_doc):
        key = _node_field(mini_doc, path)
        if key in seen:
            continue
        seen.add(key)
        for payload in _payloads(sentinel)[::2]:  # code, a quote break, a dunder, a template (the rest: .pai)
            try:
                rs = loads(json.dumps(_set(mini_doc, path, payload), ensure_ascii=False))
            except FormatError as exc:
                assert "\n" not in str(exc)
                refused += 1
                continue
            inert += 1
            _score_all_ways(rs, sentinel)
    assert len(seen) > 30 and refused > 0 and inert > 0


def test_generated_code_never_pastes_ir_text(tmp_path):
    """An IR built in Python (never validated) with code in an operator, a function or a builtin name:
    the code generator refuses the word, and scoring (by the closures) never runs it."""
    sentinel = tmp_path / "sentinel"
    cmd = f"open({str(sentinel)!r}, 'w').write('ran')"
    rs = compile_text(MINI, "mini.pai").ruleset
    p = rs.patterns[0]
    bad_when = [
        E.Compare((f"== __import__('builtins').exec({cmd!r}) ==",), (E.Num("1"), E.Num("1"))),
        E.Comp(f"__import__('builtins').exec({cmd!r}) or max", ("m",), E.Name("melds", ref="builtin:melds"),
               E.Bool(True)),
        E.Call(f"(lambda *a: __import__('builtins').exec({cmd!r}))", (E.Num("1"),)),
        E.Compare(("==",), (E.Name("x", ref=f"builtin:melds.__class__ or exec({cmd!r})"), E.Num("1"))),
        E.Binary(f"+ exec({cmd!r}) +", E.Num("1"), E.Num("2")),
    ]
    for k, w in enumerate(bad_when):
        if k != 3:  # a word no table maps
            with pytest.raises(Refused):
                Gen({}, Names()).ex(w, 1)
        rs2 = dataclasses.replace(rs, patterns=(dataclasses.replace(p, when=w),) + rs.patterns[1:])
        try:
            fast = Rules(rs2).fast
        except KeyError:  # the closures look the word up in their own table: not found, refused
            continue
        assert fast is None or "exec(" not in fast.source  # the builtin is not in the reading table either
        _score_all_ways(rs2, sentinel)


TRICKS_PAI = [
    # names that are Python's own
    ("pattern 碰碰和 {", "pattern __import__ {"),
    ("pattern 清一色 {", "pattern __class__ {"),
    ("option 清一色 bool = false", "option __globals__ bool = false"),
    # format strings and Python text in a label, a title and prose
    ('label "加倍{cn(加倍次数)}次"', 'label "{__import__(\'os\').system(\'x\')}{0.__class__}%s"'),
    ('variant demo "示例麻将"', 'variant demo "{{ 7*7 }}{% if true %}是{% endif %}"'),
    ('doc "说明"', 'doc "{{ 7*7 }} {% for x in [1] %}{{ x }}{% endfor %} {0.__class__} %(a)s __import__(\'os\')"'),
]


@pytest.mark.parametrize("old,new", TRICKS_PAI)
def test_tricks_in_rule_files_are_refused_or_inert(old, new, tmp_path):
    from paili.dsl.pages.site import render_variant

    src = MINI.replace(old, new)
    assert src != MINI
    res = compile_text(src, "tricks.pai")
    if not res.ok:
        assert all(d.code != "E900" for d in res.diagnostics), res.render()
        return
    sentinel = tmp_path / "sentinel"
    _score_all_ways(res.ruleset, sentinel)
    # through JSON too
    _score_all_ways(loads(dumps(res.ruleset)), sentinel)
    f = tmp_path / "tricks.pai"
    f.write_text(src, encoding="utf-8")
    page = render_variant(f, tmp_path)
    for text in (page.html, page.md):
        # the tile faces' symbol ids are hashes and may hold any digits: they are not rule text
        text = re.sub(r'(id="|href="#)[^"]*"', "", text)
        assert "49" not in text  # a template expression in rule text is never evaluated
        if "{{ 7*7 }}" in new:
            assert "{{ 7*7 }}" in text or "{{ 7\\*7 }}" in text  # shown as written (Markdown escapes `*`)


def test_mutated_json_rule_sets_seeded_sample():
    """A seeded sample of bench/fuzz_json.py (10,000 cases): every mutation refused with one sentence or
    run, never a traceback, a hang or a code execution."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import fuzz_json

    counts, failures = fuzz_json.fuzz(150, seed=7, bundled=False)
    assert not failures, failures
    assert counts["refused"] > 80 and counts["ran"] > 10
    assert counts["traceback"] == counts["hang"] == counts["executed"] == 0
    # files edited past a stated limit are among them, refused for it (runtime/ir/limitcheck.py)
    assert sum(v for k, v in counts.items() if k.startswith("limit:refused E7")) >= 5


def test_rule_file_text_is_escaped_in_markdown_pages_as_in_html(tmp_path):
    """`<script>` (and Markdown syntax) in a title, a group heading, a table cell and prose reaches the
    Markdown page as text, as it does the HTML page (issue 12, point 7)."""
    from paili.dsl.pages.site import render_variant

    src = (MINI.replace('variant demo "示例麻将"', 'variant demo "<script>alert(1)</script>标题"')
           .replace('option 清一色 bool = false',
                    'option 清一色 bool = false { doc "<script>x</script> | [链接](javascript:alert(1)) *粗*" }')
           .replace("pattern 碰碰和 {\n", 'pattern 碰碰和 {\n  group "<img src=x onerror=alert(1)>组"\n'))
    res = compile_text(src, "page.pai")
    assert res.ok, res.render()
    f = tmp_path / "page.pai"
    f.write_text(src, encoding="utf-8")
    page = render_variant(f, tmp_path)
    import re

    for text in (page.md, page.html):  # no payload as markup: each `<` of it escaped (`\<`, `&lt;`)
        assert not re.search(r"(?<!\\)<(script>alert|script>x|img src=x)", text)
    md = page.md
    assert "\\<script\\>alert(1)\\</script\\>标题" in md  # the title, as written
    assert "\\<img src=x onerror=alert(1)\\>组" in md  # the group heading
    row = next(line for line in md.splitlines() if line.startswith("| **清一色**"))
    assert "\\<script\\>x\\</script\\> \\| \\[链接\\](javascript:alert(1)) \\*粗\\*" in row  # one cell, inert
    assert len(re.split(r"(?<!\\)\|", row)) == 6  # four cells: the text's own `|` does not split the row


def test_fields_and_declaration_numbers_of_an_edited_file_are_checked(mini_doc):
    d = copy.deepcopy(mini_doc)
    d["ruleset"]["tiles"]["kinds"][0]["copies"] = {"_": "TileLit", "text": "东", "tiles": ["东"]}
    with pytest.raises(FormatError, match=r"^ruleset\.tiles\.kinds\[0\]\.copies: a TileLit cannot be this number"):
        loads(json.dumps(d))
    path = next(p for p, v in _leaves(mini_doc) if p[-1] == "name" and v == "triplet")
    with pytest.raises(FormatError, match=r"\.name: no value of the language has the field '__class__'$"):
        loads(json.dumps(_set(mini_doc, path, "__class__")))


def _n(cls: str, **fields) -> dict:
    return {"_": cls, "span": ["mini.pai", 1, 1, 1, 2], **fields}


_M = _n("Name", name="m", ref="binder:m")
_ONE = _n("Num", text="1")
_LIST = _n("ListLit", items=[_ONE])
# Type confusions an edited file can make that the schema and the name checks let through (what
# bench/fuzz_json.py found reaching the evaluator as TypeError): each is refused at load, naming the
# JSON path of the node, as the compiler would have refused the source.
TYPE_CONFUSIONS = [
    ("an ordering of two melds", ("patterns", 0, "when", "left", "operands", 0, "body"),
     _n("Compare", ops=["<"], operands=[_M, _M]), r"\.body\.operands\[0\]: expected a number, but this is a meld$"),
    ("a number plus a list", ("patterns", 2, "value"), _n("Binary", op="+", left=_ONE, right=_LIST),
     r"^ruleset\.patterns\[2\]\.value\.right: expected a number, but this is a list of whole number$"),
    ("none times a number", ("patterns", 2, "value"), _n("Binary", op="*", left=_n("NoneLit"), right=_ONE),
     r"^ruleset\.patterns\[2\]\.value\.left: expected a number, but this is none$"),
    ("a number at most a list", ("patterns", 0, "when", "right"),
     _n("Compare", ops=["<="], operands=[_ONE, _LIST]), r"\.right\.operands\[1\]: expected a number"),
    ("a condition that is a number", ("patterns", 1, "when"), _ONE,
     r"^ruleset\.patterns\[1\]\.when: expected true/false, but this is a whole number$"),
    ("a field of a tile that a meld has", ("patterns", 0, "when", "left", "operands", 0, "body"),
     _n("Attr", obj=_n("Name", name="tiles", ref="builtin:tiles"), name="triplet"), r"has no fields"),
    ("a list that mixes types", ("patterns", 2, "value"), _n("ListLit", items=[_ONE, _n("Bool", value=True)]),
     r"a list mixes items of different types"),
]


@pytest.mark.parametrize("what,path,node,message", TYPE_CONFUSIONS, ids=[t[0] for t in TYPE_CONFUSIONS])
def test_type_confusions_of_an_edited_file_are_refused_at_load(mini_doc, what, path, node, message):
    bad = _set(mini_doc, ("ruleset",) + path, node)
    with pytest.raises(FormatError, match=message) as exc:
        loads(json.dumps(bad))
    assert "\n" not in str(exc.value)


def test_every_compiled_rule_set_passes_the_load_type_check():
    """The load check infers the compiler's types: whatever compiles loads (the bundled files, the test
    and bench files; the seeded fuzz sample of tests/test_fuzz_rules.py reads 2,000 more back)."""
    for path in sorted((ROOT / "rules").glob("*.pai")) + sorted((ROOT / "bench" / "rules").glob("*.pai")):
        res = compile_file(path)
        assert res.ok, path
        loads(dumps(res.ruleset))  # no FormatError


def test_sizes_of_an_edited_file_are_the_compilers_limits(mini_doc):
    """Copies, players and the hand size past the limits of runtime/limits.py (E706 when compiled) are
    refused at load, naming the field, before the tiles are set up."""
    d = copy.deepcopy(mini_doc)
    d["ruleset"]["tiles"]["suits"][0]["copies"] = {"_": "Num", "span": ["mini.pai", 1, 1, 1, 2], "text": "65"}
    with pytest.raises(FormatError, match=r"^ruleset\.tiles\.suits\[0\]\.copies: a tile kind has at most 64 copies$"):
        loads(json.dumps(d))
    # a number too long for any number literal is refused as the compiler refuses it, before its value is read
    d["ruleset"]["tiles"]["suits"][0]["copies"]["text"] = "1" * 50
    with pytest.raises(FormatError, match=r"^ruleset\.tiles\.suits\[0\]\.copies: a number of 50 digits; a number "
                       r"has at most 30 \(E702\)$"):
        loads(json.dumps(d))
    d = copy.deepcopy(mini_doc)
    d["ruleset"]["table"]["hand"] = 10 ** 9
    with pytest.raises(FormatError, match=r"^ruleset\.table\.hand: "):
        loads(json.dumps(d))


# (the recorded batch setups beside them are not rule sets: tests/test_batch_startup.py checks them)
COMPILED = sorted(p for p in (ROOT / "rules" / "compiled").glob("*.json")
                  if p.name != "index.json" and not p.name.endswith(".batch.json"))


@pytest.mark.parametrize("path", COMPILED, ids=[p.stem for p in COMPILED])
def test_every_committed_compiled_file_matches_the_schema_and_names_no_machine_path(path):
    """The files the package ships (rules/compiled/*.json, as `paili docs` wrote them), not a fresh compile:
    each rule set validates against the shipped JSON Schema, and it names its source by the file's name
    only — no folder of the machine that built it."""
    from test_portable import ABSOLUTE

    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert sorted(doc) == ["format", "ruleset", "version"]
    shipped = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(shipped)
    jsonschema.Draft202012Validator(shipped).validate(doc)
    Validator(shipped).validate(doc)
    assert str(ROOT) not in text and not ABSOLUTE.search(text) and "\\\\" not in text
    files = set()

    def walk(o):
        if isinstance(o, dict):
            span = o.get("span")
            if isinstance(span, list) and span and isinstance(span[0], str):  # [file, line, col, …]
                files.add(span[0])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(doc["ruleset"])
    # every span names the rule file by its bare name (or the compiler's builtins)
    assert files - {"<builtin>"} == {f"{path.stem}.pai"} and doc["ruleset"]["source"] == f"{path.stem}.pai", files


def test_the_schema_check_of_the_committed_files_is_not_vacuous():
    assert [p.stem for p in COMPILED] == sorted(p.stem for p in RULES)
    doc = json.loads(COMPILED[0].read_text(encoding="utf-8"))
    doc["ruleset"]["variant"] = 7  # not what the schema allows
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema()).validate(doc)
