"""Shooting: small arms summed under the range target, artillery by band with damage
dice, the counter-battery table, saving rolls.

Small arms: one die per 5 firing figures (3-4 left over roll one more); every die at
or under the range's number scores its pips. Two ranks fire; a square fires a quarter
of its figures from each face. +1 to the number into a flank; disordered shooters
halve the hits (rounding up). Artillery: one die per battery against the band's
number (canister always hits); each hit on foot or horse rolls a damage die (two at
close canister), +1 against an assault column, +2 against a square, a march column or
a flank beyond canister; against skirmishers damage is halved beyond canister. A hit
on a battery rolls 2D6 on the counter-battery table. Then a saving roll per casualty.
(The line of sight and the arc: fire_sight; the exact odds of a shot: shot_odds.)
"""
from __future__ import annotations

from dataclasses import dataclass

from ...actions import need
from ...events import UnitFired, declare_event
from ...footprint import aspect, bearing, angle_between
from ...model.forces import mark
from .losses import eliminate, half_up, hit_leaders_check, save_for, saving_rolls, \
    settle, take_casualties
from .charge_fire import charge_shot_kind, check_charge_shot, resolve_charge_shot
from .fire_sight import FIRE_ARC, sight_refusal
from .moves import own_unit
from .recall import recall
from .state import (arm, crew, dice_for, engaged, firing_figures, footprint, is_skirmish,
                    profile)
from .tables import (ARTILLERY_BANDS, ARTILLERY_RANGES, ARTILLERY_TO_HIT, CLOSE_CANISTER,
                     COUNTER_BATTERY, DAMAGE_BONUS, SHOTS_PER_BATTERY, SMALL_ARMS)

ArtilleryShot = declare_event("ArtilleryShot", "{unit} fires {band} at {target}: {outcome}",
                              unit=str, target=str, band=str, outcome=str)
GunDestroyed = declare_event("GunDestroyed", "{unit}'s gun is destroyed", unit=str)


@dataclass(frozen=True)
class Shot:
    """Everything a shot's dice depend on, read off the table once."""
    artillery: bool
    band: str
    range: float
    dice: int = 0                 # small arms dice
    number: int = 0               # small arms: score faces at or under this
    halve: bool = False           # disordered shooter
    to_hit: int = 0               # artillery: lowest face that hits (0: always)
    damage_dice: int = 1
    damage_bonus: int = 0
    half_damage: bool = False     # artillery against skirmishers beyond canister
    battery_target: bool = False
    in_open: bool = True
    save: int = 5
    save_bonus: int = 0
    support: bool = False         # fire in support of a melee: half strength


