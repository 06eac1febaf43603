"""Units on an open table: the base a unit stands on, and the questions rules ask of it.

A footprint is a rectangle of `frontage` by `depth` inches centred on the unit's
position, its front edge toward `facing` (degrees clockwise from north; north is up,
-y, as on the screen). Rulesets measured in inches ask: how far apart are two units
(edge to edge), is a point in a unit's forward arc, which face of a unit does a point
lie beyond (front, flank, rear), and how far did the farthest figure travel in a move
(the outer corner in a wheel). Everything is plain floats; shapely does the polygons.
"""
from __future__ import annotations

import math
from fractions import Fraction
import struct
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

import numpy as np
import shapely
from shapely import lib as _lib
from shapely.geometry import LineString, Polygon

from . import convex

EPS = 1e-6


class _Headings(dict):
    """facing -> the unit vector it points along (0 = north = up = -y), each worked out
    once: rules ask tens of thousands a turn, of a few hundred facings. A zero is never
    kept: 0 and -0.0 are one key but give (0.0, -1.0) and (-0.0, -1.0); any other key
    equal to a facing is the same number (an int equal to a float converts to it
    exactly), so every answer is the very floats of radians, sin and cos."""

    __slots__ = ()

    def __missing__(self, facing):
        r = math.radians(facing)
        h = math.sin(r), -math.cos(r)
        if facing and len(self) < 100_000:
            self[facing] = h
        return h


heading = _Headings().__getitem__   # heading(facing) -> (x, y): a lookup, no Python frame


