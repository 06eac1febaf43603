"""The order-of-battle library: commands and armies saved once, reused in new scenarios.

One SQLite file in the user's data folder (platformdirs; BERTHIER_DATA overrides it).
An entry keeps organisation, not a battle's state: names, kinds, leaders with their
quality and trait, and where each piece stood relative to the formation's centre and
front, so it can be set down anywhere, facing any way, as ordinary editor actions
(AddCommand, PlaceUnit, EditUnit, AppointGeneral): checked, undoable, logged.
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
from collections import Counter
from pathlib import Path

from .. import editor_actions as ea
from ..errors import StoreError
from . import opening, sqlite_file

FLAGS = ("guard", "fixed", "sharpshooters")


def data_dir() -> Path:
    if os.environ.get("BERTHIER_DATA"):
        return Path(os.environ["BERTHIER_DATA"])
    import platformdirs
    return Path(platformdirs.user_data_dir("Berthier", "Berthier"))


def _create(db) -> None:
    db["library"].create({"name": str, "kind": str, "nation": str, "units": int, "data": str,
                          "saved_at": str}, pk="name", not_null={"kind", "data"})


LIBRARY_SCHEMA = sqlite_file.Schema("library", 1, _create, {})


def _rotate(dx, dy, degrees):
    a = math.radians(degrees)
    return (round(dx * math.cos(a) - dy * math.sin(a), 6),
            round(dx * math.sin(a) + dy * math.cos(a), 6))


class OobLibrary:
    def __init__(self, path=None):
        self.path = Path(path) if path else data_dir() / "oob-library.berthier-lib"
        if self.path.exists():
            # no lock: each command opens, writes one entry and closes
            self.db = opening.open_file(self.path, LIBRARY_SCHEMA, locked=False).db
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite_file.create(self.path, LIBRARY_SCHEMA, {})

    def close(self) -> None:
        self.db.close()

    # ---- saving ----------------------------------------------------------------------
    def save_command(self, battle, cid: str, name: str | None = None) -> str:
        return self._save(battle, [cid], "command", name or battle.commands[cid].name, None)

    def save_army(self, battle, side: str, name: str | None = None) -> str:
        cmds = list(battle.hierarchy.commands_of(side))
        return self._save(battle, cmds, "army", name or battle.sides[side].name,
                          battle.sides[side].general or None)

    def _save(self, battle, cids, kind, name, general) -> str:
        h = battle.hierarchy
        late = {}                  # reinforcements still to come belong to the army too
        for a in battle.pending:
            for c, u in a.units:
                late.setdefault(c, []).append(u)

        def members(cid):
            return [battle.units[x] for x in h.units_of(cid)] + late.get(cid, [])
        every_leader = battle.all_leaders()
        arriving_leader = {a.leader[0]: a.leader[1].id for a in battle.pending if a.leader}
        units = [u for c in cids for u in members(c)]
        if not units:
            raise StoreError(f"{name}: nothing to save, it has no units")
        cx = sum(u.x for u in units) / len(units)
        cy = sum(u.y for u in units) / len(units)
        facing = Counter(u.facing for u in units).most_common(1)[0][0]

        def rel(p):              # offsets as if the formation faced north (0 degrees)
            return _rotate(p.x - cx, p.y - cy, -facing)

        def leader(lid):
            l = every_leader[lid]
            return {"name": l.name, "quality": l.quality, "trait": l.trait, "at": rel(l)}

        commands = []
        for cid in cids:
            c = battle.commands[cid]
            lid = h.leader_of_command(cid) or arriving_leader.get(cid, "")
            commands.append({
                "name": c.name, "nation": c.nation, "orders": dict(c.orders), "note": c.note,
                "leader": leader(lid) if lid else None,
                "units": [{"name": u.name, "kind": u.kind, "at": rel(u),
                           "facing": (u.facing - facing) % 360, "formation": u.formation,
                           "nation": u.nation, **{f: getattr(u, f) for f in FLAGS}}
                          for u in members(cid)]})
        data = {"kind": kind, "commands": commands,
                "general": leader(general) if general else None}
        nation = commands[0]["nation"]
        try:
            with self.db.atomic():
                self.db["library"].upsert({"name": name, "kind": kind, "nation": nation,
                                           "units": len(units), "data": json.dumps(data),
                                           "saved_at": sqlite_file.now()}, pk="name")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot save {name!r} ({exc})") from None
        return name

    # ---- reading and reuse -------------------------------------------------------------
    def entries(self) -> list[dict]:
        return list(self.db.query("SELECT name, kind, nation, units, saved_at FROM library "
                                  "ORDER BY kind, name"))

    def entry(self, name: str) -> dict:
        row = self.db.execute("SELECT data FROM library WHERE name = ?", [name]).fetchone()
        if row is None:
            known = ", ".join(e["name"] for e in self.entries()) or "none yet"
            raise StoreError(f"{self.path}: no entry {name!r} in the library (it has: {known})")
        try:
            data = json.loads(row[0])
        except (TypeError, ValueError, RecursionError):
            raise StoreError(f"{self.path}: entry {name!r} is damaged (not JSON); remove it "
                             f"with: berthier library remove {name!r}") from None
        if not isinstance(data, dict) or not isinstance(data.get("commands"), list):
            raise StoreError(f"{self.path}: entry {name!r} is damaged: expected a table with "
                             f"a list of commands; remove it with: berthier library remove "
                             f"{name!r}")
        return data

    def remove(self, name: str) -> None:
        """Remove an entry, however damaged it is."""
        if self.db.execute("SELECT 1 FROM library WHERE name = ?", [name]).fetchone() is None:
            self.entry(name)                     # the message listing what there is
        try:
            with self.db.atomic():
                self.db.execute("DELETE FROM library WHERE name = ?", [name])
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot remove {name!r} ({exc})") from None

    def actions_to_add(self, name: str, battle, side: str, at, facing: int = 0) -> list:
        """Editor actions that set the entry down with its centre at `at`, facing `facing`.
        An entry of the wrong shape (edited by hand) is a StoreError naming it."""
        data = self.entry(name)
        try:
            return self._actions(data, battle, side, at, facing)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise StoreError(f"{self.path}: entry {name!r} is damaged: {type(exc).__name__} "
                             f"{exc}; expected commands with name, units (name, kind, at, "
                             f"facing) and leaders (name, at, quality, trait)") from None

    def _actions(self, data, battle, side, at, facing) -> list:
        taken = ea.taken_ids(battle)

        def new_id(stem: str) -> str:
            return ea.fresh_id(taken, stem)

        def where(p):
            dx, dy = _rotate(p[0], p[1], facing)
            return (at[0] + dx, at[1] + dy)

        out = []
        g = data.get("general")
        if g and not battle.sides[side].general:
            out.append(ea.AppointGeneral(side, new_id(g["name"]), g["name"], where(g["at"]),
                                         g["quality"], g["trait"]))
        for c in data["commands"]:
            cid = new_id(c["name"])
            l = c.get("leader")
            out.append(ea.AddCommand(side, cid, c["name"], new_id(l["name"]) if l else "",
                                     l["name"] if l else "", where(l["at"]) if l else (),
                                     l["quality"] if l else 3))
            for u in c["units"]:
                uid = new_id(u["name"])
                out.append(ea.PlaceUnit(uid, u["name"], u["kind"], cid, where(u["at"]),
                                        _face(battle, u["facing"] + facing)))
                extra = tuple((f, u[f]) for f in FLAGS if u.get(f))
                if u.get("formation", "line") != "line":
                    extra += (("formation", u["formation"]),)
                if u.get("nation") and u["nation"] != battle.sides[side].nation:
                    extra += (("nation", u["nation"]),)
                if extra:
                    out.append(ea.EditUnit(uid, extra))
        return out


def _face(battle, degrees: float) -> int:
    step = 45 if battle.battlefield.grid else 1
    return int(round(degrees / step) * step) % 360
