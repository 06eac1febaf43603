"""Scenario files (TOML) <-> Battle. Every problem names the file, the key, the expectation.

Scenarios name generic unit kinds; the ruleset they are fought under gives each its
profile (and so its hits). Positions are `at = [col, row]` boxes on a gridded table
or `pos = [x, y]` inches; the format is documented in docs/scenario-format.md.
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from types import MappingProxyType

import networkx as nx

from .errors import BerthierError, OutputError, ScenarioError
from .model import (Battle, Battlefield, Command, Hierarchy, Leader, ScenarioInfo, Side,
                    TerrainFeature, Unit)
from .model.battlefield import TERRAIN_ALIASES, TERRAIN_KINDS, shape_of
from .model.forces import UNIT_KINDS, UNIT_TRAITS
from .model.hierarchy import army_node, command_node, unit_node
from .arrivals import take_off
from .plans import STEP_KEYS, WHEN_KEYS, check_plan
from .placement import placement_problem
from .rules import get_ruleset, ruleset_ids

EDGES = ("north", "south", "east", "west")
ORDER_KINDS = ("attack", "hold", "reserve")


TYPE_WORDS = {dict: "a table", list: "a list", str: "text", int: "a whole number",
              float: "a number", bool: "true or false"}


class _Reader:
    """Typed access to a TOML table that reports the full key path on a bad value."""

    def __init__(self, path, data, where=""):
        self.path, self.data, self.where = path, data, where

    def fail(self, key, problem):
        raise ScenarioError(self.path, self._key(key), problem)

    def _key(self, key):
        return f"{self.where}.{key}" if self.where and key != "" else (self.where or key)

    def get(self, key, kind, default=..., choices=None):
        if key not in self.data:
            if default is ...:
                self.fail(key, f"missing; expected {TYPE_WORDS.get(kind, kind)}")
            return default
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(kind, type) and (not isinstance(value, kind) or
                                       (kind is int and isinstance(value, bool))):
            self.fail(key, f"expected {TYPE_WORDS.get(kind, kind)}, got {_short(value)}")
        if kind is float and not math.isfinite(value):
            self.fail(key, f"expected a finite number, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(key, f"expected one of {', '.join(map(str, choices))}, got {value!r}")
        return value

    def table(self, key, default=...):
        value = self.get(key, dict, default)
        return _Reader(self.path, value or {}, self._key(key))

    def tables(self, key, required=True):
        value = self.get(key, list, ... if required else [])
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(f"{key}[{i}]", f"expected a table, got {item!r}")
            out.append(_Reader(self.path, item, f"{self._key(key)}[{i}]"))
        return out

    def point(self, key):
        value = self.get(key, list)
        if not is_point(value):
            self.fail(key, f"expected two finite numbers [x, y], got {_short(value)}")
        return float(value[0]), float(value[1])

    def unknown(self, allowed):
        extra = set(self.data) - set(allowed)
        if extra:
            self.fail(sorted(extra)[0], f"unknown key; expected one of {', '.join(sorted(allowed))}")


def is_point(p) -> bool:
    """Two finite numbers (NaN or infinity would poison every distance and shape)."""
    return (isinstance(p, list) and len(p) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p))


def _short(value) -> str:
    """A value for a message: repr, cut short (a pasted megabyte is not a message)."""
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= 80 else text[:77] + "..."


def read_orders_table(r: "_Reader") -> dict:
    """A command's standing orders for the automatic commander, checked here so a scenario
    that `check`s fine never fails in `simulate`."""
    if "orders" not in r.data:
        return {}
    o = r.table("orders")
    _order_keys(o, {"kind", "objective", "release_turn", "facing", "engage", "plan"})
    for step in o.tables("plan", required=False):
        _order_keys(step, set(STEP_KEYS))
        w = step.table("when", {})
        w.unknown(set(WHEN_KEYS))
        for key in ("turn", "at_most"):
            w.get(key, int, None)
        w.get("enemy_within", float, None)
        for key in ("clear_of", "of", "shaken", "arrived"):
            w.get(key, str, None)
        if "area" in w.data:
            area = w.get("area", list)
            if len(area) != 2:
                w.fail("area", f"expected two corners [[c0, r0], [c1, r1]], got {area!r}")
            for i in range(2):
                _Reader(w.path, {"corner": area[i]}, w._key(f"area[{i}]")).point("corner")
    return dict(o.data)              # as written (whole box numbers stay whole)


def _order_keys(o: "_Reader", allowed: set) -> None:
    o.unknown(allowed)
    o.get("kind", str, "attack", ORDER_KINDS)
    if "objective" in o.data:
        o.point("objective")
    for key in ("release_turn", "facing", "engage"):
        o.get(key, int, None)


def read_text(path: Path, error=ScenarioError) -> str:
    """A file's text, or `error` naming the file when it is missing or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(path, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(path, "", f"cannot be read as UTF-8 text ({exc})") from None


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
    root = _Reader(path, data)
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
                t.fail(f"points[{j}]", f"expected [x, y] in finite inches, got {_short(p)}")
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

    def place(r: _Reader):
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

    def leader_from(r: _Reader, side: str) -> Leader:
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

    def optional_leader(r: _Reader, key: str, side: str) -> str:
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


