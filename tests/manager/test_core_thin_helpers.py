"""The shared engine's thin helpers made cheaper (issue 17, fourth session) answer as the
plain code did, to the bit: a base's corners written out, the shapes a base keeps on
itself, positions read by a C getter."""
import copy
import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from manager import footprint as fpm
from manager.footprint import Footprint, _box, _box_of, _frame, _frame_of, _polygon
from manager.model.forces import Leader, Unit
from manager.scenario_io import load_scenario

SKIRMISH = Path(__file__).resolve().parents[2] / "tests" / "data" / "skirmish.toml"

coord = st.floats(-1e4, 1e4, allow_nan=False) | st.sampled_from([0.0, -0.0, 1e-300, 37.5])
facing = st.floats(-720, 720, allow_nan=False) | st.sampled_from([0, 90, 180, 270, 45.0])
size = st.floats(0, 60, allow_nan=False) | st.sampled_from([0.0, 4.0, 1.5])


def plain_corners(fp):
    """Footprint.corners as it was written before (the products with the signs)."""
    fx, fy = fpm.heading(fp.facing)
    rx, ry = -fy, fx
    hf, hd = fp.frontage / 2, fp.depth / 2
    return tuple((fp.x + fx * a * hd + rx * b * hf, fp.y + fy * a * hd + ry * b * hf)
                 for a, b in ((1, -1), (1, 1), (-1, 1), (-1, -1)))


def bits(corners):
    return [(math.copysign(1, v), v.hex()) for c in corners for v in c]


@settings(max_examples=400, deadline=None)
@given(coord, coord, facing, size, size)
def test_corners_written_out_are_the_products_to_the_bit(x, y, f, front, depth):
    fp = Footprint(x, y, f, front, depth)
    assert bits(fp.corners()) == bits(plain_corners(fp))


@settings(max_examples=200, deadline=None)
@given(coord, coord, facing, size, size)
def test_a_base_keeps_the_shapes_the_value_caches_give(x, y, f, front, depth):
    fp = Footprint(x, y, f, front, depth)
    twin = Footprint(x, y, f, front, depth)            # equal, another object
    assert fp.polygon().wkb == _polygon(twin).wkb
    assert fp.polygon() is fp.polygon()                 # kept on the object
    assert _frame(fp) == _frame_of(twin) and _frame(fp) is _frame(fp)
    assert _box(fp) == _box_of(twin) and _box(fp) is _box(fp)
    # (the value caches may answer with an equal base's floats: 0.0 for -0.0, as before)
    assert _frame(fp)[4] == plain_corners(fp)


def test_a_base_with_kept_shapes_is_equal_hashes_and_pickles_as_its_fields():
    fp = Footprint(3.0, 4.0, 30.0, 6.0, 2.0)
    fp.polygon(), _frame(fp), _box(fp)
    other = Footprint(3.0, 4.0, 30.0, 6.0, 2.0)
    assert fp == other and hash(fp) == hash(other)
    for back in (pickle.loads(pickle.dumps(fp)), copy.deepcopy(fp), copy.copy(fp)):
        assert back == fp and hash(back) == hash(fp)
        assert back.polygon().wkb == fp.polygon().wkb
    assert repr(fp) == "Footprint(x=3.0, y=4.0, facing=30.0, frontage=6.0, depth=2.0)"
    assert fp != Footprint(3.0, 4.0, 30.0, 6.0, 2.5)


@settings(max_examples=100, deadline=None)
@given(coord, coord)
def test_positions_are_the_coordinates(x, y):
    u = Unit("u", "U", "line_infantry", "a", 3, 4, x, y)
    lead = Leader("l", "L", "a", x, y)
    fp = Footprint(x, y, 0.0, 1.0, 1.0)
    for p in (u.pos, lead.pos, fp.centre):
        assert type(p) is tuple and bits([p]) == bits([(x, y)])


