"""D3 shooting and hand-to-hand combat, and their exact odds.

Shooting: a unit that did not move, tests activation, picks one target within 45
degrees of its front (all round in a town) and in range from its front centre to any
part of the target (12 inches, guns 48); infantry roll D3, skirmishers and guns D3-1,
-1 if the target is in cover. Cavalry never shoot. Hand-to-hand: the charger alone
strikes, D3+1, -1 on a hilltop defender, -1 against cavalry, doubled on a flank or rear;
if the target survives (fewer than 9 hits) the charger retreats half a move facing it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ... import spatial
from ...actions import need
from ...events import HitsTaken, MeleeResolved, UnitFired, UnitRetreated
from ...footprint import (angle_between, aspect, bearing, distance, heading, inside, overlap,
                          point, slide)
from ...odds import Dist, Odds, OddsLine
from ...ground_memo import on_ground
from ...spatial import SLACK
from ..common import Melee, charges_by_target, find_melee
from .moves import own_unit
from .tables import CHARGE_BONUS, FIRE_ARC, MOVE, RANGE, SHOT_MINUS
from .ground import in_cover, in_town
from .sight import sight_refusal
from .units import (activate, activation_chance, engaged, footprint, inactive, kept_for,
                    largest_half, on_hilltop, reroller, utype)


@dataclass(frozen=True)
class Strike:
    minus: int          # taken off the die
    double: bool = False


def shot(battle, unit, target) -> Strike:
    """The shot's dice, or IllegalAction saying why there is none: remembered until the
    battle next changes (the commander's legal(), its odds, the session's check and the
    resolution ask the same), for these very unit records."""
    return kept_for(battle, "d3.shots", (unit.id, target.id), unit, target,
                    lambda: _shot(battle, unit, target))


def _shot(battle, unit, target) -> Strike:
    need(target.side != unit.side and not target.eliminated, f"{target.name} is not an enemy")
    t = utype(unit)
    need(t != "cavalry", "cavalry never shoot")
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    arc, rng = _reach(battle, unit, fp, tfp)
    need(arc, f"{target.name} is outside the 45 degrees of {unit.name}'s front")
    need(rng <= RANGE[t] + 1e-6, f"{target.name} is {rng:.1f} inches away; {unit.name} "
         f"reaches {RANGE[t]}")
    if battle.option("line_of_sight", "blocked") != "none":
        why = sight_refusal(battle, unit, target)
        need(not why, f"{unit.name} cannot see {target.name}: {why}")
    return Strike(SHOT_MINUS[t] + (1 if in_cover(battle, target) else 0))


def _reach(battle, unit, fp, tfp) -> tuple:
    """(may the unit's arc take in the target: in arc, or the shooter in a town; the
    range from its front centre to the nearest part of the target's base). The table's
    and the bases' alone: kept per battlefield (`ground_memo`) by the two bases and the
    option `fire_arc`, so shooters and targets that stand are not measured again."""
    def measure():
        front = fp.front_centre()
        return (in_town(battle, unit) or in_arc(battle, unit, fp, tfp, front),
                tfp.polygon().distance(point(front)))
    return on_ground(battle.battlefield, "d3.reach",
                     (fp, tfp, battle.option("fire_arc", "any_part")), measure)


def in_arc(battle, unit, fp, tfp, front) -> bool:
    """Within 45 degrees of the front: any part of the target's base in the quarter
    circle ahead of the front centre (as range is taken to any part of it), or its
    centre only (option `fire_arc`)."""
    if battle.option("fire_arc", "any_part") == "centre":
        return (angle_between(bearing(front, tfp.centre), unit.facing) <= FIRE_ARC + 1e-6
                or tfp.polygon().distance(fp.front_edge()) < 1e-6)
    return _wedge(battle, unit, front).distance(tfp.polygon()) < 1e-6


def _wedge(battle, unit, front):
    """The unit's arc of fire as a polygon: the same for every target. It reads only
    its front centre, its facing and the table's size, so it is kept per battlefield
    (`ground_memo`) by the first two: a shooter that stands (most guns, turn after turn)
    is not given a new shape after every change of the battle."""
    def build():
        from shapely.geometry import Polygon
        reach = 2 * (battle.battlefield.width + battle.battlefield.height)
        rim = [heading(unit.facing + a)
               for a in (-FIRE_ARC, -FIRE_ARC / 2, 0, FIRE_ARC / 2, FIRE_ARC)]
        return Polygon([front] + [(front[0] + hx * reach, front[1] + hy * reach)
                                  for hx, hy in rim])
    return on_ground(battle.battlefield, "d3.wedge", (front, unit.facing), build)


def shooter_refusal(battle, unit) -> str:
    """Why the unit may shoot at nothing now ('' when it may shoot at something)."""
    if inactive(battle, unit):
        return f"{unit.name} failed its activation: inactive this turn"
    if unit.moved:
        return f"{unit.name} moved this turn: units that moved cannot shoot"
    if unit.fired:
        return f"{unit.name} has already shot"
    if engaged(battle, unit):
        return f"{unit.name} is in a charge"
    return ""


def in_range_candidates(battle, unit, enemies_reach: float, side: str) -> list:
    """[e for e in near(unit.pos, enemies_reach, side) if not surely_out_of_range(e)],
    the same list in the same order. Foot: only the enemies whose centre lies within
    `candidate_bound` of the front centre can be kept, so the index's band about the
    front (plain floats) hands those, in order, each judged by the plain tests. Guns
    (a band too wide for that): every enemy judged at once on the index's arrays
    (both distances against both bounds); only those within a hair (SLACK) of a bound
    are judged again by the plain floats. (An enemy not surely out of range lies
    within the range + its half-diagonal of the front centre, so within the
    near-scan's reach of it: that scan need not be asked.)"""
    if utype(unit) == "cavalry":
        return []
    g = spatial.unit_grid(battle, side)
    if not g.units:
        return []
    front = footprint(battle, unit).front_centre()
    r = RANGE[utype(unit)]
    bound = candidate_bound(battle, unit)
    if bound <= BAND_BOUND:
        return [e for e in g.within(front, bound)
                if distance(e.pos, unit.pos) <= enemies_reach and not _beyond(battle, front, r, e)]
    half = _halves(battle, side)
    du = np.hypot(g.xs - unit.x, g.ys - unit.y)
    df = np.hypot(g.xs - front[0], g.ys - front[1])
    lim = r + half + 2e-6
    sure = (du <= enemies_reach - SLACK) & (df <= lim - SLACK)
    keep = (du <= enemies_reach + SLACK) & (df <= lim + SLACK)
    units, out, sure = g.units, [], sure.tolist()
    for k in keep.nonzero()[0].tolist():
        e = units[k]
        if not sure[k]:                          # at a border: the plain test's floats
            if distance(e.pos, unit.pos) > enemies_reach or _beyond(battle, front, r, e):
                continue
        out.append(e)
    return out


BAND_BOUND = 20.0   # inches: foot's bound (12 + 3.6 at scale 1) asks the index's band


def _beyond(battle, front, r: float, target) -> bool:
    """Does the target's centre lie farther than the range + its half-diagonal from the
    front centre (surely_out_of_range's test)?"""
    tfp = footprint(battle, target)
    return distance(front, tfp.centre) > r + math.hypot(tfp.frontage, tfp.depth) / 2 + 2e-6


def candidate_bound(battle, unit) -> float:
    """How far from the front centre an enemy's centre may lie and still be a candidate:
    in_range_candidates keeps only enemies within the range + their base's half-diagonal
    (+ 2e-6) of it, and no base's half-diagonal exceeds the table's largest
    (`HALF_DIAGONAL`, scaled); 1e-5 to spare."""
    return RANGE[utype(unit)] + largest_half(battle) * (1 + 1e-9) + 1e-5


def surely_no_candidates(battle, unit, side: str) -> bool:
    """Is in_range_candidates(battle, unit, any reach, side) surely empty? When no enemy
    centre lies within `candidate_bound` of the front centre it keeps none. One look at
    the index's band of x about the front (plain floats for a few units) instead of its
    numpy passes: for foot that did not move, most of which have no enemy within range.
    False: "maybe not"."""
    if utype(unit) == "cavalry":
        return True
    front = footprint(battle, unit).front_centre()
    return not spatial.unit_grid(battle, side).within(front, candidate_bound(battle, unit))


def _halves(battle, side) -> np.ndarray:
    """Half the diagonal of every base of `side`, in its index's order, once a version,
    and kept from version to version while the index holds units of the very same kinds
    in the same order under the same scenario info (a base's size reads only its kind
    and the options): hits and moves do not change it."""
    def build():
        units = tuple(spatial.unit_grid(battle, side).units)    # (the grid's list is patched)

        def halves():
            half = spatial.half_diagonals(battle, footprint)
            return np.fromiter((half[u.id] for u in units), float, len(units))
        return spatial.kept_while(battle, "d3.halves", side,
                                  (battle.info,) + tuple(u.kind for u in units), halves)
    return battle.cached(("d3.halves", side), build)


def surely_out_of_range(battle, unit, target) -> bool:
    """Is the target certainly beyond the unit's range (shot would refuse it)? The range
    runs from the front centre to the nearest part of the target's base, which lies
    within half its diagonal of its centre. A cheap first look for the commander."""
    if utype(unit) == "cavalry":
        return True                                   # cavalry never shoot
    return _beyond(battle, footprint(battle, unit).front_centre(), RANGE[utype(unit)], target)


def check_fire(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    why = shooter_refusal(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None, f"there is no unit {action.target!r}")
    shot(battle, unit, target)


def take(battle, uid: str, hits: int, events: list) -> None:
    u = battle.units[uid]
    hits = min(max(hits, 0), u.hits)
    if hits:
        u = battle.update_unit(uid, hits=u.hits - hits)
        events.append(HitsTaken(u.name, hits, u.hits, uid))


def resolve_fire(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    s = shot(battle, unit, target)     # (asked before any change: the check's answer)
    battle.update_unit(unit.id, fired=True)
    if not activate(battle, unit, "shoot", dice, events, action):
        return events
    if utype(unit) == "artillery" and battle.option("artillery_deploys") == "on_first_shot":
        battle.mark_unit(unit.id, deployed=True)
    face = dice.roll(1, f"{unit.name} shoots at {target.name} (D3-{s.minus})", sides=3).faces[0]
    hits = max(face - s.minus, 0)
    events.append(UnitFired(unit.name, target.name, 1, hits))
    take(battle, target.id, hits, events)
    return events


# ---- hand-to-hand ---------------------------------------------------------------------
def melees(battle) -> list[Melee]:
    """One charger a defender in this ruleset, so one melee each."""
    return [Melee(t, (a[0],)) for t, a in charges_by_target(battle).items()]


def find(battle, defender: str) -> Melee:
    return find_melee(battle, defender, melees)


def blow(battle, attacker, defender) -> Strike:
    minus = (1 if on_hilltop(battle, defender) else 0) + (1 if utype(defender) == "cavalry" else 0)
    double = aspect(footprint(battle, defender), attacker.pos) != "front"
    return Strike(minus, double)


def blow_hits(battle, s: Strike, face: int) -> int:
    return strike_hits(s, face, battle.option("flank_doubling"))


def strike_hits(s: Strike, face: int, flank_doubling) -> int:
    """The hits of a blow (the option `flank_doubling`: doubled before the modifiers)."""
    base = face + CHARGE_BONUS
    if s.double and flank_doubling == "before_modifiers":
        return max(2 * base - s.minus, 0)
    return max(base - s.minus, 0) * (2 if s.double else 1)


def check_resolve_melee(battle, action) -> None:
    find(battle, action.defender)


def resolve_melee(battle, action, dice) -> list:
    m = find(battle, action.defender)
    d, a = battle.units[m.defender], battle.units[m.attackers[0]]
    s = blow(battle, a, d)
    face = dice.roll(1, f"{a.name} charges home on {d.name} (D3+1)", sides=3).faces[0]
    hits = blow_hits(battle, s, face)
    events: list = []
    take(battle, d.id, hits, events)
    d = battle.units[d.id]
    battle.mark_unit(a.id, charging=None)
    if d.hits > 0:
        _recoil(battle, a, d, events)
        outcome = f"{d.name} survives; {a.name} retreats half a move"
    else:
        outcome = f"{d.name} is destroyed"
    return [MeleeResolved(d.name, (a.name,), (d.name,), hits, 0, outcome)] + events


def _recoil(battle, a, d, events) -> None:
    """Half a move straight back from the defender, facing it, short of any base."""
    way = bearing(d.pos, a.pos)
    hx, hy = heading(way)
    facing = round((way + 180) % 360)
    back = MOVE["cavalry"] / 2
    # (of the units within 20 inches, only those whose centre lies within both
    # half-diagonals of the way back can overlap the base at a step: overlap's own
    # first look says no to the rest; their order does not matter to any())
    fp = footprint(battle, a, facing=facing)
    reach = math.hypot(fp.frontage, fp.depth) / 2 + largest_half(battle) * (1 + 1e-9) + 1e-5
    far = (a.x + hx * (back + 0.01), a.y + hy * (back + 0.01))
    others = [o for o in spatial.unit_grid(battle).along(a.pos, far, reach)
              if o.id != a.id and distance(o.pos, a.pos) <= 20]
    bf = battle.battlefield
    done, _ = slide(fp, way, back,
                    lambda fp: "" if inside(fp, bf.width, bf.height) and not any(
                        overlap(fp, footprint(battle, o)) for o in others) else "stop")
    if done == 0 and any(overlap(fp, footprint(battle, o)) for o in others):
        facing = a.facing
    x, y = a.x + hx * done, a.y + hy * done
    battle.update_unit(a.id, x=x, y=y, facing=facing)
    events.append(UnitRetreated(a.name, (round(x, 1), round(y, 1))))


# ---- exact odds -------------------------------------------------------------------------
def _activation_line(battle, unit, what, odds: Odds | None = None) -> tuple[Fraction, str]:
    """The chance the test passes as the resolver plays it: with the general's re-roll
    when it is spent at once (`auto`); when the player chooses (`choose`), the chance
    with the re-roll is told as an outcome of its own."""
    general = reroller(battle, unit)
    auto = general is not None and battle.option("general_reroll") == "auto"
    p = activation_chance(battle, unit, what, auto)
    if general is not None and not auto and odds is not None:
        odds.outcomes[f"activates if {general.name} re-rolls a failure"] = \
            activation_chance(battle, unit, what, True)
    return p, (f" (with {general.name}'s re-roll)" if auto else "")


def shot_bound(battle, unit, p: Fraction | None = None) -> float:
    """The mean hits of the unit's best possible shot (no cover: SHOT_MINUS alone), the
    very float fire_odds' mean gives such a shot: no shot of this unit is worth more.
    `p`: the unit's shooting_chance, when already asked."""
    p = shooting_chance(battle, unit) if p is None else p
    return shot_mean(p, SHOT_MINUS[utype(unit)])


def shooting_chance(battle, unit) -> Fraction:
    """The chance the unit's shooting test passes, as fire_odds plays it."""
    return _activation_line(battle, unit, "shoot")[0]


@lru_cache(maxsize=None)
def shot_mean(p: Fraction, minus: int) -> float:
    """fire_odds' mean hits (float) of a shot passing its test with chance `p`, `minus`
    off the D3: the same Dist's, kept by the two (a handful come up in a battle)."""
    return float(_fire_dist(p, minus).mean())


def _fire_dist(p, minus: int) -> Dist:
    return Dist.mix([(1 - p, Dist.point(0)), (p, Dist.die([max(f - minus, 0) for f in (1, 2, 3)]))])


def fire_odds(battle, action) -> Odds:
    unit, target = battle.units[action.unit], battle.units[action.target]
    s = shot(battle, unit, target)
    extra = Odds("fire")
    p, note = _activation_line(battle, unit, "shoot", extra)
    dist = _fire_dist(p, s.minus)
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name}", dist, target.name)])
    odds.outcomes[f"activates{note}"] = p
    odds.outcomes.update(extra.outcomes)
    odds.outcomes[f"{target.name} destroyed"] = dist.p_at_least(target.hits)
    return odds


def melee_odds(battle, m: Melee, activation: Fraction = Fraction(1)) -> Odds:
    d, a = battle.units[m.defender], battle.units[m.attackers[0]]
    s = blow(battle, a, d)
    hits = Dist.die([blow_hits(battle, s, f) for f in (1, 2, 3)])
    dist = Dist.mix([(1 - activation, Dist.point(0)), (activation, hits)]) \
        if activation != 1 else hits
    odds = Odds("melee", [OddsLine(f"{a.name} on {d.name}", dist, d.name)])
    odds.outcomes[f"{d.name} destroyed"] = dist.p_at_least(d.hits)
    odds.outcomes[f"{a.name} retreats half a move"] = activation * (1 - hits.p_at_least(d.hits))
    return odds


def resolve_melee_odds(battle, action) -> Odds:
    return melee_odds(battle, find(battle, action.defender))


def charge_odds(battle, action) -> Odds:
    from .moves import check_charge, charge_plan
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    spot, way = charge_plan(battle, unit, target)
    extra = Odds("charge")
    p, note = _activation_line(battle, unit, "move", extra)
    moved = battle.copy()
    moved.update_unit(unit.id, x=spot[0], y=spot[1], facing=way)
    odds = melee_odds(moved, Melee(target.id, (unit.id,)), p)
    odds.kind = "charge"
    odds.outcomes[f"activates{note}"] = p
    odds.outcomes.update(extra.outcomes)
    return odds
