"""Checks the ruleset play tests share: the CLI run as a user runs it, the invariants of
bases on an open table, and the CLI plays of a demo and of Austerlitz under a ruleset."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from manager.footprint import overlap

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "manager.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def no_overlaps(battle, footprint, near: float = 10.0) -> None:
    """No two live bases overlap (units nearer than `near` inches are compared)."""
    live = battle.live_units()
    for i, a in enumerate(live):
        for c in live[i + 1:]:
            if abs(a.x - c.x) < near and abs(a.y - c.y) < near:
                assert not overlap(footprint(battle, a), footprint(battle, c)), (a.id, c.id)


def plays_from_cli(ruleset: str, demo: Path, austerlitz_turns: int = 2) -> dict:
    """The demo and Austerlitz both play under the ruleset; the Austerlitz report."""
    r = cli("simulate", str(demo), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["ruleset"] == ruleset
    r = cli("simulate", str(ROOT / "scenarios" / "austerlitz.toml"), "--ruleset", ruleset,
            "--turns", str(austerlitz_turns), "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["ruleset"] == ruleset
    return report
