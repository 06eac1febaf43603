"""Terrain drawn the way a wargamer reads a map: woods with trees, towns with buildings,
hills with contour lines, blue water, brown roads, walls with ticks, bridges and fords.

Decorations (trees, buildings, contours) are worked out once per feature from its shape
with shapely and cached on the item, so panning repaints only paths.
"""
from __future__ import annotations

import random
import zlib

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (QBrush, QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPicture,
                           QPolygonF)
from PySide6.QtWidgets import QGraphicsItem
from shapely.geometry import LineString, Point, Polygon

# (fill, outline, z) per area kind; hills lowest so woods and towns sit on them
AREA_STYLE = {
    "hill": ("#d9c9a0", "#8a6a3a", 1), "fields": ("#e8e2a8", "#b8ae60", 2),
    "rough": ("#c8bfa8", "#8c8068", 2), "marsh": ("#b8c8a0", "#6c8060", 3),
    "lake": ("#8fb8e0", "#3b6fa8", 3), "woods": ("#8dbb6c", "#3f6b2a", 4),
    "town": ("#d8c8b0", "#7a5a40", 5),
}
LINE_STYLE = {   # colour, width in inches, z
    "river": ("#4a86c8", 1.2, 6), "stream": ("#5c9ad8", 0.45, 6),
    "road": ("#b08850", 0.6, 7), "wall": ("#505050", 0.2, 8),
}
POINT_Z = 9


def _rng(fid: str) -> random.Random:
    return random.Random(zlib.crc32(fid.encode()))     # same decorations every time


