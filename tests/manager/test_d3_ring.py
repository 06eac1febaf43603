"""The d3 cavalry look-ahead's ring spots and musketry judged on arrays (issue 17): the
very spots, flanks and exposures of the plain per-spot code, borders included (spots a
hair either side of the reach, of a rounding tie, of the target's corner; shooters a
hair either side of their range and arc). The in-play comparison with the plain
candidates: test_d3_speed_commander.py::test_d3_cavalry_candidates_are_the_plain_ones_in_play."""
import math
from types import SimpleNamespace

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

OFFS = [-1e-6, -3e-7, -1e-9, 0.0, 1e-9, 3e-7, 1e-6, -0.02, 0.3]


def _unit(x, y, facing=0.0, frontage=4.0, depth=2.0):
    return SimpleNamespace(x=x, y=y, pos=(x, y), facing=facing, frontage=frontage, depth=depth)


def _plain(u, rows, rings, reach):
    from manager.rules.d3.ring import plain_spot
    out = []
    for t, (e, fp, corner, ways) in enumerate(rows):
        for r in rings:
            for w in ways:
                got = plain_spot(u, e, fp, corner, w, r, reach)
                if got is not None:
                    out.append((got[0], t, got[1]))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.floats(10, 90), st.floats(10, 90),
       st.lists(st.tuples(st.floats(0, 359.99), st.floats(4, 20), st.integers(0, 359),
                          st.sampled_from([(4.0, 2.0), (2.0, 1.0), (6.0, 3.0)]),
                          st.sampled_from(["reach", "far", "tie", "corner", "none"]),
                          st.sampled_from(OFFS), st.floats(0, 359.99)),
                min_size=1, max_size=5),
       st.sampled_from([(8.5,), (7.0, 10.0)]))
def test_d3_ring_spots_are_the_plain_ones_at_the_borders(ux, uy, targets, rings):
    """Targets placed so that a ring spot sits on (or a hair off) the asked border: the
    reach from the rounded spot, the reach before rounding, a hundredth's tie, the
    target's corner angle. The spots, targets, flanks and order are the plain ones."""
    from manager.footprint import EPS, bearing, distance, heading
    u = _unit(ux, uy)
    away_dist = [d for _, d, *_ in targets]
    reach = 17.0
    rows = []
    for n, (way, d, facing, (front, depth), aim, off, spin) in enumerate(targets):
        hx, hy = heading(way)
        e = _unit(ux + hx * d, uy + hy * d, facing, front, depth)
        ways = [bearing(e.pos, u.pos) + k for k in (-90, -45, 0, 45, 90)]
        ways += [facing + 90, facing + 180, facing + 270, spin]
        r = rings[0]
        sx, sy = heading(spin % 360)
        x, y = e.x + sx * r, e.y + sy * r
        if aim == "tie":            # the spot's x a hair from a half hundredth
            e = _unit(e.x + (math.floor(x * 100) + 0.5) / 100 + off - x, e.y, facing,
                      front, depth)
        elif aim == "reach" and n == 0:
            reach = distance(u.pos, (round(x, 2), round(y, 2))) + off
        elif aim == "far" and n == 0:
            reach = math.sqrt((x - u.x) ** 2 + (y - u.y) ** 2) - 0.01 + off
        corner = math.degrees(math.atan2(front / 2, depth / 2)) + EPS
        if aim == "corner":          # the corner where the spot's own angle is
            spot = (round(x, 2), round(y, 2))
            a = abs((math.degrees(math.atan2(spot[0] - e.x, -(spot[1] - e.y))) % 360
                     - facing) % 360)
            corner = min(a, 360 - a) + off
        rows.append((e, e, corner, ways))
    assert away_dist
    got = __import__("manager.rules.d3.ring", fromlist=["ring_spots"]).ring_spots(
        u, rows, rings, reach)
    assert got == _plain(u, rows, rings, reach)
    assert all(type(s[0]) is float and type(s[1]) is float for s, _, _ in got)


