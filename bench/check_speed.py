"""How long `paili check` takes on a large rule file (the target: well under a second for 2,000 lines).

    python bench/check_speed.py [--lines 2000] [--repeat 5]

It builds a synthetic rule file of the requested size from the constructs the bundled files use
(patterns with conditions, exclusions, examples; options; melds), then times compile_text — parse,
build, resolve, type-check and every checker pass — and prints the best and median of the runs.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paili.dsl.compiler import compile_text  # noqa: E402

HEAD = '''variant bench "基准" {
  doc "A synthetic rule file for timing the checker."
}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  suit 筒 { code "p"; ranks 1..9; copies 4 }
  suit 条 { code "s"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; attrs 风 }
  honor 南 { code "2z"; attrs 风 }
  honor 中 { code "7z"; attrs 箭 }
  attr 幺九 = t.rank in [1, 9] or t.honor
}
table { players 4; hand 13 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
'''

PATTERN = '''pattern P{i} {{
  value {v} 番
  when (count(m in melds: m.triplet and m.tile.幺九) >= {k}
        or any(a, b in runs: a.suit == b.suit and a.start + {k} == b.start))
{ex}  doc "第{i}个番种"
  example {{ hand '123m 456p 789s 东东东 5m'; win '5m' }}
}}
'''


def make_source(lines: int) -> str:
    parts = [HEAD]
    i = 0
    while sum(p.count("\n") for p in parts) < lines - 12:
        ex = f"  excludes P{i - 1}\n" if i else ""
        parts.append(PATTERN.format(i=i, v=1 + i, k=i % 4, ex=ex))
        if i % 5 == 0:
            parts.append(f"option 选项{i} bool = false {{ doc \"房间选项{i}\" }}\n")
        i += 1
    parts.append("score = 番\n")
    return "".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    src = make_source(args.lines)
    n = src.count("\n")
    compile_text(src, "bench.pai")  # warm up: builds the Lark parser once per process
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        res = compile_text(src, "bench.pai")
        times.append(time.perf_counter() - t0)
    errors = [d for d in res.diagnostics if d.is_error]
    if errors:
        print(res.render())
        raise SystemExit("the synthetic file does not compile")
    print(f"check of {n} lines: best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms "
          f"({len(res.ruleset.patterns)} patterns)")


if __name__ == "__main__":
    main()
