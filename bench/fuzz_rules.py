"""Fuzz the compiler and the runtime with generated and mutated rule files (issue 12, points 4 and 5).

    python bench/fuzz_rules.py [--cases 100000] [--start 0] [--seed 1] [--workers 2] [--timeout 60] [--json]

Every case is a `.pai` text made from a seed file (the bundled rule files, bench/rules/, the small files of
the tests and the complete examples of docs/language.md) by a few seeded mutations — token swaps,
deletions and duplications, number inflation, deep nesting, long chains, hostile snippets (Python text,
dunder names, format and template syntax), unicode — or generated from scratch: the small base file plus
random declarations with random expressions. Each case is compiled; when it compiles, the rule set is
loaded, written to JSON and read back, its examples are scored, and a random hand from its tiles is
scored and its waits listed.

Outcomes: `refused` (diagnostics, by the first code's class), `ran` (compiled and every step ran; a hand
refused with one sentence counts here), and the failures: `traceback` (any exception that is not a
diagnostic or a one-sentence hand error), `E900` (an internal compiler error), `hang` (the case used more than
--timeout seconds of CPU time: workers are subprocesses, killed and replaced), `code execution` (a
hostile snippet's canary file appeared). The exit status is 1 when any failure occurred.
A seeded sample runs in the suite (tests/test_fuzz_rules.py), in-process.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CANARY = Path(tempfile.gettempdir()) / "paili-fuzz-canary"

# Snippets a hostile designer might write; the canary ones would create CANARY if ever executed.
HOSTILE = [
    f'__import__("os").system("touch {CANARY}")',
    f"__import__('pathlib').Path('{CANARY}').touch()",
    "__class__.__mro__[1].__subclasses__()",
    "{__import__}", "{0.__class__}", "{{7*7}}", "{% for x in () %}{% endfor %}", "${7*7}", "#{7*7}",
    "__builtins__", "__dict__", "exec", "eval", "globals", "lambda", "import", "self", "S", "_pow",
    "</script><script>alert(1)</script>", "\\x00", "\\u0000", '\\"', "\u202e", "\u200b", "\ufeff",
]
UNICODE = ["\u3000", "\u00a0", "\u200b", "\u202e", "“", "”", "‘", "’", "（", "）", "：", "，", "；", "一", "万",
           "𝟘", "①", "٣", "\u0301", "ﬁ", "Ⅻ", "\U0001F600", "\t", "\r", "\x0b", "\x0c", "\x00", "\x7f", "\\"]
NUMBERS = ["0", "-1", "1" + "0" * 29, "9" * 31, "1" + "0" * 5000, "0.0000000000000000000000000001", "4300",
           "100000000", "2147483648", "18446744073709551617", "1.5", "-0", "00", "1..9", "9..1", "0..0"]
EXPR_ATOMS = ["1", "2", "0", "-1", "true", "false", "none", "len(tiles)", "len(melds)", "count(m in melds: m.run)",
              "win_tile", "self_drawn", "form", "'1m'", "'123m'", "[1, 2]", "加倍次数", "番"]
FRAGMENTS = [
    "quantity Q{n} = {e}\n", "pattern P{n} {{ value 1 番; when {e} }}\n", "pattern P{n} {{ value = {e}; unit 番 }}\n",
    "require R{n} {{ when {e} }}\n", "context C{n} int = {num} {{ range 0..{num} }}\n", "option O{n} bool = {e}\n",
    "pattern P{n} {{ value 1 番; count = {e} }}\n", 'pattern P{n} {{ value 1 番; label "{s}"; when {e} }}\n',
    "meld M{n} {{ shape run {num}; hand true }}\n", "meld M{n} {{ shape same {num}; hand true }}\n",
    "win W{n} {{ melds {num}; pairs 1 }}\n", "tiles {{ suit 条 {{ code \"s\"; ranks 1..{num}; copies {num} }} }}\n",
    "wild 王{n} {{ tiles 东 }}\n", "unit U{n} product\n", "score = {e}\n",
    "example E{n} {{ hand '111m 222m 333m 东东东 5m'; win '5m'; expect score {num} }}\n",
]


def seed_files() -> list[tuple[str, str]]:
    """(name, text) of every seed: bundled and bench rule files, the tests' small files, the language
    reference's complete examples."""
    out = []
    for p in sorted((ROOT / "rules").glob("*.pai")) + sorted((ROOT / "bench" / "rules").glob("*.pai")):
        out.append((p.name, p.read_text(encoding="utf-8")))
    out += small_seeds()
    return out


