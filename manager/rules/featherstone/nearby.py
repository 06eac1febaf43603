"""Who stands near whom: the live units and bases near a point, a unit or a move (the
commander's and the rules' first filters, numpy or plain floats over the unit grid),
the gap between two bases, and the generals on a unit's base.
"""
from __future__ import annotations

import math

import numpy as np

from ... import spatial
from . import ground
from ...footprint import distance, gap, heading, surely_apart
from .state import footprint

def attached_leaders(battle, unit) -> list:
    """Generals standing on the unit's base (within a quarter inch of it); remembered
    until the battle changes (morale, odds and moves ask it of one unit in turn)."""
    return spatial.memo(battle, "featherstone.attached", unit.id, (unit,),
                        lambda: _attached(battle, unit))


def _attached(battle, unit) -> list:
    fp = footprint(battle, unit)
    # the buffered base lies within its circle widened by the quarter inch: only the
    # generals inside that circle are asked of the shape (and none often)
    reach = math.hypot(fp.frontage, fp.depth) / 2 + 0.25 + 1e-6
    near = [l for l in battle.live_leaders(unit.side) if distance(l.pos, fp.centre) <= reach]
    if not near:
        return []
    out, unsure = [], []
    for l in near:
        inside = _on_base(fp, l.pos)
        if inside is None:
            unsure.append(l)
        elif inside:
            out.append(l)
    if not unsure:
        return out
    poly = fp.polygon().buffer(0.25)
    from shapely.geometry import Point
    return [l for l in near if l in out or (l in unsure and poly.contains(Point(l.x, l.y)))]


def _on_base(fp, xy):
    """Is the point within the base widened by a quarter inch? True when it lies inside
    the base itself, False when it is farther than the quarter inch from it (the
    buffered shape lies inside the true widening: its round corners are chords), each
    with 1e-9 inches to spare; None otherwise (the shape decides)."""
    fx, fy = heading(fp.facing)
    px, py = xy[0] - fp.x, xy[1] - fp.y
    along, across = abs(px * fx + py * fy), abs(-px * fy + py * fx)
    hd, hf = fp.depth / 2, fp.frontage / 2
    if along < hd - 1e-9 and across < hf - 1e-9:
        return True
    if math.hypot(max(along - hd, 0.0), max(across - hf, 0.0)) > 0.25 + 1e-9:
        return False
    return None


def attached_to(battle, leader):
    """The unit a general is attached to, or None."""
    for u in near_units(battle, leader.pos, 6, leader.side):
        if leader in attached_leaders(battle, u):
            return u
    return None


def near_units(battle, xy, reach: float, side: str | None = None) -> list:
    """Live units whose centre is within `reach` inches (a cheap first filter), in
    `live_units` order, from the battle's spatial index."""
    return spatial.near_units(battle, xy, reach, side)


def near_bases(battle, unit, side: str, reach: float, inches: float) -> list:
    """Live units of `side` (in live_units order) whose centre is within `reach` of the
    unit's (near_units' test) and whose base is not surely more than `inches` from its
    base (footprint.surely_apart): numpy over every base first, with a hair of slack,
    then the two exact tests on the few left."""
    return near_bases_apart(battle, unit, side, reach, inches)[0]


def near_bases_apart(battle, unit, side: str, reach: float, inches: float) -> tuple:
    """(near_bases, and for each its centre's distance from the unit's less both half
    diagonals, as numpy works it out: within 1e-9 of surely_apart's own)."""
    g = spatial.unit_grid(battle)
    if not g.units:
        return [], []
    fp = footprint(battle, unit)
    r = math.hypot(fp.frontage, fp.depth) / 2
    d = np.hypot(g.xs - unit.x, g.ys - unit.y)
    apart = d - spatial.radii(battle, footprint) - r
    # (the side's bases only: the shooter's friends near are as many as its enemies)
    keep = (d <= reach + 1e-9) & (apart <= inches + 1e-6 + 1e-9) & _of_side(battle, g, side)
    # numpy's hypot and sums differ from math's by far less than 1e-9 inches: a base
    # that clears both bounds by 1e-9 passes the exact tests too, so only a thin band
    # about either border is measured again
    sure = (d <= reach - 1e-9) & (apart <= inches + 1e-6 - 1e-9)
    idx = np.flatnonzero(keep)
    return exact_pass(battle, unit, fp, reach, inches, g.units, idx.tolist(),
                      sure[idx].tolist(), apart[idx].tolist())


def exact_pass(battle, unit, fp, reach, inches, units, places, sure, apart) -> tuple:
    """near_bases_apart's answer from its numpy pass: the bases it kept (their `places`
    in the grid, each `sure` or not, and its `apart`) less those the exact tests of
    the thin band about either border refuse."""
    upos = unit.pos
    out = [(units[k], a) for k, s, a in zip(places, sure, apart)
           if s or (distance(units[k].pos, upos) <= reach
                    and not surely_apart(fp, footprint(battle, units[k]), inches))]
    return [e for e, _ in out], [a for _, a in out]


