"""File > New battle: the ruleset, the table and its grid, the two sides with their
colours and home edges. The dialog only gathers the answers; the battle is made by the
scenario reader (`battle_from_dict`), so a new battle obeys the rules a file would."""
from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QGridLayout, QGroupBox, QLabel, QLineEdit,
                               QVBoxLayout)

from manager.errors import BerthierError
from manager.rules import get_ruleset, ruleset_ids
from manager.scenario_io import EDGES, battle_from_dict

SIDES = (("blue", "Blue Army", "#2b4ea2", "west"), ("red", "Red Army", "#b03030", "east"))


class NewBattleDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New battle")
        self.battle = None
        self.name = QLineEdit("New battle")
        self.ruleset = QComboBox()
        for rid in ruleset_ids():
            self.ruleset.addItem(get_ruleset(rid).name, rid)
        self.ruleset.setCurrentIndex(max(0, self.ruleset.findData("morschauser")))
        self.width_, self.height_ = self._inches(72), self._inches(48)
        self.grid = QDoubleSpinBox()
        self.grid.setRange(0, 12)
        self.grid.setSingleStep(0.5)
        self.grid.setValue(3)
        self.grid.setSuffix(" in")
        self.grid.setSpecialValueText("open table (no grid)")
        self.grid.setToolTip("The box size; 0 for an open table measured in inches")
        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Rules", self.ruleset)
        form.addRow("Table width", self.width_)
        form.addRow("Table depth", self.height_)
        form.addRow("Grid", self.grid)
        sides = QGroupBox("Sides")
        grid = QGridLayout(sides)
        for c, text in enumerate(("Name", "Colour", "Home edge")):
            grid.addWidget(QLabel(f"<b>{text}</b>"), 0, c)
        self.sides = []
        for r, (sid, name, colour, edge) in enumerate(SIDES, start=1):
            n, col, e = QLineEdit(name), QLineEdit(colour), QComboBox()
            e.addItems(list(EDGES))
            e.setCurrentText(edge)
            for c, w in enumerate((n, col, e)):
                grid.addWidget(w, r, c)
            self.sides.append((sid, n, col, e))
        self.error = QLabel()
        self.error.setStyleSheet("color:#c01010")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.Ok)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(sides)
        lay.addWidget(self.error)
        lay.addWidget(buttons)

    @staticmethod
    def _inches(value) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(12, 480)
        box.setValue(value)
        box.setSuffix(" in")
        return box

    def data(self) -> dict:
        table = {"width": self.width_.value(), "height": self.height_.value()}
        if self.grid.value() > 0:
            table["grid"] = self.grid.value()
        return {"scenario": {"name": self.name.text().strip() or "New battle",
                             "ruleset": self.ruleset.currentData()},
                "table": table,
                "sides": [{"id": sid, "name": n.text().strip() or sid, "colour": col.text().strip(),
                           "home_edge": e.currentText(), "commands": []}
                          for sid, n, col, e in self.sides]}

    def accept(self) -> None:
        """Made by the scenario reader; its refusal (a grid ruleset with no grid, two
        sides on one edge…) stays in the dialog in red."""
        edges = [e.currentText() for *_, e in self.sides]
        if len(set(edges)) < len(edges):
            self.error.setText("the two sides need different home edges")
            return
        try:
            self.battle = battle_from_dict(self.data(), "New battle")
        except BerthierError as exc:
            self.error.setText(str(exc))
            return
        super().accept()