def small_seeds() -> list[tuple[str, str]]:
    out = []
    for p in sorted((ROOT / "tests").glob("test_*.py")):
        text = p.read_text(encoding="utf-8")
        for i, m in enumerate(re.finditer(r'"""\\?\n(variant .*?)"""', text, re.S)):
            out.append((f"{p.name}#{i}", m.group(1)))
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for i, m in enumerate(re.finditer(r"```pai\n(.*?)```", doc, re.S)):
        if re.search(r"^variant ", m.group(1), re.M):
            out.append((f"language.md#{i}", m.group(1)))
    return out


TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|\d+(?:\.\d+)?|[^\W\d]\w*|==|!=|<=|>=|//|\.\.|\S')


def rand_expr(rng: random.Random, depth: int = 0) -> str:
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(EXPR_ATOMS)
    a, b = rand_expr(rng, depth + 1), rand_expr(rng, depth + 1)
    form = rng.randrange(12)
    if form == 0:
        return f"({a} {rng.choice(['+', '-', '*', '/', '//', '%', '^'])} {b})"
    if form == 1:
        return f"({a} {rng.choice(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in'])} {b})"
    if form == 2:
        return f"({a} {rng.choice(['and', 'or'])} {b})"
    if form == 3:
        return f"if {a} then {b} else {rand_expr(rng, depth + 1)}"
    if form == 4:
        f = rng.choice(["count", "any", "all", "sum", "max", "min", "filter"])
        src = rng.choice(["tiles", "melds", "runs", "hand", "pairs", "suits", "[1, 2, 3]", "waits"])
        return f"{f}(x{depth} in {src}: {b})"
    if form == 5:
        return f"{rng.choice(['len', 'distinct', 'abs', 'floor', 'cn', 'max', 'min'])}({a})"
    if form == 6:
        return f"{rng.choice(['max', 'min'])}({a}, {b})"
    if form == 7:
        return f"{a}.{rng.choice(['rank', 'suit', 'tiles', 'kind', 'start', 'honor', 'x', '__class__'])}"
    if form == 8:
        return f"not {a}"
    if form == 9:
        return f"-{a}"
    if form == 10:
        return f"[{a}, {b}]"
    return f"count(a, b in {rng.choice(['melds', 'tiles', 'runs'])}: {b})"


def generate(rng: random.Random, base: str) -> str:
    """A small rule file: the base plus a few random declarations (names may clash on purpose)."""
    out = [base]
    for _ in range(rng.randrange(1, 6)):
        frag = rng.choice(FRAGMENTS)
        out.append(frag.format(n=rng.randrange(4), e=rand_expr(rng), num=rng.choice(NUMBERS[:10] + ["3", "4"]),
                               s=rng.choice(HOSTILE + ["加倍{cn(加倍次数)}次", "{x}", "{"])))
    return "".join(out)


def mutate(rng: random.Random, text: str) -> str:  # noqa: C901 - one case per mutation
    for _ in range(1 if rng.random() < 0.7 else rng.randrange(2, 4)):
        toks = [m for m in TOKEN.finditer(text)]
        if not toks:
            return text + rng.choice(UNICODE)
        m = rng.choice(toks)
        a, b = m.start(), m.end()
        kind = rng.randrange(14)
        if kind == 0:  # swap two tokens
            m2 = rng.choice(toks)
            if m2.start() > b:
                text = text[:a] + m2.group() + text[b:m2.start()] + m.group() + text[m2.end():]
        elif kind == 1:  # delete a token
            text = text[:a] + text[b:]
        elif kind == 2:  # duplicate a token
            text = text[:b] + " " + m.group() + text[b:]
        elif kind == 3:  # inflate a number
            nums = [t for t in toks if t.group()[0].isdigit()] or toks
            m = rng.choice(nums)
            text = text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
        elif kind == 4:  # nest an expression deeply
            n = rng.choice([10, 70, 300, 3000])
            text = text[:a] + "(" * n + m.group() + ")" * n + text[b:]
        elif kind == 5:
            n = rng.choice([10, 70, 250, 2000])
            text = text[:a] + "not " * n + m.group() + text[b:]
        elif kind == 6:  # a long chain of one operator
            n = rng.choice([20, 100, 201, 3000])
            op = rng.choice([" or ", " and ", " + ", " * ", " - "])
            text = text[:a] + op.join([m.group()] * n) + text[b:]
        elif kind == 7:  # nested comprehensions
            n = rng.choice([3, 6, 9, 25])
            text = text[:a] + "".join(f"any(z{i} in tiles: " for i in range(n)) + m.group() + ")" * n + text[b:]
        elif kind == 8:  # nested blocks
            n = rng.choice([5, 20, 200])
            text = text[:a] + "x {" * n + "}" * n + text[b:]
        elif kind == 9:  # unicode
            text = text[:a] + rng.choice(UNICODE) + text[a:]
        elif kind == 10:  # hostile text in a string, a name or an expression
            h = rng.choice(HOSTILE)
            text = text[:a] + rng.choice([f'"{h}"', h, f"'{h}'"]) + text[b:]
        elif kind == 11:  # delete or duplicate a line
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif kind == 12:  # a generated declaration
            text = text + "\n" + generate(rng, "")
        else:  # truncate
            text = text[:rng.randrange(len(text) + 1)]
    return text


