"""The shared geometry's cheaper paths (issue 17, eighth session) give the answers of
the code they replaced, kept here as the reference, bit for bit."""
import math

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from manager import convex, sightlines

MARGIN = sightlines.MARGIN


# ---- sightlines: the line's normal first, no errstate context ----------------------------
def old_surely_crossed_arrays(origin, ends, end_keys, keys, ox, oy, fx, fy, hd, hf, scan_xy,
                              scan_key, reach_extra, centre_within=None):
    ax, ay = origin
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    sx, sy = scan_xy
    ok = np.hypot(ox - sx, oy - sy)[None, :] < lengths[:, None] + reach_extra - MARGIN
    ok &= (keys != scan_key)[None, :]
    ok &= keys[None, :] != np.asarray(end_keys)[:, None]
    return old_hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within)


def old_hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within):
    m = MARGIN
    cx, cy = ox - ax, oy - ay
    with np.errstate(invalid="ignore", divide="ignore"):
        nx, ny = -ty / lengths, tx / lengths
        off = cx[None, :] * nx[:, None] + cy[None, :] * ny[:, None]
        e, k = (ok & (np.abs(off) < np.hypot(hd, hf)[None, :] + m)).nonzero()
        out = np.zeros(len(tx), dtype=bool)
        if not len(e):
            return out
        tx, ty, lengths, nx, ny = tx[e], ty[e], lengths[e], nx[e], ny[e]
        cx, cy, fx, fy, hd, hf = cx[k], cy[k], fx[k], fy[k], hd[k], hf[k]
        hit = lengths > m
        if centre_within is not None:
            t = np.minimum(np.maximum((cx * tx + cy * ty) / (lengths ** 2), 0.0), 1.0)
            d = np.hypot(t * tx - cx, t * ty - cy)
            hit &= d < centre_within - m

    def overlaps(ux, uy, half):
        s = tx * ux + ty * uy
        c = cx * ux + cy * uy
        lo, hi = np.minimum(s, 0.0), np.maximum(s, 0.0)
        return (lo < c + half - m) & (hi > c - half + m)

    rx, ry = -fy, fx
    hit &= overlaps(fx, fy, hd)
    hit &= overlaps(rx, ry, hf)
    reach = np.abs(fx * nx + fy * ny) * hd + np.abs(rx * nx + ry * ny) * hf
    hit &= np.abs(cx * nx + cy * ny) < reach - m
    out[e[hit]] = True
    return out


# offsets from the origin on a coarse lattice (bases squarely across, grazing, over the
# origin) and anywhere
lattice = st.one_of(st.integers(-12, 12).map(lambda k: k / 2),
                    st.floats(-6, 6, allow_nan=False))
bases = st.lists(st.tuples(lattice, lattice, st.sampled_from([0.0, 90.0, 30.0, 45.0, 181.5]),
                           st.sampled_from([0.5, 1.0, 2.0, 3.5]), st.sampled_from([0.5, 1.0])),
                 max_size=14)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(0, 100), st.floats(0, 100)),
       st.lists(st.tuples(lattice, lattice, st.sampled_from([None, 0.0, 5e-7, 1e-6, 2e-6])),
                max_size=8), bases,
       st.lists(st.integers(-2, 6), min_size=8, max_size=8), st.integers(-1, 6),
       st.tuples(lattice, lattice), st.sampled_from([0.0, 1.0, 8.0]),
       st.sampled_from([None, 1.0, 4.5]), st.booleans())
