"""A battle file: the scenario it began from, the seed, and every action with its dice.

`BattleFile` listens on the session's bus and commits each executed, undone or redone
action in its own transaction as it happens, so a crash loses at most the action in
flight. Opening folds the live log over the stored scenario (`Session.replay`): the
log is the truth, and the file keeps what was taken back, marked, for the record.
"""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from ..errors import BerthierError, StoreError
from ..session import LogEntry, Session
from . import sqlite_file
from .battle_schema import BATTLE_SCHEMA
from .scenario_rows import battle_from_rows, write_scenario


def entry_row(entry: LogEntry, state: str = "live") -> dict:
    d = entry.to_dict()
    return {"position": entry.index, "verb": entry.action.verb, "action": json.dumps(d["action"]),
            "rolls": json.dumps(d["rolls"]), "turn": entry.turn, "phase": entry.phase,
            "side": entry.side, "events": json.dumps(d["events"]), "state": state,
            "recorded_at": sqlite_file.now()}


def _entry(path, row) -> LogEntry:
    try:
        return LogEntry.from_dict({"index": row["position"], "action": json.loads(row["action"]),
                                   "rolls": json.loads(row["rolls"]), "turn": row["turn"] or 0,
                                   "phase": row["phase"] or "", "side": row["side"] or ""})
    except (ValueError, KeyError, TypeError, BerthierError) as exc:
        raise StoreError(f"{path}: log entry {row['position']} (row {row['id']}) cannot be "
                         f"read: {exc}") from None


class BattleFile:
    """An open battle file bound to its session. Close it when done."""

    def __init__(self, db, path: Path, session: Session, backup: str | None = None,
                 drift: list[int] | None = None):
        self.db, self.path, self.session = db, Path(path), session
        self.backup = backup              # where the pre-upgrade copy went, if upgraded
        self.drift = drift or []          # entries whose events replay differently now
        self.error: str | None = None     # set when a write failed; the game goes on in memory
        self.commit_times: list[float] = []
        self._unsubscribe = session.bus.subscribe(self._record)

    @property
    def meta(self) -> dict:
        return sqlite_file.meta(self.db)

    # ---- recording -------------------------------------------------------------------
    def _record(self, kind: str, entry: LogEntry) -> None:
        # A failed write must not undo the table's move: the battle goes on in memory,
        # recording stops (a log with a gap would not replay), and `error` says so.
        if self.error:
            return
        start = time.perf_counter()
        try:
            with self.db.atomic():
                getattr(self, f"_{kind}")(entry)
        except sqlite3.Error as exc:
            self.error = (f"{self.path}: action {entry.index + 1} could not be written ({exc}); "
                          f"the battle goes on, unsaved: save it under another name")
            return
        self.commit_times.append(time.perf_counter() - start)

    def _history(self, ids, change: str) -> None:
        at = sqlite_file.now()
        self.db["history"].insert_all([{"entry": i, "change": change, "at": at} for i in ids])

    def _executed(self, entry: LogEntry) -> None:
        dropped = [r[0] for r in self.db.execute("SELECT id FROM entries WHERE state = 'undone'")]
        if dropped:
            self.db.execute("UPDATE entries SET state = 'dropped' WHERE state = 'undone'")
            self._history(dropped, "drop")
        self.db["entries"].insert(entry_row(entry))

    def _undone(self, entry: LogEntry) -> None:
        self._move(entry.index, "live", "undone", "undo")

    def _redone(self, entry: LogEntry) -> None:
        self._move(entry.index, "undone", "live", "redo")

    def _move(self, position: int, was: str, now: str, change: str) -> None:
        row = self.db.execute("SELECT id FROM entries WHERE state = ? AND position = ? "
                              "ORDER BY id DESC LIMIT 1", [was, position]).fetchone()
        if row is None:
            raise sqlite3.IntegrityError(f"no {was} entry at position {position}")
        self.db.execute("UPDATE entries SET state = ? WHERE id = ?", [now, row[0]])
        self._history([row[0]], change)

    # ---- reading ------------------------------------------------------------------------
    def taken_back(self) -> list[dict]:
        """Every undo, redo and drop, oldest first, with the entry it concerned."""
        return list(self.db.query(
            "SELECT h.change, h.at, e.position, e.verb, e.state FROM history h "
            "JOIN entries e ON e.id = h.entry ORDER BY h.id"))

    def close(self) -> None:
        self._unsubscribe()
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        self.db.close()


