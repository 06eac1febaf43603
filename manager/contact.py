"""Where a charging base first touches its target: `contact_scan.contact_point`, the very
same floats, with most of its shapely distances replaced by arithmetic.

The bisection (28 halvings) asks "are the bases more than EPS apart?" each time; every
inch ruleset's charge asks it, and d3's cavalry look-ahead for hundreds of spots a turn.
The rulesets call this one; `contact_scan.contact_point` stays the reference it falls back to.
For two rectangles the separating-axis gap s (the largest separation of their
projections on the four axes of the two bases) bounds the true gap g:
s <= g <= sqrt(2) * s when s > 0 (the bases' difference is a convex polygon whose edge
normals turn by at most 90 degrees: its sides moved out by s stay within sqrt(2) * s
of it), and g = 0 when s <= 0. So g > EPS is certain when s > EPS and certainly false
when s < EPS / sqrt(2), each with a margin far above the rounding of either; only the
last few halvings, where s falls between, ask shapely. Every decision is the one the
shared function takes, so every answer is its answer (tests/manager/test_d3_speed.py).
"""
from __future__ import annotations

import math
from functools import lru_cache

from .contact_scan import contact_point as shared_contact_point
from .footprint import EPS, Footprint, gap, heading

MARGIN = 1e-9                  # inches: far above the rounding of coordinates under 1e4
LOW = EPS / math.sqrt(2)


def _axes(mover: Footprint, target: Footprint, along: float):
    """[(a, b, e)] for the four axes u: separation at d = |d * a - b| - e (a = u.f,
    b = u.(target centre - mover centre), e = both half-widths on u)."""
    fx, fy = heading(along)
    tx, ty = heading(target.facing)
    dx, dy = target.x - mover.x, target.y - mover.y
    mhd, mhf = mover.depth / 2, mover.frontage / 2
    thd, thf = target.depth / 2, target.frontage / 2
    out = []
    for ux, uy in ((fx, fy), (-fy, fx), (tx, ty), (-ty, tx)):
        e = (mhd * abs(ux * fx + uy * fy) + mhf * abs(-ux * fy + uy * fx)
             + thd * abs(ux * tx + uy * ty) + thf * abs(-ux * ty + uy * tx))
        out.append((ux * fx + uy * fy, ux * dx + uy * dy, e))
    return out


def _sublevel(axes, c: float):
    """(lo, hi): the d where the separation max(|d * a - b| - e) is at most c (empty
    when lo > hi), accurate to far below SLACK; None when an axis all but parallel to
    the path (|a| under 1e-4) leaves it unclear."""
    lo, hi = -math.inf, math.inf
    for a, b, e in axes:
        w = e + c
        if abs(a) < 1e-4:
            if abs(a) < 1e-12 and abs(b) <= w - 1e-9:
                continue                         # holds all along the path
            if abs(a) < 1e-12 and abs(b) > w + 1e-9:
                return math.inf, -math.inf       # holds nowhere
            return None
        p, q = (b - w) / a, (b + w) / a
        lo, hi = max(lo, min(p, q)), min(hi, max(p, q))
    return lo, hi


def least_advance(mover: Footprint, target: Footprint, along: float):
    """A lower bound (to within SLACK) of how far `contact_point(mover, target, along)`
    advances the mover's centre when it answers a point: there the bases' gap is at
    most EPS, so their separating-axis separation, never more than the gap, is too;
    this is the least d >= 0 where it is. None when that is unclear (an axis all but
    parallel to the path) or never so (then the bases never meet). For a charge's
    first looks: its cost is at least this advance (and its wheel)."""
    near = _sublevel(_axes(mover, target, along), EPS + MARGIN)
    if near is None or near[0] > near[1]:
        return None
    return max(near[0], 0.0)


SLACK = 1e-9      # inches along the path: far above the rounding of the intervals' ends


@lru_cache(maxsize=8192)
def contact_point(mover: Footprint, target: Footprint, along: float):
    """`contact_scan.contact_point(mover, target, along)`, the same answer (see above; like
    it, the mover is moved faced `along`, whatever its own facing)."""
    axes = _axes(mover, target, along)
    (a0, b0, e0), (a1, b1, e1), (a2, b2, e2), (a3, b3, e3) = axes     # (the four, unrolled)
    fx, fy = heading(along)

    # the separation is convex and piecewise linear in d: where it is surely above EPS
    # or surely below EPS / sqrt(2) is two intervals, worked out once; only the
    # halvings near their ends (within SLACK) measure it, or ask shapely
    near = _sublevel(axes, EPS + MARGIN)         # outside it: apart
    deep = _sublevel(axes, LOW - MARGIN)         # inside it: not apart

    def apart(d: float) -> bool:
        if near is not None and (d < near[0] - SLACK or d > near[1] + SLACK):
            return True
        if deep is not None and deep[0] + SLACK < d < deep[1] - SLACK:
            return False
        s = max(abs(d * a0 - b0) - e0, abs(d * a1 - b1) - e1, abs(d * a2 - b2) - e2,
                abs(d * a3 - b3) - e3)
        if s > EPS + MARGIN:
            return True
        if s < LOW - MARGIN:
            return False
        # (shapely's gap alone: here the bases are within sqrt(2) (EPS + MARGIN) of each
        # other, so surely_apart's first look, asked before it in the shared function,
        # would say no; and it is sound: any "apart" of it is the gap's own answer)
        return gap(mover.moved(mover.x + fx * d, mover.y + fy * d, along), target) > EPS

    far = math.hypot(mover.x - target.x, mover.y - target.y) + mover.frontage + \
        mover.depth + target.frontage + target.depth
    if not apart(0.0):                   # touching from the start: the shared branch
        return shared_contact_point(mover, target, along)
    lo, hi = 0.0, far
    if apart(far):
        # the shared function samples 65 points of the path and bisects up to the first
        # of the closest: the first sample whose bases surely overlap (gap 0), when all
        # before it are surely apart (as all are before the separation can fall to
        # MARGIN: the scan starts a little before that); anything less clear is left
        # to it
        touch = _sublevel(axes, MARGIN)
        first = 0 if touch is None or touch[0] <= 0 else 65 if touch[0] > far else \
            max(0, int((touch[0] - SLACK) / far * 64) - 1)
        for i in range(first, 65):
            d = far * i / 64
            s = max(abs(d * a0 - b0) - e0, abs(d * a1 - b1) - e1, abs(d * a2 - b2) - e2,
                    abs(d * a3 - b3) - e3)
            if s < -MARGIN:
                hi = far * i / 64
                break
            if s <= MARGIN:
                return shared_contact_point(mover, target, along)
        else:
            return shared_contact_point(mover, target, along)
    # the halvings: apart()'s first two looks inline (its interval ends worked out
    # once, the same floats), the function asked only near the ends
    n0, n1 = (near[0] - SLACK, near[1] + SLACK) if near is not None else (math.nan,) * 2
    d0, d1 = (deep[0] + SLACK, deep[1] - SLACK) if deep is not None else (math.nan,) * 2
    for _ in range(28):
        mid = (lo + hi) / 2
        if mid < n0 or mid > n1:                # (NaN: no interval, never true)
            lo = mid
        elif d0 < mid < d1:
            hi = mid
        elif apart(mid):
            lo = mid
        else:
            hi = mid
    return (mover.x + fx * hi, mover.y + fy * hi)
