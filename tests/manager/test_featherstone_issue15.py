"""Issue 15: the Featherstone-like defects found by the independent reading, each with
typed dice whose outcome the text decides (the conformance cases in
tests/conformance/featherstone/issue15_defects.toml say the same in the case format).

Units of 10 figures roll 2 dice. Blue at (20, 20) faces north; red at (20, 16) faces
south: their fronts 3 inches apart (medium musket range, number 3).
"""
from builders import build_table, piece, session_at
from manager import game_actions as ga
from manager.model.forces import mark

FS = "featherstone"
QUIET = {"support_fire": False, "pursuit": False}


def table(blue="line_infantry", red="line_infantry", options=None, blue_kw=None, red_kw=None,
          red_y=16.0, extra=(), leaders=None):
    units = [piece("b", "blue", blue, (20, 20), **({"hits": 10} | (blue_kw or {}))),
             piece("r", "red", red, (20, red_y), **({"hits": 10} | (red_kw or {}))), *extra]
    return build_table(units, FS, options={**QUIET, **(options or {})}, leaders=leaders)


def to(s, phase, side=None):
    while not (s.battle.state.phase == phase and (side is None or s.battle.state.active == side)):
        s.execute(ga.EndPhase())


def test_shooting_is_simultaneous_a_volley_does_not_halve_the_reply():
    """'Shooting is done simultaneously': red, disordered by blue's volley in the same
    step, still replies with its full hits."""
    s, src = session_at(table(), "fire_first", side="blue")
    src.push(3, 3, 1, 1, 1, 1, 1, 1)              # 6 hits at medium; no saves: 6 lost
    s.execute(ga.Fire("b", "r"))
    assert s.battle.units["r"].disordered and s.battle.units["r"].hits == 4
    s.execute(ga.EndPhase())
    assert s.battle.state.active == "red"
    # red had 10 figures as the step began: 2 dice; 3 + 3 = 6 hits, not halved
    src.push(3, 3, 1, 1, 1, 1, 1, 1)
    s.execute(ga.Fire("r", "b"))
    assert s.battle.units["b"].hits == 4


def test_cavalry_charged_by_cavalry_never_fires_first():
    """Cavalry does not shoot: a 6 on the Charged column is a stand, not first fire."""
    s, src = session_at(table("heavy_cavalry", "heavy_cavalry", blue_kw={"hits": 12},
                              red_kw={"hits": 12}), "charges", side="blue")
    src.push(5)                                   # 5 + 1 regulars = 6: stand, first fire
    s.execute(ga.Charge("b", "r"))
    assert mark(s.battle.units["r"], "reaction") == "stand"


def _overrun_table():
    far = piece("r2", "red", "line_infantry", (40, 4), command="r1")
    return table(red_kw={"hits": 2}, extra=[far], leaders={"r1": {"pos": [20, 16]}})


def test_a_general_with_a_destroyed_unit_is_diced_for_and_escapes_on_4():
    s, src = session_at(_overrun_table(), "fire_first", side="blue")
    src.push(3, 1, 1, 1, 1, 1, 4)                 # 4 hits, none saved: the unit is gone;
    s.execute(ga.Fire("b", "r"))                  # the general rolls 4: escapes
    assert s.battle.units["r"].eliminated
    gen = s.battle.leaders["r1-ldr"]
    assert not gen.eliminated and (gen.x, gen.y) == (40, 4)


def test_a_general_with_a_destroyed_unit_falls_on_3():
    s, src = session_at(_overrun_table(), "fire_first", side="blue")
    src.push(3, 1, 1, 1, 1, 1, 3)
    s.execute(ga.Fire("b", "r"))
    assert s.battle.leaders["r1-ldr"].eliminated


def test_victorious_cavalry_pursue_the_rest_of_their_move_plus_the_dice():
    """Cuirassiers that charged 6 of their 12 inches pursue 6 + 2D6 (impetuous)."""
    s, src = session_at(table("heavy_cavalry", blue_kw={"hits": 12}, red_y=13.0,
                              options={"pursuit": True}), "charges", side="blue")
    src.push(5)                   # charged: 5 + 1 - 2 (10 of 24 left) = 4 wavers (disordered)
    s.execute(ga.Charge("b", "r"))
    b = s.battle.units["b"]
    assert abs(b.y - 14.0) < 0.05 and abs(mark(b, "used") - 0.5) < 0.01
    to(s, "melee")
    # blue 5 dice (figures double vs foot): 1,1,1,1,1 = 5 hits, red saves none;
    # red 2 dice halved (disordered): 4,4 = 8 -> 4, blue saves none. 5+1 beats 4+1.
    # red's lost melee: 1 + 1 - 3 (19 of 24 lost) = 0: disperses. Pursuit 2D6 = 1, 1.
    src.push(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1)
    s.execute(ga.ResolveMelee("r"))
    assert s.battle.units["r"].eliminated
    assert abs(s.battle.units["b"].y - (14.0 - 8.0)) < 0.05     # 6 + 1 + 1 inches


def _battery(move_to, options=None):
    gun = piece("g", "blue", "foot_artillery", (20, 32))
    return build_table([gun, piece("r", "red", "line_infantry", (20, 8))], FS,
                       options={**QUIET, **(options or {})})


def test_a_gun_that_moved_more_than_half_may_not_fire():
    import pytest
    from manager.errors import IllegalAction
    s, src = session_at(_battery(None), "moves", side="blue")
    s.execute(ga.MoveUnit("g", (20, 23), 0))      # 9 inches: a full move straight ahead
    to(s, "fire", "blue")
    with pytest.raises(IllegalAction, match="more than half"):
        s.execute(ga.Fire("g", "r"))


def test_a_gun_that_moved_half_fires():
    s, src = session_at(_battery(None), "moves", side="blue")
    s.execute(ga.MoveUnit("g", (20, 27.5), 0))    # 4.5 inches: half its move
    to(s, "fire", "blue")
    src.push(6, 2, 1, 1)                          # a hit; damage 2; no saves
    s.execute(ga.Fire("g", "r"))
    assert s.battle.units["g"].fired and s.battle.units["r"].hits == 22


def test_gun_move_fire_either_lets_a_gun_fire_after_a_full_straight_move():
    s, src = session_at(_battery(None, {"gun_move_fire": "either"}), "moves", side="blue")
    s.execute(ga.MoveUnit("g", (20, 23), 0))
    to(s, "fire", "blue")
    src.push(6, 2, 1, 1)
    s.execute(ga.Fire("g", "r"))
    assert s.battle.units["g"].fired
