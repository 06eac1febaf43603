"""Charges: declaring one, the target's answer, and the charger's move into contact
(whether it can be made, and its path: charge_reach).

A charge is a full-rate straight move at an enemy in the forward arc, ending square to
the line of advance with the bases touching. The target answers at once: skirmishers
in the open flee a full move and are disordered; a battery gets one canister shot and
its crew may shelter with a friend within 2 inches; any other unit checks morale on
the Charged column (one roll on the Rally column first if it is disordered, the same
roll read in the Charged column if it stands). Generals in the charger's path shelter
with a friend within 2 inches or are overrun.
"""
from __future__ import annotations

from shapely.geometry import Point

from ...errors import IllegalAction
from ...game_actions import Charge
from ...events import FormationChanged, UnitMoved, declare_event
from ...footprint import box, distance, swept
from ...model.forces import mark
from .charge_reach import _path_refusal, charge_path, check_charge, surely_too_far
from .fire import Shot, shoot
from .losses import moved_leaders, overrun_general, retreat
from .morale import column_table, modifiers
from .moves import ground_refusal
from .state import arm, footprint, is_skirmish, move_rate
from .nearby import attached_leaders, near_units, unit_gap
from .tables import (CLOSE_CANISTER, DIFFICULT_AREAS, MORALE_MAX, MORALE_MIN, SHELTER_REACH,
                     SHOTS_PER_BATTERY)

ChargeDeclared = declare_event("ChargeDeclared", "{unit} charges {target}: {outcome}",
                               unit=str, target=str, outcome=str)
CrewSheltered = declare_event("CrewSheltered", "{unit}'s crew shelter with {friend}",
                              unit=str, friend=str)



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
