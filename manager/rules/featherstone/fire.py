"""Shooting: small arms summed under the range target, artillery by band with damage
dice, the counter-battery table, saving rolls; and the exact odds of each.

Small arms: one die per 5 firing figures (3-4 left over roll one more); every die at
or under the range's number scores its pips. Two ranks fire; a square fires a quarter
of its figures from each face. +1 to the number into a flank; disordered shooters
halve the hits (rounding up). Artillery: one die per battery against the band's
number (canister always hits); each hit on foot or horse rolls a damage die (two at
close canister), +1 against an assault column, +2 against a square, a march column or
a flank beyond canister; against skirmishers damage is halved beyond canister. A hit
on a battery rolls 2D6 on the counter-battery table. Then a saving roll per casualty.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ... import spatial
from ...actions import need
from ...events import UnitFired, declare_event
from ...footprint import (aspect, bearing, angle_between, distance, heading, segment,
                          surely_apart)
from ...model.forces import mark
from ...odds import Dist, Odds, OddsLine
from ...table_terrain import table_terrain
from .losses import eliminate, half_up, hit_leaders_check, save_for, saving_rolls, \
    settle, take_casualties
from .charge_fire import charge_shot_kind, check_charge_shot, resolve_charge_shot
from .moves import own_unit
from . import ground
from .recall import recall
from .sight_floats import crossed
from .state import (arm, crew, dice_for, engaged, firing_figures, footprint, is_skirmish,
                    near_units, profile)
from .tables import (ARTILLERY_BANDS, ARTILLERY_RANGES, ARTILLERY_TO_HIT, CLOSE_CANISTER,
                     COUNTER_BATTERY, DAMAGE_BONUS, SHOTS_PER_BATTERY, SMALL_ARMS)

FIRE_ARC = 45
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


def sight_refusal(battle, unit, target) -> str:
    """Line of sight from centre to centre: no other base and no woods, town or higher
    hill across it (an inch at each end is the units' own ground)."""
    return spatial.memo(battle, "featherstone.sight", (unit.id, target.id), (unit, target),
                        lambda: _sight_refusal(battle, unit, target))


def _sight_refusal(battle, unit, target) -> str:
    (ax, ay), (bx, by) = unit.pos, target.pos
    length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2) or 1e-9   # as shapely measures
    line = None
    # the units near the line, from the spatial index (a superset of those the centre
    # test below keeps, in the same order): not every unit within the line's length
    for o in spatial.unit_grid(battle).along(unit.pos, target.pos, 4.5):
        if o.id in (unit.id, target.id) or distance(o.pos, unit.pos) > length + 8:
            continue
        # cheap test first: the centre's distance from the line against the base's size
        t = max(0.0, min(1.0, ((o.x - ax) * (bx - ax) + (o.y - ay) * (by - ay)) / length ** 2))
        off = math.hypot(ax + t * (bx - ax) - o.x, ay + t * (by - ay) - o.y)
        if off > 4.5:
            continue
        fp = footprint(battle, o)
        # every corner lies within half the diagonal of the centre: a base whose centre
        # is farther than that from the line cannot meet it (~96% of those asked), so
        # no shape is built nor shapely asked (1e-6 inch to spare for the rounding)
        if off > math.hypot(fp.frontage, fp.depth) / 2 + 1e-6:
            continue
        line = line or segment(unit.pos, target.pos)
        if fp.polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = ground_blocking(battle, unit, target)
    return f"{blocked} blocks the line of sight" if blocked else ""


def ground_blocking(battle, unit, target) -> str:
    """The ground across the line of sight from centre to centre ('' if none): kept
    across versions (most units stand still). When it names one, `sight_refusal` does
    too (or a base before it), so `shot_spec` refuses the shot whatever else it finds:
    the commander asks it first of a target its first pass did not surely hide."""
    a, b = unit.pos, target.pos
    return ground.kept(battle, "sight", (a, b), lambda: table_terrain(
        battle.battlefield).sight_blocked(a, b, skip=1.0))


def surely_hidden(battle, unit, targets) -> list:
    """For each target: does `sight_refusal` surely name a base in the way (so that
    shot_spec, and check_fire, refuse the shot)? One pass per shooter (_crossed)
    (`sightlines.surely_crossed`, the scan's bounds: centre to centre, blockers within
    length + 8 of the shooter and 4.5 of the line). A charging target is never claimed:
    first and support fire are judged by other rules. False means only "maybe not"."""
    if not targets:
        return []
    hidden = _crossed(battle, unit, targets)
    return [h and not mark(t, "charging") for h, t in zip(hidden, targets)]


def hidden_from(battle, target, shooters) -> list:
    """For each shooter: does `sight_refusal(battle, shooter, target)` surely name a base
    in the way? All the lines to one target (support fire) judged in one pass from
    the target's end: the same segment, the same two units left out, and the scan's
    bound of 4.5 inches from the line keeps a blocker within the line's length + 4.5 of
    the shooter, inside the scan's length + 8. False means only "maybe not"."""
    if not shooters:
        return []
    return _crossed(battle, target, shooters)


def _crossed(battle, origin, ends) -> list:
    """`sightlines.surely_crossed` from `origin`'s centre to each end unit's, over the
    live bases (`rows`, kept current from the journal): in plain floats, each line
    stopping at the first base across it (sight_floats)."""
    return crossed(battle, origin, ends)


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


def surely_out_of_arc(battle, unit, target) -> bool:
    """Does `_shot_spec` surely refuse the shot as outside the arc of fire? (Its own test
    of the bearing, and bases surely more than touching apart; a square shoots all
    round, and a charging target is judged by the charge-fire rules.) A first look for
    the commander, before lines of sight are judged."""
    return not maybe_in_arc(battle, unit, [target])


