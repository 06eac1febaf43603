"""Issue 17, sixth session: the d3 commander's first looks that skip work (the foot's
paths judged with one index scan; a move another unit stands in the way of refused
before its ground is asked). Each must answer as the plain check does."""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

KINDS = ["line_infantry", "light_cavalry", "skirmishers", "foot_artillery"]
spot = st.tuples(st.floats(4, 44), st.floats(4, 32))


def _play(turns: int, seed: int = 1):
    from manager.autopilot import Autopilot
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=seed, turns=turns))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.play_turn()
    return s


# ---- the foot's paths: one scan for all -----------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, spot, st.integers(0, 359), st.integers(0, 359), st.sampled_from(KINDS),
       st.sampled_from(KINDS), st.booleans(), st.floats(0, 360), st.floats(0.5, 9),
       st.lists(spot, max_size=4))
def test_d3_surely_blocked_each_is_each_surely_blocked(a, o, fa, fo, ka, ko, friend, way,
                                                       want, more):
    """A unit's moves along one bearing at the foot's four distances (rounded to the
    hundredth, as the commander asks them), bases ahead, beside or behind: each answer
    of the one-scan walk is surely_blocked's."""
    from builders import build_table, piece
    from manager.footprint import heading
    from manager.rules.d3.moves import surely_blocked, surely_blocked_each
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("o", "blue" if friend else "red", ko, o, facing=fo)] +
                    [piece(f"m{k}", "blue", "line_infantry", p) for k, p in enumerate(more)],
                    "d3")
    u = b.units["a"]
    hx, hy = heading(way)
    tos = [(round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
           for k in (1.0, 0.75, 0.5, 0.25)]
    assert list(surely_blocked_each(b, u, tos)) == [surely_blocked(b, u, to) for to in tos]


# ---- a move another unit stands in the way of: refused before the ground is asked --------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, spot, st.integers(0, 359), st.integers(0, 359), st.sampled_from(KINDS),
       st.sampled_from(KINDS), st.booleans(), st.floats(0, 1.3), st.floats(-3, 3),
       st.integers(0, 359))
def test_d3_moves_refused_by_units_are_refused(a, o, fa, fo, ka, ko, friend, past, aside,
                                               facing):
    """A move toward, onto, past or beside another base (friend or enemy, any kinds), on
    Hanau's ground: when the first look says another unit is in the way, the rules
    refuse the move, and the check's own units part says the same."""
    from builders import build_table, piece, session_at
    from play_checks import refused

    from manager import game_actions as ga
    from manager.footprint import bearing, heading
    from manager.rules.d3.moves import surely_refused_by_units
    from manager.rules.d3.ground import _units_refusal
    from manager.rules.d3.units import footprint
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("o", "blue" if friend else "red", ko, o, facing=fo)], "d3")
    s, _ = session_at(b, "move", side="blue")
    u = s.battle.units["a"]
    hx, hy = heading(bearing(a, o))
    to = (round(a[0] + (o[0] - a[0]) * past - hy * aside, 2),
          round(a[1] + (o[1] - a[1]) * past + hx * aside, 2))
    action = ga.MoveUnit("a", to, facing)
    if surely_refused_by_units(s.battle, action):
        moving = footprint(s.battle, u, facing=bearing(u.pos, to)) if u.pos != to else \
            footprint(s.battle, u, facing=facing)
        end = footprint(s.battle, u, x=to[0], y=to[1], facing=facing)
        assert _units_refusal(s.battle, u, moving, end, (), False)
        assert refused(s, action)


def test_d3_moves_refused_by_units_in_play(monkeypatch):
    """Two Austerlitz turns: every move the commander's first look passes over is one the
    rules refuse (and many are passed over)."""
    from manager.errors import IllegalAction
    from manager.rules import get_ruleset
    from manager.rules.d3 import commander
    seen = {"claimed": 0}
    first, rules = commander.surely_refused_by_units, get_ruleset("d3")

    def checked(battle, action):
        got = first(battle, action)
        if got:
            seen["claimed"] += 1
            try:
                rules.check(battle, action)
                raise AssertionError(f"{action} is legal")
            except IllegalAction:
                pass
        return got

    monkeypatch.setattr(commander, "surely_refused_by_units", checked)
    _play(2)
    assert seen["claimed"] > 100, seen


# ---- the path asked before the pivot (seventh session): the same answers --------------
def _plain_surely_blocked(battle, unit, to, start=None, ignore=()) -> bool:
    """surely_blocked as it was (fab4215): the pivot asked first, then the path."""
    from manager import spatial
    from manager.footprint import distance
    from manager.rules.d3.moves import DEEP, _through, pivot_blocked
    from manager.rules.d3.units import HALF_DIAGONAL, footprint, utype
    pivot = start is None and not ignore
    start = unit.pos if start is None else start
    if distance(start, to) < 1e-9:
        return False
    k = abs(float(battle.option("frontage_scale", 1.0) or 1.0))
    mover = footprint(battle, unit)
    skirmishers = utype(unit) == "skirmishers"
    if pivot and pivot_blocked(battle, unit, to):
        return True
    if min(mover.frontage, mover.depth) / 2 < DEEP:
        return False
    for o in spatial.unit_grid(battle).along(start, to, HALF_DIAGONAL * k + 1e-6):
        if o.id == unit.id or o.id in ignore or (o.side == unit.side and (
                skirmishers or utype(o) == "skirmishers")):
            continue
        if _through(start, to, footprint(battle, o)):
            return True
    return False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, st.integers(0, 359), st.sampled_from(KINDS), st.sampled_from(KINDS),
       st.booleans(), st.floats(-1.5, 1.5), st.floats(2.5, 6), st.integers(0, 359),
       st.floats(0, 360), st.floats(0.5, 12), st.lists(spot, max_size=3),
       st.sampled_from([1.0, 0.7, 0.001]))
def test_d3_path_before_pivot_answers_as_before(a, fa, ka, ko, friend, along, aside, fo,
                                                way, want, more, scale):
    """A unit with a base beside it (close enough that a pivot clips it, or not), others
    anywhere, moves along any bearing at the foot's four distances, at any frontage
    scale (bases too thin for the path's test included): surely_blocked, from where it
    stands and from a spot with the target ignored, and surely_blocked_each answer as
    the plain order (the pivot first) did."""
    from builders import build_table, piece
    from manager.footprint import heading
    from manager.rules.d3.moves import surely_blocked, surely_blocked_each
    hx, hy = heading(fa)
    o = (min(max(a[0] - hy * aside + hx * along, 1), 47),
         min(max(a[1] + hx * aside + hy * along, 1), 35))
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("o", "blue" if friend else "red", ko, o, facing=fo)] +
                    [piece(f"m{k}", "blue", "line_infantry", p) for k, p in enumerate(more)],
                    "d3", options={"frontage_scale": scale})
    u = b.units["a"]
    wx, wy = heading(way)
    tos = [(round(u.x + wx * want * k, 2), round(u.y + wy * want * k, 2))
           for k in (1.0, 0.75, 0.5, 0.25)]
    plain = [_plain_surely_blocked(b, u, to) for to in tos]
    assert [surely_blocked(b, u, to) for to in tos] == plain
    assert list(surely_blocked_each(b, u, tos)) == plain
    for to in tos:
        assert surely_blocked(b, u, to, start=o, ignore=("o",)) == \
            _plain_surely_blocked(b, u, to, start=o, ignore=("o",))
