"""sightlines.surely_crossed_arrays tests the scan's bounds on the pairs the line's normal
leaves: the answers of the old pass, which tested them on the whole table of pairs."""
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from manager import sightlines as SL

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def old_surely_crossed_arrays(origin, ends, end_keys, keys, ox, oy, fx, fy, hd, hf, scan_xy,
                              scan_key, reach_extra, centre_within=None):
    """As it was: the scan's bounds as a table of every (line, base) pair."""
    ax, ay = origin
    tx = np.array([e[0] for e in ends], dtype=float) - ax
    ty = np.array([e[1] for e in ends], dtype=float) - ay
    lengths = np.hypot(tx, ty)
    sx, sy = scan_xy
    ok = np.hypot(ox - sx, oy - sy)[None, :] < lengths[:, None] + reach_extra - SL.MARGIN
    ok &= (keys != scan_key)[None, :]
    ok &= keys[None, :] != np.asarray(end_keys)[:, None]
    return SL._hits(ax, ay, tx, ty, lengths, ox, oy, fx, fy, hd, hf, ok, centre_within)


xy = st.tuples(st.floats(0, 30), st.floats(0, 30))
base = st.tuples(st.floats(0, 30), st.floats(0, 30), st.floats(0, 360), st.floats(0.2, 4),
                 st.floats(0.2, 6))


@settings(max_examples=300, deadline=None)
@given(xy, st.lists(xy, min_size=1, max_size=8), st.lists(base, max_size=30), xy,
       st.sampled_from([0.0, 2.0, 8.0]), st.sampled_from([None, 4.5, 1.0]),
       st.lists(st.integers(-3, 35), min_size=8, max_size=8), st.integers(-3, 35))
def test_pairs_first_is_the_whole_table(origin, ends, bases, scan_xy, extra, within,
                                        end_keys, scan_key):
    n = len(bases)
    arr = np.array(bases, dtype=float).reshape(n, 5)
    ox, oy, facing, depth, front = arr.T
    r = np.radians(facing)
    fx, fy = np.sin(r), -np.cos(r)
    keys = np.arange(n)
    ends = ends + [origin]                              # a line of length 0 too
    ek = (end_keys + [scan_key])[:len(ends)]
    args = (origin, ends, ek, keys, ox, oy, fx, fy, depth / 2, front / 2, scan_xy,
            scan_key, extra, within)
    new, old = SL.surely_crossed_arrays(*args), old_surely_crossed_arrays(*args)
    assert new.dtype == old.dtype and new.tolist() == old.tolist()


@pytest.mark.parametrize("ruleset", ["featherstone", "d3"])
def test_pairs_first_in_play_is_the_whole_table(ruleset, monkeypatch):
    """Every call of three Austerlitz turns against the old pass; some lines hidden."""
    from bench_common import AUSTERLITZ, scenario
    from manager.autopilot import Autopilot
    from manager.session import Session

    plain, seen = SL.surely_crossed_arrays, []

    def checked(*args, **kw):
        got = plain(*args, **kw)
        assert got.tolist() == old_surely_crossed_arrays(*args, **kw).tolist()
        seen.append(int(got.sum()))
        return got

    monkeypatch.setattr(SL, "surely_crossed_arrays", checked)
    s = Session(scenario(AUSTERLITZ, ruleset, seed=1, turns=3))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(seen) > 20 and sum(seen) > 20, (len(seen), sum(seen))
