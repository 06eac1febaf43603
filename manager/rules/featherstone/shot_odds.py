"""The exact odds of a shot: hits before saves, casualties after them, a battery's gun
destroyed on the counter-battery table, and the odds the table shows for a Fire.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...odds import Dist, Odds, OddsLine
from .charge_fire import charge_shot_kind, charge_shot_odds
from .fire import Shot, shot_spec
from .losses import half_up
from .tables import COUNTER_BATTERY



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