# ---- live units kept from the journal -----------------------------------------------------
def fresh_live(battle, side):
    return [u for u in battle.units.values()
            if not u.eliminated and (side is None or u.side == side)]


def same_live(battle):
    for side in (None, *battle.sides):
        got, want = battle.live_units(side), fresh_live(battle, side)
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want)), side


@pytest.mark.parametrize("ruleset", ["featherstone", "d3", "quickplay", "morschauser"])
def test_live_units_kept_from_the_journal_are_the_scan_through_a_battle(ruleset):
    from manager.autopilot import Autopilot
    from manager.session import Session
    s = Session(load_scenario(SKIRMISH, ruleset))
    pilot = Autopilot(s)
    steps = 0
    while not s.battle.state.over and s.battle.state.turn <= 2 and steps < 400:
        same_live(s.battle)
        pilot.step()
        steps += 1
    same_live(s.battle)
    assert steps > 20


def test_live_units_follow_units_hit_gone_arrived_and_put_back():
    b = load_scenario(SKIRMISH, "featherstone")
    first, second = list(b.units)[:2]
    same_live(b)
    b.update_unit(first, x=b.units[first].x + 1.0)            # patched in place
    same_live(b)
    b.update_unit(second, eliminated=True)                     # gone
    same_live(b)
    b.update_unit(second, eliminated=False)                    # back where it stood
    same_live(b)
    gone = b.units[first]
    b.drop_unit(first)                                         # dropped, then put back last
    same_live(b)
    b.put_unit(gone)
    same_live(b)
    assert list(b.units)[-1] == first and b.live_units()[-1] is gone
    copy = b.copy()
    copy.update_unit(second, hits=1)
    same_live(copy)
    same_live(b)
    snap = b.snapshot()
    b.update_unit(second, x=0.5)
    b.restore(snap)
    same_live(b)


# ---- sightlines' pass without np.clip, np.ones and errstate contexts -------------------------
def plain_hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within):
    """sightlines' pass over the pairs `ok` as it was written before (the reference)."""
    m = 1e-6
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
    hit = np.ones(len(e), dtype=bool)
    if centre_within is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.clip((cx * tx + cy * ty) / (lengths ** 2), 0.0, 1.0)
        d = np.hypot(t * tx - cx, t * ty - cy)
        hit &= d < centre_within - m

    def overlaps(ux, uy, half):
        s = tx * ux + ty * uy
        c = cx * ux + cy * uy
        lo, hi = np.minimum(s, 0.0), np.maximum(s, 0.0)
        return (lo < c + half - m) & (hi > c - half + m)

    rx, ry = -fy, fx
    hit &= overlaps(fx, fy, hd) & overlaps(rx, ry, hf)
    reach = np.abs(fx * nx + fy * ny) * hd + np.abs(rx * nx + ry * ny) * hf
    hit &= (np.abs(cx * nx + cy * ny) < reach - m) & (lengths > m)
    out[e[hit]] = True
    return out


near = st.floats(-30, 30, allow_nan=False) | st.sampled_from([0.0, 1e-7, 2.0])


def scan_ok(lengths, ox, oy, keys, end_keys, scan_xy, scan_key, extra):
    """The pairs the scan tests, as surely_crossed_arrays bounds them (the reference's ok)."""
    ok = np.hypot(ox - scan_xy[0], oy - scan_xy[1])[None, :] < lengths[:, None] + extra - 1e-6
    ok &= (keys != scan_key)[None, :]
    ok &= keys[None, :] != np.asarray(end_keys)[:, None]
    return ok


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(near, near), min_size=1, max_size=6),
       st.lists(st.tuples(near, near, st.floats(0, 360), st.floats(0.1, 8), st.floats(0.1, 4)),
                min_size=1, max_size=8),
       st.none() | st.floats(0, 10), st.lists(st.integers(-1, 8), min_size=7, max_size=7),
       st.tuples(near, near), st.sampled_from([0.0, 8.0, 100.0]))
