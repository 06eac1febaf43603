"""Battle-file benchmarks (a script, not a timed test: machines are noisy).

    python benchmarks/store_bench.py [--seeds 3] [--dir DIR] [--tiny] [--json]

Targets: committing one action under 5 ms (median, WAL, synchronous=FULL: on disk
before execute() returns); opening and replaying a 12-turn Austerlitz battle under 1 s.
Also reports the file size of such a battle. --dir chooses the disk (default: a
temporary folder under benchmarks/, i.e. the project's own disk, not a RAM /tmp).
"""
from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import fresh  # noqa: E402

from manager.autopilot import Autopilot  # noqa: E402
from manager.session import Session  # noqa: E402
from manager.store import create_battle, open_battle  # noqa: E402
from manager.store.battle_file import load_battle  # noqa: E402


def one(seed: int, folder: Path, turns: int = 12) -> dict:
    from dataclasses import replace
    scenario = fresh(seed, army_morale="all")          # runs to (or near) the 12-turn limit
    scenario.set_info(replace(scenario.info, turns=turns))
    path = folder / f"austerlitz-{seed}.berthier"
    session = Session(scenario)
    record = create_battle(path, session)
    Autopilot(session).play()
    commits = record.commit_times
    record.close()
    final = session.battle.fingerprint()
    t0 = time.perf_counter()
    f = open_battle(path)
    open_s = time.perf_counter() - t0
    assert f.session.battle.fingerprint() == final
    f.close()
    t0 = time.perf_counter()
    load_battle(path)
    load_s = time.perf_counter() - t0
    return {"seed": seed, "turns": session.battle.state.turn, "actions": len(session.entries),
            "commit_median_ms": statistics.median(commits) * 1000,
            "commit_p90_ms": sorted(commits)[int(0.9 * len(commits))] * 1000,
            "open_s": open_s, "read_only_open_s": load_s, "size_kb": path.stat().st_size / 1024}


def figures(tiny: bool = False, seeds: int = 3, where: str | None = None) -> list[dict]:
    from bench_common import figure
    base = Path(where) if where else ROOT / "benchmarks"
    folder = Path(tempfile.mkdtemp(prefix="store-bench-", dir=base))
    try:
        results = [one(seed, folder, 1 if tiny else 12)
                   for seed in range(1, (1 if tiny else seeds) + 1)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    med = statistics.median
    note = (f"{len(results)} battles, median {med(r['turns'] for r in results):g} turns, "
            f"{med(r['actions'] for r in results):g} actions, "
            f"{med(r['size_kb'] for r in results):.0f} KiB")
    return [figure("battle file: commit one action, median", med(r["commit_median_ms"] for r in results),
                   "ms", 5, note=note),
            figure("battle file: open and replay", med(r["open_s"] for r in results), "s",
                   None if tiny else 1,
                   note=f"read-only {med(r['read_only_open_s'] for r in results):.2f} s")]


def main(argv=None) -> int:
    from bench_common import emit, parser
    ap = parser(__doc__)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dir")
    args = ap.parse_args(argv)
    emit(figures(args.tiny, args.seeds, args.dir), args.json,
         "Battle files (Austerlitz, 12-turn limit, the army concedes only when all its "
         "commands are Shaken)", tiny=args.tiny)
    return 0


if __name__ == "__main__":
    sys.exit(main())
