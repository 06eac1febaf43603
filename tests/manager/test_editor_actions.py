"""Scenario edits: each applies, undoes to the identical state, and refuses what the rules
would never accept."""
import pytest

from builders import area, build, centre, session, unit
from manager import editor_actions as ed
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.session import LogEntry, Session

UNITS = [unit("b", "blue", "line_infantry", (5, 5)), unit("c", "blue", "heavy_cavalry", (5, 7)),
         unit("r", "red", "line_infantry", (12, 5))]
TERRAIN = [area("town", 8, 8, 8, 8, id="town")]

EDITS = [
    ed.PlaceUnit("n", "New Line", "grenadiers", "b1", centre((6, 3)), 90),
    ed.RemoveUnit("c"),
    ed.RelocateUnit("b", centre((7, 2)), 45),
    ed.EditUnit("b", (("name", "1er Grenadiers"), ("kind", "grenadiers"), ("hits", 6))),
    ed.AddCommand("blue", "b2", "Second Brigade", "b2-ldr", "Colonel Vert", centre((3, 9)), 4),
    ed.RelocateLeader("b1-ldr", centre((2, 2))),
    ed.AddTerrain("wood", "woods", ((30.0, 0.0), (36.0, 0.0), (36.0, 6.0))),
    ed.RemoveTerrain("town"),
    ed.ReshapeTerrain("town", ((21.0, 21.0), (27.0, 21.0), (27.0, 27.0), (21.0, 27.0))),
    ed.SetOption("army_morale", "half"),
    ed.RenameCommand("b1", "Old Guard"),
]


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.verb)
def test_every_edit_applies_and_undoes_exactly(edit):
    s = Session(build(UNITS, TERRAIN))
    before = s.battle.fingerprint()
    s.execute(edit)
    after = s.battle.fingerprint()
    assert after != before
    s.undo()
    assert s.battle.fingerprint() == before
    s.redo()
    assert s.battle.fingerprint() == after


def test_reassign_moves_a_unit_between_commands_of_its_side():
    s = Session(build(UNITS + [unit("d", "blue", "line_infantry", (2, 9), command="b2")]))
    s.execute(ed.ReassignUnit("b", "b2"))
    assert s.battle.hierarchy.command_of("b") == "b2"
    with pytest.raises(IllegalAction, match="another side"):
        s.check(ed.ReassignUnit("r", "b2"))


@pytest.mark.parametrize("edit,message", [
    (ed.PlaceUnit("b", "x", "grenadiers", "b1", centre((6, 3))), "taken"),
    (ed.PlaceUnit("z", "x", "dragoons", "b1", centre((6, 3))), "unknown unit kind"),
    (ed.PlaceUnit("z", "x", "grenadiers", "b1", centre((5, 5))), "one unit a box"),
    (ed.PlaceUnit("z", "x", "heavy_cavalry", "b1", centre((8, 8))), "buildings"),
    (ed.PlaceUnit("z", "x", "grenadiers", "b1", (500.0, 5.0)), "off the"),
    (ed.RelocateUnit("c", centre((8, 8)), 90), "buildings"),
    (ed.EditUnit("b", (("hits", 9),)), "hits must be 1 to 5"),
    (ed.EditUnit("b", (("max_hits", 9),)), "cannot be edited"),
    (ed.AddTerrain("lake", "lake", ((12.0, 12.0), (24.0, 12.0), (24.0, 24.0), (12.0, 24.0))), "cannot stand"),
    (ed.SetOption("army_morale", "most"), "army_morale"),
])
def test_edits_that_would_break_the_battle_are_refused(edit, message):
    s = Session(build(UNITS, TERRAIN))
    before = s.battle.fingerprint()
    with pytest.raises(IllegalAction, match=message):
        s.execute(edit)
    assert s.battle.fingerprint() == before


def test_edits_replay_from_the_log_with_game_moves():
    b = build(UNITS, TERRAIN)
    start = b.copy()
    s, _ = session(b, [6, 6])
    s.execute(ed.PlaceUnit("n", "New", "line_infantry", "b1", centre((6, 3)), 90))
    s.execute(ga.MoveUnit("n", centre((7, 3)), 90))
    log = [LogEntry.from_dict(e) for e in s.log()]
    assert Session.replay(start, log).battle.fingerprint() == s.battle.fingerprint()


def test_edit_terrain_names_sets_variant_and_refuses_bad_fields():
    """Issue 21, item 10: the terrain properties' action."""
    import pytest as _pytest
    from manager.editor_actions import EditTerrain
    from manager.errors import IllegalAction as _Illegal
    from manager.scenario_io import load_scenario
    from manager.session import Session
    from pathlib import Path
    s = Session(load_scenario(Path(__file__).resolve().parents[1] / "data" / "skirmish.toml"))
    fid = s.battle.battlefield.features[0].id
    s.execute(EditTerrain(fid, (("name", "Mill stream"), ("variant", "deep"))))
    f = s.battle.battlefield.feature(fid)
    assert (f.name, f.variant) == ("Mill stream", "deep")
    for bad in ((("colour", "red"),), (("level", 0),), (("name", 3),), (("name", "x" * 81),)):
        with _pytest.raises(_Illegal):
            s.execute(EditTerrain(fid, bad))
    with _pytest.raises(_Illegal, match="no terrain"):
        s.execute(EditTerrain("nowhere", (("name", "x"),)))
    s.undo()
    assert s.battle.battlefield.feature(fid).name != "Mill stream"
