"""Issue 21, item 13: measuring on an open table. The ruler from a unit (on during the
battle: it changes nothing) and the selected unit's range bands and fire arc."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt

from conftest import ROOT, at, drag
from manager import game_actions as ga

MAIDA = ROOT / "scenarios" / "maida.toml"


def test_the_ruler_from_a_unit_mid_battle(open_window, qtbot):
    w = open_window(MAIDA)
    w.doc.execute(ga.StartBattle())
    assert w.tool_actions["ruler"].isEnabled() and not w.tool_actions["brush"].isEnabled()
    qtbot.keyClick(w.view, Qt.Key_M)
    assert w.view.tool.name == "ruler"
    u = next(iter(w.doc.battle.live_units()))
    before = w.doc.battle.fingerprint()
    end = (u.x + 9, u.y + 12) if u.y + 12 < w.doc.battle.battlefield.height else (u.x + 9, u.y - 12)
    drag(qtbot, w.view.viewport(), at(w, u.x + 0.2, u.y + 0.1), at(w, *end))
    ruler = w.tools["ruler"]
    assert abs(ruler.distance - 15) < 0.3                   # from the unit's centre: 9-12-15
    assert '15.' in ruler.text.text() or '14.9' in ruler.text.text()
    assert w.doc.battle.fingerprint() == before             # measuring changes nothing
    qtbot.keyClick(w.view, Qt.Key_Escape)
    assert ruler.line is None


def test_range_bands_and_arc_of_the_selected_unit(open_window, qtbot):
    w = open_window(MAIDA)
    b = w.doc.battle
    u = next(u for u in b.live_units() if w.doc.ruleset.range_bands(b, u))
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=at(w, u.x, u.y))
    assert w.doc.selection == [u.id]
    ov = w.scene.overlays
    assert ov.band_ranges == w.doc.ruleset.range_bands(b, u)
    rings = [i for i in ov.band_items if hasattr(i, "rect")]
    assert [round(r.rect().width() / 2, 3) for r in rings] == [r for _, r in ov.band_ranges]
    assert not ov.bands.path().isEmpty()                    # the 45-degree arc lines
    far = ov.band_ranges[-1][1]
    p = ov.bands.path().elementAt(1)
    q = ov.bands.path().elementAt(0)
    assert abs(math.hypot(p.x - q.x, p.y - q.y) - far) < 1e-6
    w.doc.select([])
    assert ov.band_items == [] and ov.bands.path().isEmpty()


def test_no_bands_on_a_grid(open_window, qtbot):
    w = open_window()                                       # the skirmish: Morschauser, gridded
    w.doc.select(["b1-art"])
    assert w.scene.overlays.band_items == []
