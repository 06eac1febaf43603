"""The spatial index answers exactly what a scan of every live unit answered."""
import math
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from manager import spatial
from manager.footprint import distance


class FakeBattle:
    """live_units and cached as the Battle has them (cache cleared by a change)."""

    def __init__(self, units):
        self.units = units
        self._cache = {}

    def live_units(self, side=None):
        return [u for u in self.units if side is None or u.side == side]

    def cached(self, key, build):
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def derived(self, key, build, update):          # no journal here: built per change
        return self.cached(key, build)


def unit(k, x, y, side):
    return SimpleNamespace(id=f"u{k}", x=x, y=y, pos=(x, y), side=side)


coords = st.floats(min_value=-20, max_value=200, allow_nan=False)
units = st.lists(st.tuples(coords, coords, st.sampled_from(["a", "b"])), max_size=60)


@settings(max_examples=150, deadline=None)
@given(units, coords, coords, st.floats(min_value=0, max_value=80), st.sampled_from([None, "a", "b"]))
def test_near_units_is_the_scan(us, x, y, reach, side):
    b = FakeBattle([unit(k, *u) for k, u in enumerate(us)])
    scan = [u for u in b.live_units(side) if distance(u.pos, (x, y)) <= reach]
    assert spatial.near_units(b, (x, y), reach, side) == scan


def seg_dist(p, a, b):
    (ax, ay), (bx, by) = a, b
    L2 = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / L2))
    return math.hypot(ax + t * (bx - ax) - p[0], ay + t * (by - ay) - p[1])


@settings(max_examples=150, deadline=None)
@given(units, coords, coords, coords, coords, st.floats(min_value=0, max_value=10))
def test_along_keeps_every_unit_near_the_segment_in_order(us, ax, ay, bx, by, margin):
    b = FakeBattle([unit(k, *u) for k, u in enumerate(us)])
    got = spatial.unit_grid(b).along((ax, ay), (bx, by), margin)
    near = [u for u in b.live_units() if seg_dist(u.pos, (ax, ay), (bx, by)) <= margin]
    assert [u for u in got if u in near] == near            # none missed, order kept
    order = [b.units.index(u) for u in got]
    assert order == sorted(order) and len(set(order)) == len(order)


def test_the_index_is_rebuilt_after_a_change():
    b = FakeBattle([unit(0, 10, 10, "a")])
    assert [u.id for u in spatial.near_units(b, (10, 10), 1)] == ["u0"]
    b.units[0] = unit(0, 50, 50, "a")
    b._cache.clear()                                        # what Battle.touch does
    assert spatial.near_units(b, (10, 10), 1) == []


def test_memo_never_answers_for_a_trial_copy():
    b = FakeBattle([])
    real, trial = unit(0, 1, 1, "a"), unit(0, 5, 5, "a")
    calls = []
    for u in (real, real, trial, real):
        spatial.memo(b, "t", u.id, (u,), lambda u=u: calls.append(u.x) or u.x)
    assert calls == [1, 5, 1]


@settings(max_examples=200, deadline=None)
@given(st.floats(-50, 200), st.floats(-50, 200), st.floats(0, 359.9), st.floats(0.1, 20),
       st.floats(0.1, 10))
def test_a_base_polygon_is_the_one_shapely_builds(x, y, facing, front, depth):
    """Bases are built from WKB for speed: byte for byte the polygon of their corners."""
    from shapely.geometry import Polygon

    from manager.footprint import Footprint
    fp = Footprint(x, y, facing, front, depth)
    assert fp.polygon().wkb == Polygon(fp.corners()).wkb


def _contact_point_as_before(mover, target, along):
    """contact_point as it was before the speed work: every gap and overlap measured."""
    from manager.footprint import EPS, gap, heading, overlap
    fx, fy = heading(along)
    far = distance(mover.centre, target.centre) + mover.frontage + mover.depth + \
        target.frontage + target.depth

    def at(d):
        return mover.moved(mover.x + fx * d, mover.y + fy * d, along)

    if gap(at(0), target) <= EPS:
        return None if overlap(at(0), target) else mover.centre
    lo, hi = 0.0, far
    if gap(at(hi), target) > EPS and not overlap(at(hi), target):
        best = min((gap(at(far * i / 64), target), i) for i in range(65))
        if best[0] > EPS:
            return None
        hi = far * best[1] / 64
    for _ in range(28):
        mid = (lo + hi) / 2
        if gap(at(mid), target) > EPS and not overlap(at(mid), target):
            lo = mid
        else:
            hi = mid
    return (mover.x + fx * hi, mover.y + fy * hi)


@settings(max_examples=150, deadline=None)
@given(st.floats(0, 60), st.floats(0, 60), st.floats(0, 359), st.floats(0, 60), st.floats(0, 60),
       st.floats(0, 359), st.floats(0, 359), st.floats(1, 8), st.floats(0.5, 3))
def test_contact_point_is_what_it_was(mx, my, mf, tx, ty, tf, along, front, depth):
    from manager.contact_scan import contact_point
    from manager.footprint import Footprint
    mover, target = Footprint(mx, my, mf, front, depth), Footprint(tx, ty, tf, 4.0, 1.5)
    assert contact_point(mover, target, along) == _contact_point_as_before(mover, target, along)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 60), st.floats(0, 60), st.floats(0, 359), st.floats(3, 30),
       st.floats(-20, 20), st.floats(0, 359), st.floats(-4, 4), st.floats(1, 8),
       st.floats(0.5, 3))
