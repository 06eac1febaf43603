"""Every live base in numpy arrays, kept current from the battle's change journal
(issue 17).

The commander judges a gun's twenty or thirty candidate lines of sight against the
fifty bases about them in one numpy pass (`fire.surely_hidden`), once per gun and fire
step; support fire does the same from each melee's target (`fire.hidden_from`).
Building those arrays from each base's record on every call cost more than the pass
itself. Here the rows follow `spatial.unit_grid`'s order (live units), and an action,
which changes a unit or two, rewrites those rows only: the floats of a row are those
of the unit's own footprint, and the facing vector is numpy's sine and cosine, as
`sightlines.surely_crossed` computes it from the same footprint.
"""
from __future__ import annotations

import math

import numpy as np

from ... import spatial
from .state import footprint


class Rows:
    """Centre, facing vector and half sizes of every live base, in unit_grid order."""

    __slots__ = ("generation", "units", "fps", "index", "x", "y", "fx", "fy", "hd", "hf",
                 "lists")

    def __init__(self, battle, grid):
        self.fill(battle, grid)

    def fill(self, battle, grid) -> None:
        self.generation = grid.generation
        self.units = list(grid.units)
        self.index = {u.id: k for k, u in enumerate(self.units)}
        fps = self.fps = [footprint(battle, u) for u in self.units]
        ox, oy, facing, depth, front = np.array(
            [(fp.x, fp.y, fp.facing, fp.depth, fp.frontage) for fp in fps],
            dtype=float).reshape(-1, 5).T
        r = np.radians(facing)
        self.x, self.y = ox.copy(), oy.copy()
        self.fx, self.fy = np.sin(r), -np.cos(r)
        self.hd, self.hf = depth / 2, front / 2
        self.lists = None

    def follow(self, battle, grid, changes) -> None:
        """Rewrite the rows of units changed in place; a unit come or gone (the grid
        rebuilt its order) rebuilds the rows."""
        if grid.generation != self.generation:
            return self.fill(battle, grid)
        for change in changes:
            if change[0] != "unit":
                continue
            k = self.index.get(change[1])
            if k is None:
                continue                    # not a live unit here (the grid agrees)
            u = grid.units[k]
            if u is self.units[k]:
                continue
            fp = footprint(battle, u)
            self.units[k] = u
            if fp == self.fps[k]:
                continue            # a mark or a casualty: the very floats of the row
            self.fps[k] = fp
            x, y, facing, depth, front = np.array(
                [fp.x, fp.y, fp.facing, fp.depth, fp.frontage], dtype=float)
            r = np.radians(facing)
            self.x[k], self.y[k] = x, y
            self.fx[k], self.fy[k] = np.sin(r), -np.cos(r)
            self.hd[k], self.hf[k] = depth / 2, front / 2
            if self.lists is not None:
                for column, array in zip(self.lists, (self.fx, self.fy, self.hd, self.hf)):
                    column[k] = array[k].item()
                self.lists[4][k] = math.hypot(self.lists[2][k], self.lists[3][k])

    def as_lists(self) -> tuple:
        """(fx, fy, hd, hf, diag) as lists of Python floats: the very floats of the
        arrays, and each base's half diagonal (math.hypot of hd and hf); made on first
        use and kept with the rows."""
        if self.lists is None:
            hd, hf = self.hd.tolist(), self.hf.tolist()
            self.lists = (self.fx.tolist(), self.fy.tolist(), hd, hf,
                          list(map(math.hypot, hd, hf)))
        return self.lists


def rows(battle) -> Rows:
    """The battle's rows of live bases, current at this version."""
    grid = spatial.unit_grid(battle)            # brought up to date first
    return battle.derived("featherstone.rows", lambda: Rows(battle, grid),
                          lambda view, changes: view.follow(battle, grid, changes))