def test_hits_are_the_plain_ones(ends, bases, centre_within, picks, scan_xy, extra):
    """sightlines.surely_crossed_arrays gives the plain pass's answers over the pairs the
    scan tests (the shooter's and the ends' own bases left out, the scan's reach)."""
    from manager import sightlines
    tx = np.array([e[0] for e in ends])                     # a zero-length line included
    ty = np.array([e[1] for e in ends])
    lengths = np.hypot(tx, ty)
    ox, oy, f, depth, front = (np.array(c, dtype=float) for c in zip(*bases))
    fx, fy = np.sin(np.radians(f)), -np.cos(np.radians(f))
    keys, scan_key, end_keys = np.arange(len(bases)), picks[0], picks[1:len(ends) + 1]
    ok = scan_ok(lengths, ox, oy, keys, end_keys, scan_xy, scan_key, extra)
    args = (0.0, 0.0, tx, ty, lengths, ox, oy, fx, fy, depth / 2, front / 2, ok, centre_within)
    got = sightlines.surely_crossed_arrays((0.0, 0.0), ends, end_keys, keys, ox, oy, fx, fy,
                                           depth / 2, front / 2, scan_xy, scan_key, extra,
                                           centre_within)
    assert got.tolist() == plain_hits(*args).tolist()


def test_hits_see_a_base_squarely_across_a_line_and_not_one_beside_it():
    from manager import sightlines
    tx, ty = np.array([20.0, 20.0]), np.array([0.0, 0.0])
    ox, oy = np.array([10.0, 10.0]), np.array([0.0, 9.0])   # across, and well beside
    fx, fy = np.array([0.0, 0.0]), np.array([-1.0, -1.0])
    keys, ends = np.arange(2), [(20.0, 0.0), (20.0, 0.0)]
    hd, hf = np.array([1.0, 1.0]), np.array([3.0, 3.0])
    for within in (None, 4.5):
        for scan_key, want in ((-1, [True, True]), (0, [False, False])):   # 0: beside only
            ok = scan_ok(np.hypot(tx, ty), ox, oy, keys, [-1, -1], (0.0, 0.0), scan_key, 8.0)
            args = (0.0, 0.0, tx, ty, np.hypot(tx, ty), ox, oy, fx, fy, hd, hf, ok, within)
            got = sightlines.surely_crossed_arrays((0.0, 0.0), ends, [-1, -1], keys, ox, oy,
                                                   fx, fy, hd, hf, (0.0, 0.0), scan_key, 8.0,
                                                   within)
            assert got.tolist() == plain_hits(*args).tolist() == want


def test_kept_radii_follow_the_battle_and_never_change_an_array_handed_out():
    import math
    from manager import spatial
    from manager.rules.featherstone.state import footprint
    b = load_scenario(SKIRMISH, "featherstone")

    def fresh():
        return [math.hypot(footprint(b, u).frontage, footprint(b, u).depth) / 2
                for u in spatial.unit_grid(b).units]
    first, second = list(b.units)[:2]
    before = spatial.radii(b, footprint)
    kept = before.copy()
    b.update_unit(first, formation="column" if b.units[first].formation != "column" else "line")
    after = spatial.radii(b, footprint)
    assert list(after) == fresh() and list(before) == list(kept) and after is not before
    assert list(after) != list(kept)                               # the row was rewritten
    b.update_unit(second, x=b.units[second].x + 2.0)             # moved: same radius
    assert list(spatial.radii(b, footprint)) == fresh()
    b.update_unit(second, eliminated=True)                         # the grid rebuilds
    assert list(spatial.radii(b, footprint)) == fresh()
    b.update_unit(second, eliminated=False)
    assert list(spatial.radii(b, footprint)) == fresh()
    b.restore(b.snapshot())                                        # wholesale
    assert list(spatial.radii(b, footprint)) == fresh()
