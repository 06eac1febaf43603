"""A unit stuck behind others, remembered across versions (issue 17).

The commander's move (`Commander._toward`) tries five ends along one way, each refused
without the rules' check when it lands on another unit's base (`moves.landing_on`).
Most units that end the moves step with no order are stuck so: every end lands on a
friend in the line ahead, and they are tried again, the same way, turn after turn.

Each trial end is a function of the unit's base (its centre, facing and size), its arm,
the way, the inches and the forward arc: the key. An end lands on another base while
the unit it landed on stands live with the very same base (`landing_on` finds it, or
another unit first: the answer "lands on another" is the same). So while each unit the
five ends last landed on stands so, all five land again and the move is None: the
trials are not made again. Anything else (a unit moved, turned, re-formed, gone) tries
them afresh.
"""
from __future__ import annotations

from .state import footprint

STUCK = "featherstone.stuck"    # key -> ((id, base) of each unit an end landed on)
KEPT_AT_MOST = 20_000           # moves kept before the store starts afresh


def stuck_key(battle, unit, way: float, inches: float, keep_facing: bool) -> tuple:
    return (unit.id, unit.kind, footprint(battle, unit), way, inches, keep_facing,
            battle.option("forward_arc", 45))


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


def note_stuck(battle, key, blockers) -> None:
    """Keep the units every trial end of this move landed on (each once)."""
    store = battle.kept(STUCK, dict)
    if len(store) >= KEPT_AT_MOST:
        store.clear()
    store[key] = tuple({o.id: (o.id, footprint(battle, o)) for o in blockers}.values())
