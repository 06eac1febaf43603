"""Morschauser's speed-ups give the very answers of the plain code they replace.

Each cheaper path (issue 17) is compared with a reference: the code as it was before
the change, kept in morschauser_refs.py. Here in play on Austerlitz (the automatic
commander asking as it does); test_morschauser_speed_pieces.py on random inputs. tests/manager/test_same_results.py guards
the whole game; these guard the pieces one by one, so a failure names the culprit.
"""
import sys
from pathlib import Path

from manager.autopilot import Autopilot
from manager.rules.morschauser import commander as cm, reckoning
from manager.rules.morschauser import fire, moves
from manager.rules.morschauser import movement as mv
from manager.rules.morschauser.board import board, box_of
from manager.session import Session


ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402
from morschauser_refs import (  # noqa: E402
    ref_blocked, ref_choose_move, ref_leader_cost, ref_leader_scores, ref_search, same_board)


# ---- in play: every question the commander asks, answered both ways ----------------------
def _play_checked(monkeypatch, seed: int, turns: int, options=None):
    """Austerlitz with the commander on both sides; every search, sight line and choice
    of move is also answered by the reference and must agree. Returns the counts."""
    counts = {"search": 0, "blocked": 0, "choose": 0, "nearest": 0}
    real_search, real_blocked, real_choose = moves.search, fire._blocked, cm.Commander._choose_move
    real_nearest_all = reckoning.nearest_all

    def search(battle, unit, budget, roads_only=False):
        got, want = real_search(battle, unit, budget, roads_only), ref_search(battle, unit, budget, roads_only)
        assert list(got.cost.items()) == list(want.cost.items())
        assert list(got.contact.items()) == list(want.contact.items())
        counts["search"] += 1
        return got

    def blocked(battle, a, b):
        got = real_blocked(battle, a, b)
        assert got == ref_blocked(battle, a, b), (a, b)
        counts["blocked"] += 1
        return got

    def choose(self, u, goal, near, kind, form=""):
        want = ref_choose_move(self, u, goal, near, kind, form)
        got = real_choose(self, u, goal, near, kind, form)
        assert got == want, (u.id, got, want)
        counts["choose"] += 1
        return got

    def nearest_all(heres, boxes):
        got = real_nearest_all(heres, boxes)
        assert got == [reckoning.nearest(h, boxes) for h in heres]
        counts["nearest"] += len(heres)
        return got

    real_leader_cost = mv._leader_cost

    def leader_cost(battle, leader, to):
        got = real_leader_cost(battle, leader, to)
        assert got == ref_leader_cost(battle, leader, to)
        counts["leader"] = counts.get("leader", 0) + 1
        return got

    real_scores = reckoning.leader_spot_scores

    def leader_spot_scores(boxes, units, want, radius, taken):
        got = real_scores(boxes, units, want, radius, taken)
        assert got == ref_leader_scores(boxes, units, want, radius, taken)
        return got

    real_best_shot = cm.Commander._best_shot

    def best_shot(self, u):
        # the shot kept for this battle version is the shot worked out afresh, and it is
        # asked again at the same version (an unmoved gun that found none: may it stand?)
        key = ("morschauser.best_shot", self.side, u.id)
        if self.battle.peek(key, "absent") != "absent":
            counts["shot_kept"] = counts.get("shot_kept", 0) + 1
        assert u is self.battle.units[u.id]
        got = real_best_shot(self, u)
        assert got == self._find_shot(u), (u.id, got)
        counts["shot"] = counts.get("shot", 0) + 1
        return got

    monkeypatch.setattr(cm.Commander, "_best_shot", best_shot)
    from manager.rules.morschauser.board import Board
    real_resync = Board.resync

    def resync(self):
        got = real_resync(self)
        counts["resync"] = counts.get("resync", 0) + got
        return got

    monkeypatch.setattr(Board, "resync", resync)
    monkeypatch.setattr(mv, "_leader_cost", leader_cost)
    monkeypatch.setattr(cm, "leader_spot_scores", leader_spot_scores)
    monkeypatch.setattr(moves, "search", search)
    monkeypatch.setattr(fire, "_blocked", blocked)
    monkeypatch.setattr(cm.Commander, "_choose_move", choose)
    monkeypatch.setattr(cm, "nearest_all", nearest_all)
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=turns))
    if options:
        from dataclasses import replace
        from types import MappingProxyType
        s.battle.set_info(replace(s.battle.info, options=MappingProxyType(
            {**s.battle.info.options, **options})))
    ap = Autopilot(s)
    ap.step()
    looked, steps, seen_version = set(), 0, s.battle.version
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.step()
        b = s.battle
        steps += 1
        if steps % 5 == 0 or b.version != seen_version + 2:    # and after every big change
            same_board(b)
        seen_version = b.version
        key = (b.state.turn, b.state.active, b.state.phase)
        if b.state.phase != "move" or key in looked:
            continue
        looked.add(key)
        # every sight line a shooter has, not only those the commander asked about; the
        # enemy index finds every enemy near; the volley kept is the volley worked out
        brd = board(b)
        for u in b.live_units():
            here = box_of(b, u)
            near = {e for e in brd.enemies_near(u.side, here, 6)
                    if max(abs(brd.unit_box[e][0] - here[0]), abs(brd.unit_box[e][1] - here[1])) <= 6}
            for e in b.live_units(b.enemy_of(u.side)):
                there = box_of(b, e)
                cheb = max(abs(here[0] - there[0]), abs(here[1] - there[1]))
                assert (cheb <= 6) == (e.id in near)
                if cheb <= 10:
                    assert fire._blocked(b, here, there) == ref_blocked(b, here, there)
                    assert vars(fire.fire_spec(b, u, e)) == vars(fire._fire_spec(b, u, e))
                    counts["blocked"] += 1
    return counts


def test_speedups_answer_as_the_plain_code_in_play(monkeypatch):
    counts = _play_checked(monkeypatch, seed=3, turns=4)
    assert counts["search"] > 200 and counts["choose"] > 100 and counts["nearest"] > 200
    assert counts["blocked"] > 1000 and counts["leader"] > 10
    assert counts["resync"] >= 3            # new orders, an arrival: the board kept, resynced
    assert counts["shot"] > 100 and counts["shot_kept"] > 5


def test_speedups_answer_as_the_plain_code_with_formations_and_sight_options(monkeypatch):
    counts = _play_checked(monkeypatch, seed=2, turns=3,
                           options={"formations": True, "line_of_sight": "terrain_only"})
    assert counts["choose"] > 100
