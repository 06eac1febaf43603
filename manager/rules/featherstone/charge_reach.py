"""Whether a charge can be made, and where it ends: the path into contact (the forward
arc, the straight line, room to turn, the ground's cost against one move), nothing in
the way (friends passed through with pass_through_friends), the table's edge; and the
commander's sure first looks at charges it cannot make (`surely_too_far`,
`surely_in_the_way`).
"""
from __future__ import annotations

import math

from ...actions import need
from ...errors import IllegalAction
from ...contact import contact_point, least_advance
from ...footprint import (EPS, Sweep, angle_between, area_above, bearing, distance,
                          gap_above, heading, inside, overlap, surely_apart, travel)
from ...model.forces import mark
from . import ground
from .charge_ground import obstacles_cost
from .recall import checked, recall
from .moves import own_unit, terrain_between
from .state import arm, engaged, footprint, move_rate
from .nearby import base_gap, near_the_move



def charge_path(battle, unit, target):
    """(contact point, facing, cost, rate) for a charge, or IllegalAction why not
    (remembered until the battle changes: the check, the odds and the charge ask it)."""
    return recall(battle, "featherstone.charge_path", (unit.id, target.id), (unit, target),
                  lambda: _charge_path(battle, unit, target))


def _charge_path(battle, unit, target):
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    arc = battle.option("forward_arc", 45)
    # the path is geometry and ground alone: kept across versions while neither base moves
    spot, way, cost = ground.kept(
        battle, "charge_path", (unit.id, unit.name, target.id, target.name, fp, tfp, arc),
        lambda: _contact(battle, unit, target, fp, tfp, arc))
    rate = move_rate(unit) * mark(unit, "allow", 1)
    return spot, way, cost, rate


def _contact(battle, unit, target, fp, tfp, arc):
    """(contact point, facing, cost) of the charge from base fp at base tfp, or why not:
    read off the two bases, the forward arc and the ground only."""
    need(angle_between(bearing(fp.front_centre(), target.pos), unit.facing) <= arc + 1e-6,
         f"{target.name} is not in {unit.name}'s forward arc")
    way = round(bearing(unit.pos, target.pos)) % 360     # facings are whole degrees
    spot = contact_point(fp.moved(unit.x, unit.y, way), tfp, way)
    need(spot is not None, f"{unit.name} cannot reach {target.name} in a straight line")
    end = fp.moved(spot[0], spot[1], way)
    need(not overlap(end, tfp), f"{unit.name} has no room to turn and charge {target.name}")
    extra, refusal, _ = terrain_between(battle, unit.pos, spot) \
        if distance(unit.pos, spot) > 1e-9 else (0.0, "", False)
    need(not refusal, refusal)
    return spot, way, travel(fp, end) + extra


def surely_too_far(battle, unit, target) -> bool:
    """Is the target certainly beyond the unit's charge (check_charge would refuse it)?
    A cheap first look for the automatic commander, which asks of every enemy near.

    The charger's base, turned toward the target, must advance at least its gap to the
    target's base (less the EPS of touching) before the bases meet; the charge costs at
    least that advance (the farthest corner's travel is no less than the centre's), and
    may cost at most the rate. One gap (or none) instead of charge_path's bisection.
    After the gap, _surely_beyond: the wheel and the least advance to contact (a
    charge at an enemy off its line costs more than the gap: its flank wheels), and the
    walls and streams the path's first inches surely cross (charge_ground)."""
    rate = move_rate(unit) * mark(unit, "allow", 1)
    way = round(bearing(unit.pos, target.pos)) % 360
    fp = footprint(battle, unit)
    start = fp.moved(unit.x, unit.y, way)
    tfp = footprint(battle, target)
    slack = rate + 1e-6 + EPS + 1e-6          # the check's tolerance, touching, rounding
    if surely_apart(start, tfp, slack):
        return True
    # the gap by the bases' separating axes when they are certain of it (most), else
    # shapely's (kept across versions)
    far = gap_above(start, tfp, slack)
    if far is None:
        far = base_gap(battle, start, tfp) > slack
    if far:
        return True
    # (the bases' geometry alone, kept across versions as the gap and the path are)
    return ground.kept(battle, "beyond", (fp, tfp, way, rate),
                       lambda: _surely_beyond(fp, start, tfp, way, rate, battle.battlefield))


