"""Starting the app, opening and saving files, the title bar and the screenshot command."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from conftest import DATA, ROOT


def test_first_start_opens_austerlitz_then_the_last_battle(qtbot, tmp_path):
    from ui.app import make_window
    w = make_window()
    qtbot.addWidget(w)
    assert w.doc.battle.info.name == "Austerlitz"
    # 163 units, Davout's 13 still on the Raigern road (they arrive during the morning)
    assert len(w.scene.units) == len(w.doc.battle.units) == 150
    assert len(w.doc.battle.all_units()) == 163
    assert w.open_path(DATA / "skirmish.toml")
    w.close()
    again = make_window()
    qtbot.addWidget(again)
    assert again.doc.path.name == "skirmish.toml"
    assert [Path(p).name for p in again.settings.recent()][:2] == ["skirmish.toml", "austerlitz.toml"]


@pytest.mark.parametrize("content", [b"\x00\x01\x02 not toml \xff", b"[scenario]\nname = 3\n",
                                     b"[scenario]\nname = 'x'\nruleset = 'morschauser'\n[table]\nwidth = -4\n"])
def test_a_bad_file_gets_a_dialog_and_the_open_battle_is_untouched(open_window, tmp_path, content):
    w = open_window()
    doc, fp = w.doc, w.doc.battle.fingerprint()
    bad = tmp_path / "broken.toml"
    bad.write_bytes(content)
    assert not w.open_path(bad)
    assert w.last_error is not None and "broken.toml" in w.last_error.text()
    assert "Traceback" not in w.last_error.text()
    assert w.doc is doc and w.doc.battle.fingerprint() == fp
    assert bad.read_bytes() == content


def test_title_marks_unsaved_changes_and_save_clears_it(open_window, qtbot, tmp_path):
    from manager.scenario_io import load_scenario
    w = open_window()
    assert w.windowTitle().startswith("skirmish.toml[*]") and not w.isWindowModified()
    qtbot.keyClick(w.view, Qt.Key_A, Qt.ControlModifier)        # select all units
    qtbot.keyClick(w.view, Qt.Key_Q)                            # turn them all left
    assert w.isWindowModified()
    out = tmp_path / "mine.toml"
    assert w._write(out)
    assert not w.isWindowModified() and w.windowTitle().startswith("mine.toml")
    assert load_scenario(out).units["b1-inf1"].facing == 45
    assert "mine.toml" in [a.text() for a in w.recent_menu.actions()]


def test_screenshot_command_writes_a_png_of_the_window(tmp_path, qapp):
    from ui.app import main
    out = tmp_path / "shot.png"
    assert main(["screenshot", str(DATA / "skirmish.toml"), str(out), "--size", "800x600"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (800, 600)
    # the table colour is on the picture, so the battlefield was painted
    colours = {img.pixelColor(x, y).name() for x in range(0, 800, 20) for y in range(0, 600, 20)}
    assert "#cfe0a8" in colours


def test_headless_subcommands_still_run_through_the_same_entry(capsys):
    from ui.app import main
    assert main(["check", str(ROOT / "scenarios" / "austerlitz.toml")]) == 0
    assert "Austerlitz" in capsys.readouterr().out
