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

import heapq
import itertools
import math

from ... import spatial
from ...errors import IllegalAction
from ...footprint import bearing, distance, heading
from ...game_actions import Charge, MoveUnit
from . import moves as _moves   # (its surely_blocked, asked from a spot)
from .combat import charge_odds
from .moves import check_charge_path, surely_blocked, surely_no_charge_path
from .ride_spots import RINGS, SpotsMixin, blow_value
from .ring import hundredth
from .tables import MOVE
from .units import footprint, inactive, near

WORTH = 1.8             # charge when the blow's value reaches this (D3+1 frontal: 3.0)
HOLD_WORTH = 3.5        # a holding command rides out only for a blow this good
STAGING_TRIED = 8       # the most charge paths checked from staging spots, per search
DETOUR_SPOTS = 3        # the staging spots a detour steers by (best, near first; was 6)
DETOUR_WAYS = 12        # the bearings a detour tries, at each of four distances
DETOUR_HEADINGS = tuple(heading(k * 360.0 / DETOUR_WAYS) for k in range(DETOUR_WAYS))
CRAMPED = 1.5          # worth lost at a spot hard against a friendly base
DETOUR_WEIGHT = 0.3     # worth lost per inch a staging spot stays away after a detour
LATER = "later"         # a charge path tried by one search, left for the next to work out


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



class CavalryMixin(SpotsMixin):
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

    # ---- the look-ahead: a spot to charge from next turn (its spots: `ride_spots`) ----
    def _staging(self, u, candidates, paths: dict, within=None, floor=-99.0, lean=0.0,
                 ride=None, skip=None):
        """(worth, spot, target) of the spots from which a charge would be on as the
        ground and the units stand now, the most worth first, lazily: a spot's "cramped"
        is judged only when its bound leads, and its charge path (memoised in `paths`
        by spot and target, for one commander step) only when its worth leads; at most
        STAGING_TRIED paths are checked. `within`: only spots this close to the unit;
        `lean`: ranked by worth less this much per inch from the unit (the worth yielded
        is the spot's own). `ride`: a `_Ride` the searches of one decision share (the
        candidates' distances from the unit and the spots' "cramped", each worked out
        once: the same floats and answers as asking them again). `skip`: spots the
        caller has no use for (it could not ride there): never yielded, and a path not
        yet worked out counts as tried but is left (`LATER`) for a later search, which
        works it out uncounted, as it would have found it worked out."""
        ride = _Ride(self, u, candidates) if ride is None else ride
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
            known = paths.get(key)
            if known is None:
                tried += 1
            if skip is not None and skip(spot):
                if known is None:
                    paths[key] = LATER
                continue
            if known is None or known is LATER:
                known = paths[key] = self._charge_path_open(u, e, spot, facing)
            if known:
                yield lean * gaps[k] - neg, spot, e

    def _charge_path_open(self, u, e, spot, facing) -> bool:
        """Would check_charge_path let the horse charge `e` from the spot, faced so?
        The first looks first: each "surely refused" is the check's own answer."""
        b = self.battle
        if blocked_before_contact(b, u, e, spot, facing) or \
                surely_no_charge_path(b, u, e, spot, facing):
            return False
        try:
            check_charge_path(b, u, e, at=spot, facing=facing)
        except IllegalAction:
            return False
        return True

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
        ride = _Ride(self, u, candidates)
        # a spot the horse surely cannot ride to is of no use here: its path is worked
        # out only if the detour's search comes to it (it never does for about half)
        b = self.battle
        for value, spot, e in self._staging(u, candidates, paths, within, floor, ride=ride,
                                            skip=lambda spot: surely_blocked(b, u, spot)):
            action = MoveUnit(u.id, spot, round(bearing(spot, e.pos)) % 360)
            if self.legal(action):
                return action
        if floor > 0:
            return None
        # the spots a detour steers by: its score below is worth less DETOUR_WEIGHT an inch
        staging = list(itertools.islice(
            self._staging(u, candidates, paths, lean=DETOUR_WEIGHT, ride=ride),
            DETOUR_SPOTS))
        if not staging:
            return None
        now = min(distance(u.pos, s[1]) for s in staging)
        spots, values = [s[1] for s in staging], [s[0] for s in staging]
        moves = []                               # (score before "cramped", to): closer ones
        for d in (MOVE["cavalry"] - 0.05, 9.0, 6.0, 3.0):
            for hx, hy in DETOUR_HEADINGS:
                to = (hundredth(u.x + hx * d), hundredth(u.y + hy * d))
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
        # the nearest enemy within 60 (the first of the nearest in live_units order, as
        # min() keeps) is the nearest chargeable one when he is chargeable (every time
        # in 8 Austerlitz turns): the chargeable ones are not all asked
        e = spatial.nearest_unit(b, u.pos, 60, b.enemy_of(self.side))
        if e is not None and not self._chargeable(e):
            targets = self._targets(u, 60)
            e = min(targets, key=lambda t: distance(t.pos, u.pos)) if targets else None
        if e is None:
            return None
        now = distance(u.pos, e.pos)
        if now < 14:
            return None            # no spot 13 inches or more from him and an inch nearer
        goal = bearing(u.pos, e.pos)
        best = None
        for d in (MOVE["cavalry"] - 0.05, 8.0, 4.0):
            for turn in (0, -20, 20, -40, 40, -60, 60, -90, 90):
                hx, hy = heading((goal + turn) % 360)
                to = (hundredth(u.x + hx * d), hundredth(u.y + hy * d))
                gap = distance(to, e.pos)
                if gap < 13 or gap > now - 1:
                    continue
                if best is not None and gap >= best[0]:
                    continue
                action = MoveUnit(u.id, to, round(bearing(to, e.pos)) % 360)
                if not surely_blocked(b, u, to) and self.legal(action):
                    best = (gap, action)
        return best[1] if best else None


class _Ride:
    """What one decision's searches share (`_ride_to_charge`: the search within a move,
    the detour's, its moves): the candidates' distances from the unit, worked out once
    (the heap's filter, its key and the worth yielded each asked it again, and each
    search), and each spot's "cramped" by (spot, facing): the battle, the unit and its
    friends do not change within a decision, so every answer is the one asked again."""

    __slots__ = ("commander", "unit", "gaps", "crampeds")

    def __init__(self, commander, unit, candidates):
        self.commander, self.unit = commander, unit
        self.gaps = [distance(unit.pos, spot) for _, spot, _ in candidates]
        self.crampeds: dict = {}

    def cramped(self, spot, facing) -> bool:
        hit = self.crampeds.get((spot, facing))
        if hit is None:
            hit = self.crampeds[(spot, facing)] = self.commander._cramped(
                self.unit, spot, facing)
        return hit
