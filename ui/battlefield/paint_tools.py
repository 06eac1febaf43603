"""Tools that add to the battlefield: place a unit, paint area terrain, draw rivers, roads
and walls point by point, drop bridges and fords. Each stroke or click is one action."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QGraphicsPathItem, QGraphicsRectItem,
                               QHBoxLayout, QLabel, QWidget)
from shapely.geometry import LineString, Point, Polygon

from manager.editor_actions import AddTerrain, PlaceUnit, RemoveTerrain, ReshapeTerrain
from manager.model.battlefield import AREA_KINDS, LINEAR_KINDS, POINT_KINDS
from manager.model.forces import UNIT_KINDS

from .tools import Tool


def new_id(battle, prefix: str) -> str:
    taken = set(battle.units) | set(battle.leaders) | set(battle.commands) | {
        f.id for f in battle.battlefield.features}
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def _combo(items, current=None) -> QComboBox:
    box = QComboBox()
    for value in items:
        box.addItem(value.replace("_", " "), value)
    if current is not None:
        box.setCurrentIndex(max(0, box.findData(current)))
    return box


def _bar(*widgets) -> QWidget:
    w = QWidget()
    lay = QHBoxLayout(w)
    lay.setContentsMargins(4, 0, 4, 0)
    for x in widgets:
        lay.addWidget(QLabel(x) if isinstance(x, str) else x)
    return w


def _preview_item(scene, colour="#ffb000") -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    item.setPen(QPen(QColor(colour), 0.15, Qt.DashLine))
    c = QColor(colour)
    c.setAlpha(60)
    item.setBrush(c)
    item.setZValue(90)
    scene.addItem(item)
    return item


class PlaceTool(Tool):
    name, label, shortcut = "place", "Place unit", "U"
    tip = "Click on the table to place a new unit of the chosen kind in the chosen command"

    def options(self) -> QWidget:
        self.kind = _combo(UNIT_KINDS, "line_infantry")
        self.command = QComboBox()
        self._fill_commands()
        self.doc.changed.connect(self._fill_commands)
        self.doc.selection_changed.connect(self._follow_selection)
        return _bar("Kind", self.kind, "Command", self.command)

    def _fill_commands(self) -> None:
        b = self.doc.battle
        keep = self.command.currentData()
        self.command.blockSignals(True)
        self.command.clear()
        for cid, c in b.commands.items():
            self.command.addItem(f"{c.name} ({b.sides[c.side].name})", cid)
        if keep:
            self.command.setCurrentIndex(max(0, self.command.findData(keep)))
        self.command.blockSignals(False)

    def _follow_selection(self) -> None:
        b = self.doc.battle
        for pid in self.doc.selection:
            cid = pid if pid in b.commands else b.hierarchy.find_command(pid)
            if cid:
                self.command.setCurrentIndex(max(0, self.command.findData(cid)))
                return

    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        b = self.doc.battle
        cid, kind = self.command.currentData(), self.kind.currentData()
        if not cid:
            self.doc.refused.emit("add a command first: units belong to a command")
            return True
        mates = [b.units[u] for u in b.hierarchy.units_of(cid) if u in b.units]
        facing = mates[0].facing if mates else 0
        uid = new_id(b, f"{cid}_u")
        name = f"{b.commands[cid].name} {kind.replace('_', ' ')} {len(mates) + 1}"
        if self.doc.execute(PlaceUnit(uid, name, kind, cid, self.snap(pos.x(), pos.y()), facing)):
            self.doc.select([uid])
        return True


class BrushTool(Tool):
    """Paint area terrain: a stroke adds to the touching feature of the same kind or makes
    a new one; Shift+stroke rubs it out."""

    name, label, shortcut = "brush", "Terrain brush", "B"
    tip = "Drag to paint; Shift+drag to erase; [ and ] change the brush size"

    def options(self) -> QWidget:
        self.kind = _combo(AREA_KINDS, "woods")
        self.size = QDoubleSpinBox()
        self.size.setRange(0.5, 24.0)
        self.size.setSingleStep(0.5)
        self.size.setValue(3.0)
        self.size.setSuffix('"')
        self._points, self._preview, self._erase = [], None, False
        return _bar("Terrain", self.kind, "Brush size", self.size)

    def _stroke(self):
        r = self.size.value() / 2
        if len(self._points) == 1:
            return Point(self._points[0]).buffer(r, 16)
        return LineString(self._points).buffer(r, 16)

    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        self._erase = bool(event.modifiers() & Qt.ShiftModifier)
        self._points = [(pos.x(), pos.y())]
        self._preview = _preview_item(self.scene, "#d03030" if self._erase else "#30a030")
        self._show()
        return True

    def move(self, event, pos) -> bool:
        if self._preview is None:
            return False
        last = self._points[-1]
        if abs(pos.x() - last[0]) + abs(pos.y() - last[1]) > 0.25:
            self._points.append((pos.x(), pos.y()))
            self._show()
        return True

    def _show(self) -> None:
        path = QPainterPath()
        ring = self._stroke().exterior.coords
        path.moveTo(*ring[0])
        for pt in ring[1:]:
            path.lineTo(*pt)
        path.closeSubpath()
        self._preview.setPath(path)

    def release(self, event, pos) -> bool:
        if self._preview is None:
            return False
        self.scene.removeItem(self._preview)
        self._preview = None
        self.paint(self._stroke(), self.kind.currentData(), self._erase)
        return True

    def paint(self, stroke, kind: str, erase: bool = False) -> None:
        """One stroke as actions: reshape what it touches, or add a new feature."""
        b = self.doc.battle
        bf = b.battlefield
        table = Polygon([(0, 0), (bf.width, 0), (bf.width, bf.height), (0, bf.height)])
        stroke = stroke.intersection(table)
        touching = [f for f in bf.features if f.kind == kind and len(f.points) >= 3
                    and Polygon(f.points).buffer(0).intersects(stroke)]
        actions = []
        if erase:
            for f in touching:
                left = Polygon(f.points).buffer(0).difference(stroke)
                parts = [g for g in getattr(left, "geoms", [left]) if not g.is_empty and g.area > 0.5]
                if not parts:
                    actions.append(RemoveTerrain(f.id))
                else:
                    biggest = max(parts, key=lambda g: g.area)
                    actions.append(ReshapeTerrain(f.id, _ring(biggest)))
        elif touching:
            merged = Polygon(touching[0].points).buffer(0).union(stroke)
            shape = max(getattr(merged, "geoms", [merged]), key=lambda g: g.area)
            actions.append(ReshapeTerrain(touching[0].id, _ring(shape)))
        elif not stroke.is_empty:
            actions.append(AddTerrain(new_id(b, kind), kind, _ring(stroke)))
        if actions:
            self.doc.execute_all(actions, f"{'erase' if erase else 'paint'} {kind}")

    def key(self, event) -> bool:
        if event.key() in (Qt.Key_BracketLeft, Qt.Key_BracketRight):
            step = 0.5 if event.key() == Qt.Key_BracketRight else -0.5
            self.size.setValue(self.size.value() + step)
            return True
        return False


def _ring(polygon) -> tuple:
    coords = list(polygon.simplify(0.05).exterior.coords)[:-1]
    return tuple((round(x, 2), round(y, 2)) for x, y in coords)


class PolylineTool(Tool):
    """Click point by point, double-click or Enter to finish. Click an existing river, road
    or wall to edit it: drag its handles, Ctrl+click to add a point, right-click to delete."""

    name, label, shortcut = "polyline", "River / road / wall", "L"
    tip = "Click points, double-click to finish; click a line to edit its points"

    def options(self) -> QWidget:
        self.kind = _combo(LINEAR_KINDS, "road")
        self._points, self._preview, self._editing = [], None, None
        self._handles, self._dragging = [], None
        return _bar("Kind", self.kind)

    def deactivate(self) -> None:
        self._cancel()
        self._edit(None)

    # ---- drawing a new line ------------------------------------------------------------------
    def press(self, event, pos) -> bool:
        pt = (round(pos.x(), 2), round(pos.y(), 2))
        handle = self._handle_at(pos)
        if handle is not None:
            if event.button() == Qt.RightButton:
                f = self.doc.battle.battlefield.feature(self._editing)
                pts = tuple(p for i, p in enumerate(f.points) if i != handle)
                self.doc.execute(ReshapeTerrain(f.id, pts), "delete a point")
                self._edit(f.id)
            elif event.button() == Qt.LeftButton:
                self._dragging = handle
            return True
        if event.button() != Qt.LeftButton:
            return False
        if not self._points:
            line = self.terrain_at(pos)
            if line is not None and line.feature.shape == "line":
                if event.modifiers() & Qt.ControlModifier and self._editing == line.fid:
                    self._insert(line.feature, pt)
                else:
                    self._edit(line.fid)
                return True
            self._edit(None)
            self._preview = _preview_item(self.scene)
            self._preview.setBrush(Qt.NoBrush)
        self._points.append(pt)
        self._show(pos)
        return True

    def move(self, event, pos) -> bool:
        if self._dragging is not None:
            self._handles[self._dragging].setPos(pos)
            return True
        if self._points:
            self._show(pos)
            return True
        return False

    def release(self, event, pos) -> bool:
        if self._dragging is None:
            return False
        f = self.doc.battle.battlefield.feature(self._editing)
        pts = list(f.points)
        pts[self._dragging] = (round(pos.x(), 2), round(pos.y(), 2))
        self._dragging = None
        self.doc.execute(ReshapeTerrain(f.id, tuple(pts)), "move a point")
        self._edit(f.id)
        return True

    def double_click(self, event, pos) -> bool:
        if self._points:
            self._finish()
            return True
        return False

    def key(self, event) -> bool:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and self._points:
            self._finish()
            return True
        if event.key() == Qt.Key_Escape:
            self._cancel()
            self._edit(None)
            return True
        return False

    def _show(self, cursor) -> None:
        path = QPainterPath()
        path.moveTo(*self._points[0])
        for pt in self._points[1:]:
            path.lineTo(*pt)
        path.lineTo(cursor)
        self._preview.setPath(path)

    def _finish(self) -> None:
        # a double-click also pressed twice at the same place: drop the repeat
        pts = [p for i, p in enumerate(self._points) if i == 0 or p != self._points[i - 1]]
        kind = self.kind.currentData()
        self._cancel()
        if len(pts) >= 2:
            fid = new_id(self.doc.battle, kind)
            if self.doc.execute(AddTerrain(fid, kind, tuple(pts)), f"draw {kind}"):
                self._edit(fid)
        else:
            self.doc.refused.emit(f"a {kind} needs at least two points")

    def _cancel(self) -> None:
        if self._preview is not None:
            self.scene.removeItem(self._preview)
        self._points, self._preview = [], None

    # ---- editing an existing line --------------------------------------------------------------
    def _edit(self, fid) -> None:
        for h in self._handles:
            self.scene.removeItem(h)
        self._handles, self._editing = [], fid
        if fid is None:
            return
        self.doc.select([fid])
        for x, y in self.doc.battle.battlefield.feature(fid).points:
            h = QGraphicsRectItem(QRectF(-0.45, -0.45, 0.9, 0.9))
            h.setPen(QPen(QColor("#202020"), 0.1))
            h.setBrush(QColor("#ffb000"))
            h.setZValue(95)
            h.setPos(x, y)
            self.scene.addItem(h)
            self._handles.append(h)

    def _handle_at(self, pos):
        for i, h in enumerate(self._handles):
            if h.sceneBoundingRect().contains(pos):
                return i
        return None

    def _insert(self, feature, pt) -> None:
        pts = list(feature.points)
        best = min(range(len(pts) - 1), key=lambda i: LineString(pts[i:i + 2]).distance(Point(pt)))
        pts.insert(best + 1, pt)
        self.doc.execute(ReshapeTerrain(feature.id, tuple(pts)), "add a point")
        self._edit(feature.id)


class PointTool(Tool):
    name, label, shortcut = "point", "Bridge / ford", "P"
    tip = "Click to place a bridge or a ford"

    def options(self) -> QWidget:
        self.kind = _combo(POINT_KINDS, "bridge")
        return _bar("Kind", self.kind)

    def press(self, event, pos) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        kind = self.kind.currentData()
        fid = new_id(self.doc.battle, kind)
        self.doc.execute(AddTerrain(fid, kind, ((round(pos.x(), 2), round(pos.y(), 2)),)),
                         f"place {kind}")
        return True
