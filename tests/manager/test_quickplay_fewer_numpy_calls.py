"""Issue 17, quick-play (ninth session): the commander's looks with fewer numpy calls.

`hidden_lines._judged` no longer enters an errstate context (a line of MARGIN or less, whose
pairs are never read, is divided by 1), finds its (line, base) pairs by a flat nonzero
and divmod, leaves each end's own base out of the few pairs found instead of the whole
table, and gathers by `take`. Its answers are the old pass's (kept here) to the bit: on
random tables with lines of length 0 and a hair, ends among the bases and not, and at
every call of three Austerlitz turns.

`bases.maybe_in_reach` tests the arc of the few enemies left after the distance cuts (6 in
the median ask) in plain floats, math's atan2 and degrees: the same list as the old
numpy pass (kept here), on random tables at every reach, arc and range, and at every
call of three Austerlitz turns.

`move_ground._near_line` (the bases a unit's move spots could land on) asks the unit grid's band
about the line, then holds each unit found to the old pass's test in floats: the same
(row, x, y, radius) as that pass over the whole table (kept here).
"""
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from quickplay_refs import austerlitz  # noqa: E402
from test_quickplay_speed import crowd  # noqa: E402

from manager.rules.quickplay import bases as B, hidden_lines as H  # noqa: E402
from manager.sightlines import MARGIN  # noqa: E402
from manager.footprint import distance  # noqa: E402



def old_judged(origin, ends, end_keys, idx, t):
    """`hidden_lines._judged` as it was before (eighth session's main)."""
    m = MARGIN
    ax, ay = origin
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    ox, oy, fx, fy, hd, hf = t.x[idx], t.y[idx], t.fx[idx], t.fy[idx], t.hd[idx], t.hf[idx]
    cx, cy = ox - ax, oy - ay
    dist = np.hypot(cx, cy)
    mine = idx[None, :] != np.asarray(end_keys)[:, None]
    long_ = lengths > m
    with np.errstate(invalid="ignore", divide="ignore"):
        nx, ny = -ty / lengths, tx / lengths
        off = cx[None, :] * nx[:, None] + cy[None, :] * ny[:, None]
        lim = lengths[:, None] + 8.0
        near = mine & (dist[None, :] < lim + m) & (np.abs(off) < np.hypot(hd, hf)[None, :] + m)
        e, k = near.nonzero()
    hidden = np.zeros(len(ends), dtype=bool)
    if not len(e):
        return hidden.tolist(), long_.tolist(), [], [-1] * len(ends)
    tx_, ty_, nx_, ny_ = tx[e], ty[e], nx[e], ny[e]
    cx_, cy_, fx_, fy_, hd_, hf_ = cx[k], cy[k], fx[k], fy[k], hd[k], hf[k]
    crossed = dist[k] < lengths[e] + 8.0 - m
    axes = ((fx_, fy_, hd_), (-fy_, fx_, hf_))
    ends_on = [(tx_ * ux + ty_ * uy, cx_ * ux + cy_ * uy, half) for ux, uy, half in axes]
    for s, c, half in ends_on:
        crossed &= (np.minimum(s, 0.0) < c + half - m) & (np.maximum(s, 0.0) > c - half + m)
    reach = np.abs(fx_ * nx_ + fy_ * ny_) * hd_ + np.abs(-fy_ * nx_ + fx_ * ny_) * hf_
    o = np.abs(cx_ * nx_ + cy_ * ny_)
    crossed &= (o < reach - m) & long_[e]
    hidden[e[crossed]] = True
    rows = idx[k[crossed]]
    blockers = rows.tolist()
    across = np.full(len(ends), -1)
    across[e[crossed]] = rows
    across = across.tolist()
    open_ = long_ & ~hidden
    if not open_.any():
        return hidden.tolist(), open_.tolist(), blockers, across
    apart = o > reach + m
    for s, c, half in ends_on:
        apart |= (np.minimum(s, 0.0) > c + half + m) | (np.maximum(s, 0.0) < c - half - m)
    touched = np.zeros(len(ends), dtype=bool)
    touched[e[~apart]] = True
    return hidden.tolist(), (open_ & ~touched).tolist(), blockers, across


