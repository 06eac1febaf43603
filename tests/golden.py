"""Golden replays: a recorded log of the skirmish and the state it must fold to.

Regenerate (only when a rules change is meant to change outcomes) with
    python tests/golden.py
and say in the commit which clause changed.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
SKIRMISH = HERE / "data" / "skirmish.toml"
GOLDEN = HERE / "data" / "skirmish_golden.json"


def summary(battle) -> dict:
    """The state a club would check: every unit's hits, box, facing; leaders; the turn."""
    g = battle.battlefield.grid
    return {
        "units": {u.id: [u.hits, int(u.x // g), int(u.y // g), u.facing, u.eliminated]
                  for u in sorted(battle.units.values(), key=lambda u: u.id)},
        "leaders": {l.id: [l.hits, int(l.x // g), int(l.y // g)]
                    for l in sorted(battle.leaders.values(), key=lambda l: l.id)},
        "state": [battle.state.turn, battle.state.phase, battle.state.active,
                  sorted(battle.state.shaken), battle.state.winner, battle.state.dice_seq],
    }


def record():
    sys.path.insert(0, str(HERE.parent))
    from manager.autopilot import Autopilot
    from manager.scenario_io import load_scenario
    from manager.session import Session
    s = Session(load_scenario(SKIRMISH))
    Autopilot(s).play(max_turns=4)
    GOLDEN.write_text(json.dumps({"log": s.log(), "final": summary(s.battle)}, indent=1))


if __name__ == "__main__":
    record()