def read_arrives(r: "_Reader", grid, width, height) -> dict:
    """An `arrives = { turn, roll, at/pos, to, name, delay_if_blocked }` table as the
    Arrival's fields; the entry in inches (a point, or a stretch from it to `to`)."""
    r.unknown({"turn", "roll", "at", "pos", "to", "name", "delay_if_blocked"})
    turn = r.get("turn", int)
    if turn < 1:
        r.fail("turn", f"expected the turn they arrive, 1 or more; got {turn}")
    roll = r.get("roll", int, 0)
    if roll and not 2 <= roll <= 6:
        r.fail("roll", f"expected the D6 score they need from that turn on, 2 to 6; got {roll}")
    if ("at" in r.data) == ("pos" in r.data):
        r.fail("at", "expected the entry as at = [col, row] (a box) or pos = [x, y] (inches)")
    key = "at" if "at" in r.data else "pos"
    if key == "at" and not grid:
        r.fail("at", "boxes need a gridded table; give pos = [x, y] in inches")

    def inches(k):
        x, y = r.point(k)
        if key == "at":
            if x != int(x) or y != int(y):
                r.fail(k, f"expected whole box numbers, got {r.data[k]!r}")
            x, y = (x + 0.5) * grid, (y + 0.5) * grid
        if not (0 <= x <= width and 0 <= y <= height):
            r.fail(k, f"the entry ({x:g}, {y:g}) inches is off the {width:g} x {height:g} table")
        return x, y
    entry = (inches(key),) + ((inches("to"),) if "to" in r.data else ())
    return dict(turn=turn, roll=roll, name=r.get("name", str, ""), entry=entry,
                delay_if_blocked=r.get("delay_if_blocked", bool, False))


