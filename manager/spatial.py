"""Who stands near what on an open table, without asking every unit every time.

Inch rulesets keep asking which units stand within a reach of a point (a first filter
before the exact geometry), and which bases could lie across a line of sight. Scanning
every live unit for each question made an Austerlitz turn 25-40 times a grid turn. A
grid hash of the live units' centres, built once per battle version (the battle's
cache is cleared by every change), answers with the few units of the nearby cells.

The answers are exactly the scan's: the same distance test on the same floats, in the
order of `battle.live_units(side)`, so no result of the game can change.
"""
from __future__ import annotations

import math

from .footprint import distance

CELL = 6.0          # inches: about a unit's reach of interest; a few units a cell


class UnitGrid:
    """Live units (in `live_units` order) bucketed by the cell of their centre."""

    __slots__ = ("cells", "count")

    def __init__(self, units: list):
        cells: dict = {}
        for k, u in enumerate(units):
            cells.setdefault((math.floor(u.x / CELL), math.floor(u.y / CELL)), []).append((k, u))
        self.cells = cells
        self.count = len(units)

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> list:
        """(index, unit) of every unit whose cell meets the box, unsorted."""
        i0, i1 = math.floor(x0 / CELL), math.floor(x1 / CELL)
        j0, j1 = math.floor(y0 / CELL), math.floor(y1 / CELL)
        cells = self.cells
        out: list = []
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(cells):        # a big box: walk the units
            for (i, j), bucket in cells.items():
                if i0 <= i <= i1 and j0 <= j <= j1:
                    out += bucket
            return out
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                bucket = cells.get((i, j))
                if bucket:
                    out += bucket
        return out

    def within(self, xy, reach: float) -> list:
        """Units whose centre is within `reach` of xy (the scan's test), in order."""
        x, y = xy
        hits = [(k, u) for k, u in self._box(x - reach, y - reach, x + reach, y + reach)
                if distance(u.pos, xy) <= reach]
        hits.sort(key=_first)
        return [u for _, u in hits]

    def along(self, a, b, margin: float) -> list:
        """Units whose centre may lie within `margin` of segment a-b (a superset: every
        unit of the cells the widened segment passes over), in order."""
        (ax, ay), (bx, by) = a, b
        margin += 1e-6                          # rounding must never drop a border case
        if ax > bx:
            (ax, ay), (bx, by) = (bx, by), (ax, ay)
        cells = self.cells
        out: list = []
        i0, i1 = math.floor((ax - margin) / CELL), math.floor((bx + margin) / CELL)
        if (i1 - i0 + 1) * 3 > len(cells) or bx - ax < 1e-9:
            out = self._box(ax - margin, min(ay, by) - margin, bx + margin, max(ay, by) + margin)
        else:
            slope = (by - ay) / (bx - ax)
            for i in range(i0, i1 + 1):
                # the segment's y over this column widened by the margin, clipped to it
                x0, x1 = max(ax, i * CELL - margin), min(bx, (i + 1) * CELL + margin)
                if x0 > x1:
                    continue
                y0, y1 = ay + slope * (x0 - ax), ay + slope * (x1 - ax)
                if y0 > y1:
                    y0, y1 = y1, y0
                for j in range(math.floor((y0 - margin) / CELL),
                               math.floor((y1 + margin) / CELL) + 1):
                    bucket = cells.get((i, j))
                    if bucket:
                        out += bucket
        out.sort(key=_first)
        return [u for _, u in out]


def _first(pair):
    return pair[0]


def unit_grid(battle, side: str | None = None) -> UnitGrid:
    """The grid of `battle.live_units(side)`, rebuilt after the next change."""
    return battle.cached(("unit_grid", side), lambda: UnitGrid(battle.live_units(side)))


def near_units(battle, xy, reach: float, side: str | None = None) -> list:
    """Live units whose centre is within `reach` inches of xy, in `live_units` order."""
    return unit_grid(battle, side).within(xy, reach)


def memo(battle, name: str, key, pieces: tuple, compute):
    """`compute()` remembered until the battle next changes, for these very pieces (unit
    records are immutable: a trial copy of a unit is another object, so never a stale
    hit)."""
    store = battle.cached(name, dict)
    hit = store.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], pieces)):
        return hit[1]
    value = compute()
    store[key] = (pieces, value)
    return value


def crossing_line(battle, a, b, reach: float, footprint, key: str, origin=None) -> list:
    """Live units whose centre is within `reach` of origin (default a: the old scan's
    filter) and whose
    base could cross segment a-b, in `live_units` order: candidates for "is a base in
    the way". A base crosses the line only if its centre lies within half its diagonal
    of it, so the cells along the line widened by the largest half diagonal suffice."""
    margin = battle.cached((key, "half_diagonal"), lambda: max(
        (math.hypot(fp.frontage, fp.depth) / 2 for fp in
         (footprint(battle, u) for u in battle.live_units())), default=0.0) + 1e-6)
    origin = a if origin is None else origin
    return [u for u in unit_grid(battle).along(a, b, margin)
            if distance(u.pos, origin) <= reach]


def charged_ids(battle, side: str, mark) -> frozenset:
    """Ids of the units `side`'s units are charging (their 'charging' mark)."""
    return battle.cached(("charged_ids", side), lambda: frozenset(
        mark(u, "charging") for u in battle.live_units(side)))
