"""How the D3 commander handles its cavalry, the only arm that may charge.

A charge is one-sided (only the charger strikes), so its worth is read off the exact
odds: the hits it should inflict and the chance it destroys the target (weakened units,
a flank or rear that doubles the blow). Its cost is the half-move recoil when the target
survives, which leaves the horse within musket range. A sensible player charges when
the blow is worth it and, when no charge is on, rides to a spot from which one will be
on next turn, preferring a flank and a spot few enemy muskets cover; he does not ride
through the wood the horse cannot enter. The text has no counter-charge and no rally:
an enemy horse that closes is simply a target like any other.
"""
from __future__ import annotations

import functools
import heapq
import itertools
import math

import numpy as np

from ... import convex, spatial
from ...errors import IllegalAction
from ...footprint import (EPS, _frame, angle_between, bearing, closer_than, distance,
                          heading, surely_apart)
from ...game_actions import Charge, MoveUnit
from ...ground_memo import on_ground
from ...odds import Dist
from ...table_terrain import table_terrain
from . import moves as _moves   # (its surely_blocked, asked from a spot)
from .combat import Strike, charge_odds, strike_hits
from .moves import check_charge_path, surely_blocked, surely_no_charge_path
from .ring import ring_spots
from .tables import FIRE_ARC, MOVE, RANGE
from .units import footprint, largest_half, inactive, near, on_hilltop, taken, utype

KILL_WEIGHT = 6.0       # a destroyed unit is worth this many hits besides the hits
WORTH = 1.8             # charge when the blow's value reaches this (D3+1 frontal: 3.0)
HOLD_WORTH = 3.5        # a holding command rides out only for a blow this good
RINGS = (8.5,)          # staging spots this far from a target's centre (one ring: see below)
STAGING_TRIED = 8       # the most charge paths checked from staging spots, per search
DETOUR_SPOTS = 3        # the staging spots a detour steers by (best, near first; was 6)
DETOUR_WAYS = 12        # the bearings a detour tries, at each of four distances
DETOUR_HEADINGS = tuple(heading(k * 360.0 / DETOUR_WAYS) for k in range(DETOUR_WAYS))
CRAMPED = 1.5          # worth lost at a spot hard against a friendly base
DETOUR_WEIGHT = 0.3     # worth lost per inch a staging spot stays away after a detour
FRIENDS = 2 * MOVE["cavalry"] + 9.0   # friends scanned once a decision for "cramped"
EXPOSURE_WEIGHT = 0.25  # a hit taken waiting counts a quarter of a hit dealt: the horse
                        # that waits out of musket range never charges at all
ARC_COS2 = math.cos(math.radians(FIRE_ARC + 15)) ** 2   # _exposures' arc, in cos^2


def blocked_before_contact(battle, unit, target, spot, facing) -> bool:
    """Would check_charge_path(battle, unit, target, at=spot, facing=facing) surely
    refuse because the charge runs through another base before it can meet `target`?
    For the look-ahead's staging spots, faced like charge_plan's line of charge (the
    target's rounded bearing). The centre cannot touch before it has gone the gap
    between the centres less both half-diagonals, so the path up to there is a piece of
    the charge's own path; if that piece runs through a base (`surely_blocked`) so does
    the charge, and the ground test refuses it. It costs no contact point (181 of 577
    staging paths in 3 Austerlitz turns are answered so). False: "maybe not"."""
    mover, aim = footprint(battle, unit), footprint(battle, target)
    reach = distance(spot, target.pos) - (math.hypot(mover.frontage, mover.depth) +
                                          math.hypot(aim.frontage, aim.depth)) / 2 - 0.01
    if reach <= 0.05:
        return False
    hx, hy = heading(facing)
    return _moves.surely_blocked(battle, unit, (spot[0] + hx * reach, spot[1] + hy * reach),
                                 start=spot, ignore=(target.id,))


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


