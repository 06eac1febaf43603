"""The order of battle as a tree: army > command > units, leaders at their node.

Drag a unit (or a whole command) onto a command to reassign it; the tree shares its
selection with the map. The drag is handled here from press to release rather than with
QDrag, so it behaves the same on every platform, offscreen included.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QAbstractItemView, QDockWidget, QGridLayout, QInputDialog,
                               QMenu, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                               QWidget)

from manager.arrival_edit import SetArrival
from manager.editor_actions import AddCommand, ReassignUnit, RemoveUnit, RenameCommand

ROLE = Qt.UserRole        # ("side" | "command" | "unit" | "arrival", id): "arrival" is a
                          # unit still to come (listed greyed under its command)
DRAGGED = ("unit", "command", "arrival")


class OobTree(QTreeWidget):
    dropped = Signal(list, str)         # [(kind, id)], target command id

    def __init__(self):
        super().__init__()
        self.setHeaderLabels(["Order of battle", "Hits"])
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setColumnWidth(0, 260)
        self._pressed = None

    def mousePressEvent(self, event):
        super().mousePressEvent(event)
        item = self.itemAt(event.position().toPoint())
        ref = item.data(0, ROLE) if item else None
        self._pressed = ref if ref and ref[0] in DRAGGED and event.button() == Qt.LeftButton \
            else None

    def mouseMoveEvent(self, event):
        if self._pressed is not None:
            self.viewport().setCursor(Qt.DragMoveCursor)
            return                      # no rubber-band selection while dragging
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        pressed, self._pressed = self._pressed, None
        self.viewport().unsetCursor()
        item = self.itemAt(event.position().toPoint())
        target = item.data(0, ROLE) if item else None
        if pressed and target and target[0] in DRAGGED:
            cid = target[1] if target[0] == "command" else item.parent().data(0, ROLE)[1]
            moving = [i.data(0, ROLE) for i in self.selectedItems()
                      if i.data(0, ROLE) and i.data(0, ROLE)[0] in DRAGGED]
            if pressed not in moving:
                moving = [pressed]
            if any(m != ("command", cid) and (m[0] == "command" or _parent_cid(self, m) != cid)
                   for m in moving):
                self.dropped.emit(moving, cid)
                return
        super().mouseReleaseEvent(event)


def _parent_cid(tree, ref):
    item = tree.item_of.get(ref[1])
    parent = item.parent() if item else None
    return parent.data(0, ROLE)[1] if parent is not None else ""


class OobDock(QDockWidget):
    place_requested = Signal(str)       # command id
    arrival_requested = Signal(str)     # Arrives later… for this command or unit

    def __init__(self, doc, parent=None):
        super().__init__("Order of battle", parent)
        self.setObjectName("OobDock")
        self.doc = doc
        self.tree = OobTree()
        self.tree.item_of = {}
        self._key = None
        self._syncing = False
        buttons = QGridLayout()           # two by two: the dock stays narrow beside the map
        for n, (label, slot, tip) in enumerate((("Add command", self.add_command, "Form a new command in the selected army"),
                                 ("Rename", self.rename, "Rename the selected command (F2)"),
                                 ("Delete", self.delete, "Delete the selected units or commands"),
                                 ("Place unit", self.place, "Click on the map to add a unit to this command"))):
            b = QPushButton(label)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            buttons.addWidget(b, n // 2, n % 2)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.tree)
        lay.addLayout(buttons)
        self.setWidget(body)
        self.tree.dropped.connect(self.reassign)
        self.tree.itemSelectionChanged.connect(self._select_to_doc)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.menu = None                 # the last context menu (tests pick from it)
        doc.changed.connect(self.sync)
        doc.selection_changed.connect(self._select_from_doc)
        self.sync()

    # ---- mirror the model ---------------------------------------------------------------
    def sync(self) -> None:
        b = self.doc.shown
        key = (b.hierarchy, tuple(b.commands.values()), tuple(b.sides.values()),
               tuple(b.leaders.values()), b.state.shaken, b.state.over, b.pending)
        if key != self._key:
            self._key = key
            self._rebuild(b)
        else:
            for uid, u in b.units.items():
                item = self.tree.item_of.get(uid)
                if item is not None and item.data(1, ROLE) is not u:
                    self._unit_text(item, u)
        self._select_from_doc()

    def _rebuild(self, b) -> None:
        self._syncing = True
        expanded = {i.data(0, ROLE)[1] for i in self.tree.item_of.values() if i.isExpanded()}
        first = not self.tree.item_of
        self.tree.clear()
        self.tree.item_of = {}
        h, rs = b.hierarchy, self.doc.ruleset
        for side in b.sides.values():
            top = QTreeWidgetItem([_army_text(b, side)])
            top.setData(0, ROLE, ("side", side.id))
            top.setForeground(0, QBrush(QColor(side.colour)))
            self.tree.addTopLevelItem(top)
            self.tree.item_of[side.id] = top
            for cid in h.commands_of(side.id):
                c = b.commands[cid]
                lid = h.leader_of_command(cid)
                lead = b.leaders.get(lid)
                whole = b.arrival_of(cid) if b.pending else None
                if whole is not None and whole.leader:
                    lead = whole.leader[1]
                # a reinforcement says so right after its name: seen without widening the dock
                text = c.name + (f" — {whole.describe()}" if whole is not None else "") + (
                    f"  ({lead.name}{', fallen' if lead.eliminated else ''})" if lead else "")
                shaken = cid in b.state.shaken
                ci = QTreeWidgetItem([text + ("   [SHAKEN]" if shaken else "")])
                ci.setData(0, ROLE, ("command", cid))
                if shaken:
                    ci.setForeground(0, QBrush(QColor("#c01010")))
                    ci.setToolTip(0, f"{c.name} is Shaken: it may not close with the enemy")
                units = [b.units[u] for u in h.units_of(cid) if u in b.units]
                lost = sum(1 for u in units if u.eliminated)
                ci.setText(1, whole.describe() if whole is not None and not units
                           else f"{len(units) - lost}/{len(units)} units")
                if whole is not None:
                    for col in (0, 1):
                        ci.setToolTip(col, f"{c.name}: {whole.describe()} (right-click to change)")
                    ci.setForeground(0, QBrush(QColor("#505050")))
                top.addChild(ci)
                self.tree.item_of[cid] = ci
                for u in units:
                    ui = QTreeWidgetItem()
                    ui.setData(0, ROLE, ("unit", u.id))
                    self._unit_text(ui, u, rs)
                    ci.addChild(ui)
                    self.tree.item_of[u.id] = ui
                for a in b.pending:         # reinforcements: listed, not yet selectable on the map
                    for k, u in a.units:
                        if k != cid:
                            continue
                        label = rs.profiles[u.kind].label if u.kind in rs.profiles else u.kind
                        own = f" — {a.describe()}" if a.scope == "unit" else ""
                        ui = QTreeWidgetItem([f"{u.name} — {label}{own}", a.describe()])
                        ui.setData(0, ROLE, ("arrival", u.id))
                        ui.setForeground(0, QBrush(QColor("#707070")))
                        ui.setToolTip(0, f"{u.name}: {a.describe()} (right-click to change)")
                        ci.addChild(ui)
                        self.tree.item_of[u.id] = ui
                ci.setExpanded(c.id in expanded)
            top.setExpanded(first or side.id in expanded)
        self._syncing = False

    def _unit_text(self, item, u, rs=None) -> None:
        rs = rs or self.doc.ruleset
        item.setData(1, ROLE, u)
        label = rs.profiles[u.kind].label if u.kind in rs.profiles else u.kind
        item.setText(0, f"{u.name} — {label}")
        item.setText(1, "eliminated" if u.eliminated else f"{u.hits}/{u.max_hits}")
        colour = "#909090" if u.eliminated else ("#b06000" if u.hits < u.max_hits else "#000000")
        item.setForeground(0, QBrush(QColor(colour)))
        item.setForeground(1, QBrush(QColor(colour)))

    # ---- selection both ways -------------------------------------------------------------
    def _select_to_doc(self) -> None:
        if self._syncing:
            return
        self.doc.select([i.data(0, ROLE)[1] for i in self.tree.selectedItems()
                         if i.data(0, ROLE)[0] in ("unit", "command")])

    def _select_from_doc(self) -> None:
        self._syncing = True
        try:
            wanted = set(self.doc.selection)
            b = self.doc.shown
            # a leader picked on the map selects his command here
            for pid in list(wanted):
                if pid in b.leaders:
                    kind, ref = b.hierarchy.find_leader_node(pid)
                    wanted.add(ref)
            for item in self.tree.selectedItems():
                if item.data(0, ROLE)[1] not in wanted:
                    item.setSelected(False)
            last = None
            for pid in wanted:
                item = self.tree.item_of.get(pid)
                if item is not None:
                    item.setSelected(True)
                    last = item
            if last is not None:
                self.tree.scrollToItem(last)
        finally:
            self._syncing = False

    def _double_clicked(self, item, column) -> None:
        kind, ref = item.data(0, ROLE)
        if kind == "command":
            self.rename()

    # ---- edits ---------------------------------------------------------------------------
    def _selected(self, kind: str) -> list[str]:
        return [i.data(0, ROLE)[1] for i in self.tree.selectedItems() if i.data(0, ROLE)[0] == kind]

    def _current_side(self) -> str:
        b = self.doc.battle
        item = self.tree.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        return item.data(0, ROLE)[1] if item is not None else next(iter(b.sides))

    def reassign(self, moving: list, cid: str) -> None:
        b = self.doc.battle
        units = []
        for kind, ref in moving:
            units += list(b.hierarchy.units_of(ref)) if kind == "command" else [ref]
        coming = {u.id: k for a in b.pending for k, u in a.units}
        units = [u for u in units if coming.get(u, b.hierarchy.find_command(u)) != cid]
        if units:
            self.doc.execute_all([ReassignUnit(u, cid) for u in units],
                                 "{n} units join " + b.commands[cid].name)

    def add_command(self) -> None:
        from ..battlefield.paint_tools import new_id
        b = self.doc.battle
        side = self._current_side()
        name, ok = QInputDialog.getText(self, "Add command", f"Name of the new command ({b.sides[side].name}):")
        if not ok or not name.strip():
            return
        cid = new_id(b, f"{side}_cmd")
        general = b.leaders.get(b.sides[side].general)
        anchor = general or next((l for l in b.leaders.values() if l.side == side), None)
        centre = anchor.pos if anchor else (b.battlefield.width / 2, b.battlefield.height / 2)
        name = name.strip()
        # the new leader beside the general (the nearest free spot), not on top of him
        step = b.battlefield.grid or 2.0
        spots = sorted(((centre[0] + dx * step, centre[1] + dy * step)
                        for dx in range(-3, 4) for dy in range(-3, 4) if (dx, dy) != (0, 0)),
                       key=lambda p: (p[0] - centre[0]) ** 2 + (p[1] - centre[1]) ** 2)
        if anchor is None:
            spots = [centre] + spots
        actions = [AddCommand(side, cid, name, f"{cid}_leader", f"{name} commander", p)
                   for p in spots]
        action = next((a for a in actions if not self.doc.check(a)), actions[0])
        if self.doc.execute(action):
            self.doc.select([cid])

    def rename(self) -> None:
        cids = self._selected("command")
        if not cids:
            self.doc.refused.emit("select a command to rename")
            return
        c = self.doc.battle.commands[cids[0]]
        name, ok = QInputDialog.getText(self, "Rename command", "New name:", text=c.name)
        if ok:
            self.doc.execute(RenameCommand(c.id, name))

    # ---- reinforcements: right-click a command or unit --------------------------------------
    def _context_menu(self, point) -> None:
        item = self.tree.itemAt(point)
        ref = item.data(0, ROLE) if item else None
        if not ref or ref[0] not in DRAGGED:
            return
        self.menu = self.context_menu(ref)
        self.menu.popup(self.tree.viewport().mapToGlobal(point))

    def context_menu(self, ref) -> QMenu:
        """Arrives later… / Change arrival… / On the table from the start, and Delete for
        a unit still to come (it is not on the map to select)."""
        kind, pid = ref
        b = self.doc.battle
        a = b.arrival_of(pid)
        menu = QMenu(self)
        if a is None:
            menu.addAction("Arrives later…", lambda: self.arrival_requested.emit(pid))
        else:
            whose = b.commands[a.id].name if a.scope == "command" else a.units[0][1].name
            menu.addAction(f"Change arrival of {whose}…", lambda: self.arrival_requested.emit(a.id))
            menu.addAction("On the table from the start",
                           lambda: self.doc.execute(SetArrival(a.id, 0)))
        if kind == "arrival":
            menu.addAction("Delete this unit", lambda: self.doc.execute(RemoveUnit(pid)))
        started = b.state.started
        for act in menu.actions():
            act.setEnabled(not started)
            if started:
                act.setToolTip("arrivals are set before the battle begins")
        return menu

    def delete(self) -> None:
        self.doc.delete_selection()         # the tree's selection is the document's

    def place(self) -> None:
        cids = self._selected("command") or [self.doc.battle.hierarchy.find_command(u)
                                             for u in self._selected("unit")]
        if cids and cids[0]:
            self.place_requested.emit(cids[0])
        else:
            self.doc.refused.emit("select the command the new unit joins")


def _army_text(b, side) -> str:
    gen = b.leaders.get(side.general)
    text = side.name + (f"  (general: {gen.name})" if gen else "")
    cmds = [c for c in b.hierarchy.commands_of(side.id) if b.hierarchy.units_of(c)]
    shaken = sum(1 for c in cmds if c in b.state.shaken)
    if shaken:
        text += f"   {shaken}/{len(cmds)} commands Shaken"
    if b.state.over and b.state.winner and b.state.winner != side.id:
        text += "   [CONCEDED]"
    return text
