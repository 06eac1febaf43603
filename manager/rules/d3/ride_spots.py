"""What the horse's ride weighs at a spot it could charge from next turn (`cavalry`).

The staging spots lie on a ring round each chargeable enemy (`ring`); each is worth the
blow a charge from it would strike (read off the exact odds: the hits and the chance of
destroying the target, doubled on a flank or rear), less a quarter of the hits the
enemy's foot and guns in range and arc could put into the horse waiting there, less a
little when the spot is hard against a friendly base (no pivot and no line out of it).
The answers are kept where the battle lets them stand (per unit record, per version).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ... import convex, spatial
from ...footprint import (EPS, _frame, angle_between, bearing, closer_than, distance,
                          surely_apart)
from ...ground_memo import on_ground
from ...odds import Dist
from ...table_terrain import table_terrain
from .combat import Strike, strike_hits
from .ring import ring_spots
from .tables import FIRE_ARC, RANGE
from .units import footprint, largest_half, near, on_hilltop, utype

KILL_WEIGHT = 6.0       # a destroyed unit is worth this many hits besides the hits
RINGS = (8.5,)          # staging spots this far from a target's centre (one ring: see below)
AWAY = (-90, -45, 0, 45, 90)   # a target's spots off the bearing from him to the horse
TARGET_ROWS = "d3.target_rows"  # `_target_row`'s store

EXPOSURE_WEIGHT = 0.25  # a hit taken waiting counts a quarter of a hit dealt: the horse
                        # that waits out of musket range never charges at all
ARC_COS2 = math.cos(math.radians(FIRE_ARC + 15)) ** 2   # _exposures' arc, in cos^2


def blow_value(dist: Dist, target, p_kill=None) -> float:
    """Expected hits plus the destruction the blow may bring."""
    p = dist.p_at_least(target.hits) if p_kill is None else p_kill
    return float(dist.mean()) + KILL_WEIGHT * float(p)


@functools.lru_cache(maxsize=256)
def _strike_worth(minus: int, double: bool, hits: int, flank_doubling) -> float:
    """blow_value of a D3+1 blow on a target with `hits` left: the same for every
    horse, target and decision with these (blow_hits reads only `flank_doubling`)."""
    dist = Dist.die([strike_hits(Strike(minus, double), f, flank_doubling) for f in (1, 2, 3)])
    return float(dist.mean()) + KILL_WEIGHT * float(dist.p_at_least(hits))


class SpotsMixin:
    """The staging spots and their worth, for `CavalryMixin` (an OrdersCommander's)."""

    def _chargeable(self, e) -> bool:
        """Cavalry may reach it: not in a wood or on broken ground (once per unit record;
        a base that stands keeps its answer from record to record: `_open_ground`)."""
        b = self.battle
        return spatial.own_base(b, "d3.chargeable", e, lambda: _open_ground(b, footprint(b, e)))

    def _targets(self, u, reach: float) -> list:
        b = self.battle
        return [e for e in near(b, u.pos, reach, b.enemy_of(self.side)) if self._chargeable(e)]

    def _blow_worths(self, e) -> tuple:
        """The blow's worth on `e` from its front and from its flank or rear, kept for
        the very unit record on the very battlefield under the very flank_doubling
        option (its hits, hilltop and type are all the blow reads)."""
        b = self.battle
        store = b.kept("d3.blow_worths", dict)
        option = b.option("flank_doubling")
        hit = store.get(e.id)
        if hit is None or hit[0] is not e or hit[1] is not b.battlefield or hit[2] != option:
            minus = (1 if self._on_hilltop(e) else 0) + (1 if utype(e) == "cavalry" else 0)
            hit = store[e.id] = (e, b.battlefield, option,
                                 (_strike_worth(minus, False, e.hits, option),
                                  _strike_worth(minus, True, e.hits, option)))
        return hit[3]

    def _on_hilltop(self, e) -> bool:
        """on_hilltop, kept for the very unit record on the very battlefield."""
        b = self.battle
        store = b.kept("d3.hilltop", dict)
        hit = store.get(e.id)
        if hit is None or hit[0] is not e or hit[1] is not b.battlefield:
            hit = store[e.id] = (e, b.battlefield, on_hilltop(b, e))
        return hit[2]

    def _cramped(self, u, spot, facing) -> bool:
        """A spot hard against a friendly base: no pivot and no straight line out of
        it, since no one but skirmishers passes through friends (asked of the side's
        own index: a grid of the friends near the horse built for each ride cost more
        than its narrower scans saved)."""
        b = self.battle
        fp = footprint(b, u, x=spot[0], y=spot[1], facing=facing)
        # a friend whose centre lies farther than both half-diagonals + 1.5 (+ 1e-5) is
        # surely apart (closer_than's own first look says no): only nearer ones asked
        reach = min(math.hypot(fp.frontage, fp.depth) / 2 + largest_half(b) * (1 + 1e-9)
                    + 1.5 + 1e-5, 8)
        return any(f.id != u.id and utype(f) != "skirmishers"
                   and _close(fp, footprint(b, f)) for f in near(b, spot, reach, self.side))

    def _shooters(self) -> list:
        """(x, y, facing, reach, weight) of the enemy foot and guns, in live_units order."""
        return self._shooter_arrays()[0]

    def _shooter_arrays(self) -> tuple:
        """(_shooters, and its columns as numpy arrays), once per battle version, and
        kept from version to version while the enemy's live records are the very same
        objects in the same order (the rows read nothing else: his side does not change
        while this side moves, so most rides ask the rows of the last)."""
        b = self.battle

        def rows(enemies):
            rows = [(s.x, s.y, s.facing, RANGE[utype(s)] + 2,
                     2.0 if utype(s) == "infantry" else 1.0)          # mean D3, D3-1
                    for s in enemies if utype(s) != "cavalry"]
            return rows, shooter_columns(rows)

        def build():
            enemies = tuple(b.live_units(b.enemy_of(self.side)))
            return spatial.kept_while(b, "d3.shooter_rows", self.side, enemies,
                                      lambda: rows(enemies))
        return b.cached(("d3.shooters", self.side), build)

    def _exposure(self, spot, shooters=None) -> float:
        """The hits the enemy's foot and guns in range and arc could put into a horse at
        the spot. Every shooter within its range is within the spatial search's reach
        (the longest range + 4), so all of them are asked, without the search."""
        total = 0.0
        for x, y, facing, reach, weight in (self._shooters() if shooters is None else shooters):
            if distance((x, y), spot) > reach:
                continue
            if angle_between(bearing((x, y), spot), facing) > FIRE_ARC + 15:
                continue
            total += weight
        return total

    def _exposures(self, spots) -> list:
        """_exposure of every spot, judged for all spots and shooters at once, in
        squares and dot products (no square root, no arc tangent): a pair is in range
        when d^2 <= reach^2, and in the arc (FIRE_ARC + 15 = 60 degrees either side of
        the facing, under 90) when the facing's dot product with the line to the spot
        is positive and its square above d^2 cos^2 60 (`ARC_COS2`). Pairs within a hair
        of either edge (a millionth of an inch of the range; cos^2 within 1e-7 of its
        bound, ~1e-5 degrees) are judged again by the exact test; the rest lie clear of
        both edges, so each answer is the plain test's."""
        shooters, columns = self._shooter_arrays()
        if not spots or not shooters:
            return [0.0] * len(spots)
        sx, sy, _, _, weight, r, sin, cos, near2, far2 = columns
        xs, ys = [p[0] for p in spots], [p[1] for p in spots]
        # the shooters farther than their reach (and a thousandth: r) from the spots'
        # box on either axis reach none of them: left out, their pairs are neither hits
        # nor near an edge
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        cols = ((np.abs(sx - (x0 + x1) / 2) <= r + (x1 - x0) / 2) &
                (np.abs(sy - (y0 + y1) / 2) <= r + (y1 - y0) / 2)).nonzero()[0]
        if not len(cols):
            return [0.0] * len(spots)
        sx, sy, weight, sin, cos, near2, far2 = (c[cols] for c in (sx, sy, weight, sin, cos,
                                                                   near2, far2))
        dx = np.array(xs)[:, None] - sx
        dy = np.array(ys)[:, None] - sy
        d2 = dx * dx + dy * dy
        dot = dx * sin - dy * cos                      # |line| * cos(its turn off facing)
        q = dot * dot - ARC_COS2 * d2                  # d^2 (cos^2 - cos^2 60)
        m = d2 * 1e-7 + 1e-12
        sure = (d2 < near2) & (dot > 0) & (q > m)
        edge = (d2 <= far2) & ~sure & (dot >= 0) & (q >= -m)
        # (the weights are 1 and 2: their sums are exact in any order, so the matrix
        # product's are the row sums')
        out = (sure @ weight).tolist()
        for k, j in zip(*(a.tolist() for a in edge.nonzero())):
            out[k] += self._exposure(spots[k], [shooters[cols[j]]])
        return out

    def _candidates(self, u, reach: float, targets: float | None = None) -> list:
        """[bound, spot, target] of the ring spots within `reach` of the unit round each
        chargeable enemy (within `targets` of it: all that have such spots by default);
        bound = the blow's worth less a quarter of the musketry on the spot, an upper
        bound of its worth (only "cramped" is still to take off)."""
        b = self.battle
        rows, worths = [], []
        for e in near(b, u.pos, reach + max(RINGS) if targets is None else targets,
                      b.enemy_of(self.side)):
            row = self._target_row(e)
            if row is None:                      # not chargeable (`_targets`)
                continue
            away = bearing(e.pos, u.pos)
            rows.append((e, row[0], row[1], [away + d for d in AWAY] + row[2]))
            worths.append(row[3])
        # the spots within the reach (a spot moves under 0.0071 inch when rounded),
        # judged at once (ring.py: the plain floats where numpy's could differ)
        found = ring_spots(u, rows, RINGS, reach)
        exposures = self._exposures([spot for spot, _, _ in found])
        return [[worths[t][flank] - EXPOSURE_WEIGHT * x, spot, rows[t][0]]
                for (spot, t, flank), x in zip(found, exposures)]

    def _target_row(self, e):
        """(base, the angle off its front beyond which a spot is off it, the bearings
        off its facing a spot is sought along, `_blow_worths`) of a chargeable enemy,
        None for one cavalry may not reach: what `_candidates` reads of the target
        alone, kept for the very unit record under the very scenario info (the options)
        and battlefield, so a target that stands is not worked out again each ride."""
        b = self.battle
        store = b.kept(TARGET_ROWS, dict)
        hit = store.get(e.id)
        if hit is None or hit[0] is not e or hit[1] is not b.info or \
                hit[2] is not b.battlefield:
            row = None
            if self._chargeable(e):
                fp = footprint(b, e)
                # aspect(fp, spot) != "front", its very test (bearing and
                # angle_between's own expressions): beyond the diagonals' angle
                corner = math.degrees(math.atan2(fp.frontage / 2, fp.depth / 2)) + EPS
                row = (fp, corner, [e.facing + 90, e.facing + 180, e.facing + 270],
                       self._blow_worths(e))
            hit = store[e.id] = (e, b.info, b.battlefield, row)
        return hit[3]

def shooter_columns(rows) -> tuple:
    """The shooter rows' columns as numpy arrays (x, y, facing, reach, weight), then what
    every `_exposures` pass reads of them: the reach and a thousandth (the spots' box),
    the facing's sine and cosine, the squared reach a millionth short of it and beyond
    it. Kept with the rows, worked out once for all their passes: each element the
    floats of the pass's own arithmetic (element by element; numpy's sine and cosine,
    whose last bit may differ with an element's place in an array, lie far inside the
    arc's margin, whose border pairs are judged by the plain test)."""
    x, y, facing, reach, weight = (np.array(c, dtype=float) for c in zip(*rows))
    r = np.radians(facing)
    return (x, y, facing, reach, weight, reach + 1e-3, np.sin(r), np.cos(r),
            (reach - 1e-6) ** 2, (reach + 1e-6) ** 2)


CRAMP = 1.5                                  # inches: a gap under this is "hard against"
SURE_CRAMP = (CRAMP - 1e-6) / math.sqrt(2)   # a separation up to this: a gap under CRAMP


def _close(fp, other) -> bool:
    """closer_than(fp, other, CRAMP), mostly without shapely. Bases surely apart are
    not (closer_than's own first look); otherwise the rectangles' separating-axis
    separation s bounds their gap g: g = 0 when s <= 0, s <= g <= sqrt(2) s when s > 0
    (`contact`: their difference is convex, its edge normals turn by at most 90
    degrees), so s up to (CRAMP - 1e-6) / sqrt(2) is a gap under CRAMP (closer_than's
    shapely gap, far inside the 1e-6). The rest are closer_than's own answer."""
    if surely_apart(fp, other, CRAMP):
        return False
    if convex.separation(_frame(fp), fp.x, fp.y, _frame(other), other.x, other.y) <= SURE_CRAMP:
        return True
    return closer_than(fp, other, CRAMP)


def _open_ground(battle, base) -> bool:
    """No wood, rough, marsh or lake under the base (`ground_memo`, per battlefield)."""
    return on_ground(battle.battlefield, "d3.chargeable", base, lambda: not (
        {"woods", "rough", "marsh", "lake"}
        & set(table_terrain(battle.battlefield).kinds_at(base.polygon()))))
