"""The unit grid's band queries (plain floats over the units in a band of x) answer what
its numpy passes answer: the same units, the same objects, in the same order (issue 17).

The band path is taken for narrow bands (up to unit_centres.NARROW units); these tests force
it (NARROW raised) and compare it with the numpy pass on tables built to put centres on
the very border of a reach or margin, and in three turns of play in every inch ruleset."""
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from manager import spatial, unit_centres
from manager.footprint import Footprint, overlap

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def unit(k, x, y):
    return SimpleNamespace(id=f"u{k}", x=x, y=y, pos=(x, y), side="a")


coords = st.floats(min_value=-20, max_value=140, allow_nan=False)
spots = st.lists(st.tuples(coords, coords), max_size=50)


def on_border(x, y, reach, angles):
    """Centres at `reach` from (x, y) by the float arithmetic of a bearing: some land a
    rounding inside, some outside (the knife edge both paths must agree on)."""
    return [(x + reach * math.cos(a), y + reach * math.sin(a)) for a in angles]


angles = st.lists(st.floats(min_value=0, max_value=2 * math.pi), max_size=8)


def same(got, want):
    return len(got) == len(want) and all(a is b for a, b in zip(got, want))


@settings(max_examples=300, deadline=None)
@given(spots, coords, coords, st.floats(min_value=0, max_value=70), angles,
       st.sampled_from([0.0, 1e-7, 2e-6, 1.0]))
def test_within_by_band_is_the_numpy_pass(us, x, y, reach, border, nudge):
    unit_centres.NARROW, old = 10 ** 9, unit_centres.NARROW
    try:
        pts = us + on_border(x, y, reach + nudge - 1e-6, border) + [(x, y + reach)]
        grid = unit_centres.UnitGrid([unit(k, *p) for k, p in enumerate(pts)])
        assert same(grid.within((x, y), reach), grid._within((x, y), reach))
    finally:
        unit_centres.NARROW = old


def border_of_segment(a, b, margin, ts):
    """Centres `margin` off the segment a-b (to its left) at fractions ts along it."""
    (ax, ay), (bx, by) = a, b
    n = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / n, (bx - ax) / n
    return [(ax + t * (bx - ax) + margin * nx, ay + t * (by - ay) + margin * ny)
            for t in ts] + [(bx + margin, by), (ax, ay - margin)]


@settings(max_examples=300, deadline=None)
@given(spots, coords, coords, st.floats(min_value=-15, max_value=15),
       st.floats(min_value=-15, max_value=15), st.floats(min_value=0, max_value=6),
       st.lists(st.floats(min_value=-0.2, max_value=1.2), max_size=6))
def test_along_by_band_is_the_numpy_pass(us, ax, ay, dx, dy, margin, ts):
    unit_centres.NARROW, old = 10 ** 9, unit_centres.NARROW
    try:
        a, b = (ax, ay), (ax + dx, ay + dy)
        pts = us + border_of_segment(a, b, margin + unit_centres.SLACK, ts)
        grid = unit_centres.UnitGrid([unit(k, *p) for k, p in enumerate(pts)])
        assert same(grid.along(a, b, margin), grid._along(a, b, margin))
        assert same(grid.along(a, a, margin), grid._along(a, a, margin))   # a point
    finally:
        unit_centres.NARROW = old


class MovingBattle:
    """The journal interface UnitGrid.follow reads: units replaced in place."""

    def __init__(self, units):
        self.units = {u.id: u for u in units}

    def live_units(self, side=None):
        return list(self.units.values())


@settings(max_examples=150, deadline=None)
@given(spots.filter(bool), st.lists(st.tuples(st.integers(0, 49), coords, coords),
                                    max_size=30), coords, coords)
def test_a_followed_grid_keeps_its_band_in_order(us, moves, x, y):
    units = [SimpleNamespace(id=f"u{k}", x=p[0], y=p[1], pos=p, side="a", eliminated=False)
             for k, p in enumerate(us)]
    battle = MovingBattle(units)
    grid = unit_centres.UnitGrid(list(battle.live_units()))
    grid.by_x()
    for k, mx, my in moves:
        old = units[k % len(units)]
        new = SimpleNamespace(id=old.id, x=mx, y=my, pos=(mx, my), side="a",
                              eliminated=False)
        battle.units[old.id] = new
        grid.follow(battle, None, [("unit", old.id)])
    live = battle.live_units()
    assert grid.units == live and grid.lx == [u.x for u in live]
    assert grid.sx == sorted(grid.lx) and sorted(grid.sk) == list(range(len(live)))
    assert [grid.lx[k] for k in grid.sk] == grid.sx
    assert list(grid.xs) == grid.lx and list(grid.ys) == [u.y for u in live]
    unit_centres.NARROW, old = 10 ** 9, unit_centres.NARROW
    try:
        assert same(grid.within((x, y), 12.0), grid._within((x, y), 12.0))
        assert same(grid.along((x, y), (x + 5, y - 3), 2.0),
                    grid._along((x, y), (x + 5, y - 3), 2.0))
    finally:
        unit_centres.NARROW = old


