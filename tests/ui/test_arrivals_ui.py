"""Reinforcements in the app: the order of battle says when and where they arrive, and
the turn runner's Next phase brings them on at the start of their side's move."""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).parent.parent / "manager"))
from test_arrivals import BASE  # noqa: E402


def test_the_order_of_battle_and_the_turn_runner_know_reinforcements(open_window, qtbot, tmp_path):
    path = tmp_path / "arrivals.toml"
    path.write_text(BASE.replace('first_side = "a"', 'first_side = "a"\nseed = 3'), encoding="utf-8")
    w = open_window(path)
    tree = w.docks["OobDock"].tree
    assert tree.item_of["c2"].text(1) == "arriving turn 2 at the Raigern road"
    c2 = tree.item_of["c2"]
    kids = [c2.child(i) for i in range(c2.childCount())]
    assert [k.text(1) for k in kids] == ["arriving turn 2 at the Raigern road"] * 2
    turn = w.docks["TurnDock"]
    qtbot.mouseClick(turn.start_btn, Qt.LeftButton)
    b = w.doc.battle
    while not (b.state.turn == 2 and b.state.active == "a" and b.state.phase == "move"):
        qtbot.mouseClick(turn.next_btn, Qt.LeftButton)
        b = w.doc.battle
    assert set(b.hierarchy.units_of("c2")) == {"u2", "u3"}      # brought on at once
    assert tree.item_of["u2"].text(1) == "5/5"
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)              # undo: off the table again
    assert "u2" not in w.doc.battle.units
