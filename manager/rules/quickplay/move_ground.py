"""Quick-play: the ground a move crosses and where it ends. The extra inches and the
refusals of the terrain on a move's path, the bases in its way or under its end, and the
commander's quick "would this spot land on another base?" for the spots it tries along
one line.
"""
from __future__ import annotations

import math

from ... import spatial
from ...footprint import Sweep, closer_than, distance, inside, segment, swept
from ...footprint import overlap as _overlap
from ...ground_memo import on_ground
from ...table_terrain import table_terrain
from .tables import BROKEN, DIFFICULT, IMPASSABLE, STREAM_COST
from .bases import bases, max_half_diagonal
from .clear_ground import box_of, clear, move_cost
from .units import arm, footprint, irregular, is_skirmish


def terrain_cost(battle, unit, start, end) -> tuple[float, str, bool]:
    """(extra inches, refusal, on road) for the straight move between two bases: it
    hangs on the table, the unit's kind and formation and the bases only, so it is
    remembered (the commander's check of a move, then its resolution, ask it)."""
    return on_ground(battle.battlefield, "quickplay.terrain_cost",
                     (unit.kind, unit.formation, start, end),
                     lambda: _terrain_cost(battle, unit, start, end))


def _terrain_cost(battle, unit, start, end) -> tuple[float, str, bool]:
    # the hull of both bases lies in their corners' box: clear of every lake, difficult
    # or broken ground, stream, river and road, the move costs nothing, off any road
    if clear(battle.battlefield, box_of(start.corners() + end.corners()),
             IMPASSABLE + DIFFICULT + BROKEN, ("stream", "river"), road=True):
        return 0.0, "", False
    return move_cost(battle, unit, start, end)


def measured_cost(battle, unit, start, end) -> tuple[float, str, bool]:
    """`terrain_cost` measured on the shapes, every feature asked (no box first): what
    `clear_ground.move_cost` is held to."""
    t = table_terrain(battle.battlefield)
    path = segment(start.centre, end.centre) if distance(start.centre, end.centre) > 1e-9 \
        else None
    kinds = t.kinds_at(swept(start, end))          # asked once: the same hull twice
    if kinds & set(IMPASSABLE):
        return 0.0, "lakes cannot be entered", False
    road = path is not None and t.along_road(path)
    if path is None or road:
        return 0.0, "", road
    loose = irregular(unit) or is_skirmish(unit)
    difficult = t.length_inside(path, DIFFICULT) if kinds & set(DIFFICULT) else 0.0
    if difficult and not (loose or (arm(unit) == "infantry" and unit.formation == "column")):
        return 0.0, "only irregulars, skirmishers and infantry columns enter difficult ground", road
    extra = difficult + (0.0 if loose else t.length_inside(path, BROKEN))
    for f, p in t.crossings(path, ("stream", "river")):
        crossing = t.crossing_at(p)
        if f.kind == "river" and not crossing:
            return 0.0, f"{f.name or 'the river'} is crossed only at a bridge or ford", road
        if crossing != "bridge":
            extra += STREAM_COST
    return extra, "", road


def no_extra_along(battle, a, b) -> bool:
    """Does the straight line a-b (give or take a micro-inch) meet no difficult or broken
    ground and no stream or river? Then every move whose path of centres lies on it
    costs exactly 0.0 extra inches (`terrain_cost`: each extra is a length of path
    inside such ground, or a crossing of such a line), whatever its refusal."""
    if clear(battle.battlefield, box_of((a, b)), DIFFICULT + BROKEN, ("stream", "river")):
        return True                          # no such ground in the line's box (PAD > 1e-6)
    t = table_terrain(battle.battlefield)
    zone = segment(a, b).buffer(1e-6)
    return not any(t.areas[k].intersects(zone) for k in DIFFICULT + BROKEN if k in t.areas) \
        and not any(line.intersects(zone) for k in ("stream", "river")
                    for _, line in t.lines.get(k, []))


