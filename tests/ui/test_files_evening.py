"""Issue 21, item 11: a save prompt on quit, the last unnamed game offered back at launch,
File > Recent lists autosaved battles, and the shipped scenarios are read-only."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from conftest import ROOT
from manager.store.autosave import autosave_dir

MAIDA = ROOT / "scenarios" / "maida.toml"


def test_quit_asks_and_cancel_keeps_the_window(open_window, qtbot, questions):
    w = open_window()
    qtbot.mouseClick(w.docks["TurnDock"].start_btn, Qt.LeftButton)
    questions.answers = [QMessageBox.Cancel]
    assert not w.close()
    assert w.isVisible() and "Save before closing?" == questions[-1][0]
    assert "autosaved" in questions[-1][1]


def test_an_unnamed_game_is_offered_back_at_launch(open_window, qtbot, questions):
    from ui.app import make_window
    w = open_window()
    qtbot.mouseClick(w.docks["TurnDock"].start_btn, Qt.LeftButton)
    auto = next(autosave_dir().glob("skirmish-*.berthier"))
    assert w.settings.unnamed() == str(auto)
    # File > Recent lists it
    sub = next(a.menu() for a in w.recent_menu.actions() if a.menu())
    assert sub.actions()[0].statusTip() == str(auto)
    w.close()                                             # "Discard": the autosave stays
    questions.answers = [QMessageBox.Yes]
    again = make_window()
    qtbot.addWidget(again)
    assert questions[-1][0] == "Restore the last battle?"
    assert again.doc.path == auto and len(again.doc.session.entries) == 1
    assert again.doc.undo_stack.canUndo()
    again.close()
    third = make_window()                                 # asked once only
    qtbot.addWidget(third)
    assert [t for t, _ in questions].count("Restore the last battle?") == 1


def test_save_on_a_shipped_scenario_asks_a_new_name(open_window, qtbot, tmp_path, monkeypatch):
    before = MAIDA.read_bytes()
    w = open_window(MAIDA)
    asked = []
    target = tmp_path / "maida-mine.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, title, start, *a: asked.append(start) or (str(target), ""))
    qtbot.keyClick(w, Qt.Key_S, Qt.ControlModifier)
    assert asked and Path(asked[0]).parent != MAIDA.parent        # never the installed folder
    assert target.is_file() and MAIDA.read_bytes() == before
    assert w.doc.path == target
    assert not w.files.write_scenario(MAIDA) and MAIDA.read_bytes() == before
    assert "read-only" in w.last_error.text()