def _of_side(battle, g, side: str) -> np.ndarray:
    """Is each unit of grid `g` (in its order) of `side`? Kept for the grid as last
    built: a unit patched in place keeps its place and side; a rebuild is a new
    generation (and another battle's grid another object)."""
    store = battle.kept("featherstone.side_masks", dict)
    hit = store.get(side)
    if hit is None or hit[0] is not g or hit[1] != g.generation:
        hit = store[side] = (g, g.generation, np.array([u.side == side for u in g.units],
                                                       dtype=bool))
    return hit[2]


def near_the_move(battle, unit, end, start=None, reach: float | None = None,
                  centre=None) -> list:
    """`near_units(battle, centre or end.centre, reach)` (in order) less the units whose base
    surely neither overlaps the base at `end`, nor comes within 0.1 inch of it, nor
    meets the ground a move from base `start` to it passes over (Sweep): what
    `moves.ground_refusal` asks of each unit near. A base lies within half its diagonal
    of its centre, so it can meet the move's hull only if its centre is within that
    and the larger of the two bases' half diagonals of the segment between their
    centres (the hull of two discs); with 1e-5 inch to spare, on the units in the band
    of x that could pass (plain floats) or by numpy over every base when the band is
    wide, then near_units' own exact test of the reach on the few left."""
    g = spatial.unit_grid(battle)
    if not g.units:
        return []
    ex, ey = end.x, end.y
    r = math.hypot(end.frontage, end.depth) / 2
    sx, sy = (start.x, start.y) if start is not None else (ex, ey)
    if start is not None:
        r = max(r, math.hypot(start.frontage, start.depth) / 2)
    if reach is None:
        reach = math.hypot(ex - sx, ey - sy) + 12
    cx, cy = centre if centre is not None else (ex, ey)
    # the band of x that could pass both tests: within the largest base's meeting
    # distance of the segment, and within the reach of the centre
    rad, top = spatial.radii_list(battle, footprint)
    w = top + (r + 0.1 + 1e-5) + spatial.BAND
    lo, hi = g.span(max(min(sx, ex) - w, cx - reach - 1e-5 - spatial.BAND),
                    min(max(sx, ex) + w, cx + reach + 1e-5 + spatial.BAND))
    if hi - lo <= BAND_UNITS:
        return _near_the_move_band(battle, g, g.sk[lo:hi], rad, sx, sy, ex, ey, r, reach,
                                   cx, cy)
    px, py = g.xs - sx, g.ys - sy
    vx, vy = ex - sx, ey - sy
    l2 = vx * vx + vy * vy
    if l2 > 0:
        t = np.minimum(np.maximum((px * vx + py * vy) / l2, 0.0), 1.0)
        px, py = px - t * vx, py - t * vy
    meet = np.hypot(px, py) <= spatial.radii(battle, footprint) + (r + 0.1 + 1e-5)
    dx, dy = g.xs - cx, g.ys - cy
    keep = (dx * dx + dy * dy <= (reach + 1e-5) ** 2) & meet
    units = g.units
    return [o for o in (units[k] for k in np.flatnonzero(keep).tolist())
            if distance(o.pos, (cx, cy)) <= reach]


BAND_UNITS = 60         # units in the band up to which plain floats beat the numpy pass


def _near_the_move_band(battle, g, places, rad, sx, sy, ex, ey, r, reach, cx, cy) -> list:
    """near_the_move's tests on the units in a band of x, in plain floats: numpy's
    element-wise arithmetic in the same order (the same floats; math.hypot may differ
    from numpy's in the last bit, far inside the 1e-5 inch to spare)."""
    lx, ly = g.lx, g.ly
    vx, vy = ex - sx, ey - sy
    l2 = vx * vx + vy * vy
    meet_r = r + 0.1 + 1e-5
    reach2 = (reach + 1e-5) ** 2
    keep = []
    hypot = math.hypot
    for k in places:
        x, y = lx[k], ly[k]
        dx, dy = x - cx, y - cy
        if dx * dx + dy * dy > reach2:
            continue
        px, py = x - sx, y - sy
        if l2 > 0:
            t = min(max((px * vx + py * vy) / l2, 0.0), 1.0)
            px, py = px - t * vx, py - t * vy
        if hypot(px, py) <= rad[k] + meet_r:
            keep.append(k)
    keep.sort()
    units = g.units
    return [o for o in (units[k] for k in keep) if distance(o.pos, (cx, cy)) <= reach]


def unit_gap(battle, a, b) -> float:
    fa, fb = footprint(battle, a), footprint(battle, b)
    return base_gap(battle, fa, fb)


def base_gap(battle, fa, fb) -> float:
    """gap(fa, fb), kept across versions (two bases' geometry alone: most stand still)."""
    return ground.kept(battle, "gap", (fa, fb), lambda: gap(fa, fb))


def nearest_enemy(battle, unit):
    enemies = battle.live_units(battle.enemy_of(unit.side))
    return min(enemies, key=lambda e: distance(e.pos, unit.pos)) if enemies else None
