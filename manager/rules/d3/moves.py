"""D3 movement: a pivot at the start, a straight line, a pivot at the end; charges by
cavalry with one turn of up to 45 degrees; generals riding free of activation.

Checks come first (python-chess's split): a move the ground or the allowance forbids
is refused outright. A legal move then takes its activation test; a failed test is a
real outcome (the unit stays, disordered) and is logged like any other.
"""
from __future__ import annotations

import math

from ... import convex, spatial
from ...actions import need
from ...errors import IllegalAction
from ...events import LeaderMoved, UnitMoved, declare_event
from ...footprint import _frame, angle_between, bearing, distance, heading, overlap
from ...model.forces import mark
from ..common import check_ride, own_unit  # noqa: F401  (own_unit: for combat)
from ...contact import contact_point
from .tables import CHARGE_TURN, GENERAL_DANGER, GENERAL_MOVE, MOVE
from .ground import ground_refusal, units_refusal
from .units import (activate, engaged, footprint, inactive, kept_for, largest_half,
                    threatened_general, utype)

ChargeMade = declare_event("ChargeMade", "{unit} charges {target}{how}", unit=str, target=str,
                           how=str)


def _can_act(battle, unit) -> None:
    need(not inactive(battle, unit), f"{unit.name} failed its activation: inactive this turn")
    need(unit.moved < 2, f"{unit.name} has already moved")
    need(not engaged(battle, unit), f"{unit.name} is in a charge")


