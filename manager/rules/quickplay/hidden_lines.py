"""Quick-play: lines of sight a base surely stands across, for the commander's first
look at its shots and charges. Each line from a shooter to its targets is judged against
the live bases near it by the separating-axis test of `sightlines` (MARGIN to spare on
every axis): surely hidden, surely clear, or left to the rules. Lines found hidden are
remembered with the base across them, and the bases that hid a shooter's lines last time
are tried first.
"""
from __future__ import annotations

import math

import numpy as np

from ...footprint import distance
from ...sightlines import MARGIN
from .bases import Bases, bases

# ndarray.any and all without their Python wrappers (asked in every pass)
_any, _all = np.logical_or.reduce, np.logical_and.reduce


def surely_hidden(battle, unit, targets) -> list:
    """For each target: does `sight_refusal(unit.pos, target.pos, ignore=(unit, target))`
    surely name a base in the way? (The separating-axis test of `sightlines`, with
    MARGIN to spare on every axis, against the bases the scan would test: centre to
    centre, blockers within the line's length + 8 of the shooter.) The live bases within
    the longest line + 8 are asked in one numpy pass. False: "maybe not".

    The same pass also tells the lines that surely meet no base the scan would test
    (separated from each by MARGIN on some axis): those are kept for this battle version
    (`clear_lines`), and `sight_refusal` asked of one of them goes straight to the
    terrain (the commander's checks of the shots and charges it did not pass over ask
    exactly these lines).

    Most lines a commander asks are hidden, and a shooter's mostly by the same base or
    two (a friend in front, the enemy's first line): the bases that hid the most of
    its lines last time are tried first, in plain floats, and when one of them surely
    crosses every line the answer is in without the pass. (The tries only spare work:
    a line is hidden by the test itself, on the bases as they stand.)

    A line found hidden is remembered with the base found across it: asked again with
    the same ends (the same shooter and target, neither moved), it is hidden still while
    that base lives on the very same footprint (the same test on the same floats), and no
    pass is made for it. Three lines in four the commander asks are such repeats: units
    held behind friends ask the same lines turn after turn."""
    if not targets:
        return []
    t = bases(battle)
    memo = battle.kept("quickplay.hidden_by", dict)  # shooter -> {target: what hid it}
    mine = memo.get(unit.id)
    if not mine:
        return _surely_hidden(battle, unit, targets, t, memo)
    pos, fps, alive, no = unit.pos, t.fps, t.alive, (None, None, -1, None)
    # a line remembered (shooter's and target's places, row, footprint of a base across
    # it) holds while that row's base is alive on that very footprint: the table keeps a
    # row's footprint object while the base stands as it was (one equal to the old is not
    # put in its place), and no two units share a footprint object
    known = [h[0] == pos and h[1] == e.pos and fps[h[2]] is h[3] and bool(alive[h[2]])
             for e in targets for h in (mine.get(e.id, no),)]
    if not any(known):
        return _surely_hidden(battle, unit, targets, t, memo)
    if all(known):
        return known
    found = iter(_surely_hidden(battle, unit, [e for e, h in zip(targets, known) if not h],
                                t, memo))
    return [h or next(found) for h in known]


def _surely_hidden(battle, unit, targets, t: "Bases", memo: dict) -> list:
    """`surely_hidden` of lines not remembered: the carried bases, else the pass."""
    ends = [e.pos for e in targets]
    end_keys = [t.index.get(e.id, -2) for e in targets]
    me = t.index.get(unit.id, -1)
    carry = battle.kept("quickplay.blockers", dict)
    likely = [k for k in (t.index.get(uid, -1) for uid in carry.get(unit.id, ()))
              if k >= 0 and k != me and t.alive[k]]
    if likely:
        across = _all_crossed(unit.pos, ends, end_keys, likely, t)
        if across is not None:
            _remember(memo, unit, targets, across, t)
            return [True] * len(targets)
    ax, ay = unit.pos
    reach = max(distance(unit.pos, e) for e in ends) + 8
    px, py = t.x - ax, t.y - ay
    keep = t.alive & (px * px + py * py <= (reach + 1e-5) ** 2)
    if me >= 0:
        keep[me] = False                    # the shooter is not in its own way
    idx = keep.nonzero()[0]
    if len(idx) * len(targets) <= 24:       # a few pairs: plain floats beat numpy's calls
        hidden, clear, blockers, across = _judged_few(unit.pos, ends, end_keys, idx.tolist(), t)
    else:
        hidden, clear, blockers, across = _judged(unit.pos, ends, end_keys, idx, t)
    if blockers:                            # the two bases across the most lines
        _remember(memo, unit, targets, across, t)
        counts: dict = {}
        for k in blockers:
            counts[k] = counts.get(k, 0) + 1
        carry[unit.id] = tuple(t.ids[k] for k in sorted(counts, key=counts.get,
                                                           reverse=True)[:2])
    if any(clear):
        kept = clear_lines(battle)
        for e, c in zip(targets, clear):
            if c:
                kept.add((unit.pos, e.pos, unit.id, e.id))
    return hidden


