"""Every quick-play base in numpy arrays, for the commander's first looks.

The automatic commander asks, of each unit it moves, about dozens of bases: the nearest
enemy, which enemies are surely out of range, which bases could stand across a line of
sight (`hidden_lines`). Asked one base at a time in Python that cost more than the rules' own checks.
Here every unit's base (centre, facing vector, half sizes, half diagonal) sits in
arrays, in `battle.units` order, kept current from the battle's change journal: an
action changes a few units, so a few rows are written, not the table rebuilt.

Each question is answered exactly as the scan it replaces (or only ever passes over
what the rules refuse: see the callers); the floats of a row are those of the unit's
own `footprint`.
"""
from __future__ import annotations

import math
from math import atan2, degrees

import numpy as np

from ...footprint import distance, heading
from ...model.forces import mark
from .units import footprint

# the rows of `Bases.cols`: a base's centre, its two axes' x and y (facing, then across
# it: (fx, fy) and (-fy, fx)) and half sizes along them, in one array, so the sight pass
# gathers the bases it needs with one call (`hidden_lines._judged`)
COLUMNS = ("x", "y", "fx", "-fy", "fy", "fx", "hd", "hf")

# ndarray.min and max without their Python wrappers (asked in every look)
_min, _max = np.minimum.reduce, np.maximum.reduce


class Bases:
    """Rows of every unit in `battle.units` (eliminated ones flagged, not dropped)."""

    __slots__ = ("ids", "index", "units", "cols", "x", "y", "fx", "fy", "hd", "hf", "r",
                 "alive", "sides", "info", "charging", "fps")

    def __init__(self, battle):
        self.fill(battle)

    @classmethod
    def like(cls, battle, other: "Bases") -> "Bases":
        """The table of `battle` made from another's (a trial copy of the battle the
        other was built for): its rows copied, those of other records rewritten."""
        t = cls.__new__(cls)
        t.ids, t.index, t.units, t.sides, t.info = (other.ids, other.index, list(other.units),
                                                    other.sides, battle.info)
        t.charging = dict(other.charging)
        t.fps = list(other.fps)
        t._columns(other.cols.copy())
        t.r, t.alive = other.r.copy(), other.alive.copy()
        for k, u in enumerate(battle.units.values()):
            if u is not t.units[k]:
                t.put(battle, k, u)
        return t

    def fill(self, battle) -> None:
        self.info = battle.info
        self.charging = {}                    # live unit id -> the id it charges
        units = list(battle.units.values())
        n = len(units)
        self.ids = [u.id for u in units]
        self.index = {uid: k for k, uid in enumerate(self.ids)}
        self.units = units
        self.fps = [None] * n                 # each row's base (its floats' source)
        self._columns(np.empty((len(COLUMNS), n)))
        self.r = np.empty(n)
        self.alive = np.empty(n, dtype=bool)
        sides = np.array([u.side for u in units], dtype=object)
        self.sides = {s: sides == s for s in set(sides.tolist())}
        for k, u in enumerate(units):
            self.put(battle, k, u)

    def _columns(self, cols) -> None:
        """Take `cols` (COLUMNS' rows) as the table's; x, y, fx, fy, hd, hf are its rows."""
        self.cols = cols
        self.x, self.y, self.fx, _, self.fy, _, self.hd, self.hf = cols

    def put(self, battle, k: int, u) -> None:
        fp = footprint(battle, u)
        self.units[k] = u
        if fp != self.fps[k]:                 # a new mark on the same base keeps the old
            self.fps[k] = fp                  # (`surely_hidden` asks it by identity)
        self.x[k], self.y[k] = fp.x, fp.y
        fx, fy = heading(fp.facing)
        cols = self.cols
        cols[2, k] = cols[5, k] = fx
        cols[3, k], cols[4, k] = -fy, fy
        self.hd[k], self.hf[k] = fp.depth / 2, fp.frontage / 2
        self.r[k] = math.hypot(fp.frontage, fp.depth) / 2
        self.alive[k] = not u.eliminated
        target = mark(u, "charging")
        if target and not u.eliminated:
            self.charging[u.id] = (u.side, target)
        else:
            self.charging.pop(u.id, None)

    def update(self, battle, changes) -> None:
        """Apply the journal: rewrite the rows of changed units; a unit come or gone
        (an arrival, an edit) rebuilds the table."""
        for change in changes:
            if change[0] != "unit":
                continue
            k = self.index.get(change[1])
            u = battle.units.get(change[1])
            if k is None or u is None:
                self.fill(battle)
                return
            if u is not self.units[k]:
                self.put(battle, k, u)

    def live(self, side: str | None = None) -> np.ndarray:
        """The mask of live units (of one side)."""
        if side is None:
            return self.alive
        return self.alive & self.sides.get(side, False)


def bases(battle) -> Bases:
    """The battle's base table, current at this version."""
    return battle.derived("quickplay.bases", lambda: _build(battle),
                          lambda view, changes: view.update(battle, changes))


