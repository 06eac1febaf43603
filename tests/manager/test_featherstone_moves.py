"""Featherstone-like movement on the open table: rates, half-rate moves, terrain,
roads, formation changes and the geometry underneath (footprints, arcs, aspects)."""
import math

import pytest

from builders import build_table, piece, polyline, rect, session_at
from manager import game_actions as ga
from manager.contact_scan import contact_point
from manager.footprint import Footprint, aspect, gap, in_arc, travel

FS = "featherstone"


def mover(kind="line_infantry", terrain=(), **kw):
    b = build_table([piece("b", "blue", kind, (20, 20), **kw)], FS, terrain=terrain)
    s, _ = session_at(b, "moves", side="blue")
    return s


def ok(s, to, facing=0, formation=""):
    return s.is_legal(ga.MoveUnit("b", to, facing, formation))


@pytest.mark.parametrize("kind, formation, rate", [
    ("line_infantry", "line", 6), ("line_infantry", "column", 9),
    ("light_infantry", "extended", 9), ("line_infantry", "march_column", 12),
    ("heavy_cavalry", "line", 12), ("light_cavalry", "line", 15),
    ("light_cavalry", "march_column", 18), ("heavy_artillery", "line", 6),
    ("foot_artillery", "line", 9), ("horse_artillery", "line", 12)])
def test_move_rates_by_type_and_formation(kind, formation, rate):
    s = mover(kind, formation=formation)
    assert ok(s, (20, 20 - rate))
    assert not ok(s, (20, 20 - rate - 0.25))


def test_a_square_cannot_move():
    s = mover(formation="square")
    assert not ok(s, (20, 19))


def test_any_other_direction_or_facing_is_at_half_rate():
    s = mover()
    assert ok(s, (23, 20), 0)                   # sideways 3 inches = 6 at half rate
    assert not ok(s, (23.25, 20), 0)
    assert not ok(s, (20, 17), 90)              # forward but ending askew: half rate
    assert ok(s, (20, 20), 90)                  # a quarter turn: corners go 2.24 in (x2)
    assert not ok(s, (20, 19), 90)


def test_a_forward_move_at_an_angle_counts_the_outer_flank():
    s = mover()
    # 30 degrees off the facing, ending square to the line of advance: the far corner
    # travels farther than the centre
    d = 5.0
    to = (20 + d * math.sin(math.radians(30)), 20 - d * math.cos(math.radians(30)))
    start = Footprint(20, 20, 0, 3, 1)
    assert travel(start, start.moved(*to, 30)) > d
    assert ok(s, to, 30)
    far = (20 + 6 * math.sin(math.radians(30)), 20 - 6 * math.cos(math.radians(30)))
    assert not ok(s, far, 30)
    assert not ok(s, (20 + 4 * math.sin(math.radians(60)), 20 - 4 * math.cos(math.radians(60))), 60)


def test_area_terrain_is_half_speed_and_roads_negate_it():
    s = mover(terrain=[rect("woods", 10, 0, 30, 19.5)])
    assert ok(s, (20, 17))                      # 3 inches in the wood cost 6
    assert not ok(s, (20, 16.5))
    s = mover(terrain=[rect("woods", 10, 0, 30, 19.5), polyline("road", (20, 30), (20, 0))])
    assert ok(s, (20, 14))


def test_a_linear_obstacle_costs_three_inches():
    s = mover(terrain=[polyline("wall", (10, 18), (30, 18))])
    assert ok(s, (20, 17))
    assert not ok(s, (20, 16.5))


def test_rivers_only_at_bridges_and_fords():
    s = mover(terrain=[polyline("river", (0, 18), (48, 18))])
    assert not ok(s, (20, 16))
    s = mover(terrain=[polyline("river", (0, 18), (48, 18)), {"kind": "bridge", "points": [[20, 18]]}])
    assert ok(s, (20, 14))
    s = mover(terrain=[polyline("river", (0, 18), (48, 18)), {"kind": "ford", "points": [[20, 18]]}])
    assert ok(s, (20, 17)) and not ok(s, (20, 16.5))


def test_march_column_gains_three_inches_on_a_road_and_guns_double():
    road = [polyline("road", (20, 35), (20, 0))]
    s = mover(terrain=road, formation="march_column")
    assert ok(s, (20, 5)) and not ok(s, (20, 4.5))          # 12 + 3
    s = mover("foot_artillery", terrain=road)
    assert ok(s, (20, 2)) and not ok(s, (20, 1.5))          # 9 x 2


def test_changing_formation_costs_half_a_move():
    s = mover()
    s.execute(ga.ChangeFormation("b", "column"))
    assert ok(s, (20, 15.5)) and not ok(s, (20, 15.25))     # half of the column's 9
    s = mover()
    assert s.is_legal(ga.MoveUnit("b", (20, 15.5), 0, "column"))
    assert not s.is_legal(ga.MoveUnit("b", (20, 15.25), 0, "column"))


def test_only_light_troops_take_extended_order_unless_the_option_says_any():
    s = mover()
    assert not s.is_legal(ga.ChangeFormation("b", "extended"))
    b = build_table([piece("b", "blue", "line_infantry", (20, 20))], FS,
                    options={"extended_order": "all"})
    s, _ = session_at(b, "moves", side="blue")
    assert s.is_legal(ga.ChangeFormation("b", "extended"))


def test_bases_may_not_overlap_and_only_a_charge_touches_the_enemy():
    b = build_table([piece("b", "blue", "line_infantry", (20, 20)),
                     piece("r", "red", "line_infantry", (20, 15))], FS)
    s, _ = session_at(b, "moves", side="blue")
    assert not s.is_legal(ga.MoveUnit("b", (20, 16), 0))
    assert s.is_legal(ga.MoveUnit("b", (20, 16.5), 0))


def test_artillery_moves_any_way_at_full_speed():
    s = mover("foot_artillery")
    assert ok(s, (29, 20), 90)


def test_a_general_rides_fifteen_inches_and_attaches_on_a_base():
    b = build_table([piece("b", "blue", "line_infantry", (20, 20))], FS,
                    leaders={"b1": {"pos": [20, 34]}})
    s, _ = session_at(b, "generals", side="blue")
    assert not s.is_legal(ga.MoveLeader("b1-ldr", (20, 18)))
    events = s.execute(ga.MoveLeader("b1-ldr", (20, 20)))
    assert any("attached to b" in str(e.to) for e in events if hasattr(e, "to"))


# ---- the geometry ------------------------------------------------------------------------
def test_footprints_gaps_arcs_and_aspects():
    a = Footprint(0, 0, 0, 3, 1)
    b = Footprint(0, -5, 180, 3, 1)
    assert gap(a, b) == pytest.approx(4.0)
    assert in_arc(a, (0, -10), 45) and not in_arc(a, (10, 0), 45)
    assert aspect(b, (0, 0)) == "front"
    assert aspect(b, (5, -5)) == "flank"
    assert aspect(b, (0, -10)) == "rear"
    spot = contact_point(a, b, 0)
    assert spot[1] == pytest.approx(-4.0, abs=1e-4)
