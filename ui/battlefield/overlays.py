"""Marks drawn over the table for a moment or while an order is being chosen: the line
from a shooter to the target picked in the turn runner, a flash on the pieces an order
just touched (so the umpire sees on the map what the turn runner says happened), and on
an open table the selected unit's range bands and fire arc (the ruleset's numbers,
measured from the middle of its front edge)."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QTimer, Qt
from PySide6.QtGui import QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsLineItem, QGraphicsPathItem,
                               QGraphicsSimpleTextItem)

AIM_PEN = QPen(QColor(200, 20, 20, 230), 0.35, Qt.DashLine)
FLASH_PEN = QPen(QColor(255, 190, 0), 0.5)
FLASH_MS = 1500
OVERLAY_Z = 40
BAND_PENS = [QPen(QColor(150, 40, 160, c), 0.12, Qt.DashLine) for c in (230, 180, 130, 100)]
ARC_PEN = QPen(QColor(150, 40, 160, 200), 0.1, Qt.DotLine)


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
        self.bands = QGraphicsPathItem()
        self.bands.setZValue(OVERLAY_Z - 1)
        self.bands.setAcceptedMouseButtons(Qt.NoButton)
        self.bands.setPen(ARC_PEN)
        scene.addItem(self.bands)
        self.band_items: list = []
        self.band_ranges: list[tuple[str, float]] = []     # what is drawn (tests read it)

    def show_bands(self) -> None:
        """Range bands and arc of the one selected unit on an open table."""
        for item in self.band_items:
            self.scene.removeItem(item)
        self.band_items, self.band_ranges = [], []
        self.bands.setPath(QPainterPath())
        doc = self.scene.doc
        b, rs = doc.shown, doc.ruleset
        units = doc.selected_units()
        if rs.measure != "inches" or len(units) != 1 or b.units[units[0]].eliminated:
            return
        u = b.units[units[0]]
        bands = [(label, r) for label, r in rs.range_bands(b, u) if r > 0]
        if not bands:
            return
        depth = rs.footprint(b, u)[1]
        a = math.radians(u.facing)
        fx, fy = u.x + math.sin(a) * depth / 2, u.y - math.cos(a) * depth / 2   # front middle
        font = QFont("Sans")
        font.setPixelSize(1)
        for k, (label, r) in enumerate(bands):
            ring = QGraphicsEllipseItem(fx - r, fy - r, 2 * r, 2 * r)
            ring.setPen(BAND_PENS[min(k, len(BAND_PENS) - 1)])
            ring.setZValue(OVERLAY_Z - 1)
            ring.setAcceptedMouseButtons(Qt.NoButton)
            self.scene.addItem(ring)
            text = QGraphicsSimpleTextItem(f'{label} {r:g}"')
            text.setFont(font)
            text.setBrush(QColor(120, 20, 130))
            text.setPos(fx + math.sin(a) * r - 1.5, fy - math.cos(a) * r)
            text.setZValue(OVERLAY_Z)
            self.scene.addItem(text)
            self.band_items += [ring, text]
        self.band_ranges = bands
        if rs.fire_arc:
            far = bands[-1][1]
            path = QPainterPath()
            for side in (-1, 1):
                t = a + side * math.radians(rs.fire_arc)
                path.moveTo(fx, fy)
                path.lineTo(fx + math.sin(t) * far, fy - math.cos(t) * far)
            self.bands.setPath(path)

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

    # ---- a reinforcement being placed by hand: its entry, and the spots given so far ----
    def show_arrival(self, entry=(), reach: float = 0.0, spots=()) -> None:
        """The entry (a point or a stretch) in green with the reach the umpire may place
        within, and a labelled square at each spot given. Nothing given: all gone."""
        for item in getattr(self, "arrival_items", []):
            self.scene.removeItem(item)
        self.arrival_items = []
        if not entry:
            return
        pen = QPen(QColor(20, 130, 40, 230), 0.5, Qt.DashLine)
        path = QPainterPath()
        (x0, y0), (x1, y1) = entry[0], entry[-1]
        path.moveTo(x0, y0)
        path.lineTo(x1, y1)
        if reach:                                  # all within reach of the entry
            from PySide6.QtGui import QPainterPathStroker
            stroker = QPainterPathStroker()
            stroker.setWidth(2 * reach)
            stroker.setCapStyle(Qt.RoundCap)
            spine = QPainterPath()
            spine.moveTo(x0, y0)
            spine.lineTo(x1 + 1e-3, y1)            # a point still makes a round cap
            path.addPath(stroker.createStroke(spine).simplified())
        line = QGraphicsPathItem(path)
        line.setPen(pen)
        self.arrival_items.append(line)
        g = self.scene.doc.shown.battlefield.grid or 2.0
        for label, (x, y) in spots:
            box = QGraphicsPathItem()
            p = QPainterPath()
            p.addRect(x - g * 0.45, y - g * 0.45, g * 0.9, g * 0.9)
            box.setPath(p)
            box.setPen(QPen(QColor(20, 130, 40), 0.3))
            text = QGraphicsSimpleTextItem(label)
            text.setFont(QFont("Sans", 1))
            text.setScale(g * 0.45)
            text.setPos(x - g * 0.4, y - g * 0.35)
            text.setBrush(QColor(20, 100, 30))
            self.arrival_items += [box, text]
        for item in self.arrival_items:
            item.setZValue(OVERLAY_Z)
            item.setAcceptedMouseButtons(Qt.NoButton)
            self.scene.addItem(item)
