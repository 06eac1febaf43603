"""Issue 17, fifth session: work the d3 commander skips gives the answers of the plain
search it stands in for (the shot judged only until no other can beat it; a charge's
plan kept for the battle version, a base's open ground kept for the battlefield)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


# ---- the best shot: judged in the order of its bound ------------------------------------
def _plain_best_shot(c, u, cands):
    """The search before issue 17's fifth session: every candidate's odds."""
    from manager.game_actions import Fire
    from manager.rules.d3.combat import fire_odds
    from manager.rules.d3.commander import _hidden
    options = []
    for e, hidden in zip(cands, _hidden(c.battle, u, cands)):
        if hidden:
            continue
        action = Fire(u.id, e.id)
        if c.legal(action):
            odds = fire_odds(c.battle, action)
            options.append((float(odds.lines[0].dist.mean()) + (9 - e.hits) * 0.05,
                            e.id, action))
    return max(options)[2] if options else None, options


def test_d3_best_shot_is_the_plain_pick_in_play(monkeypatch):
    """Four Austerlitz turns: every shooter's pick is the plain search's (the same target),
    every legal shot's worth lies within shot_bound's, and the search does stop early."""
    from manager.rules.d3 import commander
    from manager.rules.d3.combat import shot_bound
    best = commander.Commander._best_shot
    seen = {"calls": 0, "options": 0, "early": 0}

    def checked(self, u, cands):
        plain, options = _plain_best_shot(self, u, cands)
        got = best(self, u, cands)
        assert got == plain
        top = shot_bound(self.battle, u)
        for worth, eid, _ in options:
            assert worth <= top + (9 - self.battle.units[eid].hits) * 0.05
        asked = []
        legal = self.legal
        self.legal = lambda a: asked.append(a) or legal(a)
        try:
            best(self, u, cands)
        finally:
            del self.legal
        seen["calls"] += 1
        seen["options"] += len(options)
        seen["early"] += len(asked) < len(options)
        return got

    monkeypatch.setattr(commander.Commander, "_best_shot", checked)
    _play(4)
    assert seen["calls"] > 50 and seen["options"] > 100 and seen["early"] > 10


# ---- answers kept: the charge's plan per battle version, open ground per base -----------
def test_d3_charge_plans_and_open_ground_answer_as_afresh_in_play(monkeypatch):
    """Three Austerlitz turns: every charge plan asked (the look-ahead's, the checks',
    the odds') is the one worked out afresh, refusals with the same message, and many
    are answered from the store; every horse's `_chargeable` is the terrain's answer."""
    from manager.errors import IllegalAction
    from manager.rules.d3 import cavalry, moves
    from manager.rules.d3.units import footprint
    from manager.table_terrain import table_terrain
    plan = moves.charge_plan
    seen = {"asked": 0, "kept": 0, "refused": 0, "chargeable": 0}

    def afresh(battle, unit, target, at, facing):
        try:
            return moves._charge_plan(battle, unit, target, unit.pos if at is None else at,
                                      unit.facing if facing is None else facing), None
        except IllegalAction as e:
            return None, str(e)

    def checked(battle, unit, target, at=None, facing=None):
        want = afresh(battle, unit, target, at, facing)
        store = battle.peek("d3.charge_plans") or {}
        key = (unit.id, target.id, unit.pos if at is None else at,
               unit.facing if facing is None else facing)
        seen["kept"] += key in store and store[key][0] is unit and store[key][1] is target
        try:
            got = plan(battle, unit, target, at, facing), None
        except IllegalAction as e:
            got = None, str(e)
        assert got == want
        seen["asked"] += 1
        seen["refused"] += got[1] is not None
        return plan(battle, unit, target, at, facing)

    chargeable = cavalry.CavalryMixin._chargeable

    def ground(self, e):
        got = chargeable(self, e)
        kinds = table_terrain(self.battle.battlefield).kinds_at(
            footprint(self.battle, e).polygon())
        assert got == (not {"woods", "rough", "marsh", "lake"} & set(kinds))
        seen["chargeable"] += 1
        return got

    for name in ("charge_plan",):
        monkeypatch.setattr(moves, name, checked)
    monkeypatch.setattr(cavalry.CavalryMixin, "_chargeable", ground)
    import manager.rules.d3.combat as combat  # noqa: F401  (imports charge_plan lazily)
    _play(3)
    assert seen["asked"] > 200 and seen["kept"] > 50 and seen["refused"] > 10
    assert seen["chargeable"] > 200
