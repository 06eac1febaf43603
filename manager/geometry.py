"""Geometry with shapely: terrain shapes read on a grid of boxes, or at a point in inches.

Gridded rules read terrain box by box. An area covers a box when the box's centre
lies inside the outline (a rule players can check by eye); a linear feature marks
every box its line crosses; a point feature marks the box it stands in. The result
is cached per battlefield object, which is immutable.
"""
from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import LineString, Point, Polygon, box as shapely_box
from shapely.prepared import prep

from .grid import Box, Grid
from .model.battlefield import Battlefield


@dataclass(frozen=True, slots=True)
class BoxTerrain:
    kinds: frozenset            # terrain kinds present in the box
    elevation: int = 0          # hill contour level at the box centre


OPEN = BoxTerrain(frozenset(), 0)
SCREENS = frozenset({"woods", "town"})      # terrain no one sees through


def feature_geometry(feature):
    pts = feature.points
    if feature.shape == "area":
        return Polygon(pts) if len(pts) >= 3 else None
    if feature.shape == "line":
        return LineString(pts) if len(pts) >= 2 else None
    return Point(pts[0]) if pts else None


class TerrainIndex:
    """Terrain per box for a gridded battlefield."""

    def __init__(self, battlefield: Battlefield):
        if not battlefield.grid:
            raise ValueError("a terrain index by box needs a gridded battlefield")
        self.grid = Grid(battlefield.grid, battlefield.width, battlefield.height)
        self.boxes: dict[Box, BoxTerrain] = {}
        self.walls: list[LineString] = []
        self._wall_between: dict[tuple[Box, Box], bool] = {}   # the terrain never changes
        kinds: dict[Box, set] = {}
        elevation: dict[Box, int] = {}
        size = self.grid.size
        for feature in battlefield.features:
            geom = feature_geometry(feature)
            if geom is None:
                continue
            if feature.kind == "wall":
                self.walls.append(geom)
            minx, miny, maxx, maxy = geom.bounds
            c0, r0 = self.grid.box_of(minx, miny)
            c1, r1 = self.grid.box_of(maxx, maxy)
            area = feature.shape == "area"
            shape = prep(geom)
            for r in range(max(r0, 0), min(r1, self.grid.rows - 1) + 1):
                for c in range(max(c0, 0), min(c1, self.grid.cols - 1) + 1):
                    if area:
                        inside = shape.contains(Point((c + 0.5) * size, (r + 0.5) * size))
                    else:
                        cell = shapely_box(c * size, r * size, (c + 1) * size, (r + 1) * size)
                        inside = shape.intersects(cell) and (
                            feature.shape == "point" or geom.intersection(cell).length > 1e-6)
                    if inside:
                        kinds.setdefault((c, r), set()).add(feature.kind)
                        if feature.kind == "hill":
                            elevation[(c, r)] = max(elevation.get((c, r), 0), feature.level)
        for b, ks in kinds.items():
            self.boxes[b] = BoxTerrain(frozenset(ks), elevation.get(b, 0))
        self._wall_boxes = [w.bounds for w in self.walls]
        self._near: dict[Box, object] = {}      # the circle about a box's centre
        # what lines of sight ask of every box they cross, as plain lookups
        self.heights: dict[Box, int] = dict(elevation)
        self.screens: dict[Box, str] = {b: "/".join(sorted(ks & SCREENS))
                                        for b, ks in kinds.items() if ks & SCREENS}

    def at(self, box: Box) -> BoxTerrain:
        return self.boxes.get(box, OPEN)

    def wall_between(self, a: Box, b: Box) -> bool:
        """Does a wall, hedge or fence cross the line between two box centres near b?"""
        if not self.walls:
            return False
        hit = self._wall_between.get((a, b))
        if hit is None:
            hit = self._wall_between[(a, b)] = self._wall_crosses(a, b)
        return hit

    def _wall_crosses(self, a: Box, b: Box) -> bool:
        s = self.grid.size
        (ax, ay), (bx, by) = ((a[0] + .5) * s, (a[1] + .5) * s), ((b[0] + .5) * s, (b[1] + .5) * s)
        lo_x, lo_y, hi_x, hi_y = min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)
        # a wall whose box misses the line's cannot cross it: most shots meet no wall
        walls = [w for w, (x0, y0, x1, y1) in zip(self.walls, self._wall_boxes)
                 if x0 <= hi_x and lo_x <= x1 and y0 <= hi_y and lo_y <= y1]
        if not walls:
            return False
        line = LineString([(ax, ay), (bx, by)])
        near_b = self._near.get(b)
        if near_b is None:
            near_b = self._near[b] = Point(bx, by).buffer(s * 1.01)
        return any(line.intersects(w) and line.intersection(w).intersects(near_b)
                   for w in walls)


def per_battlefield(build):
    """Memoise a view built from a battlefield, per battlefield object (they are
    immutable: an edit makes a new one), keeping the last few."""
    cache: dict[int, tuple] = {}

    def get(battlefield: Battlefield):
        hit = cache.get(id(battlefield))
        if hit is not None and hit[0] is battlefield:
            return hit[1]
        if len(cache) > 16:
            cache.clear()
        view = build(battlefield)
        cache[id(battlefield)] = (battlefield, view)
        return view
    get.__doc__ = build.__doc__
    return get


terrain_index = per_battlefield(TerrainIndex)
terrain_index.__doc__ = "The per-box terrain of a battlefield, built once per battlefield object."