def maybe_in_arc(battle, unit, targets) -> list:
    """The targets `surely_out_of_arc` does not pass over, in order (the shooter's base
    and front centre read once)."""
    if unit.formation == "square" or not targets:
        return list(targets)
    fp = footprint(battle, unit)
    front, facing = fp.front_centre(), unit.facing
    return [t for t in targets
            if _in_arc(front, facing, t.pos) or mark(t, "charging")
            or not surely_apart(fp, footprint(battle, t), 1e-6)]


# the arc of fire's border as the cosine of the angle off the facing, a hair either side:
# 1e-9 is far above the rounding of a dot product over a length, far below the 1e-6
# degree the bearing test keeps (a cosine moves by ~1.2e-8 a 1e-6 degree there)
_COS_IN = math.cos(math.radians(FIRE_ARC + 1e-6)) + 1e-9
_COS_OUT = math.cos(math.radians(FIRE_ARC + 1e-6)) - 1e-9


def _in_arc(front, facing: float, xy) -> bool:
    """`angle_between(bearing(front, xy), facing) <= FIRE_ARC + 1e-6` (_shot_spec's arc
    test): the cosine of the angle off the facing against the border's when it is
    clear of it (most targets, ~17,000 asks in 8 turns), the bearings on a knife edge."""
    hx, hy = heading(facing)
    dx, dy = xy[0] - front[0], xy[1] - front[1]
    r = math.hypot(dx, dy)
    c = dx * hx + dy * hy
    if c > r * _COS_IN:
        return True
    if c < r * _COS_OUT:
        return False
    return angle_between(bearing(front, xy), facing) <= FIRE_ARC + 1e-6


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


# ---- exact odds -------------------------------------------------------------------------
def save_keep(shot: Shot) -> tuple[int, int]:
    """Chance (of 6) that a hit is NOT saved."""
    saving_faces = sum(1 for f in range(1, 7) if f + shot.save_bonus >= shot.save)
    return 6 - saving_faces, 6


def hits_dist(shot: Shot) -> Dist:
    """Hits before saving rolls (for a battery target: gunners hit by the table)."""
    if shot.artillery:
        p_hit = Fraction(1) if shot.to_hit == 0 else Fraction(7 - shot.to_hit, 6)
        if shot.battery_target:
            two = Dist.die([1, 2, 3, 4, 5, 6]).times(2)
            col = 0 if shot.in_open else 1
            men = two.map(lambda t: COUNTER_BATTERY.get(t, ((0, False), (0, False)))[col][0])
            return Dist.mix([(1 - p_hit, Dist.point(0)), (p_hit, men)])
        dmg = Dist.die([1, 2, 3, 4, 5, 6]).times(shot.damage_dice).map(
            lambda k: k + shot.damage_bonus)
        if shot.half_damage:
            dmg = dmg.map(half_up)
        return Dist.mix([(1 - p_hit, Dist.point(0)), (p_hit, dmg)])
    d = Dist.die([f if f <= shot.number else 0 for f in range(1, 7)]).times(shot.dice)
    return d.map(half_up) if shot.halve else d


def casualty_dist(shot: Shot) -> Dist:
    """Casualties after saves: kept per the fields the dice read (the commander values,
    the odds mix and support fire sums the same few shots over and over; a shot's range
    and band name change nothing)."""
    return _casualties_of(shot.artillery, shot.dice, shot.number, shot.halve, shot.to_hit,
                          shot.damage_dice, shot.damage_bonus, shot.half_damage,
                          shot.battery_target, shot.in_open, shot.save, shot.save_bonus)


@lru_cache(maxsize=4096)
def _casualties_of(artillery, dice, number, halve, to_hit, damage_dice, damage_bonus,
                   half_damage, battery_target, in_open, save, save_bonus) -> Dist:
    shot = Shot(artillery, "", 0.0, dice=dice, number=number, halve=halve, to_hit=to_hit,
                damage_dice=damage_dice, damage_bonus=damage_bonus, half_damage=half_damage,
                battery_target=battery_target, in_open=in_open, save=save,
                save_bonus=save_bonus)
    keep, of = save_keep(shot)
    return hits_dist(shot).thinned(keep, of)


def gun_destroyed_chance(shot: Shot) -> Fraction:
    if not (shot.artillery and shot.battery_target):
        return Fraction(0)
    p_hit = Fraction(1) if shot.to_hit == 0 else Fraction(7 - shot.to_hit, 6)
    two = Dist.die([1, 2, 3, 4, 5, 6]).times(2)
    col = 0 if shot.in_open else 1
    return p_hit * sum((two.p(t) for t in range(2, 13)
                        if COUNTER_BATTERY.get(t, ((0, False), (0, False)))[col][1]), Fraction(0))


def fire_odds(battle, action) -> Odds:
    unit, target = battle.units[action.unit], battle.units[action.target]
    from .charge_fire import charge_shot_kind, charge_shot_odds
    kind = charge_shot_kind(battle, unit, target)
    if kind:
        return charge_shot_odds(battle, unit, target, kind)
    shot = shot_spec(battle, unit, target)
    lost = casualty_dist(shot)
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name} ({shot.band})", lost,
                                  target.name)])
    odds.outcomes["no casualties"] = lost.p(0)
    odds.outcomes[f"{target.name} loses {target.hits // 4 or 1}+ figures"] = \
        lost.p_at_least(target.hits // 4 or 1)
    if shot.battery_target:
        odds.outcomes["gun destroyed"] = gun_destroyed_chance(shot)
    odds.notes.append(f"range {shot.range:.1f} in; saves on {shot.save}+"
                      + (" (+1 woods)" if shot.save_bonus else ""))
    return odds