def square_face(battle, unit, target) -> int:
    """Which of a square's four faces looks toward the target (0 front .. 3 left)."""
    off = (bearing(unit.pos, target.pos) - unit.facing) % 360
    return int(((off + 45) % 360) // 90)


def shot_spec(battle, unit, target, support: bool = False, force_band: str = "") -> Shot:
    """The shot, or IllegalAction saying why it cannot be made (remembered until the
    battle changes: the check, the commander's value and the resolution all ask it)."""
    return recall(battle, "featherstone.shot", (unit.id, target.id, support, force_band),
                  (unit, target), lambda: _shot_spec(battle, unit, target, support, force_band))


def _shot_spec(battle, unit, target, support: bool, force_band: str) -> Shot:
    need(target.side != unit.side and not target.eliminated, f"{target.name} is not an enemy")
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    rng = fp.polygon().distance(tfp.polygon())
    if unit.formation != "square":
        off = angle_between(bearing(fp.front_centre(), target.pos), unit.facing)
        need(off <= FIRE_ARC + 1e-6 or rng <= 1e-6,
             f"{target.name} is outside {unit.name}'s arc of fire")
    why = sight_refusal(battle, unit, target)
    need(not why, f"no line of sight: {unit.name} cannot see {target.name}: {why}")
    flank = aspect(tfp, unit.pos) != "front"
    save, bonus = save_for(battle, target, True, unit.pos)
    if arm(unit) == "artillery":
        ranges = ARTILLERY_RANGES[profile(unit)["weapon"]]
        band = force_band or next((b for b, r in zip(ARTILLERY_BANDS, ranges) if rng <= r), "")
        need(band, f"out of range: {target.name} is {rng:.1f} inches away, beyond {unit.name}'s "
             f"{ranges[-1]} inches")
        close = band == "canister" and rng <= CLOSE_CANISTER
        bonus_dmg = 0
        if band != "canister":
            bonus_dmg = max(DAMAGE_BONUS.get(target.formation, 0) if arm(target) == "infantry"
                            else 0, DAMAGE_BONUS["flank"] if flank else 0)
        battery = arm(target) == "artillery"
        from .losses import cover_save, behind_wall
        in_open = not (cover_save(battle, target) or behind_wall(battle, target, unit.pos))
        return Shot(True, band, rng, to_hit=ARTILLERY_TO_HIT[band], damage_dice=2 if close else 1,
                    damage_bonus=bonus_dmg,
                    half_damage=support or (is_skirmish(target) and band != "canister"),
                    battery_target=battery, in_open=in_open, save=save, save_bonus=bonus,
                    support=support)
    table = SMALL_ARMS[profile(unit)["weapon"]]
    if force_band:
        limit, number = dict(zip(("short", "medium", "long"), table))[force_band]
        band = force_band
    else:
        hit = next(((lim, n) for lim, n in table if rng <= lim), None)
        need(hit is not None, f"out of range: {target.name} is {rng:.1f} inches away, beyond "
             f"{unit.name}'s {table[-1][0]} inches")
        limit, number = hit
        band = {4: "short", 3: "medium", 2: "long"}[number]
    figures = firing_figures(unit, mark(unit, "strength", unit.hits))
    if support:
        figures //= 2                                  # support fire: half strength
    return Shot(False, band, rng, dice=dice_for(figures), number=number + (1 if flank else 0),
                halve=disordered_now(unit), save=save, save_bonus=bonus, support=support)


def note_step_strength(battle, unit) -> None:
    """Shooting is simultaneous: a unit's figures and disorder as the fire step began
    (`strength`, `was_disordered`), noted just before a shot of the step first changes
    them. A shot in a fire step changes only its target's (casualties, disorder; a
    charger's halt), so a unit without the marks has its own figures and disorder as
    the step began, and reads those; flow clears the marks as each fire step begins."""
    if battle.state.phase in ("fire_first", "fire") and mark(unit, "strength") is None:
        battle.mark_unit(unit.id, strength=unit.hits,
                         was_disordered=True if unit.disordered else None)


def disordered_now(unit) -> bool:
    """Disorder for shooting: as the fire step began (shooting is simultaneous, so a
    volley in the step does not halve the reply), or as it is outside a fire step."""
    if mark(unit, "strength") is not None:
        return bool(mark(unit, "was_disordered"))
    return unit.disordered


def may_fire(battle, unit) -> str:
    """Why the unit cannot shoot in this step ('' when it can)."""
    phase = battle.state.phase
    if arm(unit) == "cavalry":
        return f"{unit.name} is cavalry: horse does not fire, it fights with the sword"
    if engaged(battle, unit):
        return f"{unit.name} is locked in a melee"
    if mark(unit, "sheltered"):
        return f"{unit.name}'s crew are sheltering"
    if arm(unit) == "artillery":
        if mark(unit, "shots", 0) >= SHOTS_PER_BATTERY:
            return f"{unit.name} has fired all its {SHOTS_PER_BATTERY} shots"
        c = crew(unit)
        half = mark(unit, "used", 0.0) <= 0.5 + 1e-9
        small_turn = mark(unit, "turned", 0) <= 45 + 1e-9
        if battle.option("gun_move_fire") == "either":
            if c >= 3 and not (half or small_turn):
                return f"{unit.name} moved more than half and turned more than 45 degrees"
        elif c >= 3 and not half:
            return f"{unit.name} moved more than half its move: it may not fire"
        elif c >= 3 and not small_turn:
            return f"{unit.name} changed facing by more than 45 degrees: it may not fire"
        if c == 2 and unit.moved:
            return f"{unit.name} has a crew of two: it may move or fire, not both"
        if c == 1 and mark(unit, "fired_turn", -9) == battle.state.turn - 1:
            return f"{unit.name} has a crew of one: it fires every other turn"
    elif dice_for(firing_figures(unit, mark(unit, "strength", unit.hits))) == 0:
        return f"{unit.name} has too few figures to shoot"
    if phase == "fire_first" and unit.moved:
        return f"{unit.name} moved: it shoots in the moving fire step"
    if phase == "fire" and not unit.moved:
        return f"{unit.name} did not move: it shot in the stationary fire step"
    if unit.formation != "square" and unit.fired:
        return f"{unit.name} has already fired this turn"
    return ""


def may_fire_supporting(battle, unit) -> str:
    """Why the unit cannot fire in support of a melee ('' when it can)."""
    if arm(unit) == "cavalry" or unit.moved or unit.fired or engaged(battle, unit) \
            or mark(unit, "sheltered"):
        return f"{unit.name} moved, fired or is fighting: no support fire"
    if arm(unit) == "artillery":
        if mark(unit, "shots", 0) >= SHOTS_PER_BATTERY:
            return f"{unit.name} has no rounds left"
        if crew(unit) == 1 and mark(unit, "fired_turn", -9) == battle.state.turn - 1:
            return f"{unit.name} fired last turn with one gunner"
    elif dice_for(firing_figures(unit) // 2) == 0:
        return f"{unit.name} has too few figures"
    return ""


def check_fire(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    kind = charge_shot_kind(battle, unit, battle.units.get(action.target))
    if kind:                                   # first fire or support fire, as a step
        return check_charge_shot(battle, unit, battle.units[action.target], kind)
    why = may_fire(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated, f"there is no target {action.target!r}")
    need(not engaged(battle, target), f"{target.name} is in a melee: the melee decides it")
    need(not mark(target, "sheltered"), f"{target.name}'s crew are sheltering")
    if unit.formation == "square":
        face = square_face(battle, unit, target)
        need(face not in mark(unit, "faces", ()), f"that side (face) of {unit.name}'s square "
             "has fired")
    shot_spec(battle, unit, target)


def resolve_fire(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    kind = charge_shot_kind(battle, unit, target)
    if kind:
        note_step_strength(battle, target)      # the only unit whose figures it changes
        return resolve_charge_shot(battle, unit, target, kind, dice)
    events: list = []
    shot = shot_spec(battle, unit, target)      # as checked (the shooter's fired and faces
    if unit.formation == "square":              # marks below change no shot)
        face = square_face(battle, unit, target)
        battle.mark_unit(unit.id, faces=tuple(sorted(mark(unit, "faces", ()) + (face,))))
        battle.update_unit(unit.id, fired=True)
    else:
        battle.update_unit(unit.id, fired=True)
    note_step_strength(battle, target)          # (after the shot is judged: its memo holds)
    shoot(battle, unit, target, shot, dice, events)
    settle(battle, events)
    return events


def shoot(battle, unit, target, shot: Shot, dice, events: list) -> int:
    """Roll a shot and apply it; returns the casualties that stood."""
    if shot.artillery:
        battle.mark_unit(unit.id, shots=mark(unit, "shots", 0) + 1, fired_turn=battle.state.turn)
        hit = shot.to_hit == 0 or dice.d6(f"{unit.name} fires {shot.band} at {target.name}") \
            >= shot.to_hit
        if not hit:
            events.append(ArtilleryShot(unit.name, target.name, shot.band, "misses"))
            return 0
        if shot.battery_target:
            total = dice.roll(2, f"counter-battery: {unit.name} on {target.name}").result
            men, destroyed = COUNTER_BATTERY.get(total, ((0, False), (0, False)))[
                0 if shot.in_open else 1]
            events.append(ArtilleryShot(unit.name, target.name, shot.band,
                                        f"2D6 = {total}: " + ("gun destroyed" if destroyed else
                                                              f"{men} gunner(s) hit")))
            if destroyed:
                events.append(GunDestroyed(target.name))
                eliminate(battle, target.id, events, "gun destroyed", dice=dice)
                return target.hits
            return _casualties(battle, target, men, dice, events, unit.pos)
        faces = dice.roll(shot.damage_dice, f"damage: {unit.name} on {target.name}").faces
        hits = sum(faces) + shot.damage_bonus
        if shot.half_damage:
            hits = half_up(hits)
        events.append(ArtilleryShot(unit.name, target.name, shot.band, f"{hits} hit(s)"))
    else:
        faces = dice.roll(shot.dice, f"{unit.name} fires at {target.name} "
                                     f"({shot.band}, {shot.number} or less)").faces
        hits = sum(f for f in faces if f <= shot.number)
        if shot.halve:
            hits = half_up(hits)
        events.append(UnitFired(unit.name, target.name, shot.dice, hits))
    return _casualties(battle, target, hits, dice, events, unit.pos)


def _casualties(battle, target, hits: int, dice, events: list, from_xy) -> int:
    lost = saving_rolls(battle, target, hits, dice, True, events, from_xy)
    hit_leaders_check(battle, target, hits, dice, events)
    take_casualties(battle, target.id, lost, events, dice=dice)
    return lost


def close_shot(battle, unit, target, disordered: bool) -> Shot:
    """Small arms at short range (first fire at a charger, or a halted charger's return
    fire, which is in disorder)."""
    save, bonus = save_for(battle, target, True, unit.pos)
    figures = firing_figures(unit)
    return Shot(False, "short", 0.0, dice=dice_for(figures), number=4, halve=disordered,
                save=save, save_bonus=bonus)


def shoot_hits(battle, unit, target, dice, events: list) -> int:
    """First fire: the defender's volley at the charger, hits before saves."""
    if arm(unit) == "artillery":
        return 0
    shot = close_shot(battle, unit, target, unit.disordered)
    if shot.dice <= 0:
        return 0
    faces = dice.roll(shot.dice, f"first fire: {unit.name} at {target.name}").faces
    hits = sum(f for f in faces if f <= shot.number)
    if shot.halve:
        hits = half_up(hits)
    events.append(UnitFired(unit.name, target.name, shot.dice, hits))
    return hits


def return_fire(battle, unit, target, dice, events: list) -> int:
    """A halted infantry charge returns fire at close range, in disorder."""
    shot = close_shot(battle, unit, target, True)
    if shot.dice <= 0:
        return 0
    return shoot(battle, unit, target, shot, dice, events)