class BaseBattle:
    """What landing_on reads: a unit grid and the bases' half diagonals."""

    def __init__(self, units, fps):
        self._units, self._fps, self._cache = units, fps, {}

    def live_units(self, side=None):
        return list(self._units)

    def cached(self, key, build):
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def derived(self, key, build, update):
        return self.cached(key, build)


bases = st.lists(st.tuples(st.floats(0, 40), st.floats(0, 40), st.floats(0, 359),
                           st.floats(0.5, 6), st.floats(0.5, 4)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(bases, st.integers(0, 39), st.floats(-5, 5), st.floats(-5, 5), st.floats(0, 359),
       st.floats(0.5, 6), st.floats(0.5, 4), st.sampled_from([2.0, 6.0, 10.0]))
def test_landing_on_by_band_is_the_numpy_pass(bs, near, ox, oy, facing, front, depth,
                                              reach):
    units = [unit(k, b[0], b[1]) for k, b in enumerate(bs)]
    fps = {u.id: Footprint(*b) for u, b in zip(units, bs)}
    battle = BaseBattle(units, fps)
    x, y = (bs[near % len(bs)][0] + ox, bs[near % len(bs)][1] + oy) if bs else (ox, oy)
    mover = unit("m", x, y)
    end = Footprint(x, y, facing, front, depth)

    def footprint(battle, u):
        return fps[u.id]

    unit_centres.NARROW, old = 10 ** 9, unit_centres.NARROW
    try:
        got = spatial.landing_on(battle, mover, end, footprint, reach)
    finally:
        unit_centres.NARROW = old
    want = spatial._landing_on(battle, mover, end, footprint, reach)
    assert got is want
    scan = [u for u in units if math.dist(u.pos, (x, y)) <= reach and
            overlap(end, fps[u.id])]
    assert got is (scan[0] if scan else None)


@pytest.mark.parametrize("ruleset", ["featherstone", "d3", "quickplay"])
def test_band_queries_in_play_are_the_numpy_passes(ruleset, monkeypatch):
    """Every within, along and landing_on of two Austerlitz turns (and a third turn's
    first steps) against the numpy pass; the band path must be taken."""
    from bench_common import AUSTERLITZ, scenario
    from manager.autopilot import Autopilot
    from manager.session import Session

    taken = {"within": 0, "along": 0, "landing": 0}
    within, along, landing = unit_centres.UnitGrid.within, unit_centres.UnitGrid.along, \
        spatial.landing_on

    def narrow(grid, lo_x, hi_x):
        lo, hi = grid.span(lo_x - unit_centres.BAND, hi_x + unit_centres.BAND)
        return hi - lo <= unit_centres.NARROW

    def within_checked(grid, xy, reach):
        got = within(grid, xy, reach)
        assert same(got, grid._within(xy, reach))
        taken["within"] += narrow(grid, xy[0] - reach, xy[0] + reach)
        return got

    def along_checked(grid, a, b, margin):
        got = along(grid, a, b, margin)
        assert same(got, grid._along(a, b, margin))
        taken["along"] += narrow(grid, min(a[0], b[0]) - margin, max(a[0], b[0]) + margin)
        return got

    def landing_checked(battle, u, end, footprint, reach=10.0):
        got = landing(battle, u, end, footprint, reach)
        assert got is spatial._landing_on(battle, u, end, footprint, reach)
        taken["landing"] += 1
        return got

    monkeypatch.setattr(unit_centres.UnitGrid, "within", within_checked)
    monkeypatch.setattr(unit_centres.UnitGrid, "along", along_checked)
    monkeypatch.setattr(spatial, "landing_on", landing_checked)
    s = Session(scenario(AUSTERLITZ, ruleset, seed=1, turns=3))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert taken["within"] + taken["along"] > 50, taken
