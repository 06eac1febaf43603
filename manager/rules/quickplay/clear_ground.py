"""Where a quick-play question meets no terrain that matters to it: boxes first.

Most moves and lines of sight on an open table pass no costly ground, no river, no road,
no wood or town; shapely's intersections then answer "nothing" (a length of 0.0, no
crossing, not on a road). A box (the ground a move sweeps, a line's) that meets no box
of those features gets the same answer without a shape built: a shape lies inside its
box, so shapes whose boxes are apart cannot meet.
"""
from __future__ import annotations

from ...footprint import distance, segment, swept
from ...geometry import per_battlefield
from ...table_terrain import ROAD_WIDTH, table_terrain
from . import units as _units
from .tables import BROKEN, DIFFICULT, IMPASSABLE, STREAM_COST

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
    if road and _meets_any((f.roads,), box):
        return False
    return not _meets_any([f.areas.get(k, ()) for k in areas], box) and \
        not _meets_any([f.lines.get(k, ()) for k in lines], box)


def _meets_any(groups, q) -> bool:
    """Does box q meet (`_meets`) any box of these groups? `_meets`' test in line, with
    q's padded sides worked out once (~23,000 boxes asked in 8 Austerlitz turns)."""
    q0, q1, q2, q3 = q[0], q[1], q[2] + PAD, q[3] + PAD
    for found in groups:
        for p in found:
            if p[0] <= q2 and q0 <= p[2] + PAD and p[1] <= q3 and q1 <= p[3] + PAD:
                return True
    return False


def box_of(points) -> tuple:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def move_cost(battle, unit, start, end) -> tuple[float, str, bool]:
    """`move_ground.measured_cost` (extra inches, refusal, on road) with shapes built and asked
    only of the features whose boxes meet the box of both bases (the hull of the move
    and its path of centres lie in it): a lake, wood or town elsewhere on the table
    adds nothing to the answer, and a big hill (not costly) is never measured."""
    arm, irregular, is_skirmish = _units.arm, _units.irregular, _units.is_skirmish
    bf = battle.battlefield
    f = feature_boxes(bf)
    box = box_of(start.corners() + end.corners())
    near = {k for k, found in f.areas.items() if any(_meets(b, box) for b in found)}
    t = table_terrain(bf)
    path = segment(start.centre, end.centre) if distance(start.centre, end.centre) > 1e-9 \
        else None
    hull = []

    def at(kind) -> bool:                        # kind in t.kinds_at(hull)
        if kind not in near:
            return False
        if not hull:
            hull.append(swept(start, end))
        h, area = hull[0], t.areas[kind]
        return area.intersects(h) and area.intersection(h).area + (0 if h.area else 1) > 1e-6

    if any(at(k) for k in IMPASSABLE):
        return 0.0, "lakes cannot be entered", False
    road = path is not None and any(_meets(b, box) for b in f.roads) and t.along_road(path)
    if path is None or road:
        return 0.0, "", road
    loose = irregular(unit) or is_skirmish(unit)
    difficult = t.length_inside(path, DIFFICULT) if any(at(k) for k in DIFFICULT) else 0.0
    if difficult and not (loose or (arm(unit) == "infantry" and unit.formation == "column")):
        return 0.0, "only irregulars, skirmishers and infantry columns enter difficult ground", road
    broken = t.length_inside(path, BROKEN) if near & set(BROKEN) else 0.0
    extra = difficult + (0.0 if loose else broken)
    lines = [k for k in ("stream", "river") if any(_meets(b, box) for b in f.lines.get(k, ()))]
    for feature, p in (t.crossings(path, tuple(lines)) if lines else ()):
        crossing = t.crossing_at(p)
        if feature.kind == "river" and not crossing:
            return 0.0, f"{feature.name or 'the river'} is crossed only at a bridge or ford", road
        if crossing != "bridge":
            extra += STREAM_COST
    return extra, "", road
