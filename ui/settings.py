"""What the app remembers between runs: recent files, the last battle, window layout.

An INI file in the user's config folder (platformdirs), or where BERTHIER_CONFIG points,
so tests and portable installs never touch the real one.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from PySide6.QtCore import QSettings

MAX_RECENT = 8


def settings_path() -> Path:
    override = os.environ.get("BERTHIER_CONFIG")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("berthier", appauthor=False)) / "berthier.ini"


class AppSettings:
    def __init__(self, path: Path | None = None):
        self.q = QSettings(str(path or settings_path()), QSettings.IniFormat)

    def recent(self) -> list[str]:
        value = self.q.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in (value or []) if v]

    def add_recent(self, path) -> None:
        path = str(Path(path).resolve())
        items = [path] + [p for p in self.recent() if p != path]
        self.q.setValue("recent", items[:MAX_RECENT])
        self.q.setValue("last", path)
        self.q.sync()

    def last(self) -> str:
        return str(self.q.value("last", "") or "")

    def unnamed(self) -> str:
        """The autosave of the last game begun from a scenario and never named."""
        return str(self.q.value("unnamed", "") or "")

    def set_unnamed(self, path) -> None:
        self.q.setValue("unnamed", str(path) if path else "")
        self.q.sync()

    def window(self) -> tuple:
        return self.q.value("geometry"), self.q.value("state")

    def save_window(self, geometry, state) -> None:
        self.q.setValue("geometry", geometry)
        self.q.setValue("state", state)
        self.q.sync()
