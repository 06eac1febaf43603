"""The d3 cavalry look-ahead's early answers are the answers of the full check."""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from builders import build_table, piece, session_at  # noqa: E402

from manager.errors import IllegalAction  # noqa: E402
from manager.footprint import bearing  # noqa: E402
from manager.rules.d3.cavalry import blocked_before_contact  # noqa: E402
from manager.rules.d3.moves import check_charge_path  # noqa: E402

spot = st.tuples(st.floats(4, 36), st.floats(4, 36))
KINDS = ["line_infantry", "light_cavalry", "heavy_cavalry", "skirmishers", "foot_artillery"]


def _refused(battle, unit, target, at, facing) -> bool:
    try:
        check_charge_path(battle, unit, target, at=at, facing=facing)
    except IllegalAction:
        return True
    return False


def _table(at, e, fe, ke, others):
    """A horse (standing aside, at 2.5, 2.5), its target and other bases, blue to move."""
    b = build_table([piece("h", "blue", "light_cavalry", (2.5, 2.5)),
                     piece("e", "red", ke, e, facing=fe)] +
                    [piece(f"o{i}", side, kind, pos, facing=f)
                     for i, (side, kind, pos, f) in enumerate(others)], "d3")
    s, _ = session_at(b, "move", side="blue")
    return s.battle


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, spot, st.integers(0, 359), st.sampled_from(KINDS),
       st.lists(st.tuples(st.booleans(), st.sampled_from(KINDS), st.floats(0, 1),
                          st.floats(-3, 3), st.integers(0, 359)), max_size=3))
def test_d3_blocked_before_contact_is_refused(at, e, fe, ke, others):
    """A staging spot, its target and up to three bases (friend or enemy) on or beside
    the line between them: a charge the early answer calls blocked, check_charge_path
    refuses."""
    dx, dy = e[0] - at[0], e[1] - at[1]
    placed = [("blue" if friend else "red", kind,
               (min(max(at[0] + dx * k - dy * off / 10, 2), 38),
                min(max(at[1] + dy * k + dx * off / 10, 2), 34)), f)
              for friend, kind, k, off, f in others]
    battle = _table(at, e, fe, ke, placed)
    h, t = battle.units["h"], battle.units["e"]
    facing = round(bearing(at, e)) % 360
    if blocked_before_contact(battle, h, t, at, facing):
        assert _refused(battle, h, t, at, facing)


def test_d3_blocked_before_contact_is_not_vacuous():
    """A line of friends across the way blocks it (and the path is refused); the open
    way, a base beyond the target, or one too near the target to be surely before
    contact, do not."""
    at, e = (10.0, 30.0), (10.0, 20.0)
    battle = _table(at, e, 180, "line_infantry", [("blue", "line_infantry", (10, 26), 0)])
    h, t = battle.units["h"], battle.units["e"]
    assert blocked_before_contact(battle, h, t, at, 0)
    assert _refused(battle, h, t, at, 0)
    battle = _table(at, e, 180, "line_infantry", [("blue", "line_infantry", (10, 14), 0)])
    h, t = battle.units["h"], battle.units["e"]
    assert not blocked_before_contact(battle, h, t, at, 0)
    assert not _refused(battle, h, t, at, 0)
    battle = _table(at, e, 180, "line_infantry", [("blue", "skirmishers", (10, 26), 0)])
    assert not blocked_before_contact(battle, battle.units["h"], battle.units["e"], at, 0)


def test_d3_blocked_before_contact_in_play(monkeypatch):
    """Two Austerlitz turns: every staging path the early answer passes over is refused
    by check_charge_path; many are passed over, many are not; and the look-ahead asks it
    only of the spots' own line of charge (the target's rounded bearing)."""
    from manager.autopilot import Autopilot
    from manager.rules.d3 import cavalry
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    seen = {True: 0, False: 0}

    def checked(battle, unit, target, at, facing):
        assert facing == round(bearing(at, target.pos)) % 360
        got = blocked_before_contact(battle, unit, target, at, facing)
        seen[got] += 1
        if got:
            assert _refused(battle, unit, target, at, facing), (unit.id, target.id, at)
        return got

    monkeypatch.setattr(cavalry, "blocked_before_contact", checked)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert seen[True] > 50 and seen[False] > 50
