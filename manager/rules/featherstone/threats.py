"""Which enemies could charge a unit this turn, and their best chance (issue 15): the
commander's player choices weigh a general's +1 or a counter-charge against these.

`threats` checks each enemy's charge on a copy of the battle where the enemy moves,
after first looks taken for a whole side at once (`_looks`: one numpy pass over every
pair of unit and charger: the centres' distance against the move + 8 and the charge
rate, and the forward arc); `worst_threat` weighs the odds of each charge left.
"""
from __future__ import annotations

import math

import numpy as np

from ...errors import IllegalAction
from ...footprint import EPS, distance
from ...game_actions import Charge
from ...model.forces import mark
from .charge_reach import check_charge, surely_in_the_way, surely_too_far
from .melee_odds import charge_odds
from .recall import recall
from .state import arm, footprint, move_rate
from .nearby import near_units



def charger_good(outcomes: dict) -> float:
    """The charger's chance the charge goes its way: it wins, or the target gives way."""
    return sum(float(v) for k, v in outcomes.items()
               if k == "attacker wins" or k.endswith("(no melee)"))


def _as_enemy(battle, enemy: str):
    c = battle.copy()
    c.set_state(active=enemy)
    return c


def enemy_view(battle, enemy: str):
    """The battle as the enemy would move in it, one copy per battle version (only read:
    who could charge whom; worst_threat marks its own copies)."""
    return battle.cached(("featherstone.enemy_view", enemy), lambda: _as_enemy(battle, enemy))


def threats(battle, unit, arms: tuple = ("infantry", "cavalry")) -> list:
    """Enemy units (of `arms`) that could charge `unit` now (on a copy where the enemy
    moves); remembered until the battle changes (each of the player's choices asks)."""
    every = recall(battle, "featherstone.threats", unit.id, (unit,),
                   lambda: _threats(battle, unit, ("infantry", "cavalry")))
    # (_threats of fewer arms is this list without the others, in the same order)
    return every if set(arms) >= {"infantry", "cavalry"} else [e for e in every
                                                              if arm(e) in arms]


def _threats(battle, unit, arms: tuple) -> list:
    enemy = battle.enemy_of(unit.side)
    view = None
    out = []
    if battle.units.get(unit.id) is unit:
        # the battle's own unit: only the enemies its side's first looks kept for it (in
        # the same order), within the 24 inches near_units measures
        near = [e for e in first_looks(battle, unit.side).get(unit.id, ())
                if distance(e.pos, unit.pos) <= 24]
    else:
        near = near_units(battle, unit.pos, 24, enemy)
    for e in near:
        if arm(e) not in ("infantry", "cavalry") or arm(e) not in arms or e.moved:
            continue
        view = view or enemy_view(battle, enemy)
        if unit_far(view, e, unit) or surely_in_the_way(view, e, unit):
            continue                    # check_charge would refuse it
        try:
            check_charge(view, Charge(e.id, unit.id))
        except IllegalAction:
            continue
        out.append(e)
    return out


def threatened_ids(battle, side: str) -> frozenset:
    """Ids of `side`'s units some enemy could charge by the first looks `threats` takes
    (a superset of the units it names anyone for): an enemy foot or horse unit that has
    not moved, its centre no farther than its move + 8 inches from the unit's
    (unit_far) nor than the 24 inches `_threats` scans, its base's circle within its
    charge rate of the unit's circle (surely_too_far: the turned base has the same
    circle) and the unit's centre in its forward arc (the charge path's first test). One numpy pass for the whole side, with
    SLACK to spare (numpy's distances and angles differ from math's by far less); kept
    for the battle version: the generals' stances ask it of every unit of the side."""
    return frozenset(first_looks(battle, side))


def first_looks(battle, side: str) -> dict:
    """{unit id: the enemies (in live_units order) that pass threatened_ids' first looks
    for it, within 24 inches and SLACK}, for the units with any; kept for the version."""
    return battle.cached(("featherstone.threatened", side), lambda: _threatened(battle, side))


SLACK = 1e-5                 # inches and degrees


def _threatened(battle, side: str) -> dict:
    looks = _looks(battle, side)
    if looks is None:
        return {}
    units, chargers, rows, cols, d = looks
    near: dict = {}                         # (the pairs come unit by unit, in order)
    for i, j, dij in zip(rows, cols, d):
        if dij <= 24 + SLACK:
            near.setdefault(i, []).append(chargers[j])
    return {units[i].id: tuple(es) for i, es in near.items()}


def charge_looks(battle, side: str) -> dict:
    """{id of a `side` unit that may charge: the enemies (in live_units order) that pass
    the first looks of `_looks` for it}: the ones the commander's `_charges` weighs. An
    enemy left out is one `near_units` does not find within the unit's move + 8 inches,
    or that `surely_too_far` passes over, or outside the forward arc where the charge
    path's first test refuses it (so check_charge does). Kept for the battle version."""
    return battle.cached(("featherstone.charge_looks", side),
                         lambda: _charge_looks(battle, side))


def _charge_looks(battle, side: str) -> dict:
    looks = _looks(battle, battle.enemy_of(side))
    if looks is None:
        return {}
    units, chargers, rows, cols, _ = looks
    targets: dict = {}
    for i, j in zip(rows, cols):
        targets.setdefault(j, []).append(units[i])
    return {chargers[j].id: tuple(targets[j]) for j in sorted(targets)}


