"""One writer per file: a lock record beside a battle (or campaign) while it is recorded.

`NAME.lock` holds who writes (host, process, program, since when) as JSON, and the
writer holds an OS lock on it (flock) for as long as the file is open. The record is
made under a private name, locked, then linked into place, so whoever sees `NAME.lock`
sees it locked, and two openers racing for it cannot both win (link never overwrites).

A record nobody holds the OS lock on was left by a process that died (kill -9, a flat
battery): it is cleared, and the opener is told. A record from another host cannot be
judged from here (its OS lock may not reach us): it is treated as held, and the message
says which file to remove if that Berthier is really gone.
"""
from __future__ import annotations

import json
import os
import socket
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

from ..errors import StoreError

try:                                    # POSIX; elsewhere the process id alone is judged
    import fcntl
except ImportError:                     # pragma: no cover - Windows
    fcntl = None


class FileLocked(StoreError):
    """The file is open for recording elsewhere; `holder` says by whom."""

    def __init__(self, path, holder: dict):
        self.path, self.holder = Path(path), holder
        super().__init__(f"{path}: {describe(holder)}; close it there first, or open it "
                         f"read-only to view it and report on it")


def lock_path(path) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".lock")


def describe(holder: dict) -> str:
    here = holder.get("host") == socket.gethostname()
    who = ("this Berthier" if here and holder.get("pid") == os.getpid()
           else f"process {holder.get('pid', '?')} ({holder.get('program', 'berthier')})")
    where = "" if here else f" on {holder.get('host', 'an unknown host')}"
    return f"open for recording by {who}{where} since {holder.get('since', '?')}"


def _record() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "program": Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python",
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _try_lock(fd: int) -> bool:
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _read(lp: Path) -> dict:
    try:
        data = json.loads(lp.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _pid_alive(pid) -> bool:
    try:
        os.kill(int(pid), 0)
    except (OSError, ValueError, TypeError, OverflowError):
        return False
    return True


class WriteLock:
    """Held while a file is open for writing; `cleared` says if a dead writer's was removed."""

    def __init__(self, path: Path, fd: int, cleared: str | None):
        self.path, self.fd, self.cleared = path, fd, cleared

    @classmethod
    def acquire(cls, path) -> "WriteLock":
        path = Path(path)
        lp = lock_path(path)
        cleared = None
        for _ in range(5):
            fd = cls._create(lp)
            if fd is not None:
                return cls(lp, fd, cleared)
            stale = cls._stale(lp)
            if stale is None:
                continue                # it vanished meanwhile: try again
            if stale is False:
                raise FileLocked(path, _read(lp))
            holder, fd_old = stale
            try:
                lp.unlink(missing_ok=True)
            finally:
                os.close(fd_old)
            cleared = (f"{path}: cleared a lock left by process {holder.get('pid', '?')} "
                       f"(since {holder.get('since', '?')}), which is no longer running; the "
                       f"battle is as its last committed action left it")
        raise FileLocked(path, _read(lp))

    @staticmethod
    def _create(lp: Path) -> int | None:
        tmp = lp.with_name(f".{lp.name}.{uuid.uuid4().hex}")
        try:
            return WriteLock._make(lp, tmp)
        except OSError as exc:
            target = lp.with_name(lp.name[:-len(".lock")])
            raise StoreError(f"{target}: cannot be opened for writing: the lock file {lp.name} "
                             f"cannot be made in {lp.parent} ({exc.strerror or exc}); a "
                             f"read-only folder or a full disk?") from None

    @staticmethod
    def _make(lp: Path, tmp: Path) -> int | None:
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o644)
        try:
            _try_lock(fd)
            os.write(fd, json.dumps(_record()).encode())
            os.fsync(fd)
            try:
                os.link(tmp, lp)          # never overwrites: the first of two racers wins
            except FileExistsError:
                os.close(fd)
                return None
            except OSError:               # a file system without hard links
                try:
                    fd2 = os.open(lp, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o644)
                except FileExistsError:
                    os.close(fd)
                    return None
                os.close(fd)
                fd = fd2
                _try_lock(fd)
                os.write(fd, json.dumps(_record()).encode())
                os.fsync(fd)
            return fd
        except BaseException:
            try:
                os.close(fd)
            except OSError:
                pass
            raise
        finally:
            tmp.unlink(missing_ok=True)

    @staticmethod
    def _stale(lp: Path):
        """None if gone, False if held, else (holder, fd holding the OS lock on it)."""
        try:
            fd = os.open(lp, os.O_RDWR)
        except FileNotFoundError:
            return None
        except OSError:
            return False
        holder = _read(lp)
        if holder.get("host", socket.gethostname()) != socket.gethostname():
            os.close(fd)
            return False                  # another machine's: it cannot be judged from here
        if fcntl is not None:
            if not _try_lock(fd):
                os.close(fd)
                return False
        elif _pid_alive(holder.get("pid")):
            os.close(fd)
            return False
        return holder, fd

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        finally:
            os.close(self.fd)
            self.fd = None


def holder(path) -> dict | None:
    """Who holds the file open for recording now, or None (a dead writer's record is None)."""
    lp = lock_path(path)
    if not lp.exists():
        return None
    stale = WriteLock._stale(lp)
    if stale is None:
        return None
    if stale is False:
        return _read(lp) or {"pid": "?"}
    _, fd = stale
    os.close(fd)
    return None
