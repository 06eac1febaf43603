"""Fixtures for the desktop app: a main window on a real session, its settings in a
temporary folder, and helpers that drive it with real mouse and key events."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTHIER_CONFIG", str(tmp_path / "config" / "berthier.ini"))


@pytest.fixture(autouse=True)
def questions(monkeypatch):
    """Every QMessageBox.question is answered "Discard" (no to anything else) and
    recorded, so a closing window never blocks a test; a test may set `answers`."""
    from PySide6.QtWidgets import QMessageBox

    class Asked(list):
        answers: list = []

    asked = Asked()

    def answer(parent, title, text, *args, **kwargs):
        asked.append((title, text))
        return asked.answers.pop(0) if asked.answers else QMessageBox.Discard
    monkeypatch.setattr(QMessageBox, "question", answer)
    return asked


@pytest.fixture
def open_window(qtbot):
    """open_window(path) -> a shown MainWindow on that scenario."""
    from ui.main_window import MainWindow

    def make(path=DATA / "skirmish.toml", size=(1400, 900)):
        w = MainWindow()
        qtbot.addWidget(w)
        assert w.open_path(path), w.last_error and w.last_error.text()
        w.resize(*size)
        w.show()
        w.activateWindow()
        qtbot.waitUntil(w.isActiveWindow)       # shortcuts reach only the active window
        w.view.setFocus()
        w.view.fit_table()
        return w
    return make


def at(window, x, y) -> QPoint:
    """The viewport pixel over table point (x, y) inches."""
    return window.view.mapFromScene(QPointF(x, y))


def drag(qtbot, widget, start: QPoint, end: QPoint, steps=6, modifier=Qt.NoModifier,
         button=Qt.LeftButton) -> None:
    qtbot.mousePress(widget, button, modifier, start)
    for k in range(1, steps + 1):
        p = start + (end - start) * (k / steps)
        qtbot.mouseMove(widget, QPoint(int(p.x()), int(p.y())))
    qtbot.mouseRelease(widget, button, modifier, end)


def choose(qtbot, listwidget, uid):
    """Click the row of a list (the turn runner's orders, targets) whose data is `uid`, as
    the umpire would; its item."""
    for row in range(listwidget.count()):
        item = listwidget.item(row)
        if item.data(Qt.UserRole) == uid:
            rect = listwidget.visualItemRect(item)
            qtbot.mouseClick(listwidget.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            return item
    raise AssertionError(f"{uid} is not offered: {[listwidget.item(r).text() for r in range(listwidget.count())]}")


class DiceTyper:
    """Answers the table-dice dialog by typing faces into it, as an umpire would."""

    def __init__(self, qtbot, faces):
        self.qtbot, self.pending, self.asked = qtbot, list(faces), []
        self.timer = QTimer()
        self.timer.timeout.connect(self._answer)
        self.timer.start(10)

    def _answer(self):
        from ui.dice_dialog import DiceDialog
        dlg = QApplication.activeModalWidget()
        if isinstance(dlg, DiceDialog) and self.pending:
            n = dlg.request.count
            faces, self.pending = self.pending[:n], self.pending[n:]
            self.asked.append((dlg.request.purpose, tuple(faces)))
            self.qtbot.keyClicks(dlg.edit, " ".join(map(str, faces)))
            self.qtbot.keyClick(dlg.edit, Qt.Key_Return)

    def stop(self):
        self.timer.stop()


@pytest.fixture
def loop(qapp):
    """The app's own event loop (Qt's and asyncio's in one, qasync), closed afterwards
    with its tasks cancelled: the joined-window tests run host and window on it."""
    from ui.app import event_loop
    loop = event_loop(qapp)
    yield loop
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
    asyncio.set_event_loop(None)
