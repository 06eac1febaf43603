"""Every benchmark in one table: each figure of issue 17 against its target.

    python benchmarks/all.py [--tiny] [--only rulesets_bench,leipzig] [--json]

Runs each script below as its own process with --json (so one script's caches and
imports cannot flatter another's) and prints their figures together. A script that
fails is a row saying so, and the exit status is 1: --tiny is what the test suite runs,
so a benchmark cannot rot unnoticed. Timings on a shared machine are noisy: each
script reports medians or means of several turns; run twice before believing a miss
or a win.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_common import ROOT, parser, table  # noqa: E402

# script -> what it measures (the figures, in the order)
SCRIPTS = {
    "run": "the Morschauser turn on Austerlitz, replay, Morschauser odds",
    "rulesets_bench": "each ruleset's Austerlitz turn (and x Morschauser), exact odds "
                      "of fire, melee and charge, judging a dragged move",
    "instructions_bench": "each ruleset's Austerlitz turns counted in instructions "
                          "(valgrind; CPU time without it), and x Morschauser",
    "leipzig": "a 600+ unit battle: one turn under each ruleset",
    "simulate_bench": "balance: Austerlitz battles a minute on the local cores",
    "store_bench": "battle files: commit, open and replay",
    "ui_bench": "the app: open, pan and zoom frames, drop feedback",
    "oob_bench": "orders of battle: importing long and pathological listings",
    "net_bench": "several laptops: round trip on loopback, four laptops at 200 actions a "
                 "minute (nothing lost or duplicated), the host's CPU per action",
    "mechanics": "how often each mechanic happens in a demo (no targets)",
}


def run_script(name: str, tiny: bool) -> tuple[list[dict], str]:
    cmd = [sys.executable, str(HERE / f"{name}.py"), "--json"] + (["--tiny"] if tiny else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                           timeout=120 if tiny else 3600)
    except subprocess.TimeoutExpired as exc:
        return [], f"{name}.py did not finish in {exc.timeout:.0f} s"
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return [], f"{name}.py failed: {last}"
    try:
        return json.loads(p.stdout.strip().splitlines()[-1]), ""
    except (json.JSONDecodeError, IndexError):
        return [], f"{name}.py printed no figures"


def main(argv=None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--only", default="", help="comma-separated script names")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(SCRIPTS)
    unknown = [n for n in names if n not in SCRIPTS]
    if unknown:
        ap.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(SCRIPTS)})")
    figures, failures = [], []
    for name in names:
        t = time.perf_counter()
        got, error = run_script(name, args.tiny)
        for f in got:
            f["script"] = name
        figures += got
        if error:
            failures.append(error)
        print(f"{name}: {len(got)} figures in {time.perf_counter() - t:.1f} s"
              + (f"  ** {error}" if error else ""), file=sys.stderr)
    if args.json:
        print(json.dumps({"figures": figures, "failures": failures}))
    else:
        print(table(figures))
        missed = sum(1 for f in figures if f["ok"] is False)
        met = sum(1 for f in figures if f["ok"])
        print(f"\n{met} targets met, {missed} missed" + (" (tiny parameters: no targets)"
                                                         if args.tiny else ""))
        for e in failures:
            print(f"FAILED: {e}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
