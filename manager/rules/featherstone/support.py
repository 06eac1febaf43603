"""Fire in support of a melee: nearby units that did not move and can see the fight
shoot at half strength; charging cavalry are shot at as at long range (8 inches:
small arms at their long-range number, guns with canister)."""
from __future__ import annotations

from math import dist, hypot

from ...errors import IllegalAction
from ...footprint import angle_between, bearing, surely_apart
from ...model.forces import mark
from .fire import FIRE_ARC, hidden_from, may_fire_supporting, shoot, shot_spec
from .state import arm, footprint, near_units, profile
from .tables import ARTILLERY_RANGES, SMALL_ARMS


def _spec(battle, unit, target):
    charging_cav = arm(target) == "cavalry" and mark(target, "charging")
    band = ""
    if charging_cav:
        band = "canister" if arm(unit) == "artillery" else "long"
    spec = shot_spec(battle, unit, target, support=True, force_band=band)
    if charging_cav and spec.range > 8 + 1e-6:
        raise IllegalAction(f"{target.name} is beyond 8 inches")
    return spec


def _at_charging_horse(target) -> bool:
    return arm(target) == "cavalry" and bool(mark(target, "charging"))


def _reach(unit, charging_horse: bool) -> float:
    """The longest support shot of `unit`: 8 inches at charging cavalry (long range,
    or canister), else its weapon's longest range."""
    if charging_horse:
        return 8.0
    weapon = profile(unit)["weapon"]
    return (ARTILLERY_RANGES[weapon][-1] if arm(unit) == "artillery"
            else SMALL_ARMS[weapon][-1][0])


def _surely_refused(battle, unit, fp, target, tfp, charging_horse: bool) -> bool:
    """Would _spec surely refuse `unit`'s shot at `target` before its line of sight is
    judged? Beyond reach (_surely_out_of_reach), or outside the arc of fire: shot_spec
    refuses a shooter not in square whose front centre's bearing to the target is more
    than FIRE_ARC off its facing, unless the bases are within 1e-6 (they are surely not
    when their circles are that far apart; charging or not, support judges the arc)."""
    if surely_apart(fp, tfp, _reach(unit, charging_horse)):
        return True
    return _surely_out_of_arc(unit, fp, target, tfp)


def _surely_out_of_arc(unit, fp, target, tfp) -> bool:
    return (unit.formation != "square"
            and angle_between(bearing(fp.front_centre(), target.pos), unit.facing)
            > FIRE_ARC + 1e-6 and surely_apart(fp, tfp, 1e-6))


def _looks(near, fps, target, tfp, charging_horse: bool, reaches, diagonals) -> set:
    """Ids of the units of `near` (bases `fps`) that _surely_refused does not pass over
    at `target`: its first test (surely_apart at the unit's reach) in line, by the very
    arithmetic of surely_apart, with each base's diagonal (`diagonals`) and each unit's
    reach but at charging horse (`reaches`) read once for every enemy."""
    te, tc = hypot(tfp.frontage, tfp.depth), tfp.centre
    out = set()
    for u, fp, du, reach in zip(near, fps, diagonals, reaches):
        if charging_horse:
            reach = 8.0
        if dist(fp.centre, tc) - (du + te) / 2 > reach + 1e-6:
            continue                            # surely_apart(fp, tfp, reach)
        if not _surely_out_of_arc(u, fp, target, tfp):
            out.add(u.id)
    return out


def supporters(battle, melee, side: str, chosen=None) -> list:
    """Units of `side` able to fire in support, each with the enemy it would shoot; only
    those `chosen` when the players named them ("may fire in support")."""
    fighting = {melee.defender, *melee.attackers}
    enemies = [battle.units[u] for u in fighting if battle.units[u].side != side]
    centre = battle.units[melee.defender].pos
    # (horse never fires in support: may_fire_supporting's first refusal)
    near = [u for u in near_units(battle, centre, 60, side)
            if not (u.id in fighting or (chosen is not None and u.id not in chosen)
                    or arm(u) == "cavalry")]
    # the pairs _spec surely refuses for reach or arc (most: guns in range are few),
    # judged before whether the unit may fire at all, and only the rest's lines of
    # sight (each line's answer is its own: fewer lines, the same answers)
    fps = [footprint(battle, u) for u in near]
    reaches = [_reach(u, False) for u in near]
    diagonals = [hypot(fp.frontage, fp.depth) for fp in fps]
    looks = [_looks(near, fps, e, footprint(battle, e), _at_charging_horse(e), reaches,
                    diagonals) for e in enemies]
    seen = set().union(*looks)
    able = [u for u in near if u.id in seen and not may_fire_supporting(battle, u)]
    for e, ok in zip(enemies, looks):
        lines = [u for u in able if u.id in ok]
        ok.difference_update(u.id for u, h in zip(lines, hidden_from(battle, e, lines)) if h)
    out = []
    for u in able:
        for e, ok in zip(enemies, looks):
            if u.id not in ok:
                continue
            try:
                _spec(battle, u, e)
            except IllegalAction:
                continue
            out.append((u, e))
            break
    return out


def support_fire(battle, pair, target, dice, events: list) -> int:
    unit, _ = pair
    unit = battle.units[unit.id]
    try:
        spec = _spec(battle, unit, target)
    except IllegalAction:
        return 0
    battle.update_unit(unit.id, fired=True)
    return shoot(battle, unit, target, spec, dice, events)
