"""Every quick-play base in numpy arrays, for the commander's first looks.

The automatic commander asks, of each unit it moves, about dozens of bases: the nearest
enemy, which enemies are surely out of range, which bases could stand across a line of
sight. Asked one base at a time in Python that cost more than the rules' own checks.
Here every unit's base (centre, facing vector, half sizes, half diagonal) sits in
arrays, in `battle.units` order, kept current from the battle's change journal: an
action changes a few units, so a few rows are written, not the table rebuilt.

Each question is answered exactly as the scan it replaces (or only ever passes over
what the rules refuse: see the callers); the floats of a row are those of the unit's
own `footprint`.
"""
from __future__ import annotations

import math
from math import atan2, degrees

import numpy as np

from ...footprint import distance, heading
from ...sightlines import MARGIN
from ...model.forces import mark
from .units import footprint

# ndarray.min, max, any and all without their Python wrappers (asked in every look)
_min, _max = np.minimum.reduce, np.maximum.reduce
_any, _all = np.logical_or.reduce, np.logical_and.reduce


class Bases:
    """Rows of every unit in `battle.units` (eliminated ones flagged, not dropped)."""

    __slots__ = ("ids", "index", "units", "x", "y", "fx", "fy", "hd", "hf", "r",
                 "alive", "sides", "info", "charging", "fps")

    def __init__(self, battle):
        self.fill(battle)

    @classmethod
    def like(cls, battle, other: "Bases") -> "Bases":
        """The table of `battle` made from another's (a trial copy of the battle the
        other was built for): its rows copied, those of other records rewritten."""
        t = cls.__new__(cls)
        t.ids, t.index, t.units, t.sides, t.info = (other.ids, other.index, list(other.units),
                                                    other.sides, battle.info)
        t.charging = dict(other.charging)
        t.fps = list(other.fps)
        for name in ("x", "y", "fx", "fy", "hd", "hf", "r", "alive"):
            setattr(t, name, getattr(other, name).copy())
        for k, u in enumerate(battle.units.values()):
            if u is not t.units[k]:
                t.put(battle, k, u)
        return t

    def fill(self, battle) -> None:
        self.info = battle.info
        self.charging = {}                    # live unit id -> the id it charges
        units = list(battle.units.values())
        n = len(units)
        self.ids = [u.id for u in units]
        self.index = {uid: k for k, uid in enumerate(self.ids)}
        self.units = units
        self.fps = [None] * n                 # each row's base (its floats' source)
        self.x, self.y, self.fx, self.fy, self.hd, self.hf, self.r = (
            np.empty(n) for _ in range(7))
        self.alive = np.empty(n, dtype=bool)
        sides = np.array([u.side for u in units], dtype=object)
        self.sides = {s: sides == s for s in set(sides.tolist())}
        for k, u in enumerate(units):
            self.put(battle, k, u)

    def put(self, battle, k: int, u) -> None:
        fp = footprint(battle, u)
        self.units[k] = u
        if fp != self.fps[k]:                 # a new mark on the same base keeps the old
            self.fps[k] = fp                  # (`surely_hidden` asks it by identity)
        self.x[k], self.y[k] = fp.x, fp.y
        self.fx[k], self.fy[k] = heading(fp.facing)
        self.hd[k], self.hf[k] = fp.depth / 2, fp.frontage / 2
        self.r[k] = math.hypot(fp.frontage, fp.depth) / 2
        self.alive[k] = not u.eliminated
        target = mark(u, "charging")
        if target and not u.eliminated:
            self.charging[u.id] = (u.side, target)
        else:
            self.charging.pop(u.id, None)

    def update(self, battle, changes) -> None:
        """Apply the journal: rewrite the rows of changed units; a unit come or gone
        (an arrival, an edit) rebuilds the table."""
        for change in changes:
            if change[0] != "unit":
                continue
            k = self.index.get(change[1])
            u = battle.units.get(change[1])
            if k is None or u is None:
                self.fill(battle)
                return
            if u is not self.units[k]:
                self.put(battle, k, u)

    def live(self, side: str | None = None) -> np.ndarray:
        """The mask of live units (of one side)."""
        if side is None:
            return self.alive
        return self.alive & self.sides.get(side, False)


