"""Opening a Berthier SQLite file for writing: judged on an in-memory copy first
(sqlite_file.read_copy), then locked, an older file backed up to `<name>.v<N>.bak` and its
upgraded copy renamed into place in one step, or refused with nothing on disk changed."""
from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..errors import StoreError
from . import lock
from .sqlite_file import (Schema, check_header, connect, place, plain, read_copy,
                          remove_with_sidecars, snapshot, temp_name)


def open_file(path, schema: Schema, accept=None, locked: bool = True) -> "Opened":
    """Open a file for writing, or refuse it with nothing on disk changed.

    The whole file is judged on an in-memory copy first (upgraded there if older), and
    `accept(copy)` may refuse it too (a battle's log must replay). Only then is the write
    lock taken, the original copied to `NAME.v<N>.bak` and the upgraded copy renamed into
    place in one step. Returns the read-write db, the backup, the lock and what `accept`
    returned."""
    path = Path(path)
    check_header(path, schema.kind)
    wl = lock.WriteLock.acquire(path) if locked else None
    try:
        copy, version = read_copy(path, schema, live=False if locked else None)
        try:
            accepted = accept(copy) if accept else None
            backup = None
            if version < schema.version:
                backup = _backup(path, path.with_name(f"{path.name}.v{version}.bak"))
                _replace_with(path, copy)
        finally:
            copy.close()
        db = connect(path)
    except BaseException:
        if wl is not None:
            wl.release()
        raise
    return Opened(db, str(backup) if backup else None, wl, accepted)


@dataclass
class Opened:
    db: sqlite_utils.Database
    backup: str | None
    lock: "lock.WriteLock | None"
    accepted: object = None


def _replace_with(path: Path, copy: sqlite_utils.Database) -> None:
    """The upgraded copy written beside the file, then renamed over it in one step."""
    tmp = temp_name(path, ".upgrade")
    try:
        dst = sqlite3.connect(str(tmp))
        try:
            copy.conn.backup(dst)
        finally:
            dst.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        place(tmp, path, replace=True)
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"{path}: upgrading failed ({plain(exc)}); the file is unchanged") from None
    finally:
        remove_with_sidecars(tmp)


def _backup(path: Path, target: Path) -> Path:
    """A copy of the file as it is: bytes when nothing is pending, else the committed
    content (a WAL left by a crash folded in)."""
    n = 1
    while target.exists():
        target = target.with_name(f"{path.name}.v-backup{n}.bak")
        n += 1
    wal = path.with_name(path.name + "-wal")
    tmp = temp_name(target, ".part")
    try:
        if not (wal.exists() and wal.stat().st_size > 0):
            shutil.copyfile(path, tmp)
        else:
            src = snapshot(path, live=False)
            dst = sqlite3.connect(str(tmp))
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        place(tmp, target, replace=False)
    except (sqlite3.Error, OSError, StoreError) as exc:
        raise StoreError(f"{path}: cannot make the backup copy {target} before upgrading "
                         f"({exc}); nothing was changed") from None
    finally:
        remove_with_sidecars(tmp)
    return target
