"""Charges: declaring one, the target's answer, and the charger's move into contact.

A charge is a full-rate straight move at an enemy in the forward arc, ending square to
the line of advance with the bases touching. The target answers at once: skirmishers
in the open flee a full move and are disordered; a battery gets one canister shot and
its crew may shelter with a friend within 2 inches; any other unit checks morale on
the Charged column (one roll on the Rally column first if it is disordered, the same
roll read in the Charged column if it stands). Generals in the charger's path shelter
with a friend within 2 inches or are overrun.
"""
from __future__ import annotations

import math

from shapely.geometry import Point

from ...actions import need
from ...errors import IllegalAction
from ...game_actions import Charge
from ...events import FormationChanged, UnitMoved, declare_event
from ...contact import contact_point, least_advance
from ...footprint import (EPS, Sweep, angle_between, area_above, bearing, box, distance,
                          gap_above, heading, inside, overlap, segment, surely_apart, swept,
                          travel)
from ...model.forces import mark
from . import ground
from .fire import Shot, shoot
from .losses import moved_leaders, overrun_general, retreat
from .morale import column_table, modifiers, check
from .recall import checked, recall
from .moves import ground_refusal, own_unit, terrain_between
from .state import (arm, attached_leaders, engaged, footprint, is_skirmish, move_rate,
                    near_the_move, near_units, unit_gap, base_gap)
from .tables import (CLOSE_CANISTER, DIFFICULT_AREAS, MORALE_MAX, MORALE_MIN, SHELTER_REACH,
                     SHOTS_PER_BATTERY)

ChargeDeclared = declare_event("ChargeDeclared", "{unit} charges {target}: {outcome}",
                               unit=str, target=str, outcome=str)
CrewSheltered = declare_event("CrewSheltered", "{unit}'s crew shelter with {friend}",
                              unit=str, friend=str)


def charge_path(battle, unit, target):
    """(contact point, facing, cost, rate) for a charge, or IllegalAction why not
    (remembered until the battle changes: the check, the odds and the charge ask it)."""
    return recall(battle, "featherstone.charge_path", (unit.id, target.id), (unit, target),
                  lambda: _charge_path(battle, unit, target))


def _charge_path(battle, unit, target):
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    arc = battle.option("forward_arc", 45)
    # the path is geometry and ground alone: kept across versions while neither base moves
    spot, way, cost = ground.kept(
        battle, "charge_path", (unit.id, unit.name, target.id, target.name, fp, tfp, arc),
        lambda: _contact(battle, unit, target, fp, tfp, arc))
    rate = move_rate(unit) * mark(unit, "allow", 1)
    return spot, way, cost, rate


def _contact(battle, unit, target, fp, tfp, arc):
    """(contact point, facing, cost) of the charge from base fp at base tfp, or why not:
    read off the two bases, the forward arc and the ground only."""
    need(angle_between(bearing(fp.front_centre(), target.pos), unit.facing) <= arc + 1e-6,
         f"{target.name} is not in {unit.name}'s forward arc")
    way = round(bearing(unit.pos, target.pos)) % 360     # facings are whole degrees
    spot = contact_point(fp.moved(unit.x, unit.y, way), tfp, way)
    need(spot is not None, f"{unit.name} cannot reach {target.name} in a straight line")
    end = fp.moved(spot[0], spot[1], way)
    need(not overlap(end, tfp), f"{unit.name} has no room to turn and charge {target.name}")
    extra, refusal, _ = terrain_between(battle, unit.pos, spot) \
        if distance(unit.pos, spot) > 1e-9 else (0.0, "", False)
    need(not refusal, refusal)
    return spot, way, travel(fp, end) + extra


def surely_too_far(battle, unit, target) -> bool:
    """Is the target certainly beyond the unit's charge (check_charge would refuse it)?
    A cheap first look for the automatic commander, which asks of every enemy near.

    The charger's base, turned toward the target, must advance at least its gap to the
    target's base (less the EPS of touching) before the bases meet; the charge costs at
    least that advance (the farthest corner's travel is no less than the centre's), and
    may cost at most the rate. One gap (or none) instead of charge_path's bisection.
    After the gap, _surely_beyond: the wheel and the least advance to contact alone
    (a charge at an enemy off its line costs more than the gap: its flank wheels)."""
    rate = move_rate(unit) * mark(unit, "allow", 1)
    way = round(bearing(unit.pos, target.pos)) % 360
    fp = footprint(battle, unit)
    start = fp.moved(unit.x, unit.y, way)
    tfp = footprint(battle, target)
    slack = rate + 1e-6 + EPS + 1e-6          # the check's tolerance, touching, rounding
    if surely_apart(start, tfp, slack):
        return True
    # the gap by the bases' separating axes when they are certain of it (most), else
    # shapely's (kept across versions)
    far = gap_above(start, tfp, slack)
    if far is None:
        far = base_gap(battle, start, tfp) > slack
    if far:
        return True
    # (the bases' geometry alone, kept across versions as the gap and the path are)
    return ground.kept(battle, "beyond", (fp, tfp, way, rate),
                       lambda: _surely_beyond(fp, start, tfp, way, rate))


