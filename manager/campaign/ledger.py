"""The campaign file: roster of units and leaders, battles fought, and the ledger.

Every change is a ledger row (loss, return, replacement, join) or a leader event, so
`show` adds rows up and never stores a total that could disagree with them.
"""
from __future__ import annotations

import json
import sqlite3
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import StoreError
from ..store import opening, sqlite_file
from ..store.lock import WriteLock
from ..store.scenario_rows import (add_traits_column, battle_from_rows, create_tables,
                                   write_scenario)

TOTALS = {"losses": "loss", "returns": "return", "replacements": "replacement"}
LEDGER_KINDS = ("join", "loss", "return", "replacement")


@dataclass(frozen=True)
class CampaignOptions:
    returns_fraction: float = 0.25      # each point lost comes back on a D100 <= 100 x this
    eliminated: str = "destroyed"       # "destroyed": struck off; "reduced": kept as a cadre
    fallen_leaders: str = "roll"        # "roll": D6 1-2 killed (replaced), 3-6 wounded;
                                        # "wounded": always return; "replaced": always new

    CHOICES = {"eliminated": ("destroyed", "reduced"),
               "fallen_leaders": ("roll", "wounded", "replaced")}

    def __post_init__(self):
        if not 0 <= self.returns_fraction <= 1:
            raise StoreError(f"returns fraction: expected 0 to 1, got {self.returns_fraction}")
        for key, allowed in self.CHOICES.items():
            if getattr(self, key) not in allowed:
                raise StoreError(f"{key}: expected one of {', '.join(allowed)}, "
                                 f"got {getattr(self, key)!r}")

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items()})


def _create(db) -> None:
    create_tables(db)                           # the founding scenario
    db["roster_units"].create({"id": str, "side": str, "command": str, "name": str, "kind": str,
                               "max": int, "status": str}, pk="id")
    db["roster_leaders"].create({"id": str, "side": str, "command": str, "name": str,
                                 "quality": int, "trait": str, "status": str}, pk="id")
    db["battles"].create({"no": int, "file": str, "scenario": str, "seed": int, "winner": str,
                          "reason": str, "turns": int, "fought_at": str, "closed_at": str},
                         pk="no")
    db["ledger"].create({"id": int, "battle": int, "unit": str, "kind": str, "points": int,
                         "note": str}, pk="id", not_null={"battle", "unit", "kind", "points"},
                        foreign_keys=[("unit", "roster_units", "id")])
    db["leader_events"].create({"id": int, "battle": int, "leader": str, "event": str,
                                "note": str}, pk="id")
    db["rolls"].create({"id": int, "battle": int, "seq": int, "purpose": str, "expression": str,
                        "faces": str, "source": str}, pk="id")


# schema 2: unit traits in the founding scenario's rows
CAMPAIGN_SCHEMA = sqlite_file.Schema("campaign", 2, _create, {1: add_traits_column})


