"""File > Import order of battle: pick listings, see the tree and the units they make, the
lines that could not be read and the scale, choose each army's side, then add it all as
one undo step (refused whole, with the reason, if the rules would not accept it)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QListWidget, QPushButton,
                               QSpinBox, QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                               QWidget)

from manager.errors import BerthierError
from manager.oob import Scale, import_files, printable
from manager.oob.placing import actions_to_add

FACING = {"west": 90, "east": 270, "north": 180, "south": 0}
SCALES = [("As the listing counts (bases or men)", "auto"),
          ("1 unit = 1200 infantry, 800 cavalry or 12 guns", "men"),
          ("N bases a unit", "bases"), ("One unit per listed element", "element")]


class OobImportDialog(QDialog):
    def __init__(self, window, files=()):
        super().__init__(window)
        self.w = window
        self.setWindowTitle("Import order of battle")
        self.resize(760, 620)
        self.files: list[str] = list(files)
        self.result = None
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.file_label = QLabel("No listing chosen")
        self.file_label.setWordWrap(True)
        pick = QPushButton("Choose listings…")
        pick.clicked.connect(self.choose)
        top.addWidget(self.file_label, 1)
        top.addWidget(pick)
        lay.addLayout(top)
        form = QFormLayout()
        self.scale = QComboBox()
        for label, key in SCALES:
            self.scale.addItem(label, key)
        self.bases = QSpinBox()
        self.bases.setRange(1, 12)
        self.bases.setValue(2)
        self.bases.setSuffix(" bases a unit")
        row = QHBoxLayout()
        row.addWidget(self.scale, 1)
        row.addWidget(self.bases)
        holder = QWidget()
        holder.setLayout(row)
        form.addRow("Scale", holder)
        self.level = QComboBox()
        self.level.addItem("Corps (the formations under the army)", "corps")
        self.level.addItem("Divisions", "division")
        form.addRow("Commands are", self.level)
        self.sides_box = QWidget()
        self.sides_form = QFormLayout(self.sides_box)
        self.sides_form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Armies go to", self.sides_box)
        lay.addLayout(form)
        self.tabs = QTabWidget()
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Army / command / unit", "Kind", "From lines"])
        self.tree.setColumnWidth(0, 330)
        self.tabs.addTab(self.tree, "Units it makes")
        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        self.tabs.addTab(self.problems, "Problems")
        self.notes = QListWidget()
        self.notes.setWordWrap(True)
        self.tabs.addTab(self.notes, "Notes and skipped lines")
        lay.addWidget(self.tabs, 1)
        self.skip_bad = QCheckBox("Add without the lines that could not be read")
        self.skip_bad.toggled.connect(self._enable)
        lay.addWidget(self.skip_bad)
        self.summary = QLabel("")
        lay.addWidget(self.summary)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Add to the battle")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.side_choice: dict[str, QComboBox] = {}
        self.scale.currentIndexChanged.connect(self.refresh)
        self.bases.valueChanged.connect(self.refresh)
        self.level.currentIndexChanged.connect(self.refresh)
        self.refresh()

    def choose(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Orders of battle", "",
                                                "Listings (*.txt *.oob *.md);;All files (*)")
        if files:
            self.files = files
            self.refresh()

    def scale_text(self) -> str:
        key = self.scale.currentData()
        return f"bases:{self.bases.value()}" if key == "bases" else key

    def refresh(self) -> None:
        self.bases.setEnabled(self.scale.currentData() == "bases")
        self.tree.clear()
        self.problems.clear()
        self.notes.clear()
        self.result = None
        if not self.files:
            self._enable()
            return
        self.file_label.setText(", ".join(Path(f).name for f in self.files))
        try:
            self.result = import_files(self.files, Scale.parse(self.scale_text()),
                                       self.level.currentData())
        except (BerthierError, ValueError) as exc:
            self.problems.addItem(printable(str(exc)))
            self.tabs.setCurrentWidget(self.problems)
            self._enable()
            return
        r = self.result
        for army in r.armies:
            top = QTreeWidgetItem([f"{army.name}" + (f" — {army.leader}" if army.leader else ""),
                                   army.nation, ""])
            self.tree.addTopLevelItem(top)
            for c in army.commands:
                node = QTreeWidgetItem([f"{c.name}" + (f" — {c.leader}" if c.leader else "")
                                        + (" (leader doubtful)" if c.leader_doubtful else ""),
                                        f"{len(c.units)} units", ""])
                top.addChild(node)
                for u in c.units:
                    lines = ", ".join(f"{ln}" for _f, ln, _s in u.sources)
                    item = QTreeWidgetItem([u.name, u.kind.replace("_", " ")
                                            + (f" ({', '.join(u.traits)})" if u.traits else ""),
                                            lines])
                    item.setToolTip(2, "\n".join(f"{Path(f).name} line {ln}: {s:.0%} of it"
                                                 for f, ln, s in u.sources))
                    node.addChild(item)
            top.setExpanded(True)
        for p in r.problems:
            self.problems.addItem(printable(f"{Path(p.file).name} line {p.line}: {p.message} "
                                            f"— {p.text}"))
        for f, n, t in r.notes:
            self.notes.addItem(printable(f"{Path(f).name} line {n}: {t}"))
        for f, n, t in r.skipped:
            self.notes.addItem(printable(f"{Path(f).name} line {n}: skipped as prose: {t}"))
        self.tabs.setTabText(1, f"Problems ({len(r.problems)})")
        self.tabs.setTabText(2, f"Notes and skipped lines ({len(r.notes) + len(r.skipped)})")
        if r.problems:
            self.tabs.setCurrentWidget(self.problems)
        self._sides()
        self.summary.setText(f"{r.total_units} units in "
                             f"{sum(len(a.commands) for a in r.armies)} commands, "
                             f"{r.scale.describe()}")
        self._enable()

    def _sides(self) -> None:
        while self.sides_form.rowCount():
            self.sides_form.removeRow(0)
        self.side_choice = {}
        battle = self.w.doc.battle
        sides = list(battle.sides.values())
        for i, army in enumerate(self.result.armies if self.result else []):
            box = QComboBox()
            box.addItem("(leave out)", "")
            for s in sides:
                box.addItem(s.name, s.id)
            match = next((k + 1 for k, s in enumerate(sides)
                          if army.nation and s.nation == army.nation), None)
            box.setCurrentIndex(match or (i % len(sides)) + 1)
            self.side_choice[army.name] = box
            self.sides_form.addRow(army.name, box)

    def _enable(self) -> None:
        ok = self.result is not None and self.result.total_units > 0 and (
            not self.result.problems or self.skip_bad.isChecked())
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(ok)
        self.skip_bad.setVisible(bool(self.result and self.result.problems))

    def chosen_sides(self) -> dict[str, str]:
        return {name: box.currentData() for name, box in self.side_choice.items()
                if box.currentData()}

    def actions(self):
        doc = self.w.doc
        view = self.w.view
        centre = view.mapToScene(view.viewport().rect().center())
        sides = self.chosen_sides()
        out = []
        for army, side in sides.items():
            edge = doc.battle.sides[side].home_edge
            out += actions_to_add(self.result, doc.battle, doc.ruleset, {army: side},
                                  (centre.x(), centre.y()), FACING.get(edge, 0),
                                  back=2.0 if len(sides) > 1 else 0.0)
        return out


def import_order_of_battle(window, files=(), accept=None) -> bool:
    """Run the dialog; `accept` (tests) stands in for the person pressing the button."""
    dlg = OobImportDialog(window, files)
    if accept is not None:
        if not accept(dlg):
            return False
    elif dlg.exec() != QDialog.Accepted:
        return False
    if dlg.result is None:
        return False
    actions = dlg.actions()
    if not actions:
        window.statusBar().showMessage("No army was given a side: nothing added", 6000)
        return False
    ok = window.doc.execute_all(actions, f"Import {dlg.result.total_units} units from "
                                "the order of battle", whole=True)
    if ok:
        window.statusBar().showMessage(f"Added {dlg.result.total_units} units", 6000)
    return ok
