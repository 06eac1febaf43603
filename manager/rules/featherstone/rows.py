"""Every live base's facing vector and half sizes in lists of floats, kept current from
the battle's change journal (issue 17).

The commander judges a gun's twenty or thirty candidate lines of sight against the
bases about them (`fire_sight.surely_hidden`, by `sight_floats`), once per gun and fire step;
support fire does the same from each melee's target (`fire_sight.hidden_from`). Reading each
base's record on every call cost more than the test itself. Here the rows follow
`spatial.unit_grid`'s order (live units), and an action, which changes a unit or two,
rewrites those rows only: the floats of a row are those of the unit's own footprint,
and the facing vector is numpy's sine and cosine, as `sightlines.surely_crossed`
computes it from the same footprint.

A trial copy of the battle (the odds weigh a charge on one) starts with the records of
the battle it copies: its rows are copied from the last rows built or filled over the
same battle's records (kept in the store the copies share), and only the rows whose
record differs are made again, where a fresh fill made all of them.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ... import spatial
from .state import footprint

PATCHED_AT_MOST = 16    # records differing from the last rows up to which they are patched


class Rows:
    """Facing vector, half sizes and half diagonal of every live base, in unit_grid order."""

    __slots__ = ("generation", "info", "units", "fps", "index", "fx", "fy", "hd", "hf",
                 "diag")

    def __init__(self, battle, grid):
        self.fill(battle, grid)

    def fill(self, battle, grid) -> None:
        self.generation = grid.generation
        self.info = battle.info                 # (the options scale the bases)
        units = list(grid.units)
        store = battle.kept("featherstone.last_rows", dict)
        last = store.get("rows")
        if last is None or not self._fill_from(battle, last, units):
            self._fill_fresh(battle, units)
        store["rows"] = self

    def _fill_fresh(self, battle, units) -> None:
        self.units = units
        self.index = {u.id: k for k, u in enumerate(units)}
        fps = self.fps = [footprint(battle, u) for u in units]
        facing, depth, front = np.array(
            [(fp.facing, fp.depth, fp.frontage) for fp in fps], dtype=float).reshape(-1, 3).T
        r = np.radians(facing)
        self.fx, self.fy = np.sin(r).tolist(), (-np.cos(r)).tolist()
        self.hd, self.hf = (depth / 2).tolist(), (front / 2).tolist()
        self.diag = list(map(math.hypot, self.hd, self.hf))

    def _fill_from(self, battle, last, units) -> bool:
        """The rows copied from `last` (another battle's over the same records, or this
        one's before a unit came or went), the differing records' rows made again; False
        (nothing done) when the records do not stand in the same order of ids."""
        if last.info is not battle.info or len(last.units) != len(units):
            return False
        before = last.units
        differ = [k for k, (a, b) in enumerate(zip(before, units)) if a is not b]
        if len(differ) > PATCHED_AT_MOST or any(before[k].id != units[k].id for k in differ):
            return False
        self.units, self.index, self.fps = list(before), last.index, list(last.fps)
        self.fx, self.fy, self.hd, self.hf = (list(last.fx), list(last.fy), list(last.hd),
                                              list(last.hf))
        self.diag = list(last.diag)
        for k in differ:
            self._patch(battle, k, units[k])
        return True

    def _patch(self, battle, k: int, u) -> None:
        """Unit u's row at k: a mark or a casualty leaves the base's very floats."""
        fp = footprint(battle, u)
        self.units[k] = u
        if fp == self.fps[k]:
            return
        self.fps[k] = fp
        self.fx[k], self.fy[k] = _facing_vector(float(fp.facing))
        self.hd[k], self.hf[k] = float(fp.depth) / 2, float(fp.frontage) / 2
        self.diag[k] = math.hypot(self.hd[k], self.hf[k])

    def follow(self, battle, grid, changes) -> None:
        """Rewrite the rows of units changed in place; a unit come or gone (the grid
        rebuilt its order) fills the rows again."""
        if grid.generation != self.generation:
            return self.fill(battle, grid)
        for change in changes:
            if change[0] != "unit":
                continue
            k = self.index.get(change[1])
            if k is None:
                continue                    # not a live unit here (the grid agrees)
            u = grid.units[k]
            if u is not self.units[k]:
                self._patch(battle, k, u)

    def as_lists(self) -> tuple:
        """(fx, fy, hd, hf, diag): the rows' lists (each base's half diagonal is
        math.hypot of its hd and hf)."""
        return self.fx, self.fy, self.hd, self.hf, self.diag


@lru_cache(maxsize=4096)
def _facing_vector(facing: float) -> tuple:
    """(sine, -cosine) of a facing as numpy computes a patched row's: kept per facing
    (whole degrees, mostly), so a patch makes no numpy call (~10 on one row's scalars,
    each costlier than the arithmetic); the halvings are exact in plain floats too."""
    r = np.radians(np.float64(facing))
    return np.sin(r).item(), (-np.cos(r)).item()


def rows(battle) -> Rows:
    """The battle's rows of live bases, current at this version."""
    grid = spatial.unit_grid(battle)            # brought up to date first
    return battle.derived("featherstone.rows", lambda: Rows(battle, grid),
                          lambda view, changes: view.follow(battle, grid, changes))
