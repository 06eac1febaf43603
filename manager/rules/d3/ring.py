"""The cavalry look-ahead's ring spots, judged for every target and bearing at once.

`ride_spots.SpotsMixin._candidates` asks, of each spot on a ring round each chargeable
enemy, three plain questions: is it (before rounding) within the reach, is it (rounded
to the hundredth) within the reach, and does it lie off the target's front. Here numpy
answers them for all spots in one pass; where numpy's floats could answer otherwise
than the plain ones (its sin, cos, atan2, hypot and rounding may differ in the last
bit), that is, within SLACK of a bound, of a rounding tie or of the front's corner,
the spot is judged again by the plain code, `plain_spot`. So the very spots, in the
very order, with the very floats (issue 17: pure speed-up, the same orders).
"""
from __future__ import annotations

import math

import numpy as np

from ...footprint import distance, heading

SLACK = 1e-6     # far above the last-bit differences (~1e-12 here) of either way
TIE = 0.5 - 2 * SLACK   # |100 x - rint(100 x)| above this: within SLACK of a half, or near
ROUNDER = 1.5 * 2.0 ** 52   # t + ROUNDER - ROUNDER: t rounded half-even to a whole (|t| < 2^51)


def hundredth(x: float) -> float:
    """round(x, 2), the very float, without its decimal conversions (the commander
    rounds every end it weighs: thousands a turn). round(x, 2) is the float nearest
    k / 100, k the whole nearest the exact 100 x; t = 100 x in floats is within an ulp
    (under 1e-9 for |x| < 1e7) of it, so away from a half (|t - k| <= TIE) the whole
    nearest t is that k, and the float division k / 100 is the nearest float. Near a
    half, and for k = 0 (round keeps the sign of a zero), round itself answers."""
    t = x * 100.0
    k = t + ROUNDER - ROUNDER
    if k and -TIE <= t - k <= TIE:
        return k / 100.0
    return round(x, 2)


def plain_spot(u, e, fp, corner: float, way: float, r: float, reach: float):
    """(spot, off the front?) of the ring spot `r` from `e` along `way`, or None when it
    lies beyond the reach: the look-ahead's own plain floats."""
    hx, hy = heading(way % 360)
    x, y = e.x + hx * r, e.y + hy * r
    if (x - u.x) ** 2 + (y - u.y) ** 2 > (reach + 0.01) ** 2:
        return None                      # rounded, still beyond the reach
    spot = (round(x, 2), round(y, 2))
    if distance(u.pos, spot) > reach:
        return None
    off = abs((math.degrees(math.atan2(spot[0] - fp.x, -(spot[1] - fp.y))) % 360
               - fp.facing) % 360)
    return spot, min(off, 360 - off) > corner


def ring_spots(u, rows: list, rings: tuple, reach: float) -> list:
    """[(spot, row index, off the front?)] of every ring spot within `reach` of the
    unit, in the plain order (row, ring, way). `rows`: (e, fp, corner, ways) per
    target, `ways` the bearings (plain floats) a spot is sought along."""
    if not rows:
        return []
    n = len(rows[0][3])
    ways = np.array([row[3] for row in rows], dtype=float)          # (T, n)
    rad = np.radians(np.mod(ways, 360))
    hx, cy = np.sin(rad), np.cos(rad)            # (the heading is (sin, -cos): y less)
    per = len(rings) * n
    # (one array of the rows' columns, each row repeated: the same floats as one
    # array a column)
    ex, ey, fx, fy, ff, cn = np.array(
        [(e.x, e.y, fp.x, fp.y, fp.facing, corner) for e, fp, corner, _ in rows],
        dtype=float).repeat(per, axis=0).T
    rr = np.array(rings, dtype=float)[None, :, None]
    # (T, rings, n), raveled in the plain loops' order
    x = ex + (hx[:, None, :] * rr).ravel()
    y = ey - (cy[:, None, :] * rr).ravel()      # (a + (-b) is a - b, the same float)
    ux, uy = u.x, u.y
    d2 = (x - ux) ** 2 + (y - uy) ** 2
    far = (reach + 0.01) ** 2
    # the hundredths: rint(100 x) / 100 is round(x, 2) (the nearest float to k / 100)
    # unless 100 x lies within SLACK of a half (|100 x - k| is at most a half: a tie
    # lies above TIE, a little wider, which only sends a few more to the plain code)
    tx, ty = x * 100, y * 100
    kx, ky = np.rint(tx), np.rint(ty)
    tie = (np.abs(tx - kx) > TIE) | (np.abs(ty - ky) > TIE)
    sx, sy = kx / 100, ky / 100
    d = np.hypot(sx - ux, sy - uy)
    a = np.degrees(np.arctan2(sx - fx, fy - sy))              # (-(b - a) is a - b)
    off = np.mod(np.mod(a, 360) - ff, 360)         # (numpy's mod by 360: never below 0)
    side = np.minimum(off, 360 - off)
    flank = side > cn
    near = d2 <= far
    doubt = (np.abs(d2 - far) <= SLACK) | (near & (
        tie | (np.abs(d - reach) <= SLACK) | (np.abs(side - cn) <= SLACK)))
    keep = near & (d <= reach)
    out = []
    sxl, syl, flank_l, doubt_l = sx.tolist(), sy.tolist(), flank.tolist(), doubt.tolist()
    for i in np.nonzero(keep | doubt)[0].tolist():
        t = i // per
        if doubt_l[i]:
            e, fp, corner, w = rows[t]
            got = plain_spot(u, e, fp, corner, w[i % n], rings[(i // n) % len(rings)], reach)
            if got is not None:
                out.append((got[0], t, got[1]))
        else:
            out.append(((sxl[i], syl[i]), t, flank_l[i]))
    return out
