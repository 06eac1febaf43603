"""Issue 17, thirteenth session: the d3 commander deciding the same with less work.

- `ride_spots.SpotsMixin._target_row`: what the look-ahead reads of a target alone (its
  base, the front's corner angle, the bearings off its facing, the blow's worths; None
  when cavalry may not reach it), kept for the very unit record, info and battlefield.
"""
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _fresh_row(c, e):
    """_target_row worked out afresh, as `_candidates` did before it was kept."""
    import math

    from manager.footprint import EPS
    from manager.rules.d3.units import footprint
    if not c._chargeable(e):
        return None
    fp = footprint(c.battle, e)
    return (fp, math.degrees(math.atan2(fp.frontage / 2, fp.depth / 2)) + EPS,
            [e.facing + 90, e.facing + 180, e.facing + 270], c._blow_worths(e))


def test_d3_target_row_follows_the_record_the_info_and_the_ground():
    """A moved or hit target (a new record), a new frontage_scale or flank_doubling (a
    new info) and a target in a wood (not chargeable) each get their own answer."""
    from builders import build_table, piece, rect
    from manager.rules.d3.commander import Commander
    b = build_table([piece("h", "blue", "light_cavalry", (10, 30)),
                     piece("k", "red", "line_infantry", (20, 8)),
                     piece("w", "red", "line_infantry", (35, 12))], "d3",
                    terrain=[rect("woods", 30, 8, 40, 16)])
    c = Commander(b, "blue")
    k = b.units["k"]
    first = c._target_row(k)
    assert first == _fresh_row(c, k) and c._target_row(k) is first
    assert c._target_row(b.units["w"]) is None
    b.update_unit("k", x=22.0, facing=200)
    moved = c._target_row(b.units["k"])
    assert moved == _fresh_row(c, b.units["k"]) and moved[0].x == 22.0
    assert moved[2] == [290, 380, 470]
    b.update_unit("k", hits=b.units["k"].hits - 3)
    hit = c._target_row(b.units["k"])
    assert hit == _fresh_row(c, b.units["k"]) and hit[3] != moved[3]
    b.set_info(replace(b.info, options={**b.info.options, "frontage_scale": 2.0}))
    scaled = c._target_row(b.units["k"])
    assert scaled == _fresh_row(c, b.units["k"]) and scaled[0].frontage == 2 * hit[0].frontage
    flank = "before_modifiers" if b.option("flank_doubling") != "before_modifiers" else \
        "after_modifiers"
    b.set_info(replace(b.info, options={**b.info.options, "flank_doubling": flank}))
    doubled = c._target_row(b.units["k"])
    assert doubled == _fresh_row(c, b.units["k"]) and doubled is not scaled


def test_d3_target_row_in_play(monkeypatch):
    """Every target row asked in 2 Austerlitz turns is the row worked out afresh (the
    candidates themselves are checked against the plain computation in
    test_d3_speed_commander)."""
    from builders import play_spied
    from manager.rules.d3.ride_spots import SpotsMixin
    kept, seen = SpotsMixin._target_row, {"rows": 0, "none": 0}

    def checked(self, e):
        got = kept(self, e)
        assert got == _fresh_row(self, e)
        seen["rows" if got is not None else "none"] += 1
        return got

    play_spied(monkeypatch, "d3", 2, {(SpotsMixin, "_target_row"): checked})
    assert seen["rows"] > 500 and seen["none"] > 0
