"""Random play under every ruleset, with undo and redo thrown in: whatever the players do,
the invariants hold, the log replays to the same battle, and undoing everything then
redoing everything is the identity. (Morschauser's finer-grained random play, with every
legal move to choose from, is test_properties.py.)"""
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from play_checks import assert_replay_and_undo_redo
from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.scenario_io import load_scenario
from manager.session import Session

ROOT = Path(__file__).parent.parent.parent
DEMOS = {"morschauser": ROOT / "tests" / "data" / "skirmish.toml",
         "featherstone": ROOT / "scenarios" / "quatre_bras.toml",
         "d3": ROOT / "scenarios" / "hanau.toml",
         "quickplay": ROOT / "scenarios" / "maida.toml",
         "harman": ROOT / "scenarios" / "arcole.toml"}
SCENARIOS = {rid: load_scenario(p) for rid, p in DEMOS.items()}

ops = st.lists(st.tuples(st.sampled_from(["pilot", "pilot", "pilot", "end", "undo", "redo",
                                          "fire"]),
                         st.integers(0, 10_000)), min_size=40, max_size=150)


def invariants(s: Session) -> None:
    b = s.battle
    for u in b.units.values():
        assert 0 <= u.hits <= u.max_hits, u
        if not u.eliminated:
            assert 0 <= u.x <= b.battlefield.width and 0 <= u.y <= b.battlefield.height, u
    for l in b.leaders.values():
        assert 0 <= l.hits <= l.max_hits, l


@pytest.mark.parametrize("ruleset", sorted(DEMOS))
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(1, 10_000), plan=ops)
def test_random_play_with_undo_and_redo_keeps_the_invariants(ruleset, seed, plan):
    start = SCENARIOS[ruleset].copy()
    start.set_info(replace(start.info, seed=seed))
    s = Session(start.copy())
    pilot = Autopilot(s)
    for op, pick in plan:
        b = s.battle
        if b.state.over:
            break
        try:
            if op == "pilot":
                pilot.step()
            elif op == "end" and b.state.started:
                s.execute(ga.EndPhase())
            elif op == "undo" and s.can_undo:
                s.undo()
            elif op == "redo" and s.can_redo:
                s.redo()
            elif op == "fire" and b.state.started:
                mine = sorted(u.id for u in b.live_units(b.state.active))
                theirs = sorted(u.id for u in b.live_units() if u.side != b.state.active)
                if mine and theirs:
                    s.execute(ga.Fire(mine[pick % len(mine)], theirs[pick // 7 % len(theirs)]))
        except IllegalAction:
            pass                              # refused, and so nothing changed
        invariants(s)
    assert pilot.refused == 0
    # replay reproduces the state exactly; undo all, then redo all, is the identity
    assert_replay_and_undo_redo(s, start)