def test_surely_crossed_arrays_is_the_old_pass(origin, ends, bs, end_keys, scan_key, scan_xy,
                                               extra, within, shuffled):
    ax, ay = origin
    # some ends at or a hair from the origin: lines never claimed (none of length 0 is
    # divided by)
    ends = [(ax + x, ay + y) if off is None else (ax + off, ay) for x, y, off in ends]
    keys = np.arange(len(bs))[::-1] if shuffled else np.arange(len(bs))
    ox, oy, facing, front, depth = (np.array([b[i] for b in bs], dtype=float)
                                    for i in range(5))
    r = np.radians(facing)
    args = ((ax, ay), ends, end_keys[:len(ends)], keys, ox + ax, oy + ay, np.sin(r),
            -np.cos(r), depth / 2, front / 2, (ax + scan_xy[0], ay + scan_xy[1]), scan_key,
            extra, within)
    got = sightlines.surely_crossed_arrays(*args)
    want = old_surely_crossed_arrays(*args)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_surely_crossed_arrays_in_play(monkeypatch):
    """Every pass d3's commander asked in two turns of Austerlitz (Featherstone's judges
    its lines in plain floats: rules/featherstone/sight_floats.py)."""
    from play_checks import austerlitz_phases
    seen = []
    real = sightlines.surely_crossed_arrays

    def recording(*a, **k):
        got = real(*a, **k)
        seen.append((got.tolist(), old_surely_crossed_arrays(*a, **k).tolist()))
        return got
    monkeypatch.setattr(sightlines, "surely_crossed_arrays", recording)
    for _ in austerlitz_phases("d3", (), turns=2):
        pass
    assert len(seen) > 50 and sum(sum(g) for g, _ in seen) > 1000
    assert all(g == o for g, o in seen)


# ---- footprint.heading: each facing's vector worked out once ------------------------------
def old_heading(facing):
    r = math.radians(facing)
    return math.sin(r), -math.cos(r)


facings = st.one_of(st.sampled_from([0.0, -0.0, 0, 90, 90.0, 180.0, -180.0, 360, 45.0, 1e-300,
                                     -1e-300, 359.99999999999994]),
                    st.integers(-720, 720), st.floats(-1e4, 1e4, allow_nan=False))


@settings(max_examples=300, deadline=None)
@given(st.lists(facings, min_size=1, max_size=30))
def test_heading_is_the_very_floats_of_sin_and_cos(asked):
    """Asked in any order (a zero after a minus zero, an int after its float): the same
    floats, signs of zeros too, as working each out afresh."""
    from manager.footprint import heading
    for f in asked + asked[::-1]:
        got, want = heading(f), old_heading(f)
        assert [v.hex() for v in got] == [v.hex() for v in want], f


# ---- convex.area_above: a disc inside both bases before any clipping ------------------------
def old_area_above(a, ax, ay, b, bx, by, area):
    sep = convex.separation(a, ax, ay, b, bx, by)
    if sep >= 0 or -sep * convex.span(a, b) < area / 2:
        return False
    return convex._decide(CLIP_AREA(a[4], b[4]), area)


CLIP_AREA = convex.clip_area            # (the reference's, whatever a test patches)


def frame(x, y, facing, front, depth):
    from manager.footprint import Footprint, _frame
    return _frame(Footprint(x, y, facing, front, depth))


sizes = st.sampled_from([0.05, 0.3, 0.7, 1.0, 2.8, 4.0])
nicks = st.sampled_from([-0.5, 0.0, 0.001, 0.004, 0.006, 0.01, 0.02, 0.05, 0.3])


@settings(max_examples=600, deadline=None)
@given(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), st.floats(0, 360), sizes, sizes,
       sizes, sizes, st.sampled_from([0.0, 0.0, 90.0, 0.5, 30.0, 45.0, 179.0]),
       st.sampled_from([1, -1]), st.sampled_from([1, -1]), nicks, nicks,
       st.one_of(st.none(), st.tuples(st.floats(-3, 3), st.floats(-3, 3))),
       st.sampled_from([1e-4, 2e-4, 0.01, 0.5]))
def test_area_above_is_the_clipped_answer(c, facing, fa, da, fb, db, turn, sx, sy, n1, n2,
                                          anywhere, area):
    """Bases crossing, nicking a corner by a hair, side by side, one inside the other:
    the answer of the clipped area, True, False or None alike."""
    from manager.footprint import heading
    a = frame(c[0], c[1], facing, fa, da)
    if anywhere is None:                # corner to corner, overlapping by the nicks
        hx, hy = heading(facing)
        s, t = sx * ((da + db) / 2 - n1), sy * ((fa + fb) / 2 - n2)
        bx, by = c[0] + s * hx - t * hy, c[1] + s * hy + t * hx
    else:
        bx, by = c[0] + anywhere[0], c[1] + anywhere[1]
    b = frame(bx, by, facing + turn, fb, db)
    assert convex.area_above(a, c[0], c[1], b, bx, by, area) == \
        old_area_above(a, c[0], c[1], b, bx, by, area)


