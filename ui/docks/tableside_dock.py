"""Table-side mode: the miniatures stay on a real table. The umpire picks the units and
types the situation the ruleset asks for (range, cover, facing, leaders); the dock shows
the engine's exact odds, and Resolve rolls (or asks for the table's dice)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDockWidget, QFormLayout,
                               QLabel, QListWidget, QListWidgetItem, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from manager.errors import BerthierError
from manager.game_actions import TableFire, TableMelee

from ..widgets import scrolled
from .arrivals_panel import ArrivalsPanel
from .odds_view import odds_html


class TableSideDock(QDockWidget):
    def __init__(self, doc, parent=None):
        super().__init__("Table-side", parent)
        self.setObjectName("TableSideDock")
        self.doc = doc
        body = QWidget()
        lay = QVBoxLayout(body)
        self.arrivals = ArrivalsPanel(doc)      # at the start of a side's move: who comes on
        lay.addWidget(self.arrivals)
        self.title = QLabel()
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.ours, self.theirs = QListWidget(), QListWidget()
        for lst in (self.ours, self.theirs):
            lst.setSelectionMode(QAbstractItemView.ExtendedSelection)
            lst.setMaximumHeight(140)
            lst.itemSelectionChanged.connect(self._rebuild_form)
        self.ours_label, self.theirs_label = QLabel(), QLabel()
        for w in (self.ours_label, self.ours, self.theirs_label, self.theirs):
            lay.addWidget(w)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        lay.addWidget(self.form_host)
        self.odds = QLabel()
        self.odds.setWordWrap(True)
        self.odds.setTextFormat(Qt.RichText)
        lay.addWidget(self.odds)
        self.resolve_btn = QPushButton("Resolve at the table")
        self.resolve_btn.clicked.connect(self.resolve)
        lay.addWidget(self.resolve_btn)
        lay.addStretch(1)
        self.setWidget(scrolled(body))
        self.fields: dict = {}
        self._verb = None
        self._key = None
        doc.changed.connect(self.sync)
        self.sync()

    # ---- what this phase allows ----------------------------------------------------------
    def sync(self) -> None:
        b, rs = self.doc.battle, self.doc.ruleset
        st = b.state
        verb = None
        if st.started and not st.over:
            allowed = rs.phase(st.phase).actions
            verb = "TableFire" if "TableFire" in allowed else "TableMelee" if "TableMelee" in allowed else None
        key = (verb, st.turn, st.active, tuple(u.id for u in b.live_units()))
        if key == self._key:
            self._show_odds()
            return
        self._key, self._verb = key, verb
        for lst in (self.ours, self.theirs):
            lst.blockSignals(True)
            lst.clear()
        if verb is None:
            self.title.setText("Table-side fire and melee are resolved in the phases that allow "
                               "them (start the battle first).")
        else:
            side, enemy = st.active, b.enemy_of(st.active)
            fire = verb == "TableFire"
            self.title.setText(f"<b>{'Fire' if fire else 'Melee'} at the table</b>: pick the units, "
                               "type what the table shows.")
            self.ours_label.setText("Firing unit" if fire else "Attackers")
            self.theirs_label.setText("Target" if fire else "Defenders")
            for lst in (self.ours, self.theirs):
                lst.setSelectionMode(QAbstractItemView.SingleSelection if fire
                                     else QAbstractItemView.ExtendedSelection)
            for lst, s in ((self.ours, side), (self.theirs, enemy)):
                for u in sorted(b.live_units(s), key=lambda u: u.name):
                    item = QListWidgetItem(f"{u.name} ({u.hits}/{u.max_hits})")
                    item.setData(Qt.UserRole, u.id)
                    lst.addItem(item)
        for lst in (self.ours, self.theirs):
            lst.blockSignals(False)
            lst.setEnabled(verb is not None)
        self._rebuild_form()

    def _picked(self, lst) -> tuple:
        return tuple(i.data(Qt.UserRole) for i in lst.selectedItems())

    def select(self, ours, theirs) -> None:
        """Pick units by id (as a click in the lists would)."""
        for lst, ids in ((self.ours, ours), (self.theirs, theirs)):
            for row in range(lst.count()):
                lst.item(row).setSelected(lst.item(row).data(Qt.UserRole) in ids)

    def _skeleton(self):
        ours, theirs = self._picked(self.ours), self._picked(self.theirs)
        if not ours or not theirs:
            return None
        if self._verb == "TableFire":
            return TableFire(ours[0], theirs[0], ())
        return TableMelee(ours, theirs, ())

    # ---- the situation form, from the ruleset's fields ---------------------------------------
    def _rebuild_form(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        skeleton = self._skeleton()
        if skeleton is not None:
            b = self.doc.battle
            for f in self.doc.ruleset.tableside_fields(b, skeleton):
                if f.choices:
                    w = QComboBox()
                    for c in f.choices:
                        label = b.leaders[c].name if c in b.leaders else (c or "none")
                        w.addItem(str(label), c)
                    w.setCurrentIndex(max(0, w.findData(f.default)))
                    w.currentIndexChanged.connect(self._show_odds)
                elif isinstance(f.default, bool):
                    w = QCheckBox()
                    w.setChecked(f.default)
                    w.toggled.connect(self._show_odds)
                else:
                    w = QSpinBox()
                    w.setRange(f.low or 0, f.high if f.high is not None else 99)
                    w.setValue(f.default)
                    w.valueChanged.connect(self._show_odds)
                w.setToolTip(f.help)
                self.form.addRow(f.label, w)
                self.fields[f.key] = w
        self._show_odds()

    def action(self):
        skeleton = self._skeleton()
        if skeleton is None:
            return None
        values = []
        for key, w in self.fields.items():
            value = (w.currentData() if isinstance(w, QComboBox) else
                     w.isChecked() if isinstance(w, QCheckBox) else w.value())
            values.append((key, value))
        if isinstance(skeleton, TableFire):
            return TableFire(skeleton.unit, skeleton.target, tuple(values))
        return TableMelee(skeleton.attackers, skeleton.defenders, tuple(values))

    def _show_odds(self) -> None:
        action = self.action()
        self.resolve_btn.setEnabled(False)
        if action is None:
            self.odds.setText("")
            return
        why = self.doc.check(action)
        if why:
            self.odds.setText(f"<span style='color:#c01010'>{why}</span>")
            return
        try:
            self.odds.setText(odds_html(self.doc.ruleset.odds(self.doc.battle, action)))
        except BerthierError as exc:
            self.odds.setText(f"<i>{exc}</i>")
        self.resolve_btn.setEnabled(True)

    def resolve(self) -> None:
        action = self.action()
        if action is not None:
            self.doc.execute(action)