def ground_refusal(battle, unit, start, end, ignore=(), charge=False) -> str:
    bf = battle.battlefield
    if not inside(end, bf.width, bf.height):
        return "the base would leave the table"
    sweep = Sweep(start, end)
    for o in near_move(battle, start, end, distance(start.centre, end.centre) + 12):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(battle, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if o.side != unit.side:
            if not charge and closer_than(end, ofp, 0.1):
                return f"only a charge may touch {o.name}"
            if sweep.crosses(ofp):
                return f"{o.name} is in the way"
    return ""


def near_move(battle, start, end, reach: float) -> list:
    """`near(battle, end.centre, reach)` less the units that cannot refuse the move: a
    base whose centre is farther from the path of centres than both half diagonals and
    0.1 inch neither overlaps the end, nor comes within 0.1 inch of it, nor meets the
    ground swept (it lies within the mover's half diagonal of that path)."""
    r = max(math.hypot(fp.frontage, fp.depth) for fp in (start, end)) / 2
    margin = r + max_half_diagonal(battle) + 0.1 + 1e-5
    return [o for o in spatial.unit_grid(battle).along(start.centre, end.centre, margin)
            if distance(o.pos, end.centre) <= reach]


_OVERLAPS: dict = {}


def overlap(a, b) -> bool:
    """`footprint.overlap`, remembered by the two bases (frozen values, so the answer
    cannot go stale): a unit held behind another tries the same spots against the same
    base turn after turn."""
    key = (a, b)
    hit = _OVERLAPS.get(key)
    if hit is None:
        if len(_OVERLAPS) > 16384:              # a long session: start afresh
            _OVERLAPS.clear()
        hit = _OVERLAPS[key] = _overlap(a, b)
    return hit


def lands_on_another(battle, unit, to, facing) -> bool:
    """Would the move end on another unit's base (ground_refusal refuses it)? The answer
    of `spatial.lands_on` (a live base within 10 inches that the end overlaps)."""
    return landing(battle, unit, to)(to, facing)


def landing(battle, unit, far):
    """`lands_on_another` for the unit's spots on the line from its centre to `far` (give
    or take a hundredth of an inch: spots rounded to 0.01), as a function
    (to, facing) -> bool: the commander tries up to six spots along one line, so the
    bases that could answer are gathered once by one numpy pass, those whose circle
    could meet the circle of the unit's base somewhere on that line, then each spot is
    judged in plain floats (the same squared distances as numpy's, element by element),
    the nearest base asked first: most spots that land on a base land on the unit
    ahead.

    A unit held behind friends lands on them turn after turn: the (up to three) bases
    its last spots landed on are asked first (the very test: alive, within 10 inches,
    overlapping), and the numpy pass is made only for a spot they do not settle."""
    carried = battle.kept("quickplay.landed_on", dict)  # unit id -> bases landed on last
    form = unit.formation
    ten = (10 + 1e-6) ** 2
    gathered: list = []
    units = battle.units

    def lands(to, facing) -> bool:
        end = footprint(battle, unit, x=to[0], y=to[1], facing=facing, formation=form)
        for oid in carried.get(unit.id, ()):
            o = units[oid] if oid in units else None
            if o is not None and not o.eliminated and oid != unit.id and \
                    distance(o.pos, end.centre) <= 10 and overlap(end, footprint(battle, o)):
                return True
        if not gathered:
            gathered.append(_near_line(battle, unit, far))
        t, half, near = gathered[0]
        ex, ey = end.x, end.y
        hits = []
        for k, x, y, r in near:
            ddx, ddy = x - ex, y - ey
            d2 = ddx * ddx + ddy * ddy
            meet = r + half
            if d2 <= ten and d2 <= meet * meet:
                hits.append((d2, k))
        hits.sort()
        for _, k in hits:
            o = t.units[k]
            if o.id != unit.id and distance(o.pos, end.centre) <= 10 and \
                    overlap(end, footprint(battle, o)):
                carried[unit.id] = (o.id,) + tuple(
                    i for i in carried.get(unit.id, ()) if i != o.id)[:2]
                return True
        return False
    return lands


def _near_line(battle, unit, far) -> tuple:
    """(the base table, the radius of the unit's circle, [(row, x, y, r)] of the live
    bases whose circle could meet it somewhere on the line from its centre to `far`).

    The unit grid's band about the line (`along`, plain floats) gives every live unit
    within the largest circle's reach of the line; each is then held to the test of
    the table's numpy pass, by the same element-wise arithmetic (`bases.from_segment`'s
    clip, the offset's square against the radii's), a handful of units in floats."""
    t = bases(battle)
    fp = footprint(battle, unit)
    half = math.hypot(fp.frontage, fp.depth) / 2 + 1e-6 + 1e-5     # overlap's circles
    slack = half + 0.01 + 1e-3            # a spot lies within 0.01 of the line
    (ax, ay), (bx, by) = unit.pos, far
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    index, radii, near = t.index, t.r, []
    for o in spatial.unit_grid(battle).along(unit.pos, far, max_half_diagonal(battle) + slack):
        k = index[o.id]
        px, py = o.x - ax, o.y - ay
        if l2 > 0:
            s = (px * dx + py * dy) / l2
            s = 0.0 if s < 0.0 else 1.0 if s > 1.0 else s              # (clip)
            px, py = px - s * dx, py - s * dy
        r = float(radii[k])
        lim = r + slack
        if px * px + py * py <= lim * lim:
            near.append((k, o.x, o.y, r))
    return t, half, near
