"""File > Import order of battle: preview, problems by line, sides, one undo step."""
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox

ROOT = Path(__file__).resolve().parents[2]
OOB = ROOT / "tests" / "data" / "oob"

OPEN_FIELD = """
[scenario]
name = "Open field"
ruleset = "morschauser"
turns = 12
first_side = "fr"
[table]
width = 120.0
height = 90.0
grid = 3.0
[[sides]]
id = "fr"
name = "French"
nation = "france"
home_edge = "west"
[[sides.commands]]
id = "picket"
name = "Picket"
leader = { id = "p-l", name = "Picket leader", quality = 3, at = [1, 1] }
units = [{ id = "p1", kind = "light_infantry", at = [0, 0], facing = 90 }]
[[sides]]
id = "au"
name = "Austrians"
nation = "austria"
home_edge = "east"
[[sides.commands]]
id = "outpost"
name = "Outpost"
leader = { id = "o-l", name = "Outpost leader", quality = 3, at = [38, 1] }
units = [{ id = "o1", kind = "light_infantry", at = [39, 0], facing = 270 }]
"""


def test_import_two_listings_preview_problems_and_one_undo_step(open_window, qtbot, tmp_path):
    path = tmp_path / "open_field.toml"
    path.write_text(OPEN_FIELD)
    w = open_window(path)
    before = len(w.doc.battle.units)
    seen = {}

    def press_add(dlg):
        dlg.show()
        qtbot.waitExposed(dlg)
        ok = dlg.buttons.button(QDialogButtonBox.Ok)
        seen["problems"] = [dlg.problems.item(i).text() for i in range(dlg.problems.count())]
        seen["enabled_before"] = ok.isEnabled()          # a listing has an unreadable line
        qtbot.mouseClick(dlg.skip_bad, Qt.LeftButton, pos=QPoint(8, dlg.skip_bad.height() // 2))
        seen["enabled_after"] = ok.isEnabled()
        seen["sides"] = dlg.chosen_sides()
        seen["armies"] = dlg.tree.topLevelItemCount()
        dlg.grab().save(str(tmp_path / "oob_import.png"))
        return True

    files = [str(OOB / "iv_corps_indented.txt"), str(OOB / "allies_messy.txt")]
    assert w.import_oob(files, accept=press_add)
    assert seen["enabled_before"] is False and seen["enabled_after"] is True
    assert any("line 17" in p and "blorps" in p for p in seen["problems"])
    assert seen["sides"] == {"French Army": "fr", "Austrian Army": "au"}    # by nation
    assert seen["armies"] == 2
    added = len(w.doc.battle.units) - before
    assert added == 30                                   # 16 French + 14 Austrian units
    french = [u for u in w.doc.battle.units.values() if u.side == "fr"]
    assert any(u.name == "Baden Jäger" and u.kind == "rifles" and "veteran" in u.traits
               for u in french)
    assert (tmp_path / "oob_import.png").stat().st_size > 5000
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key_Z, Qt.ControlModifier)       # one undo takes it all back
    assert len(w.doc.battle.units) == before


def test_import_refused_whole_when_the_ground_is_taken(open_window, qtbot, tmp_path):
    """A listing set down where the rules refuse it adds nothing and says why."""
    w = open_window()                                    # the skirmish: a town in the middle
    before = dict(w.doc.battle.units)
    refusals = []
    w.doc.refused.connect(refusals.append)
    w.view.centerOn(w.view.sceneRect().center())
    ok = w.import_oob([str(OOB / "iv_corps_indented.txt")], accept=lambda dlg: True)
    if not ok:
        assert dict(w.doc.battle.units) == before and refusals
    else:                                                # room enough: all of it went down
        assert len(w.doc.battle.units) == len(before) + 16
