"""The command hierarchy the rules ask questions of."""
from pathlib import Path

from manager.model.hierarchy import Hierarchy
from manager.rules.morschauser.board import box_of, distance
from manager.scenario_io import load_scenario

A = load_scenario(Path(__file__).parent.parent.parent / "scenarios" / "austerlitz.toml")


def test_unit_command_leader_and_army():
    h = A.hierarchy
    uid = h.units_of("iv-corps")[0]
    assert h.command_of(uid) == "iv-corps" and h.side_of_command("iv-corps") == "french"
    assert A.leaders[h.leader_of_unit(uid)].name == "Marshal Soult"
    assert A.leaders[h.general_of("french")].name == "Emperor Napoleon I"
    assert h.leader_node("napoleon") == ("army", "french")
    # the units on the table: Davout's 13 are on the Raigern road until they arrive
    assert len(h.units_led_by("napoleon")) == 81 - 13


def test_units_within_a_leaders_radius():
    h = A.hierarchy
    soult = A.leaders["soult"]
    near = h.units_within("soult", 6, lambda u: box_of(A, A.units[u]), box_of(A, soult), distance)
    assert near and all(distance(box_of(A, soult), box_of(A, A.units[u])) <= 6 for u in near)
    assert set(near) <= set(h.units_of("iv-corps"))


def test_shaken_threshold_and_army_break():
    h = A.hierarchy
    units = h.units_of("col-3")                      # 7 units: 4 removed shake it, 3 do not
    gone3 = set(units[:3])
    assert not h.losses_shake("col-3", lambda u: u in gone3)
    gone4 = set(units[:4])
    assert h.losses_shake("col-3", lambda u: u in gone4)
    cmds = h.commands_of("allies")
    assert not h.army_broken("allies", cmds[:3], "half")
    assert h.army_broken("allies", cmds[:4], "half")
    assert not h.army_broken("allies", cmds[:6], "all") and h.army_broken("allies", cmds, "all")


def test_edits_return_new_hierarchies():
    h = A.hierarchy
    uid = h.units_of("iv-corps")[0]
    moved = h.reassigned(uid, "guard")
    assert moved.command_of(uid) == "guard" and h.command_of(uid) == "iv-corps"
    assert isinstance(moved, Hierarchy)


def test_with_units_is_with_unit_one_by_one():
    """An arrival's units join in one edit: the very graph (nodes, edges, their order and
    data) and the same index as adding them one at a time."""
    h = A.hierarchy
    placed = [("iv-corps", "new-1"), ("guard", "new-2"), ("iv-corps", "new-3")]
    one_by_one = h
    for cid, uid in placed:
        one_by_one = one_by_one.with_unit(cid, uid)
    at_once = h.with_units(placed)
    assert list(at_once.graph.nodes(data=True)) == list(one_by_one.graph.nodes(data=True))
    assert list(at_once.graph.edges()) == list(one_by_one.graph.edges())
    assert at_once.units_of("iv-corps") == one_by_one.units_of("iv-corps")[:] and \
        at_once.units_of("iv-corps")[-2:] == ("new-1", "new-3")
    assert at_once.command_of("new-2") == "guard" and "unit:new-2" not in h.graph.nodes and \
        h.units_of("guard") == at_once.units_of("guard")[:-1]
    # and the arrival's leader taking its command, in the same edit
    led = h.with_units(placed, ("iv-corps", "someone"))
    by_steps = one_by_one.with_command_leader("iv-corps", "someone")
    assert list(led.graph.nodes(data=True)) == list(by_steps.graph.nodes(data=True))
    assert led.leader_of_command("iv-corps") == "someone" != h.leader_of_command("iv-corps")
