"""Every action, event and roll in order, grouped by turn and phase. Selecting an entry
shows the battle as it was just after it; "Undo to here" rewinds the game to it."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QPushButton, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

from manager.errors import IllegalAction

from ..wording import action_text

ROLE = Qt.UserRole      # the number of log entries the battle has after this one


class LogDock(QDockWidget):
    def __init__(self, doc, parent=None):
        super().__init__("Log", parent)
        self.setObjectName("LogDock")
        self.doc = doc
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["#", "What happened"])
        self.tree.setColumnWidth(0, 70)
        self.tree.itemSelectionChanged.connect(self._selected)
        self.past = QLabel()
        self.past.setStyleSheet("background:#305080; color:white; padding:4px")
        self.past.setWordWrap(True)
        row = QHBoxLayout()
        self.now_btn = QPushButton("Back to now")
        self.now_btn.clicked.connect(self._back_to_now)
        self.undo_btn = QPushButton("Undo to here")
        self.undo_btn.setToolTip("Take back every action after the selected one (redo brings them back)")
        self.undo_btn.clicked.connect(self.undo_to_here)
        row.addWidget(self.now_btn)
        row.addWidget(self.undo_btn)
        self.network = QLabel()         # hosting, or joined to whom and how the link is
        self.network.setWordWrap(True)
        self.network.setStyleSheet("background:#e8f0fa; border:1px solid #8aa8d0; padding:3px")
        self.network.setVisible(False)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.network)
        lay.addWidget(self.past)
        lay.addWidget(self.tree)
        lay.addLayout(row)
        self.setWidget(body)
        self._shown = 0                 # entries already in the tree
        self._groups: dict = {}
        self._syncing = False
        self._first = doc.session.state_at(0)     # names pieces removed since
        doc.changed.connect(self.sync)
        doc.preview_changed.connect(self._preview_changed)
        self.sync()
        self._preview_changed()

    # ---- mirror the session's log --------------------------------------------------------
    def sync(self) -> None:
        self.network.setText(self.doc.network_line)
        self.network.setVisible(bool(self.doc.network_line))
        if self.doc.remote:             # undo is the host's: this asks its umpire
            self.undo_btn.setText("Ask host to undo to here")
            self.undo_btn.setToolTip("Ask the host's umpire to take back every action after "
                                     "the selected one")
        entries = self.doc.session.entries
        if self._shown and (len(entries) < self._shown
                            or entries[self._shown - 1] is not self._last):
            self.tree.clear()               # undone or rewritten: rebuild (rare, cheap enough)
            self._shown, self._groups = 0, {}
        self._syncing = True
        for entry in entries[self._shown:]:
            self._add(entry)
        self._syncing = False
        self._shown = len(entries)
        self._last = entries[-1] if entries else None
        if self.doc.preview is None and entries:
            self.tree.scrollToBottom()

    def _group(self, entry) -> QTreeWidgetItem:
        b = self.doc.battle
        key = (entry.turn, entry.side, entry.phase) if entry.turn else ("setup",)
        item = self._groups.get(key)
        if item is None:
            if entry.turn:
                side = b.sides[entry.side].name if entry.side in b.sides else entry.side
                phase = self._phase_label(entry.phase)
                text = f"Turn {entry.turn} — {side} — {phase}"
            else:
                text = "Set-up"
            item = QTreeWidgetItem(["", text])
            item.setData(0, ROLE, None)
            item.setForeground(1, QBrush(QColor("#203060")))
            f = item.font(1)
            f.setBold(True)
            item.setFont(1, f)
            self.tree.addTopLevelItem(item)
            item.setExpanded(True)
            self._groups[key] = item
        return item

    def _phase_label(self, name: str) -> str:
        try:
            return self.doc.ruleset.phase(name).label
        except IllegalAction:
            return name

    def _add(self, entry) -> None:
        parent = self._group(entry)
        what = "; ".join(e.describe() for e in entry.events) or action_text(
            self.doc.battle, entry.action, self._first)
        correction = entry.action.category == "edit" and entry.turn > 0
        if correction:                  # an edit once the battle has begun
            what = "Umpire correction: " + what
        item = QTreeWidgetItem([str(entry.index + 1), what])
        item.setData(0, ROLE, entry.index + 1)
        item.setToolTip(1, action_text(self.doc.battle, entry.action, self._first))
        if correction:
            item.setForeground(1, QBrush(QColor("#b04000")))
        parent.addChild(item)
        for roll in entry.rolls:
            r = QTreeWidgetItem([f"roll {roll.seq}",
                                 f"{roll.purpose}: {roll.expression} → "
                                 f"{' '.join(map(str, roll.faces))}"
                                 + (" (typed)" if roll.source == "manual" else "")])
            r.setData(0, ROLE, entry.index + 1)
            r.setForeground(1, QBrush(QColor("#6a4a10")))
            item.addChild(r)

    # ---- the past ----------------------------------------------------------------------------
    def selected_count(self):
        items = self.tree.selectedItems()
        return items[0].data(0, ROLE) if items else None

    def _selected(self) -> None:
        if self._syncing:
            return
        count = self.selected_count()
        if count is not None:
            self.doc.show_past(count)

    def _preview_changed(self) -> None:
        p = self.doc.preview
        self.past.setVisible(p is not None)
        self.now_btn.setEnabled(p is not None)
        self.undo_btn.setEnabled(p is not None)
        if p is not None:
            self.past.setText(f"Showing the battle after entry {p} of "
                              f"{len(self.doc.session.entries)}. Orders are paused.")

    def _back_to_now(self) -> None:
        self._syncing = True
        self.tree.clearSelection()
        self._syncing = False
        self.doc.go_to_present()

    def undo_to_here(self) -> None:
        count = self.selected_count()
        if count is None:
            return
        self._back_to_now()
        self.doc.undo_to(count)
