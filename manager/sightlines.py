"""Lines of sight a base surely crosses: for the commanders' pre-checks, all of one
shooter's candidate lines judged against the near bases in one numpy pass.

A separating-axis test of each segment against each rectangle, claiming a crossing only
with `MARGIN` inches to spare on every axis, so that shapely's exact `intersects` cannot
answer otherwise. True means "the rules' line-of-sight scan finds a base in the way";
False means only "maybe not" (the full check decides)."""
from __future__ import annotations

import numpy as np

MARGIN = 1e-6


def surely_crossed(origin, ends, end_ids, blockers, fps, scan_from, reach_extra: float,
                   centre_within: float | None = None) -> list:
    """For each end (x, y) with its unit id: does the segment origin -> end surely cross
    the base of a blocker (unit records, `fps` their footprints) that the rules' scan
    would test? The scan tests a blocker that is neither the shooter (`scan_from`, whose
    id and centre fix the scan's reach) nor the end's own unit, whose centre is within
    the line's length + `reach_extra` of the shooter's centre and (if `centre_within`)
    within that distance of the segment; each bound is kept with MARGIN to spare."""
    if not ends or not blockers:
        return [False] * len(ends)
    ox, oy, facing, depth, front = np.array(
        [(fp.x, fp.y, fp.facing, fp.depth, fp.frontage) for fp in fps], dtype=float).T
    r = np.radians(facing)
    where = {o.id: k for k, o in enumerate(blockers)}
    missing = -1                                    # a key no blocker has
    hits = surely_crossed_arrays(origin, ends, [where.get(eid, missing) for eid in end_ids],
                                 np.arange(len(blockers)), ox, oy, np.sin(r), -np.cos(r),
                                 depth / 2, front / 2, scan_from.pos,
                                 where.get(scan_from.id, missing), reach_extra, centre_within)
    return hits.tolist()


def surely_crossed_arrays(origin, ends, end_keys, keys, ox, oy, fx, fy, hd, hf, scan_xy,
                          scan_key, reach_extra: float, centre_within: float | None = None):
    """`surely_crossed` of blockers given as arrays (centres ox, oy, facing unit vectors
    fx, fy, half depths hd, half frontages hf, and integer `keys` naming them, compared
    with `end_keys` and the shooter's `scan_key`): for callers that keep the bases in
    arrays. A numpy bool per end.

    The separating-axis test, the line's own normal first over every pair (a base
    reaches across the line no farther than its half diagonal: few pairs are left),
    then the scan's bounds and the other axes on the pairs left only: each pair's
    answer by the same element-wise arithmetic as over the whole table of pairs."""
    m = MARGIN
    n = len(ends)
    out = np.zeros(n, dtype=bool)
    if not n or not len(ox):
        return out
    ax, ay = origin
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    # a line no longer than MARGIN is never claimed: the others only (so no length is
    # zero, nothing is divided by it, and no errstate context is needed)
    live = (lengths > m).nonzero()[0]
    if len(live) < n:
        if not len(live):
            return out
        tx, ty, lengths = tx.take(live), ty.take(live), lengths.take(live)
    nx, ny = -ty / lengths, tx / lengths
    cx, cy = ox - ax, oy - ay                       # blockers' centres from the origin
    reach = np.hypot(hd, hf) + m
    reach[keys == scan_key] = -1.0                  # the shooter is not in its own way
    off = np.multiply.outer(nx, cx)
    off += np.multiply.outer(ny, cy)
    # the pairs left (a flat nonzero split by divmod: a 2-D nonzero steps an iterator per
    # element; and `take` below for fancy indexing, a few thousand instructions less a call)
    e, k = np.divmod((np.abs(off, out=off) < reach).ravel().nonzero()[0], len(ox))
    if not len(e):
        return out
    sx, sy = scan_xy
    # the scan's own bounds: a blocker within the line's length + reach_extra of the
    # shooter's centre, and not the end's own unit
    hit = np.hypot(ox - sx, oy - sy).take(k) < (lengths + reach_extra - m).take(e)
    hit &= keys.take(k) != np.asarray(end_keys).take(live.take(e) if len(live) < n else e)
    tx, ty, lengths, nx, ny = tx.take(e), ty.take(e), lengths.take(e), nx.take(e), \
        ny.take(e)
    cx, cy, fx, fy, hd, hf = cx.take(k), cy.take(k), fx.take(k), fy.take(k), hd.take(k), \
        hf.take(k)
    if centre_within is not None:                   # centre to segment distance
        # (np.clip is minimum(maximum()): the same floats, without its wrapper)
        t = np.minimum(np.maximum((cx * tx + cy * ty) / (lengths ** 2), 0.0), 1.0)
        hit &= np.hypot(t * tx - cx, t * ty - cy) < centre_within - m
    # projections on the base's axes (fx, fy) and (rx, ry) = (-fy, fx)
    s, c = tx * fx + ty * fy, cx * fx + cy * fy
    hit &= (np.minimum(s, 0.0) < c + hd - m) & (np.maximum(s, 0.0) > c - hd + m)
    rx, ry = -fy, fx
    s, c = tx * rx + ty * ry, cx * rx + cy * ry
    hit &= (np.minimum(s, 0.0) < c + hf - m) & (np.maximum(s, 0.0) > c - hf + m)
    reach = np.abs(fx * nx + fy * ny) * hd + np.abs(rx * nx + ry * ny) * hf
    hit &= np.abs(cx * nx + cy * ny) < reach - m
    e = e[hit]
    out[live[e] if len(live) < n else e] = True
    return out
