"""The automatic commander: what it proposes in situations with one sensible answer."""
from builders import build, session, unit
from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.dice import SeededSource


def proposal(s):
    return s.ruleset.commander(s.battle, s.battle.state.active).next_action()


def test_columns_to_march_squares_against_horse():
    far = [unit("i", "blue", "line_infantry", (2, 5)), unit("r", "red", "line_infantry", (18, 5))]
    s, _ = session(build(far, options={"formations": True}))
    act = proposal(s)
    assert isinstance(act, ga.MoveUnit) and act.formation == "column"
    near_horse = [unit("i", "blue", "line_infantry", (8, 5)),
                  unit("h", "red", "heavy_cavalry", (10, 5))]
    s, _ = session(build(near_horse, options={"formations": True}))
    assert proposal(s) == ga.ChangeFormation("i", "square")


def test_rally_goes_to_the_most_damaged_unit_in_reach():
    units = [unit("a", "blue", "line_infantry", (5, 5), hits=4), unit("b", "blue", "line_infantry", (5, 6), hits=2),
             unit("c", "blue", "line_infantry", (15, 6), hits=1), unit("r", "red", "line_infantry", (19, 11))]
    s, _ = session(build(units, leaders={"b1": (4, 5)}), phase="rally")
    assert proposal(s) == ga.Rally("b1-ldr", "b"), "c is worse but out of reach"


def test_charges_only_with_an_edge():
    weak = [unit("c", "blue", "heavy_cavalry", (5, 5)), unit("r", "red", "militia", (7, 5), hits=2)]
    s, _ = session(build(weak))
    act = proposal(s)
    assert isinstance(act, ga.MoveUnit) and (int(act.to[0] // 3), int(act.to[1] // 3)) == (6, 5)
    strong = [unit("c", "blue", "light_cavalry", (5, 5), hits=2), unit("r", "red", "guard_infantry", (7, 5))]
    s, _ = session(build(strong))
    act = proposal(s)
    assert not (isinstance(act, ga.MoveUnit) and (int(act.to[0] // 3), int(act.to[1] // 3)) == (6, 5))


def test_both_sides_play_a_whole_battle_without_a_refused_proposal():
    units = [unit("a", "blue", "line_infantry", (3, 5)), unit("b", "blue", "heavy_cavalry", (3, 7)),
             unit("g", "blue", "foot_artillery", (2, 6)),
             unit("r", "red", "line_infantry", (16, 5)), unit("s", "red", "light_infantry", (16, 7)),
             unit("h", "red", "horse_artillery", (17, 6))]
    s, _ = session(build(units, turns=15), phase="rally")
    s.source = SeededSource(4)          # software dice from here on
    ap = Autopilot(s)
    ap.play()
    assert ap.refused == 0 and s.battle.state.over
