"""Issue 17, Featherstone (ninth session): the commander's first look at the arc of fire
(`fire_sight.maybe_in_arc`) decides most targets by the cosine of their angle off the facing
(`fire_sight._in_arc`), the bearings only on a knife edge: the same answers as
`angle_between(bearing(front, target), facing) <= FIRE_ARC + 1e-6` (kept here), at the
border a hair either side, anywhere, and at every ask of Austerlitz turns."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from play_checks import austerlitz_phases
from manager.footprint import angle_between, bearing, surely_apart
from manager.model.forces import mark
from manager.rules.featherstone import commander, fire_sight
from manager.rules.featherstone.state import footprint

FS = "featherstone"


def bearing_in_arc(front, facing, xy) -> bool:
    return angle_between(bearing(front, xy), facing) <= fire_sight.FIRE_ARC + 1e-6


@settings(max_examples=500, deadline=None)
@given(st.floats(0, 359.999), st.sampled_from([-1, 1]),
       st.sampled_from([0.0, 1e-9, 1e-8, 1e-7, 5e-7, 1e-6, 1.5e-6, 2e-6, 1e-5, 1e-3, 0.5, 30]),
       st.sampled_from([-1, 1]), st.floats(1e-7, 80), st.integers(0, 359),
       st.tuples(st.floats(0, 100), st.floats(0, 100)))
def test_in_arc_is_the_bearings_at_the_border(base, side, off, sign, r, facing, front):
    """A target at the arc's border (45 degrees + 1e-6) and a hair to a good way either
    side, at any facing (whole degrees, as units face) and range, from anywhere."""
    a = math.radians(facing + side * (fire_sight.FIRE_ARC + 1e-6 + sign * off))
    xy = (front[0] + r * math.sin(a), front[1] - r * math.cos(a))
    assert fire_sight._in_arc(front, facing, xy) == bearing_in_arc(front, facing, xy)


@settings(max_examples=300, deadline=None)
@given(st.tuples(st.floats(0, 100), st.floats(0, 100)),
       st.tuples(st.floats(-60, 60), st.floats(-60, 60)), st.integers(0, 359))
def test_in_arc_is_the_bearings_anywhere(front, off, facing):
    """Targets anywhere about the front centre (on it too)."""
    xy = (front[0] + off[0], front[1] + off[1])
    assert fire_sight._in_arc(front, facing, xy) == bearing_in_arc(front, facing, xy)
    assert fire_sight._in_arc(front, facing, front) == bearing_in_arc(front, facing, front)


def test_maybe_in_arc_is_the_bearings_list_in_play(monkeypatch):
    """Every ask of 3 Austerlitz turns (fire steps, the guns' targets): the list the
    bearing test gives, in order; some targets are out of the arc."""
    asked, out = [], [0]
    real = fire_sight.maybe_in_arc

    def both(battle, unit, targets, apart=None):    # (near_bases' bounds: arc_apart)
        got = real(battle, unit, targets, apart)
        want = list(targets)
        if unit.formation != "square":
            fp = footprint(battle, unit)
            front = fp.front_centre()
            want = [t for t in targets
                    if bearing_in_arc(front, unit.facing, t.pos) or mark(t, "charging")
                    or not surely_apart(fp, footprint(battle, t), 1e-6)]
        assert got == want
        asked.append(len(targets))
        out[0] += len(targets) - len(got)
        return got
    monkeypatch.setattr(commander, "maybe_in_arc", both)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(asked) > 100 and sum(asked) > 2000 and out[0] > 200, (len(asked), out)
