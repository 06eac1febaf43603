"""What the joined-window tests do as the umpire would: join through the dialog, pick from a
list, read the log, tick a box, open a File menu entry; and wait (bounded) on the shared loop.
"""
from __future__ import annotations

import asyncio
import re
import time

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox


def run(loop, coro, timeout=60):
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


async def until(predicate, what: str, timeout: float = 15.0):
    """Wait on a condition while the loop (Qt's and asyncio's) runs; fail after `timeout`."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def plain(label) -> str:
    """A label's text without its markup."""
    return re.sub(r"<[^>]+>", "", label.text())


def join_through_the_dialog(loop, qtbot, window, address, code, name, commands, shots=None):
    window.network.join_action.trigger()                 # File > Join battle…
    dialog = window.network.dialog
    dialog.name.setText(name)
    qtbot.keyClicks(dialog.address, address)
    qtbot.keyClicks(dialog.code, code)
    qtbot.mouseClick(dialog.connect_btn, Qt.LeftButton)
    run(loop, until(lambda: dialog.checks, "the battle's commands offered"))
    for cid in commands:
        dialog.checks[cid].setChecked(True)
    if shots is not None:
        dialog.grab().save(str(shots / "join-dialog.png"))
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    run(loop, until(lambda: window.doc.remote, "the window to follow the host"))
    return dialog


def log_item(dock, count):
    """The log dock's row for the entry that leaves `count` entries."""
    tree = dock.tree
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while items:
        item = items.pop(0)
        if item.text(0) == str(count) and item.data(0, Qt.UserRole) == count:
            return item
        items += [item.child(i) for i in range(item.childCount())]
    raise AssertionError(f"no log row for entry {count}")


def tick(qtbot, box):
    """Click a checkbox on its box (its middle may lie past its text)."""
    qtbot.mouseClick(box, Qt.LeftButton, Qt.NoModifier, box.rect().topLeft() + QPoint(8, box.height() // 2))


def file_menu_action(window, text):
    """The File menu's entry with this text (the menu the umpire opens)."""
    for top in window.menuBar().actions():
        for action in (top.menu().actions() if top.menu() else []):
            if action.text().replace("&", "") == text:
                return action
    raise AssertionError(f"no {text!r} in the menus")
