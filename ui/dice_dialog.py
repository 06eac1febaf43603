"""Table dice: the engine asks, the umpire types what the dice on the table showed."""
from __future__ import annotations

import re

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout

from manager.dice import check_faces
from manager.errors import DiceError


class DiceDialog(QDialog):
    def __init__(self, request, parent=None):
        super().__init__(parent)
        self.setObjectName("DiceDialog")
        self.request = request
        self.faces = None
        self.setWindowTitle(f"Roll {request.expression}")
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"<b>{request.purpose}</b><br>Roll {request.expression} on the table "
                             f"and type the faces (e.g. <tt>3 5 6</tt>). Roll #{request.seq}."))
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(" ".join(["1"] * request.count))
        lay.addWidget(self.edit)
        self.error = QLabel("")
        self.error.setStyleSheet("color:#c01010")
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def accept(self) -> None:
        text = self.edit.text().strip()
        # "356" is three dice when the faces are single digits
        parts = re.split(r"[\s,;]+", text) if re.search(r"[\s,;]", text) else list(text)
        try:
            self.faces = check_faces(self.request, [p for p in parts if p])
        except DiceError as exc:
            self.error.setText(str(exc))
            return
        super().accept()


def ask_faces(parent):
    """The callback a Document uses when the umpire chose table dice."""
    def ask(request):
        dlg = DiceDialog(request, parent)
        if dlg.exec() != QDialog.Accepted:
            raise DiceError(f"{request.purpose}: the umpire cancelled the roll; nothing changed")
        return dlg.faces
    return ask
