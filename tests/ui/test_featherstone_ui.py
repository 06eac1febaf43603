"""The Featherstone-like rules through the app: a charge ordered from the turn runner
with its odds, a drag move measured in inches, and a rally check with a general."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from conftest import at, choose, drag
from test_game import click

QB = Path(__file__).resolve().parents[2] / "scenarios" / "quatre_bras.toml"


def to_phase(qtbot, w, dock, phase, side):
    b = w.doc.battle
    while not (b.state.phase == phase and b.state.active == side):
        click(qtbot, dock.next_btn)


def test_a_charge_from_the_turn_runner_and_a_move_by_drag(open_window, qtbot):
    w = open_window(QB)
    dock = w.docks["TurnDock"]
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    side = b.state.active
    assert b.state.phase == "initiative"
    # the French voltigeurs stand 3 inches from nothing: put a Dutch line in reach first
    w.doc.session.battle.update_unit("nl-7l", x=27.0, y=32.0)
    to_phase(qtbot, w, dock, "charges", "french")
    u = b.units["fr-2leger"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert w.doc.selection == ["fr-2leger"]
    assert "charge" in dock.order_title.text()
    choose(qtbot, dock.choices, "nl-7l")
    assert "attacker wins" in dock.odds.text()
    click(qtbot, dock.resolve_btn)
    assert w.doc.session.entries[-1].action.verb == "Charge"
    assert side in b.sides

    # a move by drag: 5 inches would cross the brook (3 more: 8 of a line's 6), refused;
    # 2.5 inches is a legal move
    to_phase(qtbot, w, dock, "moves", "french")
    msgs = []
    w.doc.message.connect(msgs.append)
    u = b.units["fr-4leger"]
    drag(qtbot, w.view.viewport(), at(w, u.x, u.y), at(w, u.x, u.y - 5))
    assert b.units["fr-4leger"].y == 37.5 and "needs 8.0 inches of move and has 6.0" in msgs[-1]
    drag(qtbot, w.view.viewport(), at(w, u.x, u.y), at(w, u.x, u.y - 2.5))
    assert abs(b.units["fr-4leger"].y - 35.0) < 0.2
    assert w.doc.session.entries[-1].action.verb == "MoveUnit"


def test_a_rally_check_offers_the_general_within_four_inches(open_window, qtbot):
    w = open_window(QB)
    dock = w.docks["TurnDock"]
    w.doc.session.battle.update_unit("fr-61", disordered=True)
    w.doc.session.battle.update_leader("bachelu-l", x=21.0, y=43.0)
    click(qtbot, dock.start_btn)
    to_phase(qtbot, w, dock, "rally", "french")
    u = w.doc.battle.units["fr-61"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert "rally check" in dock.order_title.text()
    choose(qtbot, dock.choices, "bachelu-l")
    assert "rallies" in dock.odds.text()
    click(qtbot, dock.resolve_btn)
    assert w.doc.session.entries[-1].action.verb == "Rally"
    assert w.doc.session.entries[-1].action.leader == "bachelu-l"


def test_a_trait_is_ticked_in_the_properties_and_undone(open_window, qtbot):
    w = open_window(QB)
    u = w.doc.battle.units["fr-1chass"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert w.doc.selection == ["fr-1chass"]
    box = w.docks["PropertiesDock"].fields["trait:lancers"]
    assert not box.isChecked()
    box.setFocus()
    qtbot.keyClick(box, Qt.Key_Space)              # the dock may be scrolled: the keyboard
    assert w.doc.battle.units["fr-1chass"].traits == ("lancers",)
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert w.doc.battle.units["fr-1chass"].traits == ()
    assert not box.isChecked()


def test_quickplay_offers_fire_and_charge_in_one_list(open_window, qtbot):
    path = Path(__file__).resolve().parents[2] / "scenarios" / "maida.toml"
    w = open_window(path)
    dock = w.docks["TurnDock"]
    b = w.doc.session.battle
    b.update_unit("gb-light", x=18.0, y=19.0)       # within a charge of the voltigeurs
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    while not (b.state.phase == "act" and b.state.active == "british"):
        click(qtbot, dock.next_btn)
    u = b.units["gb-light"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert "fire at, or charge" in dock.order_title.text()
    choose(qtbot, dock.choices, "charge:fr-volt")
    assert "the charge reaches" in dock.odds.text()
    click(qtbot, dock.resolve_btn)
    assert w.doc.session.entries[-1].action.verb == "Charge"


def test_harman_orders_a_bayonet_charge_with_the_faces_odds(open_window, qtbot):
    path = Path(__file__).resolve().parents[2] / "scenarios" / "arcole.toml"
    w = open_window(path)
    dock = w.docks["TurnDock"]
    b = w.doc.session.battle
    g = b.battlefield.grid
    b.update_unit("au-croats", x=6.5 * g, y=3.5 * g)     # a target one square from the 51e
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    while not (b.state.phase == "move" and b.state.active == "french"):
        click(qtbot, dock.next_btn)
    u = b.units["fr-51"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    assert "fire at, or charge" in dock.order_title.text()
    choose(qtbot, dock.choices, "charge:au-croats")
    assert "breaks at once" in dock.odds.text() and "Officer" in dock.odds.text()
    click(qtbot, dock.resolve_btn)
    assert w.doc.session.entries[-1].action.verb == "Charge"


def test_the_initiative_winner_chooses_to_go_second(open_window, qtbot):
    """Issue 21, item 12: the choice is in the turn runner, not skipped by Next phase."""
    w = open_window(QB)
    dock = w.docks["TurnDock"]
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    assert b.state.phase == "initiative"
    winner = b.state.active
    other = next(s for s in b.sides if s != winner)
    assert "Initiative" in dock.order_title.text() and dock.choices.count() == 2
    choose(qtbot, dock.choices, other)
    assert "go second" in dock.choices.currentItem().text()
    click(qtbot, dock.resolve_btn)
    entry = w.doc.session.entries[-1]
    assert entry.action.verb == "ChooseInitiative" and entry.action.first == other
    assert w.doc.undo_stack.undoText() == f"Initiative: {b.sides[other].name} moves first"


def test_the_umpire_commits_a_general_from_the_turn_runner_and_the_odds_follow(
        open_window, qtbot, tmp_path):
    """Issue 15: a charge about to be declared offers the player's choices (commit the
    charged unit's general near it, with the risk roll; counter-charge on a 7); a choice
    is one action through the session (one undo step), and the odds panel shows the
    charge with it."""
    w = open_window(QB)
    dock = w.docks["TurnDock"]
    click(qtbot, dock.start_btn)
    b = w.doc.battle
    w.doc.session.battle.update_unit("nl-7l", x=27.0, y=32.0)
    w.doc.session.battle.update_leader("perponcher-l", x=31.0, y=30.0)   # 4" of nl-7l
    to_phase(qtbot, w, dock, "charges", "french")
    u = b.units["fr-2leger"]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, u.x, u.y))
    choose(qtbot, dock.choices, "nl-7l")
    labels = [btn.text() for btn in dock.choice_box.buttons]
    assert dock.choice_box.isVisible()
    commit = next(btn for btn in dock.choice_box.buttons if btn.text().startswith("Commit Perponcher"))
    assert "risk roll" in commit.text() and "charger's chance" in commit.text()
    assert any(t.startswith("Counter-charge") for t in labels)
    before_odds, entries, steps = dock.odds.text(), len(w.doc.session.entries), w.doc.undo_stack.count()
    refused = []
    w.doc.refused.connect(refused.append)
    qtbot.waitUntil(lambda: commit.height() > 10, timeout=3000)          # laid out
    dock.widget().widget().grab().save(str(tmp_path / "choices.png"))
    click(qtbot, commit)
    assert not refused, refused
    last = w.doc.session.entries[-1].action
    assert last.verb == "CommitGeneral" and (last.leader, last.unit) == ("perponcher-l", "nl-7l")
    assert len(w.doc.session.entries) == entries + 1 and w.doc.undo_stack.count() == steps + 1
    # the same charge is still picked, its odds now with Perponcher's +1 on the check
    assert dock.choices.currentItem().data(Qt.UserRole) == "nl-7l"
    assert dock.odds.text() != before_odds and "attacker wins" in dock.odds.text()
    assert not any(t.startswith("Commit Perponcher") for t in
                   (btn.text() for btn in dock.choice_box.buttons))
    dock.widget().widget().grab().save(str(tmp_path / "choices-after.png"))
    click(qtbot, dock.resolve_btn)                        # the charge, with his +1
    assert w.doc.session.entries[-1].action.verb == "Charge"
    checks = [e for e in w.doc.session.entries[-1].events if hasattr(e, "column")]
    assert checks and "Perponcher near" in checks[0].mods
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()                               # one step takes the choice back
    assert len(w.doc.session.entries) == entries
    assert w.doc.session.entries[-1].action.verb != "CommitGeneral"
    from manager.model.forces import mark
    assert not mark(w.doc.battle.units["nl-7l"], "lend")
