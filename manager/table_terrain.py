"""Terrain on an open table, measured in inches: what a move crosses, what blocks sight.

Rulesets measured in inches ask the same few questions of the battlefield: which area
terrain a base stands in, how much of a straight move lies inside some kinds of area,
how many linear obstacles it crosses (bridges and fords excepted where the rules
say), whether a move runs along a road, whether a line of sight is blocked by woods,
towns or a hill higher than both ends, and what a point's ground level is. The shapes
are built once per battlefield object (which is immutable).
"""
from __future__ import annotations

from shapely.geometry import LineString, Point

from .footprint import point, segment
from shapely.ops import unary_union
from shapely.prepared import prep

from .geometry import feature_geometry, per_battlefield
from .model.battlefield import Battlefield

ROAD_WIDTH = 1.0          # inches either side of a road's line that count as on it
CROSSING_REACH = 1.5      # a bridge or ford serves a crossing within this many inches
SURE = 1e-3               # square inches: a shape this big wholly inside an area is in it


class TableTerrain:
    def __init__(self, battlefield: Battlefield):
        self.battlefield = battlefield
        areas: dict[str, list] = {}
        self.lines: dict[str, list[tuple]] = {}        # kind -> [(feature, LineString)]
        self.points: dict[str, list[Point]] = {}
        self.hills: list[tuple[int, object]] = []       # (level, prepared polygon)
        self.hill_shapes: list[tuple[int, object]] = []
        self.pieces: list[tuple] = []                   # (kind, polygon, prepared) per area
        for f in battlefield.features:
            geom = feature_geometry(f)
            if geom is None or geom.is_empty:
                continue
            if f.shape == "area":
                if not geom.is_valid:
                    geom = geom.buffer(0)
                areas.setdefault(f.kind, []).append(geom)
                self.pieces.append((f.kind, geom, prep(geom)))
                if f.kind == "hill":
                    self.hills.append((f.level, prep(geom)))
                    self.hill_shapes.append((f.level, geom))
            elif f.shape == "line":
                self.lines.setdefault(f.kind, []).append((f, geom))
            else:
                self.points.setdefault(f.kind, []).append(geom)
        self.areas = {k: unary_union(v) for k, v in areas.items()}
        self._prepared = {k: prep(v) for k, v in self.areas.items()}
        self._unions: dict = {}                         # kinds -> union of those areas
        self._unions_prepared: dict = {}                # kinds -> that union, prepared
        self._boxes = [(kind, shape.bounds) for kind, shape, _ in self.pieces]
        self._kind_boxes: dict = {}                     # kinds -> their pieces' boxes
        self._hill_boxes = [shape.bounds for _, shape in self.hill_shapes]
        roads = [g for _, g in self.lines.get("road", [])]
        self.road = unary_union(roads).buffer(ROAD_WIDTH) if roads else None
        self._road = prep(self.road) if roads else None  # (the same predicate, indexed)

    # ---- where things stand ------------------------------------------------------------
    def kinds_at(self, shape) -> frozenset:
        """Area kinds the shape (a point or a base polygon) touches inside."""
        # a shape wholly inside an area shares its whole area with it: a base (at least
        # SURE square inches) needs no intersection built to be over the 1e-6 asked
        area = shape.area
        return frozenset(k for k, p in self._prepared.items()
                         if p.intersects(shape) and (
                             area > SURE and p.contains(shape)
                             or self.areas[k].intersection(shape).area
                             + (0 if area else 1) > 1e-6))

    def may_touch(self, bounds, kinds) -> bool:
        """Could a shape within `bounds` (minx, miny, maxx, maxy) touch an area of these
        kinds? False only when its box is apart from the box of every piece of them:
        then kinds_at would name none of them (shapely's intersects is false), and no
        shape need be built to ask."""
        boxes = self._kind_boxes.get(kinds)
        if boxes is None:
            boxes = self._kind_boxes[kinds] = [b for k, b in self._boxes if k in kinds]
        return any(_meets(bounds, b) for b in boxes)

    def kinds_at_point(self, xy) -> frozenset:
        pt = point(xy)
        return frozenset(k for k, p in self._prepared.items() if p.contains(pt))

    def covered(self, shape, kinds) -> float:
        """The fraction (0..1) of the shape's area inside the given area kinds."""
        if shape.area <= 0:
            return 0.0
        # an area the shape does not meet adds exactly 0.0: skip building the intersection
        inside = sum(self.areas[k].intersection(shape).area for k in kinds
                     if k in self.areas and self._prepared[k].intersects(shape))
        return min(inside / shape.area, 1.0)

    def level(self, xy) -> int:
        """Ground level at a point: the highest hill contour containing it (0 = plain)."""
        if not self.hills:
            return 0
        x, y = xy
        # a hill whose box does not hold the point cannot contain it
        inside = [(lvl, p) for (lvl, p), (x0, y0, x1, y1) in zip(self.hills, self._hill_boxes)
                  if x0 <= x <= x1 and y0 <= y <= y1]
        if not inside:
            return 0
        pt = point(xy)
        return max((lvl for lvl, p in inside if p.contains(pt)), default=0)

    # ---- moving ---------------------------------------------------------------------------
    def length_inside(self, path: LineString, kinds) -> float:
        """Inches of the path inside any of the given area kinds."""
        union = self._unions.get(kinds)
        if union is None:                      # the same union every move: build it once
            shapes = [self.areas[k] for k in kinds if k in self.areas]
            union = self._unions[kinds] = unary_union(shapes) if shapes else False
            if union is not False:
                self._unions_prepared[kinds] = prep(union)
        if union is False:
            return 0.0
        # most moves cross none of it: the intersection of shapes apart is empty, of
        # length 0.0, so the prepared test (cheap) answers those without building it
        if not self._unions_prepared[kinds].intersects(path):
            return 0.0
        return path.intersection(union).length

    def crossings(self, path: LineString, kinds) -> list[tuple]:
        """(feature, point) for each linear feature of the given kinds the path crosses."""
        out = []
        for kind in kinds:
            for f, line in self.lines.get(kind, []):
                if not path.intersects(line):
                    continue
                hit = path.intersection(line)
                pts = [hit] if hit.geom_type == "Point" else list(getattr(hit, "geoms", [hit]))
                for p in pts:
                    out.append((f, p.centroid if p.geom_type != "Point" else p))
        return out

    def crossing_at(self, where: Point, kinds=("bridge", "ford")) -> str:
        """The kind of crossing point (bridge, ford) serving a spot on a river, or ''."""
        for kind in kinds:
            for p in self.points.get(kind, []):
                if p.distance(where) <= CROSSING_REACH:
                    return kind
        return ""

    def along_road(self, path: LineString) -> bool:
        """Does the whole move run on a road (within ROAD_WIDTH of its line)?"""
        return self._road is not None and self._road.contains(path)

    # ---- seeing ---------------------------------------------------------------------------
    def sight_blocked(self, a, b, screens=("woods", "town"), skip: float = 0.0) -> str:
        """What terrain blocks the line from a to b ('' when clear).

        Woods and towns block where the line passes through them, except the piece either
        end stands in (troops in a village or wood fire out and are shot at) and the first
        `skip` inches at each end (a unit at the edge of a wood sees out). A hill
        blocks when the line crosses ground higher than both ends.
        """
        # most lines pass no terrain that could block them: compare boxes before
        # building any shape (a piece whose box misses the line's cannot cross it)
        box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        if not any(kind in screens and _meets(bounds, box) for kind, bounds in self._boxes) \
                and not any(_meets(bounds, box) for bounds in self._hill_boxes):
            return ""
        line = segment(a, b)
        length = line.length
        if length <= 2 * skip:
            return ""
        # the line less `skip` at each end, built when a piece or hill first asks it (a
        # hill of quick-play's lines is mostly lower than an end: 14 of 196 asked it)
        inner = None
        ends = None                     # the two end points, built only when asked
        # (a piece or hill whose box misses the line's cannot meet any part of it)
        for (kind, shape, prepared), (_, bounds) in zip(self.pieces, self._boxes):
            if kind in screens and _meets(bounds, box):
                if inner is None:
                    inner = _inner(line, skip, length)
                if not prepared.intersects(inner):
                    continue
                ends = ends or (point(a), point(b))
                # a wood or town blocks what lies beyond it, not the units standing in it
                if not (prepared.contains(ends[0]) or prepared.contains(ends[1])) and \
                        shape.intersection(inner).length > 1e-3:
                    return kind
        top = max(self.level(a), self.level(b))
        for (lvl, shape), bounds in zip(self.hill_shapes, self._hill_boxes):
            if lvl > top and _meets(bounds, box):
                if inner is None:
                    inner = _inner(line, skip, length)
                if shape.intersects(inner):
                    return "hill"
        return ""


def _inner(line, skip: float, length: float) -> LineString:
    """The line less `skip` inches at each end."""
    return LineString([line.interpolate(skip), line.interpolate(length - skip)])


def _meets(p, q) -> bool:
    """Do two (minx, miny, maxx, maxy) boxes overlap or touch?"""
    return p[0] <= q[2] and q[0] <= p[2] and p[1] <= q[3] and q[1] <= p[3]


# the terrain of a battlefield for inch rulesets, built once per battlefield object
table_terrain = per_battlefield(TableTerrain)
