"""Movement clauses of Morschauser Mark 3, each checked against a cost computed by hand."""
import pytest

from builders import area, build, centre, line, session, unit
from manager import game_actions as ga
from manager.errors import IllegalAction


def legal(s, uid, box, facing, formation=""):
    return s.is_legal(ga.MoveUnit(uid, centre(box), facing, formation))


INF = [unit("b", "blue", "line_infantry", (5, 5))]      # move 2, facing east


@pytest.mark.parametrize("box,facing,ok,why", [
    ((7, 5), 90, True, "two boxes straight ahead cost 2"),
    ((8, 5), 90, False, "three boxes are beyond a move of 2"),
    ((6, 4), 45, True, "a 45 degree turn (1/2) and a diagonal box (1.5) cost 2"),
    ((7, 3), 45, False, "two diagonal boxes cost 3.5 with the turn"),
    ((5, 5), 270, True, "turning about (four turns of 45 degrees) costs 2"),
    ((6, 5), 180, True, "one box and a 90 degree turn cost 2"),
    ((6, 5), 225, False, "one box and a 135 degree turn cost 2.5"),
    ((4, 5), 90, True, "straight to the rear at half speed: one box costs 2"),
    ((3, 5), 90, False, "two boxes to the rear cost 4"),
    ((4, 5), 270, False, "backing one box and turning about costs more than 2"),
])
def test_infantry_move_costs(box, facing, ok, why):
    s, _ = session(build(INF))
    assert legal(s, "b", box, facing) is ok, why


@pytest.mark.parametrize("kind,boxes", [
    ("militia", 2), ("light_infantry", 3), ("line_infantry", 2), ("grenadiers", 2),
    ("light_cavalry", 5), ("heavy_cavalry", 4), ("foot_artillery", 2), ("horse_artillery", 4),
    ("guard_infantry", 2), ("guard_cavalry", 4),
])
def test_unit_table_move_boxes(kind, boxes):
    s, _ = session(build([unit("u", "blue", kind, (2, 5))]))
    assert legal(s, "u", (2 + boxes, 5), 90)
    assert not legal(s, "u", (3 + boxes, 5), 90)


def test_road_adds_half_when_the_whole_move_is_on_the_road():
    road = line("road", (0, 5), (19, 5))
    s, _ = session(build(INF, [road]))
    assert legal(s, "b", (8, 5), 90), "2 boxes x 1.5 = 3 along the road"
    assert not legal(s, "b", (9, 5), 90)
    s, _ = session(build(INF, [line("road", (0, 5), (6, 5))]))
    assert not legal(s, "b", (8, 5), 90), "the road ends: the whole move is not on it"


def test_only_light_infantry_enters_woods():
    woods = area("woods", 6, 5, 6, 5)
    s, _ = session(build(INF + [unit("l", "blue", "light_infantry", (5, 7))], [woods]))
    assert not legal(s, "b", (6, 5), 90)
    with pytest.raises(IllegalAction, match="only light infantry may enter woods"):
        s.check(ga.MoveUnit("b", centre((6, 5)), 90))
    s2, _ = session(build([unit("l", "blue", "light_infantry", (5, 5))], [woods]))
    assert legal(s2, "l", (6, 5), 90)


@pytest.mark.parametrize("kind,ok", [("line_infantry", True), ("light_cavalry", False),
                                     ("foot_artillery", False), ("horse_artillery", False)])
def test_no_cavalry_or_artillery_in_buildings(kind, ok):
    s, _ = session(build([unit("u", "blue", kind, (5, 5))], [area("town", 6, 5, 6, 5)]))
    assert legal(s, "u", (6, 5), 90) is ok


def test_entering_a_zone_of_control_stops_and_faces_the_enemy():
    units = [unit("c", "blue", "light_cavalry", (7, 5)),
             unit("r", "red", "line_infantry", (10, 4), facing=180)]   # ZOC (9,5) (10,5) (11,5)
    s, _ = session(build(units))
    assert not legal(s, "c", (12, 5), 90), "the zone at (9,5) stops the move"
    assert legal(s, "c", (8, 5), 90), "short of the zone the move is free"
    assert legal(s, "c", (9, 5), 45), "stopped in the zone, facing into the enemy box (NE)"
    assert not legal(s, "c", (9, 5), 90), "it must face into the box of the enemy"


