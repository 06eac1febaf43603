"""Opening Berthier's SQLite files safely: judge a copy, lock, back up, upgrade, then write.

A file is refused, untouched (file, -wal and -shm), when it is not SQLite, not
Berthier's, of another kind (a campaign opened as a battle), from a newer Berthier,
fails integrity_check, or holds schema objects Berthier did not make (a trigger could
rewrite the log as it is played). All of that is judged on an in-memory copy
(`snapshot`), so a file that is only read is never written. An accepted older file is
copied to `<name>.v<N>.bak`, upgraded on the copy, and renamed into place in one step
(opening.py).
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import quote

import sqlite_utils

from ..errors import StoreError
from . import lock

APPLICATION_ID = 0x42455254          # "BERT", in the SQLite header at offset 68
SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Schema:
    kind: str                          # "battle" or "campaign"
    version: int
    create: Callable[[sqlite_utils.Database], None]
    # migrations[v] upgrades a file of schema v to v + 1, inside one transaction
    migrations: dict
    legacy_objects: tuple = ()         # tables/indexes older schemas had and later dropped


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{mode}"


def check_header(path: Path, kind: str) -> None:
    """The first checks, on the raw bytes: is this an SQLite file at all."""
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


def snapshot(path: Path, live: bool | None = None) -> sqlite3.Connection:
    """The file's committed content in memory, leaving the file, its -wal and -shm as
    they were: `immutable` (no locks, nothing created) when no WAL is pending; a private
    copy of file and WAL when a crash left one (SQLite would otherwise recover it in
    place); `mode=ro` only while a live writer holds the file (its -shm is in use).
    `live=False`: the caller holds the write lock itself."""
    mem = sqlite3.connect(":memory:", isolation_level=None)
    wal = path.with_name(path.name + "-wal")
    if live is None:
        live = lock.holder(path) is not None
    try:
        if live:
            src = sqlite3.connect(_uri(path, "mode=ro"), uri=True)
        elif wal.exists() and wal.stat().st_size > 0:
            with tempfile.TemporaryDirectory(prefix="berthier-read-") as tmp:
                copy = Path(tmp) / "copy.db"
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, Path(tmp) / "copy.db-wal")
                src = sqlite3.connect(str(copy))
                try:
                    src.backup(mem)
                finally:
                    src.close()
                return mem
        else:
            src = sqlite3.connect(_uri(path, "mode=ro&immutable=1"), uri=True)
        try:
            src.backup(mem)
        finally:
            src.close()
    except sqlite3.Error as exc:
        mem.close()
        raise StoreError(f"{path}: the file is damaged or not a Berthier file ({exc})") from None
    except OSError as exc:
        mem.close()
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return mem


def _expected_objects(schema: Schema) -> set[str]:
    """The tables and indexes Berthier makes for this kind of file, under any schema."""
    db = sqlite_utils.Database(memory=True)
    db["meta"].create({"key": str, "value": str}, pk="key")
    schema.create(db)
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    return names | set(schema.legacy_objects)


def _check(conn, path: Path, schema: Schema) -> int:
    """Everything judged on the in-memory copy; the schema version, or StoreError."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise StoreError(f"{path}: an SQLite database, but not a Berthier file")
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"{path}: the file is damaged (integrity check: {'; '.join(problems)})")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        row = conn.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
        objects = list(conn.execute("SELECT type, name FROM sqlite_master"))
        for t, n in objects:               # a schema whose text cannot be read is damaged
            if t == "table":
                conn.execute(f"PRAGMA table_info([{n}])").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: the file is damaged or not a Berthier file ({exc})") from None
    found = row[0] if row else None
    if found != schema.kind:
        raise StoreError(f"{path}: a Berthier {found or 'unknown'} file, not a {schema.kind} file")
    expected = _expected_objects(schema)
    foreign = [f"{t} {n!r}" for t, n in objects
               if t not in ("table", "index") or (n not in expected
                                                  and not n.startswith("sqlite_autoindex_"))]
    if foreign:
        raise StoreError(f"{path}: holds {', '.join(foreign)}, which Berthier did not create; "
                         f"refusing a file that could change itself as it is played")
    _readable(path, version, schema)
    return version


