"""Fire in support of a melee: nearby units that did not move and can see the fight
shoot at half strength; charging cavalry are shot at as at long range (8 inches:
small arms at their long-range number, guns with canister)."""
from __future__ import annotations

from ...errors import IllegalAction
from ...footprint import surely_apart
from ...model.forces import mark
from .fire import hidden_from, may_fire_supporting, shoot, shot_spec
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


def _surely_out_of_reach(battle, unit, target) -> bool:
    """Bases certainly farther apart than any support shot reaches: 8 inches at charging
    cavalry, else the weapon's longest range."""
    if arm(target) == "cavalry" and mark(target, "charging"):
        limit = 8.0
    else:
        weapon = profile(unit)["weapon"]
        limit = (ARTILLERY_RANGES[weapon][-1] if arm(unit) == "artillery"
                 else SMALL_ARMS[weapon][-1][0])
    return surely_apart(footprint(battle, unit), footprint(battle, target), limit)


def supporters(battle, melee, side: str, chosen=None) -> list:
    """Units of `side` able to fire in support, each with the enemy it would shoot; only
    those `chosen` when the players named them ("may fire in support")."""
    fighting = {melee.defender, *melee.attackers}
    enemies = [battle.units[u] for u in fighting if battle.units[u].side != side]
    out = []
    centre = battle.units[melee.defender].pos
    able = [u for u in near_units(battle, centre, 60, side)
            if not (u.id in fighting or (chosen is not None and u.id not in chosen)
                    or may_fire_supporting(battle, u))]
    # _spec would refuse a shot beyond reach, or (after the sight line) one a base surely
    # hides: the lines to each enemy judged together
    skip = set()
    for e in enemies:
        near = []
        for u in able:
            if _surely_out_of_reach(battle, u, e):
                skip.add((u.id, e.id))
            else:
                near.append(u)
        skip.update((u.id, e.id) for u, h in zip(near, hidden_from(battle, e, near)) if h)
    for u in able:
        for e in enemies:
            if (u.id, e.id) in skip:
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
