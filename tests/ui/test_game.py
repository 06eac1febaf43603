"""Playing a turn through the turn runner with table dice, and looking back in the log."""
from __future__ import annotations

from PySide6.QtCore import Qt

from conftest import DiceTyper, at, choose, drag


def click(qtbot, button):
    assert button.isEnabled() and button.isVisible(), button.text()
    qtbot.mouseClick(button, Qt.LeftButton)


def log_entry(log, n):
    tree = log.tree
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        for i in range(group.childCount()):
            if group.child(i).text(0) == str(n):
                return group.child(i)
    raise AssertionError(f"no log entry {n}")


def test_a_whole_turn_with_table_dice(open_window, qtbot):
    w = open_window()
    dock = w.docks["TurnDock"]
    dock.dice.setCurrentIndex(dock.dice.findData(True))          # table dice
    assert w.doc.manual_dice
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    assert (b.state.turn, b.state.phase, b.state.active) == (1, "rally", "blue")
    assert "Turn 1" in dock.heading.text() and "Blue Army" in dock.heading.text()
    click(qtbot, dock.next_btn)
    assert b.state.phase == "move"
    assert dock.to_act.count() == 6                              # every blue unit may move

    # a move order: drag the 1st Line two boxes east; the engine accepts it
    drag(qtbot, w.view.viewport(), at(w, 16.5, 19.5), at(w, 22.5, 19.5))
    assert b.units["b1-inf1"].pos == (22.5, 19.5)
    assert w.scene.units["b1-inf1"].pos().x() == 22.5
    assert w.doc.session.entries[-1].action.verb == "MoveUnit"
    assert dock.to_act.count() == 5

    # a fire order from the dock: the odds first, then the dice typed from the table
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 13.5, 28.5))
    assert w.doc.selection == ["b1-art"]
    choose(qtbot, dock.choices, "r1-inf2")
    assert "mean 1.50 hits" in dock.odds.text() and "37.5%" in dock.odds.text()   # 3 of 8
    typer = DiceTyper(qtbot, [5, 5, 2])
    before = b.units["r1-inf2"].hits
    click(qtbot, dock.resolve_btn)
    typer.stop()
    assert typer.asked == [("fire: Foot Battery at Red Line 2", (5, 5, 2))]
    assert b.units["r1-inf2"].hits == before - 2                 # 5 and 5 hit on 4+
    roll = w.doc.session.entries[-1].rolls[0]
    assert (roll.faces, roll.source) == ((5, 5, 2), "manual")
    assert b.units["b1-art"].fired

    # the rest of the turn: the red side played by the automatic commander, table dice typed
    click(qtbot, dock.next_btn)                                   # blue melee
    click(qtbot, dock.next_btn)                                   # red rally
    assert b.state.active == "red"
    typer = DiceTyper(qtbot, [3] * 60)
    while b.state.turn == 1:
        click(qtbot, dock.auto_btn)
    typer.stop()
    assert (b.state.turn, b.state.active) == (2, "blue")
    manual = [r for e in w.doc.session.entries for r in e.rolls]
    assert manual and all(r.source == "manual" for r in manual)
    texts = [w.docks["LogDock"].tree.topLevelItem(i).text(1)
             for i in range(w.docks["LogDock"].tree.topLevelItemCount())]
    assert "Turn 1 — Blue Army — Move and fire" in texts and any("Red Army" in t for t in texts)


