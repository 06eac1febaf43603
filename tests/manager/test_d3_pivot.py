"""The d3 commander's pivot pre-check: a move whose pivot at the start clips a base the
unit may not pass is refused by the rules, whatever its final facing (issue 17)."""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from play_checks import refused

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
KINDS = ["line_infantry", "light_cavalry", "heavy_cavalry", "skirmishers", "foot_artillery"]


def _ground(battle, unit, to, facing) -> str:
    """ground_refusal of a MoveUnit, on the bases check_move_unit draws."""
    from manager.footprint import bearing
    from manager.rules.d3.units import footprint, ground_refusal
    moving = footprint(battle, unit, facing=bearing(unit.pos, to))
    end = footprint(battle, unit, x=to[0], y=to[1], facing=facing)
    return ground_refusal(battle, unit, moving, end)


def _table(units, **kw):
    from builders import build_table, session_at
    s, _ = session_at(build_table(units, "d3", **kw), "move", side="blue")
    return s


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(6, 42), st.floats(6, 30)), st.floats(-5, 5), st.floats(-5, 5),
       st.integers(0, 359), st.integers(0, 359), st.sampled_from(KINDS),
       st.sampled_from(KINDS), st.booleans(), st.integers(0, 359), st.floats(0.2, 12),
       st.integers(0, 359), st.sampled_from([1.0, 0.5, 2.0]))
def test_d3_pivot_blocked_moves_are_refused(a, dx, dy, fa, fo, ka, ko, friend, way, d,
                                            facing, scale):
    """A unit with a neighbour close beside it (friend or enemy, any kinds, any facings,
    any frontage scale) and a move any way, any length: when the pre-check claims the
    pivot clips a base, the ground refuses the move and so do the rules, whatever the
    final facing."""
    from builders import piece

    from manager import game_actions as ga
    from manager.footprint import heading
    from manager.rules.d3.moves import pivot_blocked, surely_blocked
    o = (a[0] + dx, a[1] + dy)
    s = _table([piece("a", "blue", ka, a, facing=fa),
                piece("o", "blue" if friend else "red", ko, o, facing=fo)],
               options={"frontage_scale": scale})
    u = s.battle.units["a"]
    hx, hy = heading(way)
    to = (round(a[0] + hx * d, 2), round(a[1] + hy * d, 2))
    if pivot_blocked(s.battle, u, to):
        assert surely_blocked(s.battle, u, to)
        for f in (facing, way, fa):
            assert _ground(s.battle, u, to, f), (to, f)
            assert refused(s, ga.MoveUnit("a", to, f))


def test_d3_pivot_blocked_is_not_vacuous():
    """A line wheeling into its neighbour is claimed (and refused); marching straight
    ahead, or skirmishers wheeling through friends, or a neighbour an inch off, is not."""
    from builders import piece

    from manager import game_actions as ga
    from manager.rules.d3.moves import pivot_blocked
    s = _table([piece("a", "blue", "line_infantry", (20, 30)),
                piece("f", "blue", "line_infantry", (24, 30)),
                piece("k", "blue", "skirmishers", (28, 30)),
                piece("g", "blue", "line_infantry", (33, 30))])
    b = s.battle
    a, k, g = b.units["a"], b.units["k"], b.units["g"]
    assert pivot_blocked(b, a, (21.55, 24.2))           # a wheel of 15 degrees into f
    assert refused(s, ga.MoveUnit("a", (21.55, 24.2), 15))
    assert not pivot_blocked(b, a, (26, 26))            # 56 degrees: the base clears f
    assert not pivot_blocked(b, a, (20, 24))            # straight ahead
    assert not refused(s, ga.MoveUnit("a", (20, 24), 0))
    assert not pivot_blocked(b, k, (29.55, 24.2))       # skirmishers wheel through friends
    assert not pivot_blocked(b, g, (34.55, 24.2))       # nobody within reach on its right


def test_d3_pivot_blocked_in_play(monkeypatch):
    """Two Austerlitz turns: every move the commanders pass over for its pivot is refused
    by the ground for any facing and by the rules, and many are passed over."""
    from manager import game_actions as ga
    from manager.autopilot import Autopilot
    from manager.rules.d3 import moves
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    claims = [0, 0]
    plain = moves.pivot_blocked

    def checked(battle, unit, to, *rest):
        got = plain(battle, unit, to, *rest)
        claims[got] += 1
        if got:
            for facing in (0, 137, unit.facing):
                assert _ground(battle, unit, to, facing), (unit.id, to)
                assert refused(s, ga.MoveUnit(unit.id, to, facing)), (unit.id, to)
        return got

    monkeypatch.setattr(moves, "pivot_blocked", checked)
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert claims[1] > 100 and claims[0] > 100, claims