def test_area_above_in_play(monkeypatch):
    """Every overlap and pivot asked in a turn of Austerlitz under the three inch
    rulesets; most of the True answers given by the disc, with no clipping."""
    from play_checks import austerlitz_phases
    seen, clipped = [], [0]
    real, real_clip = convex.area_above, convex.clip_area

    def recording(*a):
        before = clipped[0]
        got = real(*a)
        seen.append((got, old_area_above(*a), clipped[0] > before))
        return got

    def clip(*a):
        clipped[0] += 1
        return real_clip(*a)
    monkeypatch.setattr(convex, "area_above", recording)
    monkeypatch.setattr(convex, "clip_area", clip)
    for ruleset in ("featherstone", "d3", "quickplay"):
        for _ in austerlitz_phases(ruleset, (), turns=1):
            pass
    assert all(g == o for g, o, _ in seen)
    trues = [c for g, _, c in seen if g is True]
    # the old answers clipped for every True: the disc spares most of them
    assert len(seen) > 500 and len(trues) > 200 and sum(trues) < len(trues) / 2


@settings(max_examples=400, deadline=None)
@given(st.floats(0, 360), st.floats(0, 360), sizes, sizes, sizes, sizes,
       st.tuples(st.floats(-3, 3), st.floats(-3, 3)), st.sampled_from([0.0, 0.03, 0.3]))
def test_the_common_point_is_as_deep_in_both_bases_as_said(fa_, fb_, fa, da, fb, db, off,
                                                          inset):
    """The disc about the common point, as wide as its least depth, lies inside both
    bases' shapes (as shapely covers them): the bound behind the disc's True."""
    from shapely.geometry import Point
    from manager.footprint import Footprint
    a_fp, b_fp = Footprint(0.0, 0.0, fa_, fa, da), Footprint(off[0], off[1], fb_, fb, db)
    a, b = frame(0.0, 0.0, fa_, fa, da), frame(off[0], off[1], fb_, fb, db)
    px, py = convex.common_point(a, 0.0, 0.0, b, off[0], off[1], inset)
    r = min(convex.depth(a, 0.0, 0.0, px, py), convex.depth(b, off[0], off[1], px, py))
    if r > 1e-6:
        disc = Point(px, py).buffer(r - 1e-9, 64)
        assert a_fp.polygon().covers(disc) and b_fp.polygon().covers(disc)


# ---- UnitGrid.along: plain floats over the band up to NARROW_LINE units ---------------------
class _Grid:
    """live_units and the battle's caches, as spatial's grid asks them (no journal)."""

    def __init__(self, units):
        self.units, self._cache = units, {}

    def live_units(self, side=None):
        return self.units

    def cached(self, key, build):
        return self._cache.setdefault(key, build())

    def derived(self, key, build, update):
        return self.cached(key, build)


spots = st.one_of(st.integers(0, 40).map(lambda k: k / 4), st.floats(0, 10))


near_ends = st.lists(st.tuples(st.booleans(), *[st.sampled_from([-1.1, -0.9, -0.5, 0.0, 0.5,
                                                                 0.9, 1.1])] * 2), max_size=20)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(spots, spots), max_size=120), near_ends, st.tuples(spots, spots),
       st.tuples(spots, spots), st.sampled_from([0.0, 0.25, 0.5, 1.3, 2.0]), st.booleans())
def test_along_in_plain_floats_is_the_numpy_pass(pts, by_ends, a, b, margin, same):
    """Any band (up to 140 units, a segment of length 0, units on a lattice, about the
    segment's ends within and beyond the margin): the units of the numpy pass, in its
    order."""
    from types import SimpleNamespace
    from manager import spatial
    b = a if same else b
    pts = pts + [((b if at_b else a)[0] + u * margin, (b if at_b else a)[1] + v * margin)
                 for at_b, u, v in by_ends]
    units = [SimpleNamespace(id=k, x=x, y=y, pos=(x, y)) for k, (x, y) in enumerate(pts)]
    grid = spatial.unit_grid(_Grid(units))
    assert grid.along(a, b, margin) == grid._along(a, b, margin)
