"""Editor actions on pieces still to come: deleting a command or a unit that has a pending
arrival, reassigning a pending unit, placing a unit in an arriving command. No dangling
pending entry is left, and undo puts every arrival back."""
import pytest
from hypothesis import given, settings, strategies as st

from manager.arrival_edit import SetArrival, pending_unit
from manager.editor_actions import PlaceUnit, ReassignUnit, RemoveCommand, RemoveUnit
from manager.errors import IllegalAction
from manager.session import Session

from test_arrivals import battle


def consistent(b) -> None:
    """The pending list's invariants: nothing dangles, nothing is on the table twice."""
    seen = set()
    for a in b.pending:
        assert a.units or a.leader, f"{a.id}: an empty arrival"
        for cid, u in a.units:
            assert cid in b.commands, f"{u.id} belongs to a command that is gone"
            assert u.id not in b.units and u.id not in seen
            assert u.id not in b.hierarchy.graph
            seen.add(u.id)
        if a.scope == "command":
            assert a.id in b.commands and not b.hierarchy.units_of(a.id)
            assert all(cid == a.id for cid, _ in a.units)
        if a.leader:
            assert a.leader[1].id not in b.leaders
    assert len({a.id for a in b.pending}) == len(b.pending)


def test_deleting_an_arriving_command_takes_its_arrival_with_it_and_undo_restores_it():
    s = Session(battle())
    before = s.battle.fingerprint()
    s.execute(RemoveCommand("c2"))
    assert not any(a.id == "c2" for a in s.battle.pending)
    assert "c2" not in s.battle.commands and "u2" not in s.battle.all_units()
    consistent(s.battle)
    s.undo()
    assert s.battle.fingerprint() == before


def test_deleting_a_command_drops_its_units_own_arrivals():
    s = Session(battle())
    s.execute(SetArrival("u4", 3, 0, "the lane", ((1.5, 1.5),)))
    s.execute(RemoveCommand("c1"))
    assert s.battle.arrival_of("u4") is None and "u4" not in s.battle.all_units()
    consistent(s.battle)


def test_deleting_a_pending_unit_and_the_last_one_of_its_command():
    s = Session(battle())
    before = s.battle.fingerprint()
    s.execute(RemoveUnit("u2"))
    assert [u.id for _, u in s.battle.arrival_of("c2").units] == ["u3"]
    s.execute(RemoveUnit("u3"))          # the arrival ends: its leader is back on the table
    assert s.battle.arrival_of("c2") is None and "l2" in s.battle.leaders
    assert s.battle.hierarchy.leader_of_command("c2") == "l2"
    consistent(s.battle)
    s.execute(RemoveUnit("v2"))          # a unit's own arrival goes with it
    assert not s.battle.pending
    s.undo(), s.undo(), s.undo()
    assert s.battle.fingerprint() == before


def test_reassigning_pending_units_keeps_their_timing():
    s = Session(battle())
    s.execute(ReassignUnit("u2", "c1"))      # leaves the arriving command: its own arrival
    a = s.battle.arrival_of("u2")
    assert a.scope == "unit" and a.units[0][0] == "c1" and a.describe() == \
        "arriving turn 2 at the Raigern road"
    assert [u.id for _, u in s.battle.arrival_of("c2").units] == ["u3"]
    s.execute(ReassignUnit("u1", "c2"))      # joins the arriving command: off the table
    assert "u1" not in s.battle.units and s.battle.arrival_of("u1").id == "c2"
    s.execute(PlaceUnit("u9", "U9", "line_infantry", "c2", (30.0, 30.0), 90))
    assert s.battle.arrival_of("u9").id == "c2" and "u9" not in s.battle.units
    consistent(s.battle)
    with pytest.raises(IllegalAction, match="its own arrival and Second arrives as a whole"):
        s.execute(ReassignUnit("u2", "c2"))
    s.execute(SetArrival("c2", 0))           # cleared: all of them back on the table
    assert {"u1", "u3", "u9"} <= set(s.battle.hierarchy.units_of("c2"))
    consistent(s.battle)


def test_a_unit_cannot_join_an_arriving_command_once_the_battle_has_begun():
    from manager import game_actions as ga
    s = Session(battle())
    s.execute(ga.StartBattle())
    with pytest.raises(IllegalAction, match="before the battle begins"):
        s.battle.state.started and s.check(ReassignUnit("u1", "c2"))


