"""Where a quick-play question meets no terrain that matters to it: boxes first.

Most moves and lines of sight on an open table pass no costly ground, no river, no road,
no wood or town; shapely's intersections then answer "nothing" (a length of 0.0, no
crossing, not on a road). A box (the ground a move sweeps, a line's) that meets no box
of those features gets the same answer without a shape built: a shape lies inside its
box, so shapes whose boxes are apart cannot meet.
"""
from __future__ import annotations

from ...geometry import per_battlefield
from ...table_terrain import ROAD_WIDTH, table_terrain

PAD = 1e-3                    # inches the boxes are widened by: far more than any rounding


class FeatureBoxes:
    """The boxes (min x, min y, max x, max y) of a battlefield's features, by kind."""

    def __init__(self, battlefield):
        t = table_terrain(battlefield)
        self.areas: dict[str, list] = {}
        for kind, shape, _ in t.pieces:
            self.areas.setdefault(kind, []).append(shape.bounds)
        # a line by the boxes of its straight pieces (a long road's one box would
        # cover half the table): whatever meets the line meets one of them
        self.lines = {kind: [_box(p, q) for _, g in found for p, q in _pieces(g)]
                      for kind, found in t.lines.items()}
        # each road's line widened by the road's width: the ground counted as on a road
        # is the union of these (a path on it has its every point in one of them)
        w = ROAD_WIDTH
        self.roads = [(x0 - w, y0 - w, x1 + w, y1 + w)
                      for x0, y0, x1, y1 in self.lines.get("road", ())]


feature_boxes = per_battlefield(FeatureBoxes)


def _pieces(line) -> list:
    parts = getattr(line, "geoms", [line])          # a multi-line: each of its lines
    return [pq for part in parts for pq in zip(part.coords[:-1], part.coords[1:])]


def _box(p, q) -> tuple:
    return min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])


def _meets(p, q) -> bool:
    return p[0] <= q[2] + PAD and q[0] <= p[2] + PAD and p[1] <= q[3] + PAD and \
        q[1] <= p[3] + PAD


def clear(battlefield, box, areas=(), lines=(), road: bool = False) -> bool:
    """Does `box` meet no box of an area of the `areas` kinds, of a line of the `lines`
    kinds, nor (with `road`) of the ground counted as on a road?"""
    f = feature_boxes(battlefield)
    if road and any(_meets(b, box) for b in f.roads):
        return False
    return not any(_meets(b, box) for k in areas for b in f.areas.get(k, ())) and \
        not any(_meets(b, box) for k in lines for b in f.lines.get(k, ()))


def box_of(points) -> tuple:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)
