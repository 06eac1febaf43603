"""Issue 21: a scenario builder's hour through the real main window. File > New battle,
two commands (the second leader beside the first, not on him), woods painted, a river
and a road drawn, a bridge set on the river, units placed and one reassigned in the
tree, undo and redo, saved as a scenario and reopened: everything drawn without a zoom."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog

from conftest import at, drag
from test_docks import tree_point


def pixel(w, x, y):
    QApplication.processEvents()
    return w.view.viewport().grab().toImage().pixelColor(at(w, x, y))


def test_a_scenario_builders_hour(open_window, qtbot, tmp_path, monkeypatch):
    from ui.new_battle import NewBattleDialog
    w = open_window()
    # File > New battle: Morschauser on a 60 x 45 inch table, 3-inch boxes
    dialog = NewBattleDialog(w)
    dialog.name.selectAll()
    qtbot.keyClicks(dialog.name, "Builder's hour")
    for box, value in ((dialog.width_, "60"), (dialog.height_, "45")):
        box.selectAll()
        qtbot.keyClicks(box, value)
    dialog.sides[1][3].setCurrentText("west")                  # both west: refused, in red
    qtbot.mouseClick(dialog.ok, Qt.LeftButton)
    assert dialog.battle is None and "different home edges" in dialog.error.text()
    dialog.sides[1][3].setCurrentText("east")
    qtbot.mouseClick(dialog.ok, Qt.LeftButton)
    assert w.new_battle(dialog)
    b = w.doc.battle
    assert (b.info.name, b.battlefield.width, b.battlefield.height) == ("Builder's hour", 60, 45)
    table = pixel(w, 10.5, 10.5)
    # two commands for Blue from the order of battle
    oob = w.docks["OobDock"]
    names = iter([("Advance Guard", True), ("Reserve", True)])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: next(names))
    qtbot.mouseClick(oob.tree.viewport(), Qt.LeftButton, pos=tree_point(oob.tree, oob.tree.item_of["blue"]))
    add = next(btn for btn in oob.findChildren(type(w.docks["TurnDock"].next_btn))
               if btn.text() == "Add command")
    qtbot.mouseClick(add, Qt.LeftButton)
    qtbot.mouseClick(oob.tree.viewport(), Qt.LeftButton, pos=tree_point(oob.tree, oob.tree.item_of["blue"]))
    qtbot.mouseClick(add, Qt.LeftButton)
    b = w.doc.battle
    first, second = (next(l for l in b.leaders.values() if b.hierarchy.find_leader_node(l.id)[1] == c)
                     for c in b.hierarchy.commands_of("blue"))
    assert first.pos != second.pos                               # beside, not on him
    assert abs(first.x - second.x) <= 3 and abs(first.y - second.y) <= 3
    # woods with the brush, a river and a road with the line tool, a bridge on the river
    w.use_tool("brush")
    w.tools["brush"].size.setValue(3.0)
    drag(qtbot, w.view.viewport(), at(w, 6, 36), at(w, 14, 36))
    line = w.tools["polyline"]
    for kind, y in (("river", 25.5), ("road", 16.5)):
        w.use_tool("polyline")
        line.kind.setCurrentIndex(line.kind.findData(kind))
        for x in (2, 30):
            qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, x, y))
        qtbot.mouseDClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 58, y))
    w.use_tool("point")
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, 25.5, 25.5))
    kinds = sorted(f.kind for f in w.doc.battle.battlefield.features)
    assert kinds == ["bridge", "river", "road", "woods"]
    drawn = {name: pixel(w, *xy) for name, xy in
             (("woods", (10, 36)), ("river", (20, 25.5)), ("road", (20, 16.5)))}
    assert all(c != table for c in drawn.values()), drawn      # at once, no zoom needed
    # units placed for each command with the mouse, one reassigned in the tree
    for cid, spots in zip(b.hierarchy.commands_of("blue"), (((7.5, 4.5), (7.5, 7.5)), ((4.5, 28.5),))):
        oob.tree.setCurrentItem(oob.tree.item_of[cid])
        oob.tree.item_of[cid].setSelected(True)
        oob.place()
        for x, y in spots:
            qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, x, y))
    b = w.doc.battle
    assert len(b.units) == 3
    ag, reserve = b.hierarchy.commands_of("blue")
    moving = b.hierarchy.units_of(ag)[0]
    tree = oob.tree
    tree.item_of[ag].setExpanded(True)
    start, end = tree_point(tree, tree.item_of[moving]), tree_point(tree, tree.item_of[reserve])
    vp = tree.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    qtbot.mouseMove(vp, (start + end) / 2)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    assert w.doc.battle.hierarchy.find_command(moving) == reserve
    # undo and redo from the keyboard
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.hierarchy.find_command(moving) == ag
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert w.doc.battle.hierarchy.find_command(moving) == reserve
    # save as a scenario, reopen it: the same table, drawn at once
    out = tmp_path / "builders-hour.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    next(a for a in next(m.menu() for m in w.menuBar().actions() if m.text() == "&File").actions()
         if a.text().startswith("Save as &scenario")).trigger()
    assert out.is_file() and not w.isWindowModified()
    before = w.doc.battle
    saved = ({u.id: (u.name, u.pos) for u in before.units.values()},
             {c: before.hierarchy.units_of(c) for c in before.commands})
    assert w.open_path(out)
    after = w.doc.battle
    assert saved == ({u.id: (u.name, u.pos) for u in after.units.values()},
                     {c: after.hierarchy.units_of(c) for c in after.commands})
    assert sorted(f.kind for f in w.doc.battle.battlefield.features) == kinds
    assert all(pixel(w, *xy) != table for xy in ((10, 36), (20, 25.5), (20, 16.5)))
    assert w.scene.units.keys() == w.doc.battle.units.keys()


def test_terrain_properties_name_a_river_and_a_woods_kind(open_window, qtbot):
    """Issue 21, item 10: select a terrain feature, name it, set its kind; one undo step each."""
    w = open_window()
    b = w.doc.battle
    river = next(f for f in b.battlefield.features if f.kind in ("river", "stream"))
    w.doc.select([river.id])
    props = w.docks["PropertiesDock"]
    assert river.kind in props.heading.text()
    name = props.fields["name"]
    name.selectAll()
    qtbot.keyClicks(name, "Goldbach")
    qtbot.keyClick(name, Qt.Key_Return)
    assert w.doc.battle.battlefield.feature(river.id).name == "Goldbach"
    assert w.doc.undo_stack.undoText().endswith("name Goldbach")
    wood = next(f for f in b.battlefield.features if f.kind == "woods")
    w.doc.select([wood.id])
    variant = props.fields["variant"]
    qtbot.keyClicks(variant, "pine")
    qtbot.keyClick(variant, Qt.Key_Return)
    assert w.doc.battle.battlefield.feature(wood.id).variant == "pine"
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.battlefield.feature(wood.id).variant == ""
