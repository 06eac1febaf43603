"""A conformance case's situation -> a Battle, through the scenario loader.

Grid rulesets place units in boxes (`at`), inch rulesets by base centre (`pos`) or
relative to another unit (`facing_unit`, `flank_of`, `rear_of`: gaps measured edge to
edge from the ruleset's own bases). Strength already lost (`lost`) is taken off the
profile's hits; a side the case leaves empty gets one sentinel unit in a far corner,
because a battle needs two sides.
"""
from __future__ import annotations

import math

from shapely.geometry import box as shapely_box
from shapely.ops import unary_union

from manager.footprint import heading
from manager.model.forces import evolve
from manager.rules import get_ruleset
from manager.scenario_io import battle_from_dict

BOX = 3.0
COMPASS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
RELATIVE = ("facing_unit", "flank_of", "rear_of")
UNIT_KEYS = {"id", "side", "kind", "at", "pos", "facing", "lost", "formation", "command",
             "traits", "state", "fixed", "guard", "sharpshooters", "nation", "name",
             *RELATIVE}


class CaseError(Exception):
    """The case cannot be expressed (a runner or case problem, not an engine finding)."""


def facing_of(value, where: str) -> int:
    if isinstance(value, str):
        if value.upper() not in COMPASS:
            raise CaseError(f"{where}: facing {value!r} is not a compass point "
                            f"({' '.join(COMPASS)}) or degrees")
        return COMPASS[value.upper()]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(round(value)) % 360
    raise CaseError(f"{where}: facing {value!r} is not a compass point or degrees")


def is_grid(ruleset) -> bool:
    return ruleset.measure == "grid"


def point_of(ruleset, spec: dict, where: str):
    """(x, y) inches of an `at` box (grid) or a `pos` (inches)."""
    if "at" in spec:
        if not is_grid(ruleset):
            raise CaseError(f"{where}: {ruleset.id} is measured in inches: use pos, not at")
        c, r = spec["at"]
        return ((c + 0.5) * BOX, (r + 0.5) * BOX)
    if "pos" in spec:
        return (float(spec["pos"][0]), float(spec["pos"][1]))
    raise CaseError(f"{where}: needs at = [col, row] or pos = [x, y]")


def _relative(ruleset, battle, spec: dict, placed: dict, where: str):
    """(x, y, facing) of a unit placed by facing_unit / flank_of / rear_of."""
    how = next(k for k in RELATIVE if k in spec)
    rel = spec[how]
    ref_id = rel.get("unit")
    if ref_id not in placed:
        raise CaseError(f"{where}: {how} names unit {ref_id!r}, which is not placed before it")
    rx, ry, rf = placed[ref_id]
    gap = float(rel.get("gap", 0.0))
    if is_grid(ruleset):                     # boxes: gap counts the empty boxes between
        hx, hy = round(math.sin(math.radians(rf))), round(-math.cos(math.radians(rf)))
        sx, sy = -hy, hx                                     # to the reference's right
        n = gap + 1
        if how == "facing_unit":
            off = float(rel.get("side_offset", 0.0))
            dx, dy, f = hx * n + sx * off, hy * n + sy * off, rf + 180
        elif how == "rear_of":
            dx, dy, f = -hx * n, -hy * n, rf
        else:
            k = -1 if rel.get("side", "left") == "left" else 1
            dx, dy, f = sx * k * n, sy * k * n, rf - 90 * k
        return rx + dx * BOX, ry + dy * BOX, int(f) % 360
    ref = battle.units[ref_id]
    ref = evolve(ref, x=rx, y=ry, facing=rf)
    me = battle.units[spec["id"]]
    rw, rd = ruleset.footprint(battle, ref)
    hx, hy = heading(rf)
    sx, sy = -hy, hx
    if how == "facing_unit":
        _mw, md = ruleset.footprint(battle, evolve(me, facing=(rf + 180) % 360))
        d = rd / 2 + gap + md / 2
        off = float(rel.get("side_offset", 0.0))
        return rx + hx * d + sx * off, ry + hy * d + sy * off, int(rf + 180) % 360
    if how == "rear_of":
        _mw, md = ruleset.footprint(battle, me)
        d = rd / 2 + gap + md / 2
        return rx - hx * d, ry - hy * d, int(rf) % 360
    k = -1 if rel.get("side", "left") == "left" else 1
    _mw, md = ruleset.footprint(battle, me)
    d = rw / 2 + gap + md / 2
    return rx + sx * k * d, ry + sy * k * d, int(rf - 90 * k) % 360