def inspect(path, kind_or_schema) -> int:
    """The schema version of a Berthier file of this kind, or StoreError; never writes."""
    path = Path(path)
    schema = _schema(kind_or_schema)
    check_header(path, schema.kind)
    conn = snapshot(path)
    try:
        return _check(conn, path, schema)
    finally:
        conn.close()


def read_copy(path, schema: Schema, live: bool | None = None) -> tuple[sqlite_utils.Database, int]:
    """The whole file checked and copied into memory, upgraded there if older:
    (db, the file's own schema version). Nothing on disk is touched."""
    path = Path(path)
    check_header(path, schema.kind)
    conn = snapshot(path, live)
    try:
        version = _check(conn, path, schema)
    except BaseException:
        conn.close()
        raise
    db = sqlite_utils.Database(conn)
    if version < schema.version:
        try:
            _migrate(db, version, schema)
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"{path}: cannot be upgraded from schema {version} ({exc}); the "
                             f"file is unchanged") from None
    missing = sorted(_expected_tables(schema) - set(db.table_names()))
    if missing:
        db.close()
        raise StoreError(f"{path}: table(s) {', '.join(missing)} missing; a Berthier "
                         f"{schema.kind} file has {', '.join(sorted(_expected_tables(schema)))}")
    return db, version


def _expected_tables(schema: Schema) -> set[str]:
    db = sqlite_utils.Database(memory=True)
    schema.create(db)
    names = set(db.table_names()) | {"meta"}
    db.close()
    return names


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


def temp_name(path: Path, suffix: str) -> Path:
    """A private name beside `path`: two writers started in the same instant never share it."""
    return path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:12]}{suffix}")


def remove_with_sidecars(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
              path.with_name(path.name + "-journal")):
        try:
            p.unlink(missing_ok=True)
        except OSError:
            pass


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
        remove_with_sidecars(path)
        raise StoreError(f"{path}: cannot be created ({plain(exc)})") from None
    return db


def create_new(path, schema: Schema, meta: dict, fill=None) -> None:
    """Build a complete file under a private name and link it into place: one of two
    creates racing for a name wins, the other is told; a failure leaves nothing."""
    path = Path(path)
    if path.exists():
        raise StoreError(f"{path}: already exists; choose another name or remove it first")
    tmp = temp_name(path, ".part")
    try:
        db = create(tmp, schema, meta)
        try:
            if fill is not None:
                with db.atomic():
                    fill(db)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()
        place(tmp, path, replace=False)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot be written ({plain(exc)})") from None
    finally:
        remove_with_sidecars(tmp)


def place(tmp: Path, path: Path, replace: bool) -> None:
    """Put a finished file under its name: never over another unless `replace`."""
    try:
        if replace:
            for side in ("-wal", "-shm"):             # the old file's, not this one's
                path.with_name(path.name + side).unlink(missing_ok=True)
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)                       # fails if the name is taken
        except FileExistsError:
            raise StoreError(f"{path}: already exists (another Berthier created it a moment "
                             f"ago); choose another name") from None
        except OSError:                              # no hard links here: best effort
            if path.exists():
                raise StoreError(f"{path}: already exists; choose another name") from None
            os.replace(tmp, path)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def plain(exc: Exception) -> str:
    """An OS or SQLite error in words (a full disk says so)."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    text = str(exc)
    return "the disk is full" if "full" in text.lower() else text


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


def _schema(kind_or_schema) -> Schema:
    if isinstance(kind_or_schema, Schema):
        return kind_or_schema
    from .battle_schema import BATTLE_SCHEMA
    if kind_or_schema == "battle":
        return BATTLE_SCHEMA
    raise ValueError(f"inspect: give the Schema for {kind_or_schema!r} files")


def now() -> str:
    """The time stored in Berthier's files: UTC, ISO 8601, to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def meta(db: sqlite_utils.Database) -> dict:
    return {r["key"]: r["value"] for r in db.query("SELECT key, value FROM meta")}


def set_meta(db: sqlite_utils.Database, **values) -> None:
    db["meta"].upsert_all([{"key": k, "value": str(v)} for k, v in values.items()], pk="key")