def test_enemies_block_friends_may_be_passed_but_not_shared():
    units = [unit("a", "blue", "light_cavalry", (3, 5)), unit("f", "blue", "line_infantry", (4, 5)),
             unit("r", "red", "line_infantry", (9, 2), facing=0)]
    s, _ = session(build(units))
    assert legal(s, "a", (6, 5), 90), "through a friend"
    assert not legal(s, "a", (4, 5), 90), "not into a friend's box"


def test_fixed_battery_only_changes_facing():
    s, _ = session(build([unit("g", "blue", "foot_artillery", (5, 5), fixed=True)]))
    assert legal(s, "g", (5, 5), 45)
    assert not legal(s, "g", (6, 5), 90)


def test_a_unit_moves_once_and_only_in_its_own_turn():
    units = INF + [unit("r", "red", "line_infantry", (15, 5))]
    s, _ = session(build(units))
    assert not legal(s, "r", (14, 5), 270), "not red's turn"
    s.execute(ga.MoveUnit("b", centre((6, 5)), 90))
    assert not legal(s, "b", (7, 5), 90), "already moved"


def test_units_beyond_six_boxes_of_their_leader_move_half_speed_rounded_up():
    units = [unit("c", "blue", "light_cavalry", (10, 5))]
    s, _ = session(build(units, leaders={"b1": (2, 5)}))      # 8 boxes away
    assert legal(s, "c", (13, 5), 90), "5 halved and rounded up is 3"
    assert not legal(s, "c", (14, 5), 90)
    s, _ = session(build(units, leaders={"b1": (4, 5)}))      # 6 boxes: not farther
    assert legal(s, "c", (15, 5), 90)


def test_units_of_a_fallen_leader_move_half_speed():
    b = build([unit("i", "blue", "line_infantry", (5, 5))], leaders={"b1": (4, 5)})
    b.update_leader("b1-ldr", eliminated=True, hits=0)
    s, _ = session(b)
    assert legal(s, "i", (6, 5), 90) and not legal(s, "i", (7, 5), 90)


def test_shaken_units_half_speed_forward_full_speed_to_the_rear():
    b = build([unit("i", "blue", "line_infantry", (10, 5))], leaders={"b1": (9, 4)})
    b.set_state(shaken=frozenset({"b1"}))
    s, _ = session(b)
    assert legal(s, "i", (11, 5), 90) and not legal(s, "i", (12, 5), 90)
    assert legal(s, "i", (8, 5), 90), "retreating to the rear is not slowed (option full)"
    b2 = build([unit("i", "blue", "line_infantry", (10, 5))], leaders={"b1": (9, 4)},
               options={"shaken_rear_speed": "half"})
    b2.set_state(shaken=frozenset({"b1"}))
    s2, _ = session(b2)
    assert legal(s2, "i", (9, 5), 90) and not legal(s2, "i", (8, 5), 90)


def test_formations_column_moves_three_square_cannot_move():
    opts = {"formations": True}
    s, _ = session(build([unit("i", "blue", "line_infantry", (5, 5), formation="column")], options=opts))
    assert legal(s, "i", (8, 5), 90), "column raises infantry's base move to 3"
    s, _ = session(build(INF, options=opts))
    assert legal(s, "b", (7, 5), 90, "column"), "change (1) then 2 boxes in column"
    assert not legal(s, "b", (8, 5), 90, "column")
    s, _ = session(build([unit("q", "blue", "line_infantry", (5, 5), formation="square")], options=opts))
    assert not legal(s, "q", (6, 5), 90)
    with pytest.raises(IllegalAction, match="formations are not in use"):
        session(build(INF))[0].check(ga.ChangeFormation("b", "column"))


def test_napoleon_gives_infantry_an_extra_box():
    opts = {"national_characteristics": True}
    gens = {"blue": {"trait": "napoleon", "at": [0, 11]}}
    s, _ = session(build(INF, options=opts, generals=gens))
    assert legal(s, "b", (8, 5), 90)
    s, _ = session(build(INF, generals=gens))
    assert not legal(s, "b", (8, 5), 90), "only with national characteristics in use"


def test_leader_moves_six_and_stays_near_his_command():
    b = build(INF, leaders={"b1": (4, 5)})
    s, _ = session(b)
    assert s.is_legal(ga.MoveLeader("b1-ldr", centre((10, 5))))
    assert not s.is_legal(ga.MoveLeader("b1-ldr", centre((11, 5)))), "7 boxes: too far to ride"
    with pytest.raises(IllegalAction, match="within 6 boxes of his command"):
        s2, _ = session(build(INF, leaders={"b1": (9, 5)}))
        s2.check(ga.MoveLeader("b1-ldr", centre((14, 5))))
