"""Morschauser's speed-ups of the fifteenth session give the very answers of the plain
code: a leader's ride searched deepest first among equal guesses costs what the plain
A* finds, to every box about him (reachable or not, through friends, past enemies)."""
import sys
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.rules.morschauser import movement as mv
from manager.rules.morschauser.board import box_of
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))
from morschauser_refs import ref_leader_cost  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def _positions(seed: int, turns: int, every: int):
    """Austerlitz with the commander on both sides: the battle every `every` steps."""
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=turns))
    ap = Autopilot(s)
    ap.step()
    n = 0
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.step()
        n += 1
        if n % every == 0:
            yield s.battle


@pytest.mark.parametrize("seed", [1, 4])
def test_a_leaders_ride_costs_what_the_plain_search_finds(seed):
    asked = unreachable = 0
    for b in _positions(seed, 3, 40):
        for leader in b.live_leaders():
            hx, hy = box_of(b, leader)
            for dx in range(-7, 8):
                for dy in range(-7, 8):
                    to = (hx + dx, hy + dy)
                    got = mv._leader_cost(b, leader, to)
                    assert got == ref_leader_cost(b, leader, to), (leader.id, to)
                    asked += 1
                    unreachable += got is None
    assert asked > 10_000 and 0 < unreachable < asked
