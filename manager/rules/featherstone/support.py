"""Fire in support of a melee: nearby units that did not move and can see the fight
shoot at half strength; charging cavalry are shot at as at long range (8 inches:
small arms at their long-range number, guns with canister)."""
from __future__ import annotations

import math

from ...errors import IllegalAction
from ...footprint import angle_between, bearing, surely_apart
from ...model.forces import mark
from .fire import may_fire_supporting, shoot, shot_spec
from .fire_sight import FIRE_ARC, hidden_from
from .state import arm, footprint, profile
from .nearby import near_units
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
    return (unit.formation != "square"
            and angle_between(bearing(fp.front_centre(), target.pos), unit.facing)
            > FIRE_ARC + 1e-6 and surely_apart(fp, tfp, 1e-6))


def _row(battle, u) -> tuple:
    """(record, scenario info, half diagonal + the unit's reach, + 8 inches at charging
    horse, centre x, y) of a friend for `supporters`; (record, info, None, ...) for
    horse. Kept per record across versions and trial copies (as spatial.own_base keeps
    the base: a record is immutable, its base a function of it and the info)."""
    if arm(u) == "cavalry":
        return u, battle.info, None, None, u.x, u.y
    fp = footprint(battle, u)
    half = math.hypot(fp.frontage, fp.depth) / 2
    return u, battle.info, half + _reach(u, False), half + _reach(u, True), fp.x, fp.y


def _first_looks(battle, near, rows, e) -> set:
    """The ids of the friends `near` (their `_row`s in `rows`) whose shot at enemy `e`
    `_surely_refused` does not pass over. The circles first, in plain floats (~50 of
    ~60 friends a call): a centre farther than the reach and both half diagonals
    (+2e-6, far above the rounding) is surely_apart's, the first of _surely_refused's
    tests; only the few left are asked it."""
    tfp, horse = footprint(battle, e), _at_charging_horse(e)
    tx, ty, th = tfp.x, tfp.y, math.hypot(tfp.frontage, tfp.depth) / 2 + 2e-6
    k = 3 if horse else 2
    ok = set()
    for u, row in zip(near, rows):
        dx, dy, far = row[4] - tx, row[5] - ty, row[k] + th
        if dx * dx + dy * dy <= far * far and \
                not _surely_refused(battle, u, footprint(battle, u), e, tfp, horse):
            ok.add(u.id)
    return ok


def supporters(battle, melee, side: str, chosen=None, parts: dict | None = None) -> list:
    """Units of `side` able to fire in support, each with the enemy it would shoot; only
    those `chosen` when the players named them ("may fire in support"). `parts`: the
    first looks kept for other battles that differ from this one only in the melee's
    own units (the answers one charge_odds weighs: see melee_parts._shared_support)."""
    fighting = {melee.defender, *melee.attackers}
    enemies = [battle.units[u] for u in fighting if battle.units[u].side != side]
    near, rows = _near(battle, melee, side, chosen, fighting, parts)
    # the pairs _spec surely refuses for reach or arc (most: guns in range are few),
    # judged before whether the unit may fire at all, and only the rest's lines of
    # sight (each line's answer is its own: fewer lines, the same answers)
    looks = [_looks_at(battle, near, rows, e, (side, chosen), parts) for e in enemies]
    seen = set().union(*looks)
    able = [u for u in near if u.id in seen and _may(battle, u, parts)]
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


# `parts[FRIENDS_FROM]`: a battle whose live units but the melee's own are the very records
# of the battles `parts` serves, in the same order (charge_odds' battle, of its copies)
FRIENDS_FROM = "friends from"


# What `parts` keeps reads only the friends of `side` (their records, bases and marks, the
# chargers) and the enemy looked at: the same in battles that differ only in the melee's
# own units, but for the enemy, whose very record the looks at it are kept with.
def _near(battle, melee, side, chosen, fighting, parts) -> tuple:
    """(friends within 60 inches of the defender that may shoot, their `_row`s)."""
    key = ("near", side, chosen, melee.defender, melee.attackers)
    if parts is not None and key in parts:
        return parts[key]
    centre = battle.units[melee.defender].pos
    memo, info = battle.kept("featherstone.support_rows", dict), battle.info
    near, rows = [], []
    # (the grid of FRIENDS_FROM's battle, kept from version to version, not the trial
    # copy's own, built afresh for each copy: the same records less the melee's own)
    source = battle if parts is None else parts.get(FRIENDS_FROM, battle)
    for u in near_units(source, centre, 60, side):
        if u.id in fighting or (chosen is not None and u.id not in chosen):
            continue
        row = memo.get(u.id)
        if row is None or row[0] is not u or row[1] is not info:
            row = memo[u.id] = _row(battle, u)
        if row[2] is not None:          # (horse never fires in support: refused first)
            near.append(u)
            rows.append(row)
    if parts is not None:
        parts[key] = near, rows
    return near, rows


def _looks_at(battle, near, rows, e, whose: tuple, parts) -> set:
    """_first_looks at enemy `e` (a fresh set), kept in `parts` with e's record."""
    if parts is None:
        return _first_looks(battle, near, rows, e)
    key = ("looks", whose, e.id)
    hit = parts.get(key)
    if hit is None or hit[0] is not e:
        hit = parts[key] = e, _first_looks(battle, near, rows, e)
    return set(hit[1])


def _may(battle, u, parts) -> bool:
    """not may_fire_supporting(battle, u), kept in `parts`."""
    if parts is None:
        return not may_fire_supporting(battle, u)
    key = ("may", u.id)
    hit = parts.get(key)
    if hit is None or hit[0] is not u:
        hit = parts[key] = u, not may_fire_supporting(battle, u)
    return hit[1]


def support_fire(battle, pair, target, dice, events: list) -> int:
    unit, _ = pair
    unit = battle.units[unit.id]
    try:
        spec = _spec(battle, unit, target)
    except IllegalAction:
        return 0
    battle.update_unit(unit.id, fired=True)
    return shoot(battle, unit, target, spec, dice, events)
