"""The player's choices for the order shown in the turn runner (issue 15).

Some texts leave choices to the player at the moment a charge or a melee is resolved
(Featherstone: commit a general's influence, with the risk roll; counter-charge on a 7;
forgo a grenadier's re-roll). The ruleset lists them for the order (`Ruleset.choices`),
each with its effect on the odds in the label; a button takes one through the session
(one action, one undo step), and the odds panel above then shows the order with it.
It knows no rules: what is offered is what the ruleset lists and the engine allows now.
"""
from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QPushButton, QSizePolicy, QVBoxLayout

from manager.errors import BerthierError


class ChoicesBox(QGroupBox):
    def __init__(self, doc, parent=None):
        super().__init__("Choices", parent)
        self.doc = doc
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(4, 4, 4, 4)
        self.buttons: list[QPushButton] = []
        self.setVisible(False)

    def show_for(self, action) -> None:
        """Offer the ruleset's choices bearing on `action` (None: none)."""
        while self.lay.count():
            w = self.lay.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.buttons = []
        offers = []
        if action is not None:
            try:
                offers = self.doc.ruleset.choices(self.doc.battle, action)
            except BerthierError:
                offers = []
        for label, choice in offers:
            if self.doc.check(choice):           # not allowed in this step: not offered
                continue
            b = QPushButton(label)
            b.setToolTip("Take this choice now (one step; Undo takes it back); the odds "
                         "above then include it")
            b.setStyleSheet("text-align:left; padding:3px")
            b.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)   # never widen the dock
            b.clicked.connect(lambda _=False, c=choice: self.doc.execute(c))
            self.lay.addWidget(b)
            b.show()                     # a child added to a shown box is shown only later
            self.buttons.append(b)
        if self.buttons:
            hint = QLabel("<i>before you resolve:</i>")
            self.lay.insertWidget(0, hint)
            hint.show()
        self.setVisible(bool(self.buttons))
