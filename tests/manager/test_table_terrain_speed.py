"""The open table's terrain answers with its pre-checks as without them (issue 17): a
shape wholly inside an area is in it, a path meeting no piece of an area has no length
inside it, a piece or hill whose box misses a line cannot block it, a point outside a
hill's box is not on it, a path on a road asked of the prepared road. Each compared
with the plain code (kept below) on random shapes over Austerlitz's terrain and on
every call of inch-ruleset turns in play."""
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
from shapely.geometry import LineString, Point

from manager.footprint import Footprint, segment
from manager.scenario_io import load_scenario
from manager.table_terrain import TableTerrain, table_terrain

ROOT = Path(__file__).resolve().parents[2]
AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"
_BF = load_scenario(AUSTERLITZ, "featherstone").battlefield
KINDS = (("woods",), ("woods", "town"), ("rough", "marsh"), ("town",), ("hill",),
         ("woods", "rough", "marsh", "town"))


# ---- the plain code (before the pre-checks) -------------------------------------------
def plain_kinds_at(t, shape):
    return frozenset(k for k, p in t._prepared.items()
                     if p.intersects(shape) and t.areas[k].intersection(shape).area
                     + (0 if shape.area else 1) > 1e-6)


def plain_length_inside(t, path, kinds):
    from shapely.ops import unary_union
    shapes = [t.areas[k] for k in kinds if k in t.areas]
    return path.intersection(unary_union(shapes)).length if shapes else 0.0


def plain_along_road(t, path):
    return t.road is not None and t.road.contains(path)


def plain_level(t, xy):
    if not t.hills:
        return 0
    pt = Point(xy)
    return max((lvl for lvl, p in t.hills if p.contains(pt)), default=0)


def plain_sight_blocked(t, a, b, screens=("woods", "town"), skip=0.0):
    from manager.table_terrain import _meets
    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
    if not any(kind in screens and _meets(bounds, box) for kind, bounds in t._boxes) \
            and not any(_meets(bounds, box) for bounds in t._hill_boxes):
        return ""
    line = segment(a, b)
    length = line.length
    if length <= 2 * skip:
        return ""
    inner = LineString([line.interpolate(skip), line.interpolate(length - skip)])
    pa, pb = Point(a), Point(b)
    for kind, shape, prepared in t.pieces:
        if kind in screens and prepared.intersects(inner) and not (
                prepared.contains(pa) or prepared.contains(pb)):
            if shape.intersection(inner).length > 1e-3:
                return kind
    top = max(plain_level(t, a), plain_level(t, b))
    for lvl, shape in t.hill_shapes:
        if lvl > top and shape.intersects(inner):
            return "hill"
    return ""


# ---- random shapes over Austerlitz --------------------------------------------------------
xs = st.floats(-2, _BF.width + 2)
ys = st.floats(-2, _BF.height + 2)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(xs, ys, st.floats(0, 360), st.floats(0.0, 12), st.floats(0.0, 6), xs, ys,
       st.sampled_from(KINDS), st.floats(0, 2))
def test_terrain_pre_checks_answer_as_the_plain_code(x, y, f, front, depth, bx, by, kinds,
                                                      skip):
    t = table_terrain(_BF)
    base = Footprint(x, y, f, front, depth)
    for shape in (base.polygon(), Point(x, y), segment((x, y), (bx, by))):
        assert t.kinds_at(shape) == plain_kinds_at(t, shape)
    path = segment((x, y), (bx, by))
    assert t.length_inside(path, kinds) == plain_length_inside(t, path, kinds)
    assert t.level((x, y)) == plain_level(t, (x, y))
    assert t.along_road(path) == plain_along_road(t, path)
    for screens in (("woods", "town"), ("woods",), ()):      # () as quick-play asks
        assert t.sight_blocked((x, y), (bx, by), screens, skip) == \
            plain_sight_blocked(t, (x, y), (bx, by), screens, skip)


