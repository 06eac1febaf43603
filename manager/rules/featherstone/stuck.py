"""A unit stuck behind others or by the ground, remembered across versions (issue 17).

The commander's move (`Commander._toward`) tries five ends along one way, each refused
without the rules' check when it lands on another unit's base (`moves.landing_on`), else
put to the check. Most units that end the moves step with no order are stuck so: every
end lands on a friend in the line ahead, or costs more than the unit's move, or stands
in a lake; and they are tried again, the same way, turn after turn.

Each trial end is a function of the unit's base (its centre, facing and size), its arm,
the way, the inches and the forward arc: the key. An end lands on another base while
the unit it landed on stands live with the very same base (`landing_on` finds it, or
another unit first: the answer "lands on another" is the same). An end the check
refused as a function of the key and the ground alone (`settled_refusal`: its cost
beyond the unit's budget, which the key's formation and `allow` and `used` marks fix,
or its path or end on ground it may not take) is refused again (by that test, or one
the check makes before it). So while each unit the five ends last landed on stands so,
all five fail again and the move is None: the trials are not made again. Anything else
(a unit moved, turned, re-formed, gone, a mark changed) tries them afresh.
"""
from __future__ import annotations

from ...errors import IllegalAction
from ...footprint import inside
from ...model.forces import mark
from . import ground
from .moves import _impassable_under, planned
from .state import footprint, move_budget

# the trial ends of `Commander._toward`, as fractions of its inches: the store's answer
# stands for all of them, so a move is kept only when every one of these failed
TRIALS = (1.0, 0.8, 0.6, 0.4, 0.25)
STUCK = "featherstone.stuck"    # key -> ((id, base) of each unit an end landed on)
KEPT_AT_MOST = 20_000           # moves kept before the store starts afresh


def stuck_key(battle, unit, way: float, inches: float, keep_facing: bool) -> tuple:
    return (unit.id, unit.kind, unit.formation, footprint(battle, unit), way, inches,
            keep_facing, battle.option("forward_arc", 45), mark(unit, "allow", 1),
            mark(unit, "used", 0.0))


def still_stuck(battle, key) -> bool:
    """Did this very move last land every trial end on bases that all stand as they did?"""
    hit = battle.kept(STUCK, dict).get(key)
    if hit is None:
        return False
    units = battle.units
    for oid, base in hit:
        o = units.get(oid)
        if o is None or o.eliminated or footprint(battle, o) != base:
            return False
    return True


def settled_refusal(battle, unit, to, facing) -> bool:
    """Is MoveUnit(unit, to, facing) (its own formation), which the check refused, refused
    by the key and the ground alone? `check_move_unit`'s own tests: the plan (its
    terrain refusal: a river without a crossing), the rate and the budget, the end off
    the table or on impassable ground. False means only "maybe not" (not kept)."""
    try:
        p = planned(battle, unit, to, facing, "")
    except IllegalAction:
        return True
    if p.rate <= 0 or p.cost > move_budget(unit, p.rate) + 1e-6:
        return True
    end = footprint(battle, unit, x=to[0], y=to[1], facing=facing)
    bf = battle.battlefield
    return not inside(end, bf.width, bf.height) or bool(
        ground.kept(battle, "impassable", end, lambda: _impassable_under(battle, end)))


def note_stuck(battle, key, blockers) -> None:
    """Keep the units every landing trial end of this move landed on (each once)."""
    store = battle.kept(STUCK, dict)
    if len(store) >= KEPT_AT_MOST:
        store.clear()
    store[key] = tuple({o.id: (o.id, footprint(battle, o)) for o in blockers}.values())
