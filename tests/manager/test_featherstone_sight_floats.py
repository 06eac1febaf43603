"""Issue 17, eighth session: the commander's lines of sight surely crossed by a base
(`fire.surely_hidden`, `fire.hidden_from`) judged in plain floats, each line stopping at
the first base across it (`sight_floats.crossed`), answer as the numpy pass over every
pair of line and base they replaced (kept here as the reference)."""
from __future__ import annotations

import math

from hypothesis import assume, given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager.errors import ScenarioError
from manager.rules.featherstone import fire, sight_floats
from manager.rules.featherstone.rows import rows

FS = "featherstone"
KINDS = ["line_infantry", "light_infantry", "heavy_cavalry", "light_cavalry",
         "foot_artillery"]


def numpy_crossed(battle, origin, ends) -> list:
    """The numpy pass `fire._crossed` made before (seventh session)."""
    from manager.sightlines import surely_crossed_arrays
    t = rows(battle)
    ax, ay = origin.pos
    ex = [e.x for e in ends]
    ey = [e.y for e in ends]
    m = 4.5 + 1e-6
    lo_x, hi_x = min(ax, min(ex)) - m, max(ax, max(ex)) + m
    lo_y, hi_y = min(ay, min(ey)) - m, max(ay, max(ey)) + m
    xs, ys = t.x, t.y
    idx = ((xs >= lo_x) & (xs <= hi_x) & (ys >= lo_y) & (ys <= hi_y)).nonzero()[0]
    if not len(idx):
        return [False] * len(ends)
    index = t.index
    hits = surely_crossed_arrays(
        origin.pos, list(zip(ex, ey)), [index.get(e.id, -2) for e in ends], idx,
        xs[idx], ys[idx], t.fx[idx], t.fy[idx], t.hd[idx], t.hf[idx], origin.pos,
        index.get(origin.id, -1), 8.0, centre_within=4.5)
    return hits.tolist()


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(4, 44), st.floats(4, 32)),
       st.lists(st.tuples(st.floats(4, 44), st.floats(4, 32)), min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 4), st.floats(-6, 6),
                          st.integers(0, 359), st.sampled_from(KINDS),
                          st.sampled_from(["line", "column", "square"]), st.booleans()),
                min_size=1, max_size=8))
def test_lines_crossed_are_the_numpy_pass(a, ends, others):
    """A shooter, a few targets and bases of every kind, formation and facing strewn
    along and beside its lines (across, grazing, just clear, beyond the 4.5 inches, near
    either end): the same answer for every line, from the shooter and from each end."""
    units = [piece("u", "blue", "foot_artillery", a)]
    for k, z in enumerate(ends):
        units.append(piece(f"t{k}", "red", "line_infantry", z))
    for k, (t, which, side_off, f, kind, form, enemy) in enumerate(others):
        z = ends[which % len(ends)]
        length = math.dist(a, z)
        assume(length > 1)
        ux, uy = (z[0] - a[0]) / length, (z[1] - a[1]) / length
        x, y = a[0] + ux * length * t - uy * side_off, a[1] + uy * length * t + ux * side_off
        units.append(piece(f"o{k}", "red" if enemy else "blue", kind, (x, y), facing=f,
                           formation=form if "infantry" in kind else "line"))
    try:
        b = build_table(units, FS)
    except ScenarioError:
        assume(False)
    u = b.units["u"]
    targets = [b.units[f"t{k}"] for k in range(len(ends))]
    assert sight_floats.crossed(b, u, targets) == numpy_crossed(b, u, targets)
    for e in targets:                            # support fire's way: from the target
        assert sight_floats.crossed(b, e, [u]) == numpy_crossed(b, e, [u])


def test_lines_crossed_in_play(monkeypatch):
    """Every pass of 3 Austerlitz turns (the commander's fire and its guns' targets in the
    moves step, support fire in the odds and the melee): the numpy pass's answers, on
    the battle and on the odds' trial copies; many lines are hidden and many are not.
    The rows' lists stay the very floats of their arrays as the battle changes."""
    asked = []
    real = sight_floats.crossed

    def both(battle, origin, ends):
        got = real(battle, origin, ends)
        assert got == numpy_crossed(battle, origin, ends)
        t = rows(battle)
        fx, fy, hd, hf, diag = t.as_lists()
        assert (fx, fy, hd, hf) == (t.fx.tolist(), t.fy.tolist(), t.hd.tolist(),
                                    t.hf.tolist())
        assert diag == [math.hypot(d, f) for d, f in zip(hd, hf)]
        asked.extend(got)
        return got
    monkeypatch.setattr(fire, "crossed", both)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(asked) > 1000 and sum(asked) > 500 and len(asked) - sum(asked) > 100, \
        (len(asked), sum(asked))
