"""Footprint's own __init__ and footprint.from_wkb are what they replace: the frozen
dataclass's generated __init__, and shapely.from_wkb (issue 17)."""
import copy
import dataclasses
import pickle

import pytest
import shapely
from hypothesis import given, settings, strategies as st

from manager import footprint as F
from manager.footprint import Footprint

floats = st.floats(allow_nan=False, allow_infinity=False, width=64)
small = st.floats(min_value=-500, max_value=500, allow_nan=False) | st.sampled_from(
    [0.0, -0.0, 1.0, 0.5, 2 ** -1074])          # zeros: WKB ending in null bytes


@dataclasses.dataclass(frozen=True)
class Plain:                                    # the generated __init__ of the old class
    __slots__ = ("x", "y", "facing", "frontage", "depth")
    x: float
    y: float
    facing: float
    frontage: float
    depth: float


@settings(max_examples=200, deadline=None)
@given(floats, floats, floats, floats, floats)
def test_a_footprint_is_built_as_the_dataclass_built_it(x, y, facing, frontage, depth):
    fp = Footprint(x, y, facing, frontage, depth)
    kw = Footprint(depth=depth, frontage=frontage, facing=facing, y=y, x=x)
    plain = Plain(x, y, facing, frontage, depth)
    fields = tuple(f.name for f in dataclasses.fields(Footprint))
    assert fields == ("x", "y", "facing", "frontage", "depth")
    assert tuple(getattr(fp, n) for n in fields) == tuple(getattr(plain, n) for n in fields)
    assert all(getattr(fp, n) is getattr(kw, n) for n in fields)
    assert fp == kw and hash(fp) == hash(kw) == hash(plain)
    assert repr(fp) == repr(plain).replace("Plain", "Footprint")
    assert pickle.loads(pickle.dumps(fp)) == fp and copy.copy(fp) == fp
    assert dataclasses.replace(fp, x=1.5) == Footprint(1.5, y, facing, frontage, depth)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fp.x = 0.0
    assert hash(fp) == hash(plain) == hash(fp)          # kept once asked: the same
    twin = pickle.loads(pickle.dumps(fp))               # nothing derived travels
    assert all(getattr(twin, n) is None for n in ("_poly", "_frm", "_bx", "_h"))
    assert {fp: 1}[kw] == 1 and kw in {fp}


def test_a_footprint_refuses_what_the_dataclass_refused():
    with pytest.raises(TypeError):
        Footprint(1.0, 2.0, 3.0, 4.0)
    with pytest.raises(TypeError):
        Footprint(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    with pytest.raises(TypeError):
        Footprint(1.0, 2.0, 3.0, 4.0, colour=5.0)


@settings(max_examples=300, deadline=None)
@given(small, small, small, small, st.floats(0, 360), st.floats(0.01, 12),
       st.floats(0.01, 8))
def test_from_wkb_builds_what_shapely_builds(ax, ay, bx, by, facing, front, depth):
    fp = Footprint(ax, ay, facing, front, depth)
    (a, b), (c, d), (e, f), (g, h) = fp.corners()
    for wkb in (F._RING.pack(1, 3, 1, 5, a, b, c, d, e, f, g, h, a, b),
                F._SEGMENT.pack(1, 2, 2, ax, ay, bx, by), F._POINT.pack(1, 1, ax, ay)):
        mine, theirs = F.from_wkb(wkb), shapely.from_wkb(wkb)
        assert type(mine) is type(theirs) and mine.wkb == theirs.wkb == wkb
    assert F.segment((ax, ay), (bx, by)).wkb == \
        shapely.LineString([(ax, ay), (bx, by)]).wkb
    assert F.point((ax, ay)).wkb == shapely.Point(ax, ay).wkb
    assert fp.polygon().wkb == shapely.Polygon(fp.corners()).wkb


def test_from_wkb_refuses_bad_bytes_as_shapely_does():
    with pytest.raises(shapely.errors.GEOSException):
        F.from_wkb(b"\x01\x02\x00")
    with pytest.raises(shapely.errors.GEOSException):
        shapely.from_wkb(b"\x01\x02\x00")


@settings(max_examples=300, deadline=None)
@given(st.floats(-5, 125), st.floats(-5, 95), st.floats(0, 360), st.floats(0.01, 12),
       st.floats(0.01, 8), st.sampled_from([(120.0, 90.0), (10.0, 10.0), (4.0, 2.0)]))
def test_inside_by_the_box_is_inside_by_the_polygons_bounds(x, y, facing, front, depth,
                                                             table):
    fp = Footprint(x, y, facing, front, depth)
    minx, miny, maxx, maxy = shapely.Polygon(fp.corners()).bounds
    assert F.box(fp) == (minx, miny, maxx, maxy)
    w, h = table
    assert F.inside(fp, w, h) == (minx >= -F.EPS and miny >= -F.EPS and
                                  maxx <= w + F.EPS and maxy <= h + F.EPS)
    out = Footprint(front / 2 - 2 * F.EPS, h / 2, 0.0, front, min(depth, h / 2))
    assert shapely.Polygon(out.corners()).bounds[0] < -F.EPS and not F.inside(out, w, h)


@settings(max_examples=200, deadline=None)
@given(small, small, st.floats(0, 360), small, small, st.floats(0, 360),
       st.floats(0.01, 12), st.floats(0.01, 8))
def test_travel_is_the_largest_corner_displacement(ax, ay, af, bx, by, bf, front, depth):
    a, b = Footprint(ax, ay, af, front, depth), Footprint(bx, by, bf, front, depth)
    assert F.travel(a, b) == max(F.distance(p, q) for p, q in zip(a.corners(), b.corners()))


def test_memo_answers_only_for_the_very_pieces():
    from manager import spatial

    class Cache:
        def __init__(self):
            self.store = {}

        def cached(self, name, build):
            return self.store.setdefault(name, build())

    b, calls = Cache(), []
    one, two = object(), object()

    def compute():
        calls.append(1)
        return len(calls)

    assert spatial.memo(b, "m", "k", (one, two), compute) == 1
    assert spatial.memo(b, "m", "k", (one, two), compute) == 1          # the very pieces
    assert spatial.memo(b, "m", "k", (one, object()), compute) == 2     # another piece
    assert spatial.memo(b, "m", "k", (one,), compute) == 2              # as zip: a prefix
    assert spatial.memo(b, "m", "k", (two, one), compute) == 3
    assert spatial.memo(b, "m", "k", (two,), compute) == 3