def make_case(seed: int, index: int, seeds: list[tuple[str, str]], small: list[tuple[str, str]],
              bundled_share: float) -> tuple[str, str]:
    rng = random.Random(seed * 1_000_003 + index)
    pool = seeds if rng.random() < bundled_share else small
    name, text = rng.choice(pool)
    if rng.random() < 0.4:
        return f"generated from {name}", generate(rng, text)
    return f"mutated {name}", mutate(rng, text)


def run_case(text: str, rng: random.Random, play: bool = True) -> str:
    """One case's outcome; raises on a failure the caller classifies as a traceback."""
    from paili.dsl.compiler import compile_text
    from paili.runtime.examples import check_all
    from paili.runtime.hand import HandError
    from paili.runtime.ir.serialize import dumps, loads
    from paili.runtime.rules import Rules

    res = compile_text(text, "fuzz.pai")
    for d in res.diagnostics:
        d.render(text.splitlines())  # rendering a diagnostic must not fail either
    if any(d.code == "E900" for d in res.diagnostics):
        return "E900"
    if not res.ok:
        code = next(d.code for d in res.diagnostics if d.is_error)
        return f"refused {code[:2]}xx"
    rs = loads(dumps(res.ruleset))
    rules = Rules(rs)
    check_all(rules)
    kinds = [k for k in rules.catalog.kinds if k.copies > 0]
    if not kinds:
        return "ran"
    n = max(1, min(rules.ir.table.hand, 20))
    names = [rng.choice(kinds).name for _ in range(n + 1)]
    hand = " ".join(names[:-1])
    try:
        rules.score(hand, [], names[-1], rng.random() < 0.5, {})
    except HandError:
        pass
    try:
        rules.wait_tiles(hand, [], False, {})
    except HandError:
        pass
    if play and rng.random() < 0.25:
        from paili.runtime.game import GameError
        from paili.runtime.game.simulate import simulate

        try:  # one hand by random bots (the engine checks its invariants as it plays)
            simulate(rules, 1, rng.randrange(1000), "random")
        except GameError:
            pass
    return "ran"


def _case_outcome(args) -> tuple[str, str]:
    seed, index, bundled_share = args
    name, text = make_case(seed, index, _SEEDS, _SMALL, bundled_share)
    rng = random.Random(index)
    try:
        return run_case(text, rng), ""
    except RecursionError:
        return "traceback", f"case {index} ({name}): RecursionError"
    except Exception:  # noqa: BLE001 - every unexpected exception is a finding
        return "traceback", f"case {index} ({name}):\n{traceback.format_exc(limit=6)}"


_SEEDS: list = []
_SMALL: list = []


def _init() -> None:
    global _SEEDS, _SMALL
    if not _SEEDS:
        _SEEDS = seed_files()
        _SMALL = small_seeds() + [s for s in _SEEDS if s[0] == "joker.pai"]


