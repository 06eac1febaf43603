"""Small widgets the docks share."""
from __future__ import annotations

from PySide6.QtCore import Qt
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
