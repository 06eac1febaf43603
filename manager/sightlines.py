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
    ax, ay = origin
    m = MARGIN
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    # one pass over the bases; headings by numpy's sin and cos, which may differ from
    # math's in the last bit: far inside MARGIN, so no answer can change
    ox, oy, facing, depth, front = np.array(
        [(fp.x, fp.y, fp.facing, fp.depth, fp.frontage) for fp in fps], dtype=float).T
    r = np.radians(facing)
    fx, fy = np.sin(r), -np.cos(r)
    hd, hf = depth / 2, front / 2
    sx, sy = scan_from.pos
    ok = np.hypot(ox - sx, oy - sy)[None, :] < lengths[:, None] + reach_extra - m
    where = {o.id: k for k, o in enumerate(blockers)}
    k = where.get(scan_from.id)                     # the shooter is not in its own way
    if k is not None:
        ok[:, k] = False
    for e, eid in enumerate(end_ids):               # nor is the end's own unit
        k = where.get(eid)
        if k is not None:
            ok[e, k] = False
    return [bool(h) for h in _hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok,
                                   centre_within)]


def surely_crossed_arrays(origin, ends, end_keys, keys, ox, oy, fx, fy, hd, hf, scan_xy,
                          scan_key, reach_extra: float, centre_within: float | None = None):
    """`surely_crossed` of blockers given as arrays (centres ox, oy, facing unit vectors
    fx, fy, half depths hd, half frontages hf, and integer `keys` naming them, compared
    with `end_keys` and the shooter's `scan_key`): for callers that keep the bases in
    arrays. A numpy bool per end."""
    ax, ay = origin
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    sx, sy = scan_xy
    ok = np.hypot(ox - sx, oy - sy)[None, :] < lengths[:, None] + reach_extra - MARGIN
    ok &= (keys != scan_key)[None, :]
    ok &= keys[None, :] != np.asarray(end_keys)[:, None]
    return _hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within)


def _hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within):
    """The separating-axis test of each line (tx, ty from the origin) against each base
    the scan would test (`ok`): a numpy bool per line.

    The line's own normal first: the base's corners must lie on both sides of the line,
    and a base reaches across it no farther than its half diagonal, so pairs beyond that
    cannot be crossed; the rest of the test runs on the pairs left (the same element-wise
    arithmetic as on the whole table of pairs, so the same answers)."""
    m = MARGIN
    cx, cy = ox - ax, oy - ay                       # blockers' centres from the origin
    with np.errstate(invalid="ignore", divide="ignore"):     # (one context: it is slow)
        nx, ny = -ty / lengths, tx / lengths
        off = cx[None, :] * nx[:, None] + cy[None, :] * ny[:, None]
        e, k = (ok & (np.abs(off) < np.hypot(hd, hf)[None, :] + m)).nonzero()
        out = np.zeros(len(tx), dtype=bool)
        if not len(e):
            return out
        tx, ty, lengths, nx, ny = tx[e], ty[e], lengths[e], nx[e], ny[e]
        cx, cy, fx, fy, hd, hf = cx[k], cy[k], fx[k], fy[k], hd[k], hf[k]
        hit = lengths > m
        if centre_within is not None:               # centre to segment distance
            # (np.clip is minimum(maximum()): the same floats, NaN kept, without its wrapper)
            t = np.minimum(np.maximum((cx * tx + cy * ty) / (lengths ** 2), 0.0), 1.0)
            d = np.hypot(t * tx - cx, t * ty - cy)
            hit &= d < centre_within - m

    def overlaps(ux, uy, half):                     # projections on the base's axis (ux, uy)
        s = tx * ux + ty * uy
        c = cx * ux + cy * uy
        lo, hi = np.minimum(s, 0.0), np.maximum(s, 0.0)
        return (lo < c + half - m) & (hi > c - half + m)

    rx, ry = -fy, fx
    hit &= overlaps(fx, fy, hd)
    hit &= overlaps(rx, ry, hf)
    reach = np.abs(fx * nx + fy * ny) * hd + np.abs(rx * nx + ry * ny) * hf
    hit &= np.abs(cx * nx + cy * ny) < reach - m
    out[e[hit]] = True
    return out