def _surely_beyond(fp, start, tfp, way: float, rate: float, battlefield=None) -> bool:
    """Does the charge's wheel and advance alone surely cost more than `rate`? The
    check's cost is travel(fp, end) (plus ground), end being `start` (the base turned
    to `way`) advanced d along `way` to the contact point, d at least
    contact.least_advance. Each corner goes w + d*v (w: its wheel, v: the heading), at
    least |w + lo*v| for every d >= lo when w.v + lo >= 0, else at least its offset
    across the path |w x v|; the farthest-going corner's travel is the cost. With the
    battlefield, the linear obstacles the path's first `lo` inches surely cross are
    added (charge_ground: the path's terrain adds at least that)."""
    lo = least_advance(start, tfp, way)
    if lo is None:
        return False
    vx, vy = heading(way)
    worst = 0.0
    for (ax, ay), (bx, by) in zip(fp.corners(), start.corners()):
        wx, wy = bx - ax, by - ay
        if wx * vx + wy * vy + lo >= 0:
            worst = max(worst, math.hypot(wx + lo * vx, wy + lo * vy))
        else:
            worst = max(worst, abs(wx * vy - wy * vx))
    limit = rate + 1e-6 + 1e-5                  # the check's tolerance, and rounding
    if worst > limit or battlefield is None:
        return worst > limit
    # (the spot is at least lo - SLACK along the path: 1e-6 less is surely within it)
    return worst + obstacles_cost(battlefield, start.x, start.y, vx, vy, lo - 1e-6) > limit


def surely_in_the_way(battle, unit, target) -> bool:
    """Does the unit last found in the way of this charge (by _path_refusal, in this
    battle or an earlier version of it) stand in the way of it now, as _path_refusal
    judges it (so check_charge refuses the charge)? A first look for the commander,
    which asks every turn of charges a line of friends stands before: the one unit's
    test, not every unit's near the path. False means only "maybe not"."""
    oid = battle.kept("featherstone.in_the_way", dict).get((unit.id, target.id))
    o = battle.units.get(oid) if oid is not None else None
    if o is None or o.eliminated or o.id in (unit.id, target.id):
        return False
    try:
        spot, way, _, _ = charge_path(battle, unit, target)
    except IllegalAction:
        return False                     # (refused anyway: the check says why)
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    # _path_refusal asks the units whose centre is within this of the charger's
    if distance(o.pos, unit.pos) > distance(unit.pos, end.centre) + 12:
        return False
    if o.side == unit.side and battle.option("pass_through_friends") and \
            not on_friend(end, footprint(battle, o)):
        return False
    return Sweep(footprint(battle, unit), end).crosses(footprint(battle, o))


def _check_charge(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(arm(unit) in ("infantry", "cavalry"), "only foot and horse charge, not artillery")
    need(unit.moved == 0 and not mark(unit, "charging"), f"{unit.name} has already moved")
    need(not engaged(battle, unit), f"{unit.name} is locked in a melee")
    need(unit.formation not in ("square", "march_column"),
         f"{unit.name} cannot charge in {unit.formation.replace('_', ' ')}")
    need(mark(unit, "allow", 1) > 0, f"{unit.name} may not move this turn (its rally result)")
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated and target.side != unit.side,
         f"{action.target!r} is not an enemy unit")
    need(not (arm(unit) == "infantry" and arm(target) == "cavalry"),
         "infantry may not charge cavalry")
    need(not mark(target, "sheltered"), f"{target.name}'s crew have left the gun")
    spot, way, cost, rate = charge_path(battle, unit, target)
    need(cost <= rate + 1e-6, f"{target.name} is {cost:.1f} inches of charge away; "
         f"{unit.name} charges {rate:g} (one move)")
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    why = _path_refusal(battle, unit, target, end)
    need(not why, f"{unit.name} cannot charge {target.name}: {why}")


check_charge = checked(_check_charge)     # asked again and again of one battle version


def on_friend(end, fp) -> bool:
    """Would the charger's base at `end` stand on the friend's base fp (with
    pass_through_friends, the only friend in the way)? The shapes' common area above
    1e-4 square inches, as shapely measures it; plain arithmetic first (bases whose
    circles are apart share none; footprint.area_above answers only with a margin far
    above shapely's rounding, so it says what shapely would), the shapes for the rest."""
    if surely_apart(end, fp, 0.0):
        return False
    sure = area_above(end, fp, 1e-4)
    if sure is not None:
        return sure
    return end.polygon().intersection(fp.polygon()).area > 1e-4


def _path_refusal(battle, unit, target, end) -> str:
    start = footprint(battle, unit)
    sweep = Sweep(start, end)
    # the units near_units finds within this of the charger, less those whose base is
    # surely clear of the ground the charge passes over (sweep.crosses is false)
    for o in near_the_move(battle, unit, end, start, distance(unit.pos, end.centre) + 12,
                           unit.pos):
        if o.id in (unit.id, target.id):
            continue
        if o.side == unit.side and battle.option("pass_through_friends") and \
                not on_friend(end, footprint(battle, o)):
            continue
        if sweep.crosses(footprint(battle, o)):
            # remembered for the commander's first look (surely_in_the_way)
            battle.kept("featherstone.in_the_way", dict)[(unit.id, target.id)] = o.id
            return f"{o.name} is in the way"
    bf = battle.battlefield
    if not inside(end, bf.width, bf.height):
        return "it would leave the table"
    return ""
