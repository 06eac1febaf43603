"""Issue 17, thirteenth session: `nearby.near_bases` keeps only the asked side's bases in
its numpy pass (`nearby._of_side`: a mask per side, kept for the unit grid as last built).
The answers must be the plain scan's after every kind of change the grid follows: a unit
moved or turned in place (patched), one gone or come (rebuilt), and on a trial copy
(another grid), asked in turn of the battle and the copy."""
from __future__ import annotations

from dataclasses import replace

from builders import build_table, piece
from manager.footprint import surely_apart
from manager.rules.featherstone.state import footprint
from manager.rules.featherstone.nearby import near_bases, near_units

FS = "featherstone"


def scan(b, u, side, reach, inches) -> list:
    return [e for e in near_units(b, u.pos, reach, side)
            if not surely_apart(footprint(b, u), footprint(b, e), inches)]


def all_the_scan(b) -> int:
    asked = 0
    for u in b.live_units():
        for side in ("blue", "red"):
            for reach, inches in ((20, 12), (55, 48), (8, 3)):
                got = near_bases(b, u, side, reach, inches)
                assert got == scan(b, u, side, reach, inches), (u.id, side, reach)
                asked += bool(got)
    return asked


def test_near_bases_after_each_change_the_grid_follows():
    units = [piece(f"f{k}", "blue", "line_infantry", (6 + 5 * k, 24)) for k in range(6)]
    units += [piece(f"e{k}", "red", "line_infantry", (8 + 5 * k, 12)) for k in range(6)]
    units += [piece("g", "blue", "foot_artillery", (20, 30)),
              piece("h", "red", "light_cavalry", (30, 4))]
    b = build_table(units, FS, width=48, height=36)
    first = b.copy()                                       # one unit fewer, its grid
    first.update_unit("e0", eliminated=True)               # first built after: the
    assert all_the_scan(b) > 20                            # same generation as b's
    assert all_the_scan(first) > 20
    b.update_unit("e2", x=14.0, y=16.0, facing=200)        # moved: patched in place
    assert all_the_scan(b) > 20
    b.update_unit("f1", eliminated=True)                   # gone: the grid rebuilt
    assert all_the_scan(b) > 20
    c = b.copy()                                           # a trial copy: its own grid
    c.update_unit("e3", x=22.0, y=20.0)
    assert all_the_scan(c) > 20
    assert all_the_scan(b) > 20                            # the battle's again
    b.put_unit(replace(b.units["f1"], id="z", x=40.0, y=30.0, eliminated=False))  # come
    assert all_the_scan(b) > 20
    assert all_the_scan(c) > 20
