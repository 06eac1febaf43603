"""Missile fire clauses: dice, scores and consequences, with the faces given by hand."""
import pytest

from builders import area, build, centre, line, point, session, unit
from manager import game_actions as ga
from manager.errors import IllegalAction


def fire(battle, faces, firer="b", target="r"):
    s, src = session(battle, faces)
    events = s.execute(ga.Fire(firer, target))
    assert not src.pending, "the test gave more faces than the rules rolled"
    return s, events, s.entries[-1].rolls


def hits_left(s, uid):
    return s.battle.units[uid].hits


# (firer kind, firer box, target box, faces, expected hits, why)
CASES = [
    ("line_infantry", (5, 5), (7, 5), [5, 4], 1, "2 dice at half range, 5 and 6 hit"),
    ("line_infantry", (5, 5), (8, 5), [6], 1, "over half range: one die fewer"),
    ("line_infantry", (5, 5), (9, 5), [5], 1, "4 boxes is still in range, long"),
    ("light_infantry", (5, 5), (7, 5), [4, 4, 3], 2, "light infantry: 3 dice hitting on 4+"),
    ("militia", (5, 5), (7, 5), [4, 5], 1, "militia: 2 dice on 5, 6"),
    ("light_cavalry", (5, 5), (6, 5), [6], 1, "light cavalry: 1 die on a 6, range 3"),
    ("foot_artillery", (3, 5), (9, 5), [1, 2, 6], 2, "grape within 6 boxes hits on 2+"),
    ("foot_artillery", (1, 5), (8, 5), [3, 4, 6], 2, "shot beyond 6 boxes hits on 4+, no long-range loss"),
    ("horse_artillery", (1, 5), (13, 5), [4, 5], 2, "horse artillery: 2 dice, shot to 12"),
]


@pytest.mark.parametrize("kind,at,target,faces,expected,why", CASES)
def test_fire_table(kind, at, target, faces, expected, why):
    b = build([unit("b", "blue", kind, at), unit("r", "red", "guard_infantry", target)], width=20)
    s, events, rolls = fire(b, faces)
    assert rolls[0].faces == tuple(faces)
    assert hits_left(s, "r") == 8 - expected, why


def test_one_die_fewer_after_losing_half_the_hits():
    base = [unit("r", "red", "guard_infantry", (7, 5))]
    s, _, rolls = fire(build([unit("b", "blue", "line_infantry", (5, 5), hits=3)] + base), [6, 6])
    assert len(rolls[0].faces) == 2, "3 of 5 left: lost 2, under half"
    s, _, rolls = fire(build([unit("b", "blue", "line_infantry", (5, 5), hits=2)] + base), [6])
    assert len(rolls[0].faces) == 1, "2 of 5 left: lost half or more"


def test_guard_artillery_adds_one_and_a_seven_is_two_hits_close_only():
    target = unit("r", "red", "guard_infantry", (9, 5))
    s, _, _ = fire(build([unit("b", "blue", "foot_artillery", (4, 5), guard=True), target]), [6, 1, 3])
    assert hits_left(s, "r") == 8 - 4, "close (grape, 2+): 6+1=7 is two hits, 1+1=2 and 3+1=4 one each"
    far = unit("r", "red", "guard_infantry", (14, 5))
    s, _, _ = fire(build([unit("b", "blue", "foot_artillery", (2, 5), guard=True), far], width=20),
                   [6, 3, 2])
    assert hits_left(s, "r") == 8 - 2, "long (shot): 7 is one hit; 3+1=4 hits; 2+1=3 misses"


@pytest.mark.parametrize("cover", [
    [area("woods", 7, 5, 7, 5)], [area("town", 7, 5, 7, 5)],
    [line("wall", (6, 3), (6, 8))],
])
def test_minus_one_into_woods_buildings_or_behind_walls(cover):
    b = build([unit("b", "blue", "line_infantry", (5, 5)),
               unit("r", "red", "light_infantry", (7, 5))], cover)
    s, _, _ = fire(b, [5, 6])
    assert hits_left(s, "r") == 4 - 1, "5 becomes 4 and misses; 6 becomes 5 and hits"


