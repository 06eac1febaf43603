"""A scenario as SQLite rows, and back, in the shape scenario_io reads and writes.

Rows hold what a TOML scenario holds, positions in inches (exact floats). Reading
rebuilds the scenario dict and hands it to `battle_from_dict`, so a battle file is
checked by the very code that checks a scenario file, and its errors name the table
and row ("units[12].hits") the way a scenario's name the key.
"""
from __future__ import annotations

import json
import sqlite3

from ..errors import ScenarioError, StoreError
from ..scenario_io import battle_from_dict, battle_to_dict

TABLES = {
    "scenario": ({"key": str, "value": str}, "key"),
    "sides": ({"ord": int, "id": str, "name": str, "nation": str, "home_edge": str,
               "colour": str}, "id"),
    "commands": ({"ord": int, "id": str, "side": str, "name": str, "nation": str, "note": str,
                  "orders": str}, "id"),
    "leaders": ({"id": str, "side": str, "command": str, "name": str, "quality": int,
                 "trait": str, "x": float, "y": float}, "id"),
    "units": ({"ord": int, "id": str, "command": str, "name": str, "kind": str, "x": float,
               "y": float, "facing": int, "hits": int, "formation": str, "guard": int,
               "fixed": int, "nation": str, "sharpshooters": int, "traits": str}, "id"),
    "terrain": ({"ord": int, "id": str, "kind": str, "name": str, "level": int, "variant": str,
                 "points": str}, "id"),
}


def create_tables(db, traits: bool = True) -> None:
    """The scenario tables; `traits=False` for the older schemas that had no unit traits."""
    for name, (columns, pk) in TABLES.items():
        if not traits and name == "units":
            columns = {k: v for k, v in columns.items() if k != "traits"}
        db[name].create(columns, pk=pk, not_null=set(columns) - {"command", "nation", "note", "hits",
                                                                  "trait", "name", "variant",
                                                                  "traits"})


def add_traits_column(db) -> None:
    """Migration: unit traits (lancers, armoured, ...) arrived with the inch rulesets."""
    db.execute("ALTER TABLE units ADD COLUMN traits TEXT")


def _xy(piece: dict, grid) -> tuple[float, float]:
    if "at" in piece:
        c, r = piece["at"]
        return (c + 0.5) * grid, (r + 0.5) * grid
    return float(piece["pos"][0]), float(piece["pos"][1])


def write_scenario(db, battle) -> None:
    """Store the battle as a scenario (its state now); inside the caller's transaction."""
    data = battle_to_dict(battle)
    grid = data["table"].get("grid")
    sc = dict(data["scenario"])
    info = {**sc, "table": data["table"], "options": data.get("options", {})}
    # reinforcements ride in the scenario rows: {command or unit id: its `arrives` table}
    arrivals = {x["id"]: x["arrives"] for s in data["sides"] for c in s["commands"]
                for x in [c] + c["units"] if "arrives" in x}
    if arrivals:
        info["arrivals"] = arrivals
    db["scenario"].insert_all([{"key": k, "value": json.dumps(v)} for k, v in info.items()])
    sides, commands, leaders, units = [], [], [], []

    def leader(d, side, command):
        x, y = _xy(d, grid)
        leaders.append({"id": d["id"], "side": side, "command": command, "name": d["name"],
                        "quality": d["quality"], "trait": d.get("trait", ""), "x": x, "y": y})

    for i, s in enumerate(data["sides"]):
        sides.append({"ord": i, **{k: s[k] for k in ("id", "name", "nation", "home_edge", "colour")}})
        if "general" in s:
            leader(s["general"], s["id"], None)
        for c in s["commands"]:
            commands.append({"ord": len(commands), "id": c["id"], "side": s["id"],
                             "name": c["name"], "nation": c.get("nation"), "note": c.get("note", ""),
                             "orders": json.dumps(c.get("orders", {}))})
            if "leader" in c:
                leader(c["leader"], s["id"], c["id"])
            for u in c["units"]:
                x, y = _xy(u, grid)
                units.append({"ord": len(units), "id": u["id"], "command": c["id"],
                              "name": u["name"], "kind": u["kind"], "x": x, "y": y,
                              "facing": u["facing"], "hits": u.get("hits"),
                              "formation": u.get("formation", "line"),
                              "guard": int(u.get("guard", False)), "fixed": int(u.get("fixed", False)),
                              "nation": u.get("nation"),
                              "sharpshooters": int(u.get("sharpshooters", False)),
                              "traits": json.dumps(u.get("traits", []))})
    terrain = [{"ord": i, "id": t["id"], "kind": t["kind"], "name": t.get("name", ""),
                "level": t.get("level", 1), "variant": t.get("variant", ""),
                "points": json.dumps(t["points"])} for i, t in enumerate(data["terrain"])]
    if "traits" not in db["units"].columns_dict:       # an older schema's file (tests)
        units = [{k: v for k, v in u.items() if k != "traits"} for u in units]
    for name, rows in (("sides", sides), ("commands", commands), ("leaders", leaders),
                       ("units", units), ("terrain", terrain)):
        db[name].insert_all(rows)


