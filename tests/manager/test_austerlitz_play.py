"""Austerlitz fought headless: every battle ends with a result, and by army morale."""
from pathlib import Path

import pytest

from manager.simulate import fight, report

AUSTERLITZ = Path(__file__).parent.parent.parent / "scenarios" / "austerlitz.toml"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_austerlitz_ends_with_a_result(seed):
    session = fight(AUSTERLITZ, seed=seed)
    data = report(session)
    b = session.battle
    assert b.state.over
    assert data["result"]["winner"] in ("french", "allies"), data["result"]
    assert "concedes" in data["result"]["reason"]
    loser = b.enemy_of(data["result"]["winner"])
    shaken = sum(c["shaken"] for c in data["sides"][loser]["commands"].values())
    assert 2 * shaken >= len(data["sides"][loser]["commands"]), "half the loser's commands Shaken"
    for side in data["sides"].values():
        for c in side["commands"].values():
            assert 0 <= c["units_left"] <= c["units_start"]
    assert sum(len(e.rolls) for e in session.entries) > 100, "a real battle rolls dice"