def old_maybe_in_reach(battle, unit, fp, reach, side, half, far=None):
    """`bases.maybe_in_reach` as it was before (the arc by numpy)."""
    import math
    t = B.bases(battle)
    idx, d = B._around(battle, (fp.x, fp.y), side)
    keep = d <= reach + 1e-6
    if far is not None:
        keep &= d - (math.hypot(fp.frontage, fp.depth) / 2 + t.r[idx]) <= far + 1e-6 + 1e-9
    idx = idx[keep]
    if len(idx):
        cx, cy = fp.front_centre()
        way = np.degrees(np.arctan2(t.x[idx] - cx, -(t.y[idx] - cy))) % 360
        off = np.abs((way - unit.facing) % 360)
        idx = idx[np.minimum(off, 360 - off) <= half + 1e-6 + 1e-7]
    return [u for u in (t.units[k] for k in idx) if distance(u.pos, unit.pos) <= reach]


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(3, 18))
def test_the_pass_is_the_old_pass_on_random_tables(data, n):
    """Every unit's lines to every other unit, and to points at its own centre, a hair
    off it and at MARGIN (lines never judged), with the ends' keys as the commander
    gives them (-2 for a point that is no unit's)."""
    b = crowd(data, n)
    t = B.bases(b)
    for u in b.live_units():
        others = [e for e in b.live_units() if e.id != u.id]
        hair = data.draw(st.sampled_from([0.0, 1e-9, MARGIN / 2, MARGIN, 2 * MARGIN, 0.5]))
        ends = [e.pos for e in others] + [(u.x + hair, u.y), (u.x, u.y - hair)]
        end_keys = [t.index[e.id] for e in others] + [-2, t.index[u.id]]
        me = t.index[u.id]
        keep = t.alive.copy()
        keep[me] = data.draw(st.booleans())      # (the shooter left in, too)
        idx = keep.nonzero()[0]
        assert H._judged(u.pos, ends, end_keys, idx, t) == \
            old_judged(u.pos, ends, end_keys, idx, t)


def test_the_pass_is_the_old_pass_in_play(monkeypatch):
    s, ap = austerlitz(3)
    calls = []
    new = H._judged

    def both(origin, ends, end_keys, idx, t):
        out = new(origin, ends, end_keys, idx, t)
        assert out == old_judged(origin, ends, end_keys, idx, t)
        calls.append(sum(out[0]))
        return out

    monkeypatch.setattr(H, "_judged", both)
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(calls) > 100 and sum(calls) > 1000



@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(2, 18))
def test_maybe_in_reach_is_the_old_pass_on_random_tables(data, n):
    from manager.rules.quickplay.units import footprint
    b = crowd(data, n)
    for u in b.live_units():
        fp = footprint(b, u)
        reach = data.draw(st.sampled_from([0.0, 4.0, 12.5, 20.0, 52.0, 200.0]))
        half = data.draw(st.sampled_from([0.0, 22.5, 45.0, 90.0, 180.0]))
        far = data.draw(st.sampled_from([None, -1.0, 0.0, 3.0, 12.0]))
        side = b.enemy_of(u.side)
        assert B.maybe_in_reach(b, u, fp, reach, side, half, far) == \
            old_maybe_in_reach(b, u, fp, reach, side, half, far)


@settings(max_examples=300, deadline=None)
@given(st.floats(-60, 60), st.floats(-60, 60), st.integers(0, 359),
       st.sampled_from([0.0, 22.5, 45.0, 90.0]))
def test_the_arc_in_floats_is_numpys(dx, dy, facing, half):
    """math's atan2, degrees and % on one offset: numpy's floats, so the same answers."""
    from math import atan2, degrees
    way = np.degrees(np.arctan2(np.array([dx]), -np.array([dy]))) % 360
    off = np.abs((way - facing) % 360)
    mine = abs((degrees(atan2(dx, -dy)) % 360 - facing) % 360)
    assert mine == float(off[0]) and (min(mine, 360 - mine) <= half) == \
        bool(np.minimum(off, 360 - off)[0] <= half)


