"""What a D3 shooter can see: the rules' line-of-sight check (another base across the
line from its front centre, or the table's terrain), and the commander's first look at
many lines together (`surely_hidden`) on columns of every live base kept from the
battle's journal of changes.
"""
from __future__ import annotations

import numpy as np

from ... import spatial
from ...footprint import distance, segment
from ...ground_memo import on_ground
from ...table_terrain import table_terrain
from .units import footprint, largest_half


def _kept_sight(battle, a, b) -> str:
    """table_terrain's sight_blocked(a, b, skip=1.0), kept per battlefield by the line's
    ends (`ground_memo`): shooters that stand ask the same lines turn after turn."""
    return on_ground(battle.battlefield, "d3.sight", (a, b),
                     lambda: table_terrain(battle.battlefield).sight_blocked(a, b, skip=1.0))


def sight_refusal(battle, unit, target) -> str:
    front = footprint(battle, unit).front_centre()
    line = segment(front, target.pos)
    for o in _crossing_line(battle, front, target.pos, line.length + 8, unit.pos):
        if o.id not in (unit.id, target.id) and footprint(battle, o).polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = _kept_sight(battle, unit.pos, target.pos)
    return f"{blocked} blocks the view" if blocked else ""


def _crossing_line(battle, a, b, reach: float, origin) -> list:
    """spatial.crossing_line's candidates for a base across segment a-b (centre within
    `reach` of origin and within the largest half-diagonal of the line), with the
    table's bound on that half-diagonal rather than one measured over every live unit
    each battle version: a few more units, whose bases cannot meet the line."""
    return [u for u in spatial.unit_grid(battle).along(a, b, largest_half(battle) + 1e-6)
            if distance(u.pos, origin) <= reach]


def surely_hidden(battle, unit, targets) -> list:
    """For each target: is its centre certainly hidden from the unit's front centre by
    another live unit's base, so that `sight_refusal` names one (shot refuses it)? One
    numpy pass per shooter over every live base (`sightlines.surely_crossed_arrays`: the
    scan's bounds, blockers within the line's length + 8 of the shooter's centre, are
    its own), never under the option `line_of_sight = none`. False means only "maybe
    not"."""
    from ...sightlines import surely_crossed_arrays
    if not targets or battle.option("line_of_sight", "blocked") == "none":
        return [False] * len(targets)
    index, keys, ox, oy, fx, fy, hd, hf = _base_arrays(battle)
    front = footprint(battle, unit).front_centre()
    hits = surely_crossed_arrays(front, [t.pos for t in targets],
                                 [index.get(t.id, -1) for t in targets], keys, ox, oy, fx, fy,
                                 hd, hf, unit.pos, index.get(unit.id, -1), 8.0)
    return hits.tolist()                    # (a numpy bool array: Python bools)


def _base_arrays(battle) -> tuple:
    """(index by unit id, keys, x, y, facing vector x and y, half depth, half frontage) of
    every live unit's base, in live_units order: kept from the battle's journal of
    changes (a unit that moved or was hit is patched where it stands; one gone, new or
    a wholesale change rebuilds), so a change costs a row, not every base."""
    rows = battle.derived("d3.base_rows", lambda: _BaseRows(battle),
                          lambda view, changes: view.follow(battle, changes))
    return rows.arrays()


class _BaseRows:
    """The columns of _base_arrays, and the rows they were filled from (`rows`); the
    facing vectors are worked out again over the whole column after a patch that turned
    a base (the very vector call of a fresh build: the same floats). A change that
    leaves a base where it was (hits, marks: half the changes a turn) patches nothing."""

    __slots__ = ("index", "keys", "ox", "oy", "facing", "hd", "hf", "fx", "fy", "rows")

    def __init__(self, battle):
        self.fill(battle)

    def fill(self, battle) -> None:
        units = battle.live_units()
        self.rows = [_row(battle, u) for u in units]
        self.ox, self.oy, self.facing, self.hd, self.hf = \
            np.array(self.rows, dtype=float).reshape(-1, 5).T.copy()
        self.index = {u.id: k for k, u in enumerate(units)}
        self.keys = np.arange(len(units))
        self._turn()

    def _turn(self) -> None:
        r = np.radians(self.facing)         # (numpy's sin and cos: far inside MARGIN)
        self.fx, self.fy = np.sin(r), -np.cos(r)

    def follow(self, battle, changes) -> None:
        turned = False
        for change in changes:
            if change[0] != "unit":
                continue
            u, k = battle.units.get(change[1]), self.index.get(change[1])
            live = u is not None and not u.eliminated
            if k is None and not live:
                continue
            if k is None or not live:           # a newcomer, or one gone: rebuild
                return self.fill(battle)
            row = _row(battle, u)
            if row == self.rows[k]:
                continue
            turned = turned or row[2] != self.rows[k][2]
            self.rows[k] = row
            (self.ox[k], self.oy[k], self.facing[k], self.hd[k], self.hf[k]) = row
        if turned:
            self._turn()

    def arrays(self) -> tuple:
        return (self.index, self.keys, self.ox, self.oy, self.fx, self.fy, self.hd, self.hf)


def _row(battle, u) -> tuple:
    fp = footprint(battle, u)
    return fp.x, fp.y, fp.facing, fp.depth / 2, fp.frontage / 2