def test_terrain_pre_checks_are_not_vacuous():
    """Austerlitz has bases wholly in an area, paths missing and crossing areas, points
    on a hill and off every hill's box, lines beside and across blocking pieces."""
    t = TableTerrain(_BF)
    kind, shape, _ = next(p for p in t.pieces if p[0] in ("woods", "town") and p[1].area > 20)
    c = shape.representative_point()
    inside = Footprint(c.x, c.y, 0.0, 0.5, 0.5).polygon()
    assert shape.contains(inside)
    assert kind in t.kinds_at(inside) and kind in plain_kinds_at(t, inside)
    away = segment((-5.0, -5.0), (-1.0, -1.0))
    assert t.length_inside(away, (kind,)) == 0.0 == plain_length_inside(t, away, (kind,))
    minx, miny, maxx, maxy = shape.bounds
    across = segment((minx - 3, (miny + maxy) / 2), (maxx + 3, (miny + maxy) / 2))
    assert t.length_inside(across, (kind,)) == plain_length_inside(t, across, (kind,)) > 0
    if t.hills:
        lvl, hill = t.hill_shapes[0]
        p = hill.representative_point()
        assert t.level((p.x, p.y)) == plain_level(t, (p.x, p.y)) >= lvl > 0
    assert t.level((-50.0, -50.0)) == 0
    road = t.road.representative_point()
    on = segment((road.x, road.y), (road.x, road.y + 1e-3))
    assert t.along_road(on) and plain_along_road(t, on)
    assert not t.along_road(away) and not plain_along_road(t, away)


def test_terrain_answers_in_play_are_the_plain_ones(monkeypatch):
    """Every kinds_at, length_inside, level and sight_blocked call of two Austerlitz
    turns under each inch ruleset, asked again of the plain code."""
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import scenario
    from manager.autopilot import Autopilot
    from manager.session import Session
    calls = {"kinds_at": 0, "length_inside": 0, "level": 0, "sight_blocked": 0,
             "along_road": 0}
    plain = {"kinds_at": plain_kinds_at, "length_inside": plain_length_inside,
             "level": plain_level, "sight_blocked": plain_sight_blocked,
             "along_road": plain_along_road}
    for name in calls:
        fast = getattr(TableTerrain, name)

        def checked(self, *a, _fast=fast, _name=name, **k):
            got = _fast(self, *a, **k)
            assert got == plain[_name](self, *a, **k), (_name, a, k)
            calls[_name] += 1
            return got
        monkeypatch.setattr(TableTerrain, name, checked)
    for rs in ("featherstone", "d3", "quickplay"):
        s = Session(scenario(AUSTERLITZ, rs, seed=1, turns=2))
        Autopilot(s).play()
    assert min(calls.values()) > 50, calls


def test_a_hill_met_only_within_the_skipped_inch_does_not_block():
    """Lines that meet a hill (higher than both ends) only within `skip` of an end: the
    line less its skipped inches, built when a hill first asks it, is the plain code's
    (a line built without the skip would be blocked). Found by search about Austerlitz's
    hills, with no screens (as quick-play asks) and with woods and towns."""
    import random
    t = TableTerrain(_BF)
    rng = random.Random(17)
    found = 0
    for lvl, hill in t.hill_shapes:
        ring = hill.exterior
        for _ in range(400):
            p = ring.interpolate(rng.random(), normalized=True)
            a = (p.x + rng.uniform(-0.6, 0.6), p.y + rng.uniform(-0.6, 0.6))
            b = (a[0] + rng.uniform(-6, 6), a[1] + rng.uniform(-6, 6))
            for screens in ((), ("woods", "town")):
                grazed = plain_sight_blocked(t, a, b, screens, 0.0) == "hill" != \
                    plain_sight_blocked(t, a, b, screens, 1.0)
                found += grazed
                assert t.sight_blocked(a, b, screens, 1.0) == \
                    plain_sight_blocked(t, a, b, screens, 1.0)
    assert found > 10