def _surely_beyond(fp, start, tfp, way: float, rate: float) -> bool:
    """Does the charge's wheel and advance alone surely cost more than `rate`? The
    check's cost is travel(fp, end) (plus ground), end being `start` (the base turned
    to `way`) advanced d along `way` to the contact point, d at least
    contact.least_advance. Each corner goes w + d*v (w: its wheel, v: the heading), at
    least |w + lo*v| for every d >= lo when w.v + lo >= 0, else at least its offset
    across the path |w x v|; the farthest-going corner's travel is the cost."""
    lo = least_advance(start, tfp, way)
    if lo is None:
        return False
    vx, vy = heading(way)
    worst = 0.0
    for (ax, ay), (bx, by) in zip(fp.corners(), start.corners()):
        wx, wy = bx - ax, by - ay
        if wx * vx + wy * vy + lo >= 0:
            worst = max(worst, math.hypot(wx + lo * vx, wy + lo * vy))
        else:
            worst = max(worst, abs(wx * vy - wy * vx))
    return worst > rate + 1e-6 + 1e-5          # the check's tolerance, and rounding


def surely_in_the_way(battle, unit, target) -> bool:
    """Does the unit last found in the way of this charge (by _path_refusal, in this
    battle or an earlier version of it) stand in the way of it now, as _path_refusal
    judges it (so check_charge refuses the charge)? A first look for the commander,
    which asks every turn of charges a line of friends stands before: the one unit's
    test, not every unit's near the path. False means only "maybe not"."""
    oid = battle.kept("featherstone.in_the_way", dict).get((unit.id, target.id))
    o = battle.units.get(oid) if oid is not None else None
    if o is None or o.eliminated or o.id in (unit.id, target.id):
        return False
    try:
        spot, way, _, _ = charge_path(battle, unit, target)
    except IllegalAction:
        return False                     # (refused anyway: the check says why)
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    # _path_refusal asks the units whose centre is within this of the charger's
    if distance(o.pos, unit.pos) > distance(unit.pos, end.centre) + 12:
        return False
    if o.side == unit.side and battle.option("pass_through_friends") and \
            not on_friend(end, footprint(battle, o)):
        return False
    return Sweep(footprint(battle, unit), end).crosses(footprint(battle, o))


def _check_charge(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(arm(unit) in ("infantry", "cavalry"), "only foot and horse charge, not artillery")
    need(unit.moved == 0 and not mark(unit, "charging"), f"{unit.name} has already moved")
    need(not engaged(battle, unit), f"{unit.name} is locked in a melee")
    need(unit.formation not in ("square", "march_column"),
         f"{unit.name} cannot charge in {unit.formation.replace('_', ' ')}")
    need(mark(unit, "allow", 1) > 0, f"{unit.name} may not move this turn (its rally result)")
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated and target.side != unit.side,
         f"{action.target!r} is not an enemy unit")
    need(not (arm(unit) == "infantry" and arm(target) == "cavalry"),
         "infantry may not charge cavalry")
    need(not mark(target, "sheltered"), f"{target.name}'s crew have left the gun")
    spot, way, cost, rate = charge_path(battle, unit, target)
    need(cost <= rate + 1e-6, f"{target.name} is {cost:.1f} inches of charge away; "
         f"{unit.name} charges {rate:g} (one move)")
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    why = _path_refusal(battle, unit, target, end)
    need(not why, f"{unit.name} cannot charge {target.name}: {why}")


check_charge = checked(_check_charge)     # asked again and again of one battle version


