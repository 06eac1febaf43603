"""The commander's lines of sight surely crossed by a base, in plain floats (issue 17).

`fire_sight.surely_hidden` and `fire_sight.hidden_from` ask, for one shooter (or one melee's target)
and its ten or twenty lines, whether a base surely stands across each line. The numpy
pass (`sightlines.surely_crossed_arrays`) judges every pair of line and base: ~50 numpy
calls on small arrays, whose per-call machinery costs more than the arithmetic. Most
lines are hidden (the shooter's own friends stand in front of it), so here each line
asks the bases near it one by one and stops at the first that crosses it.

The pair test is `sightlines._hits`' separating-axis test, the same element-wise
arithmetic in the same order on the same floats (the rows' centres, facing vectors and
half sizes); only the hypotenuses are `math.hypot`'s, which may differ from numpy's in
the last bit, far inside the MARGIN every comparison keeps: an answer differs only on a
knife edge, where either answer is sound ("True" only when a base crosses the line by
MARGIN on every axis, so the rules' own scan refuses the shot too).
"""
from __future__ import annotations

from math import hypot
from operator import itemgetter

from ... import spatial
from ...sightlines import MARGIN
from .rows import rows

CENTRE_WITHIN = 4.5     # the rules' scan asks the bases whose centre is this near the line
BLOCKERS = "featherstone.sight_blockers"    # (origin id, x, y, end id, x, y) -> (id, base)
KEPT_AT_MOST = 50_000   # lines kept before the store starts afresh
_DISTANCE = itemgetter(0)   # a scanned base's squared distance from the origin


def crossed(battle, origin, ends) -> list:
    """For each end unit: does a live base (neither `origin`'s nor the end's own) whose
    centre lies within CENTRE_WITHIN of the line from origin's centre to the end's
    surely cross that line? (The numpy pass also asked the centre to lie within the
    line's length + 8 of origin's: implied, as it is within length + CENTRE_WITHIN.)

    A line found crossed keeps its base (`BLOCKERS`, across versions and trial copies):
    asked again from the same centre to the same end's, while that unit stands live
    with the very same base, the pair test would say the same of the same floats, so
    the line is crossed and no base is scanned for it (half the lines of a battle)."""
    t = rows(battle)
    kept = battle.kept(BLOCKERS, dict)
    ax, ay = origin.pos
    keys = [(origin.id, ax, ay, e.id, e.x, e.y) for e in ends]
    index, fps = t.index, t.fps
    out = []
    for key in keys:
        hit = kept.get(key)
        k = index.get(hit[0]) if hit is not None else None
        out.append(k is not None and (fps[k] is hit[1] or fps[k] == hit[1]))
    rest = [i for i, h in enumerate(out) if not h]
    if rest:
        if len(kept) >= KEPT_AT_MOST:
            kept.clear()
        units = t.units
        for i, k in zip(rest, _first_across(battle, t, origin, [ends[i] for i in rest])):
            if k >= 0:
                out[i] = True
                kept[keys[i]] = (units[k].id, fps[k])
    return out


def _first_across(battle, t, origin, ends) -> list:
    """For each end: the place (in the rows) of the first base found surely across the
    line from origin to it (the nearest bases tried first), or -1."""
    g = spatial.unit_grid(battle)              # the rows' order and centres
    fx, fy, hd, hf, diag = t.as_lists()
    m = MARGIN
    ax, ay = origin.pos
    ex = [e.x for e in ends]
    ey = [e.y for e in ends]
    # the bases whose centre lies in the box about the origin and the ends widened by
    # CENTRE_WITHIN: every base within that of some line
    w = CENTRE_WITHIN + 1e-6
    lo_y, hi_y = min(ay, min(ey)) - w, max(ay, max(ey)) + w
    lo, hi = g.span(min(ax, min(ex)) - w, max(ax, max(ex)) + w)
    lx, ly = g.lx, g.ly
    mine = t.index.get(origin.id, -1)
    near = []
    for k in g.sk[lo:hi]:
        y = ly[k]
        if lo_y <= y <= hi_y and k != mine:
            cx, cy = lx[k] - ax, y - ay
            near.append((cx * cx + cy * cy, k, cx, cy, diag[k]))
    # the nearest bases first: those in front of the shooter cross most of its lines,
    # and a line's answer is the first base found across it (the same whatever the order,
    # so bases at the very same distance stay in the band's order: a sort on the float
    # alone, less than half the instructions of one on the tuples)
    near.sort(key=_DISTANCE)
    index = t.index
    out = []
    for e, tx, ty in zip(ends, ex, ey):
        tx, ty = tx - ax, ty - ay
        length = hypot(tx, ty)
        hit = -1
        if length > m:                          # (numpy: no line, NaN normals: False)
            nx, ny = -ty / length, tx / length
            own = index.get(e.id, -2)
            l2 = length ** 2
            for _, k, cx, cy, half in near:
                if abs(cx * nx + cy * ny) < half + m and k != own and \
                        _crosses(cx, cy, tx, ty, nx, ny, l2, fx[k], fy[k], hd[k], hf[k]):
                    hit = k
                    break
        out.append(hit)
    return out


def _crosses(cx, cy, tx, ty, nx, ny, l2, ux, uy, h, f) -> bool:
    """`sightlines._hits`' tests of one pair past its first (the line's normal): the
    centre within CENTRE_WITHIN of the segment, the projections on the base's two axes
    overlapping, and the segment's line within the base's reach across it."""
    m = MARGIN
    s = min(max((cx * tx + cy * ty) / l2, 0.0), 1.0)
    if not hypot(s * tx - cx, s * ty - cy) < CENTRE_WITHIN - m:
        return False
    s, c = tx * ux + ty * uy, cx * ux + cy * uy
    if not (min(s, 0.0) < c + h - m and max(s, 0.0) > c - h + m):
        return False
    rx, ry = -uy, ux
    s, c = tx * rx + ty * ry, cx * rx + cy * ry
    if not (min(s, 0.0) < c + f - m and max(s, 0.0) > c - f + m):
        return False
    reach = abs(ux * nx + uy * ny) * h + abs(rx * nx + ry * ny) * f
    return abs(cx * nx + cy * ny) < reach - m
