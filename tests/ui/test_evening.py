"""Issue 21's evening at the club, lived through the real main window with the mouse and
the keyboard: Austerlitz (a campaign's first battle, held to 2 turns so the suite stays
fast), a French turn by hand (a move by drag, a volley with typed dice, a melee, a rally),
the automatic commander to the end, close, relaunch on the finished battle, undo a step,
the report to PDF, and the battle booked into the campaign opened from the File menu."""
from __future__ import annotations

import dataclasses
from types import MappingProxyType

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from conftest import ROOT, DiceTyper, at, choose, drag
from manager import game_actions as ga
from manager.campaign import Campaign
from manager.campaign.reconstitute import battle_for
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.store import create_battle
from test_game import click
from ui.wording import place

TURNS = 2


def campaign_with_austerlitz(tmp_path):
    battle = load_scenario(ROOT / "scenarios" / "austerlitz.toml")
    # the evening plays from the first move: no dawn bombardment (Austerlitz's two turns of
    # it would refuse the drag into the 2nd Column's zone below)
    battle.info = dataclasses.replace(battle.info, turns=TURNS, options=MappingProxyType(
        {**battle.info.options, "bombardment_turns": 0}))
    c = Campaign.create(tmp_path / "club.campaign", battle, "Club campaign")
    first = battle_for(c, c.founding_battle())
    first.info = dataclasses.replace(first.info, turns=TURNS)
    path = tmp_path / "austerlitz-night.berthier"
    create_battle(path, Session(first), campaign_id=c.meta["id"], campaign_battle=1).close()
    c.close()
    return path, tmp_path / "club.campaign"


def menu_action(w, menu, prefix):
    m = next(a for a in w.menuBar().actions() if a.text() == menu).menu()
    return next(a for a in m.actions() if a.text().replace("&", "").startswith(prefix))


def first_legal(doc, actions):
    return next((a for a in actions if not doc.check(a)), None)


def test_an_evening_at_the_club(open_window, qtbot, tmp_path, monkeypatch):
    from ui.app import make_window
    battle_path, campaign_path = campaign_with_austerlitz(tmp_path)
    w = open_window(battle_path, size=(1600, 1000))
    dock, b = w.docks["TurnDock"], w.doc.battle
    click(qtbot, dock.start_btn)
    assert (b.state.active, b.state.phase) == ("french", "rally")
    click(qtbot, dock.next_btn)                                    # French move and fire
    # a move by drag: IV Light 1 to the Goldbach's far bank, beside the 2nd Column
    mover = "iv-corps-light-infantry-1"
    assert b.units[mover].pos == (43.5, 58.5)
    drag(qtbot, w.view.viewport(), at(w, 43.5, 58.5), at(w, 55.5, 58.5), steps=12)
    assert b.units[mover].pos == (55.5, 58.5)
    assert w.doc.undo_stack.undoText() == f"{b.units[mover].name} moves to {place(b, (55.5, 58.5))}"
    # a volley with typed dice: the first French unit with a target, chosen on the map
    fire = first_legal(w.doc, [ga.Fire(u.id, t.id) for u in b.live_units("french")
                               for t in b.live_units("allies")])
    dock.dice.setCurrentIndex(dock.dice.findData(True))
    shooter = b.units[fire.unit]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, shooter.x, shooter.y))
    assert w.doc.selection == [fire.unit]
    choose(qtbot, dock.choices, fire.target)
    assert "%" in dock.odds.text() and w.scene.overlays.aim.isVisible()
    typer = DiceTyper(qtbot, [6] * 12)
    click(qtbot, dock.resolve_btn)
    typer.stop()
    entry = w.doc.session.entries[-1]
    assert entry.action == fire and entry.rolls and all(r.source == "manual" for r in entry.rolls)
    assert "fires at" in dock.result.text()
    # the melee the move began, resolved from the turn runner with typed dice
    click(qtbot, dock.next_btn)
    assert b.state.phase == "melee" and dock.choices.count() >= 1
    melee = dock.choices.item(0).data(Qt.UserRole)
    choose(qtbot, dock.choices, melee)
    typer = DiceTyper(qtbot, [4] * 40)
    click(qtbot, dock.resolve_btn)
    typer.stop()
    assert w.doc.session.entries[-1].action.verb == "ResolveMelee"
    dock.dice.setCurrentIndex(dock.dice.findData(False))           # software dice again
    # the Allies' turn by the automatic commander, then a French rally by hand
    while (b.state.turn, b.state.active) == (1, "allies") or b.state.active != "french" \
            or b.state.phase != "rally":
        click(qtbot, dock.auto_btn if b.state.active == "allies" else dock.next_btn)
    rally = first_legal(w.doc, [ga.Rally(l.id, u.id) for l in b.live_leaders("french")
                                for u in b.live_units("french")])
    assert rally is not None, "the Allies' fire left no French unit to rally"
    leader = b.leaders[rally.leader]
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, leader.x, leader.y))
    assert w.doc.selection == [rally.leader]
    choose(qtbot, dock.choices, rally.unit)
    assert "rallies" in dock.odds.text()
    click(qtbot, dock.resolve_btn)
    assert w.doc.session.entries[-1].action == rally
    # the automatic commander plays to the end of the turn limit
    while not b.state.over:
        click(qtbot, dock.auto_turn_btn)
    assert dock.banner.isVisible()
    n = len(w.doc.session.entries)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    qtbot.keyClick(w, Qt.Key_S, Qt.ControlModifier)                 # saved as it was played
    assert "saved as it is taken" in w.statusBar().currentMessage()
    w.close()

    # relaunch: the last battle opens, finished, and a step is undone and redone
    again = make_window()
    qtbot.addWidget(again)
    again.resize(1600, 1000)
    again.show()
    again.activateWindow()
    qtbot.waitUntil(again.isActiveWindow)
    assert again.doc.path == battle_path and again.doc.battle.state.over
    assert len(again.doc.session.entries) == n
    qtbot.keyClick(again, Qt.Key_Z, Qt.ControlModifier)
    assert len(again.doc.session.entries) == n - 1 and not again.doc.battle.state.over
    qtbot.keyClick(again, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert again.doc.battle.state.over
    # the report to PDF, from the File menu
    pdf = tmp_path / "austerlitz-report.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(pdf), ""))
    menu_action(again, "&File", "After-action report").trigger()
    assert pdf.read_bytes().startswith(b"%PDF")
    # the campaign, opened from the File menu; the battle booked
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(campaign_path), ""))
    menu_action(again, "&File", "Open campaign").trigger()
    camp = again.docks["CampaignDock"]
    qtbot.mouseClick(camp.book_btn, Qt.LeftButton)
    assert "booked" in again.statusBar().currentMessage()
    assert len(camp.curves[0].getData()[0]) == 2                   # muster and battle 1
