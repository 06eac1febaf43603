"""Balance at scale: Austerlitz battles a minute with `berthier simulate --runs N`.

    python benchmarks/simulate_bench.py [--runs 20] [--inch-runs 4] [--rulesets ...] [--tiny] [--json]

Whole battles (the automatic commander on both sides to the end) through
`manager.simulate.balance` on the local cores, the way the CLI runs them. Targets on 2
cores: at least 300 battles a minute under morschauser, 60 under each inch ruleset.
--tiny fights two one-turn skirmishes per ruleset in this process.
"""
from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import AUSTERLITZ, SKIRMISH, emit, figure, parser  # noqa: E402

from manager.simulate import balance  # noqa: E402

TARGETS = {"morschauser": 300, "featherstone": 60, "d3": 60, "quickplay": 60}


def rate(path, ruleset: str, runs: int, turns=None, workers=None) -> tuple[float, float, dict]:
    """(battles a minute by the wall clock, by the CPU time of every process on 2 cores,
    summary). On a shared machine the wall rate counts the waits for a core; the CPU
    rate is what 2 free cores would do (the pool's workers are reaped, so counted)."""
    t = time.perf_counter()
    c0 = _cpu()
    summary = balance(path, runs, ruleset, seed=1, turns=turns, progress=False,
                      workers=workers)
    wall, cpu = time.perf_counter() - t, _cpu() - c0
    return runs / wall * 60, runs / (cpu / 2) * 60, summary


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def figures(tiny: bool = False, runs: int = 20, inch_runs: int = 4, rulesets=None) -> list[dict]:
    out = []
    for rs in rulesets or TARGETS:
        if tiny:
            per_min, cpu_rate, summary = rate(SKIRMISH, rs, 2, turns=1, workers=1)
        else:
            per_min, cpu_rate, summary = rate(AUSTERLITZ, rs,
                                              runs if rs == "morschauser" else inch_runs)
        where = "skirmish" if tiny else "Austerlitz"
        note = f"{summary['runs']} battles, mean {summary['mean_turns']:.1f} turns"
        out.append(figure(f"simulate: {where} battles a minute, {rs} (CPU time, 2 cores)",
                          cpu_rate, "/min", None if tiny else TARGETS[rs], at_least=True,
                          note=note))
        out.append(figure(f"simulate: {where} battles a minute, {rs} (wall clock)", per_min,
                          "/min", None if tiny else TARGETS[rs], at_least=True,
                          note="shared machine: waits for a core count here"))
    return out


def main(argv=None) -> None:
    ap = parser(__doc__)
    ap.add_argument("--runs", type=int, default=20, help="battles under morschauser")
    ap.add_argument("--inch-runs", type=int, default=4, help="battles under each inch ruleset")
    ap.add_argument("--rulesets", default="")
    args = ap.parse_args(argv)
    rulesets = tuple(r for r in args.rulesets.split(",") if r) or None
    emit(figures(args.tiny, args.runs, args.inch_runs, rulesets), args.json,
         "Balance: whole battles on the local cores", tiny=args.tiny)


if __name__ == "__main__":
    main()
