"""Plain-arithmetic answers about rectangles and convex polygons, for the footprint's
questions "do these bases share more than a sliver?" and "are they more than so far
apart?", without building shapely shapes.

Every answer here is either certain or None. The exact area of two convex polygons'
intersection (clipping, then the shoelace formula) agrees with shapely's to about 1e-14
square inches (tests/manager/test_convex.py); an answer is given only with `MARGIN` to
spare, so whenever one is given shapely would have said the same (but where shapely's
overlay itself fails on near-coincident edges), and the results of the game cannot
change. None sends the caller to the exact rational answer (exact_clip_area).

A rectangle is given by its frame: (fx, fy, half depth, half frontage, corners), the
unit vector of its facing, its half sizes and its four corners in turning order.
"""
from __future__ import annotations

import math
from fractions import Fraction

MARGIN = 1e-9


def separation(a, ax: float, ay: float, b, bx: float, by: float) -> float:
    """The largest gap between the rectangles' projections on their four axes (negative:
    the overlap on the axis where they overlap least). Rectangles are convex, so they
    meet iff it is <= 0; when positive it is a lower bound of their distance."""
    afx, afy, ahd, ahf = a[0], a[1], a[2], a[3]
    bfx, bfy, bhd, bhf = b[0], b[1], b[2], b[3]
    dx, dy = bx - ax, by - ay
    cab = abs(afx * bfx + afy * bfy)             # |cos| of the angle between the bases
    sab = abs(afx * bfy - afy * bfx)             # |sin| of it
    return max(abs(afx * dx + afy * dy) - (ahd + bhd * cab + bhf * sab),
               abs(-afy * dx + afx * dy) - (ahf + bhd * sab + bhf * cab),
               abs(bfx * dx + bfy * dy) - (bhd + ahd * cab + ahf * sab),
               abs(-bfy * dx + bfx * dy) - (bhf + ahd * sab + ahf * cab))


def span(a, b) -> float:
    """The smaller of the two rectangles' diagonals: no common part is longer."""
    return 2 * min(math.hypot(a[2], a[3]), math.hypot(b[2], b[3]))


def area_above(a, ax, ay, b, bx, by, area: float):
    """Is the area the rectangles share above `area`? True/False when certain, else None."""
    sep = separation(a, ax, ay, b, bx, by)
    # the common part lies in a slab as wide as the least overlap of the projections
    if sep >= 0 or -sep * span(a, b) < area / 2:
        return False
    # most bases asked overlap deep: a disc inside both holds more than `area` (pi r^2 >
    # 3 r^2 > area + SURE, so the clipped area, within ~1e-11 of the true one, is above
    # area + MARGIN: the answer below would be True too), with no shape clipped
    px, py = common_point(a, ax, ay, b, bx, by, 0.02 + math.sqrt(max(area, 0.0)))
    r = min(depth(a, ax, ay, px, py), depth(b, bx, by, px, py))
    if r > 0 and 3 * r * r > area + SURE:
        return True
    return _decide(clip_area(a[4], b[4]), area)


SURE = 1e-6     # square inches: far above the rounding of a depth or a clipped area


def common_point(a, ax, ay, b, bx, by, inset: float) -> tuple:
    """A point likely deep inside both rectangles where they overlap deep: the middle of
    their centres moved into `a` shrunk by `inset`, then into `b` shrunk by it (a step of
    alternating projections). Its depth in each (`depth`) says how deep it is."""
    px, py = _into(a, ax, ay, (ax + bx) / 2, (ay + by) / 2, inset)
    return _into(b, bx, by, px, py, inset)


def _into(f, cx, cy, px, py, inset: float) -> tuple:
    """The point of rectangle f (centre cx, cy) shrunk by `inset` nearest (px, py)."""
    fx, fy, hd, hf = f[0], f[1], f[2] - inset, f[3] - inset
    dx, dy = px - cx, py - cy
    s, t = fx * dx + fy * dy, fx * dy - fy * dx
    s = -hd if s < -hd else hd if s > hd else s
    t = -hf if t < -hf else hf if t > hf else t
    return cx + s * fx - t * fy, cy + s * fy + t * fx


def depth(f, cx, cy, px, py) -> float:
    """How far inside rectangle f (centre cx, cy) the point lies (negative: outside)."""
    fx, fy = f[0], f[1]
    dx, dy = px - cx, py - cy
    return min(f[2] - abs(fx * dx + fy * dy), f[3] - abs(fx * dy - fy * dx))


