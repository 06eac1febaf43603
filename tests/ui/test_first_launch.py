"""Issue 21, item 5 and the evening's "first launch with no settings": plain `berthier`
opens Austerlitz over most of the screen, the map gets most of the width, the table is
fitted, and refitted on resize until the user zooms."""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QGuiApplication

from conftest import ROOT


def table_on_screen(w) -> QRectF:
    return w.view.mapFromScene(w.scene.table.rect()).boundingRect()


def fitted(w) -> bool:
    r, vp = table_on_screen(w), w.view.viewport().rect()
    inside = vp.adjusted(-2, -2, 2, 2).contains(r)
    return inside and (r.width() >= vp.width() * 0.95 or r.height() >= vp.height() * 0.95)


def test_first_launch_with_no_settings(qtbot, questions):
    from ui.app import make_window
    w = make_window()
    qtbot.addWidget(w)
    assert w.first_launch and questions == []            # nothing to restore, nothing asked
    assert w.doc.path.resolve() == (ROOT / "scenarios" / "austerlitz.toml").resolve()
    screen = QGuiApplication.primaryScreen().availableGeometry()
    assert w.width() >= screen.width() * 0.85 and w.height() >= screen.height() * 0.85
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.view.width() >= w.width() * 0.4)   # the map, not 115 px (800 px screen)
    assert fitted(w)
    # maximise (or any resize): refitted
    w.resize(w.width() + 300, w.height() + 200)
    qtbot.waitUntil(lambda: fitted(w))
    # once the user zooms, a resize leaves his zoom alone; Ctrl+0 fits again
    w.view.zoom_by(2)
    zoom = w.view.zoom
    w.resize(w.width() - 200, w.height() - 100)
    qtbot.wait(20)
    assert w.view.zoom == zoom
    w.view.fit_table()
    w.resize(w.width() + 100, w.height())
    qtbot.waitUntil(lambda: fitted(w))
    # the window remembers its size for next time
    w.close()
    again = make_window()
    qtbot.addWidget(again)
    assert not again.first_launch
