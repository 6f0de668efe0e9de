"""The native batch reader and writer against the Python reference (issue 15, point 3), on seeded
corpora: every line read to the same arguments or refused with the same sentence, every value written to
the same bytes.

    python bench/batch_lines.py [--lines 100000] [--values 20000] [--seed 1]

- lines: batch lines of real hands and broken ones — bytes edited, tokens of JSON's corner cases put in
  (escapes and lone surrogates, NaN / Infinity, long and odd numbers, white space Python and JSON disagree
  on, nesting past MAX_BATCH_DEPTH, repeated keys, wrong types, keys `repr` must quote), cut short,
  non-UTF-8 bytes — read by `_native.batch_read_line` and by runtime/batch.py (`parse_line` after the
  decoding and blank-line test of `score_lines`); any difference is printed.
- values: JSON values as results hold them (floats of every magnitude and random bit patterns, big ints,
  control characters, lone surrogates, nesting) written by `_native.batch_dumps` and by
  runtime/batch.py `output_line` (json.dumps with ensure_ascii=False).

`check_lines` and `check_values` are what tests/test_native_batch.py runs on a small seeded sample.

    python bench/batch_lines.py --speed FILE [--copies 50]

The driver's own cost: FILE's lines (repeated) read, handed to a scorer that returns a fixed line, and
written, by `_native.run_batch` and by the Python reading (`parse_line`, `output_line`); CPU seconds.
"""
from __future__ import annotations

import argparse
import json
import random
import struct
import sys

from paili.runtime.backend import native_module  # noqa: E402
from paili.runtime.batch import output_line, parse_line  # noqa: E402
from paili.runtime.hand import HandError  # noqa: E402
from paili.runtime.limits import MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS  # noqa: E402

VALID = [
    {"hand": "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", "win": "5m"},
    {"hand": "1m2m3m 4p5p6p 7s8s9s 东东东 白", "win": "白", "self_drawn": True},
    {"hand": "2m3m4m 5p5p", "melds": ["碰:东东东", "吃:1s2s3s"], "win": "5p", "set": {"圈风": "东", "立直": True}},
    {"hand": "", "melds": [], "win": None, "self_drawn": False, "set": {}},
    {"set": {"a": 1, "b": 1.5, "c": -0.0, "d": "x", "e": False, "f": 12345678901234567890123}},
]
TOKENS = ['"', "\\", "\\u", "\\ud800", "\\udc00", "\\ud800\\udc00", "\\ud83d\\ude00", "\\u00e9", "\\uZZZZ", "\\x",
          "[", "]", "{", "}", ",", ":", "NaN", "Infinity", "-Infinity", "-Inf", "1e999", "-1e999", "1" * 31,
          "-" + "1" * 30, "1" * 30, "0", "-0", "-", "01", "1.", ".5", "1e", "1e+", "1E-3", "0.1e5", "tru", "nul",
          "fals", "true", "null", " ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000",
          "\ufeff", "\x00", "\x01", "\x1f", "\x7f", "é", "白", "😀", '"hand"', '"melds"', '"set"', '"win"',
          '"self_drawn"', '"x"', "'", "[" * 40, "{\"a\":" * 40, "[" * 32, "[" * 33]