def gap_above(a, ax, ay, b, bx, by, inches: float):
    """Is the edge-to-edge distance of the rectangles above `inches` (>= 0)? True/False
    when certain, else None. Overlapping on every axis means meeting: distance 0."""
    sep = separation(a, ax, ay, b, bx, by)
    if sep < -MARGIN:
        return False
    if sep > inches + MARGIN:
        return True
    return None


def _decide(value, threshold: float):
    if value is None:
        return None
    if value > threshold + MARGIN:
        return True
    if value < threshold - MARGIN:
        return False
    return None


def hull(points) -> list:
    """The convex hull of the points, anticlockwise in x-right, y-up terms (monotone
    chain); collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, p, q):
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def clip_area(subject, clipper):
    """The area of the intersection of two convex polygons (vertex sequences, either
    turning order), or None when the clipper has no area to clip by."""
    n = len(clipper)
    turn = 0.0
    for i in range(n):
        (x1, y1), (x2, y2) = clipper[i - 1], clipper[i]
        turn += x1 * y2 - x2 * y1
    if n < 3 or abs(turn) < 1e-9:
        return None
    return _area(_clip(list(subject), clipper, 1.0 if turn > 0 else -1.0), 0.0)


def exact_clip_area(subject, clipper) -> Fraction:
    """clip_area in exact rational arithmetic on the very floats of the corners: the
    knife-edge answer, where a float rounding (or GEOS's overlay, which gave two squares
    touching along an edge the whole of one as their common area) could flip it."""
    pts = [(Fraction(x), Fraction(y)) for x, y in subject]
    clip = [(Fraction(x), Fraction(y)) for x, y in clipper]
    turn = _area(clip, Fraction(0), signed=True)
    if len(clip) < 3 or turn == 0:
        return Fraction(0)                      # no area to clip by: nothing in common
    return _area(_clip(pts, clip, 1 if turn > 0 else -1), Fraction(0))


def _clip(pts: list, clipper, sgn) -> list:
    """`pts` cut by each edge of the convex clipper in turn (sgn: its turning order), in
    whatever numbers the corners are (floats, or Fractions for the exact answer)."""
    for i in range(len(clipper)):
        if not pts:
            return pts
        (ax, ay), (bx, by) = clipper[i - 1], clipper[i]
        ex, ey = bx - ax, by - ay
        out = []
        px, py = pts[-1]
        ps = (ex * (py - ay) - ey * (px - ax)) * sgn
        for qx, qy in pts:
            qs = (ex * (qy - ay) - ey * (qx - ax)) * sgn
            if qs >= 0:
                if ps < 0:
                    t = ps / (ps - qs)
                    out.append((px + t * (qx - px), py + t * (qy - py)))
                out.append((qx, qy))
            elif ps >= 0:
                t = ps / (ps - qs)
                out.append((px + t * (qx - px), py + t * (qy - py)))
            px, py, ps = qx, qy, qs
        pts = out
    return pts


def _area(pts, zero, signed: bool = False):
    """The shoelace formula, summed from `zero` (0.0, or Fraction(0) to stay exact)."""
    a = zero
    for i in range(len(pts)):
        (x1, y1), (x2, y2) = pts[i - 1], pts[i]
        a += x1 * y2 - x2 * y1
    return a if signed else abs(a) / 2


def hull_area_above(slabs, corners, fp, fcorners, fframe, area: float):
    """Is the area a convex hull (its `slabs`: (ux, uy, lo, hi) projections on a few
    axes, and its `corners`) shares with a rectangle above `area`?"""
    ffx, ffy, fhd, fhf = fframe[0], fframe[1], fframe[2], fframe[3]
    reach = 2 * math.hypot(fhd, fhf)
    x, y = fp
    for ux, uy, lo, hi in slabs:
        c = x * ux + y * uy
        half = fhd * abs(ffx * ux + ffy * uy) + fhf * abs(ffy * ux - ffx * uy)
        if (min(hi, c + half) - max(lo, c - half)) * reach < area / 2:
            return False
    return _decide(clip_area(fcorners, corners), area)


def slabs(points, axes) -> list:
    """[(ux, uy, lo, hi)]: the points' projections on each unit axis."""
    out = []
    for ux, uy in axes:
        ps = [x * ux + y * uy for x, y in points]
        out.append((ux, uy, min(ps), max(ps)))
    return out
