"""Picking a reinforcement's entry on the map: a click is a point, a drag a stretch of
edge. The tool writes nothing: it hands the points to whoever asked (the Arrives later
dialog), and Esc hands back nothing."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from .tools import Tool


class PickEntryTool(Tool):
    name = "pick_entry"
    label = "Pick the entry"
    tip = "Click the entry on the map, or drag along the edge for a stretch (Esc: back)"

    def __init__(self, doc, scene, view, done):
        super().__init__(doc, scene, view)
        self.done = done                 # called once with ((x, y),) / two points / None
        self.start = None
        self.line = QGraphicsLineItem()
        self.line.setPen(QPen(QColor(20, 120, 20), 0.6, Qt.DashLine))
        self.line.setZValue(45)

    def activate(self) -> None:
        self.view.viewport().setCursor(Qt.CrossCursor)

    def deactivate(self) -> None:
        self.view.viewport().unsetCursor()
        if self.line.scene() is not None:
            self.scene.removeItem(self.line)

    def _point(self, pos) -> tuple[float, float]:
        bf = self.doc.shown.battlefield
        x = min(max(pos.x(), 0.0), bf.width)
        y = min(max(pos.y(), 0.0), bf.height)
        return self.snap(x, y)

    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        self.start = self._point(pos)
        self.line.setLine(QLineF(*self.start, *self.start))
        if self.line.scene() is None:
            self.scene.addItem(self.line)
        return True

    def move(self, event, pos) -> bool:
        if self.start is None:
            return False
        self.line.setLine(QLineF(*self.start, *self._point(pos)))
        return True

    def release(self, event, pos) -> bool:
        if self.start is None:
            return False
        end, start, self.start = self._point(pos), self.start, None
        far = math.dist(start, end) >= (self.doc.shown.battlefield.grid or 2.0)
        self.done((start, end) if far else (start,))
        return True

    def key(self, event) -> bool:
        if event.key() == Qt.Key_Escape:
            self.start = None
            self.done(None)
            return True
        return False
