"""The order-of-battle and properties docks, driven with the mouse and keyboard."""
from __future__ import annotations

from PySide6.QtCore import Qt

from conftest import at


def tree_point(tree, item):
    tree.scrollToItem(item)
    return tree.visualItemRect(item).center()


def test_drag_a_unit_onto_another_command_in_the_tree(open_window, qtbot):
    w = open_window()
    tree = w.docks["OobDock"].tree
    tree.item_of["b1"].setExpanded(True)
    vp = tree.viewport()
    start, end = tree_point(tree, tree.item_of["b1-lt"]), tree_point(tree, tree.item_of["b2"])
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    qtbot.mouseMove(vp, (start + end) / 2)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    h = w.doc.battle.hierarchy
    assert h.find_command("b1-lt") == "b2"
    assert tree.item_of["b1-lt"].parent() is tree.item_of["b2"]
    assert "3/3 units" in tree.item_of["b2"].text(1)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.hierarchy.find_command("b1-lt") == "b1"


def test_drag_a_command_onto_another_moves_all_its_units_as_one_undo(open_window, qtbot):
    w = open_window()
    tree = w.docks["OobDock"].tree
    vp = tree.viewport()
    start, end = tree_point(tree, tree.item_of["b2"]), tree_point(tree, tree.item_of["b1"])
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    h = w.doc.battle.hierarchy
    assert set(h.units_of("b1")) >= {"b2-hc", "b2-lc"} and h.units_of("b2") == ()
    assert w.doc.undo_stack.count() == 1


def test_selection_is_shared_between_tree_and_map(open_window, qtbot):
    w = open_window()
    tree = w.docks["OobDock"].tree
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 37.5, 19.5))
    assert w.doc.selection == ["r1-inf1"]
    uid = "r1-inf1"
    assert tree.item_of[uid].isSelected()
    tree.item_of["r2"].setExpanded(True)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, tree_point(tree, tree.item_of["r2-lc"]))
    assert w.doc.selection == ["r2-lc"] and w.scene.units["r2-lc"].isSelected()
    assert not w.scene.units[uid].isSelected()


def test_properties_edit_is_validated_and_undoable(open_window, qtbot):
    w = open_window()
    props = w.docks["PropertiesDock"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 16.5, 19.5))
    assert "1st Line" in props.heading.text()
    name = props.fields["name"]
    name.selectAll()
    qtbot.keyClicks(name, "Old Guard")
    qtbot.keyClick(name, Qt.Key_Return)
    assert w.doc.battle.units["b1-inf1"].name == "Old Guard"
    name.selectAll()
    qtbot.keyClick(name, Qt.Key_Delete)
    qtbot.keyClick(name, Qt.Key_Return)
    assert w.doc.battle.units["b1-inf1"].name == "Old Guard"      # refused
    assert "needs a name" in props.error.text()
    assert name.text() == "Old Guard"                             # the field is put back
    hits = props.fields["hits"]
    hits.selectAll()
    qtbot.keyClicks(hits, "2")
    qtbot.keyClick(hits, Qt.Key_Return)
    assert w.doc.battle.units["b1-inf1"].hits == 2
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.units["b1-inf1"].name == "1st Line"


def test_leader_properties_and_command_radius_on_selection(open_window, qtbot):
    w = open_window()
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 13.5, 22.5))
    assert w.doc.selection == ["b1-ldr"]
    leader = w.scene.leaders["b1-ldr"]
    assert leader.area.isVisible() and not leader.area.path().isEmpty()
    assert leader.area.path().boundingRect().width() > 30        # six boxes each way, clipped
    q = w.docks["PropertiesDock"].fields["quality"]
    q.selectAll()
    qtbot.keyClicks(q, "6")
    qtbot.keyClick(q, Qt.Key_Return)
    assert w.doc.battle.leaders["b1-ldr"].quality == 6
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 30, 40))
    assert not leader.area.isVisible()