def test_cover_penalties_do_not_stack_unless_the_option_says():
    cover = [area("town", 7, 5, 7, 5), line("wall", (6, 3), (6, 8))]
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5))]
    s, _, _ = fire(build(units, cover), [5, 5, 4])
    assert hits_left(s, "r") == 8 - 2, "one -1: 5s hit on 4+, the 4 misses"
    s, _, _ = fire(build(units, cover, options={"terrain_penalties_stack": True}), [5, 5, 6])
    assert hits_left(s, "r") == 8 - 1, "stacked -2: only the 6 reaches 4"


def test_shaken_command_shoots_at_minus_one():
    b = build([unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5))])
    b.set_state(shaken=frozenset({"b1"}))
    s, _, _ = fire(b, [5, 6])
    assert hits_left(s, "r") == 7


@pytest.mark.parametrize("terrain,ok", [
    ([line("stream", (5, 0), (5, 11))], False),
    ([point("ford", (5, 5))], False),
    ([line("stream", (5, 0), (5, 11)), point("bridge", (5, 5))], True),
])
def test_no_shooting_from_a_stream_or_ford(terrain, ok):
    b = build([unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (7, 5))],
              terrain)
    s, _ = session(b)
    assert s.is_legal(ga.Fire("b", "r")) is ok


def test_foot_artillery_may_not_fire_after_moving_but_may_after_turning():
    units = [unit("b", "blue", "foot_artillery", (3, 5)), unit("r", "red", "line_infantry", (9, 5)),
             unit("h", "blue", "horse_artillery", (3, 7))]
    s, _ = session(build(units))
    s.execute(ga.MoveUnit("b", centre((4, 5)), 90))
    with pytest.raises(IllegalAction, match="foot artillery and moved"):
        s.check(ga.Fire("b", "r"))
    s.execute(ga.MoveUnit("h", centre((4, 7)), 90))
    assert s.is_legal(ga.Fire("h", "r")), "horse artillery may move then fire"


def test_foot_artillery_turning_in_place_can_still_fire():
    units = [unit("b", "blue", "foot_artillery", (3, 5), facing=45),
             unit("r", "red", "line_infantry", (9, 5))]
    s, _ = session(build(units))
    s.execute(ga.MoveUnit("b", centre((3, 5)), 90))
    assert s.is_legal(ga.Fire("b", "r"))


def test_fire_at_the_beginning_or_end_of_the_move_once():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "guard_infantry", (8, 5))]
    s, src = session(build(units), [6])
    s.execute(ga.Fire("b", "r"))
    assert s.is_legal(ga.MoveUnit("b", centre((6, 5)), 90)), "fired first, may still move"
    s.execute(ga.MoveUnit("b", centre((6, 5)), 90))
    assert not s.is_legal(ga.Fire("b", "r")), "one shot a turn"


