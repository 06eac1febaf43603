"""The 0-7 morale table: the roll, its modifiers, and the Rally column's results.

One D6 plus modifiers, read between 0 and 7 in the Rally, Charged or Lost Melee
column. Generals attached to the unit always count; a general within 4 inches counts
only when the player uses his influence, and then risks a stray round (a 1 kills him)
unless the unit is more than 8 inches from any enemy and not under threat.
"""
from __future__ import annotations

import math

from ...events import declare_event
from ...footprint import distance, surely_apart
from ...model.forces import mark
from .losses import eliminate, leader_dies, retreat, take_casualties
from .state import arm, footprint, grade
from .nearby import attached_leaders, nearest_enemy, near_units, unit_gap
from .tables import (ARTILLERY_RANGES, ATTACHED_MOD, CHARGED, CLOSE_CANISTER, GENERAL_NEAR,
                     LOST_MELEE, MORALE_MAX, MORALE_MIN, NEAR_MOD, PROFILES, RALLY,
                     SAFE_DISTANCE)

MoraleChecked = declare_event(
    "MoraleChecked", "{unit} checks morale ({column}): {face} {mods} = {score}: {result}",
    unit=str, column=str, face=int, mods=str, score=int, result=str)
UnitRecovered = declare_event("UnitRecovered", "{unit} rallies{by}", unit=str, by=str)
StrayRound = declare_event("StrayRound", "{leader} uses his influence: {outcome}",
                           leader=str, outcome=str)

LABELS = {"disperse": "disperses", "rout": "routs 2 moves and loses D6 figures",
          "fall_back": "falls back 1 move", "no_rally": "no rally, no move",
          "rally_hold": "rallies, no move", "rally_half": "rallies, half move",
          "rally_full": "rallies, full move", "rally_charge": "rallies and must charge",
          "break": "breaks 2 moves", "waver": "wavers, stands in disorder",
          "waver_steady": "wavers, stands", "stand_ground": "stands ground in disorder",
          "stand": "stands (simultaneous melee)", "stand_first_fire": "stands, fires first",
          "counter": "counter-charges, stands or forms square"}


def column_table(battle, column: str) -> dict:
    if column == "rally":
        return RALLY
    if column == "charged":
        if battle.option("morale_table") == "stand_ground":
            return {**CHARGED, 4: "waver_steady"}
        return CHARGED
    table = dict(LOST_MELEE)
    if battle.option("lost_melee_two") == "fall_back":
        table[2] = "fall_back"
    if battle.option("morale_table") == "stand_ground":
        table.update({4: "stand_ground", 5: "stand_ground", 6: "stand_ground", 7: "stand_ground"})
    return table


def in_canister_range(battle, unit, close: bool) -> bool:
    for e in battle.live_units(battle.enemy_of(unit.side)):
        if arm(e) != "artillery":
            continue
        reach = CLOSE_CANISTER if close else ARTILLERY_RANGES[PROFILES[e.kind]["weapon"]][0]
        if distance(e.pos, unit.pos) <= reach + 6 and _gap_within(battle, e, unit, reach):
            return True
    return False


def in_enemy_contact(battle, unit) -> bool:
    return any(_gap_within(battle, e, unit, 0.05)
               for e in near_units(battle, unit.pos, 12, battle.enemy_of(unit.side)))


def _gap_within(battle, e, unit, inches: float) -> bool:
    """unit_gap(battle, e, unit) <= inches: bases whose circles are surely farther apart
    (footprint.surely_apart, 1e-6 to spare) are not measured (most enemies near a unit
    that rallies are not touching it: no gap looked up or worked out for them)."""
    return not surely_apart(footprint(battle, e), footprint(battle, unit), inches) \
        and unit_gap(battle, e, unit) <= inches


def influence_value(battle, leader, attached: bool, chosen: int | None) -> int:
    """A general's modifier: chosen by the player "at the player's whim" (up to +/-1 from
    within 4 inches, +/-2 attached; the full help when he does not say), or read off the
    general's rating (option general_influence = "rating")."""
    if battle.option("general_influence") == "rating":
        return (ATTACHED_MOD if attached else NEAR_MOD)[leader.quality or 3]
    top = 2 if attached else 1
    return top if chosen is None else max(-top, min(top, int(chosen)))


