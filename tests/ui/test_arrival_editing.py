"""Reinforcements from set-up to the table, through the real main window: right-click a
command in the order of battle, Arrives later…, fill the dialog (the entry picked on the
map by a drag along the edge), save, reopen, play to the turn with the umpire placing
them by hand in the Table-side panel (a failed roll first), see them arrive, undo."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from conftest import DiceTyper, at, drag

sys.path.insert(0, str(Path(__file__).parent.parent / "manager"))
from test_arrivals import BASE  # noqa: E402


def shot(widget, tmp_path, name) -> Path:
    """Render a widget to PNG (BERTHIER_PNG_DIR keeps a copy to look at)."""
    path = tmp_path / f"{name}.png"
    assert widget.grab().save(str(path))
    if os.environ.get("BERTHIER_PNG_DIR"):
        shutil.copy(path, Path(os.environ["BERTHIER_PNG_DIR"]) / path.name)
    return path


def right_click(qtbot, tree, item):
    pos = tree.visualItemRect(item).center()
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=pos)
    QApplication.sendEvent(tree.viewport(), QContextMenuEvent(
        QContextMenuEvent.Mouse, pos, tree.viewport().mapToGlobal(pos)))
    return tree.parent().parent().menu if hasattr(tree.parent().parent(), "menu") else None


def choose(qtbot, menu, text):
    action = next(a for a in menu.actions() if a.text().startswith(text))
    qtbot.waitUntil(menu.isVisible)
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())


def scenario(tmp_path, second_arrives: bool = True) -> Path:
    text = BASE.replace('first_side = "a"', 'first_side = "a"\nseed = 3')
    if not second_arrives:          # Second on the table: A is not all off it at the start
        text = text.replace('arrives = { turn = 2, at = [0, 10], name = "the Raigern road", '
                            'delay_if_blocked = true }\n', "")
        text = text.replace('kind = "line_infantry", facing = 90 }', 'kind = "line_infantry", '
                            'at = [8, 14], facing = 90 }')
        text = text.replace('kind = "light_cavalry", facing = 90 }', 'kind = "light_cavalry", '
                            'at = [8, 16], facing = 90 }')
    path = tmp_path / "arrivals.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_set_an_arrival_save_reopen_place_by_hand_and_undo(open_window, qtbot, tmp_path):
    path = scenario(tmp_path, second_arrives=False)
    w = open_window(path)
    oob = w.docks["OobDock"]
    menu = right_click(qtbot, oob.tree, oob.tree.item_of["c1"])
    assert [a.text() for a in menu.actions()] == ["Arrives later…"]
    choose(qtbot, menu, "Arrives later")
    dlg = w.arrival_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert "First" in dlg.heading.text() and "2 units and L1" in dlg.heading.text()
    dlg.turn.selectAll()
    qtbot.keyClicks(dlg.turn, "3")
    for _ in range(3):                                   # no roll, 2+, 3+, 4+
        qtbot.keyClick(dlg.roll, Qt.Key_Down)
    qtbot.mouseClick(dlg.pick_btn, Qt.LeftButton)        # the dialog steps aside
    assert not dlg.isVisible() and w.view.tool.name == "pick_entry"
    drag(qtbot, w.view.viewport(), at(w, 1.5, 25.5), at(w, 1.5, 34.5))
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.entry() == ((1.5, 25.5), (1.5, 34.5)) and w.view.tool.name == "select"
    dlg.name.clear()
    qtbot.keyClicks(dlg.name, "the Raigern road")
    qtbot.mouseClick(dlg.delay, Qt.LeftButton)
    assert dlg.summary.text() == "Arriving from turn 3 on a 4+ at the Raigern road (A-9 to A-12)"
    shot(dlg, tmp_path, "arrival_dialog")
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert not dlg.isVisible()
    b = w.doc.battle
    a = b.arrival_of("c1")
    assert (a.turn, a.roll, a.name, a.entry, a.delay_if_blocked) == (
        3, 4, "the Raigern road", ((1.5, 25.5), (1.5, 34.5)), True)
    assert "u1" not in b.units and "l1" not in b.leaders
    assert oob.tree.item_of["c1"].text(1) == "arriving from turn 3 on a 4+ at the Raigern road"
    assert w.doc.undo_stack.undoText() == "First arrives turn 3 on a 4+ at the Raigern road"

    # a bad choice is refused in the dialog, in red, and changes nothing
    menu = right_click(qtbot, oob.tree, oob.tree.item_of["d1"])
    choose(qtbot, menu, "Arrives later")
    dlg = w.arrival_dialog
    qtbot.waitUntil(dlg.isVisible)
    before = w.doc.battle.fingerprint()
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert dlg.isVisible() and dlg.error.text() == \
        "V2 of Third already has its own arrival: clear it first"
    shot(dlg, tmp_path, "arrival_dialog_refused")
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.Cancel), Qt.LeftButton)
    assert w.doc.battle.fingerprint() == before

    # the leader's properties say he comes with his command; save and reopen
    assert w.files.write_scenario(path)
    w2 = open_window(path)
    b = w2.doc.battle
    assert b.arrival_of("c1").describe() == "arriving from turn 3 on a 4+ at the Raigern road"
    oob2 = w2.docks["OobDock"]
    assert oob2.tree.item_of["c1"].text(0) == \
        "First — arriving from turn 3 on a 4+ at the Raigern road  (L1)"
    oob2.tree.expandAll()
    shot(oob2, tmp_path, "oob_dock")

    # play to turn 3: the umpire places them by hand, typing the table's dice
    table = w2.docks["TableSideDock"]
    panel = table.arrivals
    table.show()
    table.raise_()
    panel.mode.setCurrentIndex(1)
    assert w2.doc.arrivals_by_hand
    turn = w2.docks["TurnDock"]
    turn.dice.setCurrentIndex(1)                          # table dice
    typer = DiceTyper(qtbot, [2, 5])                      # a failed roll, then a 5
    try:
        qtbot.mouseClick(turn.start_btn, Qt.LeftButton)

        def to(turn_no):
            b = w2.doc.battle
            while not (b.state.turn == turn_no and b.state.active == "a" and b.state.phase == "move"):
                assert not b.state.over, b.state.reason
                qtbot.mouseClick(turn.next_btn, Qt.LeftButton)
                b = w2.doc.battle
        to(3)
        assert w2.doc.battle.arrival_of("c1") is not None      # by hand: not brought on
        assert "due now" in panel.status.text() and panel.due.count() == 1
        assert "Reinforcements due: First" in turn.help.text()
        assert panel.roll_btn.isEnabled() and not panel.hand_btn.isEnabled()
        shot(panel, tmp_path, "arrivals_panel_due")
        qtbot.mouseClick(panel.roll_btn, Qt.LeftButton)
        assert "rolled 2, needed 4; expected turn 4" in panel.status.text()
        shot(panel, tmp_path, "arrivals_panel_failed")
        assert panel.due.count() == 0
        to(4)
        qtbot.mouseClick(panel.roll_btn, Qt.LeftButton)
        assert "rolled 5, needed 4: they may come on" in panel.status.text()
    finally:
        typer.stop()
    qtbot.mouseClick(panel.hand_btn, Qt.LeftButton)
    assert panel.units.count() == 2 and not panel.done_btn.isEnabled()
    ul = panel.units

    def drop_on_map(row, x, y):
        item_pos = ul.visualItemRect(ul.item(row)).center()
        target = w2.view.viewport().mapToGlobal(at(w2, x, y))
        qtbot.mousePress(ul.viewport(), Qt.LeftButton, pos=item_pos)
        qtbot.mouseRelease(ul.viewport(), Qt.LeftButton, pos=ul.viewport().mapFromGlobal(target))
    drop_on_map(0, 40.5, 40.5)                             # too far from the road: refused
    assert "more than 12 inches from the Raigern road" in panel.error.text()
    drop_on_map(0, 4.5, 28.5)
    drop_on_map(1, 4.5, 31.5)
    assert panel.spots == {"u1": (4.5, 28.5), "u4": (4.5, 31.5)} and panel.done_btn.isEnabled()
    assert len(w2.scene.overlays.arrival_items) == 5      # the road, and a mark and name each
    shot(panel, tmp_path, "arrivals_panel_placing")
    shot(w2.view.viewport(), tmp_path, "map_placing")
    qtbot.mouseClick(panel.done_btn, Qt.LeftButton)
    b = w2.doc.battle
    assert b.units["u1"].pos == (4.5, 28.5) and b.units["u4"].pos == (4.5, 31.5)
    assert b.hierarchy.leader_of_command("c1") == "l1" and not w2.scene.overlays.arrival_items
    assert "First arrive at the Raigern road" in panel.status.text()
    assert oob2.tree.item_of["u1"].text(1) == "5/5"
    shot(panel, tmp_path, "arrivals_panel_arrived")
    w2.activateWindow()                                     # after the dice dialogs
    qtbot.waitUntil(w2.isActiveWindow)
    assert w2.doc.undo_stack.undoText() == "First come on where the umpire set them"
    qtbot.keyClick(w2, Qt.Key_Z, Qt.ControlModifier)       # undo: off the table, due again
    b = w2.doc.battle
    assert "u1" not in b.units and b.arrival_of("c1").rolled
    assert "due now" in panel.status.text() and panel.hand_btn.isEnabled()


def test_automatic_placement_and_the_properties_dock_button(open_window, qtbot, tmp_path):
    w = open_window(scenario(tmp_path))
    w.doc.select(["u4"])
    props = w.docks["PropertiesDock"]
    assert props.arrival_label.text() == "on the table from the start"
    qtbot.mouseClick(props.arrival_btn, Qt.LeftButton)
    dlg = w.arrival_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert "U4" in dlg.heading.text() and "on its own" in dlg.heading.text()
    dlg.preset.setCurrentIndex(dlg.preset.findText("the Raigern road"))   # used by Second
    dlg.preset.activated.emit(dlg.preset.currentIndex())
    assert dlg.name.text() == "the Raigern road" and dlg.entry() == ((1.5, 31.5),)
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert w.doc.battle.arrival_of("u4").describe() == "arriving turn 2 at the Raigern road"
    # change it, then clear it from the order of battle's menu: each one undo step
    oob = w.docks["OobDock"]
    menu = right_click(qtbot, oob.tree, oob.tree.item_of["u4"])
    assert [a.text() for a in menu.actions()] == [
        "Change arrival of U4…", "On the table from the start", "Delete this unit"]
    choose(qtbot, menu, "On the table from the start")
    assert "u4" in w.doc.battle.units and w.doc.battle.arrival_of("u4") is None
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.arrival_of("u4") is not None
    # automatically at the entry (the default): Next phase brings them on
    turn = w.docks["TurnDock"]
    qtbot.mouseClick(turn.start_btn, Qt.LeftButton)
    b = w.doc.battle
    while not (b.state.turn == 2 and b.state.active == "a" and b.state.phase == "move"):
        qtbot.mouseClick(turn.next_btn, Qt.LeftButton)
        b = w.doc.battle
    assert "u4" in b.units and {"u2", "u3"} <= set(b.units)
    panel = w.docks["TableSideDock"].arrivals
    assert "Second arrive at the Raigern road" in panel.status.text()
    assert "U4 arrive at the Raigern road" in panel.status.text()


def test_a_unit_still_to_come_dragged_to_another_command_keeps_its_timing(open_window, qtbot,
                                                                            tmp_path):
    w = open_window(scenario(tmp_path))
    tree = w.docks["OobDock"].tree
    tree.expandAll()
    before = w.doc.battle.fingerprint()
    start = tree.visualItemRect(tree.item_of["u2"]).center()
    end = tree.visualItemRect(tree.item_of["c1"]).center()
    drag(qtbot, tree.viewport(), start, end)
    b = w.doc.battle
    a = b.arrival_of("u2")
    assert a.scope == "unit" and a.units[0][0] == "c1"
    assert a.describe() == "arriving turn 2 at the Raigern road" and "u2" not in b.units
    tree.expandAll()
    assert tree.item_of["u2"].parent() is tree.item_of["c1"]
    assert tree.item_of["u2"].text(0) == "U2 — Infantry — arriving turn 2 at the Raigern road"
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.fingerprint() == before


def test_a_leader_arrives_with_his_command_and_the_general_cannot(open_window, qtbot, tmp_path):
    path = scenario(tmp_path, second_arrives=False)
    text = path.read_text(encoding="utf-8").replace(
        'home_edge = "west"\n', 'home_edge = "west"\n'
        'general = { id = "g", name = "The General", quality = 4, at = [1, 18] }\n', 1)
    path.write_text(text, encoding="utf-8")
    w = open_window(path)
    props = w.docks["PropertiesDock"]
    w.doc.select(["g"])
    assert props.arrival_label.text() == "the army's general: from the start"
    assert not props.arrival_btn.isEnabled()
    w.doc.select(["l2"])
    assert props.arrival_label.text() == "with his command"
    qtbot.mouseClick(props.arrival_btn, Qt.LeftButton)
    dlg = w.arrival_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.target == "c2" and "Second" in dlg.heading.text()
    assert dlg.name.text() == "the west edge (middle)"          # the side's home edge
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    b = w.doc.battle
    assert "l2" not in b.leaders and b.arrival_of("l2").id == "c2"
    assert b.arrival_of("c2").entry == ((1.5, 20.0), (1.5, 40.0))
    w.doc.select(["g"])                                           # Edit > Arrives later
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    qtbot.keyClick(w, Qt.Key_L, Qt.ControlModifier | Qt.ShiftModifier)
    assert "commands the army" in w.statusBar().currentMessage()


def test_auto_turn_leaves_reinforcements_to_the_umpire_placing_by_hand(open_window, qtbot,
                                                                       tmp_path):
    w = open_window(scenario(tmp_path))
    panel = w.docks["TableSideDock"].arrivals
    panel.mode.setCurrentIndex(1)                       # by hand
    turn = w.docks["TurnDock"]
    qtbot.mouseClick(turn.start_btn, Qt.LeftButton)
    qtbot.mouseClick(turn.auto_turn_btn, Qt.LeftButton)   # turn 1
    qtbot.mouseClick(turn.auto_turn_btn, Qt.LeftButton)   # turn 2: Second is due
    b = w.doc.battle
    assert b.state.turn == 3 and b.arrival_of("c2") is not None
    assert not any(e.action.verb == "BringOnArrival" for e in w.doc.session.entries)
    while not (b.state.active == "a" and b.state.phase == "move"):   # still by hand
        qtbot.mouseClick(turn.next_btn, Qt.LeftButton)
        b = w.doc.battle
    assert "Second: due now" in panel.status.text() and b.arrival_of("c2") is not None
    panel.mode.setCurrentIndex(0)                       # automatic: Auto phase brings them
    n = len(w.doc.session.entries)
    qtbot.mouseClick(turn.auto_btn, Qt.LeftButton)
    first = w.doc.session.entries[n]
    assert first.action.verb == "BringOnArrival" and {"u2", "u3"} <= set(w.doc.battle.units)
