"""Battle-file benchmarks (a script, not a timed test: machines are noisy).

    python benchmarks/store_bench.py [--seeds 3] [--dir DIR] [--json]

Targets: committing one action under 5 ms (median, WAL, synchronous=FULL: on disk
before execute() returns); opening and replaying a 12-turn Austerlitz battle under 1 s.
Also reports the file size of such a battle. --dir chooses the disk (default: a
temporary folder under benchmarks/, i.e. the project's own disk, not a RAM /tmp).
"""
from __future__ import annotations

import argparse
import json
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


def one(seed: int, folder: Path) -> dict:
    from dataclasses import replace
    scenario = fresh(seed, army_morale="all")          # runs to (or near) the 12-turn limit
    scenario.set_info(replace(scenario.info, turns=12))
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dir")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base = Path(args.dir) if args.dir else ROOT / "benchmarks"
    folder = Path(tempfile.mkdtemp(prefix="store-bench-", dir=base))
    try:
        results = [one(seed, folder) for seed in range(1, args.seeds + 1)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Battle files on {base} ({args.seeds} Austerlitz battles, 12-turn limit, army "
          f"concedes only when all its commands are Shaken)")
    for r in results:
        print(f"  seed {r['seed']}: {r['turns']} turns, {r['actions']} actions; commit median "
              f"{r['commit_median_ms']:.2f} ms (p90 {r['commit_p90_ms']:.2f}); open + replay "
              f"{r['open_s']:.2f} s (read-only {r['read_only_open_s']:.2f} s); "
              f"{r['size_kb']:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
