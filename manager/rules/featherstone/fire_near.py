"""The fire steps' first looks at the enemy bases near each shooter, for every unit of a
side in one numpy pass (issue 17).

`nearby.near_bases_apart` runs a numpy pass over every base for each shooter (~30 a
fire step, most of its cost numpy's per-call machinery on arrays of ~160). In a fire
step no base moves: shots change figures and marks, and a unit that falls rebuilds the
grid. So the pass is made once for all of the side's units (a row each) and kept while
the grid is the same generation and every centre and half diagonal the same floats; a
row is the very arithmetic of the one-shooter pass, element by element (IEEE
arithmetic is the same in a row of a matrix as in a vector), so a shooter gets the
same bases, in the same order, with the same bounds.
"""
from __future__ import annotations

import numpy as np

from ... import spatial
from .nearby import _of_side, exact_pass, near_bases_apart
from .state import footprint

KEY = "featherstone.fire_near"      # (shooters' side, targets' side) -> _Pass


class _Pass:
    __slots__ = ("grid", "generation", "lx", "ly", "radii", "rows")


def fire_near(battle, unit, side: str, reach: float, inches: float, looks) -> tuple:
    """`near_bases_apart(battle, unit, side, reach, inches)`, from the pass kept for the
    unit's side; `looks(u)`: the (reach, inches) its commander asks of each of its units
    (the pass is made for them all), None for a unit that never shoots. A unit asked
    with others is measured by itself."""
    g = spatial.unit_grid(battle)
    rad = spatial.radii(battle, footprint)
    store = battle.kept(KEY, dict)
    key = (unit.side, side)
    kept = store.get(key)
    if kept is None or not _current(kept, g, rad):
        kept = store[key] = _made(battle, g, rad, unit.side, side, looks)
    row = kept.rows.get(unit.id)
    if row is None or row[0] != reach or row[1] != inches:
        return near_bases_apart(battle, unit, side, reach, inches)
    return exact_pass(battle, unit, footprint(battle, unit), reach, inches, g.units,
                      row[2], row[3], row[4])


def _current(kept, g, rad) -> bool:
    """Are the grid, the centres and the half diagonals the pass was made from the very
    same (a unit patched in place keeps its place; another generation is rebuilt)?"""
    if kept.grid is not g or kept.generation != g.generation or kept.lx != g.lx \
            or kept.ly != g.ly:
        return False
    if kept.radii is not rad:               # (a patched unit's row rewritten in a copy)
        if not np.array_equal(kept.radii, rad):
            return False
        kept.radii = rad
    return True


def _made(battle, g, rad, own: str, side: str, looks) -> _Pass:
    kept = _Pass()
    kept.grid, kept.generation, kept.lx, kept.ly, kept.radii = \
        g, g.generation, list(g.lx), list(g.ly), rad
    kept.rows = {}
    units = g.units
    places, asked = [], []
    for k, u in enumerate(units):
        if u.side == own:
            a = looks(u)
            if a is not None:               # (None: a unit that never shoots)
                places.append(k)
                asked.append(a)
    if not places:
        return kept
    reach = np.array([a[0] for a in asked], float)
    inches = np.array([a[1] for a in asked], float)
    # near_bases_apart's arithmetic, a row per shooter (its centre: the grid's floats,
    # its record's; its half diagonal: radii's, its base's own), on the pairs of the
    # asked side whose squared distance could pass the reach (a hair wide), the rest
    # being beyond it whatever the rounding of a hypotenuse
    dx = g.xs - g.xs[places][:, None]
    dy = g.ys - g.ys[places][:, None]
    wide = (reach + 1e-9) * (1 + 1e-12) + 1e-9
    i, j = np.nonzero((dx * dx + dy * dy <= (wide * wide)[:, None])
                      & _of_side(battle, g, side))
    d = np.hypot(dx[i, j], dy[i, j])
    apart = d - rad[j] - rad[places][i]
    reach, inches = reach[i], inches[i]
    keep = (d <= reach + 1e-9) & (apart <= inches + 1e-6 + 1e-9)
    sure = (d <= reach - 1e-9) & (apart <= inches + 1e-6 - 1e-9)
    i = i[keep]                             # (row by row, each row's places in order)
    js, ss, aa = j[keep].tolist(), sure[keep].tolist(), apart[keep].tolist()
    ends = np.cumsum(np.bincount(i, minlength=len(places))).tolist()
    start = 0
    for k, (r, n), end in zip(places, asked, ends):
        kept.rows[units[k].id] = (r, n, js[start:end], ss[start:end], aa[start:end])
        start = end
    return kept
