"""Every ruleset's automatic commander follows a plan (a reserve released by a condition
marches on its objective) and `engage` (a column marching on its objective passes an
enemy further off than `engage` instead of turning on him), as Morschauser's does."""
import math
import tomllib

import pytest

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.scenario_io import battle_from_dict
from manager.session import Session

RULESETS = ["morschauser", "featherstone", "harman", "d3", "quickplay"]

SCENARIO = """
[scenario]
name = "plans everywhere"
ruleset = "morschauser"
turns = 6
first_side = "a"
[table]
width = 90
height = 90
grid = 3
[[sides]]
id = "a"
name = "A"
home_edge = "west"
[[sides.commands]]
id = "c1"
name = "First"
leader = { id = "l1", name = "L1", quality = 4, at = [2, 15] }
units = [ { id = "u1", name = "U1", kind = "line_infantry", at = [5, 15], facing = 90 } ]
[[sides]]
id = "b"
name = "B"
home_edge = "east"
[[sides.commands]]
id = "d1"
name = "Second"
leader = { id = "l2", name = "L2", quality = 4, at = [28, 15] }
units = [ { id = "v1", name = "V1", kind = "line_infantry", at = [10, 15], facing = 270, fixed = true } ]
"""
OBJECTIVE = [12, 26]                       # south-east of U1; V1 is due east, 5 boxes off


def first_move(ruleset: str, orders: dict):
    d = tomllib.loads(SCENARIO)
    d["scenario"]["ruleset"] = ruleset
    d["sides"][0]["commands"][0]["orders"] = orders
    s = Session(battle_from_dict(d, "<plans everywhere>"))
    s.execute(ga.StartBattle())
    b = s.battle
    pilot = Autopilot(s, sides={"a"})
    while b.state.turn == 1 and not b.state.over:       # B stands; A plays its turn
        if b.state.active == "a":
            pilot.play_phase()
        else:
            s.execute(ga.EndPhase())
    return s


def centre(b, box):
    g = b.battlefield.grid
    return ((box[0] + 0.5) * g, (box[1] + 0.5) * g)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_plan_releases_a_reserve_onto_its_objective(ruleset):
    still = first_move(ruleset, {"kind": "reserve", "objective": [5, 15]})
    planned = first_move(ruleset, {"kind": "reserve", "objective": [5, 15], "plan": [
        {"when": {"turn": 1}, "kind": "attack", "objective": [5, 28], "engage": 1}]})
    assert still.battle.units["u1"].pos == (16.5, 46.5)        # a reserve waits
    assert [e.action.verb for e in planned.entries].count("FollowPlan") == 1
    assert planned.battle.commands["c1"].orders["kind"] == "attack"
    u = planned.battle.units["u1"]
    assert u.y > 46.5 + 2, f"{ruleset}: the released reserve stayed at {u.pos}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_engage_lets_a_marching_column_pass_an_enemy(ruleset):
    turns = first_move(ruleset, {"kind": "attack", "objective": OBJECTIVE})
    marches = first_move(ruleset, {"kind": "attack", "objective": OBJECTIVE, "engage": 2})
    b = turns.battle
    goal, enemy = centre(b, OBJECTIVE), b.units["v1"].pos
    start = (16.5, 46.5)
    t, m = turns.battle.units["u1"].pos, marches.battle.units["u1"].pos
    assert m != start, f"{ruleset}: the column did not march"
    assert math.dist(m, goal) < min(math.dist(t, goal), math.dist(start, goal) - 1), (t, m)
    assert math.dist(t, enemy) < math.dist(m, enemy), (ruleset, t, m)