def arrives_dict(arrival, grid) -> dict:
    """The arrival as a scenario's `arrives` table (as it stands: a delay moves its turn)."""
    def box(p):
        c, r = int(p[0] // grid), int(p[1] // grid)
        return [c, r] if ((c + 0.5) * grid, (r + 0.5) * grid) == tuple(p) else None
    boxes = [box(p) for p in arrival.entry] if grid else [None]
    d = {"turn": arrival.next_turn}
    if arrival.roll and not arrival.rolled:
        d["roll"] = arrival.roll
    if all(b is not None for b in boxes):
        d["at"] = boxes[0]
        if len(boxes) > 1:
            d["to"] = boxes[1]
    else:
        d["pos"] = list(arrival.entry[0])
        if len(arrival.entry) > 1:
            d["to"] = list(arrival.entry[1])
    if arrival.name:
        d["name"] = arrival.name
    if arrival.delay_if_blocked:
        d["delay_if_blocked"] = True
    return d


def traits_of(r: "_Reader") -> tuple:
    traits = r.get("traits", list, [])
    for t in traits:
        if t not in UNIT_TRAITS:
            r.fail("traits", f"expected names from {', '.join(UNIT_TRAITS)}, got {t!r}")
    return tuple(sorted(set(traits)))


def _check_positions(battle, ruleset, path) -> None:
    """Nothing may start where the rules would never let it stand."""
    taken: dict = {}
    for u in battle.units.values():
        problem = placement_problem(battle, ruleset, u.kind, u.pos, taken=taken)
        if problem:
            raise ScenarioError(path, f"unit {u.id}", problem)
        if battle.battlefield.grid and ruleset.measure == "grid":
            taken[(int(u.x // battle.battlefield.grid), int(u.y // battle.battlefield.grid))] = u.id


def battle_to_dict(battle: Battle) -> dict:
    """The scenario as it stands (positions and strengths now), ready for tomli_w."""
    grid = battle.battlefield.grid
    info = battle.info

    def where(piece):
        if grid:                    # boxes when a piece stands at a box centre, else exact
            c, r = int(piece.x // grid), int(piece.y // grid)
            if ((c + 0.5) * grid, (r + 0.5) * grid) == (piece.x, piece.y):
                return {"at": [c, r]}
        return {"pos": [piece.x, piece.y]}

    def leader(l):
        d = {"id": l.id, "name": l.name, "quality": l.quality, **where(l)}
        if l.trait:
            d["trait"] = l.trait
        return d

    sc = {"name": info.name, "ruleset": info.ruleset, "seed": info.seed, "turns": info.turns,
          "first_side": info.first_side}
    for key in ("description", "date", "scale"):
        if getattr(info, key):
            sc[key] = getattr(info, key)
    table = {"width": battle.battlefield.width, "height": battle.battlefield.height}
    if grid:
        table["grid"] = grid
    terrain = []
    for f in battle.battlefield.features:
        d = {"id": f.id, "kind": f.kind, "points": [list(p) for p in f.points]}
        if f.name:
            d["name"] = f.name
        if f.kind == "hill":
            d["level"] = f.level
        if f.variant:
            d["variant"] = f.variant
        terrain.append(d)
    options = {k: dict(v) for k, v in info.option_sets.items()}
    defaults = get_ruleset(info.ruleset).option_defaults()
    options[info.ruleset] = {k: v for k, v in info.options.items() if defaults.get(k) != v}
    out_sides = []
    h = battle.hierarchy
    for side in battle.sides.values():
        sd = {"id": side.id, "name": side.name, "nation": side.nation,
              "home_edge": side.home_edge, "colour": side.colour}
        if side.general:
            sd["general"] = leader(battle.leaders[side.general])
        cmds = []
        for cid in h.commands_of(side.id):
            c = battle.commands[cid]
            cd = {"id": c.id, "name": c.name}
            if c.nation != side.nation:
                cd["nation"] = c.nation
            if c.note:
                cd["note"] = c.note
            whole = next((a for a in battle.pending if a.scope == "command" and a.id == cid), None)
            if h.leader_of_command(cid):
                cd["leader"] = leader(battle.leaders[h.leader_of_command(cid)])
            elif whole is not None and whole.leader:
                cd["leader"] = leader(whole.leader[1])
            if whole is not None:
                cd["arrives"] = arrives_dict(whole, grid)
            if c.orders:
                cd["orders"] = dict(c.orders)
            units = []
            late = {u.id: a for a in battle.pending for k, u in a.units if k == cid}
            on_table = [battle.units[uid] for uid in h.units_of(cid)]
            for u in on_table + [u for a in battle.pending for k, u in a.units if k == cid]:
                uid = u.id
                ud = {"id": u.id, "name": u.name, "kind": u.kind, **where(u), "facing": u.facing}
                if u.hits != u.max_hits:
                    ud["hits"] = u.hits
                for flag in ("guard", "fixed", "sharpshooters"):
                    if getattr(u, flag):
                        ud[flag] = True
                if u.traits:
                    ud["traits"] = list(u.traits)
                if u.nation != c.nation:
                    ud["nation"] = u.nation
                if u.formation != "line":
                    ud["formation"] = u.formation
                if uid in late and late[uid].scope == "unit":
                    ud["arrives"] = arrives_dict(late[uid], grid)
                units.append(ud)
            cd["units"] = units
            cmds.append(cd)
        sd["commands"] = cmds
        out_sides.append(sd)
    return {"scenario": sc, "options": {k: v for k, v in options.items() if v},
            "table": table, "terrain": terrain, "sides": out_sides}


def write_text_atomic(path, text: str) -> None:
    """Write beside the target under a private name, then rename: never a half-written
    file under its name, never a leftover (a full disk or a read-only folder is an
    OutputError naming the file)."""
    import os
    import uuid
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise OutputError(path, exc.strerror or str(exc), exc.errno) from None


def save_scenario(battle: Battle, path) -> None:
    import tomli_w
    write_text_atomic(path, tomli_w.dumps(battle_to_dict(battle)))