def bearing(a, b) -> float:
    """Degrees clockwise from north of the direction from point a to point b."""
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two bearings, 0..180."""
    d = abs((a - b) % 360)
    return min(d, 360 - d)


# the straight-line distance of two points (x, y): math.dist is math.hypot(ax - bx, ay - by)
# to the bit (both are CPython's vector_norm of the absolute differences), without a
# Python frame; the rules measure hundreds of thousands a turn
distance = math.dist


@dataclass(frozen=True, init=False)
class Footprint:
    # the five fields, then the shapes derived from them, each worked out on first use and
    # kept on the object (bases are asked about thousands of times a turn, mostly the
    # same objects: no hashing of five floats per question), and the hash of the five
    # fields once asked; equality, hashing and pickling see the five fields only
    __slots__ = ("x", "y", "facing", "frontage", "depth", "_poly", "_frm", "_bx", "_h")
    x: float
    y: float
    facing: float
    frontage: float
    depth: float

    centre = property(attrgetter("x", "y"))      # (x, y), without a Python frame

    def __init__(self, x: float, y: float, facing: float, frontage: float, depth: float):
        # each field set through its slot's descriptor: what the frozen dataclass's
        # __init__ does through object.__setattr__ by name, at half the cost (rules
        # build thousands of bases a turn)
        _set_x(self, x)
        _set_y(self, y)
        _set_facing(self, facing)
        _set_frontage(self, frontage)
        _set_depth(self, depth)
        # nothing derived yet: None, so a first ask tests a slot instead of catching
        # an AttributeError (a new base is asked for its frame, shape or box once or
        # twice, and thousands are built a turn)
        _set_poly(self, None)
        _set_frm(self, None)
        _set_bx(self, None)
        _set_h(self, None)

    def __hash__(self):
        # the dataclass's hash (of the five fields' tuple), kept once asked: the memos
        # keyed by bases ask it of the same base again and again
        h = self._h
        if h is None:
            h = hash((self.x, self.y, self.facing, self.frontage, self.depth))
            _set_h(self, h)
        return h

    def __getstate__(self):
        return (self.x, self.y, self.facing, self.frontage, self.depth)

    def __setstate__(self, state):
        for name, value in zip(_FIELDS, state):
            object.__setattr__(self, name, value)
        for name in _DERIVED:
            object.__setattr__(self, name, None)

    def corners(self) -> tuple:
        """Front-left, front-right, rear-right, rear-left, in inches."""
        fx, fy = heading(self.facing)
        hf, hd = self.frontage / 2, self.depth / 2
        # x + fx*a*hd + rx*b*hf for a, b = +-1 (rx, ry = -fy, fx: to the unit's right):
        # a sign flip is exact, so the same floats as the products with a and b
        fa, fb = fx * hd, fy * hd
        ra, rb = -fy * hf, fx * hf
        x, y = self.x, self.y
        return ((x + fa - ra, y + fb - rb), (x + fa + ra, y + fb + rb),
                (x - fa + ra, y - fb + rb), (x - fa - ra, y - fb - rb))

    def polygon(self) -> Polygon:
        poly = self._poly
        if poly is None:
            poly = _polygon(self)
            _set_poly(self, poly)
        return poly

    def front_edge(self) -> LineString:
        c = self.corners()
        return segment(c[0], c[1])

    def front_centre(self) -> tuple[float, float]:
        fx, fy = heading(self.facing)
        return (self.x + fx * self.depth / 2, self.y + fy * self.depth / 2)

    def moved(self, x: float, y: float, facing: float | None = None) -> "Footprint":
        return Footprint(x, y, self.facing if facing is None else facing,
                         self.frontage, self.depth)

    def resized(self, frontage: float, depth: float) -> "Footprint":
        return Footprint(self.x, self.y, self.facing, frontage, depth)


_FIELDS = ("x", "y", "facing", "frontage", "depth")
_DERIVED = ("_poly", "_frm", "_bx", "_h")
_set_x, _set_y, _set_facing, _set_frontage, _set_depth, _set_poly, _set_frm, _set_bx, \
    _set_h = (Footprint.__dict__[name].__set__ for name in _FIELDS + _DERIVED)


_RING = struct.Struct("<BIII10d")         # WKB: a polygon of one closed ring of 5 points
_SEGMENT = struct.Struct("<BII4d")        # WKB: a line string of 2 points
_POINT = struct.Struct("<BI2d")           # WKB: a point
_RAISE = np.uint8(shapely.io.DecodingErrorOptions.get_value("raise"))


def from_wkb(wkb: bytes):
    """shapely.from_wkb(wkb): its own last step (the bytes as an object array: numpy
    would strip trailing null bytes of a fixed-width string), without its Python
    wrapper's option look-ups, which cost more than decoding a base."""
    return _lib.from_wkb(np.asarray(wkb, dtype=object), _RAISE)


def point(xy):
    """Point(xy), built from WKB: the same geometry at a fraction of the cost."""
    return from_wkb(_POINT.pack(1, 1, xy[0], xy[1]))


def segment(a, b) -> LineString:
    """LineString([a, b]), built from WKB: the same geometry (byte for byte) at about
    half the cost of shapely's Python constructor; rules draw thousands a turn (lines
    of sight, paths of moves)."""
    return from_wkb(_SEGMENT.pack(1, 2, 2, a[0], a[1], b[0], b[1]))


@lru_cache(maxsize=65536)
def _polygon(fp: Footprint) -> Polygon:
    """Bases are asked about far more often than they move: build each shape once.
    From WKB, the same coordinates as Polygon(corners) (ring closed on the first
    corner), at a third of the cost of shapely's Python constructor."""
    (a, b), (c, d), (e, f), (g, h) = fp.corners()
    return from_wkb(_RING.pack(1, 3, 1, 5, a, b, c, d, e, f, g, h, a, b))


def gap(a: Footprint, b: Footprint) -> float:
    """Edge-to-edge distance in inches; 0 when the bases touch or overlap."""
    return a.polygon().distance(b.polygon())


def surely_apart(a: Footprint, b: Footprint, inches: float) -> bool:
    """Are the bases certainly more than `inches` apart edge to edge? (Each lies within
    half its diagonal of its centre.) False means only "maybe not": measure then."""
    reach = (math.hypot(a.frontage, a.depth) + math.hypot(b.frontage, b.depth)) / 2
    return distance(a.centre, b.centre) - reach > inches + 1e-6