UNITS = ["u1", "u2", "u3", "u4", "v1", "v2"]
COMMANDS = ["c1", "c2", "d1"]
ACTIONS = st.one_of(
    st.builds(lambda t, turn, roll: SetArrival(t, turn, roll, "road", ((1.5, 28.5),)),
              st.sampled_from(UNITS + COMMANDS), st.integers(0, 4), st.sampled_from([0, 4])),
    st.builds(RemoveUnit, st.sampled_from(UNITS)),
    st.builds(RemoveCommand, st.sampled_from(COMMANDS)),
    st.builds(ReassignUnit, st.sampled_from(UNITS), st.sampled_from(COMMANDS)),
    st.builds(lambda c, n: PlaceUnit(f"new{n}", f"New {n}", "line_infantry", c,
                                     (4.5 + 3 * n, 40.5), 90),
              st.sampled_from(COMMANDS), st.integers(0, 5)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=8))
def test_undo_then_redo_is_identity_for_edits_touching_pending_units(actions):
    s = Session(battle())
    states = [s.battle.fingerprint()]
    for action in actions:
        try:
            s.execute(action)
        except IllegalAction:
            continue
        consistent(s.battle)
        states.append(s.battle.fingerprint())
    for want in reversed(states[:-1]):
        s.undo()
        assert s.battle.fingerprint() == want
        consistent(s.battle)
    for want in states[1:]:
        s.redo()
        assert s.battle.fingerprint() == want


def test_the_umpire_rolls_first_then_places_them_by_hand():
    from manager import game_actions as ga
    from manager.arrivals import BringOnArrival, RollForArrival, spot_problem
    from manager.dice import QueueSource
    from test_arrivals import to_move
    src = QueueSource([])
    s = Session(battle(), src)
    s.execute(ga.StartBattle())
    to_move(s, "b", 1)
    with pytest.raises(IllegalAction, match="in their own side's turn"):
        s.execute(RollForArrival("c2"))            # the other side's arrival: refused
    src.push(2)
    events = s.execute(RollForArrival("v2"))
    assert events[0].describe() == "V2: rolled 2, needed 4; expected turn 2"
    to_move(s, "b", 2)
    src.push(5)
    assert "they may come on" in s.execute(RollForArrival("v2"))[0].describe()
    with pytest.raises(IllegalAction, match="need no roll"):
        s.execute(RollForArrival("v2"))            # rolled: no second roll
    a = s.battle.arrival_of("v2")
    assert a.rolled and a.describe() == "arriving turn 2"
    assert "more than" in spot_problem(s.battle, s.ruleset, a, "v2", (1.5, 1.5))
    assert spot_problem(s.battle, s.ruleset, a, "v2", (55.5, 49.5)) == ""
    s.execute(BringOnArrival("v2", (("v2", 55.5, 49.5),)))   # no second roll
    assert s.battle.units["v2"].pos == (55.5, 49.5) and len(s.entries[-1].rolls) == 0


def test_an_arrival_after_the_last_turn_is_refused():
    s = Session(battle())
    with pytest.raises(IllegalAction, match="lasts 8 turns: turn 9 would never come"):
        s.execute(SetArrival("u1", 9, 0, "", ((1.5, 1.5),)))


@pytest.mark.parametrize("ruleset", ["morschauser", "featherstone", "harman", "d3", "quickplay"])
def test_an_army_all_still_to_come_starts_and_does_not_concede(ruleset):
    from manager import game_actions as ga
    from manager.autopilot import Autopilot
    from manager.scenario_io import battle_from_dict
    from test_arrivals import data
    d = data()
    d["scenario"]["ruleset"] = ruleset
    d["sides"][0]["commands"][0]["arrives"] = {"turn": 2, "at": [0, 2]}
    b = battle_from_dict(d, "<all to come>")
    assert not b.live_units("a")
    s = Session(b)
    s.execute(ga.StartBattle())
    Autopilot(s).play(max_turns=2)
    assert not (b.state.over and b.state.winner == "b" and b.state.turn < 2), b.state.reason
    assert {"u1", "u4", "u2", "u3"} <= set(b.units)     # both commands came on, on turn 2
