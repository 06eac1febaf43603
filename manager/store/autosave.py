"""Autosave: a game opened from a scenario is recorded from its first action on.

The umpire who never pressed Save still has the whole battle, action by action, in the
data folder's autosave/ (the newest 30 are kept). Nothing is written for a scenario
that is only looked at.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..errors import StoreError
from .battle_file import create_battle
from .oob_library import data_dir

KEEP = 30


def autosave_dir() -> Path:
    return data_dir() / "autosave"


class Autosave:
    def __init__(self, session, stem: str, folder: Path | None = None):
        self.session, self.stem = session, stem
        self.folder = Path(folder) if folder else autosave_dir()
        self.file = None
        self._error: str | None = None
        self._unsubscribe = session.bus.subscribe(self._first)

    @property
    def error(self) -> str | None:
        return self._error or (self.file.error if self.file else None)

    @property
    def path(self) -> Path | None:
        return self.file.path if self.file else None

    def _first(self, kind: str, entry) -> None:
        if kind != "executed" or self.file is not None:
            return
        self._unsubscribe()
        self._unsubscribe = lambda: None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.stem)
        path = self.folder / f"{safe}-{stamp}.berthier"
        n = 1
        while path.exists():
            n += 1
            path = self.folder / f"{safe}-{stamp}-{n}.berthier"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.file = create_battle(path, self.session)   # includes this first entry
        except (StoreError, OSError) as exc:
            self._error = f"autosave failed: {exc}"
            return
        prune(self.folder)

    def close(self) -> None:
        self._unsubscribe()
        if self.file is not None:
            self.file.close()


def prune(folder: Path, keep: int = KEEP) -> None:
    files = sorted(folder.glob("*.berthier"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[keep:]:
        old.unlink(missing_ok=True)
