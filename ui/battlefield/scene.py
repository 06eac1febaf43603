"""The battlefield scene: table, grid, terrain, units and leaders, one scene unit an inch.

`sync()` mirrors the battle the document shows. Model records are immutable, so an item
is refreshed only when its record is a different object: a full pass over 2,000 units is
a dictionary walk, and nothing is redrawn that did not change.
"""
from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene

from .items import UnitItem
from .leaders import CommandAreaItem, LeaderItem, polygons_path
from .overlays import Overlays
from .overview import CounterOverview
from .terrain import TerrainItem

TABLE_COLOUR = "#cfe0a8"
GRID_PEN = QPen(QColor("#a3b486"), 0)     # opaque hairline: translucent lines cost 15 ms a frame
TABLE_BRUSH = QBrush(QColor(TABLE_COLOUR))
OFF_TABLE = QBrush(QColor("#5a5a5a"))
EDGE_PEN = QPen(QColor("#6a5a3a"), 0.3)


class BattleScene(QGraphicsScene):
    def __init__(self, doc):
        super().__init__()
        self.doc = doc
        self.table = self.addRect(QRectF(), Qt.NoPen, Qt.NoBrush)   # drawn in the background
        self.table.setZValue(-10)
        self.table.setAcceptedMouseButtons(Qt.NoButton)
        self.terrain: dict[str, TerrainItem] = {}
        self.units: dict[str, UnitItem] = {}
        self.leaders: dict[str, LeaderItem] = {}
        self.reach = QGraphicsPathItem()
        self.reach.setZValue(13)
        self.reach.setPen(QPen(QColor(30, 110, 220, 200), 0.15))
        self.reach.setBrush(QColor(60, 140, 255, 55))
        self.reach.setAcceptedMouseButtons(Qt.NoButton)
        self.addItem(self.reach)
        self.overlays = Overlays(self)
        self.overview = CounterOverview(self.units)
        self.addItem(self.overview)
        self.map_mode = False
        self._painting_themselves: set = set()     # in map mode: uids of selected counters
        doc.selection_changed.connect(self.overlays.show_bands)
        doc.changed.connect(self.overlays.show_bands)
        self._table_key = None
        self._features = None
        self._grid = None
        self._drawing_order: list = []
        self._syncing = False
        self.setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        doc.changed.connect(self.sync)
        doc.selection_changed.connect(self._select_from_doc)
        self.selectionChanged.connect(self._select_to_doc)
        self.selectionChanged.connect(self._remap)
        self.sync()

    # ---- mirror the model ---------------------------------------------------------------
    def sync(self) -> None:
        b = self.doc.shown
        self._syncing = True
        try:
            self._sync_table(b)
            self._sync_terrain(b)
            self._sync_units(b)
            self._sync_leaders(b)
        finally:
            self._syncing = False
        self._select_from_doc()

    def _sync_table(self, b) -> None:
        bf = b.battlefield
        key = (bf.width, bf.height, bf.grid)
        if key != self._table_key:
            self._table_key = key
            self.table.setRect(QRectF(0, 0, bf.width, bf.height))
            self._grid = bf.grid
            self.redraw_background()
            m = max(bf.width, bf.height) * 0.05
            self.setSceneRect(QRectF(-m, -m, bf.width + 2 * m, bf.height + 2 * m))
            self.overview.set_bounds(self.sceneRect())

    def _sync_terrain(self, b) -> None:
        if b.battlefield.features is self._features:
            return
        self._features = b.battlefield.features
        seen = set()
        for f in b.battlefield.features:
            seen.add(f.id)
            item = self.terrain.get(f.id)
            if item is None:
                item = self.terrain[f.id] = TerrainItem(f)
                self.addItem(item)
            elif item.feature is not f:
                item.sync(f)
        for fid in set(self.terrain) - seen:
            self.removeItem(self.terrain.pop(fid))
        self._drawing_order = sorted(self.terrain.values(), key=lambda i: i.zValue())
        self.redraw_background()

    # ---- the background: table, terrain and grid, cached by the view ---------------------
    def redraw_background(self) -> None:
        """Drop the views' cached background. (invalidate(QRectF()) does not: a view maps
        the null rect to an empty one and keeps its stale pixmap, so painted woods stayed
        invisible until the next zoom.)"""
        for view in self.views():
            view.resetCachedContent()
        self.update()

    def drawBackground(self, p, rect) -> None:
        p.fillRect(rect, OFF_TABLE)
        table = self.table.rect()
        p.fillRect(rect.intersected(table), TABLE_BRUSH)
        for item in self._drawing_order:
            if item.boundingRect().intersects(rect):
                item.draw(p)
        self._draw_grid(p, rect.intersected(table))
        p.setPen(EDGE_PEN)
        p.setBrush(Qt.NoBrush)
        p.drawRect(table)

    def _draw_grid(self, p, r) -> None:
        s = self._grid
        if not s or r.isEmpty() or p.worldTransform().m11() * s < 6:
            return
        p.save()
        p.setRenderHint(QPainter.Antialiasing, False)
        p.setPen(GRID_PEN)
        lines = []
        x = int(r.left() // s) * s
        while x <= r.right():
            lines.append(QLineF(x, r.top(), x, r.bottom()))
            x += s
        y = int(r.top() // s) * s
        while y <= r.bottom():
            lines.append(QLineF(r.left(), y, r.right(), y))
            y += s
        p.drawLines(lines)
        p.restore()

    def _sync_units(self, b) -> None:
        h, shaken, rs = b.hierarchy, b.state.shaken, self.doc.ruleset
        synced = False
        for uid, u in b.units.items():
            cid = h.find_command(uid)
            key = (u, cid in shaken, b.sides[u.side].colour if u.side in b.sides else "")
            item = self.units.get(uid)
            if item is None:
                item = self.units[uid] = UnitItem(uid)
                self.addItem(item)
                item.set_mapped(self.map_mode)
            if item.key != key:
                item.key = key
                item.sync(u, key[2], rs.profile(u.kind).arm, rs.footprint(b, u), key[1])
                synced = True
        for uid in set(self.units) - set(b.units):
            self.removeItem(self.units.pop(uid))
            synced = True
        if synced and self.map_mode:
            self.overview.changed()

    # ---- map mode: the whole table at a few pixels an inch -------------------------------
    def set_map_mode(self, on: bool) -> None:
        """Counters drawn as one map (the view's zoom is below COMPACT_FROM_LOD), or each
        by itself."""
        if on != self.map_mode:
            self.map_mode = on
            self.overview.setVisible(on)
            for item in self.units.values():
                item.set_mapped(on)
            self._painting_themselves = self._selected_units()
            self.overview.changed()

    def _remap(self) -> None:
        """In map mode, after a change of selection: the counters selected paint
        themselves (a drag moves them), the rest are the overview's again."""
        if self.map_mode:
            now = self._selected_units()
            for uid in now ^ self._painting_themselves:
                if uid in self.units:
                    self.units[uid].set_mapped(True)
            self._painting_themselves = now
            self.overview.changed()

    def _selected_units(self) -> set:
        return {i.uid for i in self.selectedItems() if isinstance(i, UnitItem)}

    @contextmanager
    def counters_by_themselves(self):
        """Every counter paints itself while the scene is rendered at another scale (the
        report's map), whatever the view's zoom."""
        was = self.map_mode
        self.set_map_mode(False)
        try:
            yield
        finally:
            self.set_map_mode(was)

    def _sync_leaders(self, b) -> None:
        h, rs = b.hierarchy, self.doc.ruleset
        for lid, l in b.leaders.items():
            general = b.sides[l.side].general == lid if l.side in b.sides else False
            key = (l, general, h)
            item = self.leaders.get(lid)
            colour = b.sides[l.side].colour if l.side in b.sides else "#888888"
            if item is None:
                area = CommandAreaItem(colour)
                self.addItem(area)
                item = self.leaders[lid] = LeaderItem(lid, area)
                self.addItem(item)
            if item.key != key:
                item.key = key
                item.sync(l, colour, general, rs.command_area(b, l), _leader_label(b, l))
        for lid in set(self.leaders) - set(b.leaders):
            item = self.leaders.pop(lid)
            self.removeItem(item.area)
            self.removeItem(item)

    # ---- overlays ------------------------------------------------------------------------
    def show_reach(self, polygons) -> None:
        self.reach.setPath(polygons_path(polygons))
        self.reach.setVisible(bool(polygons))

    # ---- selection shared with the docks -----------------------------------------------------
    def item_for(self, pid: str):
        return self.units.get(pid) or self.leaders.get(pid) or self.terrain.get(pid)

    def _select_from_doc(self) -> None:
        wanted = set(self.doc.selection)
        self._syncing = True
        try:
            for item in self.selectedItems():
                if _pid(item) not in wanted:
                    item.setSelected(False)
            for pid in wanted:
                item = self.item_for(pid)
                if item is not None and not item.isSelected():
                    item.setSelected(True)
        finally:
            self._syncing = False

    def _select_to_doc(self) -> None:
        if self._syncing:
            return
        self.doc.select([_pid(i) for i in self.selectedItems()])


def _pid(item) -> str:
    return getattr(item, "uid", None) or getattr(item, "fid", "")


def _leader_label(b, l) -> str:
    kind, ref = b.hierarchy.find_leader_node(l.id)
    what = (b.commands[ref].name if kind == "command" and ref in b.commands
            else f"{b.sides[ref].name} (army)" if kind == "army" and ref in b.sides else "")
    quality = f"quality {l.quality}" if l.quality else "quality rolled at the start"
    return f"{l.name}\n{what}\n{quality}, hits {l.hits}/{l.max_hits}" + (
        f"\n{l.trait}" if l.trait else "")
