"""Issue 17, Featherstone (seventh session): a charge surely too far by its wheel.

`charge_reach.surely_too_far` (the commander's first look before the check of a charge)
also passes over a charge whose wheel and advance alone cost more than the charger's
rate (`_surely_beyond`): the advance to contact is at least
`contact.least_advance` (where the bases' separating-axis separation, never more than
their gap, first falls to EPS), and each corner of the turned base goes its wheel plus
that advance. Every charge it passes over must be one the check refuses; the circles
and the gap alone (the looks before) missed most of these, so the bound is asked
first (tests/manager/test_commander_prechecks.py guards surely_too_far as a whole).
"""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from builders import build_table, piece, session_at
from manager.contact import contact_point, least_advance
from manager.errors import IllegalAction
from manager.footprint import bearing, heading
from manager.game_actions import Charge
from manager.rules.featherstone import charges
from manager.rules.featherstone import charge_reach
from manager.rules.featherstone.state import footprint, move_rate

FS = "featherstone"
CHARGERS = ["light_cavalry", "heavy_cavalry", "line_infantry", "grenadiers"]
TARGETS = ["line_infantry", "heavy_cavalry", "foot_artillery", "light_infantry"]


def table(kind, form, tkind, tform, way, rng, turn, tfacing, stream=False):
    """A charger at the middle facing `turn` degrees off the bearing `way` to an enemy
    `rng` inches off (a stream across the way, if asked), blue to charge."""
    hx, hy = heading(way)
    a = (60.0, 60.0)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    terrain = ()
    if stream:
        mx, my = (a[0] + e[0]) / 2, (a[1] + e[1]) / 2
        terrain = ({"kind": "stream", "points": [[mx - hy * 30, my + hx * 30],
                                                 [mx + hy * 30, my - hx * 30]]},)
    b = build_table([piece("a", "blue", kind, a, facing=round(way + turn) % 360,
                           formation=form if "infantry" in kind or kind == "grenadiers"
                           else "line"),
                     piece("e", "red", tkind, e, facing=tfacing,
                           formation=tform if "infantry" in tkind else "line")],
                    FS, terrain=terrain, width=120, height=120)
    return session_at(b, "charges", side="blue")[0].battle


def refused(b) -> bool:
    try:
        charge_reach._check_charge(b, Charge("a", "e"))
        return False
    except IllegalAction:
        return True


def beyond(b) -> bool:
    u, e = b.units["a"], b.units["e"]
    way = round(bearing(u.pos, e.pos)) % 360
    fp = footprint(b, u)
    return charge_reach._surely_beyond(fp, fp.moved(u.x, u.y, way), footprint(b, e), way,
                                  move_rate(u))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CHARGERS), st.sampled_from(["line", "column"]),
       st.sampled_from(TARGETS), st.sampled_from(["line", "column", "square"]),
       st.floats(0, 360), st.floats(3.0, 22.0), st.floats(-50, 50), st.integers(0, 359),
       st.booleans())
def test_a_charge_surely_beyond_is_refused(kind, form, tkind, tform, way, rng, turn,
                                           tfacing, stream):
    """Foot and horse, in line or column, at any enemy in or about the forward arc, at
    ranges about their rate, turning up to 50 degrees, across a stream or not: a charge
    _surely_beyond passes over is refused by the check (and so by surely_too_far)."""
    b = table(kind, form, tkind, tform, way, rng, turn, tfacing, stream)
    if beyond(b):
        assert refused(b)
        assert charge_reach.surely_too_far(b, b.units["a"], b.units["e"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(CHARGERS), st.sampled_from(TARGETS), st.floats(0, 360),
       st.floats(2.0, 30.0), st.floats(-45, 45), st.integers(0, 359))
def test_least_advance_is_never_beyond_the_contact_point(kind, tkind, way, rng, turn,
                                                         tfacing):
    """Wherever contact_point finds the bases meet, its advance is no less than
    least_advance (less its rounding)."""
    b = table(kind, "line", tkind, "line", way, rng, turn, tfacing)
    u, e = b.units["a"], b.units["e"]
    along = round(bearing(u.pos, e.pos)) % 360
    start = footprint(b, u).moved(u.x, u.y, along)
    spot = contact_point(start, footprint(b, e), along)
    lo = least_advance(start, footprint(b, e), along)
    if spot is not None and lo is not None:
        assert math.dist(u.pos, spot) >= lo - 1e-9


def test_the_wheel_bound_passes_over_what_the_circles_and_gap_keep():
    """A sweep of ranges and turns: the bound passes over charges the circles and the
    gap kept (not vacuous), each refused, and keeps every charge the check allows,
    also those just inside the rate."""
    passed = allowed = 0
    for kind in ("light_cavalry", "line_infantry"):
        rate = 15 if kind == "light_cavalry" else 6
        for tenth in range(0, 60, 3):
            for turn in (-40, -25, 0, 25, 40):
                b = table(kind, "line", "line_infantry", "line", 0,
                          rate - 1 + tenth / 10, turn, 180)
                u, e = b.units["a"], b.units["e"]
                if beyond(b):
                    assert refused(b)
                    way = round(bearing(u.pos, e.pos)) % 360
                    start = footprint(b, u).moved(u.x, u.y, way)
                    slack = rate + 1e-6 + 1e-6 + 1e-6
                    if not (charge_reach.surely_apart(start, footprint(b, e), slack) or
                            charge_reach.base_gap(b, start, footprint(b, e)) > slack):
                        passed += 1
                elif not refused(b):
                    allowed += 1
    assert passed > 10 and allowed > 10


def plain_must_charge_left(battle, side) -> list:
    """must_charge_left as it was: the check asked of every enemy within reach."""
    from manager.model.forces import mark
    from manager.rules.featherstone.nearby import near_units
    out = []
    for u in battle.live_units(side):
        if mark(u, "must_charge") and u.moved == 0:
            for e in near_units(battle, u.pos, move_rate(u) + 8, battle.enemy_of(side)):
                try:
                    charge_reach.check_charge(battle, Charge(u.id, e.id))
                except IllegalAction:
                    continue
                out.append((u, e))
                break
    return out


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CHARGERS), st.integers(0, 359),
       st.lists(st.tuples(st.floats(0, 360), st.floats(2.0, 24.0), st.integers(0, 359)),
                min_size=1, max_size=4))
def test_must_charge_left_is_the_plain_scan(kind, facing, enemies):
    """A unit that rallied on a 7 with enemies strewn about it (in and out of its arc and
    reach): must_charge_left, which passes over the charges surely_too_far names, finds
    the very pairs the check asked of every enemy finds."""
    pieces = [piece("a", "blue", kind, (60, 60), facing=facing)]
    for i, (way, rng, tf) in enumerate(enemies):
        hx, hy = heading(way)
        pieces.append(piece(f"e{i}", "red", "line_infantry", (60 + hx * rng, 60 + hy * rng),
                            facing=tf))
    b = session_at(build_table(pieces, FS, width=120, height=120), "charges",
                   side="blue")[0].battle
    b.mark_unit("a", must_charge=True)
    got = [(u.id, e.id) for u, e in charges.must_charge_left(b, "blue")]
    assert got == [(u.id, e.id) for u, e in plain_must_charge_left(b, "blue")]