def on_friend(end, fp) -> bool:
    """Would the charger's base at `end` stand on the friend's base fp (with
    pass_through_friends, the only friend in the way)? The shapes' common area above
    1e-4 square inches, as shapely measures it; plain arithmetic first (bases whose
    circles are apart share none; footprint.area_above answers only with a margin far
    above shapely's rounding, so it says what shapely would), the shapes for the rest."""
    if surely_apart(end, fp, 0.0):
        return False
    sure = area_above(end, fp, 1e-4)
    if sure is not None:
        return sure
    return end.polygon().intersection(fp.polygon()).area > 1e-4


def _path_refusal(battle, unit, target, end) -> str:
    start = footprint(battle, unit)
    sweep = Sweep(start, end)
    # the units near_units finds within this of the charger, less those whose base is
    # surely clear of the ground the charge passes over (sweep.crosses is false)
    for o in near_the_move(battle, unit, end, start, distance(unit.pos, end.centre) + 12,
                           unit.pos):
        if o.id in (unit.id, target.id):
            continue
        if o.side == unit.side and battle.option("pass_through_friends") and \
                not on_friend(end, footprint(battle, o)):
            continue
        if sweep.crosses(footprint(battle, o)):
            # remembered for the commander's first look (surely_in_the_way)
            battle.kept("featherstone.in_the_way", dict)[(unit.id, target.id)] = o.id
            return f"{o.name} is in the way"
    bf = battle.battlefield
    if not inside(end, bf.width, bf.height):
        return "it would leave the table"
    return ""


