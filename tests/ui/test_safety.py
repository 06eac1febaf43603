"""Issue 21, item 7: mid-battle safety. Once the battle has begun the editing tools and
their one-letter shortcuts are off and Delete refuses; Edit > Umpire correction turns
editing on, Delete then asks, and each edit stands in the log as a correction."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from conftest import at


def test_a_stray_key_and_click_mid_battle_edits_nothing(open_window, qtbot):
    w = open_window()
    qtbot.mouseClick(w.docks["TurnDock"].start_btn, Qt.LeftButton)
    features = w.doc.battle.battlefield.features
    for key in (Qt.Key_P, Qt.Key_B, Qt.Key_U, Qt.Key_L):
        qtbot.keyClick(w.view, key)
        assert w.view.tool.name == "select"
    assert not any(w.tool_actions[n].isEnabled() for n in ("place", "brush", "polyline", "point"))
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 30.5, 12.5))
    assert w.doc.battle.battlefield.features == features
    # Delete on a unit: refused, the unit stays, the status bar says how to correct
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 16.5, 19.5))
    assert w.doc.selection == ["b1-inf1"]
    qtbot.keyClick(w, Qt.Key_Delete)
    assert "b1-inf1" in w.doc.battle.units
    assert "Umpire correction" in w.statusBar().currentMessage()


def test_umpire_correction_asks_and_is_logged(open_window, qtbot, questions):
    w = open_window()
    qtbot.mouseClick(w.docks["TurnDock"].start_btn, Qt.LeftButton)
    w.correction_action.trigger()
    assert w.mode_label.text() == "UMPIRE CORRECTION"
    assert w.tool_actions["brush"].isEnabled()
    questions.answers = [QMessageBox.No, QMessageBox.Yes]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 16.5, 19.5))
    qtbot.keyClick(w, Qt.Key_Delete)                    # "No": nothing goes
    assert "b1-inf1" in w.doc.battle.units and "Remove 1st Line" in questions[0][1]
    qtbot.keyClick(w, Qt.Key_Delete)                    # "Yes"
    assert "b1-inf1" not in w.doc.battle.units
    assert w.doc.undo_stack.undoText() == "Correction: Remove 1st Line"
    log = w.docks["LogDock"].tree
    last = log.topLevelItem(log.topLevelItemCount() - 1)
    last = last.child(last.childCount() - 1)
    assert last.text(1).startswith("Umpire correction:")
    # back to the game: the tools go off again, and undo takes the correction back
    w.correction_action.trigger()
    assert not w.tool_actions["brush"].isEnabled() and w.mode_label.text().startswith("Turn 1")
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert "b1-inf1" in w.doc.battle.units


def test_set_up_edits_need_no_correction_mode(open_window, qtbot):
    w = open_window()
    assert all(a.isEnabled() for a in w.tool_actions.values())
    qtbot.keyClick(w.view, Qt.Key_P)
    assert w.view.tool.name == "point"
