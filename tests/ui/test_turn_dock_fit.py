"""The turn runner's lists are as tall as their rows: the odds of a one-target order sit
just under it (not below the dock's fold behind an empty list), and a long "(no target:
why)" line wraps in full instead of scrolling sideways."""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt

from conftest import at, choose
from test_featherstone_ui import QB, to_phase
from test_game import click


def _wrapped_height(view, text):
    width = view.viewport().width() - 8
    return view.fontMetrics().boundingRect(QRect(0, 0, width, 10_000), Qt.TextWordWrap,
                                           text).height()


def test_order_list_fits_its_rows_and_wraps_the_reason(open_window, qtbot):
    w = open_window(QB, size=(1400, 1000))
    dock = w.docks["TurnDock"]
    assert not dock.choices.isVisibleTo(dock)        # set-up: no order, no empty list
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    w.doc.session.battle.update_unit("nl-7l", x=27.0, y=32.0)
    to_phase(qtbot, w, dock, "charges", "french")
    assert not dock.choices.isVisibleTo(dock)        # nothing selected yet
    u = b.units["fr-2leger"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    choose(qtbot, dock.choices, "nl-7l")
    assert dock.choices.count() == 1 and dock.choices.isVisibleTo(dock)
    line = dock.choices.sizeHintForRow(0)
    assert dock.choices.height() <= 2 * line + 2 * dock.choices.frameWidth() + 8
    # the odds follow right under the one target
    assert dock.odds.text() and dock.odds.y() - (dock.choices.y() + dock.choices.height()) < 60
    click(qtbot, dock.resolve_btn)
    text = dock.choices.item(0).text()
    assert text.startswith("(no enemy") and dock.choices.count() == 1
    qtbot.waitUntil(lambda: dock.choices.viewport().width() > 100)
    need = _wrapped_height(dock.choices, text)
    assert need > dock.choices.fontMetrics().height() * 1.5      # the reason does wrap here
    assert dock.choices.viewport().height() >= need               # ... and all of it shows
    assert dock.choices.horizontalScrollBarPolicy() == Qt.ScrollBarAlwaysOff


def test_still_to_act_shows_five_rows_then_scrolls(open_window, qtbot):
    w = open_window(QB, size=(1400, 1000))
    dock = w.docks["TurnDock"]
    click(qtbot, dock.start_btn)
    to_phase(qtbot, w, dock, "charges", "french")
    lst = dock.to_act
    assert lst.count() > 5
    rows = sum(lst.sizeHintForRow(i) for i in range(5))
    assert rows <= lst.viewport().height() <= rows + 12
    qtbot.waitUntil(lambda: lst.verticalScrollBar().maximum() > 0, timeout=3000)  # the rest scrolls