def test_maybe_in_reach_is_the_old_pass_in_play(monkeypatch):
    from manager.rules.quickplay import commander as C
    s, ap = austerlitz(3)
    found = []
    new = B.maybe_in_reach

    def both(battle, unit, fp, reach, side, half, far=None):
        out = new(battle, unit, fp, reach, side, half, far)
        assert out == old_maybe_in_reach(battle, unit, fp, reach, side, half, far)
        found.append(len(out))
        return out

    monkeypatch.setattr(C, "maybe_in_reach", both)
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(found) > 300 and sum(found) > 300


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.01, 20), st.booleans()), min_size=1, max_size=40))
def test_the_largest_live_half_diagonal_is_the_max_of_the_live_rows(rows):
    """`_largest` by one masked reduce: the max of the live rows' half diagonals, 0.0
    when none lives (as `t.r[t.alive].max()` was)."""
    from types import SimpleNamespace
    t = SimpleNamespace(r=np.array([r for r, _ in rows]), alive=np.array([a for _, a in rows]))
    live = t.r[t.alive]
    assert B._largest(t) == (float(live.max()) if len(live) else 0.0)


def old_near_line(battle, unit, far):
    """`move_ground._near_line` as it was: one numpy pass over the whole base table."""
    import math
    from manager.rules.quickplay.units import footprint
    t = B.bases(battle)
    fp = footprint(battle, unit)
    half = math.hypot(fp.frontage, fp.depth) / 2 + 1e-6 + 1e-5
    _, _, qx, qy = B.from_segment(t, unit.pos, far)
    lim = t.r + (half + 0.01 + 1e-3)
    rows = (t.alive & (qx * qx + qy * qy <= lim * lim)).nonzero()[0]
    return t, half, list(zip(rows.tolist(), t.x[rows].tolist(), t.y[rows].tolist(),
                             t.r[rows].tolist()))


def same_near_line(b, u, far, near_line=None):
    from manager.rules.quickplay.move_ground import _near_line
    t, half, near = (near_line or _near_line)(b, u, far)
    t0, half0, near0 = old_near_line(b, u, far)
    assert t is t0 and half == half0 and sorted(near) == near0
    return len(near0)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(2, 18))
def test_the_bases_near_a_move_line_are_the_old_pass_on_random_tables(data, n):
    """The line from each unit's centre to a spot up to 14 inches off (or on the centre:
    a line of no length), the unit grid's band then the test in floats against the old
    numpy pass over the table (kept here)."""
    b = crowd(data, n)
    for u in b.live_units():
        dx = data.draw(st.sampled_from([0.0, 0.3, -2.0, 7.0, 14.0]))
        dy = data.draw(st.sampled_from([0.0, -0.3, 3.5, -14.0]))
        same_near_line(b, u, (u.x + dx, u.y + dy))


def test_the_bases_near_a_move_line_are_the_old_pass_in_play(monkeypatch):
    from manager.rules.quickplay import move_ground as M
    s, ap = austerlitz(3)
    found = []
    new = M._near_line

    def both(battle, unit, far):
        found.append(same_near_line(battle, unit, far, new))
        return new(battle, unit, far)

    monkeypatch.setattr(M, "_near_line", both)
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(found) > 100 and sum(found) > 300


box = st.tuples(st.floats(-5, 5), st.floats(-5, 5), st.floats(-5, 5), st.floats(-5, 5))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(box, max_size=4), max_size=3), box, st.floats(-2e-3, 2e-3))
def test_boxes_met_in_line_are_meets(groups, q, hair):
    """`clear_ground._meets_any` (the test in line) is any(`_meets`) over the groups, boxes
    touching within the PAD and a hair beyond it too."""
    from manager.rules.quickplay.clear_ground import _meets, _meets_any
    touching = [[(q[2] + hair, q[3] + hair, q[2] + 1, q[3] + 1)]]
    for gs in (groups, groups + touching):
        assert _meets_any(gs, q) == any(_meets(p, q) for g in gs for p in g)
