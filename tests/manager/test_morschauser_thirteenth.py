"""Issue 17, thirteenth session: Morschauser's cheaper paths against the code they replaced
(morschauser_refs.py keeps it), on every input of a range and in play."""
import sys
from pathlib import Path

from manager.grid import line_boxes, line_offsets

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from morschauser_refs import ref_line_walk  # noqa: E402


def test_the_whole_number_line_walk_is_the_float_walk_for_every_offset():
    # every offset on a 160 x 160 box table: straight, diagonal, steep and shallow lines,
    # corner touches at every ratio of the offset's sides
    for dx in range(-80, 81):
        for dy in range(-80, 81):
            assert line_offsets(dx, dy) == ref_line_walk((0, 0), (dx, dy)), (dx, dy)


def test_the_line_walk_drawn_anywhere_is_the_float_walk():
    for a in ((0, 0), (3, 7), (-4, 2), (59, 44)):
        for off in ((5, 3), (-7, 2), (1, -9), (6, 6), (0, 4), (-3, 0), (10, -5)):
            b = (a[0] + off[0], a[1] + off[1])
            assert line_boxes(a, b) == ref_line_walk(a, b)