def _terrain(ruleset, t: dict, where: str) -> dict:
    out = {k: v for k, v in t.items() if k in ("kind", "level", "name", "variant", "id")}
    if "points" in t:
        out["points"] = [list(map(float, p)) for p in t["points"]]
        return out
    if "boxes" not in t:
        raise CaseError(f"{where}: terrain needs boxes (grid) or points (inches)")
    boxes = [tuple(b) for b in t["boxes"]]
    from manager.model.battlefield import TERRAIN_ALIASES, shape_of
    shape = shape_of(TERRAIN_ALIASES.get(t["kind"], t["kind"]))
    if shape == "area":
        geom = unary_union([shapely_box(c * BOX, r * BOX, (c + 1) * BOX, (r + 1) * BOX)
                            for c, r in boxes])
        parts = [geom] if geom.geom_type == "Polygon" else list(geom.geoms)
        if len(parts) > 1 or parts[0].interiors:
            return [dict(out, points=[[c * BOX, r * BOX], [(c + 1) * BOX, r * BOX],
                                      [(c + 1) * BOX, (r + 1) * BOX], [c * BOX, (r + 1) * BOX]])
                    for c, r in boxes]
        out["points"] = [list(p) for p in parts[0].exterior.coords[:-1]]
        return out
    centres = [[(c + 0.5) * BOX, (r + 0.5) * BOX] for c, r in boxes]
    if shape == "line" and len(centres) == 1:        # a line within one box: across it
        (x, y), = centres
        centres = [[x - BOX / 2 + 0.01, y], [x + BOX / 2 - 0.01, y]]
    out["points"] = centres
    return out


