"""An imported order of battle set down in an open battle, as ordinary editor actions.

Each army goes to the side the umpire chose; its commands stand side by side along the
front, each a block three units deep, its leader a step behind it, the army's general
(if the side has none) behind the middle. Positions are relative to a point (the middle
of the view) and turned to a facing, snapped to box centres on a grid. The whole is one
all-or-nothing undo step in the app; any refusal (off the table, ground the rules refuse)
names its reason and adds nothing.
"""
from __future__ import annotations

import math

from .. import editor_actions as ea

DEPTH = 3


def _turn(dx: float, dy: float, degrees: float) -> tuple[float, float]:
    """Local (across the front, towards the rear) to table offsets for a facing."""
    a = math.radians(degrees)
    return (dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a))


def spacing(battle, ruleset, kinds) -> float:
    """A grid box, or on an open table the widest base among the kinds plus an inch."""
    grid = battle.battlefield.grid
    if grid:
        return float(grid)
    widest = 0.0
    for k in kinds:
        prof = ruleset.profile(k)
        widest = max(widest, float(prof.get("frontage") or prof.get("width") or 4.0))
    return (widest or 4.0) + 1.0


def actions_to_add(result, battle, ruleset, sides: dict[str, str], at, facing: int,
                   back: float = 0.0) -> list:
    """Editor actions adding the armies named in `sides` ({army name: side id}), their
    front `back` steps behind `at` (so two armies set down at one point do not meet)."""
    taken = ea.taken_ids(battle)

    def new_id(stem: str) -> str:
        return ea.fresh_id(taken, stem)

    grid = battle.battlefield.grid
    kinds = {u.kind for a in result.armies for c in a.commands for u in c.units}
    step = spacing(battle, ruleset, kinds)

    def where(dx, dy):
        ox, oy = _turn(dx * step, (dy + back) * step, facing)
        x, y = at[0] + ox, at[1] + oy
        if grid:
            x, y = (math.floor(x / grid) + 0.5) * grid, (math.floor(y / grid) + 0.5) * grid
        return (round(x, 4), round(y, 4))

    snap = 45 if grid else 1
    face = int(round(facing / snap) * snap) % 360
    out = []
    armies = [a for a in result.armies if a.name in sides]
    for army in armies:
        side = sides[army.name]
        blocks = [c for c in army.commands if c.units]
        widths = [-(-len(c.units) // DEPTH) for c in blocks]
        total = sum(widths) + max(0, len(blocks) - 1)
        x = -total / 2
        if not battle.sides[side].general and army.leader:
            out.append(ea.AppointGeneral(side, new_id(army.leader), army.leader,
                                         where(0, DEPTH + 2), 3))
        for c, width in zip(blocks, widths):
            cid = new_id(c.name)
            lname = c.leader or f"{c.name} commander"
            out.append(ea.AddCommand(side, cid, c.name, new_id(lname), lname,
                                     where(x + width / 2, DEPTH + 1), 3))
            for k, u in enumerate(c.units):
                uid = new_id(u.name)
                out.append(ea.PlaceUnit(uid, u.name, u.kind, cid,
                                        where(x + k // DEPTH + 0.5, k % DEPTH), face))
                extra = []
                if u.traits:
                    extra.append(("traits", tuple(u.traits)))
                if u.guard and u.kind.endswith("artillery"):
                    extra.append(("guard", True))
                if u.fixed:
                    extra.append(("fixed", True))
                if extra:
                    out.append(ea.EditUnit(uid, tuple(extra)))
            x += width + 1
    return out
