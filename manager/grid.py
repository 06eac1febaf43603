"""Square-grid arithmetic for gridded rulesets: boxes, the eight directions, distances.

Positions live in inches on the model; a grid of `size` inches maps them to boxes
(col, row), col growing east and row growing south, like the screen. Facing is one
of eight directions, index 0 = north, clockwise in 45 degree steps.
"""
from __future__ import annotations

import math
from functools import lru_cache

Box = tuple[int, int]

DIRS: tuple[Box, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def dir_of_degrees(degrees: float) -> int:
    d = _DIR_OF_DEGREES.get(degrees)         # the grid's facings: a lookup
    return d if d is not None else int(round((degrees % 360) / 45.0)) % 8


_DIR_OF_DEGREES = {a: (a // 45) % 8 for a in range(-360, 721, 45)}



def step(box: Box, d: int) -> Box:
    dx, dy = DIRS[d % 8]
    return box[0] + dx, box[1] + dy


def turn_steps(a: int, b: int) -> int:
    """How many 45 degree turns take facing a to facing b."""
    diff = (b - a) % 8
    return min(diff, 8 - diff)


def box_distance(a: Box, b: Box) -> float:
    """Boxes counted as the rules do: 1 along a row or column, 1.5 on the diagonal."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if dx < dy:                                   # (longer - diagonal) + 1.5 diagonal
        return (dy - dx) + 1.5 * dx
    return (dx - dy) + 1.5 * dy



def direction_to(a: Box, b: Box) -> int:
    """The one of eight directions nearest the bearing from box a to box b."""
    key = (b[0] - a[0], b[1] - a[1])
    d = _DIRECTION.get(key)
    if d is None:                                 # remembered per offset: asked very often
        dx, dy = key
        d = 0 if dx == 0 and dy == 0 else dir_of_degrees(math.degrees(math.atan2(dx, -dy)))
        if len(_DIRECTION) > 1 << 16:
            _DIRECTION.clear()
        _DIRECTION[key] = d
    return d


_DIRECTION: dict[Box, int] = {}


def front_boxes(box: Box, facing: int) -> tuple[Box, Box, Box]:
    """The three boxes to a unit's front: its zone of control."""
    return step(box, facing - 1), step(box, facing), step(box, facing + 1)


def in_front_arc(box: Box, facing: int, target: Box, half_angle: float = 45.0) -> bool:
    """True when target lies within half_angle degrees either side of the facing."""
    dx, dy = target[0] - box[0], target[1] - box[1]
    if dx == 0 and dy == 0:
        return False
    if half_angle == 45:
        # exact in integers: cos(angle) >= 1/sqrt(2)  <=>  2 dot^2 >= |f|^2 |t|^2, dot >= 0
        fx, fy = DIRS[facing % 8]
        dot = fx * dx + fy * dy
        return dot >= 0 and 2 * dot * dot >= (fx * fx + fy * fy) * (dx * dx + dy * dy)
    bearing = math.degrees(math.atan2(dx, -dy)) % 360
    diff = abs((bearing - facing * 45 + 180) % 360 - 180)
    return diff <= half_angle + 1e-9


def line_boxes(a: Box, b: Box) -> tuple[Box, ...]:
    """Boxes whose interior the line from centre to centre crosses, ends excluded.

    Exact: a line that only touches a box at a corner does not pass through it, so a
    diagonal shot is not blocked by the units beside the diagonal. The boxes depend only
    on the offset from a to b (a grid line is a grid line wherever it is drawn), so they
    are worked out once per offset and moved to a.
    """
    ax, ay = a
    return tuple((ax + c, ay + r) for c, r in line_offsets(b[0] - ax, b[1] - ay))


@lru_cache(maxsize=16384)
def line_offsets(dx: int, dy: int) -> tuple[Box, ...]:
    """line_boxes((0, 0), (dx, dy)): the boxes a line crosses, by their offset from its start."""
    if abs(dx) < abs(dy):                         # walk the longer axis
        return tuple((c, r) for r, c in line_offsets(dy, dx))
    return _column_walk(dx, dy)


def _column_walk(dx: int, dy: int) -> tuple[Box, ...]:
    """The boxes from (0, 0) to (dx, dy), |dy| <= |dx|, column by column, in whole
    numbers. Along the line, t counts half-columns from the start (0) to the end (2n,
    n = |dx|); the column edges fall at t = 1, 3, ..., 2n - 1. The line's y there is
    (n + dy t) / 2n, so in units of 1/2n every y is whole and a corner touch is told
    exactly: a box's row r is crossed when its open span (2n r, 2n (r + 1)) meets the
    open span of y in the column. (The float walk this replaced needed tolerances for
    the touches; the tests hold the two equal.)"""
    n = dx if dx > 0 else -dx
    if n == 0:
        return ()
    sx, den = (1 if dx > 0 else -1), 2 * n
    if dy == 0:
        return tuple((sx * k, 0) for k in range(1, n))
    out = []
    ya = n                                        # y at the start, in 1/den
    for k in range(n + 1):
        yb = n + dy * (2 * k + 1 if k < n else den)
        c = sx * k
        if dy > 0:
            rows = range(ya // den, (yb - 1) // den + 1)
        else:
            rows = range((ya - 1) // den, yb // den - 1, -1)
        for r in rows:
            out.append((c, r))
        ya = yb
    return tuple(out[1:-1])                       # the ends' own boxes are not crossed


class Grid:
    """A square grid of `size` inch boxes laid over a table of width x height inches."""

    __slots__ = ("size", "cols", "rows")

    def __init__(self, size: float, width: float, height: float):
        self.size = float(size)
        self.cols = int(math.floor(width / size + 1e-9))
        self.rows = int(math.floor(height / size + 1e-9))

    def box_of(self, x: float, y: float) -> Box:
        return int(math.floor(x / self.size)), int(math.floor(y / self.size))

    def centre(self, box: Box) -> tuple[float, float]:
        return ((box[0] + 0.5) * self.size, (box[1] + 0.5) * self.size)

    def contains(self, box: Box) -> bool:
        return 0 <= box[0] < self.cols and 0 <= box[1] < self.rows

    def boxes(self):
        for r in range(self.rows):
            for c in range(self.cols):
                yield (c, r)