def test_contact_point_aimed_through_the_target_is_what_it_was(tx, ty, tf, dist, bearing_off,
                                                              mf, side, front, depth):
    """Movers aimed at or beside the target, so the path passes through or grazes it (the
    closest-approach scan, and the separating-axis answers for it, are exercised)."""
    import math
    from manager.contact_scan import contact_point
    from manager.footprint import Footprint, bearing
    target = Footprint(tx, ty, tf, 4.0, 1.5)
    r = math.radians(bearing_off + 180)
    mover = Footprint(tx + dist * math.sin(r) + side, ty - dist * math.cos(r), mf, front, depth)
    along = bearing(mover.centre, target.centre) + bearing_off / 4
    assert contact_point(mover, target, along) == _contact_point_as_before(mover, target, along)


base = st.tuples(st.floats(0, 40), st.floats(0, 40), st.floats(0, 359.9), st.floats(0.5, 8),
                 st.floats(0.5, 4))


@settings(max_examples=300, deadline=None)
@given(base, base, base)
def test_sweep_crosses_what_the_hull_meets(a, b, o):
    """Sweep.crosses skips bases by their boxes: the very answer of the hull's area."""
    from manager.footprint import Footprint, Sweep, swept
    fa, fb, fo = Footprint(*a), Footprint(*b), Footprint(*o)
    assert Sweep(fa, fb).crosses(fo) == (swept(fa, fb).intersection(fo.polygon()).area > 1e-4)


@settings(max_examples=300, deadline=None)
@given(base, base, st.floats(0, 3))
def test_closer_than_is_the_gap_test(a, b, inches):
    from manager.footprint import Footprint, closer_than, gap
    fa, fb = Footprint(*a), Footprint(*b)
    assert closer_than(fa, fb, inches) == (gap(fa, fb) < inches)


def test_wall_between_is_the_shapes_answer_for_every_pair_of_boxes():
    """TerrainIndex.wall_between skips walls by their boxes and remembers each answer:
    for every pair of boxes it is what the shapes say (the test builds them itself)."""
    from shapely.geometry import LineString, Point

    from builders import build, line
    from manager.geometry import terrain_index
    b = build([], terrain=[line("wall", (6, 3), (6, 8)), line("wall", (2, 2), (9, 2))],
              width=12, height=10)
    t = terrain_index(b.battlefield)
    s = t.grid.size
    boxes = [(c, r) for c in range(0, 12, 2) for r in range(0, 10)]
    walls = [w for w in t.walls]
    for a in boxes:
        for z in boxes:
            ln = LineString([((a[0] + .5) * s, (a[1] + .5) * s), ((z[0] + .5) * s, (z[1] + .5) * s)])
            near = Point((z[0] + .5) * s, (z[1] + .5) * s).buffer(s * 1.01)
            want = any(ln.intersects(w) and ln.intersection(w).intersects(near) for w in walls)
            assert t.wall_between(a, z) == want, (a, z)
            assert t.wall_between(a, z) == want               # and so when remembered



@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(-50, 200), st.floats(-50, 200)),
       st.tuples(st.floats(-50, 200), st.floats(-50, 200)))
def test_a_segment_is_the_line_string_shapely_builds(a, b):
    from shapely.geometry import LineString

    from manager.footprint import segment
    assert segment(a, b).wkb == LineString([a, b]).wkb
    assert segment((1, 2), (3, 4)).wkb == LineString([(1, 2), (3, 4)]).wkb      # whole numbers
    from shapely.geometry import Point

    from manager.footprint import point
    assert point(a).wkb == Point(a).wkb


def test_kept_bases_never_answer_for_another_record():
    """Bases are kept across changes and shared with copies; each answers only for the
    very unit record it was built from (a moved unit, in the battle or a trial copy)."""
    from builders import build_table, piece
    from manager.rules.featherstone.state import _footprint, footprint
    b = build_table([piece("a", "blue", "line_infantry", (10, 30)),
                     piece("e", "red", "line_infantry", (10, 10))], "featherstone")
    before = footprint(b, b.units["a"])
    c = b.copy()
    c.update_unit("a", x=20.0, y=20.0, facing=90, formation="column")
    assert footprint(c, c.units["a"]) == _footprint(c, c.units["a"], None, None, None, None)
    assert footprint(c, c.units["a"]).centre == (20.0, 20.0)
    assert footprint(b, b.units["a"]) == before == _footprint(b, b.units["a"], None, None, None, None)
    b.update_unit("a", x=12.0)
    assert footprint(b, b.units["a"]).centre == (12.0, 30.0)


def test_kept_while_answers_only_for_the_very_same_pieces():
    """spatial.kept_while: kept across the battle's changes for the same objects in the
    same order; another object, another order, or fewer of them compute again."""
    from builders import build_table, piece
    b = build_table([piece("a", "blue", "line_infantry", (10, 30)),
                     piece("k", "red", "line_infantry", (20, 8))], "d3")
    calls = []

    def compute():
        calls.append(1)
        return len(calls)
    a, k = b.units["a"], b.units["k"]
    assert spatial.kept_while(b, "t.kept", "x", (a, k), compute) == 1
    b.update_unit("a", x=11.0)                     # a change of the battle: still kept
    assert spatial.kept_while(b, "t.kept", "x", (a, k), compute) == 1
    assert spatial.kept_while(b, "t.kept", "x", (k, a), compute) == 2      # the order
    assert spatial.kept_while(b, "t.kept", "x", (k,), compute) == 3        # fewer
    assert spatial.kept_while(b, "t.kept", "x", (k, b.units["a"]), compute) == 4
    assert spatial.kept_while(b, "t.kept", "y", (k, b.units["a"]), compute) == 5  # its key
