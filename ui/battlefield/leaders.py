"""Leader markers and the ground each commands. Like counters, they mirror model records:
`sync(record, ...)` is the only way they change."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

from .items import AREA_Z, LEADER_Z, contrast


def _star(r: float) -> QPainterPath:
    """The general's five-pointed star, inside a marker of radius r."""
    star = QPainterPath()
    for k in range(10):
        rr = 0.5 * r if k % 2 == 0 else 0.22 * r
        a = math.pi / 2 + k * math.pi / 5
        pt = QPointF(rr * math.cos(a), -rr * math.sin(a))
        star.moveTo(pt) if k == 0 else star.lineTo(pt)
    star.closeSubpath()
    return star


LEADER_RADIUS = 0.7
LEADER_CENTRE = QPointF(0, 0)
LEADER_RIM_PEN = QPen(QColor("white"), 0.1)
LEADER_SELECTED_PEN = QPen(QColor("#ffb000"), 0.18)
LEADER_WOUNDED_PEN = QPen(QColor("#d00000"), 0.15)
GENERAL_STAR = _star(LEADER_RADIUS)
LEADER_CROSS = [QLineF(-0.4 * LEADER_RADIUS, 0, 0.4 * LEADER_RADIUS, 0),
                QLineF(0, -0.4 * LEADER_RADIUS, 0, 0.4 * LEADER_RADIUS)]


class LeaderItem(QGraphicsItem):
    """A round marker; the general's carries a star. Hover or select to see his command."""

    kind = "leader"
    RADIUS = LEADER_RADIUS

    def __init__(self, lid: str, area: "CommandAreaItem"):
        super().__init__()
        self.uid = lid
        self.record = None
        self.key = None
        self.area = area
        self.general = False
        self._colour = QColor("grey")
        self._mark_pen = QPen(contrast(self._colour), 0.1)
        self._hovered = False
        self.setFlag(QGraphicsItem.ItemIsSelectable)
        self.setAcceptHoverEvents(True)
        self.setZValue(LEADER_Z)

    def sync(self, leader, colour: str, general: bool, area_polygons, label: str) -> None:
        self.record = leader
        self._colour = QColor(colour)
        self._mark_pen = QPen(contrast(self._colour), 0.1)
        self.general = general
        self.setPos(leader.x, leader.y)
        self.setVisible(not leader.eliminated)
        self.area.set_polygons(area_polygons)
        self.setToolTip(label)
        self._show_area()
        self.update()

    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 0.15
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        return path

    def paint(self, p: QPainter, option, widget=None) -> None:
        # the circles are drawn in screen pixels: Qt flattens a curve stroked with a pen
        # a tenth of an inch wide, scaled up, into so many segments that one marker cost
        # 0.15 ms (four times the same circle drawn in pixels)
        t = p.worldTransform()
        k = math.hypot(t.m11(), t.m12())
        centre = t.map(LEADER_CENTRE)
        r = self.RADIUS * k
        p.resetTransform()
        rim = LEADER_SELECTED_PEN if self.isSelected() else LEADER_RIM_PEN
        p.setPen(QPen(rim.color(), rim.widthF() * k))
        p.setBrush(self._colour)
        p.drawEllipse(centre, r, r)
        if self.record is not None and self.record.hits < self.record.max_hits:
            p.setPen(QPen(LEADER_WOUNDED_PEN.color(), LEADER_WOUNDED_PEN.widthF() * k))
            p.setBrush(Qt.NoBrush)
            p.drawEllipse(centre, r + 0.05 * k, r + 0.05 * k)
        p.setWorldTransform(t)
        p.setPen(self._mark_pen)        # straight lines: drawn in inches
        if self.general:
            p.setBrush(self._mark_pen.color())
            p.drawPath(GENERAL_STAR)
        else:
            p.drawLines(LEADER_CROSS)

    def hoverEnterEvent(self, event):
        self._hovered = True
        self._show_area()

    def hoverLeaveEvent(self, event):
        self._hovered = False
        self._show_area()

    def itemChange(self, change, value):
        if change == QGraphicsItem.ItemSelectedHasChanged:
            self._show_area()
        return super().itemChange(change, value)

    def _show_area(self) -> None:
        self.area.setVisible(self.isVisible() and (self._hovered or self.isSelected()))


class CommandAreaItem(QGraphicsPathItem):
    """The ground a leader commands, as the ruleset outlines it."""

    def __init__(self, colour: str = "#ffffff"):
        super().__init__()
        self.setZValue(AREA_Z)
        self.setVisible(False)
        self.setAcceptedMouseButtons(Qt.NoButton)
        c = QColor(colour)
        self.setPen(QPen(c.darker(130), 0.15, Qt.DashLine))
        c.setAlpha(45)
        self.setBrush(c)
        self._polygons = None

    def set_polygons(self, polygons) -> None:
        if polygons == self._polygons:
            return
        self._polygons = polygons
        self.setPath(polygons_path(polygons))


def polygons_path(polygons) -> QPainterPath:
    """One outline for many polygons (boxes of a grid merge into a single region)."""
    path = QPainterPath()
    path.setFillRule(Qt.WindingFill)
    for poly in polygons or ():
        path.addPolygon(QPolygonF([QPointF(x, y) for x, y in poly]))
        path.closeSubpath()
    return path.simplified()
