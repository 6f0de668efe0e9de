"""The native batch path (runtime/native/src/batch/) against the Python reference (runtime/batch.py): each
line read to the same arguments or refused with the same sentence, each value written to the same bytes
as json.dumps(ensure_ascii=False), whole batches of every rule file giving the same output and exit
status. The broad run is bench/batch_lines.py; these are seeded samples of it and targeted cases."""
from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.batch import NESTED, escape_surrogates, output_line, parse_line, write_lines
from paili.runtime.hand import HandError
from paili.runtime.limits import MAX_BATCH_DEPTH, MAX_BATCH_LINE, MAX_NUMBER_DIGITS

sys.path.insert(0, str(ROOT / "bench"))
import batch_lines  # noqa: E402
import gen_pytext_tables  # noqa: E402
import native_diff  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
TRAILING = sys.version_info >= (3, 13)


def read_native(raw: bytes):
    return backend.native_module().batch_read_line(raw, MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, TRAILING)


@needs_native
def test_a_seeded_corpus_of_broken_lines_reads_as_the_reference_reads_it():
    n, diffs = batch_lines.check_lines(4000, seed=15)
    assert n == 4000
    assert diffs == []


# values whose text is easy to get wrong: Python's float repr (shortest digits, a tie rounded to the even
# digit, the switch to exponents), big ints, the characters json.dumps escapes and those it does not
EDGE = [1e16, 1e15, 9999999999999998.0, 1e-05, 0.0001, -0.0, 0.0, 0.1, 1 / 3, 5e-324, 1.7976931348623157e308,
        -834425533142382.2, 185316404891726.62, 2.0 ** 60, 123456789012345.67, float("inf"), float("-inf"),
        float("nan"), 10 ** 100, -(10 ** 100) + 1, 2 ** 63, -(2 ** 63) - 1, 2 ** 63 - 1, True, False, None,
        "\x00\x01\x08\x09\x0a\x0b\x0c\x0d\x1f\x20\x7f\x80\u2028\u2029", '"\\/', "番种 😀", "\ud800", "a\udfffb",
        "\ud83d\ude00", {"": [], "k": {}}, [[[]]], {"\ud800": "\udc00"}]


@needs_native
def test_values_are_written_byte_for_byte_as_json_dumps_writes_them():
    n, diffs = batch_lines.check_values(3000, seed=15, extra=EDGE)
    assert n == 3000 + len(EDGE)
    assert diffs == []
    # a lone surrogate is written as its escape, which reads back as the same str
    assert json.loads(backend.native_module().batch_dumps("a\ud800")) == "a\ud800"


def _plain(v):
    return int(v) if isinstance(v, Fraction) and v.denominator == 1 else v


def batch_of(path, n: int, seed: int) -> list[dict]:
    """n seeded batch items of a rule file (bench/native_diff.py `rules_case`: winning, near-winning,
    with wildcards, melds and room options)."""
    ref = load(path, backend="python")
    rnd = random.Random(seed)
    items = []
    while len(items) < n:
        case = native_diff.rules_case(ref, rnd)
        if case is not None:
            hand, melds, win, context, self_drawn = case
            items.append({"hand": hand, "melds": melds, "win": win, "self_drawn": self_drawn,
                          "set": {k: _plain(v) for k, v in context.items()}})
    return items


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES[:-2], ids=lambda p: p.name)  # the bundled files and joker.pai
def test_every_rule_files_results_are_written_byte_for_byte(path):
    rules = load(path, backend="native")
    dumps = backend.native_module().batch_dumps
    written = 0
    for item in batch_of(path, 100, seed=15):
        try:
            res = rules.score(item["hand"], item["melds"], item["win"], item["self_drawn"], item["set"])
        except (HandError, ValueError):
            continue
        obj = res.to_json()
        assert dumps(obj) == output_line(obj)
        written += 1
    assert written >= 20


