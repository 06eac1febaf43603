"""PySide6 6.12.0 decrements None on methods returning nothing and crashes CPython 3.11
after a few thousand calls. The pin keeps it below 6.12; this proves the installed one
survives far more calls than the crash needs."""
import PySide6
from PySide6.QtWidgets import QGraphicsRectItem


def test_pyside_is_below_612():
    major, minor = (int(x) for x in PySide6.__version__.split(".")[:2])
    assert (major, minor) < (6, 12), PySide6.__version__


def test_twenty_thousand_calls_returning_none(qapp):
    item = QGraphicsRectItem(0, 0, 10, 10)
    for i in range(20_000):
        item.setPos(i % 100, i % 37)
    assert (item.pos().x(), item.pos().y()) == (19_999 % 100, 19_999 % 37)