def bases(battle) -> Bases:
    """The battle's base table, current at this version."""
    return battle.derived("quickplay.bases", lambda: _build(battle),
                          lambda view, changes: view.update(battle, changes))


def _build(battle) -> Bases:
    # a trial copy (the rules weigh an order on one) starts from the table of the battle
    # it was copied from, which shares its kept store: the same units, a few moved
    last = battle.kept("quickplay.bases", dict)
    t = last.get("table")
    if t is not None and t.info is battle.info and t.ids == list(battle.units):
        return Bases.like(battle, t)
    last["table"] = t = Bases(battle)
    return t


def charged(battle, side: str) -> frozenset:
    """Ids of the units live units of `side` are charging (their 'charging' marks):
    `spatial.charged_ids`, from the few chargers the table keeps, not every unit."""
    return battle.cached(("quickplay.charged", side), lambda: frozenset(
        t for s, t in bases(battle).charging.values() if s == side))


def max_half_diagonal(battle) -> float:
    """Half the diagonal of the largest live base: a base lies within it of its centre."""
    return battle.cached("quickplay.max_half_diagonal", lambda: _largest(bases(battle)))


def _largest(t: Bases) -> float:
    # (half diagonals are positive: the max over the live rows, 0.0 when none lives)
    return float(_max(t.r, where=t.alive, initial=0.0))


def _around(battle, xy, side):
    """(rows of the live units of `side`, their centres' distances from xy by numpy),
    once a battle version: the commander asks the nearest enemy, then those it might
    charge, then those it might shoot at, all from the unit's centre."""
    def build():
        t = bases(battle)
        idx = t.live(side).nonzero()[0]
        return idx, np.sqrt((t.x[idx] - xy[0]) ** 2 + (t.y[idx] - xy[1]) ** 2)
    return battle.cached(("quickplay.around", xy[0], xy[1], side), build)


def nearest(battle, xy, reach: float, side: str | None = None):
    """`min(near(battle, xy, reach, side), key=distance to xy)`, None when none is near:
    one numpy pass, then the exact distance for the few within a hair of the least
    (numpy's may differ from math.hypot in the last bits), the first in order kept."""
    t = bases(battle)
    idx, d = _around(battle, xy, side)
    if not len(idx):
        return None
    close = [t.units[k] for k in idx[d <= _min(d) + 1e-6].tolist()]
    best = min(close, key=lambda u: distance(u.pos, xy))
    return best if distance(best.pos, xy) <= reach else None


def maybe_in_reach(battle, unit, fp, reach: float, side: str, half: float,
                   far: float | None = None) -> list:
    """Live units of `side` whose centre is within `reach` of the unit's (the scan's exact
    test), in live_units order, less those surely out of the `half`-degree arc of its
    front (`units.to_front`) and, given `far`, those whose bases are surely more than
    `far` inches apart edge to edge (`surely_apart`): numpy's angles and distances may
    differ from math's in the last bits, so each is passed over only with a margin
    to spare. (Those left may still be out of the arc or range: the rules decide.)"""
    t = bases(battle)
    idx, d = _around(battle, (fp.x, fp.y), side)
    keep = d <= reach + 1e-6
    if far is not None:
        keep &= d - (math.hypot(fp.frontage, fp.depth) / 2 + t.r[idx]) <= far + 1e-6 + 1e-9
    idx = idx[keep]
    if not len(idx):
        return []
    # the arc of the few left (6 in the median ask) in plain floats: numpy's element-wise
    # arithmetic, operation for operation (math's atan2, degrees and % give numpy's
    # floats: see the tests), instead of a dozen numpy calls
    cx, cy = fp.front_centre()
    facing, arc, units, pos, out = unit.facing, half + 1e-6 + 1e-7, t.units, unit.pos, []
    for k, x, y in zip(idx.tolist(), t.x.take(idx).tolist(), t.y.take(idx).tolist()):
        off = abs((degrees(atan2(x - cx, -(y - cy))) % 360 - facing) % 360)
        if off <= arc or 360 - off <= arc:     # (min(off, 360 - off) <= arc)
            u = units[k]
            if distance(u.pos, pos) <= reach:
                out.append(u)
    return out