class CavalryMixin:
    """Charges and the ride to a charge, for `Commander` (an OrdersCommander)."""

    def _cavalry(self, u, kind: str):
        action, value = self._best_charge(u)
        if action is not None and value >= (WORTH if kind != "hold" else WORTH / 2):
            return action
        if kind in ("reserve", "withdraw"):
            return None
        return self._ride_to_charge(u, HOLD_WORTH if kind == "hold" else -99.0) or (
            None if kind == "hold" else self._ride_toward(u))

    def _best_charge(self, u):
        b = self.battle
        best, value = None, 0.0
        for e in near(b, u.pos, MOVE["cavalry"] + 6, b.enemy_of(self.side)):
            action = Charge(u.id, e.id)
            # (a path surely refused from where the horse stands: the Charge is refused)
            if surely_no_charge_path(b, u, e, u.pos, u.facing) or not self.legal(action):
                continue
            odds = charge_odds(b, action)
            # the worth of the blow if the horse goes: a failed test costs a charge no
            # more than it costs the move the horse would make instead
            p = next(v for k, v in odds.outcomes.items() if k.startswith("activates"))
            if p == 0:
                continue
            v = blow_value(odds.lines[0].dist, e, odds.outcomes[f"{e.name} destroyed"]) / p
            v += 0.5 if inactive(b, e) else 0.0      # disordered: it will not shoot back
            if v > value:
                best, value = action, v
        return best, value

    # ---- the look-ahead: a spot to charge from next turn --------------------------------
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

    def _cramped(self, u, spot, facing, friends=None) -> bool:
        """A spot hard against a friendly base: no pivot and no straight line out of
        it, since no one but skirmishers passes through friends. `friends`: the live
        friends within `FRIENDS` of the horse (`_friends`, once per decision; every spot
        asked lies within two moves of it, so these hold all within 8 inches of it)."""
        b = self.battle
        fp = footprint(b, u, x=spot[0], y=spot[1], facing=facing)
        # a friend whose centre lies farther than both half-diagonals + 1.5 (+ 1e-5) is
        # surely apart (closer_than's own first look says no): only nearer ones asked
        reach = min(math.hypot(fp.frontage, fp.depth) / 2 + largest_half(b) * (1 + 1e-9)
                    + 1.5 + 1e-5, 8)
        close = near(b, spot, reach, self.side) if friends is None else \
            friends.within(spot, reach)
        return any(f.id != u.id and utype(f) != "skirmishers"
                   and _close(fp, footprint(b, f)) for f in close)

    def _friends(self, u) -> spatial.UnitGrid:
        """The friends within FRIENDS of the horse, asked like the spatial index (the
        same test, in live_units order)."""
        return spatial.UnitGrid(near(self.battle, u.pos, FRIENDS, self.side))

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
            return rows, tuple(np.array(c, dtype=float) for c in zip(*rows))

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
        sx, sy, sf, reach, weight = columns
        xs, ys = [p[0] for p in spots], [p[1] for p in spots]
        # the shooters farther than their reach (and a thousandth) from the spots' box
        # reach none of them: left out, their pairs are neither hits nor near an edge
        gx = np.maximum(np.maximum(min(xs) - sx, sx - max(xs)), 0.0)
        gy = np.maximum(np.maximum(min(ys) - sy, sy - max(ys)), 0.0)
        cols = (gx * gx + gy * gy <= (reach + 1e-3) ** 2).nonzero()[0]
        if not len(cols):
            return [0.0] * len(spots)
        sx, sy, sf, reach, weight = (c[cols] for c in columns)
        r = np.radians(sf)
        dx = np.array(xs)[:, None] - sx
        dy = np.array(ys)[:, None] - sy
        d2 = dx * dx + dy * dy
        dot = dx * np.sin(r) - dy * np.cos(r)          # |line| * cos(its turn off facing)
        q = dot * dot - ARC_COS2 * d2                  # d^2 (cos^2 - cos^2 60)
        m = d2 * 1e-7 + 1e-12
        sure = (d2 < (reach - 1e-6) ** 2) & (dot > 0) & (q > m)
        edge = (d2 <= (reach + 1e-6) ** 2) & ~sure & (dot >= 0) & (q >= -m)
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
        rows = []
        for e in self._targets(u, reach + max(RINGS) if targets is None else targets):
            away = bearing(e.pos, u.pos)
            ways = [away + d for d in (-90, -45, 0, 45, 90)]
            ways += [e.facing + 90, e.facing + 180, e.facing + 270]
            fp = footprint(b, e)
            # aspect(fp, spot) != "front", its very test (bearing and angle_between's
            # own expressions): beyond the diagonals' angle
            corner = math.degrees(math.atan2(fp.frontage / 2, fp.depth / 2)) + EPS
            rows.append((e, fp, corner, ways))
        # the spots within the reach (a spot moves under 0.0071 inch when rounded),
        # judged at once (ring.py: the plain floats where numpy's could differ)
        found, worths = [], {}
        for spot, t, flank in ring_spots(u, rows, RINGS, reach):
            e = rows[t][0]
            if t not in worths:
                worths[t] = self._blow_worths(e)
            found.append((worths[t][flank], spot, e))
        return [[worth - EXPOSURE_WEIGHT * x, spot, e]
                for (worth, spot, e), x in zip(found, self._exposures([s for _, s, _ in found]))]

    def _staging(self, u, candidates, paths: dict, within=None, floor=-99.0, lean=0.0,
                 friends=None, ride=None):
        """(worth, spot, target) of the spots from which a charge would be on as the
        ground and the units stand now, the most worth first, lazily: a spot's "cramped"
        is judged only when its bound leads, and its charge path (memoised in `paths`
        by spot and target, for one commander step) only when its worth leads; at most
        STAGING_TRIED paths are checked. `within`: only spots this close to the unit;
        `lean`: ranked by worth less this much per inch from the unit (the worth yielded
        is the spot's own). `ride`: a `_Ride` the searches of one decision share (the
        candidates' distances from the unit and the spots' "cramped", each worked out
        once: the same floats and answers as asking them again)."""
        b = self.battle
        ride = _Ride(self, u, candidates, friends) if ride is None else ride
        gaps = ride.gaps
        heap = [(lean * gaps[k] - bound, k, False, spot, e)
                for k, (bound, spot, e) in enumerate(candidates)
                if within is None or gaps[k] <= within]
        heapq.heapify(heap)
        tried = 0
        while heap and tried < STAGING_TRIED:
            neg, k, exact, spot, e = heapq.heappop(heap)
            if -neg < floor:                     # (with lean, the floor is never above 0)
                return
            facing = round(bearing(spot, e.pos)) % 360
            if not exact:
                cramped = CRAMPED if ride.cramped(spot, facing) else 0.0
                heapq.heappush(heap, (neg + cramped, k, True, spot, e))
                continue
            key = (spot, e.id)
            if key not in paths:
                tried += 1
                try:
                    if blocked_before_contact(b, u, e, spot, facing) or \
                            surely_no_charge_path(b, u, e, spot, facing):
                        raise IllegalAction("surely refused")     # (the check's answer)
                    check_charge_path(b, u, e, at=spot, facing=facing)
                    paths[key] = True
                except IllegalAction:
                    paths[key] = False
            if paths[key]:
                yield lean * gaps[k] - neg, spot, e

    def _ride_to_charge(self, u, floor: float):
        """A legal move to a staging spot (a charge on next turn), the most worth first;
        failing one within a move, a move (round whatever is in the way) that brings the
        best near staging spots within two moves nearer: the horse works round its own foot."""
        within = MOVE["cavalry"] - 0.05
        # a holding horse looks only within a move: the spots there are round the
        # enemies within a move and a ring (+ rounding), in the same order as in the
        # whole list, so its search is the same
        candidates = self._candidates(u, 2 * MOVE["cavalry"], None if floor <= 0 else
                                      within + max(RINGS) + 0.01)
        if not candidates:
            return None
        paths: dict = {}
        friends = self._friends(u)
        ride = _Ride(self, u, candidates, friends)
        for value, spot, e in self._staging(u, candidates, paths, within, floor,
                                            friends=friends, ride=ride):
            action = MoveUnit(u.id, spot, round(bearing(spot, e.pos)) % 360)
            if not surely_blocked(self.battle, u, spot) and self.legal(action):
                return action
        if floor > 0:
            return None
        # the spots a detour steers by: its score below is worth less DETOUR_WEIGHT an inch
        staging = list(itertools.islice(
            self._staging(u, candidates, paths, lean=DETOUR_WEIGHT, friends=friends,
                          ride=ride),
            DETOUR_SPOTS))
        if not staging:
            return None
        now = min(distance(u.pos, s[1]) for s in staging)
        spots, values = [s[1] for s in staging], [s[0] for s in staging]
        moves = []                               # (score before "cramped", to): closer ones
        for d in (MOVE["cavalry"] - 0.05, 9.0, 6.0, 3.0):
            for hx, hy in DETOUR_HEADINGS:
                to = (round(u.x + hx * d, 2), round(u.y + hy * d, 2))
                gaps = [distance(to, spot) for spot in spots]     # (each once, in order)
                if min(gaps) < now - 0.5:
                    moves.append((max([v - DETOUR_WEIGHT * g for v, g in zip(values, gaps)]),
                                  to))
        # the best legal move, its score less "cramped": the moves in order of the score
        # before it (which only takes away), until none can beat the best found
        moves.sort(key=lambda m: -m[0])
        best = None
        for score, to in moves:
            if best is not None and score <= best[0]:
                break
            if surely_blocked(self.battle, u, to):        # refused: never the best
                continue
            score -= CRAMPED if ride.cramped(to, u.facing) else 0.0
            if best is not None and score <= best[0]:
                continue
            e = min(staging, key=lambda s: distance(to, s[1]))[2]
            action = MoveUnit(u.id, to, round(bearing(to, e.pos)) % 360)
            if self.legal(action):
                best = (score, action)
        return best[1] if best else None

    def _ride_toward(self, u):
        """No staging spot within two moves: the legal move that gains most on the
        nearest chargeable enemy, staying out of his musketry (12 inches)."""
        b = self.battle
        targets = self._targets(u, 60)
        if not targets:
            return None
        e = min(targets, key=lambda t: distance(t.pos, u.pos))
        now = distance(u.pos, e.pos)
        goal = bearing(u.pos, e.pos)
        best = None
        for d in (MOVE["cavalry"] - 0.05, 8.0, 4.0):
            for turn in (0, -20, 20, -40, 40, -60, 60, -90, 90):
                hx, hy = heading((goal + turn) % 360)
                to = (round(u.x + hx * d, 2), round(u.y + hy * d, 2))
                gap = distance(to, e.pos)
                if gap < 13 or gap > now - 1:
                    continue
                if best is not None and gap >= best[0]:
                    continue
                action = MoveUnit(u.id, to, round(bearing(to, e.pos)) % 360)
                if not surely_blocked(b, u, to) and self.legal(action):
                    best = (gap, action)
        return best[1] if best else None


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