def run_lines(path, data: bytes, backend_name: str) -> tuple[int, str, dict]:
    rules = load(path, backend=backend_name)
    out = io.StringIO()
    failed, counts = write_lines(rules, io.BytesIO(data), out)
    return failed, out.getvalue(), counts


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES[:-2], ids=lambda p: p.name)
def test_a_batch_of_every_rule_file_gives_the_reference_output(path):
    rnd = random.Random(16)
    lines = [json.dumps(x, ensure_ascii=rnd.random() < 0.3).encode() for x in batch_of(path, 30, seed=16)]
    lines += [batch_lines.random_line(rnd).rstrip(b"\n") for _ in range(30)]
    lines += [b"", b"  \t", b"x" * (MAX_BATCH_LINE + 1), b"y" * MAX_BATCH_LINE, b"\xff"]
    rnd.shuffle(lines)
    data = b"\n".join(lines) + b"\n"
    failed, text, counts = run_lines(path, data, "native")
    want_failed, want_text, want_counts = run_lines(path, data, "python")
    assert text == want_text
    assert failed == want_failed > 0
    # the native scorer of whole hands takes some lines, the reference the rest: the same lines scored
    assert counts["native"] + counts["reference"] == want_counts["reference"] > 0 and want_counts["native"] == 0


def test_nesting_is_refused_where_it_passes_the_bound_on_every_python():
    deep = MAX_BATCH_DEPTH
    with pytest.raises(ValueError, match="each line must be a JSON object"):
        parse_line("[" * deep + "]" * deep + "\n")
    with pytest.raises(ValueError, match=NESTED):
        parse_line("[" * (deep + 1) + "]" * (deep + 1) + "\n")
    with pytest.raises(ValueError, match=NESTED):  # not closed: still refused where it opens
        parse_line('{"set": ' + "[" * 100_000)
    # a mistake before the bound is the one named; brackets inside a string do not nest
    with pytest.raises(ValueError, match=r"Expecting ',' delimiter at column 4"):
        parse_line("[1 2" + "[" * 100)
    with pytest.raises(ValueError, match="a number has more than"):
        parse_line("[" + "1" * 40 + "," + "[" * 100)
    with pytest.raises(ValueError, match="`hand` must be a string"):
        parse_line(json.dumps({"hand": 1, "win": "[" * 100}))
    with pytest.raises(ValueError, match=r"Expecting ',' delimiter at column 34"):
        parse_line("[" * 32 + "1[" + "]" * 40)  # the 33rd bracket never opens: the reader wants a comma


@needs_native
def test_nesting_is_refused_at_the_same_place_natively():
    for text in ["[" * 32 + "]" * 32, "[" * 33 + "]" * 33, '{"set": ' + "[" * 100_000, "[1 2" + "[" * 100,
                 "[" + "1" * 40 + "," + "[" * 100, "[" * 32 + "1[" + "]" * 40, '["' + "[" * 50 + '"]',
                 '{"a": ' * 32 + "1" + "}" * 32, '{"a": ' * 33 + "1" + "}" * 33, "[" * 31 + "{" + '"k": [1]}]']:
        raw = text.encode() + b"\n"
        assert read_native(raw) == batch_lines.reference(raw), text[:60]


@needs_native
def test_unicode_tables_are_those_of_this_python():
    not_printable, space = backend.native_module().batch_tables()
    assert [tuple(r) for r in not_printable] == gen_pytext_tables.ranges(lambda ch: not ch.isprintable())
    assert [tuple(r) for r in space] == gen_pytext_tables.ranges(str.isspace)


@needs_native
def test_keys_are_quoted_as_repr_quotes_them():
    rnd = random.Random(3)
    samples = ["", "it's", 'say "hi"', "both '\"", "\\", "\t\n\r\x00\x7f\x85\xa0\xad", "\ud800", "\U000e0001",
               "\u200b\u2028\U0010ffff", "白😀"]
    samples += ["".join(chr(rnd.randrange(0x110000)) for _ in range(5)) for _ in range(2000)]
    native_repr = backend.native_module().batch_repr
    assert [native_repr(s) for s in samples] == [repr(s) for s in samples]