BAD_BYTES = [b"\xff", b"\xc3", b"\xe4\xb8", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x80"]
WRONG = [1, -2, 1.5, True, None, "s", [], ["a", 1], {}, {"k": [1]}, {"k": None}, {"k": float("inf")}]


def _keyish(rng: random.Random) -> str:
    return rng.choice(["hand", "melds", "x", "it's", 'say "hi"', "both '\"", "tab\there", "é", "\u200b", "\x7f",
                       "\ud800", "\U0001f600", "\x85", "Ω", "\U000e0001", "\\"])


def random_line(rng: random.Random) -> bytes:
    item = json.loads(json.dumps(rng.choice(VALID)))
    roll = rng.random()
    if roll < 0.25:  # a wrong type or key
        key = rng.choice(["hand", "melds", "win", "self_drawn", "set"] + [_keyish(rng)])
        if key == "set" and rng.random() < 0.5:
            item["set"] = {_keyish(rng): rng.choice(WRONG + ["v", 2, 2.5])}
        else:
            item[key] = rng.choice(WRONG + ["1m"])
        if rng.random() < 0.2:
            item = rng.choice(WRONG)
        text = json.dumps(item, ensure_ascii=rng.random() < 0.5)
    else:
        text = json.dumps(item, ensure_ascii=rng.random() < 0.3)
    if roll >= 0.15:
        for _ in range(rng.choice([1, 1, 2, 3])):
            i = rng.randrange(len(text) + 1)
            kind = rng.random()
            if kind < 0.5:
                text = text[:i] + rng.choice(TOKENS) + text[i:]
            elif kind < 0.7:
                text = text[:i] + text[i + rng.randrange(1, 4):]
            elif kind < 0.85:
                text = text[:i]
            else:
                text = text[:i] + rng.choice(TOKENS) + text[i + 1:]
    if rng.random() < 0.3:
        text = rng.choice([" ", "\t", "\r", "\u3000", ""]) + text + rng.choice(["", " ", "\r", "\x0c"])
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate put in raw: not UTF-8, as on disk
    if rng.random() < 0.05:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice(BAD_BYTES) + data[i:]
    return data + (b"\n" if rng.random() < 0.9 else b"")


def reference(raw: bytes):
    """What runtime/batch.py `score_lines` makes of one line: None (skipped), its sentence, or its args."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"the line is not UTF-8 text (byte {exc.start + 1})"
    if not text.strip():
        return None
    try:
        return parse_line(text)
    except (HandError, ValueError) as exc:
        return str(exc)


def _typed(v):
    """A value with its type written out (True, 1 and 1.0 are equal in Python, not here; nor 0.0, -0.0)."""
    if isinstance(v, dict):
        return ("dict", [(k, _typed(x)) for k, x in v.items()])
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [_typed(x) for x in v])
    return (type(v).__name__, repr(v))


def check_lines(n: int, seed: int) -> tuple[int, list]:
    native = native_module()
    rng = random.Random(seed)
    diffs = []
    for _ in range(n):
        raw = random_line(rng)
        want = reference(raw)
        got = native.batch_read_line(raw, MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, sys.version_info >= (3, 13))
        if _typed(got) != _typed(want):
            diffs.append((raw, want, got))
    return n, diffs


def random_float(rng: random.Random) -> float:
    roll = rng.random()
    if roll < 0.3:
        return struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
    if roll < 0.5:
        return rng.choice([0.0, -0.0, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.1, 1 / 3, 5e-324,
                           1.7976931348623157e308, 2.0 ** 53, -1.5, 123456789.125, float("inf"), float("nan")])
    return rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 4 and roll < 0.25:
        return {"".join(rng.choice(["a", "番", "\n", "\x00", "\x1f", '"', "\\", "\ud800", "\udfff", "😀", "\x7f",
                                    "\u2028"]) for _ in range(rng.randrange(4))): random_value(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    if depth < 4 and roll < 0.4:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll < 0.6:
        return random_float(rng)
    if roll < 0.75:
        return rng.choice([0, -1, 2 ** 63 - 1, -(2 ** 63), 2 ** 63, -(2 ** 64), 10 ** 100 - 1, -(10 ** 99)])
    if roll < 0.85:
        return "".join(chr(rng.choice([rng.randrange(0x20), rng.randrange(0x80), rng.randrange(0x110000)]))
                       for _ in range(rng.randrange(6)))
    return rng.choice([True, False, None])


def check_values(n: int, seed: int, extra: list = ()) -> tuple[int, list]:
    native = native_module()
    rng = random.Random(seed)
    diffs = []
    for v in [*extra, *(random_value(rng) for _ in range(n))]:
        want, got = output_line(v), native.batch_dumps(v)
        if got != want:
            diffs.append((v, want, got))
    return n + len(extra), diffs


def driver_speed(path: str, copies: int) -> None:
    import io
    import time

    from paili.runtime.limits import MAX_BATCH_LINE

    native = native_module()
    with open(path, "rb") as f:
        data = f.read() * copies
    n = data.count(b"\n")
    fixed = json.dumps({"win": True, "fans": [{"name": "x", "value": 1}]})
    for _ in range(2):
        t = time.process_time()
        native.run_batch(io.BytesIO(data), io.StringIO().write, lambda: (lambda *args: fixed), (HandError, ValueError),
                         MAX_BATCH_LINE, MAX_BATCH_DEPTH, MAX_NUMBER_DIGITS, 1024)
        nat = time.process_time() - t
        t = time.process_time()
        out = io.StringIO()
        for raw in io.BytesIO(data):
            try:
                parse_line(raw.decode("utf-8"))
                out.write(fixed + "\n")
            except ValueError as exc:
                out.write(output_line({"line": 0, "error": str(exc)}) + "\n")
        py = time.process_time() - t
        print(f"{n:,} lines: native driver {nat:.3f} s ({n / nat:,.0f}/s), Python reading and writing {py:.3f} s "
              f"({n / py:,.0f}/s)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--values", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", metavar="FILE", help="time the driver on FILE's lines instead")
    ap.add_argument("--copies", type=int, default=50)
    args = ap.parse_args(argv)
    if native_module() is None:
        print("the native core is not built")
        return 2
    if args.speed:
        driver_speed(args.speed, args.copies)
        return 0
    n, diffs = check_lines(args.lines, args.seed)
    print(f"lines: {n} read, {len(diffs)} different")
    for raw, want, got in diffs[:10]:
        print(f"  {raw!r}\n    python: {want!r}\n    native: {got!r}")
    m, vdiffs = check_values(args.values, args.seed)
    print(f"values: {m} written, {len(vdiffs)} different")
    for v, want, got in vdiffs[:10]:
        print(f"  {v!r}\n    python: {want!r}\n    native: {got!r}")
    return 1 if diffs or vdiffs else 0


if __name__ == "__main__":
    sys.exit(main())
