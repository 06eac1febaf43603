"""Where a piece may stand: the one answer the scenario loader and the editor both ask.

On the table, not where its ruleset forbids it, and on a grid one unit a box (leaders
may share a box with units).
"""
from __future__ import annotations


def occupancy(battle) -> dict:
    """{box: unit id} for the units still in the battle, on a gridded table."""
    g = battle.battlefield.grid
    return battle.cached("placement.occupancy", lambda: {
        (int(u.x // g), int(u.y // g)): u.id for u in battle.live_units()})


def placement_problem(battle, ruleset, kind: str, pos, moving: str = "",
                      taken: dict | None = None) -> str:
    """Why a piece of `kind` may not stand at `pos` (inches), or '' when it may.

    `moving` is the unit being moved (its own box does not count as taken); `taken`
    is {box: unit id} for callers placing many units at once.
    """
    bf = battle.battlefield
    if len(pos) != 2:
        return "a position is (x, y) in inches"
    x, y = pos
    if not (0 <= x <= bf.width and 0 <= y <= bf.height):
        return f"({x:g}, {y:g}) is off the {bf.width:g} x {bf.height:g} inch table"
    refuse = getattr(ruleset, "position_refusal", None)
    why = refuse(battle, kind, pos) if refuse else ""
    if why:
        return f"a {kind.replace('_', ' ')} cannot stand there: {why}"
    if bf.grid and kind != "leader" and ruleset.measure == "grid":
        box = (int(x // bf.grid), int(y // bf.grid))
        holder = (occupancy(battle) if taken is None else taken).get(box)
        if holder is not None and holder != moving:
            name = battle.units[holder].name if holder in battle.units else holder
            return f"box {box} is held by {name}: one unit a box"
    return ""
