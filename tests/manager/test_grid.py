"""Grid arithmetic the rules rest on."""
import pytest

from manager.grid import box_distance, direction_to, front_boxes, in_front_arc, line_boxes


@pytest.mark.parametrize("a,b,d", [((0, 0), (3, 0), 3), ((0, 0), (2, 2), 3.0), ((0, 0), (3, 1), 3.5),
                                   ((5, 5), (5, 5), 0)])
def test_diagonal_counts_one_and_a_half(a, b, d):
    assert box_distance(a, b) == d


def test_zone_of_control_is_the_three_boxes_to_the_front():
    assert front_boxes((5, 5), 2) == ((6, 4), (6, 5), (6, 6))          # facing east
    assert front_boxes((5, 5), 1) == ((5, 4), (6, 4), (6, 5))          # facing north-east


def test_arc_and_directions():
    assert in_front_arc((0, 0), 2, (3, 3)) and not in_front_arc((0, 0), 2, (1, 3))
    assert direction_to((0, 0), (0, -4)) == 0 and direction_to((0, 0), (-2, 2)) == 5


def test_line_boxes_between_centres():
    assert line_boxes((0, 0), (3, 0)) == ((1, 0), (2, 0))
    assert set(line_boxes((0, 0), (2, 2))) == {(1, 1)}


def test_a_line_touching_only_a_corner_does_not_pass_through_the_box():
    assert line_boxes((0, 0), (3, 1)) == ((1, 0), (2, 1))
    assert line_boxes((0, 0), (0, 1)) == ()


def _clipped(a, b):
    """Reference: clip the segment against every box of the bounding rectangle."""
    x0, y0, x1, y1 = a[0] + 0.5, a[1] + 0.5, b[0] + 0.5, b[1] + 0.5
    dx, dy = x1 - x0, y1 - y0
    out = set()
    for c in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            if (c, r) in (a, b):
                continue
            lo, hi, ok = 0.0, 1.0, True
            for p, q in ((-dx, x0 - c), (dx, c + 1 - x0), (-dy, y0 - r), (dy, r + 1 - y0)):
                if p == 0:
                    ok = ok and q > 0
                    continue
                lo, hi = (max(lo, q / p), hi) if p < 0 else (lo, min(hi, q / p))
            if ok and hi - lo > 1e-9:
                out.add((c, r))
    return out


def test_line_walk_matches_exact_clipping():
    import itertools
    for a in itertools.product(range(0, 4), repeat=2):
        for b in itertools.product(range(-6, 7), repeat=2):
            assert set(line_boxes(a, b)) == _clipped(a, b), (a, b)


def test_the_integer_arc_test_matches_the_angle():
    import math
    for facing in range(8):
        for dx in range(-7, 8):
            for dy in range(-7, 8):
                if dx == dy == 0:
                    continue
                bearing = math.degrees(math.atan2(dx, -dy)) % 360
                diff = abs((bearing - facing * 45 + 180) % 360 - 180)
                assert in_front_arc((0, 0), facing, (dx, dy)) == (diff <= 45 + 1e-9), (facing, dx, dy)