def _remember(memo: dict, unit, targets, across, t: "Bases") -> None:
    """Keep, for each hidden line, the row of a base found across it (`across`: a row
    a line, -1 for a line not hidden)."""
    mine = memo.get(unit.id)
    if mine is None:                        # (one entry a target: the last line asked)
        mine = memo[unit.id] = {}
    pos, fps = unit.pos, t.fps
    for e, k in zip(targets, across):
        if k >= 0:
            mine[e.id] = (pos, e.pos, k, fps[k])


def clear_lines(battle) -> set:
    """Lines (a, b, id at a, id at b) that surely cross no live base but those two, this
    battle version: `surely_hidden` found them so."""
    return battle.cached("quickplay.clear_lines", set)


def _judged(origin, ends, end_keys, idx, t: Bases) -> tuple[list, list, list, list]:
    """(surely hidden, surely clear, the rows of every base surely across a line, the
    row of one base across each line or -1) of each line origin -> end over the bases
    `idx`
    (the shooter left out; each end's own base too): hidden when some base within the
    line's length + 8 of the origin surely crosses it (the projections overlap by MARGIN
    on the base's two axes and the line's normal), clear when every base within that
    reach (and MARGIN more) is surely apart from it (MARGIN of daylight on one axis)."""
    m = MARGIN
    ax, ay = origin
    n = len(idx)
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    long_ = lengths > m
    # a line of length MARGIN or less is neither hidden nor clear, so its pairs are never
    # read: it is divided by 1 (no division by zero, so no errstate context a call)
    div = lengths if _all(long_) else np.where(long_, lengths, 1.0)
    # the bases' columns (COLUMNS), their centres then taken from the origin: each numpy
    # call costs thousands of instructions whatever its size, so the table's rows are
    # gathered in one, the lines' and the pairs' likewise, and both axes of a base are
    # tested at once (rows of 2); every float is the one the tests per array gave
    b = t.cols.take(idx, axis=1)
    b[0] -= ax
    b[1] -= ay
    cx, cy = b[0], b[1]
    dist = np.hypot(cx, cy)
    nx, ny = -ty / div, tx / div
    aoff = np.abs(cx[None, :] * nx[:, None] + cy[None, :] * ny[:, None])
    # the scan tests a base within the line's length + 8 (kept here by MARGIN either
    # way); one farther from the line than its half diagonal and MARGIN is apart
    near = (dist[None, :] < (lengths + 8.0 + m)[:, None]) & \
        (aoff < (np.hypot(b[6], b[7]) + m)[None, :])
    # the pairs (line, base) in the order of a 2-D nonzero, by a flat one (numpy steps
    # its iterator per element for 2-D); then the end's own base left out of its line
    flat = near.ravel().nonzero()[0]
    e, k = np.divmod(flat, n)
    mine = idx.take(k) != np.asarray(end_keys).take(e)
    e, k, flat = e[mine], k[mine], flat[mine]
    hidden = np.zeros(len(ends), dtype=bool)
    if not len(e):
        return hidden.tolist(), long_.tolist(), [], [-1] * len(ends)
    p = b.take(k, axis=1)                       # each pair's base
    u, v, half = p[2:4], p[4:6], p[6:8]         # its axes (rows: facing, across)
    q = np.array((tx, ty, nx, ny)).take(e, axis=1)     # each pair's line
    s = q[0] * u + q[1] * v                     # the line's far end on each axis
    c = p[0] * u + p[1] * v                     # the base's centre (its near end is 0)
    lo, hi = np.minimum(s, 0.0), np.maximum(s, 0.0)
    cp, cm = c + half, c - half
    crossed = dist.take(k) < (lengths + 8.0 - m).take(e)
    crossed &= _all((lo < cp - m) & (hi > cm + m), axis=0)
    spans = np.abs(u * q[2] + v * q[3]) * half  # the base's reach along the normal
    reach = spans[0] + spans[1]
    o = aoff.ravel().take(flat)
    crossed &= o < reach - m
    if not _all(long_):
        crossed &= long_.take(e)
    ec = e[crossed]
    hidden[ec] = True
    blockers = idx.take(k[crossed]).tolist()
    across = [-1] * len(ends)
    for i, row in zip(ec.tolist(), blockers):      # (the last base found across a line)
        across[i] = row
    open_ = long_ & ~hidden
    if not _any(open_):                         # every line hidden: none is clear
        return hidden.tolist(), open_.tolist(), blockers, across
    # a line not hidden is clear when every base near it shows daylight on some axis
    apart = (o > reach + m) | _any((lo > cp + m) | (hi < cm - m), axis=0)
    touched = np.zeros(len(ends), dtype=bool)          # some base maybe meets the line
    touched[e[~apart]] = True
    return hidden.tolist(), (open_ & ~touched).tolist(), blockers, across


