"""Properties of random legal play: whatever the players do, the invariants hold."""
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from play_checks import assert_replay_and_undo_redo
from manager import game_actions as ga
from manager.scenario_io import load_scenario
from manager.session import Session
from random_play import candidates

SKIRMISH = Path(__file__).parent.parent / "data" / "skirmish.toml"


def check_invariants(s: Session) -> None:
    b = s.battle
    boxes = set()
    for u in b.units.values():
        assert 0 <= u.hits <= u.max_hits, u
        assert u.eliminated == (u.hits == 0), u
        if not u.eliminated:
            box = (int(u.x // 3), int(u.y // 3))
            assert box not in boxes, f"two units in {box}"
            boxes.add(box)
            assert 0 <= u.x <= b.battlefield.width and 0 <= u.y <= b.battlefield.height
        else:
            assert not s.is_legal(ga.MoveUnit(u.id, (u.x, u.y), u.facing))
            for e in b.units.values():
                assert not s.is_legal(ga.Fire(u.id, e.id))
    for l in b.leaders.values():
        assert 0 <= l.hits <= l.max_hits and l.eliminated == (l.hits == 0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), picks=st.lists(st.integers(0, 10_000), min_size=5, max_size=100))
def test_random_legal_play_keeps_every_invariant_and_replays(seed, picks):
    scenario = load_scenario(SKIRMISH)
    from dataclasses import replace
    scenario.set_info(replace(scenario.info, seed=seed))
    start = scenario.copy()
    s = Session(scenario)
    s.execute(ga.StartBattle())
    for p in picks:
        if s.battle.state.over:
            break
        options = candidates(s)
        s.execute(options[p % len(options)])
        check_invariants(s)
    # replay reproduces the state exactly; undo all, then redo all, is the identity
    assert_replay_and_undo_redo(s, start)