def check_move_unit(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    _can_act(battle, unit)
    need(0 <= action.facing < 360, "facing is 0 to 359 degrees")
    d = distance(unit.pos, action.to)
    if utype(unit) == "artillery" and mark(unit, "deployed"):
        need(d < 1e-9, f"{unit.name} is deployed: it may pivot but not move")
    allowance = MOVE[utype(unit)]
    need(d <= allowance + 1e-6, f"{unit.name} moves {allowance} inches; that is {d:.1f}")
    why = ground_refusal(battle, unit, *_move_bases(battle, unit, action, d))
    need(not why, f"{unit.name} cannot go there: {why}")


def _move_bases(battle, unit, action, d: float) -> tuple:
    """The bases a move's ground is judged between: pivoted to the line of march where
    the unit stands (or, turning on the spot, to its new facing), and at the end."""
    if d > 1e-9:
        start = footprint(battle, unit, facing=bearing(unit.pos, action.to))
    else:
        start = footprint(battle, unit, facing=action.facing)
    return start, footprint(battle, unit, x=action.to[0], y=action.to[1], facing=action.facing)


def surely_refused_by_units(battle, action) -> bool:
    """Would check_move_unit refuse this MoveUnit because another unit stands in its way
    (ground_refusal's units part, `units_refusal`, kept for the check to ask again)? A
    first look for the commander: the ground's part (its memo misses build the swept
    hull) is left for the moves no unit refuses. False: "maybe not"."""
    unit = battle.units.get(action.unit)
    if unit is None or unit.eliminated:
        return False
    d = distance(unit.pos, action.to)
    return bool(units_refusal(battle, unit, *_move_bases(battle, unit, action, d)))


def lands_on_another(battle, unit, to, facing) -> bool:
    """Would the move end on another unit's base (ground_refusal refuses it)? The answer
    of `spatial.lands_on` (a live base within 10 inches that the end overlaps)."""
    return landing(battle, unit, to)(to, facing)


def landing(battle, unit, far):
    """`lands_on_another` for ends on the line from the unit's centre to `far` (give or
    take a hundredth of an inch: ends rounded to 0.01), as a function (to, facing) ->
    bool: the commander asks up to four ends at up to three facings along one line, so
    the bases that could answer are gathered once, on the first ask, by one index scan:
    a base an end overlaps has its centre within both half-diagonals (+ 1e-6) of the
    end's (overlap's own first look), so within the unit's own and the largest (+ 0.01)
    of the line. Each end then asks those few, in plain floats, as lands_on does."""
    gathered: list = []

    def lands(to, facing) -> bool:
        end = footprint(battle, unit, x=to[0], y=to[1], facing=facing)
        if not gathered:
            half = math.hypot(end.frontage, end.depth) / 2
            reach = half + largest_half(battle) + 0.01 + 1e-6
            gathered.append([(o, footprint(battle, o)) for o in spatial.unit_grid(battle).along(
                unit.pos, far, reach) if o.id != unit.id])
        return any(distance(o.pos, to) <= 10 and overlap(end, fp) for o, fp in gathered[0])
    return lands


DEEP = 0.01     # inches inside a base the path of the centre must run to be "through" it


def surely_blocked(battle, unit, to, start=None, ignore=()) -> bool:
    """Does the straight path of the unit's centre to `to` run through another unit's
    base (at least DEEP inside it), one it may not pass through (an enemy; a friend,
    unless either is skirmishers)? Then ground_refusal refuses the move whatever its
    facing: the swept ground holds a disc of the mover's inner radius about every point
    of that path, so it shares at least pi * DEEP^2 (three times the 1e-4 square inches
    of Sweep.crosses) with that base. A cheap first look for the commander; False means
    only "maybe not". `start`: from there rather than where the unit stands (a charge's
    path from a staging spot); `ignore`: units the check passes over (its target).
    A move from where the unit stands is also refused when its pivot at the start
    clips such a base (`pivot_blocked`). The path is asked first: the answer is
    either's, and the pivot's clipping costs more than the path's scan (a unit in a
    queue behind a friend is refused by the path alone)."""
    pivot = start is None and not ignore
    start = unit.pos if start is None else start
    if distance(start, to) < 1e-9:
        return False
    mover = footprint(battle, unit)
    if min(mover.frontage, mover.depth) / 2 >= DEEP:
        skirmishers = utype(unit) == "skirmishers"
        for o in spatial.unit_grid(battle).along(start, to, largest_half(battle) + 1e-6):
            if o.id == unit.id or o.id in ignore or (o.side == unit.side and (
                    skirmishers or utype(o) == "skirmishers")):
                continue
            if _through(start, to, footprint(battle, o)):
                return True
    return pivot and pivot_blocked(battle, unit, to)


def surely_blocked_each(battle, unit, tos):
    """surely_blocked(battle, unit, to) for each `to` in turn (a generator: ask only as
    far as needed), with one index scan for every path from where the unit stands: the
    paths' centres within the scan's margin of any of them lie within that margin and
    the farthest gap between a path and the longest of them of the longest one (each
    path starts where it starts: a point of one lies within the gap of its end from
    the longest, by convexity), so that one scan holds each path's units, and the
    answer of each is `any` over them (no order). The path first, the pivot only for a
    path left open, as surely_blocked asks them."""
    start = unit.pos
    half = largest_half(battle)
    mover = footprint(battle, unit)
    skirmishers = utype(unit) == "skirmishers"
    far = max(tos, key=lambda to: distance(start, to))
    slack = max(_gap(to, start, far) for to in tos) + 1e-6
    deep = min(mover.frontage, mover.depth) / 2 >= DEEP
    near = None
    for to in tos:
        if distance(start, to) < 1e-9:
            yield False
            continue
        if deep:
            if near is None:
                near = [footprint(battle, o) for o in spatial.unit_grid(battle).along(
                    start, far, half + 1e-6 + slack)
                    if not (o.id == unit.id or (o.side == unit.side and (
                        skirmishers or utype(o) == "skirmishers")))]
            if any(_through(start, to, fp) for fp in near):
                yield True
                continue
        yield pivot_blocked(battle, unit, to)


def _gap(p, a, b) -> float:
    """The distance from point p to segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else min(max(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2, 0.0), 1.0)
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


PIVOT_AREA = 2e-4   # square inches the pivoted base must share: twice Sweep.crosses' 1e-4


def pivot_blocked(battle, unit, to) -> bool:
    """Does the unit's base, pivoted where it stands to face `to` (check_move_unit's
    `moving`, the first base of the swept ground), share more than PIVOT_AREA with a
    base it may not pass (an enemy; a friend, unless either is skirmishers)? The hull
    of the move holds that base, so `Sweep.crosses` finds more than its 1e-4 shared
    and ground_refusal refuses the move whatever its final facing (units standing in
    line clip their neighbours when they wheel). The neighbour is among ground_refusal's
    `_near_path` units: its centre lies within both half-diagonals of the path's start
    and, asked here too, within the move's length + 10 of its end. A first look for the
    commander, asked once per distance rather than per facing; False: "maybe not"."""
    d = distance(unit.pos, to)
    if d < 1e-9:
        return False
    near = _pivot_neighbours(battle, unit)
    if not near:
        return False
    moving = footprint(battle, unit, facing=bearing(unit.pos, to))
    m = _frame(moving)
    for o, frame in near:
        if distance(o.pos, to) > d + 10:
            continue                       # (not among _near_path's units)
        if convex.area_above(m, moving.x, moving.y, frame, o.x, o.y, PIVOT_AREA):
            return True
    return False


def _pivot_neighbours(battle, unit) -> list:
    """[(unit, its base's frame)] of the bases the unit may not pass whose centre lies
    within both half-diagonals of its own (any pivot of its base can meet only these),
    once per battle version for the very unit record."""
    def build():
        skirmishers = utype(unit) == "skirmishers"
        own = footprint(battle, unit)
        reach = math.hypot(own.frontage, own.depth) / 2 + largest_half(battle) + 1e-6
        return [(o, _frame(footprint(battle, o)))
                for o in spatial.unit_grid(battle).within(unit.pos, reach)
                if o.id != unit.id and not (o.side == unit.side and (
                    skirmishers or utype(o) == "skirmishers"))]
    return spatial.memo(battle, "d3.pivot_near", unit.id, (unit,), build)


def _through(a, b, fp) -> bool:
    """Does segment a-b run through the base shrunk by DEEP on every side? (The two
    axes' slabs clip the segment's parameter range [0, 1]; unrolled, the clip's min and
    max as comparisons: the same floats.)"""
    hd, hf = fp.depth / 2 - DEEP, fp.frontage / 2 - DEEP
    if hd <= 0:
        return False
    fx, fy = heading(fp.facing)
    ax, ay, bx, by = a[0] - fp.x, a[1] - fp.y, b[0] - fp.x, b[1] - fp.y
    lo, hi = 0.0, 1.0
    p0 = ax * fx + ay * fy                  # along the facing: within the half depth
    dp = bx * fx + by * fy - p0
    if abs(dp) < 1e-12:
        if abs(p0) > hd:
            return False
    else:
        t0, t1 = (-hd - p0) / dp, (hd - p0) / dp
        if t1 < t0:
            t0, t1 = t1, t0
        lo = t0 if t0 > lo else lo
        hi = t1 if t1 < hi else hi
        if lo > hi:
            return False
    if hf <= 0:
        return False
    p0 = ax * -fy + ay * fx                 # across it: within the half frontage
    dp = bx * -fy + by * fx - p0
    if abs(dp) < 1e-12:
        return abs(p0) <= hf
    t0, t1 = (-hf - p0) / dp, (hf - p0) / dp
    if t1 < t0:
        t0, t1 = t1, t0
    return (t0 if t0 > lo else lo) <= (t1 if t1 < hi else hi)


def surely_no_charge_path(battle, unit, target, at, facing) -> bool:
    """Would check_charge_path(battle, unit, target, at, facing) surely refuse? When
    the contact point's base would stand on another unit (never the target: charge_plan
    keeps off it) or the path to it runs through one (surely_blocked, the target aside);
    a refused charge_plan answers itself. A first look for the commander's look-ahead:
    the costly ground test is left for the paths still open. Beyond the charge's
    reach it is refused too: the contact point, where the bases are within EPS, lies
    within both half-diagonals (+ EPS) of the target's centre, so a target farther than
    that beyond a move needs no contact point; a contact point beyond a move is the
    check's own refusal (its very floats). False: "maybe not"."""
    mover, aim = footprint(battle, unit), footprint(battle, target)
    if distance(at, target.pos) - (math.hypot(mover.frontage, mover.depth) + math.hypot(
            aim.frontage, aim.depth)) / 2 - 0.01 > MOVE["cavalry"] + 1e-6:
        return True
    try:
        spot, way = charge_plan(battle, unit, target, at, facing)
    except IllegalAction:
        return True
    if distance(at, spot) > MOVE["cavalry"] + 1e-6:
        return True
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    return spatial.lands_on(battle, unit, end, footprint) or \
        surely_blocked(battle, unit, spot, start=at, ignore=(target.id,))


def resolve_move_unit(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    events: list = []
    battle.update_unit(unit.id, moved=2)
    if not activate(battle, unit, "move", dice, events, action):
        return events
    x, y = float(action.to[0]), float(action.to[1])
    battle.update_unit(unit.id, x=x, y=y, facing=action.facing % 360)
    events.append(UnitMoved(unit.name, (round(x, 1), round(y, 1)), action.facing,
                            distance(unit.pos, (x, y))))
    return events


def charge_plan(battle, unit, target, at=None, facing=None):
    """(contact point, bearing) for a charge, or IllegalAction why not; `at`/`facing`
    ask the same of a spot the unit is not yet on (the commander's look-ahead).
    Remembered until the battle next changes, for these very unit records: the
    look-ahead's first look and the check, the commander's legal(), the odds and the
    session's check all ask it of the same charge."""
    pos = unit.pos if at is None else at
    face = unit.facing if facing is None else facing
    return kept_for(battle, "d3.charge_plans", (unit.id, target.id, pos, face), unit, target,
                    lambda: _charge_plan(battle, unit, target, pos, face))


def _charge_plan(battle, unit, target, pos, facing):
    way = round(bearing(pos, target.pos)) % 360
    need(angle_between(way, facing) <= CHARGE_TURN + 1e-6,
         f"{target.name} is more than {CHARGE_TURN} degrees off {unit.name}'s front")
    fp = footprint(battle, unit, x=pos[0], y=pos[1], facing=way)
    spot = contact_point(fp, footprint(battle, target), way)
    need(spot is not None and not overlap(fp.moved(*spot, way), footprint(battle, target)),
         f"{unit.name} cannot reach {target.name} straight ahead")
    return spot, way


def check_charge(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(utype(unit) == "cavalry", "only cavalry enter hand-to-hand combat")
    _can_act(battle, unit)
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated and target.side != unit.side,
         f"{action.target!r} is not an enemy unit")
    need(not engaged(battle, target), f"{target.name} is already charged: one attacker each")
    check_charge_path(battle, unit, target)


def check_charge_path(battle, unit, target, at=None, facing=None) -> None:
    """The geometry of a charge (reach, the 45-degree turn, the ground), from where the
    unit stands or from a spot `at` it might reach first."""
    spot, way = charge_plan(battle, unit, target, at, facing)
    pos = unit.pos if at is None else at
    d = distance(pos, spot)
    need(d <= MOVE["cavalry"] + 1e-6, f"{target.name} is {d:.1f} inches away; cavalry "
         f"charge {MOVE['cavalry']}")
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    start = footprint(battle, unit, x=pos[0], y=pos[1], facing=way)
    why = ground_refusal(battle, unit, start, end, ignore=(target.id,), charging=True)
    need(not why, f"{unit.name} cannot charge {target.name}: {why}")


def resolve_charge(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    battle.update_unit(unit.id, moved=2)
    if not activate(battle, unit, "move", dice, events, action):
        return events
    spot, way = charge_plan(battle, unit, target)
    battle.update_unit(unit.id, x=spot[0], y=spot[1], facing=way)
    battle.mark_unit(unit.id, charging=target.id)
    events.append(ChargeMade(unit.name, target.name, ""))
    return events


def check_move_leader(battle, action) -> None:
    leader, d = check_ride(battle, action, GENERAL_MOVE)
    bf = battle.battlefield
    if threatened_general(battle, leader):
        x, y = float(action.to[0]), float(action.to[1])
        at_edge = min(x, y, bf.width - x, bf.height - y) <= 0.5
        enemies = [e.pos for e in battle.live_units(battle.enemy_of(leader.side))]
        farther = min(distance(action.to, e) for e in enemies) > \
            min(distance(leader.pos, e) for e in enemies)
        need((d >= GENERAL_MOVE - 0.5 or at_edge) and farther,
             f"{leader.name} has the enemy within {GENERAL_DANGER} inches: he must ride "
             f"{GENERAL_MOVE} inches away")


def resolve_move_leader(battle, action, dice) -> list:
    leader = battle.leaders[action.leader]
    battle.update_leader(leader.id, x=float(action.to[0]), y=float(action.to[1]), moved=True)
    return [LeaderMoved(leader.name, (round(action.to[0], 1), round(action.to[1], 1)))]


def generals_to_flee(battle, side: str) -> list:
    return [l for l in battle.live_leaders(side) if not l.moved and threatened_general(battle, l)]