def test_d3_ring_spots_borders_are_not_vacuous():
    """A spot placed exactly on the reach is kept and one 1e-6 inside the reach's
    complement is not: the border cases above decide something."""
    from manager.footprint import distance, heading
    from manager.rules.d3.ring import ring_spots
    u, e = _unit(50.0, 50.0), _unit(60.0, 47.0, 30.0)
    hx, hy = heading(200.0)
    spot = (round(e.x + hx * 8.5, 2), round(e.y + hy * 8.5, 2))
    d = distance(u.pos, spot)
    rows = [(e, e, 40.0, [200.0])]
    assert [s for s, _, _ in ring_spots(u, rows, (8.5,), d)] == [spot]
    assert ring_spots(u, rows, (8.5,), d - 1e-9) == []


class _Shooters:
    """CavalryMixin's exposure code over a given list of shooters."""

    def __init__(self, rows):
        from manager.rules.d3.cavalry import CavalryMixin
        self.rows = rows
        self._exposure = CavalryMixin._exposure.__get__(self)
        self._exposures = CavalryMixin._exposures.__get__(self)

    def _shooter_arrays(self):
        from manager.rules.d3.ride_spots import shooter_columns
        return self.rows, shooter_columns(self.rows)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 120), st.floats(0, 120), st.integers(0, 359),
                          st.sampled_from([14.0, 50.0]), st.sampled_from([1.0, 2.0])),
                min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.sampled_from(["range", "arc", "both"]),
                          st.sampled_from(OFFS + [-5.0, 20.0]), st.sampled_from(OFFS),
                          st.booleans()),
                min_size=1, max_size=12))
def test_d3_exposures_are_the_plain_ones_at_the_borders(shooters, asks):
    """Spots a hair either side of a shooter's range and of its arc's edge (and far
    from any): the arrays' exposures equal the plain per-spot test's, spot for spot."""
    from manager.footprint import heading
    from manager.rules.d3.tables import FIRE_ARC
    c = _Shooters(shooters)
    spots = []
    for k, what, d_off, a_off, left in asks:
        x, y, facing, reach, _ = shooters[k % len(shooters)]
        edge = FIRE_ARC + 15
        turn = edge + a_off if what in ("arc", "both") else edge * 0.4 + a_off
        d = reach + d_off if what in ("range", "both") else reach * 0.6 + d_off
        hx, hy = heading((facing + (-turn if left else turn)) % 360)
        spots.append((x + hx * d, y + hy * d))
    assert c._exposures(spots) == [c._exposure(p, shooters) for p in spots]


def test_d3_exposures_borders_are_not_vacuous():
    """One shooter: a spot just within its range inside the arc counts and one 1e-6 beyond does
    not: the border cases above decide something."""
    from manager.footprint import heading
    rows = [(50.0, 50.0, 90, 14.0, 2.0), (0.0, 0.0, 0, 14.0, 1.0)]
    c = _Shooters(rows)
    hx, hy = heading(100.0)
    on, off = (50.0 + hx * 13.9999, 50.0 + hy * 13.9999), (50.0 + hx * 14.0001, 50.0 + hy * 14.0001)
    assert c._exposures([on, off, (200.0, 200.0)]) == [2.0, 0.0, 0.0]


def test_d3_ring_spots_round_ties_as_python_rounds():
    """A spot on a hundredth's half where rint(100 x) / 100 is not round(x, 2) (x =
    20.055 and its like): the spot is Python's rounding, so the tie test decides."""
    from manager.rules.d3.ring import ring_spots
    ties = [(k + 0.5) / 100 for k in range(2000, 2100)]
    ties = [v for v in ties if float(np.rint(v * 100) / 100) != round(v, 2)]
    assert len(ties) > 10
    u = _unit(25.0, 30.0)
    for v in ties:
        e = _unit(v - 8.5, 30.0, 0.0)                # the spot due east: x = v exactly
        got = ring_spots(u, [(e, e, 40.0, [90.0])], (8.5,), 17.0)
        assert got == _plain(u, [(e, e, 40.0, [90.0])], (8.5,), 17.0)
        assert got[0][0][0] == round(v, 2)
