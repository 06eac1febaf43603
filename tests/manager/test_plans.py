"""Plans: orders that fire on a condition, through the Session, read from the battle."""
import pytest

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.dice import QueueSource
from manager.errors import IllegalAction, ScenarioError
from manager.plans import FollowPlan, plans_due, why_holds
from manager.session import Session

from test_arrivals import battle, data, to_move

WAIT = {"kind": "hold", "objective": [3, 4], "plan": [
    {"when": {"area": [[14, 2], [16, 6]], "clear_of": "b"}, "kind": "attack",
     "objective": [15, 4]},
    {"when": {"turn": 5}, "kind": "hold", "objective": [10, 10]}]}


def planned():
    d = data()
    d["sides"][0]["commands"][0]["orders"] = WAIT
    return d


def test_a_plan_step_fires_when_the_area_is_clear_and_not_before():
    s = Session(battle(planned()), QueueSource([1] * 80))
    to_move(s, "a", 1)
    b = s.battle
    assert plans_due(b, s.ruleset) == []            # V1 stands at (15, 3)
    with pytest.raises(IllegalAction, match="no step of its plan is ready"):
        s.execute(FollowPlan("c1"))
    b.update_unit("v1", x=40.5, y=40.5)             # (an umpire's shortcut: V1 marches off)
    assert plans_due(b, s.ruleset) == ["c1"]
    events = s.execute(FollowPlan("c1"))
    assert events[0].describe() == "First: the ground is clear of the B: attack"
    o = b.commands["c1"].orders
    assert o["kind"] == "attack" and o["objective"] == [15, 4] and len(o["plan"]) == 1
    s.undo()
    assert b.commands["c1"].orders == WAIT


def test_conditions_read_the_battle():
    b = battle(planned())
    assert why_holds(b, "a", {"turn": 1}) == ""         # not started: turn 0
    assert why_holds(b, "a", {"enemy_within": 5, "of": "c1"}) == ""
    assert why_holds(b, "a", {"enemy_within": 12.5, "of": "c1"}) != ""
    assert why_holds(b, "a", {"area": [[0, 0], [5, 5]], "clear_of": "a", "at_most": 1}) == ""
    assert why_holds(b, "a", {"area": [[0, 0], [5, 5]], "clear_of": "a", "at_most": 2}) != ""
    assert why_holds(b, "a", {"arrived": "c2"}) == ""


def test_the_automatic_commander_follows_the_plan_and_replays_it():
    s = Session(battle(planned()))
    Autopilot(s).play(max_turns=6)
    fired = [e for e in s.entries if e.action.verb == "FollowPlan"]
    assert fired and all(e.side == "a" and e.phase == "move" for e in fired)
    again = Session.replay(battle(planned()), s.entries)
    assert again.battle.fingerprint() == s.battle.fingerprint()


@pytest.mark.parametrize("when,message", [
    ({"clear_of": "nobody", "area": [[0, 0], [1, 1]]}, "expected a side id"),
    ({"shaken": "zz"}, "expected a command id"),
    ({"enemy_within": 3}, "needs an area or of"),
    ({"area": [[0, 0]]}, "two corners"),
    ({"soon": 1}, "unknown key"),
])
def test_bad_plans_are_refused_naming_the_key(when, message):
    d = data()
    d["sides"][0]["commands"][0]["orders"] = {"kind": "hold", "plan": [{"when": when}]}
    with pytest.raises(ScenarioError, match=message) as exc:
        battle(d)
    assert "sides[0].commands[0].orders" in str(exc.value)
