"""Unit counters. They mirror model records and never own state:
`sync(record, ...)` is the only way they change (Tiled's syncWithMapObject)."""
from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPixmap,
                           QStaticText)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QGraphicsItem

from ..wording import short_name

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
_SYMBOLS: dict[str, QPixmap] = {}

UNIT_Z, LEADER_Z, AREA_Z = 20, 30, 15


def symbol(arm: str) -> QPixmap:
    """The NATO mark for an arm, rendered once from its SVG (painting SVG per frame is slow)."""
    pm = _SYMBOLS.get(arm)
    if pm is None:
        renderer = QSvgRenderer(str(RESOURCES / "symbols" / f"{arm}.svg"))
        pm = QPixmap(120, 80)
        pm.fill(Qt.transparent)
        p = QPainter(pm)
        renderer.render(p)
        p.end()
        _SYMBOLS[arm] = pm
    return pm


def contrast(colour: QColor) -> QColor:
    return QColor("black") if colour.lightnessF() > 0.55 else QColor("white")


class UnitItem(QGraphicsItem):
    """A counter of the unit's true frontage and depth, turned to its facing: the front
    edge is drawn heavy, the NATO mark on the left, name and hits on the right."""

    kind = "unit"

    def __init__(self, uid: str):
        super().__init__()
        self.uid = uid
        self.record = None
        self.key = None
        self.setFlag(QGraphicsItem.ItemIsSelectable)
        self.setAcceptHoverEvents(True)
        self.setZValue(UNIT_Z)
        self._text_cache: dict = {}     # font pixel size -> what the in-counter texts need
        self._statics: dict = {}        # text -> QStaticText
        self.drawn_text = None          # (name, strength, room in pixels) at the last paint
        self._plates: dict = {}        # (label, pixel ratio) -> compact label pixmap
        self._rect = self._sym = QRectF()
        self._bounds = QRectF(-0.3, -0.3, 0.6, 0.6)
        self._front = self._mark = QRectF()
        self._shape = QPainterPath()
        self._colour = QColor("grey")
        self._brush = QBrush(self._colour)
        self._text_colour = QColor("white")
        self._label = ""
        self._hits = ""
        self._arm = "infantry"
        self._shaken = self._disordered = False
        self.illegal = False           # a dragged ghost the rules refuse
        self._mapped = False           # painted by the scene's CounterOverview

    def sync(self, unit, colour: str, arm: str, footprint, shaken: bool) -> None:
        self.prepareGeometryChange()
        self.record = unit
        w, d = footprint
        self._rect = QRectF(-w / 2, -d / 2, w, d)
        self._bounds = self._rect.adjusted(-0.3, -0.3, 0.3, 0.3)
        self._front = QRectF(-w / 2, -d / 2 - FRONT_DEPTH / 2, w, FRONT_DEPTH)
        self._mark = self._rect.adjusted(-0.12, -0.12, 0.12, 0.12)    # the disorder ring
        self._shape = QPainterPath()
        self._shape.addRect(self._rect)
        self._colour = QColor(colour)
        self._label = unit.name
        self._text_cache, self._statics = {}, {}
        self._plates = {}
        self._hits = f"{unit.hits}/{unit.max_hits}"
        # at the fit-all zoom: short designation over strength ("IV Ln5" / "4"), or
        # without the command's tag ("Ln5") when the counter is too small for it
        full = short_name(unit.name)
        core = full.split(" ", 1)[-1]
        metrics = compact_font()[1]
        self._compact = [(metrics.horizontalAdvance(t) + 3, t) for t in dict.fromkeys((full, core))]
        self._strength = str(unit.hits)
        self._arm = arm
        self._shaken, self._disordered = shaken, unit.disordered
        fill = QColor(self._colour).lighter(140) if shaken else QColor(self._colour)
        self._brush = QBrush(fill)
        self._text_colour = contrast(fill)
        r = self._rect
        self._sym = QRectF(r.left() + 0.08 * r.width(), r.top() + 0.18 * r.height(),
                           min(0.34 * r.width(), 1.5 * 0.64 * r.height()), 0.64 * r.height())
        self.setPos(unit.x, unit.y)
        self.setRotation(unit.facing)
        self.setVisible(not unit.eliminated)
        self.setToolTip(f"{unit.name}\n{unit.kind.replace('_', ' ')}, {unit.formation}\n"
                        f"hits {unit.hits} of {unit.max_hits}"
                        + ("\nShaken command" if shaken else "")
                        + ("\ndisordered" if unit.disordered else ""))
        self.update()

    def set_mapped(self, on: bool) -> None:
        """Map mode: the overview paints this counter, unless it is selected (then it
        paints itself, over the map, since a drag moves it without a sync)."""
        self._mapped = on and not self.isSelected()
        self.setFlag(QGraphicsItem.ItemHasNoContents, self._mapped)

    def drawn_by_overview(self) -> bool:
        return self._mapped and self.isVisible()

    def speck(self):
        """What the overview draws of this counter: (fill, body, front edge, Shaken,
        disorder mark or None), in the counter's own coordinates."""
        return (self._brush, self._rect, self._front, self._shaken,
                self._mark if self._disordered else None)

    def boundingRect(self) -> QRectF:
        # made in sync: Qt asks twice per counter per frame (a copy crosses to C++)
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, p: QPainter, option, widget=None) -> None:
        # pens and brushes are built once (module constants, or in sync): painting 2,000
        # counters a frame leaves no time for making Qt objects
        r = self._rect
        lod = option.levelOfDetailFromTransform(p.worldTransform())
        # the outline is a fifth of a pixel on a table shown whole: not stroked there
        # (a stroke is half a counter's cost, and a Leipzig has 2,000 of them a frame)
        p.setPen(OUTLINE_PEN if lod >= COMPACT_FROM_LOD else Qt.NoPen)
        p.setBrush(self._brush)
        p.drawRect(r)
        if self._shaken:        # diagonal red hatching: a Shaken command at a glance
            p.setBrush(SHAKEN_BRUSH)
            p.drawRect(r)
        p.fillRect(self._front, FRONT_BRUSH)     # the front edge
        if self._disordered:
            p.setPen(DISORDER_PEN)
            p.setBrush(Qt.NoBrush)
            p.drawRect(self._mark)
        mode = self.label_mode(lod)
        if mode == "full":
            p.drawPixmap(self._sym, symbol(self._arm), SYMBOL_SOURCE)
            self._paint_text(p, lod)
        elif mode == "compact":
            self._paint_compact(p, max(r.width(), r.height()) * lod)
        if self.illegal:
            p.setPen(ILLEGAL_PEN)
            p.setBrush(Qt.NoBrush)
            p.drawRect(r.adjusted(-0.2, -0.2, 0.2, 0.2))
        if self.isSelected():        # (option.state's flags cost two Python enums a frame)
            p.setPen(SELECTED_PEN)
            p.setBrush(Qt.NoBrush)
            p.drawRect(r.adjusted(-0.15, -0.15, 0.15, 0.15))

    def label_mode(self, lod: float) -> str:
        """"full" (symbol, name, hits inside the counter) when its text would be
        readable, "compact" (short designation over strength) when not, "none" when the
        whole table is a few hundred pixels wide."""
        r = self._rect
        text_px = r.height() * 0.34 * lod
        room_px = (r.right() - self._sym.right() - 0.1) * lod
        if text_px >= COMPACT_BELOW_PX and room_px >= 2.5 * text_px:
            return "full"
        return "compact" if lod >= COMPACT_FROM_LOD else "none"

    def compact_text(self, lod: float) -> tuple[str, str]:
        """(designation, strength) as the compact label shows them at this zoom."""
        room = max(self._rect.width(), self._rect.height()) * lod
        return next((t for w, t in self._compact if w <= room + 2), self._compact[-1][1]), self._strength

    def _paint_compact(self, p: QPainter, room: float) -> None:
        """Short designation over strength at a readable size, level whatever the facing,
        on a plate of the counter's colour no wider than the counter's long side allows.
        The text is a pixmap made once per label (a zoom repaints every counter, and two
        text layouts each were half a zoomed-out frame); only a wider plate is filled."""
        width, text = next(((w, t) for w, t in self._compact if w <= room + 2), self._compact[-1])
        t = p.worldTransform()
        centre = t.map(QPointF(0, 0))
        h = 2 * COMPACT_PX + 2
        p.resetTransform()
        if room * 0.6 > width:
            w = room * 0.6
            p.fillRect(QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h), self._brush)
        p.drawPixmap(QPointF(round(centre.x() - width / 2), round(centre.y() - h / 2)),
                     self._compact_pixmap(text, width, h, p.device().devicePixelRatioF()))
        p.setWorldTransform(t)

    def _compact_pixmap(self, text: str, width: int, h: int, dpr: float) -> QPixmap:
        key = (text, dpr)                   # (the width goes with the text)
        pm = self._plates.get(key)
        if pm is not None:
            return pm
        pm = QPixmap(math.ceil(width * dpr), math.ceil(h * dpr))
        pm.setDevicePixelRatio(dpr)
        pm.fill(self._brush.color())
        q = QPainter(pm)
        q.setRenderHint(QPainter.TextAntialiasing)
        q.setFont(compact_font()[0])
        q.setPen(self._text_colour)
        plate = QRectF(0, 0, width, h)
        q.drawText(plate, TOP_CENTRE, text)
        q.drawText(plate, BOTTOM_CENTRE, self._strength)
        q.end()
        self._plates[key] = pm     # both labels kept: a zoom about the switch flips them
        return pm

    def _lay_out(self, size: int) -> tuple:
        """What the in-counter texts need at a font of `size` pixels: font, metrics, the
        full name's width, its short designation, the strength's width."""
        font = QFont("Sans")
        font.setPixelSize(size)
        fm = QFontMetrics(font)
        self._text_cache[size] = (font, fm, fm.horizontalAdvance(self._label),
                                  short_name(self._label), fm.horizontalAdvance(self._hits))
        return self._text_cache[size]

    def _static(self, text: str) -> QStaticText:
        """A text laid out once (QStaticText): drawn from a rectangle, it was laid out
        again at every paint."""
        st = self._statics.get(text)
        if st is None:
            st = self._statics[text] = QStaticText(text)
            st.setTextFormat(Qt.PlainText)          # a name with "<" is not markup
        return st

    def _paint_text(self, p: QPainter, lod: float) -> None:
        r, sym = self._rect, self._sym
        p.save()
        if 90 < self.rotation() % 360 <= 270:       # never upside down
            p.rotate(180)
            r = QRectF(-r.right(), -r.bottom(), r.width(), r.height())
            sym = QRectF(-sym.right(), -sym.bottom(), sym.width(), sym.height())
            sym = QRectF(r.left() + (r.right() - sym.right()), sym.top(), sym.width(), sym.height())
        p.setPen(self._text_colour)
        p.scale(1 / lod, 1 / lod)                   # text at screen resolution
        text_rect = QRectF((sym.right() + 0.05) * lod, r.top() * lod,
                           (r.right() - sym.right() - 0.1) * lod, r.height() * lod)
        size = max(1, int(r.height() * 0.34 * lod))
        font, fm, full, short, hits_width = self._text_cache.get(size) or self._lay_out(size)
        room = int(text_rect.width())
        # the full name if it fits, else the short designation ("4e Lig" beats "4…")
        name = self._label if full <= room else fm.elidedText(short, Qt.ElideRight, room)
        # the strength always shows: "12/16" where it fits, else "12" (never a cut "/16")
        hits = self._hits if hits_width <= text_rect.width() else self._hits.split("/")[0]
        self.drawn_text = (name, hits, room)        # (the tests read what was drawn)
        p.setFont(font)             # (a static text is drawn in the painter's font)
        p.drawStaticText(text_rect.topLeft(), self._static(name))
        shown = self._static(hits)
        box = shown.size()
        p.drawStaticText(QPointF(text_rect.right() - box.width(), text_rect.bottom() - box.height()), shown)
        p.restore()