def run_inline(cases: int, seed: int, bundled_share: float = 0.0) -> Counter:
    """The suite's sample: in-process, no timeout (cases are bounded by the limits being tested)."""
    _init()
    CANARY.unlink(missing_ok=True)
    out: Counter = Counter()
    findings = []
    for i in range(cases):
        outcome, detail = _case_outcome((seed, i, bundled_share))
        out[outcome] += 1
        if detail:
            findings.append(detail)
    if CANARY.exists():
        out["code execution"] += 1
    out.findings = findings  # type: ignore[attr-defined]
    return out


def _worker(conn, seed: int, bundled_share: float) -> None:
    _init()
    sys.setrecursionlimit(10_000)
    while True:
        index = conn.recv()
        if index is None:
            return
        conn.send((index, *_case_outcome((seed, index, bundled_share))))


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process (Linux /proc; 0 elsewhere, where only the wall-clock bound applies)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def run_pool(cases: int, seed: int, workers: int, timeout: float, bundled_share: float, progress: bool,
             findings_file: str | None = None, start: int = 0):
    """Subprocess workers, one case at a time each; a case over `timeout` seconds of CPU time (or ten times
    that of wall-clock time) is a hang: the worker is killed and replaced. Findings are appended to
    `findings_file` as they occur, the counts printed every 1,000 cases."""
    ctx = mp.get_context("fork")
    CANARY.unlink(missing_ok=True)
    out: Counter = Counter()
    findings: list[str] = []
    pending = iter(range(start, start + cases))  # each case is made from (seed, index) alone
    slots = []

    def start():
        a, b = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(b, seed, bundled_share), daemon=True)
        p.start()
        return [p, a, None, 0.0, 0.0]

    for _ in range(workers):
        slots.append(start())
    done = 0
    t0 = time.perf_counter()
    while True:
        busy = False
        for s in slots:
            p, conn, index, since = s[:4]
            if index is None:
                nxt = next(pending, None)
                if nxt is None:
                    continue
                conn.send(nxt)
                s[2], s[3], s[4] = nxt, time.perf_counter(), _cpu_seconds(p.pid)
                busy = True
                continue
            busy = True
            if conn.poll(0.01):
                try:
                    _, outcome, detail = conn.recv()
                except EOFError:  # the worker died (a crash of the interpreter itself)
                    outcome, detail = "traceback", f"case {index}: the worker process died"
                    p.join(1)
                    s[:] = start()
                out[outcome] += 1
                if detail:
                    findings.append(detail)
                    if findings_file:
                        with open(findings_file, "a", encoding="utf-8") as fh:
                            fh.write(detail + "\n\n")
                done += 1
                s[2] = None
                if progress and done % 1000 == 0:
                    print(f"{done}/{cases} {dict(out)} {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
            elif _cpu_seconds(p.pid) - s[4] > timeout or time.perf_counter() - since > 10 * timeout:
                p.kill()
                p.join()
                out["hang"] += 1
                findings.append(f"case {index}: no answer within {timeout:.0f} s of CPU time")
                if findings_file:
                    with open(findings_file, "a", encoding="utf-8") as fh:
                        fh.write(findings[-1] + "\n\n")
                done += 1
                s[:] = start()
        if not busy:
            break
    for p, conn, *_ in slots:
        conn.send(None)
        p.join(5)
    if CANARY.exists():
        out["code execution"] += 1
    return out, findings, time.perf_counter() - t0


FAILURES = ("traceback", "E900", "hang", "code execution")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=0,
                    help="index of the first case (cases depend on seed and index only: a long run splits into chunks)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds of CPU time per case before it counts as a hang")
    ap.add_argument("--bundled-share", type=float, default=0.05,
                    help="share of cases mutated from the bundled rule files (the rest from the small files)")
    ap.add_argument("--findings", help="write every finding (case, traceback) to this file")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.findings:
        Path(args.findings).write_text("", encoding="utf-8")
    out, findings, secs = run_pool(args.cases, args.seed, args.workers, args.timeout, args.bundled_share,
                                   not args.json, args.findings, args.start)
    failures = sum(out[k] for k in FAILURES)
    summary = {"cases": args.cases, "start": args.start, "seed": args.seed, "seconds": round(secs, 1),
               "outcomes": dict(sorted(out.items())), "failures": failures}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        for k, v in sorted(out.items()):
            print(f"{k:>16}: {v}")
        print(f"{args.cases} cases in {secs:.0f} s; failures: {failures}")
        for f in findings[:20]:
            print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
