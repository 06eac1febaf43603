"""Issue 17, fifteenth session: a charge surely too far once the walls and streams its
path's first inches surely cross are added (`charge_ground.obstacles_cost`, asked by
`charge_reach._surely_beyond`). The bound must never be more than what the check's
terrain adds to any path that goes on along the same ray (or the check refuses the
path outright), and every charge it passes over must be one the check refuses."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece, session_at
from play_checks import austerlitz_phases
from manager.errors import IllegalAction
from manager.footprint import bearing, heading, segment
from manager.game_actions import Charge
from manager.rules.featherstone import charge_reach, charges, commander, threats
from manager.rules.featherstone.charge_ground import obstacles_cost
from manager.rules.featherstone.moves import _terrain_cost
from manager.rules.featherstone.state import footprint, move_rate

FS = "featherstone"


def ground(lines, bridges=(), fords=()):
    """A 120 x 120 table with these linear obstacles ((kind, points)) and crossings."""
    terrain = [{"kind": kind, "points": [list(p) for p in pts]} for kind, pts in lines]
    terrain += [{"kind": "bridge", "points": [list(p)]} for p in bridges]
    terrain += [{"kind": "ford", "points": [list(p)]} for p in fords]
    b = build_table([piece("a", "blue", "light_cavalry", (5, 5)),
                     piece("e", "red", "line_infantry", (115, 115))], FS,
                    terrain=terrain, width=120, height=120)
    return session_at(b, "charges", side="blue")[0].battle


def assert_within(b, x, y, way, length, further):
    """obstacles_cost of the first `length` inches is at most what the whole path's
    terrain adds (`further` inches on), or the path is refused."""
    hx, hy = heading(way)
    bound = obstacles_cost(b.battlefield, x, y, hx, hy, length)
    d = length + further
    extra, refusal, _ = _terrain_cost(b, segment((x, y), (x + hx * d, y + hy * d)))
    assert refusal or extra >= bound, (x, y, way, length, further, bound, extra)
    return bound


point = st.tuples(st.floats(10, 110), st.floats(10, 110))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["stream", "wall", "river"]), st.lists(point, min_size=2, max_size=6),
       st.lists(point, max_size=2), st.lists(point, max_size=1), point,
       st.integers(0, 359), st.floats(0, 40), st.sampled_from([0.0, 1e-9, 1e-7, 0.5, 10.0]))
def test_the_bound_is_never_more_than_the_terrain(kind, pts, bridges, fords, start, way,
                                                  length, further):
    """Any obstacle line (crossing itself or not), bridges and fords anywhere: the bound
    for a path's first inches is within what the whole path's terrain adds."""
    b = ground([(kind, pts)], bridges, fords)
    assert_within(b, *start, way, length, further)


def test_knife_edges():
    """A path through the stream's vertex, ending on it, crossing it twice, along it,
    through a self-crossing, with a bridge at the very reach of the crossing (and a
    hair inside and outside it): never above the terrain, and counted where sure."""
    zig = [(60, 10), (60, 50), (80, 50), (80, 10)]
    b = ground([("stream", zig)])
    assert assert_within(b, 40, 30, 90, 50, 0) == 3.0      # across both legs: one counted
    assert assert_within(b, 40, 50, 90, 20, 0) == 0.0      # along its top edge
    assert assert_within(b, 40, 30, 90, 20, 0) == 0.0      # ending on it
    assert assert_within(b, 40, 30, 90, 20 + 1e-7, 0) == 0.0
    assert assert_within(b, 40, 30, 90, 20.01, 0) == 3.0
    b = ground([("stream", [(60, 10), (60, 30), (70, 50)])])
    assert assert_within(b, 40, 30, 90, 30, 0) == 0.0      # through its vertex
    cross = [(50, 10), (70, 50), (70, 10), (50, 50)]        # crosses itself at (60, 30)
    b = ground([("stream", cross)])
    assert assert_within(b, 40, 30, 90, 30, 0) == 0.0       # not a simple line: none
    for off in (-1e-7, 0.0, 1e-7, 1e-3):
        b = ground([("stream", [(60, 0), (60, 120)])], bridges=[(60, 31.5 + off)])
        got = assert_within(b, 40, 30, 90, 30, 0)
        assert got == (3.0 if off >= 1e-3 else 0.0)
    b = ground([("wall", [(60, 0), (60, 120)])], bridges=[(60, 30)])
    assert assert_within(b, 40, 30, 90, 30, 0) == 3.0       # a bridge does not open a wall
    b = ground([("river", [(60, 0), (60, 120)])], fords=[(60, 30)])
    assert assert_within(b, 40, 30, 90, 30, 0) == 3.0       # a ford costs as a stream


def beyond(b, u, e, with_ground: bool) -> bool:
    way = round(bearing(u.pos, e.pos)) % 360
    fp = footprint(b, u)
    return charge_reach._surely_beyond(fp, fp.moved(u.x, u.y, way), footprint(b, e), way,
                                       move_rate(u) * dict(u.marks).get("allow", 1),
                                       b.battlefield if with_ground else None)


def refused(b, u, e) -> bool:
    try:
        charge_reach._check_charge(b, Charge(u.id, e.id))
        return False
    except IllegalAction:
        return True


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["light_cavalry", "heavy_cavalry", "line_infantry"]),
       st.sampled_from(["stream", "wall"]), st.integers(0, 359), st.floats(6.0, 20.0),
       st.floats(-40, 40), st.floats(0.1, 0.9), st.floats(-60, 60),
       st.lists(st.floats(-3, 3), max_size=1))
def test_a_charge_beyond_by_the_ground_is_refused(kind, obstacle, way, rng, turn, at,
                                                  tilt, bridge):
    """A charger and its target with a stream or wall across the way at any point and
    slant (a bridge near the crossing or not): a charge the bound passes over is one
    the check refuses."""
    hx, hy = heading(way)
    a = (60.0, 60.0)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    mx, my = a[0] + hx * rng * at, a[1] + hy * rng * at
    lx, ly = heading(way + 90 + tilt)
    line = [(mx - lx * 40, my - ly * 40), (mx + lx * 40, my + ly * 40)]
    bridges = [(mx + lx * s, my + ly * s) for s in bridge]
    terrain = [{"kind": obstacle, "points": [list(p) for p in line]}]
    terrain += [{"kind": "bridge", "points": [list(p)]} for p in bridges]
    b = build_table([piece("a", "blue", kind, a, facing=round(way + turn) % 360),
                     piece("e", "red", "line_infantry", e, facing=(way + 180) % 360)],
                    FS, terrain=terrain, width=120, height=120)
    b = session_at(b, "charges", side="blue")[0].battle
    u, t = b.units["a"], b.units["e"]
    if beyond(b, u, t, True):
        assert refused(b, u, t)


def test_the_bound_passes_over_charges_the_wheel_kept():
    """A stream across the way: charges just inside the rate by their travel, beyond it
    by the stream's 3 inches, are passed over (and refused); the same without the
    stream are allowed."""
    passed = 0
    for rng in (12.0, 13.0, 14.0, 15.0):
        for with_stream in (True, False):
            terrain = [{"kind": "stream", "points": [[62, 0], [62, 120]]}] if with_stream \
                else []
            b = build_table([piece("a", "blue", "light_cavalry", (60, 60), facing=90),
                             piece("e", "red", "line_infantry", (60 + rng, 60), facing=270)],
                            FS, terrain=terrain, width=120, height=120)
            b = session_at(b, "charges", side="blue")[0].battle
            u, t = b.units["a"], b.units["e"]
            if with_stream and beyond(b, u, t, True):
                assert refused(b, u, t) and not beyond(b, u, t, False)
                passed += 1
            if not with_stream:
                assert not refused(b, u, t)
    assert passed >= 2


def test_in_play(monkeypatch):
    """Every surely_too_far the commander, the threats and the rallied units' must-charge
    ask in 12 Austerlitz turns (the Goldbach between the armies): each charge passed over
    is refused, and more than 100 were passed over only by the ground."""
    real = charge_reach.surely_too_far
    seen = {"ground": 0, "asked": 0}

    def spy(b, u, e):
        got = real(b, u, e)
        seen["asked"] += 1
        if got:
            assert refused(b, u, e), (u.id, e.id)
            if beyond(b, u, e, True) and not beyond(b, u, e, False):
                seen["ground"] += 1
        return got
    for module in (commander, threats, charges):
        monkeypatch.setattr(module, "surely_too_far", spy)
    for _ in austerlitz_phases(FS, (), 12):
        pass
    assert seen["ground"] > 100, seen