def modifiers(battle, unit, column: str, general=None, influence=None) -> list[tuple[str, int]]:
    mods = []
    g = grade(battle, unit)
    if g:
        mods.append(("guards/elite" if g == 2 else "regulars", g))
    attached = [l for l in attached_leaders(battle, unit) if not mark_leader_barred(battle, l)]
    if attached:
        named = general if general in attached else None
        pick = [(influence_value(battle, l, True, influence if l is named else None), l)
                for l in attached]
        v, best = max(pick, key=lambda t: t[0]) if named is None else \
            (influence_value(battle, named, True, influence), named)
        if v:
            mods.append((f"{best.name} attached", v))
    elif general is None and column != "rally":
        general, influence = committed_general(battle, unit)   # Charged, Lost Melee
    if not attached and general is not None:
        v = influence_value(battle, general, False, influence)
        if v:
            mods.append((f"{general.name} near", v))
    quarters = (unit.max_hits - unit.hits) * 4 // unit.max_hits if unit.max_hits else 0
    if quarters:
        mods.append((f"{quarters * 25}% lost", -quarters))
    if mark(unit, "officer_lost"):
        mods.append(("officer lost", -1))
    if column == "rally":
        close = battle.option("rally_canister_penalty") == "close_canister"
        if in_canister_range(battle, unit, close) or in_enemy_contact(battle, unit):
            mods.append(("canister/contact", -1))
    return mods


def influence_at_risk(battle, unit) -> bool:
    """A general's influence is safe only far (over 8") from any enemy and unthreatened."""
    enemy = nearest_enemy(battle, unit)
    threatened = any(mark(e, "charging") == unit.id
                     for e in battle.live_units(battle.enemy_of(unit.side)))
    return threatened or (enemy is not None and unit_gap(battle, enemy, unit) <= SAFE_DISTANCE)


def may_influence(battle, leader, unit) -> str:
    """Why this general may not lend his influence to the unit ('' when he may)."""
    if leader.eliminated or leader.side != unit.side:
        return f"{leader.name} is not a general of this side"
    if mark_leader_barred(battle, leader):
        return f"{leader.name} escaped an overrun and has no influence this turn"
    fp = footprint(battle, unit)
    # the base lies within half its diagonal of its centre: a general farther than that
    # beyond GENERAL_NEAR is out of reach without measuring to the shape (most are)
    if distance(fp.centre, leader.pos) - math.hypot(fp.frontage, fp.depth) / 2 > \
            GENERAL_NEAR + 1e-6 or fp.polygon().distance(_pt(leader.pos)) > GENERAL_NEAR:
        return f"{leader.name} is more than {GENERAL_NEAR} inches from {unit.name}"
    return ""


def committed_general(battle, unit):
    """(general, influence) the player committed to this unit this turn for a check on the
    Charged or Lost Melee column (CommitGeneral), else (None, None). "+1/0/-1 General
    within 4\" of the unit" is a modifier of every column, "at the player's whim" (issue
    15: only the Rally column took one); the stray-round die follows as on a rally."""
    v = mark(unit, "lend")
    if not v:
        return None, None
    lid, value, turn = str(v).split(":")
    l = battle.leaders.get(lid)
    if int(turn) != battle.state.turn or l is None or may_influence(battle, l, unit):
        return None, None
    return l, int(value)


def mark_leader_barred(battle, leader) -> bool:
    return leader.id in dict(battle.state.marks).get("no_influence", ())


def _pt(xy):
    from shapely.geometry import Point
    return Point(xy)