def _looks(battle, side: str):
    """(side's live units, the enemy foot and horse that have not moved, and for each
    (unit, charger) pair that passes the first looks, in order unit by unit: the unit's
    place, the charger's place, the centres' distance); None if either is empty.
    A charger passes for a unit when its centre is no farther than its move + 8
    inches from the unit's (unit_far; the commander's near_units), its base's circle
    within its charge rate of the unit's circle (surely_too_far: the turned base has
    the same circle) and the unit's centre in its forward arc (the charge path's first
    test); each with SLACK to spare (numpy's distances and angles differ from math's
    by far less). Most pairs stand far apart: the centres' distance is measured, and
    the arc, only for the pairs whose squared distance could pass (a micro-inch to
    spare), the same element-wise arithmetic as over the whole table."""
    chargers = [e for e in battle.live_units(battle.enemy_of(side))
                if arm(e) in ("infantry", "cavalry") and not e.moved]
    units = battle.live_units(side)
    if not chargers or not units:
        return None
    arc = battle.option("forward_arc", 45)
    ex, ey, far, reach, fx, fy, facing, _ = np.array(_look_rows(battle, chargers)).T
    far = far + SLACK
    # surely_too_far: apart when the centres' distance less both half diagonals is more
    # than the rate + 1e-6 + EPS + 1e-6, and surely_apart's own 1e-6
    reach = reach + (3e-6 + EPS + SLACK)
    ux, uy, hd = np.array(_look_rows(battle, units))[:, (0, 1, 7)].T
    dx, dy = ux[:, None] - ex, uy[:, None] - ey
    i, j = np.nonzero(dx * dx + dy * dy <= (far + 1e-6) ** 2)
    d = np.hypot(dx[i, j], dy[i, j])
    keep = (d <= far[j]) & (d - hd[i] <= reach[j])
    i, j, d = i[keep], j[keep], d[keep]
    off = np.abs((np.degrees(np.arctan2(ux[i] - fx[j], -(uy[i] - fy[j]))) % 360 - facing[j])
                 % 360)
    off = np.minimum(off, 360 - off)
    keep = off <= arc + 1e-6 + SLACK
    return units, chargers, i[keep].tolist(), j[keep].tolist(), d[keep].tolist()


def _look_rows(battle, units) -> list:
    """Each unit's floats for _looks: its centre, its move + 8, its charge rate (its
    rally allowance) + its base's half diagonal, its front centre, its facing, that half
    diagonal. Kept per record across versions (battle.kept, as spatial.own_base keeps
    the base: a record is immutable and its base a function of it and the scenario
    info), so a step's units that did not change cost a look-up each."""
    memo = battle.kept("featherstone.look_rows", dict)
    info, out = battle.info, []
    for u in units:
        hit = memo.get(u.id)
        if hit is None or hit[0] is not u or hit[1] is not info:
            f = footprint(battle, u)
            half = math.hypot(f.frontage, f.depth) / 2
            front = f.front_centre()
            hit = memo[u.id] = (u, info, (u.x, u.y, move_rate(u) + 8,
                                          move_rate(u) * mark(u, "allow", 1) + half,
                                          front[0], front[1], float(u.facing), half))
        out.append(hit[2])
    return out


def unit_far(view, e, unit) -> bool:
    return distance(e.pos, unit.pos) > move_rate(e) + 8 or surely_too_far(view, e, unit)


def worst_threat(battle, unit, marks: dict | None = None, chargers=None) -> float:
    """The best chance any enemy charger has against `unit` (with `marks` set on it)."""
    best = 0.0
    for e in chargers if chargers is not None else threats(battle, unit):
        try:
            best = max(best, threat_chance(battle, unit, e, marks))
        except IllegalAction:
            continue
    return best


def threat_chance(battle, unit, e, marks: dict | None = None) -> float:
    """Enemy `e`'s chance its charge at `unit` goes its way (with `marks` set on the
    unit), remembered until the battle changes: counter_choice and commit_for_defence
    ask it of the same charges."""
    key = (e.id, unit.id, tuple(sorted((marks or {}).items())))
    return recall(battle, "featherstone.threat", key, (e, unit),
                  lambda: _threat_chance(battle, unit, e, marks or {}))


def _threat_chance(battle, unit, e, marks: dict) -> float:
    if marks:
        view = _as_enemy(battle, battle.enemy_of(unit.side))
        view.mark_unit(unit.id, **marks)
    else:
        # charge_odds only reads the battle it is given (it weighs on its own copy): the
        # enemy's view of this version serves, its check of the charge already asked
        view = enemy_view(battle, battle.enemy_of(unit.side))
    # the odds of one charge with other marks on its target share work: support fire
    # reads neither `counter_seven` nor `lend`, each answer's melee never reads
    # `counter_seven` (only reaction_for does, to pick the answer)
    store = battle.cached("featherstone.threat_parts", dict)
    support = store.setdefault(("support", e.id, unit.id), {})
    melees = store.setdefault(("melees", e.id, unit.id, marks.get("lend")), {})
    return charger_good(charge_odds(view, Charge(e.id, unit.id), exact=False,
                                    shared=support, melees=melees, lines=False).outcomes)