COMPACT_PX = 9                      # the short label's font, in screen pixels
COMPACT_BELOW_PX = 8                # in-counter text smaller than this: the short label
COMPACT_FROM_LOD = 3.0              # below 3 px an inch the table is a map, not counters
_COMPACT: list = []


def compact_font():
    """(font, metrics) of the short label, made once the application exists."""
    if not _COMPACT:
        font = QFont("Sans")
        font.setPixelSize(COMPACT_PX)
        font.setBold(True)
        _COMPACT.extend((font, QFontMetrics(font)))
    return _COMPACT
OUTLINE_PEN = QPen(QColor("#202020"), 0.06)
# the front edge: a band 0.22 inch deep across the front, filled (it was a flat-capped
# line that wide, i.e. the same rectangle, stroked: five times the cost)
FRONT_DEPTH = 0.22
FRONT_BRUSH = QBrush(QColor("#101010"))
DISORDER_PEN = QPen(QColor("#f0c000"), 0.15, Qt.DashLine)
ILLEGAL_PEN = QPen(QColor("#e00000"), 0.25)
SELECTED_PEN = QPen(QColor("#ffb000"), 0.2)
SHAKEN_BRUSH = QBrush(QColor(200, 20, 20, 170), Qt.BDiagPattern)
SYMBOL_SOURCE = QRectF(0, 0, 120, 80)
TOP_CENTRE = Qt.AlignHCenter | Qt.AlignTop
BOTTOM_CENTRE = Qt.AlignHCenter | Qt.AlignBottom
