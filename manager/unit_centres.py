"""Live units' centres, kept sorted by x: which units stand within a reach of a point,
nearest it, or near a line, without asking every unit every time (`spatial.unit_grid`
keeps one per battle version and side, patched from the change journal).

The answers are exactly the scan's: the same distance test on the same floats, in the
order of the units given (`battle.live_units(side)`), so no result of the game can change.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

import numpy as np

from .footprint import distance
from .model.battle import patched_in_place

SLACK = 1e-6        # inches: the vector prefilter keeps border cases for the exact test
_any = np.logical_or.reduce     # ndarray.any without its Python wrapper (hot)
BAND = 1e-3         # inches: a band of x kept wider than the exact test (rounding)
NARROW = 40         # units in a band up to which plain floats beat a numpy pass
# along a line most units of the band are refused by their y at once (~300
# instructions each): plain floats beat numpy's pass (~11 us a call in play) up to
# ~200 units (3 Austerlitz turns: -1.6% instructions for d3, -0.9% Featherstone)
NARROW_LINE = 200


class UnitGrid:
    """Live units (in `live_units` order) with their centres in numpy arrays: a query
    is a few vector operations over every unit, then the exact test on the few left.

    A query near a point or a short line asks only the units in a band of x about it
    (the centres also kept sorted by x, found by bisection) and tests each in plain
    floats, by the very operations numpy applies element by element (IEEE arithmetic
    is the same in both): a numpy pass costs ~1 us an operation whatever it keeps, so
    for the few units of a narrow band plain Python is cheaper. Wide bands go to numpy."""

    __slots__ = ("units", "xs", "ys", "index", "generation", "lx", "ly", "sx", "sk")

    def __init__(self, units: list):
        self.generation = 0
        self._fill(units)

    def _fill(self, units: list) -> None:
        self.units = units
        self.lx = [u.x for u in units]
        self.ly = [u.y for u in units]
        self.xs = np.array(self.lx, float)
        self.ys = np.array(self.ly, float)
        self.index = None
        self.sx = self.sk = None                # the band's order, sorted on first use
        self.generation += 1

    def follow(self, battle, side, changes) -> None:
        """Bring the grid up to date with the battle's journal of changes: a unit that
        changed in place (moved, hit, re-formed) is patched where it stands in the order;
        anything else (a unit gone, arrived or come back, a wholesale change) rebuilds.
        `live_units(side)` keeps its order when a record is replaced (dict order)."""
        if self.index is None:
            self.index = {u.id: k for k, u in enumerate(self.units)}
        patches = patched_in_place(self.index, battle, side, changes)
        if patches is None:                     # a unit gone, arrived or back: rebuild
            return self._fill(battle.live_units(side))
        lx, sx, sk = self.lx, self.sx, self.sk
        for k, u in patches:
            self.units[k] = u
            x, y = u.x, u.y
            if sx is not None and x != lx[k]:   # move it in the band's order
                i = bisect_left(sx, lx[k])
                while sk[i] != k:
                    i += 1
                del sx[i], sk[i]
                i = bisect_left(sx, x)
                sx.insert(i, x)
                sk.insert(i, k)
            lx[k], self.ly[k] = x, y
            self.xs[k], self.ys[k] = x, y

    def by_x(self) -> list:
        """The centres' x sorted (`sx`, their places `sk`), sorted now if not yet."""
        if self.sx is None:
            lx = self.lx
            self.sk = sorted(range(len(lx)), key=lx.__getitem__)
            self.sx = [lx[k] for k in self.sk]
        return self.sx

    def span(self, x0: float, x1: float) -> tuple[int, int]:
        """(lo, hi): `sk[lo:hi]` are the places of the units whose centre's x lies in
        [x0, x1] (the centres sorted by x on first use). The queries below bisect
        `self.sx or self.by_x()` themselves: a method call less (~18,000 a d3 game)."""
        sx = self.sx or self.by_x()
        return bisect_left(sx, x0), bisect_right(sx, x1)

    def within(self, xy, reach: float) -> list:
        """Units whose centre is within `reach` of xy (the scan's test), in order."""
        x, y = xy
        r = reach + SLACK
        sx = self.sx or self.by_x()
        lo, hi = bisect_left(sx, x - r - BAND), bisect_right(sx, x + r + BAND)
        if hi - lo > NARROW:
            return self._within(xy, reach)
        lx, ly, units = self.lx, self.ly, self.units
        r2, q = r * r, reach - SLACK
        q2, near, border = q * q, [], reach <= 2 * SLACK
        for k in self.sk[lo:hi]:
            dx, dy = lx[k] - x, ly[k] - y
            d2 = dx * dx + dy * dy
            if d2 <= r2:
                near.append(k)
                if d2 > q2:
                    border = True
        near.sort()
        if not border:
            return [units[k] for k in near]
        return [u for u in (units[k] for k in near) if distance(u.pos, xy) <= reach]

    def nearest(self, xy, reach: float):
        """The first unit (in order) of those whose centre is nearest xy, if within
        `reach` (min over `within`, by distance), or None. The centres sorted by x are
        walked outward from xy's x, each way only while the x offset alone could still
        beat the nearest found: a distance is never below it (1e-9 spare)."""
        x, y = xy
        sx = self.sx or self.by_x()
        lo, hi = bisect_left(sx, x - reach - BAND), bisect_right(sx, x + reach + BAND)
        sk, lx, ly = self.sk, self.lx, self.ly
        mid = bisect_left(sx, x, lo, hi)
        cut, best, hypot = reach, None, math.hypot      # (cut: the nearest distance found)
        for way in (range(mid, hi), range(mid - 1, lo - 1, -1)):
            for j in way:
                if abs(sx[j] - x) > cut + 1e-9:
                    break
                k = sk[j]
                d = hypot(lx[k] - x, ly[k] - y)         # (math.dist's float: within's test)
                if d <= cut and (best is None or d < cut or k < best):
                    cut, best = d, k
        return None if best is None else self.units[best]

    def _within(self, xy, reach: float) -> list:
        """`within` by one numpy pass over every unit."""
        x, y = xy
        r = reach + SLACK
        dx, dy = self.xs - x, self.ys - y
        d2 = dx * dx
        d2 += dy * dy
        idx = (d2 <= r * r).nonzero()[0]
        units = self.units
        q = reach - SLACK
        # a centre SLACK inside the reach passes the scan's own test whatever the
        # rounding of either sum: only a thin band about the border is measured again
        if reach > 2 * SLACK and not _any(d2[idx] > q * q):
            return [units[k] for k in idx.tolist()]
        return [u for u in (units[k] for k in idx.tolist()) if distance(u.pos, xy) <= reach]

    def along(self, a, b, margin: float) -> list:
        """Units whose centre lies within `margin` of segment a-b (and a few just
        beyond: callers apply their own exact test), in order."""
        (ax, ay), (bx, by) = a, b
        m = margin + SLACK
        # the band and box BAND wider than the margin (w's floats may round otherwise than
        # m + BAND's did: the exact test below has BAND to spare either way)
        w = m + BAND
        sx = self.sx or self.by_x()
        lo, hi = (bisect_left(sx, ax - w), bisect_right(sx, bx + w)) if ax <= bx else \
            (bisect_left(sx, bx - w), bisect_right(sx, ax + w))
        if hi - lo > NARROW_LINE:
            return self._along(a, b, margin)
        dx, dy = bx - ax, by - ay
        l2 = dx * dx + dy * dy
        y0, y1 = (ay - w, by + w) if ay <= by else (by - w, ay + w)
        lx, ly, m2, near = self.lx, self.ly, m * m, []
        for k in self.sk[lo:hi]:
            y = ly[k]
            if y < y0 or y > y1:                # farther than m from the segment's box
                continue
            px, py = lx[k] - ax, y - ay
            if l2 > 0:
                t = (px * dx + py * dy) / l2
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t      # (clip)
                px, py = px - t * dx, py - t * dy
            if px * px + py * py <= m2:
                near.append(k)
        near.sort()
        units = self.units
        return [units[k] for k in near]

    def _along(self, a, b, margin: float) -> list:
        """`along` by one numpy pass over every unit."""
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        l2 = dx * dx + dy * dy
        px, py = self.xs - ax, self.ys - ay
        if l2 > 0:
            t = np.minimum(np.maximum((px * dx + py * dy) / l2, 0.0), 1.0)   # (clip)
            px, py = px - t * dx, py - t * dy
        m = margin + SLACK
        units = self.units
        return [units[k] for k in (px * px + py * py <= m * m).nonzero()[0].tolist()]