def overlap(a: Footprint, b: Footprint) -> bool:
    """Do the bases overlap (touching edges do not count)?"""
    # every corner lies within half the diagonal of its centre: bases whose circles are
    # apart cannot overlap, and most asked are far apart (no shapes built for them)
    reach = (math.hypot(a.frontage, a.depth) + math.hypot(b.frontage, b.depth)) / 2 + 1e-6
    if (a.x - b.x) ** 2 + (a.y - b.y) ** 2 > reach * reach:
        return False
    # plain arithmetic answers all but a knife edge (manager/convex.py), shapely the rest
    sure = convex.area_above(_frame(a), a.x, a.y, _frame(b), b.x, b.y, 1e-4)
    if sure is not None:
        return sure
    # the knife edge: exact arithmetic (shapely's overlay can fail on touching edges)
    return convex.exact_clip_area(_frame(a)[4], _frame(b)[4]) > Fraction(1e-4)


def _frame(fp: Footprint) -> tuple:
    """(fx, fy, half depth, half frontage, corners): the base's axes and corners."""
    frame = fp._frm
    if frame is None:
        frame = _frame_of(fp)
        _set_frm(fp, frame)
    return frame


@lru_cache(maxsize=65536)
def _frame_of(fp: Footprint) -> tuple:
    fx, fy = heading(fp.facing)
    return fx, fy, fp.depth / 2, fp.frontage / 2, fp.corners()


def in_arc(fp: Footprint, point, half_angle: float) -> bool:
    """Is the point within `half_angle` degrees either side of the unit's facing,
    measured from the middle of its front edge (a point on the edge is in arc)?"""
    origin = fp.front_centre()
    if distance(origin, point) < EPS:
        return True
    return angle_between(bearing(origin, point), fp.facing) <= half_angle + EPS


def aspect(target: Footprint, point) -> str:
    """Which face of the target the point lies beyond: 'front', 'flank' or 'rear'.

    The faces are divided by the base's diagonals produced outward, so a point is
    in front when it lies beyond the front edge between the two diagonals.
    """
    off = angle_between(bearing(target.centre, point), target.facing)
    corner = math.degrees(math.atan2(target.frontage / 2, target.depth / 2))
    if off <= corner + EPS:
        return "front"
    if off >= 180 - corner - EPS:
        return "rear"
    return "flank"


def inside(fp: Footprint, width: float, height: float) -> bool:
    """Is the whole base on a table of width x height inches?"""
    # its box: the min and max of the very corners its polygon is built from, so the
    # polygon's bounds without a shape built or shapely's bounds asked
    minx, miny, maxx, maxy = _box(fp)
    return minx >= -EPS and miny >= -EPS and maxx <= width + EPS and maxy <= height + EPS


def slide(fp: Footprint, way: float, inches: float, stop, step: float = 0.5):
    """Advance a base straight along bearing `way`, `step` inches at a time, up to `inches`
    (retreats, recoils, pursuits). `stop(base)` says why it may not stand there ('' to go
    on). Returns (inches gone, the reason it stopped or '')."""
    hx, hy = heading(way)
    done = 0.0
    while done + step <= inches + 1e-9:
        why = stop(fp.moved(fp.x + hx * (done + step), fp.y + hy * (done + step)))
        if why:
            return done, why
        done += step
    return done, ""


def travel(a: Footprint, b: Footprint) -> float:
    """How far the farthest-moving figure goes from base a to base b: the largest
    corner displacement (a wheel moves the outer flank farther than the centre)."""
    return max(map(distance, a.corners(), b.corners()))     # (pair by pair, in C)


def swept(a: Footprint, b: Footprint) -> Polygon:
    """The ground a straight move from a to b passes over (the hull of both bases)."""
    return a.polygon().union(b.polygon()).convex_hull


