"""Small widgets the docks share."""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QFrame, QScrollArea


def scrolled(body) -> QScrollArea:
    """A dock's contents in a scroll area: however many fields, orders or joiners it
    shows, the dock neither widens the map away nor grows the window past the screen."""
    area = QScrollArea()
    area.setWidget(body)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
    return area


def fit_rows(view, max_rows: int) -> None:
    """A list as tall as its rows, up to max_rows (then it scrolls): a one-target order
    list does not push the odds below the dock's fold, a long one still fits the laptop.
    Rows are measured wrapped to the list's width (a long "(no target: why)" line)."""
    view.setWordWrap(True)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    fm = view.fontMetrics()
    width = max(view.viewport().width(), view.width() - 2 * view.frameWidth()) - 8
    heights = []
    for i in range(min(view.count(), max_rows)):
        row = view.sizeHintForRow(i)             # one line, as the style draws it
        text = fm.boundingRect(QRect(0, 0, max(width, 60), 10_000), Qt.TextWordWrap,
                               view.item(i).text()).height()
        heights.append(max(row, text + max(0, row - fm.height())))
    view.setFixedHeight(max(sum(heights), fm.height() + 4) + 2 * view.frameWidth())
