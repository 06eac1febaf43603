"""The app and battle files: autosave from the first action, Save battle as, reopen the
game where it stood, refuse a bad file untouched, book a battle into a campaign."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt

from manager import game_actions as ga
from manager.campaign import Campaign, CampaignOptions
from manager.campaign.reconstitute import battle_for
from manager.editor_actions import EditUnit, RemoveUnit
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.store import create_battle
from manager.store.autosave import autosave_dir

DATA = Path(__file__).resolve().parents[1] / "data"


def live_count(path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        return c.execute("SELECT count(*) FROM entries WHERE state = 'live'").fetchone()[0]


def test_a_game_from_a_scenario_is_autosaved_from_its_first_action(open_window, qtbot):
    w = open_window()
    assert not autosave_dir().exists() or not list(autosave_dir().glob("*.berthier"))
    qtbot.mouseClick(w.docks["TurnDock"].start_btn, Qt.LeftButton)
    files = list(autosave_dir().glob("skirmish-*.berthier"))
    assert len(files) == 1 and live_count(files[0]) == len(w.doc.session.entries) >= 1
    # undo through the keyboard is recorded too
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert live_count(files[0]) == len(w.doc.session.entries)


def test_save_battle_as_then_reopen_where_it_stood(open_window, qtbot, tmp_path):
    w = open_window()
    w.doc.execute(ga.StartBattle())
    w.doc.execute(ga.EndPhase())
    target = tmp_path / "club-night.berthier"
    assert w.files.save_battle_as(target)
    assert not list(autosave_dir().glob("*.berthier"))       # the named file holds it all
    assert w.doc.is_battle_file and w.windowTitle().startswith("club-night.berthier")
    w.doc.execute(ga.EndPhase())
    assert live_count(target) == 3
    state = w.doc.battle.fingerprint()
    # a second window while the first records: told who holds it, and shown it read-only
    viewer = open_window(target)
    assert viewer.doc.record.read_only and viewer.doc.battle.fingerprint() == state
    assert not viewer.doc.is_battle_file and "[read-only]" in viewer.windowTitle()
    assert "open for recording by this Berthier" in viewer.last_error.text()
    viewer.doc.close_record()
    w.doc.close_record()                                      # the first lets go
    again = open_window(target)
    assert not again.doc.record.read_only and again.last_error is None
    assert again.doc.battle.fingerprint() == state
    assert len(again.doc.session.entries) == 3


def test_a_damaged_battle_file_gets_a_dialog_and_stays_byte_identical(open_window, tmp_path):
    w = open_window()
    bad = tmp_path / "broken.berthier"
    bad.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    before = w.doc.battle.fingerprint()
    assert not w.open_path(bad)
    assert "broken.berthier" in w.last_error.text() and "damaged" in w.last_error.text()
    assert bad.read_bytes() == b"SQLite format 3\x00" + bytes(range(256)) * 8
    assert w.doc.battle.fingerprint() == before


def test_the_report_exports_as_pdf(open_window, tmp_path):
    w = open_window()
    w.doc.execute(ga.StartBattle())
    out = tmp_path / "report.pdf"
    assert w.files.export_report(out)
    assert out.read_bytes().startswith(b"%PDF") and out.stat().st_size > 1000


def test_book_a_battle_into_the_campaign_dock(open_window, qtbot, tmp_path):
    c = Campaign.create(tmp_path / "c.campaign", load_scenario(DATA / "skirmish.toml"), "Test",
                        options=CampaignOptions(returns_fraction=0.0))   # no dice in the way
    battle = battle_for(c, c.founding_battle())
    path = tmp_path / "b1.berthier"
    f = create_battle(path, Session(battle), campaign_id=c.meta["id"], campaign_battle=1)
    f.close()
    c.close()
    w = open_window(path)
    assert w.open_campaign(tmp_path / "c.campaign")
    dock = w.docks["CampaignDock"]
    assert dock.tree.topLevelItemCount() == 2
    assert len(dock.curves) == 2 and len(dock.curves[0].getData()[0]) == 1
    # the umpire takes a unit off the table, marks another down to 1, books the battle
    uid, hurt = list(w.doc.battle.units)[:2]
    w.doc.execute(ga.StartBattle())
    assert not w.doc.execute(RemoveUnit(uid))           # mid-battle: a correction only
    w.correction_action.trigger()
    assert w.doc.execute(RemoveUnit(uid)) and w.doc.execute(EditUnit(hurt, (("hits", 1),)))
    assert dock.book(force=True)
    assert len(dock.curves[0].getData()[0]) == 2
    army = dock.tree.topLevelItem(0)
    assert int(army.text(2)) > 0                    # the army's losses column

    def row(unit_id):
        return next(army.child(i) for i in range(army.childCount())
                    if army.child(i).data(0, Qt.UserRole) == unit_id)

    assert row(uid).text(0).endswith("(destroyed)") and row(uid).text(5) == "0"
    assert row(hurt).text(5) == "1"
    # replacements for the unit chosen in the ledger, by mouse and keyboard
    qtbot.mouseClick(dock.tree.viewport(), Qt.LeftButton, pos=dock.tree.visualItemRect(row(hurt)).center())
    dock.points.selectAll()
    qtbot.keyClicks(dock.points, "2")
    qtbot.mouseClick(dock.reinforce_btn, Qt.LeftButton)
    army = dock.tree.topLevelItem(0)
    assert row(hurt).text(4) == "2" and row(hurt).text(5) == "3"
    # the destroyed unit takes none, and the dialog says why
    qtbot.mouseClick(dock.tree.viewport(), Qt.LeftButton, pos=dock.tree.visualItemRect(row(uid)).center())
    qtbot.mouseClick(dock.reinforce_btn, Qt.LeftButton)
    assert "destroyed" in w.last_error.text()


def test_save_a_command_to_the_library_and_set_it_down_as_one_step(open_window, qtbot):
    w = open_window()
    b = w.doc.battle
    uid = next(iter(b.units))
    cid = b.hierarchy.command_of(uid)
    w.doc.select([uid])
    assert w.library.save("command", "Brigade A") == "Brigade A"
    n_units, n_steps = len(b.units), w.doc.undo_stack.count()
    # over the enemy's own lines it cannot stand: refused whole, nothing left behind
    centre = w.doc.battle.units[uid]
    w.view.zoom_by(4)                          # close in, so the view can be centred anywhere
    w.view.centerOn(centre.x, centre.y)
    assert not w.library.add("Brigade A", side=b.commands[cid].side)
    assert len(w.doc.battle.units) == n_units and w.doc.undo_stack.count() == n_steps
    # in open ground at the middle of the table it goes down, one undo step
    w.view.centerOn(b.battlefield.width / 2, b.battlefield.height - 4.5)
    assert w.library.add("Brigade A", side=b.commands[cid].side), w.statusBar().currentMessage()
    added = len(w.doc.battle.units) - n_units
    assert added == len(b.hierarchy.units_of(cid)) and w.doc.undo_stack.count() == n_steps + 1
    qtbot.keyClick(w, Qt.Key_Z, Qt.ControlModifier)
    assert len(w.doc.battle.units) == n_units
