"""A sure lower bound of what the linear obstacles add to a charge's cost (issue 17).

`charge_reach.surely_too_far` tells the commander, before the contact search, which
charges the check would refuse as too far: by the bases' gap, then by the wheel and the
least advance to contact. Most charges it lets by that the check then refuses are too
far only by a stream's 3 inches (the charge's travel is within the move). The check's
cost is the travel plus `moves._terrain_cost` of the centre's path from the unit to its
contact spot, which adds LINEAR_OBSTACLE_COST for each point where that path crosses a
wall, or a stream away from a bridge (a river: the same, or no crossing at all, a
refusal). The path runs from the unit's centre along the charge's bearing for at least
`contact.least_advance` inches, so an obstacle its first inches surely cross is crossed
by the whole path too:

- "surely": the two segments cross properly, each one's ends more than MARGIN off the
  other's line (so the whole path, which goes on along the same ray, crosses that very
  segment of the obstacle away from its vertices, at nearly the same point: the floats
  of the spot and of shapely's intersection differ from these by far less);
- the crossing more than CROSSING_REACH + MARGIN from every bridge (for a stream or a
  river: `crossing_at` then finds no bridge at shapely's point either);
- at most one crossing counted per obstacle, and only for obstacles whose line does not
  cross itself (shapely's points of a simple line and a segment crossing it are its
  crossing points, one each).
So the bound is never more than what the check adds (or the check refuses outright).
"""
from __future__ import annotations

import math

from ...table_terrain import CROSSING_REACH, table_terrain
from ...geometry import per_battlefield
from .tables import LINEAR_OBSTACLE_COST

MARGIN = 1e-6           # inches: far above the rounding of coordinates under 1e4
KINDS = ("wall", "stream", "river")     # the kinds `_terrain_cost` reads


class _Obstacles:
    """Each simple wall, stream or river line's box and segments, and the bridges, in
    floats."""

    def __init__(self, battlefield):
        t = table_terrain(battlefield)
        self.lines = [(kind, line.bounds, _segments(line)) for kind in KINDS
                      for _, line in t.lines.get(kind, []) if line.is_simple]
        self.bridges = [(p.x, p.y) for p in t.points.get("bridge", [])]


_obstacles = per_battlefield(_Obstacles)


def _segments(line) -> list:
    pts = [(float(x), float(y)) for x, y in line.coords]
    return [(a, b) for a, b in zip(pts, pts[1:]) if a != b]


def obstacles_cost(battlefield, x: float, y: float, hx: float, hy: float,
                   length: float) -> float:
    """A lower bound of the inches `_terrain_cost` adds for linear obstacles (or of a
    refusal: counted as their cost) to any straight path from (x, y) along the unit
    heading (hx, hy) that goes at least `length` inches on; 0.0 when none is sure."""
    if length <= MARGIN:
        return 0.0
    obs = _obstacles(battlefield)
    ex, ey = x + hx * length, y + hy * length
    nx, ny = -hy, hx                        # the path's unit normal
    extra = 0.0
    lo_x, hi_x, lo_y, hi_y = min(x, ex), max(x, ex), min(y, ey), max(y, ey)
    for kind, (x0, y0, x1, y1), segments in obs.lines:
        if x0 > hi_x or x1 < lo_x or y0 > hi_y or y1 < lo_y:
            continue                        # its box apart from the path's: no crossing
        for (ax, ay), (bx, by) in segments:
            da = (ax - x) * nx + (ay - y) * ny
            db = (bx - x) * nx + (by - y) * ny
            if not (min(abs(da), abs(db)) > MARGIN and (da < 0) != (db < 0)):
                continue
            sx, sy = bx - ax, by - ay
            s = math.hypot(sx, sy)
            mx, my = -sy / s, sx / s        # the obstacle segment's unit normal
            d0 = (x - ax) * mx + (y - ay) * my
            d1 = (ex - ax) * mx + (ey - ay) * my
            if not (min(abs(d0), abs(d1)) > MARGIN and (d0 < 0) != (d1 < 0)):
                continue
            k = da / (da - db)
            qx, qy = ax + k * sx, ay + k * sy
            if kind != "wall" and any(math.hypot(qx - px, qy - py) <= CROSSING_REACH + MARGIN
                                      for px, py in obs.bridges):
                continue
            extra += LINEAR_OBSTACLE_COST
            break                           # one crossing counted per obstacle
    return extra
