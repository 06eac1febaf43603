"""Issue 17, thirteenth session: the commander's arc of fire passes over a target out of
the arc whose bound from `near_bases_apart` (the centres' distance less both half
diagonals, by numpy) clears surely_apart's 2e-6 by 1e-9, without asking surely_apart.
The bounds must lie within 1e-9 of surely_apart's own, and the targets kept be those
kept without the bounds."""
from __future__ import annotations

import math

from play_checks import austerlitz_phases
from manager.footprint import distance
from manager.rules.featherstone import commander as cm
from manager.rules.featherstone import fire_sight
from manager.rules.featherstone.state import footprint

FS = "featherstone"


def test_bounds_and_targets_kept_in_play(monkeypatch):
    """Every call of 4 Austerlitz turns (the fire steps, the guns' targets in the moves
    step): each bound is surely_apart's within 1e-9, and the targets kept are those the
    call without bounds keeps; many are passed over by the bound."""
    real = fire_sight.maybe_in_arc
    seen = {"calls": 0, "by_bound": 0}

    def both(battle, unit, targets, apart=None):
        got = real(battle, unit, targets, apart)
        assert got == real(battle, unit, targets)
        fp = footprint(battle, unit)
        for t, a in zip(targets, apart):
            ft = footprint(battle, t)
            exact = distance(fp.centre, ft.centre) - (
                math.hypot(fp.frontage, fp.depth) + math.hypot(ft.frontage, ft.depth)) / 2
            assert abs(a - exact) < 1e-9
        seen["calls"] += 1
        seen["by_bound"] += sum(a > 2e-6 + 1e-9 for a in apart) if unit.formation != \
            "square" else 0
        return got
    monkeypatch.setattr(cm, "maybe_in_arc", both)
    for _ in austerlitz_phases(FS, (), 4):
        pass
    assert seen["calls"] > 300 and seen["by_bound"] > 1000, seen


def test_a_target_touching_the_flank_is_kept():
    """An enemy base touching the shooter's flank (out of the arc, not surely apart) and
    one a few inches off it (out of the arc, surely apart): the first is kept for the
    rules to judge, the second passed over, with the bounds as without them."""
    from builders import build_table, piece
    from manager.rules.featherstone.nearby import near_bases_apart
    b = build_table([piece("u", "blue", "line_infantry", (20, 20)),
                     piece("e", "red", "line_infantry", (20, 20), facing=0),
                     piece("f", "red", "line_infantry", (40, 20), facing=0)], FS,
                    width=60, height=40)
    u = b.units["u"]
    fu = footprint(b, u)
    fe = footprint(b, b.units["e"])
    b.update_unit("e", x=20 + (fu.frontage + fe.frontage) / 2)    # side by side, touching
    u = b.units["u"]
    near, apart = near_bases_apart(b, u, "red", 30, 30)
    assert [e.id for e in near] == ["e", "f"] and apart[1] > 1
    kept = fire_sight.maybe_in_arc(b, u, near, apart)
    assert [e.id for e in kept] == [e.id for e in fire_sight.maybe_in_arc(b, u, near)] == ["e"]
