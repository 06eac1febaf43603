"""The counters as one map where the table is shown whole.

Below COMPACT_FROM_LOD (3 px an inch) a counter is a coloured speck with its front edge:
no label, no outline. Painting 2,000 such specks one item at a time costs a call from Qt
into Python each (a Leipzig's whole-table frame was 30 ms, nearly all of it those calls).
In map mode the scene gives its counters no contents of their own and this one item
fills them, grouped by colour, from paths made once after each change. A counter still
takes clicks, hovers and rubber bands (only its painting moves here), and one that is
selected paints itself, on top: a dragged counter moves without a sync, so it must not be
one of the paths' specks.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from .items import DISORDER_PEN, FRONT_BRUSH, SHAKEN_BRUSH, UNIT_Z


class CounterOverview(QGraphicsItem):
    """Every counter that does not paint itself, drawn as filled paths by colour and tile."""

    def __init__(self, units: dict):
        super().__init__()
        self._units = units            # the scene's uid -> UnitItem (read, never written)
        self._layers = None            # [(brush or pen, path, bounds)], made at the first paint
        self._specks: dict = {}        # uid -> (the scene's key for it, its specks)
        self._bounds = QRectF()
        self.setZValue(UNIT_Z - 0.5)   # over command areas, under counters that paint themselves
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)   # for option.exposedRect
        self.setVisible(False)

    def set_bounds(self, rect: QRectF) -> None:
        """The ground the view can show (counters beyond it cannot be seen anyway)."""
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()          # never hit: clicks and hovers go to the counters

    def changed(self) -> None:
        """A counter moved, changed or began or stopped painting itself."""
        self._layers = None
        self.update()

    def paint(self, p: QPainter, option, widget=None) -> None:
        if self._layers is None:
            self._layers = self._build()
        exposed = option.exposedRect       # a pan paints a strip: only its tiles
        world = p.worldTransform()
        for style, shape, bounds in self._layers:
            if not bounds.intersects(exposed):
                continue
            if style is DISORDER_PEN:
                p.strokePath(shape, style)
            elif style is SHAKEN_BRUSH:
                # each counter's hatching in its own frame: a pattern's lines are placed
                # by the painter's origin, so one path's would miss some specks
                p.setWorldTransform(shape[0] * world)
                p.setPen(Qt.NoPen)
                p.setBrush(style)
                p.drawRect(shape[1])
                p.setWorldTransform(world)
            else:
                p.fillPath(shape, style)

    def _build(self) -> list:
        """[(brush or pen, path, bounds)] in a counter's own painting order: fill, Shaken
        hatching, front edge, disorder mark (each over all counters: specks seldom
        overlap), each cut into tiles of TILE inches by the counter's place. A hatching
        is (transform, body), not a path (see paint)."""
        paths: dict = {}                   # (rank, colour, tile) -> (style, path)
        kept, self._specks = self._specks, {}
        for uid, item in self._units.items():
            if not item.drawn_by_overview():
                continue
            # a counter's specks change only with its sync (the scene's key for it)
            old = kept.get(uid)
            specks = old[1] if old is not None and old[0] is item.key else _specks(item)
            self._specks[uid] = (item.key, specks)
            for key, style, polygon in specks:
                if style is SHAKEN_BRUSH:
                    paths[key] = (style, polygon)   # (the counter's transform, its body)
                    continue
                got = paths.get(key)
                if got is None:
                    got = paths[key] = (style, QPainterPath())
                    got[1].setFillRule(Qt.WindingFill)   # overlapping specks both filled
                got[1].addPolygon(polygon)
        margin = DISORDER_PEN.widthF()
        return [(style, shape, _bounds(shape).adjusted(-margin, -margin, margin, margin))
                for _, (style, shape) in sorted(paths.items(), key=lambda kv: kv[0])]


def _specks(item) -> list:
    """[((rank, colour, tile), style, polygon in the scene)] of one counter; its Shaken
    hatching as ((rank, tile, uid), style, (its transform, its body))."""
    brush, rect, front, is_shaken, mark = item.speck()
    t, at = item.sceneTransform(), item.pos()
    tile = (int(at.x() // TILE), int(at.y() // TILE))
    body = t.map(QPolygonF(rect))
    out = [((0, brush.color().rgba(), tile), brush, body)]
    if is_shaken:
        out.append(((1, tile, item.uid), SHAKEN_BRUSH, (t, rect)))
    out.append(((2, 0, tile), FRONT_BRUSH, t.map(QPolygonF(front))))
    if mark is not None:
        out.append(((3, 0, tile), DISORDER_PEN, t.map(QPolygonF(mark))))
    return out


def _bounds(shape) -> QRectF:
    return shape.boundingRect() if isinstance(shape, QPainterPath) else shape[0].mapRect(shape[1])


# Qt's antialiased fill costs by a path's extent, not its polygons: one path of 1,000
# specks across a Leipzig's table took 7 ms to fill, the same specks in tiles 1 ms
TILE = 20.0
