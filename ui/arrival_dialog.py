"""Arrives later…: the editor's dialog to set, change or clear a reinforcement.

For a command (its units and leader come together), a unit, or a leader (he comes with
his command). The entry is a named entry already used in the battle, the middle of a
table edge, or a point or stretch picked on the map (the dialog steps aside while the
umpire clicks, or drags along the edge). OK runs one `SetArrival` through the document:
one undo step; a refusal stays in the dialog in red and changes nothing.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from manager.arrival_edit import SetArrival
from manager.model.arrival import Arrival

from .wording import place


def arrival_target(battle, ref: str) -> tuple[str, str]:
    """(the command or unit id an arrival is set on, '' ) or ('', why not) for a piece."""
    a = battle.arrival_of(ref)
    if a is not None:
        return a.id, ""
    if ref in battle.commands or ref in battle.units:
        return ref, ""
    if ref in battle.leaders:
        kind, node = battle.hierarchy.find_leader_node(ref)
        if kind == "command":
            return node, ""
        return "", f"{battle.leaders[ref].name} commands the army: he is on the table from the start"
    return "", f"there is no unit, leader or command {ref!r}"


def edge_entries(battle) -> list[tuple[str, tuple]]:
    """The middle third of each table edge, as stretches an arrival may come on along."""
    w, h = battle.battlefield.width, battle.battlefield.height
    g = battle.battlefield.grid
    edge = (g / 2) if g else 0.0          # box centres on a grid
    return [("the west edge (middle)", ((edge, h / 3), (edge, 2 * h / 3))),
            ("the east edge (middle)", ((w - edge, h / 3), (w - edge, 2 * h / 3))),
            ("the north edge (middle)", ((w / 3, edge), (2 * w / 3, edge))),
            ("the south edge (middle)", ((w / 3, h - edge), (2 * w / 3, h - edge)))]


def named_entries(battle) -> list[tuple[str, tuple]]:
    """Entries the battle's other reinforcements already use, by name."""
    seen, out = set(), []
    for a in battle.pending:
        if a.name and a.name not in seen:
            seen.add(a.name)
            out.append((a.name, a.entry))
    return out


