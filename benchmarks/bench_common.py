"""What every benchmark script shares: figures with their targets, timing, output.

A figure is a dict {figure, value, unit, target, ok, note}: `target` is the issue's
text ("< 25 ms"), `ok` whether the value meets it (None when there is no target).
Every script takes --tiny (a few seconds: the test suite runs it so nothing rots) and
--json (the figures as JSON, which benchmarks/all.py collects into one table).
"""
from __future__ import annotations

import argparse
import compileall
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The engine's modules compiled before anything is measured: a module a turn imports
# lazily was otherwise compiled inside the first turn measured wherever no bytecode is
# kept (a fresh checkout, or PYTHONDONTWRITEBYTECODE as on the development machine):
# Morschauser's first Austerlitz turn counted 197 M instructions instead of 163 M.
compileall.compile_dir(str(ROOT / "manager"), quiet=1)

AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def figure(name: str, value: float, unit: str, limit: float | None = None,
           at_least: bool = False, note: str = "") -> dict:
    """A measured value against `limit` (an upper bound, or a lower one if at_least)."""
    if limit is None:
        target, ok = "", None
    elif at_least:
        target, ok = f">= {limit:g} {unit}", value >= limit
    else:
        target, ok = f"< {limit:g} {unit}", value < limit
    return {"figure": name, "value": value, "unit": unit, "target": target, "ok": ok,
            "note": note}


def parser(doc: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    ap.add_argument("--tiny", action="store_true",
                    help="tiny parameters: checks the script runs (the test suite uses it)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    return ap


def emit(figures: list[dict], as_json: bool, title: str = "", tiny: bool = False) -> None:
    """Print the figures; tiny runs prove the code runs and are held to no target."""
    if tiny:
        for f in figures:
            f["target"], f["ok"] = "", None
    if as_json:
        print(json.dumps(figures))
        return
    if title:
        print(title)
    print(table(figures))


def table(figures: list[dict]) -> str:
    rows = [("figure", "now", "target", "")]
    for f in figures:
        mark = "" if f["ok"] is None else ("ok" if f["ok"] else "MISSED")
        rows.append((f["figure"], fmt(f["value"], f["unit"]) +
                     (f"  ({f['note']})" if f.get("note") else ""), f["target"], mark))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def fmt(value: float, unit: str) -> str:
    if value != value:                                     # NaN: not measured
        return "n/a"
    if unit in ("ms", "s"):
        return f"{value:.3g} {unit}" if value < 10 else f"{value:.1f} {unit}"
    if unit == "x":
        return f"{value:.2f}x"
    if not unit:
        return f"{value:.1f}"
    return f"{value:.1f} {unit}"


def median_time(fn, n: int) -> tuple[float, float]:
    """(median, p90) seconds of n calls."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    out.sort()
    return statistics.median(out), out[int(0.9 * (len(out) - 1))]


def scenario(path=AUSTERLITZ, ruleset: str | None = None, seed: int | None = None,
             turns: int | None = None, **options):
    from manager.scenario_io import load_scenario
    b = load_scenario(path, ruleset)
    info = b.info
    b.set_info(replace(info, seed=info.seed if seed is None else seed,
                       turns=info.turns if turns is None else turns,
                       options=MappingProxyType(dict(info.options, **options))))
    return b
