"""Editing the battlefield with the mouse and keys, as a scenario author does."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from conftest import at, drag


def woods(battle):
    return [f for f in battle.battlefield.features if f.kind == "woods"]


def test_paint_woods_with_the_brush_then_undo(open_window, qtbot):
    w = open_window()
    before = len(woods(w.doc.battle))
    w.use_tool("brush")
    w.tools["brush"].size.setValue(4.0)
    drag(qtbot, w.view.viewport(), at(w, 20, 30), at(w, 28, 32))
    painted = woods(w.doc.battle)
    assert len(painted) == before + 1
    new = [f for f in painted if f.id not in ("wood",)][0]
    xs = [p[0] for p in new.points]
    assert min(xs) < 19 and max(xs) > 29          # the stroke plus the brush's radius
    assert new.id in w.scene.terrain
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert len(woods(w.doc.battle)) == before
    assert new.id not in w.scene.terrain
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert len(woods(w.doc.battle)) == before + 1


def test_brush_stroke_touching_woods_grows_them_and_shift_erases(open_window, qtbot):
    w = open_window()
    w.use_tool("brush")
    w.tools["brush"].size.setValue(3.0)
    drag(qtbot, w.view.viewport(), at(w, 8, 4), at(w, 14, 4))
    grown = [f for f in woods(w.doc.battle) if f.id == "wood"][0]
    assert max(p[0] for p in grown.points) > 14          # the old wood reached x = 9
    assert len(woods(w.doc.battle)) == 1
    drag(qtbot, w.view.viewport(), at(w, 1, 1), at(w, 15, 1), modifier=Qt.ShiftModifier)
    rubbed = [f for f in woods(w.doc.battle) if f.id == "wood"][0]
    assert min(p[1] for p in rubbed.points) > 1.5


def test_drag_a_unit_in_setup_moves_item_and_model(open_window, qtbot):
    w = open_window()
    u = w.doc.battle.units["b1-inf1"]
    assert (u.x, u.y) == (16.5, 19.5)
    drag(qtbot, w.view.viewport(), at(w, 16.5, 19.5), at(w, 22.6, 26.1))
    u = w.doc.battle.units["b1-inf1"]
    assert (u.x, u.y) == (22.5, 25.5)                    # snapped to the box centre
    item = w.scene.units["b1-inf1"]
    assert (item.pos().x(), item.pos().y()) == (22.5, 25.5)
    assert w.doc.session.entries[-1].action.verb == "RelocateUnit"
    assert w.isWindowModified()


def test_a_refused_drop_puts_the_unit_back_and_says_why(open_window, qtbot):
    w = open_window()
    drag(qtbot, w.view.viewport(), at(w, 16.5, 19.5), at(w, 16.5, 22.5))   # onto 2nd Line
    u = w.doc.battle.units["b1-inf1"]
    assert (u.x, u.y) == (16.5, 19.5)
    assert (w.scene.units["b1-inf1"].pos().x(), w.scene.units["b1-inf1"].pos().y()) == (16.5, 19.5)
    assert "one unit a box" in w.statusBar().currentMessage()


def test_turn_with_keys_and_rubber_band_selection(open_window, qtbot):
    w = open_window()
    drag(qtbot, w.view.viewport(), at(w, 14, 17), at(w, 19, 27))   # around the three line units
    assert set(w.doc.selection) >= {"b1-inf1", "b1-inf2", "b1-lt"}
    qtbot.keyClick(w.view, Qt.Key_E)
    assert all(w.doc.battle.units[u].facing == 135 for u in ("b1-inf1", "b1-inf2", "b1-lt"))
    assert w.doc.undo_stack.count() == 1                          # one group, one undo
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert all(w.doc.battle.units[u].facing == 90 for u in ("b1-inf1", "b1-inf2", "b1-lt"))


def test_draw_a_road_then_edit_its_points(open_window, qtbot):
    w = open_window()
    w.use_tool("polyline")
    tool = w.tools["polyline"]
    tool.kind.setCurrentIndex(tool.kind.findData("wall"))
    vp = w.view.viewport()
    for x, y in ((20, 36), (26, 38)):
        qtbot.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, at(w, x, y))
    qtbot.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, at(w, 32, 36))
    qtbot.mouseDClick(vp, Qt.LeftButton, Qt.NoModifier, at(w, 32, 36))
    walls = [f for f in w.doc.battle.battlefield.features if f.kind == "wall"]
    assert len(walls) == 1 and len(walls[0].points) == 3
    fid = walls[0].id
    drag(qtbot, vp, at(w, 26, 38), at(w, 26, 41))                 # move the middle handle
    pts = w.doc.battle.battlefield.feature(fid).points
    assert abs(pts[1][1] - 41) < 0.3
    qtbot.mouseClick(vp, Qt.RightButton, Qt.NoModifier, at(w, pts[1][0], pts[1][1]))
    assert len(w.doc.battle.battlefield.feature(fid).points) == 2
    w.use_tool("point")
    qtbot.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, at(w, 40.5, 25))
    assert any(f.kind == "bridge" for f in w.doc.battle.battlefield.features)


def test_place_delete_copy_and_paste(open_window, qtbot):
    w = open_window()
    w.docks["OobDock"].tree.item_of["b2"].setSelected(True)
    w.docks["OobDock"].place()
    w.tools["place"].kind.setCurrentIndex(w.tools["place"].kind.findData("horse_artillery"))
    n = len(w.doc.battle.units)
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 7.5, 31.5))
    assert len(w.doc.battle.units) == n + 1
    new = w.doc.selection[0]
    assert w.doc.battle.units[new].kind == "horse_artillery"
    assert w.doc.battle.hierarchy.find_command(new) == "b2"
    w.use_tool("select")
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 7.5, 31.5))
    qtbot.keyClick(w, Qt.Key_C, Qt.ControlModifier)
    qtbot.mouseMove(w.view.viewport(), at(w, 10.5, 34.5))
    qtbot.keyClick(w, Qt.Key_V, Qt.ControlModifier)
    assert len(w.doc.battle.units) == n + 2
    copy = w.doc.selection[0]
    assert w.doc.battle.units[copy].pos == (10.5, 34.5)
    qtbot.keyClick(w, Qt.Key_Delete)
    assert copy not in w.doc.battle.units and copy not in w.scene.units


def test_zoom_on_the_wheel_and_pan_with_the_middle_button(open_window, qtbot):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    w = open_window()
    before = w.view.zoom
    pos = at(w, 30, 20)
    ev = QWheelEvent(QPointF(pos), QPointF(w.view.viewport().mapToGlobal(pos)), QPoint(0, 0),
                     QPoint(0, 240), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(w.view.viewport(), ev)
    assert abs(w.view.zoom / before - 1.15 ** 2) < 1e-6
    h = w.view.horizontalScrollBar().value()
    drag(qtbot, w.view.viewport(), QPoint(400, 300), QPoint(300, 300), button=Qt.MiddleButton)
    assert w.view.horizontalScrollBar().value() == h + 100
    w.view.mouseMoveEvent  # the status bar shows the cursor in inches and boxes
    qtbot.mouseMove(w.view.viewport(), at(w, 31.5, 22.5))
    assert "box K-8" in w.cursor_label.text()         # column 10 (A=0), row 7 counted from 1