def test_two_hits_from_fire_in_a_turn_fall_back_two_boxes_facing_the_enemy():
    units = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5))]
    s, events, _ = fire(build(units), [4, 6, 1])
    r = s.battle.units["r"]
    assert r.hits == 6 and (int(r.x // 3), int(r.y // 3)) == (9, 5) and r.facing == 270


def test_hits_from_two_shots_add_up_for_the_fall_back():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("c", "blue", "line_infantry", (5, 6)),
             unit("r", "red", "guard_infantry", (7, 5))]
    s, src = session(build(units), [6, 1, 5])    # the second shot is long range: one die
    s.execute(ga.Fire("b", "r"))
    assert (int(s.battle.units["r"].x // 3)) == 7, "one hit: stands"
    s.execute(ga.Fire("c", "r"))
    assert (int(s.battle.units["r"].x // 3)) == 9, "the second hit this turn: falls back"


def test_range_arc_and_line_of_sight():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (10, 5)),
             unit("n", "red", "line_infantry", (5, 8)), unit("x", "red", "line_infantry", (8, 4)),
             unit("f", "blue", "line_infantry", (6, 6)), unit("y", "red", "line_infantry", (7, 7))]
    s, _ = session(build(units))
    with pytest.raises(IllegalAction, match="beyond"):
        s.check(ga.Fire("b", "r"))                      # 5 boxes
    with pytest.raises(IllegalAction, match="outside .* arc"):
        s.check(ga.Fire("b", "n"))                      # straight south
    assert s.is_legal(ga.Fire("b", "x")), "3 across and 1 up: 2 + 1.5 = 3.5 boxes"
    with pytest.raises(IllegalAction, match="in the way"):
        s.check(ga.Fire("b", "y"))                      # the friend at (6,6) is on the line


def test_diagonal_counts_one_and_a_half_for_range():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (8, 8))]
    s, _ = session(build(units, options={"fire_arc": 45}))
    with pytest.raises(IllegalAction, match="4.5 boxes away"):
        s.check(ga.Fire("b", "r"))


def test_rifles_shoot_six_sharpshooters_hit_on_four():
    units = [unit("b", "blue", "rifles", (3, 5)), unit("r", "red", "guard_infantry", (9, 5))]
    s, _, rolls = fire(build(units), [4, 3])
    assert hits_left(s, "r") == 7, "6 boxes: long range, 2 dice on 4+"
    s, _ = session(build(units, options={"rifles": False}))
    assert not s.is_legal(ga.Fire("b", "r"))
    units = [unit("b", "blue", "line_infantry", (5, 5), sharpshooters=True),
             unit("r", "red", "guard_infantry", (7, 5))]
    s, _, _ = fire(build(units), [4, 3])
    assert hits_left(s, "r") == 7


def test_columns_and_squares_give_the_shooter_an_extra_die():
    units = [unit("b", "blue", "line_infantry", (5, 5)),
             unit("r", "red", "guard_infantry", (7, 5), formation="column")]
    s, _, rolls = fire(build(units, options={"formations": True}), [1, 1, 6])
    assert len(rolls[0].faces) == 3 and hits_left(s, "r") == 7


def test_wellington_british_line_rolls_an_extra_die_close():
    opts = {"national_characteristics": True}
    gens = {"blue": {"trait": "wellington", "at": [0, 0]}}
    units = [unit("b", "blue", "line_infantry", (5, 5), nation="britain"),
             unit("r", "red", "guard_infantry", (7, 5))]
    s, _, rolls = fire(build(units, options=opts, generals=gens), [1, 1, 5])
    assert len(rolls[0].faces) == 3
    units[1] = unit("r", "red", "guard_infantry", (8, 5))
    s, _, rolls = fire(build(units, options=opts, generals=gens), [6])
    assert len(rolls[0].faces) == 1, "not at long range"


@pytest.mark.parametrize("faces,hit", [([1, 1], True), ([1, 2], True), ([2, 2], False), ([6, 6], False)])
def test_a_leader_in_a_box_shot_at_is_hit_on_two_or_three(faces, hit):
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "guard_infantry", (7, 5))]
    b = build(units, leaders={"r1": (7, 5)})
    s, _, rolls = fire(b, [1, 1] + faces)
    assert rolls[1].expression == "2D6" and "leader hit" in rolls[1].purpose
    assert s.battle.leaders["r1-ldr"].hits == (1 if hit else 2)


def test_heavy_cavalry_does_not_shoot():
    units = [unit("b", "blue", "heavy_cavalry", (5, 5)), unit("r", "red", "line_infantry", (6, 5))]
    s, _ = session(build(units))
    with pytest.raises(IllegalAction, match="does not shoot"):
        s.check(ga.Fire("b", "r"))


def test_opening_bombardment_long_range_artillery_only_and_no_contact():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("g", "blue", "foot_artillery", (0, 9)),
             unit("c", "blue", "light_cavalry", (5, 3)), unit("r", "red", "line_infantry", (8, 5)),
             unit("r2", "red", "line_infantry", (8, 7))]
    s, _ = session(build(units, options={"bombardment_turns": 1}))
    with pytest.raises(IllegalAction, match="opening bombardment"):
        s.check(ga.Fire("b", "r"))
    assert s.is_legal(ga.Fire("g", "r")), "artillery at 10 boxes: long range"
    assert not s.is_legal(ga.MoveUnit("c", centre((7, 4)), 135)), "no entering a zone"
    assert s.ruleset.melees(s.battle) == []
