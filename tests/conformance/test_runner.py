"""The runner itself: it must fail a case that leaves dice unused or wants more, read
refusals, place units relative to others, and say what the text and the engine did."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.casebuild import build_battle
from conformance.runner import Case, Finding, run_case


def _case(**over):
    data = {"id": "t", "clause": "Infantry 2 dice 5,6", "says": "one hit",
            "start": {"side": "blue", "phase": "fire"},
            "units": [{"id": "A", "side": "blue", "kind": "line_infantry", "at": [3, 4],
                       "facing": "E"},
                      {"id": "B", "side": "red", "kind": "line_infantry", "at": [5, 4],
                       "facing": "W"}],
            "steps": [{"action": "fire", "unit": "A", "target": "B", "dice": [5, 4]}],
            "expect": {"B": {"lost": 1}}}
    data.update(over)
    return Case("morschauser", data, Path("<test>"))


def test_a_case_passes():
    run_case(_case())


def test_unused_dice_fail():
    c = _case(steps=[{"action": "fire", "unit": "A", "target": "B", "dice": [5, 4, 6]}])
    with pytest.raises(Finding, match=r"left dice unused: \[6\]"):
        run_case(c)


def test_too_few_dice_fail():
    c = _case(steps=[{"action": "fire", "unit": "A", "target": "B", "dice": [5]}])
    with pytest.raises(Finding, match="asked for 2D6"):
        run_case(c)


def test_a_wrong_expectation_reads_as_a_finding():
    c = _case(expect={"B": {"lost": 2}})
    with pytest.raises(Finding) as err:
        run_case(c)
    text = str(err.value)
    assert "morschauser::t" in text and "Infantry 2 dice 5,6" in text
    assert "the text says: one hit" in text and "B has lost 1, the text: 2" in text


def test_refusals():
    far = [{"id": "A", "side": "blue", "kind": "line_infantry", "at": [0, 4], "facing": "E"},
           {"id": "B", "side": "red", "kind": "line_infantry", "at": [9, 4], "facing": "W"}]
    run_case(_case(units=far, expect={}, steps=[
        {"action": "fire", "unit": "A", "target": "B", "expect_refused": "range"}]))
    with pytest.raises(Finding, match="does not say 'elephants'"):
        run_case(_case(units=far, expect={}, steps=[
            {"action": "fire", "unit": "A", "target": "B", "expect_refused": "elephants"}]))
    with pytest.raises(Finding, match="which the text forbids"):
        run_case(_case(expect={}, steps=[
            {"action": "fire", "unit": "A", "target": "B", "expect_refused": "range"}]))


def test_relative_placement_in_inches():
    data = {"id": "p", "units": [
        {"id": "A", "side": "blue", "kind": "line_infantry", "pos": [20, 20], "facing": "N"},
        {"id": "B", "side": "red", "kind": "line_infantry",
         "facing_unit": {"unit": "A", "gap": 6.0}},
        {"id": "C", "side": "red", "kind": "line_infantry",
         "flank_of": {"unit": "A", "gap": 2.0, "side": "right"}},
        {"id": "D", "side": "red", "kind": "line_infantry", "rear_of": {"unit": "A", "gap": 1.0}}]}
    b = build_battle("d3", data)
    a, bb, c, d = (b.units[k] for k in "ABCD")
    assert (bb.x, bb.facing) == (20, 180) and bb.y == pytest.approx(20 - 0.5 - 6 - 0.5)
    assert c.facing == 270 and c.y == pytest.approx(20) and c.x == pytest.approx(20 + 2 + 2 + 0.5)
    assert d.facing == 0 and d.y == pytest.approx(20 + 0.5 + 1 + 0.5)


def test_grid_placement_and_terrain_boxes():
    data = {"id": "g", "table": [10, 6], "units": [
        {"id": "A", "side": "blue", "kind": "line_infantry", "at": [3, 2], "facing": "E"},
        {"id": "B", "side": "red", "kind": "line_infantry",
         "facing_unit": {"unit": "A", "gap": 1}}],
        "terrain": [{"kind": "woods", "boxes": [[6, 1], [6, 2], [7, 2]]}]}
    b = build_battle("morschauser", data)
    assert (b.units["B"].x // 3, b.units["B"].y // 3, b.units["B"].facing) == (5, 2, 270)
    from manager.geometry import terrain_index
    idx = terrain_index(b.battlefield)
    assert {box for box in [(6, 1), (6, 2), (7, 2), (7, 1)] if "woods" in idx.at(box).kinds} \
        == {(6, 1), (6, 2), (7, 2)}
    assert b.battlefield.width == 30 and "red" in b.sides and "blue-sentinel" not in b.units


def test_side_dice_go_to_the_side_named():
    c = _case(start={"side": "blue", "phase": "melee"},
              units=[{"id": "A", "side": "blue", "kind": "line_infantry", "at": [3, 4]},
                     {"id": "B", "side": "red", "kind": "line_infantry", "at": [4, 4],
                      "facing": "W"}],
              steps=[{"action": "melee", "attackers": ["A"], "defenders": ["B"],
                      "dice": {"red": [6, 6, 6, 6, 6], "blue": [1, 1, 1, 1, 1]}}],
              expect={"B": {"lost": 5}, "A": {"lost": 0}})
    run_case(c)
