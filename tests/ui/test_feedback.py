"""Issue 21, items 8 and 9: after Resolve the turn runner says what happened and the map
rings the pieces; the line from shooter to the picked target; fresh strengths in the
target list; rally odds; and plain words in the Undo history and the log's tooltips."""
from __future__ import annotations

from PySide6.QtCore import Qt

from conftest import at, choose, drag
from manager.editor_actions import EditUnit
from manager.game_actions import Rally
from test_game import click


def test_resolve_says_what_happened_and_rings_the_pieces(open_window, qtbot):
    w = open_window()
    dock = w.docks["TurnDock"]
    b = w.doc.battle
    click(qtbot, dock.start_btn)
    click(qtbot, dock.next_btn)                                   # blue move and fire
    # a move by drag, in plain words in the Undo history and the log
    drag(qtbot, w.view.viewport(), at(w, 16.5, 19.5), at(w, 22.5, 19.5))
    assert w.doc.undo_stack.undoText() == "1st Line moves to H-7"
    log = w.docks["LogDock"].tree
    group = log.topLevelItem(log.topLevelItemCount() - 1)
    assert group.child(group.childCount() - 1).toolTip(1) == "1st Line moves to H-7"
    # the artillery picks its target: a line is drawn from it to the target
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 13.5, 28.5))
    item = choose(qtbot, dock.choices, "r1-inf2")
    assert "(5/5)" in item.text()
    # the target's strength changes (an umpire's correction): the list shows it at once
    w.correction_action.trigger()
    assert w.doc.execute(EditUnit("r1-inf2", (("hits", 4),)))
    w.correction_action.trigger()
    w.doc.select(["b1-art"])
    item = choose(qtbot, dock.choices, "r1-inf2")
    assert "(4/5)" in item.text()
    aim = w.scene.overlays.aim
    target = b.units["r1-inf2"]
    assert aim.isVisible()
    assert (aim.line().p1().x(), aim.line().p1().y()) == (13.5, 28.5)
    assert (aim.line().p2().x(), aim.line().p2().y()) == target.pos
    click(qtbot, dock.resolve_btn)
    assert dock.result.isVisible()
    text = dock.result.text()
    assert "Foot Battery fires at Red Line 2" in text and "Dice" in text
    assert set(w.scene.overlays.flashes) == {"b1-art", "r1-inf2"}
    # undo: the result no longer holds
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert not dock.result.isVisible()


def test_a_rally_shows_its_odds(open_window, qtbot):
    w = open_window()
    assert w.doc.execute(EditUnit("b1-inf1", (("hits", 2),)))     # set-up: a worn unit
    dock = w.docks["TurnDock"]
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    assert b.state.phase == "rally" and b.state.active == "blue"
    leader = next(l for l in b.leaders.values() if not w.doc.check(Rally(l.id, "b1-inf1")))
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, leader.x, leader.y))
    assert w.doc.selection == [leader.id]
    choose(qtbot, dock.choices, "b1-inf1")
    assert "rallies 1st Line" in dock.odds.text() and "%" in dock.odds.text()
    assert "nothing regained" in dock.odds.text()