def box(*fps: Footprint) -> tuple:
    """(minx, miny, maxx, maxy) of the bases' corners: the very coordinates of their
    polygons, so a shape built from them lies inside it."""
    if len(fps) == 1:
        return _box(fps[0])
    boxes = [_box(fp) for fp in fps]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _box(fp: Footprint) -> tuple:
    bx = fp._bx
    if bx is None:
        bx = _box_of(fp)
        _set_bx(fp, bx)
    return bx


@lru_cache(maxsize=65536)
def _box_of(fp: Footprint) -> tuple:
    (a, b), (c, d), (e, f), (g, h) = fp.corners()
    return min(a, c, e, g), min(b, d, f, h), max(a, c, e, g), max(b, d, f, h)


def closer_than(a: Footprint, b: Footprint, inches: float) -> bool:
    """Is the gap between the bases under `inches`? The gap of shapely, measured only
    when the bases' circles do not already say no."""
    if surely_apart(a, b, inches):
        return False
    if inches > 0:
        far = convex.gap_above(_frame(a), a.x, a.y, _frame(b), b.x, b.y, inches)
        if far is not None:
            return not far
    return gap(a, b) < inches


def gap_above(a: Footprint, b: Footprint, inches: float):
    """Is `gap(a, b)` above `inches` (>= 0)? True/False when plain arithmetic is certain
    (convex.gap_above on the bases' frames), None when shapely must measure."""
    return convex.gap_above(_frame(a), a.x, a.y, _frame(b), b.x, b.y, inches)


def area_above(a: Footprint, b: Footprint, area: float):
    """Is the area the bases share above `area`? True/False when plain arithmetic is
    certain (convex.area_above on the bases' frames), None when shapes must decide."""
    return convex.area_above(_frame(a), a.x, a.y, _frame(b), b.x, b.y, area)


class Sweep:
    """The ground a straight move passes over (`swept`), asked which bases it crosses.
    Most bases asked are nowhere near: their boxes are apart from the move's, so
    the hull is built, and an intersection measured, only for the few that could;
    of those, plain arithmetic tells nearly all (manager/convex.py)."""

    __slots__ = ("a", "b", "box", "_hull", "_slabs")

    def __init__(self, a: Footprint, b: Footprint):
        self.a, self.b, self._hull, self._slabs = a, b, None, None
        self.box = box(a, b)

    @property
    def hull(self) -> Polygon:
        if self._hull is None:
            self._hull = swept(self.a, self.b)
        return self._hull

    def crosses(self, fp: Footprint, area: float = 1e-4) -> bool:
        """hull.intersection(fp's base).area > area: a shape whose box is apart from
        the hull's cannot meet it, so its intersection is empty (area 0)."""
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = self.box, box(fp)
        if bx0 > ax1 or ax0 > bx1 or by0 > ay1 or ay0 > by1:
            return False
        sure = self._surely(fp, area)
        if sure is not None:
            return sure
        return convex.exact_clip_area(_frame(fp)[4], self._slabs[1]) > Fraction(area)

    def _surely(self, fp: Footprint, area: float):
        """True or False when plain arithmetic is certain, else None (manager/convex.py):
        the hull's projections on the bases' axes and the move's normal first (most
        bases near a move lie clear of it), then the exact area of the clipped shape."""
        if self._slabs is None:
            a, b = _frame(self.a), _frame(self.b)
            axes = [(a[0], a[1]), (-a[1], a[0]), (b[0], b[1]), (-b[1], b[0])]
            mx, my = self.b.x - self.a.x, self.b.y - self.a.y
            n = math.hypot(mx, my)
            if n > EPS:
                axes.append((-my / n, mx / n))
            pts = a[4] + b[4]
            self._slabs = (convex.slabs(pts, axes), convex.hull(pts))
        slabs, corners = self._slabs
        f = _frame(fp)
        return convex.hull_area_above(slabs, corners, (fp.x, fp.y), f[4], f, area)
