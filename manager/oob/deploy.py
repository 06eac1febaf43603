"""Two imported armies set out as a playable scenario: each from its home edge, each
command a block of its own, no two blocks overlapping, leaders behind their commands."""
from __future__ import annotations

import re

DEPTH = 3                   # units a block is deep (columns on the grid)
MIN_COLS, MIN_ROWS = 36, 24


class _Ids:
    """Unique ids in linear time: a counter per slug."""

    def __init__(self):
        self.next: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
        n = self.next.get(base, 1)
        self.next[base] = n + 1
        return f"{base}-{n}"


def scenario_from(result, ruleset: str = "morschauser", box: float = 3.0) -> dict:
    uid = _Ids()
    need = [sum(-(-len(c.units) // DEPTH) + 1 for c in a.commands if c.units) + 1
            for a in result.armies]
    rows = max(MIN_ROWS, max(need) + 2)
    cols = MIN_COLS
    sides = []
    for i, army in enumerate(result.armies):
        west = i == 0
        front = 8 if west else cols - 9
        back = -1 if west else 1
        facing = 90 if west else 270
        row = 1
        commands = []
        for c in army.commands:
            if not c.units:
                continue
            units = []
            for k, u in enumerate(c.units):
                d = {"id": uid(f"{c.name} {u.kind}"), "name": u.name, "kind": u.kind,
                     "at": [front + back * (k % DEPTH), row + k // DEPTH], "facing": facing}
                if u.traits:
                    d["traits"] = list(u.traits)
                if u.guard and u.kind.endswith("artillery"):
                    d["guard"] = True
                if u.fixed:
                    d["fixed"] = True
                units.append(d)
            block = -(-len(c.units) // DEPTH)
            cmd = {"id": uid(c.name), "name": c.name,
                   "leader": {"id": uid(c.leader or c.name + " leader"),
                              "name": c.leader or f"{c.name} commander", "quality": 3,
                              "at": [front + back * DEPTH, row + block // 2]},
                   "orders": {"kind": "attack", "objective": [cols // 2, row + block // 2]},
                   "units": units}
            notes = [f"leader doubtful in the listing"] if c.leader_doubtful else []
            if notes:
                cmd["note"] = "; ".join(notes)
            commands.append(cmd)
            row += block + 1
        side = {"id": uid(army.name), "name": army.name,
                "home_edge": "west" if west else "east",
                "colour": "#2b4ea2" if west else "#b03030",
                "general": {"id": uid(army.leader or army.name + " general"),
                            "name": army.leader or f"{army.name} commander", "quality": 3,
                            "at": [front + back * (DEPTH + 2), rows // 2]},
                "commands": commands}
        if army.nation and army.nation.isalpha():
            side["nation"] = army.nation
        sides.append(side)
    return {"scenario": {"name": result.title or " and ".join(a.name for a in result.armies),
                         "ruleset": ruleset, "seed": 1, "turns": 24,
                         "scale": result.scale.describe(), "first_side": "roll"},
            "table": {"width": cols * box, "height": rows * box, "grid": box},
            "terrain": [], "sides": sides}
