"""Opening Berthier's SQLite files safely: check read-only, back up, migrate, then write.

A file is refused, untouched, when it is not SQLite, not Berthier's, of another kind
(a campaign opened as a battle), from a newer Berthier, or fails integrity_check. The
checks use `immutable=1` (unless a crash left a write-ahead log to read), so SQLite
neither locks nor creates -wal/-shm files beside a file it is only judging. An older schema is copied (SQLite's backup API, so a pending
WAL is included) to `<name>.v<N>.bak` before its migration runs, in one transaction.
"""
from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import quote

import sqlite_utils

from ..errors import StoreError

APPLICATION_ID = 0x42455254          # "BERT", in the SQLite header at offset 68
SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Schema:
    kind: str                          # "battle" or "campaign"
    version: int
    create: Callable[[sqlite_utils.Database], None]
    # migrations[v] upgrades a file of schema v to v + 1, inside one transaction
    migrations: dict


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{mode}"


def _read_uri(path: Path) -> str:
    """Read-only; immutable (no locks, no -shm left behind) unless a crash left a WAL
    whose committed actions must be read too."""
    wal = path.with_name(path.name + "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    return _uri(path, "mode=ro" if pending else "mode=ro&immutable=1")


def inspect(path, kind: str) -> int:
    """The schema version of a Berthier file of this kind, or StoreError; never writes."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except FileNotFoundError:
        raise StoreError(f"{path}: no such file") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not head.startswith(SQLITE_MAGIC):
        raise StoreError(f"{path}: not a Berthier {kind} file (it is not an SQLite database)")
    if len(head) < 100:
        raise StoreError(f"{path}: the file is truncated ({len(head)} bytes; an SQLite "
                         f"header alone is 100)")
    try:
        conn = sqlite3.connect(_read_uri(path), uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot be opened ({exc})") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise StoreError(f"{path}: an SQLite database, but not a Berthier file")
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"{path}: the file is damaged (integrity check: {'; '.join(problems)})")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        row = conn.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the file is damaged or not a Berthier file ({exc})") from None
    finally:
        conn.close()
    found = row[0] if row else None
    if found != kind:
        raise StoreError(f"{path}: a Berthier {found or 'unknown'} file, not a {kind} file")
    return version


def connect(path: Path) -> sqlite_utils.Database:
    """A read-write connection: WAL, synchronous FULL, transactions only where we say."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before execute() returns, so a closed lid or a
        # power cut loses at most the action in flight (NORMAL could lose a few).
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot be opened for writing ({exc})") from None
    return sqlite_utils.Database(conn)


def create(path, schema: Schema, meta: dict) -> sqlite_utils.Database:
    """A new, empty file of this kind; refuses to overwrite anything."""
    path = Path(path)
    if path.exists():
        raise StoreError(f"{path}: already exists; choose another name or remove it first")
    db = connect(path)
    try:
        with db.atomic():
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {int(schema.version)}")
            db["meta"].create({"key": str, "value": str}, pk="key")
            db["meta"].insert_all([{"key": k, "value": str(v)} for k, v in
                                   {"application": "berthier", "kind": schema.kind, **meta}.items()])
            schema.create(db)
    except sqlite3.Error as exc:
        db.close()
        path.unlink(missing_ok=True)
        raise StoreError(f"{path}: cannot be created ({exc})") from None
    return db


def _readable(path: Path, version: int, schema: Schema) -> None:
    if version > schema.version:
        raise StoreError(f"{path}: written by a newer Berthier (schema {version}); this "
                         f"version reads {schema.kind} files up to schema {schema.version}. "
                         f"Update Berthier to open it.")
    if version < 1 or any(v not in schema.migrations for v in range(version, schema.version)):
        raise StoreError(f"{path}: schema {version} is not one this Berthier can upgrade")


def _migrate(db, version: int, schema: Schema) -> None:
    with db.atomic():
        for v in range(version, schema.version):
            schema.migrations[v](db)
            db.execute(f"PRAGMA user_version = {v + 1}")


def open_file(path, schema: Schema) -> tuple[sqlite_utils.Database, str | None]:
    """Check, back up and migrate if older, then open for writing: (db, backup or None)."""
    path = Path(path)
    version = inspect(path, schema.kind)
    _readable(path, version, schema)
    backup = None
    if version < schema.version:
        backup = _backup(path, path.with_name(f"{path.name}.v{version}.bak"))
    db = connect(path)
    if version < schema.version:
        try:
            _migrate(db, version, schema)
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"{path}: upgrading from schema {version} failed ({exc}); "
                             f"the file is unchanged and a copy is at {backup}") from None
    return db, str(backup) if backup else None


def in_memory_copy(path, version: int, schema: Schema) -> sqlite_utils.Database:
    """The file copied into memory and upgraded there: for reading without writing."""
    path = Path(path)
    _readable(path, version, schema)
    try:
        src = sqlite3.connect(_read_uri(path), uri=True)
        mem = sqlite3.connect(":memory:", isolation_level=None)
        src.backup(mem)
        src.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot be read ({exc})") from None
    db = sqlite_utils.Database(mem)
    if version < schema.version:
        try:
            _migrate(db, version, schema)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot be read as schema {schema.version} ({exc})") from None
    return db


def _backup(path: Path, target: Path) -> Path:
    """A copy of the file as it is: bytes when nothing is pending, else SQLite's backup
    (which folds in a WAL left by a crash)."""
    n = 1
    while target.exists():
        target = target.with_name(f"{path.name}.v-backup{n}.bak")
        n += 1
    try:
        if "immutable" in _read_uri(path):
            shutil.copyfile(path, target)
        else:
            src = sqlite3.connect(_read_uri(path), uri=True)
            dst = sqlite3.connect(str(target))
            with dst:
                src.backup(dst)
            src.close()
            dst.close()
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"{path}: cannot make the backup copy {target} before upgrading "
                         f"({exc}); nothing was changed") from None
    return target


def now() -> str:
    """The time stored in Berthier's files: UTC, ISO 8601, to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def meta(db: sqlite_utils.Database) -> dict:
    return {r["key"]: r["value"] for r in db.query("SELECT key, value FROM meta")}


def set_meta(db: sqlite_utils.Database, **values) -> None:
    db["meta"].upsert_all([{"key": k, "value": str(v)} for k, v in values.items()], pk="key")
