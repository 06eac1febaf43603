"""Issue 17, tenth session: the d3 commander's foot moves and best shot, deciding the
same with less work.

- `combat.shot_mean`: the best shot's worth is fire_odds' mean without the odds built
  (the pick is compared with the plain search in test_d3_skips).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _play(monkeypatch, turns: int, spies: dict):
    from manager.autopilot import Autopilot
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    for (owner, name), spy in spies.items():
        monkeypatch.setattr(owner, name, spy)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=turns))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.play_turn()
    return s


def test_d3_shot_mean_is_fire_odds_mean_in_play(monkeypatch):
    """Three Austerlitz turns: for every shot the commander finds legal, shot_mean of the
    shooter's chance and the shot's minus is fire_odds' mean, float for float."""
    from manager.game_actions import Fire
    from manager.rules.d3 import combat, commander
    plain, seen = commander.shot_mean, {"shots": 0}

    def checked(p, minus):
        got = plain(p, minus)
        frame = sys._getframe(1)
        u, e = frame.f_locals["u"], frame.f_locals["e"]
        battle = frame.f_locals["b"]
        want = float(combat.fire_odds(battle, Fire(u.id, e.id)).lines[0].dist.mean())
        assert minus == combat.shot(battle, u, e).minus and got == want
        seen["shots"] += 1
        return got

    _play(monkeypatch, 3, {(commander, "shot_mean"): checked})
    assert seen["shots"] > 30, seen
