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
from . import opening, sqlite_file
from .battle_schema import BATTLE_SCHEMA, ENTRY_COLUMNS
from .lock import WriteLock
from .lock import holder as lock_holder
from .scenario_rows import battle_from_rows, read_rows, write_scenario


def entry_row(entry: LogEntry, state: str = "live") -> dict:
    d = entry.to_dict()
    return {"position": entry.index, "verb": entry.action.verb, "action": json.dumps(d["action"]),
            "rolls": json.dumps(d["rolls"]), "turn": entry.turn, "phase": entry.phase,
            "side": entry.side, "events": json.dumps(d["events"]), "state": state,
            "recorded_at": sqlite_file.now()}


def _entry(path, row) -> LogEntry:
    where = f"{path}: log entry {row['position']} (entries row {row['id']})"
    action, rolls = _json(where, "action", row["action"]), _json(where, "rolls", row["rolls"])
    if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
        raise StoreError(f"{where}: rolls: expected a list of recorded rolls, got "
                         f"{str(row['rolls'])[:40]!r}")
    try:
        return LogEntry.from_dict({"index": row["position"], "action": action, "rolls": rolls,
                                   "turn": row["turn"] or 0,
                                   "phase": row["phase"] or "", "side": row["side"] or ""})
    except (ValueError, KeyError, TypeError, AttributeError, BerthierError) as exc:
        raise StoreError(f"{where} cannot be read: {exc}") from None


def _json(where: str, column: str, text):
    """A JSON column; refused (never a RecursionError) when it is not what we wrote."""
    try:
        return json.loads(text)
    except RecursionError:
        raise StoreError(f"{where}: {column}: nested too deeply to be Berthier's") from None
    except (TypeError, ValueError):
        raise StoreError(f"{where}: {column}: expected JSON text, got {str(text)[:40]!r}") from None


def _entry_rows(db, path) -> list[dict]:
    """Every row of the log, checked for the columns and types Berthier writes."""
    missing = set(ENTRY_COLUMNS) - set(db["entries"].columns_dict)
    if missing:
        raise StoreError(f"{path}: table entries: column(s) {', '.join(sorted(missing))} "
                         f"missing; expected {', '.join(ENTRY_COLUMNS)}")
    rows = read_rows(db, path, "entries", "id")
    for r in rows:
        if type(r["position"]) is not int or r["position"] < 0:
            raise StoreError(f"{path}: entries row {r['id']}: position: expected a whole "
                             f"number from 0, got {r['position']!r}")
        if r["state"] not in ("live", "undone", "dropped"):
            raise StoreError(f"{path}: entries row {r['id']} (log entry {r['position']}): "
                             f"state: expected live, undone or dropped, got {r['state']!r}")
    return rows


class BattleFile:
    """An open battle file bound to its session. Close it when done."""

    def __init__(self, db, path: Path, session: Session, backup: str | None = None,
                 drift: list[int] | None = None, lock=None, read_only: bool = False,
                 holder: dict | None = None):
        self.db, self.path, self.session = db, Path(path), session
        self.backup = backup              # where the pre-upgrade copy went, if upgraded
        self.drift = drift or []          # entries whose events replay differently now
        self.lock = lock                  # the write lock, held until close()
        # read-only: the db is an in-memory copy; what is played is not saved to the file
        self.read_only, self.holder = read_only, holder
        self.notice = lock.cleared if lock is not None else None   # a dead writer's lock cleared
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
            if not self.read_only:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        self.db.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None


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

    The write lock on the name is taken first (so a Save as over a battle open elsewhere,
    or two creates of one name, are refused with who holds it); the file is built under a
    private name beside the target and put in place whole, so a failure never leaves a
    half-written battle under the real name. `replace` allows overwriting (the app's
    Save as, after the user has confirmed).
    """
    path = Path(path)
    if path.exists() and not replace:
        raise StoreError(f"{path}: already exists; choose another name or remove it first")
    wl = WriteLock.acquire(path)
    try:
        if path.exists() and not replace:
            raise StoreError(f"{path}: already exists; choose another name or remove it first")
        info = session.battle.info
        tmp = sqlite_file.temp_name(path, ".part")
        try:
            db = sqlite_file.create(tmp, BATTLE_SCHEMA, {
                "created": sqlite_file.now(), "scenario": info.name, "ruleset": info.ruleset,
                **meta})
            try:
                with db.atomic():
                    write_scenario(db, session.initial_battle())
                    write_log(db, session)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                db.close()
            sqlite_file.place(tmp, path, replace=replace)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{path}: cannot be written ({sqlite_file.plain(exc)}); "
                             f"nothing was left behind") from None
        finally:
            sqlite_file.remove_with_sidecars(tmp)
        db = sqlite_file.connect(path)
    except BaseException:
        wl.release()
        raise
    return BattleFile(db, path, session, lock=wl)


def read_session(db, path) -> tuple[Session, list[int]]:
    """Fold the stored log over the stored scenario; (session, entries that drifted)."""
    battle = battle_from_rows(db, path)
    rows = _entry_rows(db, path)
    live = sorted((r for r in rows if r["state"] == "live"), key=lambda r: r["position"])
    for n, r in enumerate(live):
        if r["position"] != n:
            raise StoreError(f"{path}: the log has a gap: entry {n} is missing "
                             f"(found {r['position']})")
    entries = [_entry(path, r) for r in live]
    try:
        session = Session.replay(battle, entries)
    except BerthierError as exc:
        at = getattr(exc, "entry", None)
        where = f"log entry {at} ({live[at]['verb']})" if at is not None else "the log"
        raise StoreError(f"{path}: {where} no longer replays: {exc}. The file is unchanged; "
                         f"it may need the Berthier version that wrote it") from None
    drift = [r["position"] for r, e in zip(live, session.entries)
             if _json(f"{path}: log entry {r['position']}", "events", r["events"] or "[]")
             != [ev.describe() for ev in e.events]]
    undone = sorted((r for r in rows if r["state"] == "undone"), key=lambda r: -r["position"])
    session.redo_stack = [_entry(path, r) for r in undone]
    session.taken_back = [_entry(path, r) for r in rows if r["state"] != "live"]
    return session, drift


def open_battle(path, read_only: bool = False) -> BattleFile:
    """Open a battle to go on playing it: checked on a copy, locked, upgraded if older,
    replayed. A file open for recording elsewhere raises FileLocked naming the holder;
    `read_only` opens it anyway, on an in-memory copy, to view it (nothing is written)."""
    path = Path(path)
    if read_only:
        db, _ = sqlite_file.read_copy(path, BATTLE_SCHEMA)
        try:
            session, drift = read_session(db, path)
        except BaseException:
            db.close()
            raise
        return BattleFile(db, path, session, drift=drift, read_only=True,
                          holder=lock_holder(path))
    opened = opening.open_file(path, BATTLE_SCHEMA, accept=lambda copy: read_session(copy, path))
    session, drift = opened.accepted
    return BattleFile(opened.db, path, session, opened.backup, drift, lock=opened.lock)


def load_battle(path) -> tuple[Session, dict]:
    """Read a battle without writing to it (reports, campaigns): (session, meta).

    The file is copied into memory first (an older schema is upgraded there); the
    file, its -wal and its -shm are left exactly as they were, even while another
    Berthier records into it.
    """
    path = Path(path)
    db, _ = sqlite_file.read_copy(path, BATTLE_SCHEMA)
    try:
        session, _ = read_session(db, path)
        return session, sqlite_file.meta(db)
    finally:
        db.close()
