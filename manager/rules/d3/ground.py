"""Where a D3 unit may go, and what covers it: the ground's refusal of a straight move
(the table's edge, area terrain, towns and water; the other units standing on, touching
or in the way of it), each part kept where its answer holds (the table's per
battlefield, the units' until the battle next changes), and whether a base stands in
cover or in a town.
"""
from __future__ import annotations

import itertools
import math

from ... import convex, spatial
from ...footprint import (EPS, Footprint, Sweep, _frame, box, closer_than, distance, heading,
                          overlap, segment)
from ...geometry import per_battlefield
from ...ground_memo import on_ground
from ...table_terrain import table_terrain
from .tables import CROSSING_LANDING
from .units import HALF_DIAGONAL, footprint, frontage_scale, utype


def ground_refusal(battle, unit, start: Footprint, end: Footprint, ignore=(),
                   charging: bool = False) -> str:
    """Why the unit may not go from start to end in a straight line ('' when it may);
    a charge may end touching enemies (the one it charges, and any beside it)."""
    kind = utype(unit)
    why = _kept_refusal(battle, unit, kind, start, end)
    if why:
        return why
    return units_refusal(battle, unit, start, end, ignore, charging)


def units_refusal(battle, unit, start: Footprint, end: Footprint, ignore=(),
                  charging: bool = False) -> str:
    """ground_refusal's part that reads the other units ('' when none stands in the
    way), remembered until the battle next changes for the very unit record: the
    commander asks it first (a move it refuses is refused whatever the ground says:
    `moves.surely_refused_by_units`), and the check then asks it again."""
    store = battle.cached("d3.units_refusals", dict)
    key = (unit.id, start, end, ignore, charging)
    hit = store.get(key)
    if hit is None or hit[0] is not unit:
        hit = store[key] = (unit, _units_refusal(battle, unit, start, end, ignore, charging))
    return hit[1]