class _Ride:
    """What one decision's searches share (`_ride_to_charge`: the search within a move,
    the detour's, its moves): the candidates' distances from the unit, worked out once
    (the heap's filter, its key and the worth yielded each asked it again, and each
    search), and each spot's "cramped" by (spot, facing): the battle, the unit and its
    friends do not change within a decision, so every answer is the one asked again."""

    __slots__ = ("commander", "unit", "friends", "gaps", "crampeds")

    def __init__(self, commander, unit, candidates, friends):
        self.commander, self.unit, self.friends = commander, unit, friends
        self.gaps = [distance(unit.pos, spot) for _, spot, _ in candidates]
        self.crampeds: dict = {}

    def cramped(self, spot, facing) -> bool:
        hit = self.crampeds.get((spot, facing))
        if hit is None:
            hit = self.crampeds[(spot, facing)] = self.commander._cramped(
                self.unit, spot, facing, self.friends)
        return hit


def _open_ground(battle, base) -> bool:
    """No wood, rough, marsh or lake under the base (`ground_memo`, per battlefield)."""
    return on_ground(battle.battlefield, "d3.chargeable", base, lambda: not (
        {"woods", "rough", "marsh", "lake"}
        & set(table_terrain(battle.battlefield).kinds_at(base.polygon()))))