def check(battle, unit, column: str, dice, events: list, general=None,
          face: int | None = None, influence: int | None = None) -> tuple[int, str, int]:
    """Roll (or reuse `face`) and read the column: (score, result, face)."""
    if general is None and column != "rally" and not attached_leaders(battle, unit):
        general, influence = committed_general(battle, unit)   # Charged, Lost Melee
    near = general is not None and general not in attached_leaders(battle, unit)
    if near and influence_value(battle, general, False, influence) == 0:
        general = None                       # he lends nothing: no risk either
    mods = modifiers(battle, unit, column, general, influence)
    if face is None:
        face = dice.d6(f"morale ({column}): {unit.name}")
    score = max(MORALE_MIN, min(MORALE_MAX, face + sum(v for _, v in mods)))
    result = column_table(battle, column)[score]
    text = " ".join(f"{'+' if v > 0 else '-'}{abs(v)} {k}" for k, v in mods) or "+0"
    events.append(MoraleChecked(unit.name, column.replace("_", " "), face, text, score,
                                LABELS.get(result, result)))
    if near and general is not None and influence_at_risk(battle, unit):
        # "each time they use their influence, roll a die. On a 1 ... kills him": the
        # influence is used (it counts), then the die for the stray round
        if dice.d6(f"stray round: {general.name}") == 1:
            leader_dies(battle, general.id, events, f"a stray round while rallying {unit.name}")
            events.append(StrayRound(general.name, "killed by a stray round"))
        else:
            events.append(StrayRound(general.name, "unhurt"))
    return score, result, face


def apply_rally(battle, unit, result: str, dice, events: list, leader_name: str = "") -> None:
    """Carry out a Rally-column result."""
    uid = unit.id
    battle.mark_unit(uid, checked=battle.state.turn)
    enemy = nearest_enemy(battle, unit)
    away = enemy.pos if enemy else unit.pos
    if result == "disperse":
        eliminate(battle, uid, events, "dispersed", dice=dice)
    elif result == "rout":
        lost = dice.d6(f"rout losses: {unit.name}")
        if not take_casualties(battle, uid, lost, events, dice=dice):
            retreat(battle, uid, away, 2, "away", "routs", events, dice=dice)
            if not battle.units[uid].eliminated:
                battle.mark_unit(uid, allow=0)
    elif result == "fall_back":
        retreat(battle, uid, away, 1, "enemy", "falls back", events, dice=dice)
        if not battle.units[uid].eliminated:
            battle.mark_unit(uid, allow=0)
    elif result == "no_rally":
        battle.mark_unit(uid, allow=0)
    else:
        allow = {"rally_hold": 0, "rally_half": 0.5}.get(result, 1)
        battle.update_unit(uid, disordered=False)
        battle.mark_unit(uid, allow=allow, must_charge=True if result == "rally_charge" else None)
        events.append(UnitRecovered(unit.name, f" under {leader_name}" if leader_name else ""))
        if result == "rally_charge" and battle.option("rally_seven") == "at_once":
            _charge_at_once(battle, uid, dice, events)
    u = battle.units[uid]
    if (not u.eliminated and arm(u) == "cavalry" and result in ("no_rally", "rally_hold")
            and enemy is not None and unit_gap(battle, enemy, u) <= SAFE_DISTANCE
            and mark(u, "impetuous", -9) < battle.state.turn - 1):
        battle.mark_unit(uid, recall=battle.state.turn)


def _charge_at_once(battle, uid: str, dice, events: list) -> None:
    """Rally 7, "Immediately charge enemy if within 1 charge move", read as at once, in
    the rally step (option rally_seven = at_once): the first enemy in reach is charged."""
    from ...game_actions import Charge
    from .charges import must_charge_left, resolve_charge
    for u, e in must_charge_left(battle, battle.units[uid].side):
        if u.id == uid:
            events.extend(resolve_charge(battle, Charge(uid, e.id), dice))
            return


def to_check(battle, side: str) -> list:
    """Disordered units of the side that have not yet taken this turn's rally check."""
    return [u for u in battle.live_units(side)
            if u.disordered and mark(u, "checked") != battle.state.turn]


def rally_odds(battle, action):
    """The chance of each Rally-column result for this check (the influence included)."""
    from fractions import Fraction
    from ...odds import Odds
    unit = battle.units[action.unit]
    general = battle.leaders.get(action.leader) if action.leader else None
    mod = sum(v for _, v in modifiers(battle, unit, "rally", general, action.influence))
    if general is not None and general in attached_leaders(battle, unit):
        general = None                       # attached: no stray-round roll
    odds = Odds("rally")
    for face in range(1, 7):
        result = LABELS[RALLY[max(MORALE_MIN, min(MORALE_MAX, face + mod))]]
        odds.outcomes[result] = odds.outcomes.get(result, Fraction(0)) + Fraction(1, 6)
    if general is not None and influence_at_risk(battle, unit):
        odds.notes.append(f"{general.name} risks a stray round: 1 in 6 he falls")
    return odds