def resolve_charge(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    spot, way, cost, rate = charge_path(battle, unit, target)
    battle.mark_unit(unit.id, charge_strength=unit.hits,
                     used=round(min(cost / rate, 1.0), 6) if rate else 1.0,
                     impetuous=battle.state.turn if arm(unit) == "cavalry" else None,
                     must_charge=None)
    battle.update_unit(unit.id, moved=2)
    outcome = _answer(battle, unit, target, dice, events)
    target = battle.units[target.id]
    unit = battle.units[unit.id]
    if unit.eliminated or outcome == "stopped by canister":
        return [ChargeDeclared(unit.name, target.name, outcome)] + events
    if outcome in ("fled", "broke", "fell back") and not target.eliminated:
        # the charger follows to where the target stood; it is caught if still in reach
        caught = _reachable(battle, unit, target)
        if caught is not None and outcome == "fled":
            spot, way = caught
            battle.mark_unit(target.id, reaction="caught")
            battle.mark_unit(unit.id, charging=target.id)
            outcome = "fled but was caught"
    elif outcome != "sheltered" and not target.eliminated:
        again = charge_path(battle, unit, target)          # the target may have formed square
        spot, way = again[0], again[1]
        battle.mark_unit(unit.id, charging=target.id)
    end = footprint(battle, unit, x=spot[0], y=spot[1], facing=way)
    if _path_refusal(battle, unit, target, end) == "" and not ground_refusal(
            battle, unit, end).startswith("it would stand"):
        _generals_in_path(battle, unit, end, dice, events)
        moved_leaders(battle, unit, spot[0], spot[1])
        battle.update_unit(unit.id, x=spot[0], y=spot[1], facing=round(way) % 360)
        events.append(UnitMoved(unit.name, (round(spot[0], 1), round(spot[1], 1)),
                                round(way) % 360, cost))
    else:
        battle.mark_unit(unit.id, charging=None)
    from .losses import settle
    settle(battle, events)
    return [ChargeDeclared(unit.name, target.name, outcome)] + events


def _reachable(battle, unit, target):
    try:
        spot, way, cost, rate = charge_path(battle, unit, target)
    except IllegalAction:
        return None
    return (spot, way) if cost <= rate + 1e-6 else None


def _answer(battle, unit, target, dice, events: list) -> str:
    """The target's response; marks `reaction` on it. Returns a word for the log."""
    t_arm = arm(target)
    if t_arm == "artillery":
        shot = canister_at(battle, unit, target)
        if shot is not None:
            lost = shoot(battle, target, unit, shot, dice, events)
            from .charge_fire import charger_reacts      # casualties while charging
            if lost and charger_reacts(battle, battle.units[unit.id], target, lost, dice, events):
                return "stopped by canister"
        friend = shelter_for(battle, target)
        if friend is not None:
            battle.mark_unit(target.id, sheltered=friend.id)
            events.append(CrewSheltered(target.name, friend.name))
            return "sheltered"
        battle.mark_unit(target.id, reaction="stand")
        return "the gunners stand"
    from ...table_terrain import table_terrain
    in_cover = table_terrain(battle.battlefield).covered(
        footprint(battle, target).polygon(), DIFFICULT_AREAS) >= 0.5
    if is_skirmish(target) and not in_cover and not mark(target, "stand_ground"):
        retreat(battle, target.id, unit.pos, evade_moves(battle, unit, target), "away",
                "evades", events, dice=dice)
        if not battle.units[target.id].eliminated:
            battle.update_unit(target.id, disordered=True, moved=2)
        return "fled"
    word, reaction, disorder, square = _charged_result(battle, unit, target, dice, events)
    if word in ("dispersed",):
        return word
    if reaction is None:                     # broke or fell back before the charge
        how = {"broke": ("breaks", 2, "away"), "fell back": ("falls back", 1, "enemy"),
               "routs": ("routs", 2, "away")}[word]
        if word == "routs":
            lost = dice.d6(f"rout losses: {target.name}")
            from .losses import take_casualties
            if take_casualties(battle, target.id, lost, events, dice=dice):
                return "broke"
        retreat(battle, target.id, unit.pos, how[1], how[2], how[0], events, dice=dice)
        _disorder(battle, target.id)
        return "broke" if word == "routs" else word
    if disorder:
        _disorder(battle, target.id)
    if square:
        battle.update_unit(target.id, formation="square")
        events.append(FormationChanged(target.name, "square"))
    battle.mark_unit(target.id, reaction=reaction)
    return {"waver": "wavers", "stand": "stands", "first_fire": "stands and fires first",
            "counter": "counter-charges", "square": "forms square"}[reaction]


def canister_at(battle, unit, target):
    """The one shot a charged battery gets at its charger (canister at horse, close
    canister at foot), or None when it has no rounds or no gunners left."""
    if mark(target, "shots", 0) >= SHOTS_PER_BATTERY or target.hits <= 0:
        return None
    band_close = arm(unit) == "infantry"
    from .losses import save_for
    save, bonus = save_for(battle, unit, True, target.pos)
    return Shot(True, "canister", CLOSE_CANISTER if band_close else 0.0, to_hit=0,
                damage_dice=2 if band_close else 1, save=save, save_bonus=bonus)


def shelter_for(battle, target):
    """The friend within 2 inches a charged battery's crew shelter with (None: they fight)."""
    friends = [u for u in near_units(battle, target.pos, 10, target.side)
               if u.id != target.id and arm(u) != "artillery"
               and unit_gap(battle, u, target) <= SHELTER_REACH]
    return min(friends, key=lambda u: unit_gap(battle, u, target)) if friends else None


def evade_moves(battle, unit, target) -> float:
    """Skirmishers evade "up to their full movement staying more than 2 inches away if
    possible": as far as keeps them 2 inches beyond the charger's reach, at most a move
    (as a fraction of the move `retreat` measures)."""
    from .tables import EVADE_CLEAR
    if battle.option("evade") == "full":
        return 1.0
    spot, way, cost, rate = charge_path(battle, unit, target)
    full = max(move_rate(target), move_rate(target, "line"))
    want = max(rate - cost, 0.0) + EVADE_CLEAR + 0.05
    return min(1.0, want / full) if full else 0.0


def answers(battle, unit, target) -> list:
    """[(face, score column, score)] the target's one morale roll is read on: a disordered
    unit due its rally check (it took casualties this turn) reads the Rally column and, if
    it stands, the same score on the Charged column; any other reads the Charged column
    (one that already failed its rally this turn does not roll on the Rally column again)."""
    due = target.disordered and mark(target, "checked") != battle.state.turn
    column = "rally" if due else "charged"
    mod = sum(v for _, v in modifiers(battle, target, column))
    return [(f, column, max(MORALE_MIN, min(MORALE_MAX, f + mod))) for f in range(1, 7)]


def charged_reread(battle, target, face: int, score: int) -> int:
    """The score read on the Charged column after a Rally-column roll that stood: the same
    score (default, the Rally column's -1 included), or the same die with the Charged
    column's own modifiers (option charged_reread = die: the -1 is "Rally only")."""
    if battle.option("charged_reread") != "die":
        return score
    mod = sum(v for _, v in modifiers(battle, target, "charged"))
    return max(MORALE_MIN, min(MORALE_MAX, face + mod))


def reaction_for(battle, unit, target, column: str, score: int, charged=None):
    """(word, reaction, disorder it, form square) for a score read on `column` (the Rally
    column's failures end it there; otherwise the same score on the Charged column)."""
    if column == "rally":
        r = column_table(battle, "rally")[score]
        if r == "disperse":
            return "dispersed", None, False, False
        if r == "rout":
            return "routs", None, True, False
        if r == "fall_back":
            return "fell back", None, True, False
    result = column_table(battle, "charged")[score if charged is None else charged]
    if result == "break":
        return "broke", None, True, False
    if result == "fall_back":
        return "fell back", None, True, False
    t_arm, cav_charge = arm(target), arm(unit) == "cavalry"
    reaction = {"waver": "waver", "waver_steady": "waver", "stand": "stand",
                "stand_first_fire": "first_fire"}.get(result)
    if result == "counter":
        if t_arm == "cavalry" and cav_charge:
            reaction = "counter"
        elif t_arm == "infantry" and not cav_charge and mark(target, "counter_seven"):
            reaction = "counter"             # the player's choice (CounterCharge)
        else:                            # "Defending unit may fire first" on a 7, in a
            reaction = "first_fire"      # square or not (issue 15)
    square = t_arm == "infantry" and cav_charge and (
        result in ("stand", "stand_first_fire") or (
            result == "counter" and battle.option("seven_against_cavalry") == "square"))
    if reaction == "first_fire" and (target.moved or t_arm != "infantry"):
        reaction = "stand"               # first fire: foot that did not move (horse does not
                                         # shoot: it meets the charge)
    return "", reaction, result == "waver", square   # waver_steady: not disordered


def _charged_result(battle, unit, target, dice, events):
    from .morale import LABELS, MoraleChecked, apply_rally, check
    from .tables import CHARGED
    rows = answers(battle, unit, target)
    column = rows[0][1]
    if column == "rally":
        score, result, face = check(battle, target, "rally", dice, events)
        battle.mark_unit(target.id, checked=battle.state.turn)
        if result == "disperse":
            apply_rally(battle, target, result, dice, events)
            return "dispersed", None, False, False
        if result.startswith("rally"):
            battle.update_unit(target.id, disordered=False)
        again = charged_reread(battle, target, face, score)
        if result not in ("rout", "fall_back"):
            events.append(MoraleChecked(target.name, "charged", face, "the same roll", again,
                                        LABELS.get(CHARGED[again], CHARGED[again])))
    else:
        score, _, _ = check(battle, target, "charged", dice, events)
        again = None
    word, reaction, disorder, square = reaction_for(battle, unit, battle.units[target.id],
                                                    column, score, again)
    if reaction == "counter":
        battle.mark_unit(target.id, impetuous=battle.state.turn)
    return word, reaction, disorder, square


def _disorder(battle, uid: str) -> None:
    if not battle.units[uid].eliminated:
        battle.update_unit(uid, disordered=True)


def _generals_in_path(battle, unit, end, dice, events: list) -> None:
    """Unattached enemy generals the charge passes over shelter or are overrun."""
    start = footprint(battle, unit)
    x0, y0, x1, y1 = box(start, end)            # the hull of both bases lies in their box
    enemy = battle.enemy_of(unit.side)
    hull = attached = None
    for l in battle.live_leaders(enemy):
        if not (x0 <= l.x <= x1 and y0 <= l.y <= y1):
            continue                            # outside the box: outside the hull
        hull = hull or swept(start, end)
        if not hull.contains(Point(l.x, l.y)):
            continue
        if attached is None:                    # the first one over: before any has moved
            attached = {a.id for u in battle.live_units(enemy) if distance(u.pos, unit.pos) < 40
                        for a in attached_leaders(battle, u)}
        if l.id in attached:
            continue
        friends = [u for u in near_units(battle, l.pos, 8, enemy)
                   if footprint(battle, u).polygon().distance(Point(l.x, l.y)) <= SHELTER_REACH
                   and not hull.intersects(footprint(battle, u).polygon())]
        if friends:
            f = friends[0]
            battle.update_leader(l.id, x=f.x, y=f.y)
            events.append(CrewSheltered(l.name, f.name))
        else:
            overrun_general(battle, l.id, dice, events)


def must_charge_left(battle, side: str) -> list:
    """Units that rallied on a 7 and still have an enemy within one charge move."""
    out = []
    for u in battle.live_units(side):
        if mark(u, "must_charge") and u.moved == 0:
            for e in near_units(battle, u.pos, move_rate(u) + 8, battle.enemy_of(side)):
                if surely_too_far(battle, u, e):
                    continue                    # the check refuses it (a first look)
                try:
                    check_charge(battle, Charge(u.id, e.id))
                except IllegalAction:
                    continue
                out.append((u, e))
                break
    return out
