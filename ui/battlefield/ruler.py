"""The ruler: press on a unit (or anywhere) and drag; the line shows the distance in
inches, and in boxes on a grid. It measures, it changes nothing, so it stays on during
the battle ("is it within 12 inches?"). Esc or a new press clears it."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, Qt
from PySide6.QtGui import QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsSimpleTextItem

from .tools import Tool

RULER_PEN = QPen(QColor(20, 20, 20), 0.15)


class RulerTool(Tool):
    name, label, shortcut = "ruler", "Ruler", "M"
    tip = "Press on a unit or a spot and drag to measure; Esc clears"

    def __init__(self, doc, scene, view):
        super().__init__(doc, scene, view)
        self.line = None
        self.text = None
        self.distance = None          # inches of the last measure (tests read it)
        self._from = None

    def deactivate(self) -> None:
        self.clear()

    def clear(self) -> None:
        for item in (self.line, self.text):
            if item is not None:
                self.scene.removeItem(item)
        self.line = self.text = self._from = None

    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        self.clear()
        piece = self.piece_at(pos)
        rec = None if piece is None else (self.doc.shown.units.get(piece.uid)
                                           or self.doc.shown.leaders.get(piece.uid))
        self._from = (rec.x, rec.y) if rec is not None else (pos.x(), pos.y())
        self.line = QGraphicsLineItem()
        self.line.setPen(RULER_PEN)
        self.line.setZValue(45)
        self.text = QGraphicsSimpleTextItem()
        font = QFont("Sans")
        font.setPixelSize(2)
        self.text.setFont(font)
        self.text.setZValue(46)
        for item in (self.line, self.text):
            item.setAcceptedMouseButtons(Qt.NoButton)
            self.scene.addItem(item)
        self._update(pos)
        return True

    def move(self, event, pos) -> bool:
        if self._from is None or not (event.buttons() & Qt.LeftButton):
            return False
        self._update(pos)
        return True

    def _update(self, pos) -> None:
        x0, y0 = self._from
        self.line.setLine(QLineF(x0, y0, pos.x(), pos.y()))
        self.distance = math.hypot(pos.x() - x0, pos.y() - y0)
        g = self.doc.shown.battlefield.grid
        boxes = f" ({self.distance / g:.1f} boxes)" if g else ""
        text = f'{self.distance:.1f}"{boxes}'
        self.text.setText(text)
        self.text.setPos(pos.x() + 0.5, pos.y() - 2.5)
        self.doc.message.emit(f"Ruler: {text}")

    def release(self, event, pos) -> bool:
        if self._from is None:
            return False
        self._update(pos)
        self._from = None             # the line stays until the next press or Esc
        return True

    def key(self, event) -> bool:
        if event.key() == Qt.Key_Escape:
            self.clear()
            return True
        return False