def _units_refusal(battle, unit, start, end, ignore, charging) -> str:
    kind = utype(unit)
    sweep = core = None             # (built for the first base that asks them)
    for o in _near_path(battle, start, end):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(battle, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if not charging and o.side != unit.side and closer_than(end, ofp, 0.1):
            return f"only a charge may touch {o.name}"
        # (a base it may pass, or whose box is apart from the move's, is not asked of
        # the hull; the swept core, inside it, is asked first)
        if o.side == unit.side and (kind == "skirmishers" or utype(o) == "skirmishers"):
            continue
        sweep = Sweep(start, end) if sweep is None else sweep
        if _meets(box(ofp), (sweep.box,)):
            core = swept_core(start, end) if core is None else core
            if (core and convex.area_above(core[0], core[1], core[2], _frame(ofp), ofp.x,
                                           ofp.y, CROSSING) is True) or \
                    sweep.crosses(ofp, CROSSING):
                return f"{o.name} is in the way (only skirmishers pass through friends)"
    return ""


CROSSING = 1e-4     # square inches of a base the swept ground must share: Sweep.crosses'


def swept_core(start: Footprint, end: Footprint):
    """(frame, x, y) of a rectangle inside the swept ground (the hull of both bases),
    or () when the move has no length: the path of the centre widened by w either side,
    w the least half-width of either base across the path (|sin| and |cos| of its turn
    off the path: w |sin| <= half depth, w |cos| <= half frontage), less 1e-6. The
    segment across the path at each end lies in its base, so their hull, this band,
    lies in the hull of the bases: a base it surely shares more than CROSSING with (a
    disc deep in both, convex.area_above's cheap look) the hull shares it with too,
    with no hull built and clipped (foot moving past a neighbour, a charge's path)."""
    ax, ay = start.x, start.y
    dx, dy = end.x - ax, end.y - ay
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return ()
    ux, uy = dx / length, dy / length
    w = math.inf
    for fp in (start, end):
        fx, fy = heading(fp.facing)
        c, s = abs(ux * fx + uy * fy), abs(ux * fy - uy * fx)
        if s > 0:
            w = min(w, fp.depth / 2 / s)
        if c > 0:
            w = min(w, fp.frontage / 2 / c)
    w -= 1e-6
    hd = length / 2 - 1e-6
    if w <= 0 or hd <= 0:
        return ()
    mx, my = ax + dx / 2, ay + dy / 2
    fa, fb, ra, rb = ux * hd, uy * hd, -uy * w, ux * w
    return ((ux, uy, hd, w, ((mx + fa - ra, my + fb - rb), (mx + fa + ra, my + fb + rb),
                             (mx - fa + ra, my - fb + rb), (mx - fa - ra, my - fb - rb))),
            mx, my)


def _terrain_refusal(battle, unit, kind, start: Footprint, end: Footprint) -> str:
    """ground_refusal's part that reads the table alone: its edge, the area terrain the
    swept ground meets, towns and water ('' when the ground lets the move go)."""
    bf = battle.battlefield
    # (the base's box is its polygon's bounds: the very test of footprint.inside)
    minx, miny, maxx, maxy = box(end)
    if not (minx >= -EPS and miny >= -EPS and maxx <= bf.width + EPS and
            maxy <= bf.height + EPS):
        return "the base would leave the table"
    t = table_terrain(bf)
    boxes = _boxes(bf)
    sweep = box(start, end)
    # only these kinds refuse a move: a hull whose box meets none of their boxes touches
    # none of them, and is not even built (hills and towns are most of Austerlitz's)
    crossed = t.kinds_at(Sweep(start, end).hull) if t.may_touch(sweep, REFUSING) else ()
    if "lake" in crossed or "marsh" in crossed:
        return "marsh and lakes are impassable"
    if "woods" in crossed and kind != "skirmishers":
        return "only skirmishers enter woods"
    if "rough" in crossed and kind not in ("infantry", "skirmishers"):
        return "only infantry and skirmishers enter difficult ground"
    if kind not in ("infantry", "cavalry") and _meets(box(end), boxes.towns) and \
            t.covered(end.polygon(), ("town",)) >= 0.5:
        return "only infantry and cavalry may end a move in a town"
    return _water(battle, unit, start, end)


def _kept_refusal(battle, unit, kind, start, end) -> str:
    """_terrain_refusal's answer, kept per battlefield (`ground_memo`): the same bases and
    options get the same answer in every battle version and every battle fought over
    this ground, as in a balance run; units held up ask the same moves turn after turn.
    Keyed by the unit's type, both bases and the two options `_water` reads."""
    key = (kind, start, end, battle.option("artillery_streams"),
           battle.option("bridge_crossing"))
    return on_ground(battle.battlefield, "d3.ground", key,
                     lambda: _terrain_refusal(battle, unit, kind, start, end))


def _near_path(battle, start: Footprint, end: Footprint) -> list:
    """The units of the old scan (centre within the move's length + 10 of the end, in
    live_units order) that could stand on, touch or be crossed by the move: only those
    whose centre lies within both half-diagonals (+ 0.1) of the path of the centre (the
    swept ground lies within the mover's half-diagonal of it). The rest pass every test."""
    reach = distance(start.centre, end.centre) + 10
    k = frontage_scale(battle)
    margin = max(math.hypot(start.frontage, start.depth), math.hypot(end.frontage, end.depth)) \
        / 2 + HALF_DIAGONAL * abs(k) + 0.1 + 1e-6
    return [o for o in spatial.unit_grid(battle).along(start.centre, end.centre, margin)
            if distance(o.pos, end.centre) <= reach]


REFUSING = ("lake", "marsh", "woods", "rough")     # the area kinds _terrain_refusal reads


class _Boxes:
    """The bounds of the table's towns and of each straight stretch of its rivers and
    streams, once per battlefield: a move whose box meets none of them crosses none, so
    no shape need be built (shapely's tests are false for shapes whose boxes are apart;
    a path crosses a line only where it crosses one of its stretches, and a stream that
    runs the table's length has a box most paths meet)."""

    def __init__(self, battlefield):
        t = table_terrain(battlefield)
        self.towns = [shape.bounds for kind, shape, _ in t.pieces if kind == "town"]
        self.water = [(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
                      for k in ("river", "stream") for _, line in t.lines.get(k, [])
                      for part in getattr(line, "geoms", (line,))
                      for (ax, ay), (bx, by) in itertools.pairwise(part.coords)]


_boxes = per_battlefield(_Boxes)


def _meets(b, bounds) -> bool:
    """Does box b (minx, miny, maxx, maxy) meet any of the bounds?"""
    return any(not (c[0] > b[2] or b[0] > c[2] or c[1] > b[3] or b[1] > c[3]) for c in bounds)


def _water(battle, unit, start, end) -> str:
    """Rivers only at a bridge or ford, streams not for guns (option `artillery_streams`:
    or at a bridge); either takes a full move, bridges too (option `bridge_crossing`):
    the crossing move starts at the bank and ends on the far bank."""
    if distance(start.centre, end.centre) < 1e-9:
        return ""
    (ax, ay), (bx, by) = start.centre, end.centre
    if not _meets((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)),
                  _boxes(battle.battlefield).water):
        return ""                       # the path's box meets no stretch of water's
    t = table_terrain(battle.battlefield)
    path = segment(start.centre, end.centre)
    for f, p in t.crossings(path, ("river", "stream")):
        if f.kind == "river" and not t.crossing_at(p):
            return f"{f.name or 'the river'} is crossed only at a bridge or ford"
        at_bridge = t.crossing_at(p) == "bridge"
        if f.kind == "stream" and utype(unit) == "artillery" and not (
                at_bridge and battle.option("artillery_streams") == "at_bridges"):
            return "artillery cannot cross a stream"
        if at_bridge and battle.option("bridge_crossing") == "free":
            continue
        if distance(start.centre, (p.x, p.y)) > end.depth / 2 + CROSSING_LANDING or \
                distance((p.x, p.y), end.centre) > end.depth / 2 + CROSSING_LANDING:
            return f"crossing {f.name or f.kind} takes the whole move: start at the bank " \
                   f"and end on the far bank"
    return ""


def in_cover(battle, unit) -> bool:
    return _covered(battle, footprint(battle, unit), ("woods", "town"))


def in_town(battle, unit) -> bool:
    return _covered(battle, footprint(battle, unit), ("town",))


def _kept_cover(battle, fp, kinds) -> bool:
    """Is at least half a base in these kinds of area? Kept per battlefield by the base
    (`ground_memo`): the same answer in every battle version and battle over that ground."""
    return on_ground(battle.battlefield, "d3.cover", (fp, kinds),
                     lambda: table_terrain(battle.battlefield).covered(fp.polygon(), kinds) >= 0.5)


def _covered(battle, fp, kinds) -> bool:
    return _kept_cover(battle, fp, kinds)