def from_segment(t, a, b) -> tuple:
    """Every base's offset from a (px, py) and from its nearest point of segment a-b
    (qx, qy), as arrays over the table t."""
    ax, ay = a
    px, py = t.x - ax, t.y - ay
    dx, dy = b[0] - ax, b[1] - ay
    l2 = dx * dx + dy * dy
    if l2 > 0:
        # (np.clip without its Python wrappers; where the sum is -0.0 this gives +0.0,
        # which leaves every offset's square, all the callers read of q, the same)
        s = np.minimum(np.maximum((px * dx + py * dy) / l2, 0.0), 1.0)
        return px, py, px - s * dx, py - s * dy
    return px, py, px, py


def near_line(battle, a, b, reach: float) -> list:
    """Live units whose centre is within `reach` of a (the scan's exact test) and within
    the largest half diagonal of segment a-b, in live_units order: every base that could
    touch the line (a base lies within its half diagonal of its centre), and a few
    more."""
    t = bases(battle)
    px, py, qx, qy = from_segment(t, a, b)
    margin = max_half_diagonal(battle) + 1e-5
    keep = t.alive & (px * px + py * py <= (reach + 1e-6) ** 2) \
        & (qx * qx + qy * qy <= margin * margin)
    return [u for u in (t.units[k] for k in keep.nonzero()[0].tolist())
            if distance(u.pos, a) <= reach]


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
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    long_ = lengths > m
    # a line of length MARGIN or less is neither hidden nor clear, so its pairs are never
    # read: it is divided by 1 (no division by zero, so no errstate context a call)
    div = lengths if _all(long_) else np.where(long_, lengths, 1.0)
    ox, oy, fx, fy, hd, hf = (t.x.take(idx), t.y.take(idx), t.fx.take(idx), t.fy.take(idx),
                              t.hd.take(idx), t.hf.take(idx))
    cx, cy = ox - ax, oy - ay
    dist = np.hypot(cx, cy)
    nx, ny = -ty / div, tx / div
    off = cx[None, :] * nx[:, None] + cy[None, :] * ny[:, None]
    # the scan tests a base within the line's length + 8 (kept here by MARGIN either
    # way); one farther from the line than its half diagonal and MARGIN is apart
    lim = lengths[:, None] + 8.0
    near = (dist[None, :] < lim + m) & (np.abs(off) < np.hypot(hd, hf)[None, :] + m)
    # the pairs (line, base) in the order of a 2-D nonzero, by a flat one (numpy steps
    # its iterator per element for 2-D); then the end's own base left out of its line
    e, k = np.divmod(near.ravel().nonzero()[0], len(idx))
    mine = idx.take(k) != np.asarray(end_keys).take(e)
    e, k = e[mine], k[mine]
    hidden = np.zeros(len(ends), dtype=bool)
    if not len(e):
        return hidden.tolist(), long_.tolist(), [], [-1] * len(ends)
    tx_, ty_, nx_, ny_ = tx.take(e), ty.take(e), nx.take(e), ny.take(e)
    cx_, cy_, fx_, fy_ = cx.take(k), cy.take(k), fx.take(k), fy.take(k)
    hd_, hf_ = hd.take(k), hf.take(k)
    crossed = dist.take(k) < lengths.take(e) + 8.0 - m
    axes = ((fx_, fy_, hd_), (-fy_, fx_, hf_))
    ends_on = [(tx_ * ux + ty_ * uy, cx_ * ux + cy_ * uy, half) for ux, uy, half in axes]
    for s, c, half in ends_on:                  # the line's ends and the base's centre
        crossed &= (np.minimum(s, 0.0) < c + half - m) & (np.maximum(s, 0.0) > c - half + m)
    reach = np.abs(fx_ * nx_ + fy_ * ny_) * hd_ + np.abs(-fy_ * nx_ + fx_ * ny_) * hf_
    o = np.abs(cx_ * nx_ + cy_ * ny_)
    crossed &= (o < reach - m) & long_.take(e)
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
    apart = o > reach + m
    for s, c, half in ends_on:
        apart |= (np.minimum(s, 0.0) > c + half + m) | (np.maximum(s, 0.0) < c - half - m)
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