def test_the_log_shows_the_past_and_undoes_to_there(open_window, qtbot):
    w = open_window()
    dock, log = w.docks["TurnDock"], w.docks["LogDock"]
    click(qtbot, dock.start_btn)
    click(qtbot, dock.next_btn)
    drag(qtbot, w.view.viewport(), at(w, 16.5, 19.5), at(w, 22.5, 19.5))
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 13.5, 28.5))
    choose(qtbot, dock.choices, "r1-inf2")
    click(qtbot, dock.resolve_btn)
    hits_now = w.doc.battle.units["r1-inf2"].hits
    assert len(w.doc.session.entries) == 4
    # select entry 2 (the end of the rally phase): the map shows the 1st Line at home
    entry2 = log_entry(log, 2)
    log.tree.scrollToItem(entry2)
    qtbot.mouseClick(log.tree.viewport(), Qt.LeftButton, Qt.NoModifier,
                     log.tree.visualItemRect(entry2).center())
    assert w.doc.preview == 2
    assert w.scene.units["b1-inf1"].pos().x() == 16.5
    assert w.doc.shown.units["r1-inf2"].hits == w.doc.shown.units["r1-inf2"].max_hits
    assert w.doc.battle.units["b1-inf1"].pos == (22.5, 19.5)      # the present is untouched
    assert not w.doc.execute(__import__("manager.game_actions", fromlist=["EndPhase"]).EndPhase())
    click(qtbot, log.now_btn)
    assert w.doc.preview is None and w.scene.units["b1-inf1"].pos().x() == 22.5
    # undo to here: the game rewinds to entry 2; redo brings back the same dice
    log.tree.setCurrentItem(log_entry(log, 2))
    click(qtbot, log.undo_btn)
    assert len(w.doc.session.entries) == 2
    assert w.doc.battle.units["b1-inf1"].pos == (16.5, 19.5)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert len(w.doc.session.entries) == 4
    assert w.doc.battle.units["r1-inf2"].hits == hits_now


def test_shaken_commands_and_a_conceding_army_show(open_window, qtbot):
    from manager.game_actions import StartBattle
    w = open_window()
    w.doc.execute(StartBattle())
    b = w.doc.battle
    for uid in ("r2-lc", "r2-hc"):
        b.update_unit(uid, eliminated=True)        # the test's shortcut to a ruined command
    b.set_state(shaken=frozenset({"r2"}))
    w.doc.changed.emit()
    tree = w.docks["OobDock"].tree
    assert "[SHAKEN]" in tree.item_of["r2"].text(0)
    assert "1/2 commands Shaken" in tree.item_of["red"].text(0)
    b.set_state(over=True, winner="blue", reason="Red Army: every command Shaken")
    w.doc.changed.emit()
    banner = w.docks["TurnDock"].banner
    assert banner.isVisible() and "Red Army must concede" in banner.text()


def test_table_side_fire_with_typed_range_and_table_dice(open_window, qtbot):
    w = open_window()
    turn, table = w.docks["TurnDock"], w.docks["TableSideDock"]
    turn.dice.setCurrentIndex(turn.dice.findData(True))
    click(qtbot, turn.start_btn)
    click(qtbot, turn.next_btn)                                   # blue move phase
    table.show()
    table.raise_()
    choose(qtbot, table.ours, "b1-inf1")
    choose(qtbot, table.theirs, "r2-lc")         # cavalry: Kutusov holds only his infantry
    rng = table.fields["range"]
    rng.selectAll()
    qtbot.keyClicks(rng, "2")
    qtbot.keyClick(rng, Qt.Key_Tab)
    assert "mean 0.67 hits" in table.odds.text()                 # 2 dice, 5+ to hit
    cover = table.fields["cover"]
    cover.setCurrentIndex(cover.findData("woods"))
    assert "mean 0.33 hits" in table.odds.text()                 # now 6s only
    typer = DiceTyper(qtbot, [6, 6])
    click(qtbot, table.resolve_btn)
    typer.stop()
    b = w.doc.battle
    assert b.units["r2-lc"].hits == b.units["r2-lc"].max_hits - 2
    assert b.units["r2-lc"].pos == (46.5, 37.5)                   # the miniature moves, not the map
    log = w.docks["LogDock"].tree
    last = log.topLevelItem(log.topLevelItemCount() - 1)
    assert "Red Hussars falls back 2 boxes: move it on the table" in last.child(last.childCount() - 1).text(1)
