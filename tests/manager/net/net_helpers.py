"""Shared by the network tests: a host on loopback around a fresh Austerlitz session."""
from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from manager.scenario_io import load_scenario
from manager.session import Session

ROOT = Path(__file__).resolve().parents[3]
AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"


def austerlitz(turns: int | None = None) -> Session:
    battle = load_scenario(AUSTERLITZ)
    if turns:
        battle.set_info(replace(battle.info, turns=turns))
    return Session(battle)


def sectors(session, n: int) -> list[list[str]]:
    """n sectors of commands, each mixing both sides."""
    cmds = sorted(session.battle.commands)
    return [cmds[i::n] for i in range(n)]


def run(coro, timeout: float = 60):
    """Run a coroutine with a hard time limit (a hung test fails, never waits forever)."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


class Events:
    """Collects a Host's or a Laptop's listener calls."""

    def __init__(self):
        self.seen: list[tuple[str, dict]] = []

    def __call__(self, kind, **details):
        self.seen.append((kind, details))

    def of(self, kind: str) -> list[dict]:
        return [d for k, d in self.seen if k == kind]