class ArrivalDialog(QDialog):
    pick_requested = Signal()           # step aside: the umpire picks the entry on the map

    def __init__(self, doc, target: str, parent=None):
        super().__init__(parent)
        self.doc, self.target = doc, target
        b = doc.battle
        self.current = next((a for a in b.pending if a.id == target), None)
        self.setWindowTitle("Arrives later")
        lay = QVBoxLayout(self)
        self.heading = QLabel(self._heading(b))
        self.heading.setWordWrap(True)
        lay.addWidget(self.heading)
        form = QFormLayout()
        self.turn = QSpinBox()
        self.turn.setRange(1, max(1, b.info.turns))
        self.turn.setToolTip("The first turn they may come on, at the start of their side's move")
        form.addRow("First turn", self.turn)
        self.roll = QComboBox()
        self.roll.addItem("no roll: they come on that turn", 0)
        for r in range(2, 7):
            self.roll.addItem(f"from that turn, each turn on a D6 of {r}+", r)
        form.addRow("Die roll", self.roll)
        self.preset = QComboBox()
        self.preset.addItem("a point or stretch (below, or pick on the map)", None)
        for label, pts in named_entries(b) + edge_entries(b):
            self.preset.addItem(label, (label, pts))
        self.preset.activated.connect(self._preset_chosen)
        form.addRow("Entry", self.preset)
        self.name = QLineEdit()
        self.name.setPlaceholderText("how the order of battle names it: the Raigern road")
        form.addRow("Name", self.name)
        self.xy = [self._spin(b.battlefield.width), self._spin(b.battlefield.height)]
        self.to_xy = [self._spin(b.battlefield.width), self._spin(b.battlefield.height)]
        self.stretch = QCheckBox("a stretch of edge, to")
        self.stretch.toggled.connect(self._show_stretch)
        form.addRow("At", self._row(*self.xy))
        form.addRow(self.stretch, self._row(*self.to_xy))
        self.pick_btn = QPushButton("Pick on the map…")
        self.pick_btn.setToolTip("Click the entry on the map, or drag along the edge for a "
                                 "stretch; Esc comes back without changing it")
        self.pick_btn.clicked.connect(self.pick_requested.emit)
        form.addRow("", self.pick_btn)
        self.delay = QCheckBox("put them off a turn when the entry is blocked")
        self.delay.setToolTip("An enemy within two boxes (8 inches) of the entry, or no room "
                              "for them all near it; otherwise they come on in the nearest room")
        form.addRow("Blocked entry", self.delay)
        lay.addLayout(form)
        self.summary = QLabel()
        self.summary.setStyleSheet("color:#205020; font-weight:bold")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.error = QLabel()
        self.error.setStyleSheet("color:#c01010")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Set arrival")
        self.clear_btn = self.buttons.addButton("On the table from the start",
                                                QDialogButtonBox.ResetRole)
        self.clear_btn.setToolTip("Clear the arrival: the pieces go back where their records stand")
        self.clear_btn.setVisible(self.current is not None)
        self.clear_btn.clicked.connect(self.clear)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._fill(self.current)
        for w in (self.turn, *self.xy, *self.to_xy):
            w.valueChanged.connect(self._update)
        self.roll.currentIndexChanged.connect(self._update)
        self.name.textChanged.connect(self._update)
        self._update()

    # ---- widgets -------------------------------------------------------------------------
    def _spin(self, top: float) -> QDoubleSpinBox:
        w = QDoubleSpinBox()
        w.setRange(0, top)
        w.setDecimals(1)
        w.setSuffix('"')
        w.setSingleStep(self.doc.battle.battlefield.grid or 1.0)
        return w

    def _row(self, x, y) -> QWidget:
        host = QWidget()
        row = QHBoxLayout(host)
        row.setContentsMargins(0, 0, 0, 0)
        for label, w in (("x", x), ("y", y)):
            row.addWidget(QLabel(label))
            row.addWidget(w, 1)
        return host

    def _heading(self, b) -> str:
        if self.target in b.commands:
            c = b.commands[self.target]
            lid = b.hierarchy.leader_of_command(self.target)
            lead = b.leaders.get(lid) or (self.current.leader[1] if self.current and
                                          self.current.leader else None)
            n = len(b.hierarchy.units_of(self.target)) or len(self.current.units if self.current else ())
            who = f" ({n} unit{'s' if n != 1 else ''}" + (f" and {lead.name}" if lead else "") + ")"
            return f"<b>{c.name}</b>{who} arrive later, all together."
        u = b.all_units()[self.target]
        return f"<b>{u.name}</b> arrives later, on its own."

    def _fill(self, a: Arrival | None) -> None:
        b = self.doc.battle
        if a is None:                         # a sensible start: the side's home edge
            side = (b.commands.get(self.target) or b.all_units()[self.target]).side
            home = b.sides[side].home_edge
            label, pts = next((e for e in edge_entries(b) if home in e[0]), edge_entries(b)[0])
            self.turn.setValue(min(2, b.info.turns))
            self.preset.setCurrentIndex(max(0, self.preset.findText(label)))
            self.set_entry(pts, label)
            return
        self.turn.setValue(a.turn)
        self.roll.setCurrentIndex(max(0, self.roll.findData(a.roll)))
        self.set_entry(a.entry, a.name)
        self.delay.setChecked(a.delay_if_blocked)

    def _show_stretch(self, on: bool) -> None:
        for w in self.to_xy:
            w.setEnabled(on)
        self._update()

    def _preset_chosen(self, _i=None) -> None:
        data = self.preset.currentData()
        if data:
            self.set_entry(data[1], data[0])

    def set_entry(self, points, name: str | None = None) -> None:
        """The entry from a preset or the map: one point, or two for a stretch."""
        points = tuple(points)
        for w, v in zip(self.xy, points[0]):
            w.setValue(v)
        self.stretch.setChecked(len(points) > 1)
        if len(points) > 1:
            for w, v in zip(self.to_xy, points[1]):
                w.setValue(v)
        self._show_stretch(len(points) > 1)
        if name is not None:
            self.name.setText(name)
        self._update()

    # ---- the action ------------------------------------------------------------------------
    def entry(self) -> tuple:
        pts = [(self.xy[0].value(), self.xy[1].value())]
        if self.stretch.isChecked():
            pts.append((self.to_xy[0].value(), self.to_xy[1].value()))
        return tuple(pts)

    def action(self) -> SetArrival:
        return SetArrival(self.target, self.turn.value(), self.roll.currentData(),
                          self.name.text().strip(), self.entry(), self.delay.isChecked())

    def _update(self) -> None:
        a = self.action()
        b = self.doc.battle
        where = " to ".join(place(b, p) for p in a.entry)
        preview = Arrival(a.target, "", "", a.turn, a.roll, a.name or where).describe()
        boxes = f" ({where})" if a.name and b.battlefield.grid else ""
        self.summary.setText(f"{preview[0].upper()}{preview[1:]}{boxes}")
        self.error.setText("")

    def accept(self) -> None:
        why = self.doc.check(self.action())
        if why:
            self.error.setText(why)
            return
        if self.doc.execute(self.action()):
            super().accept()

    def clear(self) -> None:
        action = SetArrival(self.target, 0)
        why = self.doc.check(action)
        if why:
            self.error.setText(why)
            return
        if self.doc.execute(action):
            super().accept()


# ---- the window's side: open the dialog, step aside for the map -------------------------------
def edit_arrival(window, ref: str):
    """Arrives later… for a command, unit or leader (or a reinforcement listed in the order
    of battle): the dialog, not modal to the map while the entry is picked. None when the
    piece cannot arrive later (the reason is in the status bar)."""
    doc = window.doc
    if doc.battle.state.started:
        window._refused("arrivals are set before the battle begins")
        return None
    target, why = arrival_target(doc.battle, ref)
    if not target:
        window._refused(why)
        return None
    dlg = ArrivalDialog(doc, target, window)
    dlg.pick_requested.connect(lambda: pick_entry(window, dlg))
    window.arrival_dialog = dlg            # kept alive (and found by the tests)
    dlg.open()
    return dlg


def pick_entry(window, dlg) -> None:
    from .battlefield.pick_tool import PickEntryTool
    view = window.view
    before = view.tool

    def done(points):
        tool.deactivate()
        view.tool = before
        if before is not None:
            before.activate()
        if points:
            dlg.set_entry(points)
            dlg.preset.setCurrentIndex(0)
        dlg.show()

    tool = PickEntryTool(window.doc, window.scene, view, done)
    if before is not None:
        before.deactivate()
    view.tool = tool
    tool.activate()
    dlg.hide()
    view.setFocus()
    window.statusBar().showMessage(tool.tip, 15000)
