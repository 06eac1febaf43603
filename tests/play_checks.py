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


def play_and_replay(fresh, rnd, orders, check, steps: int = 200):
    """Random legal play, checked after every action, then replayed from the log.

    `fresh()` builds a new battle; `orders(battle, rnd)` proposes orders for the side to
    move: half the time the first legal one is played, otherwise the automatic
    commander's; `check(battle)` asserts the invariants. The commander must never be
    refused, and the replay must reach the same state.
    """
    from manager.autopilot import Autopilot
    from manager.session import Session
    s = Session(fresh())
    pilot = Autopilot(s)
    for _ in range(steps):
        b = s.battle
        if b.state.over:
            break
        acted = False
        if b.state.started and rnd.random() < 0.5 and b.live_units(b.state.active):
            for action in orders(b, rnd):
                if s.is_legal(action):
                    s.execute(action)
                    acted = True
                    break
        if not acted:
            pilot.step()
        check(s.battle)
    assert pilot.refused == 0
    again = Session.replay(fresh(), list(s.entries))
    assert again.battle.fingerprint() == s.battle.fingerprint()
    return s


def table_orders(distances):
    """Random orders on an open table: a move some inches at a bearing (ending facing it),
    a volley and a charge at a random enemy."""
    import math
    from manager import game_actions as ga

    def orders(b, rnd):
        u = rnd.choice(b.live_units(b.state.active))
        e = rnd.choice(b.live_units(b.enemy_of(b.state.active)))
        ang, d = rnd.choice(range(0, 360, 30)), rnd.choice(distances)
        to = (u.x + d * math.sin(math.radians(ang)), u.y - d * math.cos(math.radians(ang)))
        return (ga.MoveUnit(u.id, to, ang), ga.Fire(u.id, e.id), ga.Charge(u.id, e.id))
    return orders


def assert_replay_and_undo_redo(session, start) -> None:
    """Replay of the log reproduces the state; undoing everything then redoing it is the
    identity (`start`: a copy of the battle before the first action)."""
    from manager.session import Session
    final = session.battle.fingerprint()
    assert Session.replay(start.copy(), session.entries).battle.fingerprint() == final
    n = len(session.entries)
    for _ in range(n):
        session.undo()
    assert session.battle.fingerprint() == start.fingerprint()
    for _ in range(n):
        session.redo()
    assert session.battle.fingerprint() == final


def refused(session, action) -> bool:
    """Whether the rules refuse `action` now (the check alone, nothing applied)."""
    from manager.errors import IllegalAction
    try:
        session.ruleset.check(session.battle, action)
        return False
    except IllegalAction:
        return True


def austerlitz_phases(ruleset: str, phases, turns: int = 2):
    """(session, side to move) once at the start of each listed phase of Austerlitz, the
    automatic commander playing both sides between them (seed 1)."""
    from manager.autopilot import Autopilot
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, ruleset, seed=1, turns=turns))
    ap = Autopilot(s)
    ap.step()
    seen = set()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        st_ = s.battle.state
        key = (st_.turn, st_.active, st_.phase)
        if st_.phase in phases and key not in seen:
            seen.add(key)
            yield s, st_.active
        ap.step()


class SameDice:
    """Dice that roll the same faces for every copy of a battle (d6 and roll), so a
    resolver and its reference can be asked the same step on two copies."""
    def __init__(self):
        self.n = 0

    def d6(self, why=""):
        self.n += 1
        return self.n % 6 + 1

    def roll(self, count, why="", sides=6):
        from types import SimpleNamespace
        self.n += 1
        return SimpleNamespace(faces=[(self.n + k) % sides + 1 for k in range(count)])