def _build(battle) -> Bases:
    # a trial copy (the rules weigh an order on one) starts from the table of the battle
    # it was copied from, which shares its kept store: the same units, a few moved
    last = battle.kept("quickplay.bases", dict)
    t = last.get("table")
    if t is not None and t.info is battle.info and t.ids == list(battle.units):
        return Bases.like(battle, t)
    last["table"] = t = Bases(battle)
    return t


def charged(battle, side: str) -> frozenset:
    """Ids of the units live units of `side` are charging (their 'charging' marks):
    `spatial.charged_ids`, from the few chargers the table keeps, not every unit."""
    return battle.cached(("quickplay.charged", side), lambda: frozenset(
        t for s, t in bases(battle).charging.values() if s == side))


def max_half_diagonal(battle) -> float:
    """Half the diagonal of the largest live base: a base lies within it of its centre."""
    return battle.cached("quickplay.max_half_diagonal", lambda: _largest(bases(battle)))


def _largest(t: Bases) -> float:
    # (half diagonals are positive: the max over the live rows, 0.0 when none lives)
    return float(_max(t.r, where=t.alive, initial=0.0))


def _around(battle, xy, side):
    """(rows of the live units of `side`, their centres' distances from xy by numpy),
    once a battle version: the commander asks the nearest enemy, then those it might
    charge, then those it might shoot at, all from the unit's centre."""
    def build():
        t = bases(battle)
        idx = t.live(side).nonzero()[0]
        return idx, np.sqrt((t.x[idx] - xy[0]) ** 2 + (t.y[idx] - xy[1]) ** 2)
    return battle.cached(("quickplay.around", xy[0], xy[1], side), build)


def nearest(battle, xy, reach: float, side: str | None = None):
    """`min(near(battle, xy, reach, side), key=distance to xy)`, None when none is near:
    one numpy pass, then the exact distance for the few within a hair of the least
    (numpy's may differ from math.hypot in the last bits), the first in order kept."""
    t = bases(battle)
    idx, d = _around(battle, xy, side)
    if not len(idx):
        return None
    close = [t.units[k] for k in idx[d <= _min(d) + 1e-6].tolist()]
    best = min(close, key=lambda u: distance(u.pos, xy))
    return best if distance(best.pos, xy) <= reach else None


def maybe_in_reach(battle, unit, fp, reach: float, side: str, half: float,
                   far: float | None = None) -> list:
    """Live units of `side` whose centre is within `reach` of the unit's (the scan's exact
    test), in live_units order, less those surely out of the `half`-degree arc of its
    front (`units.to_front`) and, given `far`, those whose bases are surely more than
    `far` inches apart edge to edge (`surely_apart`): numpy's angles and distances may
    differ from math's in the last bits, so each is passed over only with a margin
    to spare. (Those left may still be out of the arc or range: the rules decide.)"""
    t = bases(battle)
    idx, d = _around(battle, (fp.x, fp.y), side)
    keep = d <= reach + 1e-6
    if far is not None:
        keep &= d - (math.hypot(fp.frontage, fp.depth) / 2 + t.r[idx]) <= far + 1e-6 + 1e-9
    idx = idx[keep]
    if not len(idx):
        return []
    # the arc of the few left (6 in the median ask) in plain floats: numpy's element-wise
    # arithmetic, operation for operation (math's atan2, degrees and % give numpy's
    # floats: see the tests), instead of a dozen numpy calls
    cx, cy = fp.front_centre()
    facing, arc, units, pos, out = unit.facing, half + 1e-6 + 1e-7, t.units, unit.pos, []
    for k, x, y in zip(idx.tolist(), t.x.take(idx).tolist(), t.y.take(idx).tolist()):
        off = abs((degrees(atan2(x - cx, -(y - cy))) % 360 - facing) % 360)
        if off <= arc or 360 - off <= arc:     # (min(off, 360 - off) <= arc)
            u = units[k]
            if distance(u.pos, pos) <= reach:
                out.append(u)
    return out


def from_segment(t, a, b) -> tuple:
    """Every base's offset from a (px, py) and from its nearest point of segment a-b
    (qx, qy), as arrays over the table t."""
    ax, ay = a
    px, py = t.x - ax, t.y - ay
    dx, dy = b[0] - ax, b[1] - ay
    l2 = dx * dx + dy * dy
    if l2 > 0:
        # (np.clip without its Python wrappers; where the sum is -0.0 this gives +0.0,
        # which leaves every offset's square, all the callers read of q, the same)
        s = np.minimum(np.maximum((px * dx + py * dy) / l2, 0.0), 1.0)
        return px, py, px - s * dx, py - s * dy
    return px, py, px, py


def near_line(battle, a, b, reach: float) -> list:
    """Live units whose centre is within `reach` of a (the scan's exact test) and within
    the largest half diagonal of segment a-b, in live_units order: every base that could
    touch the line (a base lies within its half diagonal of its centre), and a few
    more."""
    t = bases(battle)
    px, py, qx, qy = from_segment(t, a, b)
    margin = max_half_diagonal(battle) + 1e-5
    keep = t.alive & (px * px + py * py <= (reach + 1e-6) ** 2) \
        & (qx * qx + qy * qy <= margin * margin)
    return [u for u in (t.units[k] for k in keep.nonzero()[0].tolist())
            if distance(u.pos, a) <= reach]
