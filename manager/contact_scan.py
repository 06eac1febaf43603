"""The reference answer to "where does a charging base first touch its target?".

`contact_point` walks the mover's base along its bearing and bisects on the distance
advanced, shapely answering "touching or not" where plain arithmetic cannot. It is
the reference `contact.contact_point` (what the rulesets call) answers exactly like,
falling back on it; tests compare the two (tests/manager/test_d3_speed.py). Kept out
of footprint.py, which holds the bases and the cheap questions asked of them.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely

from . import convex
from .footprint import (EPS, Footprint, _frame, distance, gap, heading, overlap,
                        surely_apart)


def _first_closest(m, t, xs, ys, tx: float, ty: float):
    """For the mover's base (frame `m`) at each centre (xs, ys) against the target's
    (frame `t`, centre tx, ty): the index of the first of the smallest gaps when
    plain arithmetic is certain of it, -1 when every gap is surely above EPS, None when
    only shapely can tell. By separating axes (manager/convex.py): a base overlapping the
    target on every axis meets it (gap 0: the smallest), one apart on an axis has a gap
    of at least that much."""
    mfx, mfy, mhd, mhf = m[0], m[1], m[2], m[3]
    tfx, tfy, thd, thf = t[0], t[1], t[2], t[3]
    dx, dy = tx - xs, ty - ys
    cab, sab = abs(mfx * tfx + mfy * tfy), abs(mfx * tfy - mfy * tfx)
    sep = np.maximum(
        np.maximum(np.abs(mfx * dx + mfy * dy) - (mhd + thd * cab + thf * sab),
                   np.abs(-mfy * dx + mfx * dy) - (mhf + thd * sab + thf * cab)),
        np.maximum(np.abs(tfx * dx + tfy * dy) - (thd + mhd * cab + mhf * sab),
                   np.abs(-tfy * dx + tfx * dy) - (thf + mhd * sab + mhf * cab)))
    margin = convex.MARGIN
    if (sep > EPS + margin).all():
        return -1
    meets = (sep < -margin).nonzero()[0]
    if len(meets) and (sep[:meets[0]] > margin).all():
        return int(meets[0])
    return None


def _advanced(mover: Footprint, along: float, ds) -> np.ndarray:
    """The bases of mover.moved(x + fx * d, y + fy * d, along) for every d in ds, in one
    vectorised call: each corner by the very float operations of Footprint.corners, so
    every polygon is the one its Footprint builds (and every gap the same)."""
    fx, fy = heading(along)
    rx, ry = -fy, fx
    hf, hd = mover.frontage / 2, mover.depth / 2
    xs, ys = mover.x + fx * ds, mover.y + fy * ds
    ring = np.empty((len(ds), 5, 2))
    for k, (a, b) in enumerate(((1, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))):
        ring[:, k, 0] = xs + fx * a * hd + rx * b * hf
        ring[:, k, 1] = ys + fy * a * hd + ry * b * hf
    return shapely.polygons(ring)


@lru_cache(maxsize=8192)
def contact_point(mover: Footprint, target: Footprint, along: float) -> tuple[float, float] | None:
    """Where the mover's centre stands when, advancing from where it is along bearing
    `along`, its base first touches the target's; None if it would never touch.

    Found by bisection on the distance advanced (shapely answers touch or not).
    Remembered (bases are immutable values): a charge's check, its odds and its
    resolution ask the same question.
    """
    fx, fy = heading(along)
    far = distance(mover.centre, target.centre) + mover.frontage + mover.depth + \
        target.frontage + target.depth

    def at(d):
        return mover.moved(mover.x + fx * d, mover.y + fy * d, along)

    tframe = _frame(target)
    mframe = (fx, fy, mover.depth / 2, mover.frontage / 2, None)   # at(d)'s axes, any d
    circles = (math.hypot(mover.frontage, mover.depth) +
               math.hypot(target.frontage, target.depth)) / 2
    tx, ty = target.x, target.y

    def apart_at(d) -> bool:
        """apart(at(d)), asking shapely only what plain arithmetic cannot tell: the
        very floats of surely_apart and at(d), no base built unless shapely is asked."""
        x, y = mover.x + fx * d, mover.y + fy * d
        if math.hypot(x - tx, y - ty) - circles > EPS + 1e-6:        # surely_apart
            return True
        far = convex.gap_above(mframe, x, y, tframe, tx, ty, EPS)
        return gap(at(d), target) > EPS if far is None else far

    def apart(fp) -> bool:
        # gap > EPS, measured only when the bases' circles do not already say so
        if surely_apart(fp, target, EPS):
            return True
        far = convex.gap_above(_frame(fp), fp.x, fp.y, tframe, target.x, target.y, EPS)
        return gap(fp, target) > EPS if far is None else far

    if gap(at(0), target) <= EPS:
        return None if overlap(at(0), target) else mover.centre
    lo, hi = 0.0, far
    # (a gap above EPS means no overlap: the overlap test is only needed when touching)
    if apart(at(hi)):
        # the straight line misses the target: find the closest approach, unless the
        # centre's path never comes near enough for the bases to meet
        px, py = target.x - mover.x, target.y - mover.y
        s = max(0.0, min(far, px * fx + py * fy))
        reach = (math.hypot(mover.frontage, mover.depth) + math.hypot(target.frontage,
                                                                      target.depth)) / 2
        if math.hypot(px - s * fx, py - s * fy) - reach > EPS + 1e-6:
            return None
        ds = far * np.arange(65.0) / 64
        i = _first_closest(mframe, tframe, mover.x + fx * ds, mover.y + fy * ds, tx, ty)
        if i is None:                            # too near to call: shapely measures
            gaps = shapely.distance(_advanced(mover, along, ds), target.polygon())
            i = int(np.argmin(gaps))             # the first of the closest, as min() took
            if gaps[i] > EPS:
                return None
        elif i < 0:
            return None
        hi = far * i / 64
    for _ in range(28):
        mid = (lo + hi) / 2
        if apart_at(mid):
            lo = mid
        else:
            hi = mid
    return (mover.x + fx * hi, mover.y + fy * hi)
