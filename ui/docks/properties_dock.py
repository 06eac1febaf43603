"""The selected unit's or leader's fields, editable. A change is an action: the engine
validates it, and a refusal puts the field back and says why in red."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDockWidget, QDoubleSpinBox, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QVBoxLayout,
                               QWidget)

from manager.editor_actions import (EditLeader, EditTerrain, EditUnit, RelocateLeader,
                                   RelocateUnit)
from manager.model.forces import UNIT_TRAITS

from ..widgets import scrolled


class PropertiesDock(QDockWidget):
    arrival_requested = Signal(str)     # Arrives later… for the piece shown

    def __init__(self, doc, parent=None):
        super().__init__("Properties", parent)
        self.setObjectName("PropertiesDock")
        self.doc = doc
        self.pid = None
        self.fields: dict = {}
        self._updating = False
        body = QWidget()
        self.layout_ = QVBoxLayout(body)
        self.heading = QLabel("Nothing selected")
        self.heading.setWordWrap(True)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c01010")
        self.error.setWordWrap(True)
        self.layout_.addWidget(self.heading)
        self.layout_.addWidget(self.form_host)
        self.layout_.addWidget(self.error)
        self.layout_.addStretch(1)
        self.setWidget(scrolled(body))
        doc.selection_changed.connect(self._rebuild)
        doc.changed.connect(self._refresh)
        doc.refused.connect(self._refused)
        self._rebuild()

    # ---- which piece --------------------------------------------------------------------
    def _piece(self):
        b = self.doc.shown
        piece = b.units.get(self.pid) or b.leaders.get(self.pid)
        if piece is None and self.pid:
            piece = next((f for f in b.battlefield.features if f.id == self.pid), None)
        return piece

    def _rebuild(self) -> None:
        b = self.doc.shown
        terrain = {f.id for f in b.battlefield.features}
        ids = [i for i in self.doc.selection if i in b.units or i in b.leaders or i in terrain]
        self.pid = ids[0] if len(ids) == 1 else None
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        self.error.setText("")
        piece = self._piece()
        if piece is None:
            self.heading.setText(f"{len(ids)} pieces selected" if ids else "Nothing selected")
            return
        if self.pid in b.units:
            self._unit_form()
            self._arrival_row()
        elif self.pid in b.leaders:
            self._leader_form()
            self._arrival_row()
        else:
            self._terrain_form(piece)
        self._refresh()

    def _add(self, key, label, widget, commit) -> None:
        self.fields[key] = widget
        self.form.addRow(label, widget)
        if isinstance(widget, QLineEdit):
            widget.editingFinished.connect(lambda: self._commit(commit, key, widget.text()))
        elif isinstance(widget, QComboBox):
            widget.activated.connect(lambda _i: self._commit(commit, key, widget.currentData()))
        elif isinstance(widget, QCheckBox):
            widget.toggled.connect(lambda v: self._commit(commit, key, bool(v)))
        else:
            widget.editingFinished.connect(lambda: self._commit(commit, key, widget.value()))

    def _unit_form(self) -> None:
        rs = self.doc.ruleset
        kind = QComboBox()
        for k, prof in rs.profiles.items():
            kind.addItem(f"{prof.label} ({k.replace('_', ' ')})", k)
        form = QComboBox()
        for f in rs.formations:
            form.addItem(f, f)
        hits = QSpinBox()
        x, y = QDoubleSpinBox(), QDoubleSpinBox()
        bf = self.doc.shown.battlefield
        for w, top in ((x, bf.width), (y, bf.height)):
            w.setRange(0, top)
            w.setSuffix('"')
            w.setSingleStep(bf.grid or 1)
        facing = QSpinBox()
        facing.setRange(0, 359)
        facing.setSingleStep(45 if bf.grid else 15)
        facing.setSuffix("°")
        self._add("name", "Name", QLineEdit(), "edit")
        self._add("kind", "Kind", kind, "edit")
        self._add("hits", "Hits left", hits, "edit")
        self._add("formation", "Formation", form, "edit")
        self._add("nation", "Nation", QLineEdit(), "edit")
        for flag, label in (("guard", "Guard"), ("fixed", "Fixed in place"),
                            ("sharpshooters", "Sharpshooters")):
            self._add(flag, label, QCheckBox(), "edit")
        for trait in UNIT_TRAITS:               # read by the rulesets that use them
            self._add(f"trait:{trait}", trait.capitalize(), QCheckBox(), "edit")
        self._add("x", "X", x, "place")
        self._add("y", "Y", y, "place")
        self._add("facing", "Facing", facing, "place")

    def _leader_form(self) -> None:
        quality = QSpinBox()
        quality.setRange(0, 6)
        quality.setSpecialValueText("roll at start")
        trait = QComboBox()
        trait.addItem("none", "")
        for t in self.doc.ruleset.traits:
            trait.addItem(t, t)
        hits = QSpinBox()
        self._add("name", "Name", QLineEdit(), "leader")
        self._add("quality", "Quality", quality, "leader")
        self._add("trait", "Characteristic", trait, "leader")
        self._add("hits", "Hits left", hits, "leader")
        bf = self.doc.shown.battlefield
        for key in ("x", "y"):
            w = QDoubleSpinBox()
            w.setRange(0, bf.width if key == "x" else bf.height)
            w.setSuffix('"')
            self._add(key, key.upper(), w, "place_leader")

    def _arrival_row(self) -> None:
        """On the table from the start, or later: the button opens Arrives later…"""
        host = QWidget()
        row = QHBoxLayout(host)
        row.setContentsMargins(0, 0, 0, 0)
        b = self.doc.shown
        started = b.state.started
        self.arrival_label = QLabel("on the table from the start")
        self.arrival_btn = QPushButton("Arrives later…")
        if self.pid in b.leaders:
            kind, _node = b.hierarchy.find_leader_node(self.pid)
            self.arrival_label.setText("with his command" if kind == "command" else
                                       "the army's general: from the start")
            self.arrival_btn.setEnabled(kind == "command")
        self.arrival_btn.setToolTip("Set the turn, die roll and entry at which it comes on "
                                    "(before the battle begins)")
        self.arrival_btn.setEnabled(self.arrival_btn.isEnabled() and not started
                                    and self.doc.preview is None)
        self.arrival_btn.clicked.connect(lambda: self.arrival_requested.emit(self.pid))
        row.addWidget(self.arrival_label, 1)
        row.addWidget(self.arrival_btn)
        self.form.addRow("Arrival", host)

    def _terrain_form(self, feature) -> None:
        """Name a river, say what kind of wood or wall (the variant), a hill's level."""
        variant = QLineEdit()
        variant.setPlaceholderText({"wall": "stone, hedge, fence, high", "town": "village, "
                                    "castle, fortified", "woods": "pine, orchard, open"}.get(
                                        feature.kind, "what kind (free text)"))
        self._add("name", "Name", QLineEdit(), "terrain")
        self._add("variant", "Kind of " + feature.kind, variant, "terrain")
        if feature.kind == "hill":
            level = QSpinBox()
            level.setRange(1, 9)
            self._add("level", "Level", level, "terrain")

    # ---- show the record ------------------------------------------------------------------
    def _refresh(self) -> None:
        piece = self._piece()
        if piece is None:
            if self.pid is not None:
                self._rebuild()
            return
        b = self.doc.shown
        self._updating = True
        try:
            if self.pid in b.units:
                cmd = b.commands.get(b.hierarchy.find_command(piece.id))
                self.heading.setText(f"<b>{piece.name}</b> ({piece.id})<br>{b.sides[piece.side].name}"
                                     f"{', ' + cmd.name if cmd else ''}"
                                     + ("<br><i>eliminated</i>" if piece.eliminated else ""))
                self.fields["hits"].setRange(1, max(piece.max_hits, 1))
            elif self.pid in b.leaders:
                self.heading.setText(f"<b>{piece.name}</b> ({piece.id}), leader<br>"
                                     f"{b.sides[piece.side].name}")
                self.fields["hits"].setRange(1, max(piece.max_hits, 1))
            else:
                self.heading.setText(f"<b>{piece.name or piece.kind}</b> ({piece.id}), "
                                     f"{piece.kind}")
            for key, w in self.fields.items():
                value = _value(piece, key)
                if isinstance(w, QLineEdit):
                    w.setText(str(value))
                elif isinstance(w, QComboBox):
                    w.setCurrentIndex(max(0, w.findData(value)))
                elif isinstance(w, QCheckBox):
                    w.setChecked(bool(value))
                else:
                    w.setValue(value)
                w.setEnabled(self.doc.preview is None)
        finally:
            self._updating = False

    # ---- commit an edit ----------------------------------------------------------------------
    def _commit(self, how: str, key: str, value) -> None:
        piece = self._piece()
        if self._updating or piece is None or _value(piece, key) == value:
            return
        self.error.setText("")
        if key.startswith("trait:"):
            trait = key.split(":", 1)[1]
            traits = set(piece.traits) - {trait} | ({trait} if value else set())
            key, value = "traits", tuple(sorted(traits))
        if how == "edit":
            action = EditUnit(piece.id, ((key, value),))
        elif how == "leader":
            action = EditLeader(piece.id, ((key, value),))
        elif how == "terrain":
            action = EditTerrain(piece.id, ((key, value),))
        elif how == "place":
            pos = (self.fields["x"].value(), self.fields["y"].value())
            action = RelocateUnit(piece.id, pos, int(self.fields["facing"].value()))
        else:
            action = RelocateLeader(piece.id, (self.fields["x"].value(), self.fields["y"].value()))
        self.doc.execute(action)

    def _refused(self, why: str) -> None:
        if self.pid is not None:
            self.error.setText(why)


def _value(piece, key: str):
    """A field's value on the record; `trait:NAME` fields are whether it has that trait."""
    if key.startswith("trait:"):
        return key.split(":", 1)[1] in piece.traits
    return getattr(piece, key)