class Campaign:
    def __init__(self, db, path: Path, lock=None, read_only: bool = False):
        self.db, self.path, self.lock, self.read_only = db, Path(path), lock, read_only
        self.notice = lock.cleared if lock is not None else None

    # ---- files ---------------------------------------------------------------------------
    @classmethod
    def create(cls, path, founding_battle, name: str = "", seed: int = 1,
               options: CampaignOptions | None = None) -> "Campaign":
        """A campaign mustering every unit and leader of a scenario at its strength."""
        path = Path(path)
        options = options or CampaignOptions()
        b = founding_battle

        def fill(db):
            write_scenario(db, b)
            h = b.hierarchy
            late = {u.id: cid for a in b.pending for cid, u in a.units}
            every = b.all_units()
            for cid in b.commands:     # reinforcements still to come are mustered too
                for uid in list(h.units_of(cid)) + [x for x, c in late.items() if c == cid]:
                    u = every[uid]
                    db["roster_units"].insert({"id": uid, "side": u.side, "command": cid,
                                               "name": u.name, "kind": u.kind,
                                               "max": u.max_hits, "status": "active"})
                    db["ledger"].insert({"battle": 0, "unit": uid, "kind": "join",
                                         "points": u.hits, "note": "mustered"})
            late_leaders = {a.leader[1].id: a.leader[0] for a in b.pending if a.leader}
            for l in b.all_leaders().values():
                cid = next((c for c in b.commands if h.leader_of_command(c) == l.id),
                           late_leaders.get(l.id))
                db["roster_leaders"].insert({"id": l.id, "side": l.side, "command": cid,
                                             "name": l.name, "quality": l.quality,
                                             "trait": l.trait, "status": "fit"})

        wl = WriteLock.acquire(path)
        try:
            # built whole under a private name and linked into place: nothing half-made
            sqlite_file.create_new(path, CAMPAIGN_SCHEMA, {
                "id": uuid.uuid4().hex, "name": name or f"{b.info.name} campaign",
                "ruleset": b.info.ruleset, "seed": seed, "dice_seq": 1,
                "created": sqlite_file.now(), "options": options.to_json()}, fill)
            db = sqlite_file.connect(path)
        except BaseException:
            wl.release()
            raise
        return cls(db, path, wl)

    @contextmanager
    def transaction(self):
        """One all-or-nothing write; a full disk is a StoreError naming the file."""
        try:
            with self.db.atomic():
                yield self.db
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot be written ({sqlite_file.plain(exc)}); "
                             f"the campaign is as it was") from None

    @classmethod
    def open(cls, path) -> "Campaign":
        """Open to book battles and replacements: one writer at a time (a lock). The whole
        file is checked on a copy first; a refused file is left as it was."""
        opened = opening.open_file(path, CAMPAIGN_SCHEMA, accept=lambda db: check_rows(db, path))
        return cls(opened.db, path, opened.lock)

    @classmethod
    def view(cls, path) -> "Campaign":
        """Open to read only (show, reports): an in-memory copy; the file is not touched."""
        db, _ = sqlite_file.read_copy(path, CAMPAIGN_SCHEMA)
        try:
            check_rows(db, path)
        except BaseException:
            db.close()
            raise
        return cls(db, path, read_only=True)

    def close(self) -> None:
        try:
            if not self.read_only:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.db.close()
        finally:
            if self.lock is not None:
                self.lock.release()
                self.lock = None

    # ---- what it holds -------------------------------------------------------------------
    @property
    def meta(self) -> dict:
        return sqlite_file.meta(self.db)

    @property
    def options(self) -> CampaignOptions:
        return CampaignOptions(**json.loads(self.meta["options"]))

    def founding_battle(self):
        return battle_from_rows(self.db, self.path)

    def battles(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM battles ORDER BY no"))

    def closed_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM battles WHERE closed_at IS NOT NULL"
                               ).fetchone()[0]

    def units(self) -> dict[str, dict]:
        return {r["id"]: r for r in self.db.query("SELECT * FROM roster_units ORDER BY rowid")}

    def leaders(self) -> dict[str, dict]:
        return {r["id"]: r for r in self.db.query("SELECT * FROM roster_leaders ORDER BY rowid")}

    def strength(self) -> dict[str, int]:
        """Each unit's strength now: the sum of its ledger rows."""
        out = {uid: 0 for uid in self.units()}
        for r in self.db.query("SELECT unit, kind, sum(points) AS p FROM ledger GROUP BY unit, kind"):
            out[r["unit"]] += -r["p"] if r["kind"] == "loss" else r["p"]
        return out

    # ---- the umpire's replacements -----------------------------------------------------------
    def reinforce(self, uid: str, points: int, note: str = "") -> int:
        units = self.units()
        if uid not in units:
            raise StoreError(f"{self.path}: no unit {uid!r} on the campaign's roster")
        u = units[uid]
        if u["status"] == "destroyed":
            raise StoreError(f"{u['name']} was destroyed; it cannot take replacements")
        if points < 1:
            raise StoreError(f"replacements: expected a positive number of points, got {points}")
        now = self.strength()[uid]
        if now + points > u["max"]:
            raise StoreError(f"{u['name']} has {now} of {u['max']} points: at most "
                             f"{u['max'] - now} replacement point(s) fit")
        with self.transaction():
            self.db["ledger"].insert({"battle": self.closed_count(), "unit": uid,
                                      "kind": "replacement", "points": points,
                                      "note": note or "replacements from the depot"})
        return now + points

    # ---- the ledger in figures -----------------------------------------------------------------
    def summary(self) -> dict:
        units, strength = self.units(), self.strength()
        rows = list(self.db.query("SELECT battle, unit, kind, sum(points) AS p FROM ledger "
                                  "GROUP BY battle, unit, kind"))
        per: dict = {}
        for r in rows:
            per.setdefault(r["unit"], {}).setdefault(r["battle"], {})[r["kind"]] = r["p"]
        armies = {}
        for sid, side_name in self.db.execute("SELECT id, name FROM sides ORDER BY ord"):
            out_units = []
            for uid, u in ((k, v) for k, v in units.items() if v["side"] == sid):
                stages = per.get(uid, {})
                start = sum(s.get("join", 0) for s in stages.values())
                tot = {key: sum(s.get(kind, 0) for s in stages.values())
                       for key, kind in TOTALS.items()}
                out_units.append({
                    "id": uid, "name": u["name"], "command": u["command"], "kind": u["kind"],
                    "status": u["status"], "start": start, "now": strength[uid], **tot,
                    "battles": {str(n): {key: s.get(kind, 0) for key, kind in TOTALS.items()}
                                for n, s in sorted(stages.items())}})
            totals = {k: sum(u[k] for u in out_units)
                      for k in ("start", "now", "losses", "returns", "replacements")}
            armies[sid] = {"name": side_name, **totals, "units": out_units}
        meta = self.meta
        return {"campaign": meta["name"], "ruleset": meta["ruleset"],
                "options": json.loads(meta["options"]), "battles": self.battles(),
                "armies": armies, "leaders": list(self.leaders().values()),
                "leader_events": list(self.db.query("SELECT battle, leader, event, note FROM "
                                                    "leader_events ORDER BY id"))}

    def strength_history(self) -> dict[str, list[int]]:
        """Each army's strength after each stage: [muster, after battle 1, ...]."""
        units = self.units()
        stages = self.closed_count()
        out = {}
        for r in self.db.query("SELECT unit, battle, kind, points FROM ledger"):
            side = units[r["unit"]]["side"]
            series = out.setdefault(side, [0] * (stages + 1))
            delta = -r["points"] if r["kind"] == "loss" else r["points"]
            for k in range(min(r["battle"], stages), stages + 1):
                series[k] += delta
        return out


