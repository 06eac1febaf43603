"""The two dialogs of a shared battle: what the host tells the table (address, code,
players' URL, each with a Copy button), and joining one (hosts found on the network or
an address, the code, then the commands to claim from the battle received)."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from .widgets import scrolled


class HostDialog(QDialog):
    """Shown when hosting begins (and from File > Host this battle while it runs)."""

    def __init__(self, parent, address: str, code: str, url: str, announced: str):
        super().__init__(parent)
        self.setWindowTitle("Hosting this battle")
        lay = QVBoxLayout(self)
        intro = QLabel("Other laptops join with File > Join battle (or <tt>berthier join</tt>) "
                       "using this address and code. Players' phones open the players' page.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.fields: dict[str, QLineEdit] = {}
        for key, label, value in (("address", "Address", address), ("code", "Join code", code),
                                  ("url", "Players' page", url)):
            row = QHBoxLayout()
            field = QLineEdit(value)
            field.setReadOnly(True)
            field.setMinimumWidth(320)
            if key == "code":
                font = field.font()
                font.setPointSizeF(font.pointSizeF() * 1.6)
                font.setBold(True)
                field.setFont(font)
            copy = QPushButton("Copy")
            copy.setObjectName(f"copy_{key}")
            copy.clicked.connect(lambda _=False, f=field, b=copy: self._copy(f, b))
            row.addWidget(field, 1)
            row.addWidget(copy)
            form.addRow(label, row)
            self.fields[key] = field
        lay.addLayout(form)
        self.announced = QLabel(announced)
        self.announced.setWordWrap(True)
        self.announced.setStyleSheet("color:#505050")
        lay.addWidget(self.announced)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _copy(self, field: QLineEdit, button: QPushButton) -> None:
        QGuiApplication.clipboard().setText(field.text())
        for other in self.findChildren(QPushButton):
            if other.objectName().startswith("copy_"):
                other.setText("Copy")
        button.setText("Copied")


def command_checks(layout, battle, taken: dict[str, str], toggled,
                   held=()) -> dict[str, QCheckBox]:
    """A checkbox per command, under its side's name: `taken` (command id -> the laptop
    holding it) is said beside the name, `held` (this laptop's) starts ticked."""
    checks = {}
    for sid, side in battle.sides.items():
        layout.addWidget(QLabel(f"<b>{side.name}</b>"))
        for cid in battle.hierarchy.commands_of(sid):
            holder = taken.get(cid)
            box = QCheckBox(battle.commands[cid].name + (f" (with {holder})" if holder else ""))
            box.setObjectName(f"claim_{cid}")
            box.setChecked(cid in held)
            box.toggled.connect(toggled)
            layout.addWidget(box)
            checks[cid] = box
    layout.addStretch(1)
    return checks


class JoinDialog(QDialog):
    """Step one: a host (found, or typed) and its code. Step two, once the host has sent
    the battle: the commands this laptop will act for."""
    connect_requested = Signal(str, str, str)        # address, code, laptop name
    join_requested = Signal(list)                    # command ids to claim

    def __init__(self, parent, name: str = ""):
        super().__init__(parent)
        self.setWindowTitle("Join a hosted battle")
        self.resize(520, 560)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Battles hosted on this network:"))
        self.hosts = QListWidget()
        self.hosts.setMaximumHeight(130)
        self.hosts.currentItemChanged.connect(self._host_picked)
        lay.addWidget(self.hosts)
        self.looking = QLabel("Looking for hosts…")
        self.looking.setStyleSheet("color:#505050")
        lay.addWidget(self.looking)
        form = QFormLayout()
        self.address = QLineEdit()
        self.address.setPlaceholderText("192.168.1.20:8765")
        self.code = QLineEdit()
        self.code.setPlaceholderText("the code on the host's screen")
        self.name = QLineEdit(name)
        self.name.setPlaceholderText("how the host will call this laptop")
        form.addRow("Address", self.address)
        form.addRow("Join code", self.code)
        form.addRow("This laptop", self.name)
        lay.addLayout(form)
        self.connect_btn = QPushButton("Connect")
        self.connect_btn.clicked.connect(self._connect)
        lay.addWidget(self.connect_btn)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.commands_box = QGroupBox("Commands this laptop acts for")
        self.commands_lay = QVBoxLayout()
        inner = QWidget()
        inner.setLayout(self.commands_lay)
        box_lay = QVBoxLayout(self.commands_box)
        box_lay.addWidget(scrolled(inner))
        self.commands_box.setVisible(False)
        lay.addWidget(self.commands_box, 1)
        self.checks: dict[str, QCheckBox] = {}
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Join")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(False)
        self.buttons.accepted.connect(self._join)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    # ---- step one --------------------------------------------------------------------
    def show_hosts(self, hosts) -> None:
        current = self.address.text()
        self.hosts.clear()
        from manager.net.protocol import VERSION
        for h in hosts:
            item = QListWidgetItem(h.label + ("" if h.protocol == VERSION else
                                              f" — protocol {h.protocol}, this Berthier speaks {VERSION}"))
            item.setData(Qt.UserRole, h.join_address)
            self.hosts.addItem(item)
        self.looking.setText(f"{len(hosts)} found; or type an address." if hosts else
                             "None found yet (still looking); or type an address.")
        self.address.setText(current)

    def discovery_failed(self, reason: str) -> None:
        self.looking.setText(f"Cannot look for hosts: {reason}. Type the host's address.")

    def _host_picked(self, item) -> None:
        if item is not None:
            self.address.setText(item.data(Qt.UserRole))

    def _connect(self) -> None:
        address, code = self.address.text().strip(), self.code.text().strip()
        if not address or not code:
            self.show_status("Give the host's address and its join code.", error=True)
            return
        self.connect_btn.setEnabled(False)
        self.show_status(f"Connecting to {address}…")
        self.connect_requested.emit(address, code, self.name.text().strip())

    def show_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#b01818; font-weight:bold" if error else "")
        if error:
            self.connect_btn.setEnabled(True)

    # ---- step two --------------------------------------------------------------------
    def offer_commands(self, battle, taken: dict[str, str]) -> None:
        """The received order of battle as checkboxes; `taken`: command id -> the laptop
        that holds it now (shown, and left unticked)."""
        for box in self.checks.values():
            box.deleteLater()
        self.checks = command_checks(self.commands_lay, battle, taken, self._claims_changed)
        self.commands_box.setVisible(True)
        self.show_status(f"Connected: {battle.info.name}. Tick the commands this laptop acts for.")

    def _claims_changed(self) -> None:
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(bool(self.chosen()))

    def chosen(self) -> list[str]:
        return [cid for cid, box in self.checks.items() if box.isChecked()]

    def _join(self) -> None:
        if self.chosen():
            self.buttons.button(QDialogButtonBox.Ok).setEnabled(False)
            self.join_requested.emit(self.chosen())


class ClaimDialog(QDialog):
    """File > Claim commands… in a joined window: the same checkboxes, this laptop's
    commands ticked; Apply claims the newly ticked and releases the unticked."""
    apply_requested = Signal(list, list)             # command ids to claim, to release

    def __init__(self, parent, battle, held, taken: dict[str, str]):
        super().__init__(parent)
        self.setWindowTitle("Claim commands")
        self.resize(440, 420)
        self.held = set(held)
        lay = QVBoxLayout(self)
        intro = QLabel("Tick the commands this laptop acts for. Unticking one gives it up: "
                       "the phase no longer waits on this laptop for it.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        inner = QWidget()
        inner_lay = QVBoxLayout(inner)
        self.checks = command_checks(inner_lay, battle, taken, self._changed, self.held)
        lay.addWidget(scrolled(inner), 1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Apply")
        self.buttons.accepted.connect(self._apply)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._changed()

    def changes(self) -> tuple[list[str], list[str]]:
        ticked = {cid for cid, box in self.checks.items() if box.isChecked()}
        return sorted(ticked - self.held), sorted(self.held - ticked)

    def _changed(self) -> None:
        claim, release = self.changes()
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(bool(claim or release))

    def _apply(self) -> None:
        claim, release = self.changes()
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(False)
        self.show_status("Asking the host…")
        self.apply_requested.emit(claim, release)

    def show_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#b01818; font-weight:bold" if error else "")
        if error:
            self._changed()