def read_scenario(db, path) -> dict:
    """The scenario dict the rows describe; StoreError naming the row on anything odd."""
    for name, (cols, _) in TABLES.items():
        have = db[name].columns_dict
        missing = [c for c in cols if c not in have]
        if missing:
            raise StoreError(f"{path}: table {name}: column(s) {', '.join(missing)} missing; "
                             f"expected {', '.join(cols)}")
    info = {r["key"]: _json(path, f"scenario.{r['key']}", r["value"])
            for r in read_rows(db, path, "scenario", "rowid")}
    rows = {name: read_rows(db, path, name, "ord" if "ord" in cols else "rowid")
            for name, (cols, _) in TABLES.items() if name != "scenario"}
    table = info.pop("table", None)
    options = info.pop("options", {})
    arrivals = info.pop("arrivals", {})
    if not isinstance(arrivals, dict):
        raise StoreError(f"{path}: scenario.arrivals: expected a table of arrivals, got {arrivals!r}")
    if not isinstance(table, dict):
        raise StoreError(f"{path}: scenario.table: expected the table's size (width, height, "
                         f"grid), got {str(table)[:40]!r}")
    commands = {c["id"] for c in rows["commands"]}
    sides = {s["id"] for s in rows["sides"]}
    for u in rows["units"]:              # a unit of no command would silently vanish
        if u["command"] not in commands:
            raise StoreError(f"{path}: units row {u['id']!r}: command {u['command']!r} is not "
                             f"in the commands table")
    for r in rows["leaders"]:
        if r["side"] not in sides or (r["command"] is not None and r["command"] not in commands):
            raise StoreError(f"{path}: leaders row {r['id']!r}: side {r['side']!r} / command "
                             f"{r['command']!r} is not in the sides and commands tables")
    for c in rows["commands"]:
        if c["side"] not in sides:
            raise StoreError(f"{path}: commands row {c['id']!r}: side {c['side']!r} is not in "
                             f"the sides table")

    def leader(r):
        d = {"id": r["id"], "name": r["name"], "quality": r["quality"], "pos": [r["x"], r["y"]]}
        if r["trait"]:
            d["trait"] = r["trait"]
        return d

    by_command = {}
    for i, u in enumerate(rows["units"]):
        d = {"id": u["id"], "name": u["name"], "kind": u["kind"], "pos": [u["x"], u["y"]],
             "facing": u["facing"], "formation": u["formation"]}
        if u["hits"] is not None:
            d["hits"] = u["hits"]
        for flag in ("guard", "fixed", "sharpshooters"):
            if u[flag]:
                d[flag] = True
        if u["nation"] is not None:
            d["nation"] = u["nation"]
        traits = _json(path, f"units[{u['id']}].traits", u.get("traits") or "[]")
        if traits:
            d["traits"] = traits
        if u["id"] in arrivals:
            d["arrives"] = arrivals[u["id"]]
        by_command.setdefault(u["command"], []).append(d)
    leaders = {(r["side"], r["command"]): leader(r) for r in rows["leaders"]}
    sides = []
    for s in rows["sides"]:
        sd = {k: s[k] for k in ("id", "name", "nation", "home_edge", "colour")}
        if (s["id"], None) in leaders:
            sd["general"] = leaders[(s["id"], None)]
        sd["commands"] = []
        for c in (c for c in rows["commands"] if c["side"] == s["id"]):
            cd = {"id": c["id"], "name": c["name"], "units": by_command.get(c["id"], []),
                  "orders": _json(path, f"commands[{c['id']}].orders", c["orders"])}
            if c["nation"] is not None:
                cd["nation"] = c["nation"]
            if c["note"]:
                cd["note"] = c["note"]
            if c["id"] in arrivals:
                cd["arrives"] = arrivals[c["id"]]
            if (s["id"], c["id"]) in leaders:
                cd["leader"] = leaders[(s["id"], c["id"])]
            sd["commands"].append(cd)
        sides.append(sd)
    terrain = []
    for t in rows["terrain"]:
        d = {"id": t["id"], "kind": t["kind"], "points": _json(path, f"terrain[{t['id']}].points",
                                                               t["points"]), "level": t["level"]}
        for key in ("name", "variant"):
            if t[key]:
                d[key] = t[key]
        terrain.append(d)
    return {"scenario": info, "table": table, "options": options, "terrain": terrain,
            "sides": sides}


def read_rows(db, path, table: str, order: str) -> list[dict]:
    """All rows of a table; a row that cannot be read (bad UTF-8) is named by its rowid."""
    try:
        return list(db.query(f"SELECT * FROM [{table}] ORDER BY {order}"))
    except sqlite3.Error:
        pass
    out = []
    try:
        rowids = [r[0] for r in db.execute(f"SELECT rowid FROM [{table}] ORDER BY {order}")]
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: table {table} cannot be read ({exc})") from None
    for rid in rowids:
        try:
            out.extend(db.query(f"SELECT * FROM [{table}] WHERE rowid = ?", [rid]))
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: table {table}, row {rid} cannot be read ({exc})") from None
    return out


def _json(path, where, text):
    try:
        return json.loads(text)
    except RecursionError:
        raise StoreError(f"{path}: {where}: nested too deeply to be Berthier's") from None
    except (TypeError, ValueError):
        raise StoreError(f"{path}: {where}: expected JSON text, got {text!r}") from None


def battle_from_rows(db, path, ruleset: str | None = None):
    """The battle the scenario rows describe, checked like a scenario file."""
    try:
        return battle_from_dict(read_scenario(db, path), path, ruleset)
    except ScenarioError as exc:
        raise StoreError(f"{path}: the stored scenario is not valid: {exc.where}: {exc.problem}") from None
