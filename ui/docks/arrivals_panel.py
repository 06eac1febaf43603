"""Reinforcements at the table: who arrives this turn, who is due, who rolled and failed,
who is held up by a blocked entry, and the umpire's choice to set them down by hand
(drag each unit from the list onto the map near the entry) or at the entry automatically.

Every step is an action through the document: `RollForArrival` (so the umpire knows
before placing whether they come), `BringOnArrival` with or without the spots.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QGridLayout, QGroupBox, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from manager.arrivals import (BringOnArrival, RollForArrival, due_arrivals, reach, spot_problem,
                              taken_boxes)

from ..wording import arrival_name, place

SEEN = {"ReinforcementsArrived": "arrived", "ReinforcementsDelayed": "held up",
        "ArrivalRolled": "rolled"}
COLOURS = {"arrived": "#205020", "held up": "#a04000", "rolled": "#205020", "due": "#000000",
           "later": "#606060"}


def arrival_lines(doc) -> list[tuple[str, str]]:
    """(status, text) for the panel: this turn's arrivals, failed rolls and blocked entries
    from the log, then who is due now and who is still to come."""
    b, rs = doc.battle, doc.ruleset
    st = b.state
    lines = []
    if st.started:
        for e in reversed(doc.session.entries):       # this turn's, newest first
            if e.turn != st.turn:
                break
            for ev in e.events:
                kind = SEEN.get(type(ev).__name__)
                if kind:
                    lines.append((kind, ev.describe()))
        lines.reverse()
    due = {a.id for a in due_arrivals(b, rs)}
    for a in b.pending:
        who = arrival_name(b, a.id)
        if a.id in due:
            lines.append(("due", f"{who}: due now ({a.describe()})"))
        elif st.started and a.next_turn <= st.turn:
            lines.append(("due", f"{who}: due at the start of {b.sides[a.side].name}'s move"))
        else:
            lines.append(("later", f"{who}: {a.describe()}"))
    return lines


class DragOutList(QListWidget):
    """The units of the reinforcement being placed: press on one, release over the map."""
    dropped = Signal(str, object)           # unit id, the global point of the release

    def __init__(self):
        super().__init__()
        self._pressed = None

    def mousePressEvent(self, event):
        super().mousePressEvent(event)
        item = self.itemAt(event.position().toPoint())
        self._pressed = item.data(Qt.UserRole) if item else None
        if self._pressed:
            self.viewport().setCursor(Qt.DragMoveCursor)

    def mouseReleaseEvent(self, event):
        pressed, self._pressed = self._pressed, None
        self.viewport().unsetCursor()
        inside = self.viewport().rect().contains(event.position().toPoint())
        if pressed and not inside:
            self.dropped.emit(pressed, self.viewport().mapToGlobal(event.position().toPoint()))
            return
        super().mouseReleaseEvent(event)


class ArrivalsPanel(QGroupBox):
    marks = Signal(tuple, float, tuple)     # entry, reach, ((label, (x, y)), ...) to draw

    def __init__(self, doc):
        super().__init__("Reinforcements")
        self.doc = doc
        self.drop_point = None              # set by the window: global point -> inches or None
        self.spots: dict[str, tuple] = {}
        self._placing = None                # the arrival being placed by hand
        lay = QVBoxLayout(self)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.RichText)
        lay.addWidget(self.status)
        self.mode = QComboBox()
        self.mode.addItem("Set them down automatically at the entry", False)
        self.mode.addItem("The umpire places them by hand", True)
        self.mode.setToolTip("Automatically: Start battle and Next phase bring due "
                             "reinforcements on at once. By hand: pick them here")
        self.mode.currentIndexChanged.connect(self._mode_changed)
        lay.addWidget(self.mode)
        self.due = QListWidget()
        self.due.setMaximumHeight(52)
        self.due.setToolTip("Due now: pick one, then roll, bring it on, or place it by hand")
        self.due.currentItemChanged.connect(lambda *_: self._sync_buttons())
        lay.addWidget(self.due)
        self.controls = QWidget()
        grid = QGridLayout(self.controls)
        grid.setContentsMargins(0, 0, 0, 0)
        self.roll_btn = QPushButton("Roll for them")
        self.roll_btn.setToolTip("Roll (or type the table's die) before placing them")
        self.auto_btn = QPushButton("Bring on at the entry")
        self.auto_btn.setToolTip("Set them down in the free spots nearest their entry")
        self.hand_btn = QPushButton("Place by hand…")
        self.hand_btn.setToolTip("Drag each unit from the list below onto the map near the entry")
        self.done_btn = QPushButton("Bring on where placed")
        for n, (b, slot) in enumerate(((self.roll_btn, self.roll), (self.auto_btn, self.bring_on),
                                       (self.hand_btn, self.place_by_hand),
                                       (self.done_btn, self.bring_on_placed))):
            b.clicked.connect(slot)
            grid.addWidget(b, n // 2, n % 2)
        lay.addWidget(self.controls)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color:#205020")
        lay.addWidget(self.hint)
        self.units = DragOutList()
        self.units.setMaximumHeight(90)
        self.units.dropped.connect(self.drop)
        lay.addWidget(self.units)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#c01010")
        lay.addWidget(self.error)
        doc.changed.connect(self.sync)
        self.sync()

    # ---- mirror the battle --------------------------------------------------------------------
    def sync(self) -> None:
        b = self.doc.battle
        self.setVisible(bool(b.pending) or self._turn_had_arrivals())
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(1 if self.doc.arrivals_by_hand else 0)
        self.mode.blockSignals(False)
        rows = arrival_lines(self.doc)
        self.status.setText("<br>".join(
            f"<span style='color:{COLOURS[k]}'>{'<b>' if k == 'due' else ''}{escape(t)}"
            f"{'</b>' if k == 'due' else ''}</span>" for k, t in rows) or "None to come.")
        # a wrapped label in a scrolled dock does not grow by itself: give it its height
        self.status.setMinimumHeight(self.status.heightForWidth(max(self.status.width(), 240)))
        keep = self.due.currentItem().data(Qt.UserRole) if self.due.currentItem() else None
        self.due.blockSignals(True)
        self.due.clear()
        for a in due_arrivals(b, self.doc.ruleset):
            item = QListWidgetItem(f"{arrival_name(b, a.id)} — {len(a.units)} units at "
                                   f"{a.name or place(b, a.entry[0])}")
            item.setData(Qt.UserRole, a.id)
            self.due.addItem(item)
            if a.id == keep or self.due.count() == 1:
                self.due.setCurrentItem(item)
        self.due.blockSignals(False)
        if self._placing and self._placing not in {a.id for a in b.pending}:
            self._stop_placing()
        self._sync_buttons()

    def _turn_had_arrivals(self) -> bool:
        return any(k in ("arrived", "held up") for k, _ in arrival_lines(self.doc))

    def current(self):
        item = self.due.currentItem()
        aid = item.data(Qt.UserRole) if item else None
        return self.doc.battle.arrival_of(aid) if aid else None

    def _sync_buttons(self) -> None:
        a = self.current()
        live = self.doc.preview is None
        self.roll_btn.setEnabled(live and a is not None and bool(a.roll) and not a.rolled)
        self.auto_btn.setEnabled(live and a is not None)
        self.hand_btn.setEnabled(live and a is not None and not (a.roll and not a.rolled))
        self.hand_btn.setToolTip("Roll for them first" if a is not None and a.roll and not a.rolled
                                 else "Drag each unit from the list below onto the map near the entry")
        placing = self._placing is not None
        self.units.setVisible(placing)
        self.due.setVisible(self.due.count() > 0)          # nothing due: the status says so
        self.controls.setVisible(self.due.count() > 0 or placing)
        self.hint.setVisible(placing)
        self.error.setVisible(bool(self.error.text()))
        self.done_btn.setEnabled(placing and len(self.spots) == self.units.count())

    def _mode_changed(self) -> None:
        self.doc.arrivals_by_hand = bool(self.mode.currentData())

    # ---- the umpire's choices ------------------------------------------------------------------
    def roll(self) -> None:
        a = self.current()
        if a is not None:
            self.doc.execute(RollForArrival(a.id))

    def bring_on(self) -> None:
        a = self.current()
        if a is not None:
            self._stop_placing()
            self.doc.execute(BringOnArrival(a.id))

    def place_by_hand(self) -> None:
        a = self.current()
        if a is None:
            return
        self._placing, self.spots = a.id, {}
        self.units.clear()
        for _, u in a.units:
            item = QListWidgetItem(u.name)
            item.setData(Qt.UserRole, u.id)
            self.units.addItem(item)
        self.hint.setText(f"Drag each unit onto the map within {reach(self.doc.battle, self.doc.ruleset, a):g}"
                          f"\" of {a.name or 'the entry'} (the green line); drag again to move it.")
        self.error.setText("")
        self._show_marks()
        self._sync_buttons()

    def drop(self, uid: str, global_point) -> None:
        """A unit dragged from the list and let go over the map: its spot, if allowed."""
        a = self.doc.battle.arrival_of(self._placing or "")
        at = self.drop_point(global_point) if self.drop_point else None
        if a is None or at is None:
            self.error.setText("Let go over the map to set the unit down.")
            self.error.setVisible(True)
            return
        b, rs = self.doc.battle, self.doc.ruleset
        g = b.battlefield.grid
        if g and rs.measure == "grid":            # one box each: its centre
            at = ((int(at[0] // g) + 0.5) * g, (int(at[1] // g) + 0.5) * g)
        else:
            at = (round(at[0], 1), round(at[1], 1))
        taken = taken_boxes(b, rs)
        if taken is not None:
            for other, (x, y) in self.spots.items():
                if other != uid:
                    taken[(int(x // g), int(y // g))] = other
        why = spot_problem(b, rs, a, uid, at, taken)
        if not why and taken is None and any(                # an open table: bases apart
                abs(at[0] - x) < 1 and abs(at[1] - y) < 1
                for other, (x, y) in self.spots.items() if other != uid):
            why = "another unit of theirs is set down there"
        name = next(u.name for _, u in a.units if u.id == uid)
        if why:
            self.error.setText(f"{name}: {why}")
            self.error.setVisible(True)
            return
        self.error.setText("")
        self.spots[uid] = at
        for row in range(self.units.count()):
            item = self.units.item(row)
            if item.data(Qt.UserRole) == uid:
                item.setText(f"{name} → {place(b, at)}")
        self._show_marks()
        self._sync_buttons()

    def bring_on_placed(self) -> None:
        aid = self._placing
        spots = tuple((uid, x, y) for uid, (x, y) in self.spots.items())
        if aid and self.doc.execute(BringOnArrival(aid, spots)):
            self._stop_placing()

    def _stop_placing(self) -> None:
        self._placing, self.spots = None, {}
        self.units.clear()
        self.hint.setText("")
        self.marks.emit((), 0.0, ())
        self._sync_buttons()

    def _show_marks(self) -> None:
        a = self.doc.battle.arrival_of(self._placing or "")
        if a is None:
            return
        names = {u.id: u.name for _, u in a.units}
        self.marks.emit(tuple(a.entry), float(reach(self.doc.battle, self.doc.ruleset, a)),
                        tuple((names[u], p) for u, p in self.spots.items()))
