"""Marks drawn over the table for a moment or while an order is being chosen: the line
from a shooter to the target picked in the turn runner, and a flash on the pieces an
order just touched, so the umpire sees on the map what the turn runner says happened."""
from __future__ import annotations

from PySide6.QtCore import QLineF, QTimer, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsLineItem

AIM_PEN = QPen(QColor(200, 20, 20, 230), 0.35, Qt.DashLine)
FLASH_PEN = QPen(QColor(255, 190, 0), 0.5)
FLASH_MS = 1500
OVERLAY_Z = 40


class Overlays:
    def __init__(self, scene):
        self.scene = scene
        self.aim = QGraphicsLineItem()
        self.aim.setPen(AIM_PEN)
        self.aim.setZValue(OVERLAY_Z)
        self.aim.setAcceptedMouseButtons(Qt.NoButton)
        self.aim.setVisible(False)
        scene.addItem(self.aim)
        self.flashes: dict[str, QGraphicsEllipseItem] = {}
        self._timer = QTimer(scene)         # goes with the scene: no call into a dead one
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear_flash)

    def _centre(self, pid):
        b = self.scene.doc.shown
        piece = b.units.get(pid) or b.leaders.get(pid)
        return None if piece is None else (piece.x, piece.y)

    def show_aim(self, source: str | None, target: str | None) -> None:
        a, b = (self._centre(source) if source else None), (self._centre(target) if target else None)
        self.aim.setVisible(a is not None and b is not None)
        if a is not None and b is not None:
            self.aim.setLine(QLineF(a[0], a[1], b[0], b[1]))

    def flash(self, ids) -> None:
        """Ring each piece for a moment (a unit removed by the order is ringed where it
        stood, if the battle before still knows it)."""
        self.clear_flash()
        grid = self.scene.doc.shown.battlefield.grid or 2.0
        r = grid * 0.75
        for pid in dict.fromkeys(ids):
            c = self._centre(pid)
            if c is None:
                continue
            ring = QGraphicsEllipseItem(c[0] - r, c[1] - r, 2 * r, 2 * r)
            ring.setPen(FLASH_PEN)
            ring.setZValue(OVERLAY_Z)
            ring.setAcceptedMouseButtons(Qt.NoButton)
            self.scene.addItem(ring)
            self.flashes[pid] = ring
        self._timer.start(FLASH_MS)

    def clear_flash(self) -> None:
        for ring in self.flashes.values():
            self.scene.removeItem(ring)
        self.flashes = {}
