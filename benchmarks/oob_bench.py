"""Order-of-battle import benchmarks (a script, not a timed test: machines are noisy).

    python benchmarks/oob_bench.py [--units 10000] [--tiny] [--json]

Targets (issues 16 and 19): a 10,000-line listing imported in under 1 s, linear in its
length; a listing of pathological lines (thousands of spaces, unclosed parentheses, long
runs of letters) in about the time of an ordinary one of its size.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from manager.oob import import_texts  # noqa: E402
from manager.oob_text import parse_oob  # noqa: E402

TYPES = ["line", "light", "veteran line", "grenadiers", "jager", "landwehr", "hussars",
         "dragoons", "cuirassiers", "uhlans"]


def indented(units: int) -> str:
    """A listing of `units` element lines in corps of 10 divisions of 10 elements."""
    out = ["!French 1809", "!Indent 2"]
    n = 0
    corps = 0
    while n < units:
        corps += 1
        out.append(f"{corps} Corps - Marshal {corps}")
        for d in range(10):
            out.append(f"  {d + 1}th Division - General {corps}-{d}")
            for k in range(10):
                if n >= units:
                    break
                out.append(f"    {n}e Regiment - {2 + n % 4} bases {TYPES[n % len(TYPES)]}")
                n += 1
    return "\n".join(out) + "\n"


def seed_style(units: int) -> str:
    out = ["Big battle", "1 unit = 1200 Infantry, 800 Cavalry or 12 Guns.", "Blue Army - King"]
    for c in range(units // 10):
        out += [f"Corps {c}, Marshal {c}", "10 Line Infantry"]
    out += ["Red Army - Queen", "Corps R, Marshal R", "3 Light Cavalry"]
    return "\n".join(out) + "\n"


def pathological(size: int = 3000) -> str:
    """About `size` bytes of lines that made backtracking patterns crawl."""
    lines = ["Title", "Blue Army - King", "Corps A, Marshal A",
             "1" + " " * (size // 3) + "Line Infantry" + " " * 50 + "(",
             "3 Line Infantry (" + "(" * (size // 6),
             "2 " + "a" * (size // 6) + " 1",
             "Red Army - Queen", "Corps B - Marshal B", "1 Light Cavalry"]
    return "\n".join(lines) + "\n"


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(units: int = 10_000, repeat: int = 3) -> dict:
    text = indented(units)
    seed = seed_style(units)
    bad = pathological()
    return {
        "lines": text.count("\n"),
        "indented_s": timed(lambda: import_texts([("big.txt", text)]), repeat),
        "indented_quarter_s": timed(lambda: import_texts([("q.txt", indented(units // 4))]),
                                    repeat),
        "seed_style_s": timed(lambda: import_texts([("seed.txt", seed)]), repeat),
        "seed_parser_s": timed(lambda: parse_oob(seed), repeat),
        "pathological_bytes": len(bad),
        "pathological_s": timed(lambda: import_texts([("bad.txt", bad)]), repeat),
    }


def figures(tiny: bool = False, units: int = 10_000, repeat: int = 3) -> list[dict]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import figure
    r = measure(200 if tiny else units, 1 if tiny else repeat)
    return [figure(f"import a {r['lines']:,}-line indented OOB listing", r["indented_s"], "s",
                   None if tiny else 1.0,
                   note=f"a quarter of it {r['indented_quarter_s']:.3f} s: linear"),
            figure(f"import a seed-style listing of {200 if tiny else units:,} units",
                   r["seed_style_s"], "s", note=f"the seed parser alone {r['seed_parser_s']:.3f} s"),
            figure(f"import a {r['pathological_bytes']:,}-byte pathological listing",
                   r["pathological_s"], "s")]


def main(argv=None) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import emit, parser
    ap = parser(__doc__)
    ap.add_argument("--units", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    emit(figures(a.tiny, a.units, a.repeat), a.json, "Orders of battle (issues 16 and 19)",
         tiny=a.tiny)
    return 0


if __name__ == "__main__":
    sys.exit(main())
