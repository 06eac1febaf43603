"""What a shooter can see and aim at: the line of sight from centre to centre (no base,
no woods, town or higher hill across it), the commander's first looks at many lines at
once (`surely_hidden`, `hidden_from`: sight_floats), and the arc of fire (45 degrees
either side of the facing, from the front centre).
"""
from __future__ import annotations

import math

from ... import spatial
from ...footprint import angle_between, bearing, distance, heading, segment, surely_apart
from ...model.forces import mark
from ...table_terrain import table_terrain
from . import ground
from .sight_floats import crossed
from .state import footprint

FIRE_ARC = 45



def sight_refusal(battle, unit, target) -> str:
    """Line of sight from centre to centre: no other base and no woods, town or higher
    hill across it (an inch at each end is the units' own ground)."""
    return spatial.memo(battle, "featherstone.sight", (unit.id, target.id), (unit, target),
                        lambda: _sight_refusal(battle, unit, target))


def _sight_refusal(battle, unit, target) -> str:
    (ax, ay), (bx, by) = unit.pos, target.pos
    length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2) or 1e-9   # as shapely measures
    line = None
    # the units near the line, from the spatial index (a superset of those the centre
    # test below keeps, in the same order): not every unit within the line's length
    for o in spatial.unit_grid(battle).along(unit.pos, target.pos, 4.5):
        if o.id in (unit.id, target.id) or distance(o.pos, unit.pos) > length + 8:
            continue
        # cheap test first: the centre's distance from the line against the base's size
        t = max(0.0, min(1.0, ((o.x - ax) * (bx - ax) + (o.y - ay) * (by - ay)) / length ** 2))
        off = math.hypot(ax + t * (bx - ax) - o.x, ay + t * (by - ay) - o.y)
        if off > 4.5:
            continue
        fp = footprint(battle, o)
        # every corner lies within half the diagonal of the centre: a base whose centre
        # is farther than that from the line cannot meet it (~96% of those asked), so
        # no shape is built nor shapely asked (1e-6 inch to spare for the rounding)
        if off > math.hypot(fp.frontage, fp.depth) / 2 + 1e-6:
            continue
        line = line or segment(unit.pos, target.pos)
        if fp.polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = ground_blocking(battle, unit, target)
    return f"{blocked} blocks the line of sight" if blocked else ""


def ground_blocking(battle, unit, target) -> str:
    """The ground across the line of sight from centre to centre ('' if none): kept
    across versions (most units stand still). When it names one, `sight_refusal` does
    too (or a base before it), so `shot_spec` refuses the shot whatever else it finds:
    the commander asks it first of a target its first pass did not surely hide."""
    a, b = unit.pos, target.pos
    return ground.kept(battle, "sight", (a, b), lambda: table_terrain(
        battle.battlefield).sight_blocked(a, b, skip=1.0))


def surely_hidden(battle, unit, targets) -> list:
    """For each target: does `sight_refusal` surely name a base in the way (so that
    shot_spec, and check_fire, refuse the shot)? One pass per shooter (_crossed)
    (`sightlines.surely_crossed`, the scan's bounds: centre to centre, blockers within
    length + 8 of the shooter and 4.5 of the line). A charging target is never claimed:
    first and support fire are judged by other rules. False means only "maybe not"."""
    if not targets:
        return []
    hidden = _crossed(battle, unit, targets)
    return [h and not mark(t, "charging") for h, t in zip(hidden, targets)]


def hidden_from(battle, target, shooters) -> list:
    """For each shooter: does `sight_refusal(battle, shooter, target)` surely name a base
    in the way? All the lines to one target (support fire) judged in one pass from
    the target's end: the same segment, the same two units left out, and the scan's
    bound of 4.5 inches from the line keeps a blocker within the line's length + 4.5 of
    the shooter, inside the scan's length + 8. False means only "maybe not"."""
    if not shooters:
        return []
    return _crossed(battle, target, shooters)


def _crossed(battle, origin, ends) -> list:
    """`sightlines.surely_crossed` from `origin`'s centre to each end unit's, over the
    live bases (`rows`, kept current from the journal): in plain floats, each line
    stopping at the first base across it (sight_floats)."""
    return crossed(battle, origin, ends)

def surely_out_of_arc(battle, unit, target) -> bool:
    """Does `_shot_spec` surely refuse the shot as outside the arc of fire? (Its own test
    of the bearing, and bases surely more than touching apart; a square shoots all
    round, and a charging target is judged by the charge-fire rules.) A first look for
    the commander, before lines of sight are judged."""
    return not maybe_in_arc(battle, unit, [target])


def maybe_in_arc(battle, unit, targets, apart=None) -> list:
    """The targets `surely_out_of_arc` does not pass over, in order (the shooter's base
    and front centre read once). `apart`: each target's bound from near_bases_apart,
    within 1e-9 of surely_apart's: one clear of its 2e-6 by 1e-9 is surely apart."""
    if unit.formation == "square" or not targets:
        return list(targets)
    fp = footprint(battle, unit)
    inside = _in_arc_all(fp.front_centre(), unit.facing, [t.pos for t in targets])
    if apart is None:
        apart = [0.0] * len(targets)
    return [t for t, ok, a in zip(targets, inside, apart)
            if ok or mark(t, "charging") or (a <= 2e-6 + 1e-9 and not surely_apart(
                fp, footprint(battle, t), 1e-6))]


# the arc of fire's border as the cosine of the angle off the facing, a hair either side:
# 1e-9 is far above the rounding of a dot product over a length, far below the 1e-6
# degree the bearing test keeps (a cosine moves by ~1.2e-8 a 1e-6 degree there)
_COS_IN = math.cos(math.radians(FIRE_ARC + 1e-6)) + 1e-9
_COS_OUT = math.cos(math.radians(FIRE_ARC + 1e-6)) - 1e-9


def _in_arc(front, facing: float, xy) -> bool:
    """`angle_between(bearing(front, xy), facing) <= FIRE_ARC + 1e-6` (_shot_spec's arc
    test), by `_in_arc_all`."""
    return _in_arc_all(front, facing, (xy,))[0]


def _in_arc_all(front, facing: float, points) -> list:
    """`_in_arc` of each point: the cosine of the angle off the facing against the
    border's when it is clear of it (most targets, ~17,000 asks in 8 turns), the
    bearings on a knife edge. One loop for a shooter's targets: the facing's heading
    is read once, and no call is made per target."""
    hx, hy = heading(facing)
    fx, fy = front
    out = []
    for xy in points:
        dx, dy = xy[0] - fx, xy[1] - fy
        r = math.hypot(dx, dy)
        c = dx * hx + dy * hy
        if c > r * _COS_IN:
            out.append(True)
        elif c < r * _COS_OUT:
            out.append(False)
        else:
            out.append(angle_between(bearing(front, xy), facing) <= FIRE_ARC + 1e-6)
    return out
