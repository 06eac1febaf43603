"""Copy and paste of units: the copies keep kind, name, facing, command and their places
relative to one another; a paste is one undoable group of PlaceUnit actions."""
from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from manager.editor_actions import PlaceUnit

from .battlefield.paint_tools import new_id

MIME_NOTE = "berthier-units"


class UnitClipboard:
    def __init__(self, doc):
        self.doc = doc
        self.items: list[dict] = []

    def copy(self) -> int:
        b = self.doc.shown
        units = [b.units[u] for u in self.doc.selected_units() if not b.units[u].eliminated]
        if not units:
            self.doc.refused.emit("select units to copy")
            return 0
        x0, y0 = units[0].x, units[0].y
        self.items = [{"kind": u.kind, "name": u.name, "facing": u.facing,
                       "command": b.hierarchy.find_command(u.id), "dx": u.x - x0, "dy": u.y - y0}
                      for u in units]
        QApplication.clipboard().setText(json.dumps({MIME_NOTE: self.items}))
        self.doc.message.emit(f"copied {len(units)} unit(s)")
        return len(units)

    def paste(self, at=None) -> list[str]:
        if not self.items:
            self.doc.refused.emit("nothing copied yet")
            return []
        b = self.doc.battle
        g = b.battlefield.grid or 3.0
        if at is None or not (0 <= at[0] <= b.battlefield.width and 0 <= at[1] <= b.battlefield.height):
            src = [u for u in self.doc.selected_units()] or []
            base = b.units[src[0]].pos if src else (b.battlefield.width / 2, b.battlefield.height / 2)
            at = (base[0] + g, base[1])
        placed = []
        with self.doc.group(f"paste {len(self.items)} unit(s)"):
            for item in self.items:
                if item["command"] not in b.commands:
                    continue
                uid = new_id(b, f"{item['command']}_u")
                name = f"{item['name']} (copy)"
                pos = (at[0] + item["dx"], at[1] + item["dy"])
                if self.doc.execute(PlaceUnit(uid, name, item["kind"], item["command"], pos, item["facing"])):
                    placed.append(uid)
        if placed:
            self.doc.select(placed)
        return placed