@needs_native
def test_a_python_error_that_is_not_a_refusal_stops_the_run():
    def scorer(*args):
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError, match="a bug"):
        backend.native_module().run_batch(io.BytesIO(b'{"hand": "1m"}\n'), io.StringIO().write, lambda: scorer,
                                          (HandError, ValueError), MAX_BATCH_LINE, MAX_BATCH_DEPTH,
                                          MAX_NUMBER_DIGITS, 1024)


@needs_native
def test_each_context_is_numbered_once_and_the_reference_keeps_its_environment(monkeypatch):
    rules = load(ROOT / "rules" / "baijindao.pai", backend="native")
    built = []
    env_for = rules.env_for
    monkeypatch.setattr(rules, "env_for", lambda ctx: built.append(dict(ctx or {})) or env_for(ctx))
    hand = {"hand": "666m 88m 东东", "melds": ["碰:222m", "碰:444m"], "win": "8m"}
    data = "".join(json.dumps({**hand, "set": {"加倍次数": n % 2}}) + "\n" for n in range(20)).encode()
    failed, counts = write_lines(rules, io.BytesIO(data), io.StringIO())
    # the native scorer of whole hands takes every line (its melds checked by the Python side once)
    assert failed == 0 and counts == {"native": 20, "reference": 0}
    assert built == [{"加倍次数": 0}, {"加倍次数": 1}]  # each distinct `set` built once for the batch


def test_a_lone_surrogate_in_an_error_is_written_escaped(tmp_path):
    f = tmp_path / "hands.jsonl"
    f.write_text('{"hand": "\\ud800 1m"}\n{"x\\udfff": 1}\n', encoding="utf-8")
    outs = []
    for name in ("python", "auto"):
        p = subprocess.run([sys.executable, "-m", "paili", "score", "baijindao", "--batch", str(f), "--json"],
                           capture_output=True, cwd=ROOT, env={**os.environ, "PAILI_BACKEND": name})
        assert p.returncode == 1 and b"Traceback" not in p.stderr, p.stderr
        rows = [json.loads(x) for x in p.stdout.decode("utf-8").splitlines()]
        assert "\ud800" in rows[0]["error"] and rows[1]["error"].startswith("line 2: unknown key 'x\\udfff'")
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    assert escape_surrogates('"a\ud800"') == '"a\\ud800"'


@needs_native
def test_the_reference_is_made_only_when_a_line_needs_it():
    made = []

    def make():
        made.append(1)
        return lambda *args: json.dumps({"args": args})

    def run(data: bytes):
        out = io.StringIO()
        got = backend.native_module().run_batch(io.BytesIO(data), out.write, make, (HandError, ValueError),
                                                MAX_BATCH_LINE, MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, 1024)
        return got, out.getvalue().splitlines()

    (failed, native_n, reference_n), rows = run(b'\n[1]\n{"x": 1}\n')
    assert made == [] and (failed, native_n, reference_n) == (2, 0, 0) and len(rows) == 2
    (failed, native_n, reference_n), rows = run(b'{"hand": "1m"}\n{"hand": "2m", "set": {"k": 1.5}}\n')
    assert made == [1] and (failed, native_n, reference_n) == (0, 0, 2)
    assert json.loads(rows[1]) == {"args": ["2m", [], None, False, {"k": 1.5}]}


def test_stats_name_the_lines_each_scorer_scored(tmp_path):
    f = tmp_path / "hands.jsonl"
    f.write_text('{"hand": "666m 88m 东东", "melds": ["碰:222m", "碰:444m"], "win": "8m"}\n[1]\n\n', encoding="utf-8")
    # the reference scores the hand on the Python backend; the native scorer of whole hands, where built
    want = {"python": {"native": 0, "reference": 1}}
    if backend.available():
        want["native"] = {"native": 1, "reference": 0}
    cmd = [sys.executable, "-m", "paili", "score", "baijindao", "--batch", str(f), "--json", "--stats"]
    for name, lines in want.items():
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PAILI_BACKEND": name})
        assert p.returncode == 1, p.stderr
        assert json.loads(p.stderr.splitlines()[-1])["stats"]["batch_lines"] == lines
        assert len(p.stdout.splitlines()) == 2
