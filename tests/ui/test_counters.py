"""Issue 21, item 6: at the zoom where all Austerlitz fits, each counter shows its short
designation and its strength (full name on hover); Maida's counters show the strength."""
from __future__ import annotations

from conftest import ROOT
from ui.wording import short_name


def test_short_designations_are_short_and_distinct_on_austerlitz():
    import re
    names = re.findall(r'name = "([^"]*)", kind', (ROOT / "scenarios" / "austerlitz.toml").read_text())
    shorts = [short_name(n) for n in names]
    assert len(set(shorts)) == len(shorts) == 163
    assert short_name("IV Line 5") == "IV Ln5" and short_name("4th Col Foot Battery 2") == "4C FB2"
    assert all(len(s) <= 8 for s in shorts)


def test_every_austerlitz_counter_is_labelled_at_fit_all(open_window):
    w = open_window(ROOT / "scenarios" / "austerlitz.toml", size=(1600, 1000))
    lod = w.view.zoom
    b = w.doc.battle
    for uid, item in w.scene.units.items():
        u = b.units[uid]
        assert item.label_mode(lod) in ("full", "compact"), uid
        text, strength = item.compact_text(lod)
        assert strength == str(u.hits)
        assert text and short_name(u.name).endswith(text)          # the tag may be dropped
        assert u.name in item.toolTip()                               # full name on hover


def test_maida_counters_show_their_strength(open_window):
    w = open_window(ROOT / "scenarios" / "maida.toml", size=(1600, 1000))
    lod = w.view.zoom
    for uid, item in w.scene.units.items():
        mode = item.label_mode(lod)
        assert mode in ("full", "compact")
        if mode == "compact":
            assert item.compact_text(lod)[1] == str(w.doc.battle.units[uid].hits)
