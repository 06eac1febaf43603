"""The view on the table: zoom on the wheel about the cursor, pan with the middle button
or space+drag, the cursor position in inches and boxes, and mouse input for the tool."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsView

from .items import COMPACT_FROM_LOD


class BattleView(QGraphicsView):
    cursor_moved = Signal(float, float)      # inches
    zoom_changed = Signal(float)             # pixels per inch

    MIN_ZOOM, MAX_ZOOM = 1.0, 200.0

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.tool = None
        self._pan_from = None
        self._space = False
        self.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlags(QGraphicsView.DontSavePainterState)
        self.setDragMode(QGraphicsView.NoDrag)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.StrongFocus)
        # the scene draws table, terrain and grid as background: cache it, so a pan
        # scrolls pixels and paints only the strip it uncovers
        self.setCacheMode(QGraphicsView.CacheBackground)
        # the table is fitted on every resize (maximise, a dock closed) until the user
        # zooms; Fit the table (Ctrl+0) turns it back on
        self.auto_fit = True

    # ---- zoom ------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, factor_to: float) -> None:
        self.auto_fit = False
        target = min(max(factor_to, self.MIN_ZOOM), self.MAX_ZOOM)
        s = target / self.zoom
        self.scale(s, s)
        self._zoomed()

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom * factor)

    def fit_table(self) -> None:
        self.auto_fit = True
        if self.scene() is None:
            return
        self.fitInView(self.scene().table.rect(), Qt.KeepAspectRatio)
        self._zoomed()

    def setScene(self, scene) -> None:
        super().setScene(scene)
        if scene is not None:
            self._zoomed()

    def _zoomed(self) -> None:
        # below 3 px an inch the counters are specks: the scene draws them as one map
        # (CounterOverview), not 2,000 paint calls into Python a frame
        scene = self.scene()
        if hasattr(scene, "set_map_mode"):
            scene.set_map_mode(self.zoom < COMPACT_FROM_LOD)
        self.zoom_changed.emit(self.zoom)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if self.auto_fit and self.scene() is not None:
            self.fit_table()

    def wheelEvent(self, event):
        if self.tool is not None and self.tool.wheel(event):
            return
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.15 ** steps)

    # ---- pan: middle button, or space held with the left ---------------------------------
    def _start_pan(self, event) -> None:
        self._pan_from = event.position()
        self.viewport().setCursor(Qt.ClosedHandCursor)

    def mousePressEvent(self, event):
        if event.button() == Qt.MiddleButton or (event.button() == Qt.LeftButton and self._space):
            self._start_pan(event)
            return
        if self.tool is not None and self.tool.press(event, self.mapToScene(event.position().toPoint())):
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event):
        pos = self.mapToScene(event.position().toPoint())
        self.cursor_moved.emit(pos.x(), pos.y())
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        if self.tool is not None and self.tool.move(event, pos):
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(Qt.OpenHandCursor if self._space else Qt.ArrowCursor)
            return
        if self.tool is not None and self.tool.release(event, self.mapToScene(event.position().toPoint())):
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event):
        if self.tool is not None and self.tool.double_click(event, self.mapToScene(event.position().toPoint())):
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event):
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.OpenHandCursor)
            return
        if self.tool is not None and self.tool.key(event):
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event):
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().setCursor(Qt.ArrowCursor)
            return
        super().keyReleaseEvent(event)

    def scene_point(self, pos) -> QPointF:
        return self.mapToScene(pos.toPoint() if hasattr(pos, "toPoint") else pos)