def _sentinel_spot(ruleset, width, height, used, side):
    if is_grid(ruleset):
        cols, rows = int(width // BOX), int(height // BOX)
        corners = [(cols - 1, rows - 1), (0, rows - 1), (cols - 1, 0), (0, 0)] if side == "red" \
            else [(0, rows - 1), (cols - 1, rows - 1), (0, 0), (cols - 1, 0)]
        for c in corners:
            if c not in used:
                return {"at": list(c)}
        raise CaseError("no free corner for a sentinel unit")
    return {"pos": [width - 1.5, 1.5] if side == "red" else [1.5, height - 1.5]}


def build_battle(ruleset_id: str, case: dict):
    """The case's battle, every piece where it says; CaseError when it cannot be built."""
    ruleset = get_ruleset(ruleset_id)
    cid = case.get("id", "?")
    table = case.get("table") or ([12, 8] if is_grid(ruleset) else [48, 36])
    width, height = (table[0] * BOX, table[1] * BOX) if is_grid(ruleset) else map(float, table)
    units = [dict(u) for u in case.get("units", [])]
    if not units:
        raise CaseError(f"{cid}: a case needs units")
    for u in units:
        bad = set(u) - UNIT_KEYS
        if bad:
            raise CaseError(f"{cid}: unit {u.get('id')}: unknown key(s) {', '.join(sorted(bad))}")
    start = case.get("start", {})
    placed, provisional = {}, {}
    for u in units:
        where = f"unit {u['id']}"
        if not any(k in u for k in RELATIVE):
            x, y = point_of(ruleset, u, where)
            f = facing_of(u.get("facing", 90 if u["side"] == "blue" else 270), where)
            placed[u["id"]] = (x, y, f)
    for u in units:                          # relative units sit on their reference first
        if u["id"] not in placed:
            ref = next(u[k] for k in RELATIVE if k in u)["unit"]
            provisional[u["id"]] = placed.get(ref) or next(iter(placed.values()))
    leaders = [dict(l) for l in case.get("leaders", [])]

    def data_with(positions):
        return _scenario(ruleset, case, units, leaders, positions, width, height, start)

    positions = {**placed, **provisional}
    if provisional and is_grid(ruleset):     # boxes need no bases: place them at once
        for u in units:
            if u["id"] in provisional:
                placed[u["id"]] = _relative(ruleset, None, u, placed, f"unit {u['id']}")
        positions = placed
    elif provisional:
        try:
            battle = battle_from_dict(data_with(positions), f"<case {cid}>")
        except Exception as exc:      # noqa: BLE001 - reported as the case's problem
            raise CaseError(f"{cid}: the situation cannot be built: {exc}") from None
        for u in units:               # in order, so one relative unit may hang on another
            if u["id"] in provisional:
                placed[u["id"]] = _relative(ruleset, battle, u, placed, f"unit {u['id']}")
        positions = placed
    try:
        return battle_from_dict(data_with(positions), f"<case {cid}>")
    except Exception as exc:          # noqa: BLE001
        raise CaseError(f"{cid}: the situation cannot be built: {exc}") from None


def _scenario(ruleset, case, units, leaders, positions, width, height, start) -> dict:
    grid = is_grid(ruleset)
    units = list(units)
    used = {(int(p[0] // BOX), int(p[1] // BOX)) for p in positions.values()}
    positions = dict(positions)
    for side in ("blue", "red"):
        if not any(u["side"] == side for u in units):
            spot = _sentinel_spot(ruleset, width, height, used, side)
            x, y = point_of(ruleset, spot, "sentinel")
            positions[f"{side}-sentinel"] = (x, y, 90 if side == "blue" else 270)
            units.append({"id": f"{side}-sentinel", "side": side, "kind": "line_infantry",
                          "command": f"{side[0]}9"})
    sides = []
    for side, edge in (("blue", "west" if grid else "south"), ("red", "east" if grid else "north")):
        mine = [u for u in units if u["side"] == side]
        nations = {u["nation"] for u in mine if u.get("nation")}
        nation = nations.pop() if len(nations) == 1 else ("france" if side == "blue" else "britain")
        cmds: dict = {}
        for u in mine:
            cmds.setdefault(u.get("command") or ("b1" if side == "blue" else "r1"), []).append(u)
        for l in leaders:
            if l.get("side", side) == side and not l.get("general") and l.get("command"):
                cmds.setdefault(l["command"], [])
        sd = {"id": side, "name": side.title(), "nation": nation, "home_edge": edge,
              "commands": []}
        for l in leaders:
            if l.get("side") == side and l.get("general"):
                sd["general"] = _leader(ruleset, l, positions)
        for c, us in cmds.items():
            cd = {"id": c, "name": f"Command {c}", "units": [_unit(ruleset, u, positions) for u in us]}
            mine_l = [l for l in leaders if l.get("command") == c and not l.get("general")]
            if mine_l:
                cd["leader"] = _leader(ruleset, mine_l[0], positions)
            sd["commands"].append(cd)
        sides.append(sd)
    terrain = []
    for i, t in enumerate(case.get("terrain", [])):
        got = _terrain(ruleset, t, f"terrain[{i}]")
        terrain.extend(got if isinstance(got, list) else [got])
    table = {"width": width, "height": height}
    if grid:
        table["grid"] = BOX
    turn = int(start.get("turn", 1))
    return {"scenario": {"name": case.get("id", "case"), "ruleset": ruleset.id, "seed": 1,
                         "turns": max(12, turn + 6), "first_side": start.get("side", "blue")},
            "options": {ruleset.id: dict(case.get("options", {}))},
            "table": table, "terrain": terrain, "sides": sides}


def _unit(ruleset, u: dict, positions) -> dict:
    x, y, f = positions[u["id"]]
    if "facing" in u:                        # a relative unit may still be turned
        f = facing_of(u["facing"], f"unit {u['id']}")
    d = {"id": u["id"], "name": u.get("name", u["id"]), "kind": u["kind"], "pos": [x, y],
         "facing": int(f)}
    for key in ("formation", "fixed", "guard", "sharpshooters", "nation"):
        if key in u:
            d[key] = u[key]
    if "formation" in u:
        from .tables import engine_formation
        d["formation"] = engine_formation(ruleset, u["formation"])
    if "traits" in u:
        d["traits"] = list(u["traits"])
    if u.get("lost"):
        top = ruleset.profile(u["kind"]).get("hits", 1)
        if not 0 <= int(u["lost"]) <= top:
            raise CaseError(f"unit {u['id']}: lost = {u['lost']} but a {u['kind']} has "
                            f"{top} to lose here")
        # all lost (a unit still standing with nothing left, as Harman's spent units):
        # built with one and taken to none as the case begins (runner._set_state)
        d["hits"] = max(top - int(u["lost"]), 1)
    return d


def _leader(ruleset, l: dict, positions) -> dict:
    if "attached" in l and not ("at" in l or "pos" in l):
        x, y, _ = positions[l["attached"]]
    else:
        x, y = point_of(ruleset, l, f"leader {l.get('id')}")
    d = {"id": l["id"], "name": l.get("name", l["id"]), "quality": int(l.get("quality", 3)),
         "pos": [x, y]}
    if l.get("trait"):
        d["trait"] = l["trait"]
    return d