def _judged_few(origin, ends, end_keys, keys, t: Bases) -> tuple[list, list, list, list]:
    """`_judged` pair by pair in plain floats, for a few bases (rows `keys`): the same
    tests with the same MARGIN (math's hypot may differ from numpy's in the last bit,
    far inside the margin)."""
    m = MARGIN
    ax, ay = origin
    rows = list(zip(keys, t.x[keys].tolist(), t.y[keys].tolist(), t.fx[keys].tolist(),
                    t.fy[keys].tolist(), t.hd[keys].tolist(), t.hf[keys].tolist()))
    hidden, clear, blockers, across = [], [], [], []
    for (ex, ey), ek in zip(ends, end_keys):
        tx, ty = ex - ax, ey - ay
        length = math.hypot(tx, ty)
        hit, touched = False, False
        if length > m:
            nx, ny = -ty / length, tx / length
            for k, ox, oy, fx, fy, hd, hf in rows:
                cx, cy = ox - ax, oy - ay
                dist = math.hypot(cx, cy)
                if k == ek or not dist < length + 8.0 + m:
                    continue
                crossed, apart = dist < length + 8.0 - m, False
                for ux, uy, half in ((fx, fy, hd), (-fy, fx, hf)):
                    s, c = tx * ux + ty * uy, cx * ux + cy * uy
                    lo, hi = min(s, 0.0), max(s, 0.0)
                    crossed = crossed and lo < c + half - m and hi > c - half + m
                    apart = apart or lo > c + half + m or hi < c - half - m
                reach = abs(fx * nx + fy * ny) * hd + abs(-fy * nx + fx * ny) * hf
                o = abs(cx * nx + cy * ny)
                if crossed and o < reach - m:
                    if not hit:
                        across.append(k)
                    hit = True
                    blockers.append(k)
                touched = touched or not (apart or o > reach + m)
        hidden.append(hit)
        if not hit:
            across.append(-1)
        clear.append(length > m and not touched)
    return hidden, clear, blockers, across


def _all_crossed(origin, ends, end_keys, keys, t: Bases) -> list | None:
    """The row of a base of rows `keys` surely across each line origin -> end
    (`_judged_few`'s test of a hidden line), or None when some line none crosses
    (stopping at the first such line)."""
    m = MARGIN
    ax, ay = origin
    rows = [(k, float(t.x[k]) - ax, float(t.y[k]) - ay, float(t.fx[k]), float(t.fy[k]),
             float(t.hd[k]), float(t.hf[k])) for k in keys]
    across = []
    for (ex, ey), ek in zip(ends, end_keys):
        tx, ty = ex - ax, ey - ay
        length = math.hypot(tx, ty)
        if not length > m:
            return None
        nx, ny = -ty / length, tx / length
        for k, cx, cy, fx, fy, hd, hf in rows:
            if k == ek or not math.hypot(cx, cy) < length + 8.0 - m:
                continue
            s, c = tx * fx + ty * fy, cx * fx + cy * fy            # along the base's facing
            if not (min(s, 0.0) < c + hd - m and max(s, 0.0) > c - hd + m):
                continue
            s, c = tx * -fy + ty * fx, cx * -fy + cy * fx          # across it
            if not (min(s, 0.0) < c + hf - m and max(s, 0.0) > c - hf + m):
                continue
            reach = abs(fx * nx + fy * ny) * hd + abs(-fy * nx + fx * ny) * hf
            if abs(cx * nx + cy * ny) < reach - m:                 # the line's normal
                across.append(k)
                break
        else:
            return None
    return across
