"""Issue 21, the blocking four: a finished battle opens (also as the last file at launch),
a reopened battle keeps undo, redo and "Undo to here" across restarts, File > Open
campaign opens one, and painted terrain shows at once (the cached background is dropped).
"""
from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QFileDialog

from conftest import DATA, at, drag
from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.campaign import Campaign
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.store import create_battle


def finished_battle(path, turns=1):
    """A skirmish fought by the automatic commander to its end, saved as a battle file."""
    battle = load_scenario(DATA / "skirmish.toml")
    battle.info = dataclasses.replace(battle.info, turns=turns)
    s = Session(battle)
    Autopilot(s, sides=set(battle.sides)).play()
    assert s.battle.state.over
    create_battle(path, s).close()
    return s


def test_a_finished_battle_opens_with_its_result(open_window, tmp_path):
    s = finished_battle(tmp_path / "done.berthier")
    w = open_window(tmp_path / "done.berthier")
    assert w.doc.battle.state.over and len(w.doc.session.entries) == len(s.entries)
    turn = w.docks["TurnDock"]
    assert turn.banner.isVisible() and s.battle.state.reason in turn.banner.text()
    assert "over" in turn.heading.text()
    assert w.mode_label.text() == "Battle over"
    assert w.docks["LogDock"].tree.topLevelItemCount() > 1
    out = tmp_path / "done.pdf"
    assert w.files.export_report(out) and out.read_bytes().startswith(b"%PDF")


def test_plain_berthier_opens_a_window_when_the_last_file_was_finished(qtbot, tmp_path):
    from ui.app import make_window
    from ui.settings import AppSettings
    finished_battle(tmp_path / "done.berthier")
    AppSettings().add_recent(tmp_path / "done.berthier")
    w = make_window()
    qtbot.addWidget(w)
    assert w.doc is not None and w.doc.path.name == "done.berthier"


def test_undo_redo_and_undo_to_here_after_reopening(open_window, qtbot, tmp_path):
    path = tmp_path / "night.berthier"
    w = open_window()
    for action in (ga.StartBattle(), ga.EndPhase(), ga.EndPhase(), ga.EndPhase()):
        assert w.doc.execute(action)
    assert w.files.save_battle_as(path)
    states = [w.doc.session.state_at(n).fingerprint() for n in range(5)]
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)           # one undone before closing
    w.close()
    # relaunch: 3 live entries, one waiting to be redone
    again = open_window(path)
    stack = again.doc.undo_stack
    assert len(again.doc.session.entries) == 3 and stack.canUndo() and stack.canRedo()
    assert stack.undoText() == "End the phase" and stack.count() == 4
    qtbot.keyClick(again, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)   # redo, same dice
    assert again.doc.battle.fingerprint() == states[4]
    qtbot.keyClick(again, Qt.Key_Z, Qt.ControlModifier)
    assert again.doc.battle.fingerprint() == states[3]
    # "Undo to here" on the log's first entry, with the mouse
    log = again.docks["LogDock"]
    log.show()
    log.raise_()
    first = log.tree.topLevelItem(0).child(0)
    log.tree.scrollToItem(first)
    qtbot.mouseClick(log.tree.viewport(), Qt.LeftButton, pos=log.tree.visualItemRect(first).center())
    qtbot.mouseClick(log.undo_btn, Qt.LeftButton)
    assert len(again.doc.session.entries) == 1
    assert again.doc.battle.fingerprint() == states[1]
    again.close()
    # and across a second restart the redo stack is still there
    third = open_window(path)
    assert len(third.doc.session.entries) == 1 and third.doc.undo_stack.canRedo()
    third.doc.undo_stack.redo()
    assert third.doc.battle.fingerprint() == states[2]


def test_file_open_campaign_from_the_menu(open_window, qtbot, tmp_path, monkeypatch):
    Campaign.create(tmp_path / "c.campaign", load_scenario(DATA / "skirmish.toml"), "Test").close()
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(tmp_path / "c.campaign"), ""))
    w = open_window()
    menu = next(a for a in w.menuBar().actions() if a.text() == "&File").menu()
    next(a for a in menu.actions() if a.text().startswith("Open &campaign")).trigger()
    assert "CampaignDock" in w.docks and w.docks["CampaignDock"].tree.topLevelItemCount() == 2


def pixel(w, x, y) -> QColor:
    QApplication.processEvents()
    return w.view.viewport().grab().toImage().pixelColor(at(w, x, y))


def test_painted_woods_show_at_once_and_go_on_undo(open_window, qtbot):
    w = open_window()
    w.view.zoom_by(2)
    w.view.centerOn(25.5, 31)
    table = pixel(w, 25.5, 31)
    w.use_tool("brush")
    w.tools["brush"].size.setValue(4.0)
    drag(qtbot, w.view.viewport(), at(w, 20, 31), at(w, 28, 31))
    painted = pixel(w, 25.5, 31)
    assert painted != table and painted.green() < table.green()      # woods are darker green
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert pixel(w, 25.5, 31) == table
    # a road drawn with the line tool shows at once too
    w.use_tool("polyline")
    w.tools["polyline"].kind.setCurrentIndex(w.tools["polyline"].kind.findData("road"))
    for x in (18, 30):
        qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, x, 31))
    qtbot.mouseDClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 30, 31))
    assert any(f.kind == "road" for f in w.doc.battle.battlefield.features)
    assert pixel(w, 25.5, 31) != table