def _int(v) -> bool:
    return type(v) is int


def check_rows(db, path) -> None:
    """Every value the campaign code relies on, checked once when the file is opened, so an
    edited file is refused naming the table, the row and what was expected."""
    path = Path(path)
    from ..store.scenario_rows import read_rows

    def bad(where, problem):
        raise StoreError(f"{path}: {where}: {problem}")

    meta = {r["key"]: r["value"] for r in read_rows(db, path, "meta", "rowid")}
    for key in ("id", "name", "ruleset", "options"):
        if not isinstance(meta.get(key), str):
            bad(f"meta.{key}", "missing; expected text")
    for key in ("seed", "dice_seq"):
        try:
            int(meta.get(key))
        except (TypeError, ValueError):
            bad(f"meta.{key}", f"expected a whole number, got {meta.get(key)!r}")
    try:
        options = json.loads(meta["options"])
        CampaignOptions(**options)
    except (ValueError, TypeError, RecursionError, StoreError) as exc:
        bad("meta.options", f"expected the campaign's options as JSON "
                            f"(returns_fraction, eliminated, fallen_leaders): {exc}")
    battle_from_rows(db, path)                  # the founding scenario, checked like a file
    sides = {r["id"] for r in read_rows(db, path, "sides", "ord")}
    units = read_rows(db, path, "roster_units", "rowid")
    for u in units:
        where = f"roster_units row {u['id']!r}"
        if u["side"] not in sides:
            bad(where, f"side {u['side']!r} is not one of the campaign's sides")
        if not _int(u["max"]) or u["max"] < 1:
            bad(where, f"max: expected a whole number from 1, got {u['max']!r}")
        if u["status"] not in ("active", "destroyed"):
            bad(where, f"status: expected active or destroyed, got {u['status']!r}")
        if not isinstance(u["name"], str):
            bad(where, f"name: expected text, got {u['name']!r}")
    for r in read_rows(db, path, "roster_leaders", "rowid"):
        where = f"roster_leaders row {r['id']!r}"
        if r["side"] not in sides:
            bad(where, f"side {r['side']!r} is not one of the campaign's sides")
        if not _int(r["quality"]) or not 0 <= r["quality"] <= 6:
            bad(where, f"quality: expected 0 to 6, got {r['quality']!r}")
        if r["status"] not in ("fit", "wounded"):
            bad(where, f"status: expected fit or wounded, got {r['status']!r}")
    ids = {u["id"] for u in units}
    battles = read_rows(db, path, "battles", "no")
    for b in battles:
        if not _int(b["no"]) or b["no"] < 1:
            bad(f"battles row {b['no']!r}", "no: expected a battle number from 1")
    for r in read_rows(db, path, "ledger", "id"):
        where = f"ledger row {r['id']}"
        if r["unit"] not in ids:
            bad(where, f"unit {r['unit']!r} is not on the roster")
        if r["kind"] not in LEDGER_KINDS:
            bad(where, f"kind: expected one of {', '.join(LEDGER_KINDS)}, got {r['kind']!r}")
        if not _int(r["points"]) or r["points"] < 0:
            bad(where, f"points: expected a whole number from 0, got {r['points']!r}")
        if not _int(r["battle"]) or r["battle"] < 0:
            bad(where, f"battle: expected a battle number from 0, got {r['battle']!r}")