def write_log(db, session: Session) -> None:
    """Every entry of a session: live, waiting to be redone, and taken back."""
    db["entries"].insert_all([entry_row(e) for e in session.entries])
    redo = {id(e) for e in session.redo_stack}
    for e in sorted(session.redo_stack, key=lambda e: e.index):
        db["entries"].insert(entry_row(e, "undone"))
    for e in session.taken_back:
        if id(e) not in redo:
            db["entries"].insert(entry_row(e, "dropped"))


def create_battle(path, session: Session, replace: bool = False, **meta) -> BattleFile:
    """Write a new battle file for this session (its log so far too) and keep recording.

    The file is built beside the target and renamed into place, so a failure never
    leaves a half-written battle under the real name. `replace` allows overwriting
    (the app's Save As, after the user has confirmed).
    """
    path = Path(path)
    if path.exists() and not replace:
        raise StoreError(f"{path}: already exists; choose another name or remove it first")
    tmp = path.with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    info = session.battle.info
    db = sqlite_file.create(tmp, BATTLE_SCHEMA, {"created": sqlite_file.now(), "scenario": info.name,
                                                 "ruleset": info.ruleset, **meta})
    try:
        with db.atomic():
            write_scenario(db, session.initial_battle())
            write_log(db, session)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        tmp.replace(path)
    except (sqlite3.Error, OSError) as exc:
        db.close()
        tmp.unlink(missing_ok=True)
        raise StoreError(f"{path}: cannot be written ({exc})") from None
    db = sqlite_file.connect(path)
    return BattleFile(db, path, session)


def read_session(db, path) -> tuple[Session, list[int]]:
    """Fold the stored log over the stored scenario; (session, entries that drifted)."""
    battle = battle_from_rows(db, path)
    rows = list(db.query("SELECT * FROM entries ORDER BY id"))
    live = sorted((r for r in rows if r["state"] == "live"), key=lambda r: r["position"])
    for n, r in enumerate(live):
        if r["position"] != n:
            raise StoreError(f"{path}: the log has a gap: entry {n} is missing "
                             f"(found {r['position']})")
    entries = [_entry(path, r) for r in live]
    try:
        session = Session.replay(battle, entries)
    except BerthierError as exc:
        raise StoreError(f"{path}: the log no longer replays ({exc}). The file is unchanged; "
                         f"it may need the Berthier version that wrote it") from None
    drift = [r["position"] for r, e in zip(live, session.entries)
             if json.loads(r["events"] or "[]") != [ev.describe() for ev in e.events]]
    undone = sorted((r for r in rows if r["state"] == "undone"), key=lambda r: -r["position"])
    session.redo_stack = [_entry(path, r) for r in undone]
    session.taken_back = [_entry(path, r) for r in rows if r["state"] != "live"]
    return session, drift


def open_battle(path) -> BattleFile:
    """Open a battle to go on playing it: checked, upgraded if older, replayed."""
    path = Path(path)
    db, backup = sqlite_file.open_file(path, BATTLE_SCHEMA)
    try:
        session, drift = read_session(db, path)
    except BaseException:
        db.close()
        raise
    return BattleFile(db, path, session, backup, drift)


def load_battle(path) -> tuple[Session, dict]:
    """Read a battle without writing to it (reports, campaigns): (session, meta).

    The file is copied into memory first, and an older schema is upgraded there.
    """
    path = Path(path)
    version = sqlite_file.inspect(path, "battle")
    db = sqlite_file.in_memory_copy(path, version, BATTLE_SCHEMA)
    try:
        session, _ = read_session(db, path)
        return session, sqlite_file.meta(db)
    finally:
        db.close()
