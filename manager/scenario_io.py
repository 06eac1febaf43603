"""Scenario files (TOML) <-> Battle. Every problem names the file, the key, the expectation.

Scenarios name generic unit kinds; the ruleset they are fought under gives each its
profile (and so its hits). Positions are `at = [col, row]` boxes on a gridded table
or `pos = [x, y]` inches; the format is documented in docs/scenario-format.md.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from types import MappingProxyType

import networkx as nx

from .errors import BerthierError, ScenarioError
from .model import (Battle, Battlefield, Command, Hierarchy, Leader, ScenarioInfo, Side,
                    TerrainFeature, Unit)
from .model.battlefield import TERRAIN_ALIASES, TERRAIN_KINDS, shape_of
from .model.forces import UNIT_KINDS
from .model.hierarchy import army_node, command_node, unit_node
from .arrivals import take_off
from .plans import check_plan
from .placement import placement_problem
from .rules import get_ruleset, ruleset_ids
from .scenario_reader import (EDGES, FieldReader, is_point, read_arrives, read_orders_table,
                              read_text, short_value, traits_of)
# the writing half lives in scenario_writer; this module stays the one door to both
from .scenario_writer import battle_to_dict, save_scenario, write_text_atomic

__all__ = ["EDGES", "battle_from_dict", "battle_to_dict", "load_scenario", "read_text",
           "save_scenario", "write_text_atomic"]


def load_scenario(path, ruleset: str | None = None) -> Battle:
    """Read a scenario file; raise ScenarioError (never a traceback) when it is wrong."""
    path = Path(path)
    text = read_text(path, ScenarioError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(path, "", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(path, "", "not a scenario: arrays or tables nested too deeply "
                                      "to read") from None
    return battle_from_dict(data, path, ruleset)



def battle_from_dict(data: dict, path="<scenario>", ruleset_id: str | None = None) -> Battle:
    root = FieldReader(path, data)
    root.unknown({"scenario", "table", "terrain", "sides", "options"})
    sc = root.table("scenario")
    sc.unknown({"name", "ruleset", "seed", "turns", "description", "date", "scale", "first_side"})
    rid = ruleset_id or sc.get("ruleset", str)
    try:
        ruleset = get_ruleset(rid)
    except BerthierError as exc:
        if ruleset_id:              # the user's --ruleset, not the file, is wrong
            raise ScenarioError(path, "--ruleset", str(exc)) from None
        sc.fail("ruleset", str(exc))
    opts = root.table("options", {})
    try:
        options = ruleset.check_options(opts.get(ruleset.id, dict, {}))
    except ValueError as exc:
        opts.fail(ruleset.id, str(exc))

    tb = root.table("table")
    tb.unknown({"width", "height", "grid"})
    width, height = tb.get("width", float), tb.get("height", float)
    grid = tb.get("grid", float, None)
    for key, v in (("width", width), ("height", height), ("grid", grid)):
        if v is not None and v <= 0:
            tb.fail(key, f"expected a positive number of inches, got {v}")
    if ruleset.measure == "grid" and not grid:
        tb.fail("grid", f"{ruleset.name} is played on a grid: give the box size in inches")

    features, seen = [], set()
    for i, t in enumerate(root.tables("terrain", required=False)):
        t.unknown({"id", "kind", "name", "points", "level", "variant"})
        kind = t.get("kind", str)
        kind = TERRAIN_ALIASES.get(kind, kind)
        if kind not in TERRAIN_KINDS:
            t.fail("kind", f"expected a terrain kind ({', '.join(TERRAIN_KINDS)}), got {kind!r}")
        pts = t.get("points", list)
        need_pts = {"area": 3, "line": 2, "point": 1}[shape_of(kind)]
        points = []
        for j, p in enumerate(pts):
            if not is_point(p):
                t.fail(f"points[{j}]", f"expected [x, y] in finite inches, got {short_value(p)}")
            points.append((float(p[0]), float(p[1])))
        if len(points) < need_pts:
            t.fail("points", f"a {kind} needs at least {need_pts} point(s), got {len(points)}")
        fid = t.get("id", str, f"{kind}-{i + 1}")
        if fid in seen:
            t.fail("id", f"duplicate terrain id {fid!r}")
        seen.add(fid)
        features.append(TerrainFeature(fid, kind, tuple(points), t.get("name", str, ""),
                                       t.get("level", int, 1), t.get("variant", str, "")))
    battlefield = Battlefield(width, height, grid, tuple(features))

    def place(r: FieldReader):
        if "at" in r.data:
            if not grid:
                r.fail("at", "boxes need a gridded table; give pos = [x, y] in inches")
            c, row = r.point("at")
            if c != int(c) or row != int(row):
                r.fail("at", f"expected whole box numbers, got {r.data['at']!r}")
            x, y = (c + 0.5) * grid, (row + 0.5) * grid
        else:
            x, y = r.point("pos")
        if not (0 <= x <= width and 0 <= y <= height):
            r.fail("at" if "at" in r.data else "pos", f"({x:g}, {y:g}) inches is off the "
                   f"{width:g} x {height:g} table")
        return x, y

    sides, commands, units, leaders = {}, {}, {}, {}
    arriving: list = []             # (command or unit id, Arrival fields) as the file gives them
    graph = nx.DiGraph()
    ids: set[str] = set()

    def new_id(r, key="id"):
        value = r.get(key, str)
        if not value or value in ids:
            r.fail(key, f"expected a unique, non-empty id, got {value!r}")
        ids.add(value)
        return value

    # a leader trait any ruleset knows is kept; rulesets that do not know it ignore it
    known = sorted(set().union(*(get_ruleset(rid).traits for rid in ruleset_ids())))

    def leader_from(r: FieldReader, side: str) -> Leader:
        r.unknown({"id", "name", "quality", "trait", "at", "pos"})
        lid = new_id(r)
        q = r.get("quality", int, 0)
        if not 0 <= q <= 6:
            r.fail("quality", f"expected 1 (abysmal) to 6 (superior), or 0 to roll; got {q}")
        trait = r.get("trait", str, "")
        if trait and trait not in known:
            r.fail("trait", f"expected one of {', '.join(known) or 'none'}, got {trait!r}")
        x, y = place(r)
        return Leader(lid, r.get("name", str), side, x, y, q, trait)

    def optional_leader(r: FieldReader, key: str, side: str) -> str:
        if key not in r.data:
            return ""
        leader = leader_from(r.table(key), side)
        leaders[leader.id] = leader
        return leader.id

    side_readers = root.tables("sides")
    if len(side_readers) != 2:
        root.fail("sides", f"expected two sides, got {len(side_readers)}")
    for s in side_readers:
        s.unknown({"id", "name", "nation", "home_edge", "colour", "general", "commands"})
        sid = new_id(s)
        general = optional_leader(s, "general", sid)
        nation = s.get("nation", str, "")
        sides[sid] = Side(sid, s.get("name", str), nation, s.get("home_edge", str, "west", EDGES),
                          s.get("colour", str, "#3050a0"), general)
        graph.add_node(army_node(sid), kind="army", ref=sid, leader=general)
        for c in s.tables("commands"):
            c.unknown({"id", "name", "nation", "leader", "orders", "units", "note", "arrives"})
            cid = new_id(c)
            if "arrives" in c.data:
                arriving.append((cid, read_arrives(c.table("arrives"), grid, width, height)))
            leader = optional_leader(c, "leader", sid)
            cnation = c.get("nation", str, nation)
            commands[cid] = Command(cid, c.get("name", str), sid, cnation,
                                    read_orders_table(c), c.get("note", str, ""))
            graph.add_node(command_node(cid), kind="command", ref=cid, leader=leader)
            graph.add_edge(army_node(sid), command_node(cid))
            for u in c.tables("units"):
                u.unknown({"id", "name", "kind", "at", "pos", "facing", "guard", "fixed",
                           "nation", "sharpshooters", "hits", "formation", "traits", "arrives"})
                uid = new_id(u)
                if "arrives" in u.data:
                    if "arrives" in c.data:
                        u.fail("arrives", "its command arrives as a whole; give the arrival "
                               "on the command or on its units, not both")
                    arriving.append((uid, read_arrives(u.table("arrives"), grid, width, height)))
                kind = u.get("kind", str, choices=UNIT_KINDS)
                prof = ruleset.profile(kind)
                max_hits = prof.get("hits", 1)
                hits = u.get("hits", int, max_hits)
                if not 1 <= hits <= max_hits:
                    u.fail("hits", f"expected 1 to {max_hits} for {prof.label}, got {hits}")
                facing = u.get("facing", int, 0)
                if ruleset.measure == "grid" and facing % 45:
                    u.fail("facing", f"on a grid, a multiple of 45 degrees; got {facing}")
                comes = "arrives" in u.data or "arrives" in c.data
                if comes and "at" not in u.data and "pos" not in u.data:
                    x, y = (arriving[-1][1]["entry"][0])     # it stands at its entry till then
                else:
                    x, y = place(u)
                units[uid] = Unit(uid, u.get("name", str, uid), kind, sid, hits, max_hits, x, y,
                                  facing % 360, u.get("formation", str, "line"),
                                  u.get("guard", bool, False), u.get("fixed", bool, False),
                                  u.get("nation", str, cnation),
                                  u.get("sharpshooters", bool, False),
                                  traits=traits_of(u))
                graph.add_node(unit_node(uid), kind="unit", ref=uid)
                graph.add_edge(command_node(cid), unit_node(uid))
    info = ScenarioInfo(sc.get("name", str), ruleset.id, sc.get("seed", int, 1),
                        sc.get("turns", int, 12), sc.get("description", str, ""),
                        sc.get("date", str, ""), sc.get("scale", str, ""),
                        sc.get("first_side", str, "roll"), MappingProxyType(options),
                        MappingProxyType({k: dict(v) for k, v in opts.data.items()
                                          if isinstance(v, dict) and k != ruleset.id}))
    if info.first_side != "roll" and info.first_side not in sides:
        sc.fail("first_side", f"expected 'roll' or a side id ({', '.join(sides)})")
    battle = Battle(info, battlefield, sides, commands, units, leaders, Hierarchy(graph))
    for i, s in enumerate(side_readers):
        for j, c in enumerate(s.tables("commands")):
            plan = commands[c.data["id"]].orders.get("plan", ())
            check_plan(plan, sides, commands,
                       lambda where, problem: c.table("orders").fail(where, problem))
    for target, spec in arriving:
        if target in commands and not battle.hierarchy.units_of(target):
            raise ScenarioError(path, f"command {target}.arrives", "the command has no units to bring on")
        take_off(battle, target, **spec)
    _check_positions(battle, ruleset, path)
    return battle


def _check_positions(battle, ruleset, path) -> None:
    """Nothing may start where the rules would never let it stand."""
    taken: dict = {}
    for u in battle.units.values():
        problem = placement_problem(battle, ruleset, u.kind, u.pos, taken=taken)
        if problem:
            raise ScenarioError(path, f"unit {u.id}", problem)
        if battle.battlefield.grid and ruleset.measure == "grid":
            taken[(int(u.x // battle.battlefield.grid), int(u.y // battle.battlefield.grid))] = u.id