class TerrainItem(QGraphicsItem):
    def __init__(self, feature):
        super().__init__()
        self.fid = feature.id
        self.feature = None
        self.setFlag(QGraphicsItem.ItemIsSelectable)
        self.sync(feature)

    # ---- the model's shape, once -----------------------------------------------------
    def sync(self, feature) -> None:
        self.prepareGeometryChange()
        self.feature = feature
        self._decor: list = []
        self._picture = None           # the drawing, recorded at the first paint
        self._path = QPainterPath()
        shape = feature.shape
        if shape == "area":
            self._path.addPolygon(QPolygonF([QPointF(x, y) for x, y in feature.points]))
            self._path.closeSubpath()
            self.setZValue(AREA_STYLE.get(feature.kind, ("", "", 2))[2])
            self._decorate_area(feature)
        elif shape == "line":
            pts = feature.points
            self._path.moveTo(*pts[0])
            for pt in pts[1:]:
                self._path.lineTo(*pt)
            self.setZValue(LINE_STYLE[feature.kind][2])
        else:
            x, y = feature.points[0]
            self._path.addEllipse(QPointF(x, y), 1.0, 1.0)
            self.setZValue(POINT_Z)
        stroker = QPainterPathStroker()
        stroker.setWidth(max(LINE_STYLE.get(feature.kind, ("", 0.6))[1], 0.6))
        self._hit = self._path if shape == "area" else stroker.createStroke(self._path)
        self._bounds = self._hit.boundingRect().adjusted(-1.5, -1.5, 1.5, 1.5)
        self.setToolTip(f"{feature.name or feature.kind} ({feature.kind}"
                        + (f", level {feature.level}" if feature.kind == "hill" else "") + ")")
        self.update()

    def _decorate_area(self, f) -> None:
        if len(f.points) < 3:
            return
        poly = Polygon(f.points)
        if not poly.is_valid:
            poly = poly.buffer(0)
        rng = _rng(f.id)
        minx, miny, maxx, maxy = poly.bounds
        area = max(poly.area, 0.01)
        if f.kind == "woods":          # tree crowns, about one per 2.5 square inches
            for _ in range(min(int(area / 2.5) + 3, 400)):
                pt = Point(rng.uniform(minx, maxx), rng.uniform(miny, maxy))
                if poly.contains(pt):
                    self._decor.append(("tree", pt.x, pt.y, rng.uniform(0.35, 0.6)))
        elif f.kind == "town":         # buildings along the streets
            for _ in range(min(int(area / 3) + 3, 200)):
                x, y = rng.uniform(minx, maxx), rng.uniform(miny, maxy)
                w, h = rng.uniform(0.5, 1.1), rng.uniform(0.4, 0.8)
                if poly.contains(Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])):
                    self._decor.append(("house", x, y, w, h))
        elif f.kind == "hill":         # contour lines inward from the foot
            step = 0.9
            for k in range(1, 5):
                inner = poly.buffer(-k * step)
                if inner.is_empty:
                    break
                for part in getattr(inner, "geoms", [inner]):
                    self._decor.append(("contour", [tuple(c) for c in part.exterior.coords]))
            if f.level > 1:
                self._decor.append(("label", *poly.representative_point().coords[0], f"+{f.level}"))
        elif f.kind == "marsh":
            for _ in range(min(int(area / 1.5) + 3, 300)):
                pt = Point(rng.uniform(minx, maxx), rng.uniform(miny, maxy))
                if poly.contains(pt):
                    self._decor.append(("tuft", pt.x, pt.y))

    # ---- QGraphicsItem -----------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._hit

    def paint(self, p, option, widget=None) -> None:
        """Only the selection outline: the terrain itself is drawn in the scene's cached
        background (see BattleScene.drawBackground), so a pan repaints a strip, not the map."""
        if self.isSelected():
            p.setPen(QPen(QColor("#ffb000"), 0.25, Qt.DashLine))
            p.setBrush(Qt.NoBrush)
            p.drawPath(self._hit)

    def draw(self, p) -> None:
        """Replay the feature's drawing, recorded once per sync: a zoom redraws the whole
        background, and a wood's trees or a wall's ticks drawn call by call from Python
        were a third of a zoom frame. Replayed in C++ at the new scale: still vectors."""
        if self._picture is None:
            self._picture = QPicture()
            q = QPainter(self._picture)
            self._draw_calls(q)
            q.end()
        p.drawPicture(0, 0, self._picture)

    def _draw_calls(self, p) -> None:
        f = self.feature
        if f.shape == "area":
            self._paint_area(p, f)
        elif f.shape == "line":
            self._paint_line(p, f)
        else:
            self._paint_point(p, f)

    def _paint_area(self, p, f) -> None:
        fill, outline, _ = AREA_STYLE.get(f.kind, ("#cccccc", "#888888", 2))
        p.setPen(QPen(QColor(outline), 0.12))
        p.setBrush(QColor(fill))
        p.drawPath(self._path)
        if f.kind == "fields":
            p.setBrush(QBrush(QColor("#c8b850"), Qt.BDiagPattern))
            p.drawPath(self._path)
        elif f.kind == "rough":
            p.setBrush(QBrush(QColor("#7a6e58"), Qt.Dense7Pattern))
            p.drawPath(self._path)
        elif f.kind == "lake":
            p.setBrush(QBrush(QColor("#b8d4f0"), Qt.HorPattern))
            p.drawPath(self._path)
        for d in self._decor:
            if d[0] == "tree":
                p.setPen(QPen(QColor("#2f5a1e"), 0.06))
                p.setBrush(QColor("#4f8a36"))
                p.drawEllipse(QPointF(d[1], d[2]), d[3], d[3])
            elif d[0] == "house":
                p.setPen(QPen(QColor("#3a2a20"), 0.05))
                p.setBrush(QColor("#a0483a"))
                p.drawRect(QRectF(d[1], d[2], d[3], d[4]))
            elif d[0] == "contour":
                p.setPen(QPen(QColor("#8a6a3a"), 0.08))
                p.setBrush(Qt.NoBrush)
                p.drawPolygon(QPolygonF([QPointF(x, y) for x, y in d[1]]))
            elif d[0] == "tuft":
                p.setPen(QPen(QColor("#4c6a40"), 0.07))
                x, y = d[1], d[2]
                p.drawLine(QPointF(x - 0.3, y), QPointF(x + 0.3, y))
                p.drawLine(QPointF(x, y), QPointF(x - 0.15, y - 0.3))
                p.drawLine(QPointF(x, y), QPointF(x + 0.15, y - 0.3))
            elif d[0] == "label":
                p.setPen(QColor("#6a4a2a"))
                p.drawText(QRectF(d[1] - 2, d[2] - 1, 4, 2), Qt.AlignCenter, d[3])

    def _paint_line(self, p, f) -> None:
        colour, width, _ = LINE_STYLE[f.kind]
        p.setBrush(Qt.NoBrush)
        if f.kind == "road":
            p.setPen(QPen(QColor("#6a5030"), width + 0.2, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
            p.drawPath(self._path)
        if f.kind == "wall" and f.variant in ("hedge", ""):
            hedge = f.variant == "hedge"
            p.setPen(QPen(QColor("#3c7a2a" if hedge else colour), 0.35 if hedge else width,
                          Qt.DotLine if hedge else Qt.SolidLine, Qt.RoundCap))
            p.drawPath(self._path)
            if not hedge:       # ticks across a stone wall
                p.setPen(QPen(QColor(colour), 0.12, Qt.SolidLine, Qt.FlatCap))
                line = LineString(f.points)
                n = int(line.length / 0.8)
                for k in range(1, n):
                    a, b = line.interpolate((k - 0.05) * 0.8), line.interpolate((k + 0.05) * 0.8)
                    dx, dy = b.x - a.x, b.y - a.y
                    norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
                    nx, ny = -dy / norm * 0.3, dx / norm * 0.3
                    p.drawLine(QPointF(a.x - nx, a.y - ny), QPointF(a.x + nx, a.y + ny))
            return
        p.setPen(QPen(QColor(colour), width, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        p.drawPath(self._path)

    def _paint_point(self, p, f) -> None:
        x, y = f.points[0]
        if f.kind == "bridge":
            p.setPen(QPen(QColor("#3a2a1a"), 0.12))
            p.setBrush(QColor("#9a7048"))
            p.drawRect(QRectF(x - 0.9, y - 0.5, 1.8, 1.0))
            p.drawLine(QPointF(x - 0.9, y - 0.5), QPointF(x - 1.2, y - 0.8))
            p.drawLine(QPointF(x + 0.9, y - 0.5), QPointF(x + 1.2, y - 0.8))
            p.drawLine(QPointF(x - 0.9, y + 0.5), QPointF(x - 1.2, y + 0.8))
            p.drawLine(QPointF(x + 0.9, y + 0.5), QPointF(x + 1.2, y + 0.8))
        else:   # ford: shallows with stepping stones
            p.setPen(QPen(QColor("#2c5f98"), 0.1, Qt.DashLine))
            p.setBrush(QColor("#c8e0f4"))
            p.drawEllipse(QPointF(x, y), 0.9, 0.9)
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#7a6e58"))
            for dx in (-0.45, 0.0, 0.45):
                p.drawEllipse(QPointF(x + dx, y + dx * 0.3), 0.15, 0.15)
