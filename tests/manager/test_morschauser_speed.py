"""Morschauser's speed-ups give the very answers of the plain code they replace.

Each cheaper path (issue 17) is compared with a reference: the code as it was before
the change, kept here. In play on Austerlitz (the automatic commander asking as it
does), and on random inputs with hypothesis. tests/manager/test_same_results.py guards
the whole game; these guard the pieces one by one, so a failure names the culprit.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager.autopilot import Autopilot
from manager.grid import DIRS, _line_walk, direction_to, line_boxes
from manager.rules.morschauser import commander as cm
from manager.rules.morschauser import fire, moves
from manager.rules.morschauser import movement as mv
from manager.rules.morschauser.board import board, bombarding, box_of, facing_dir, profile
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


# ---- the references: the plain code before the speed-ups ----------------------------------
def ref_search(battle, unit, budget, roads_only=False):
    b = board(battle)
    start = (box_of(battle, unit), facing_dir(unit))
    reach = mv.Reach()
    reach.cost[start] = 0.0
    if roads_only and "road" not in b.terrain.at(start[0]).kinds:
        return reach
    limit = int(budget * 2 + 1e-9)
    best = {start: 0}
    buckets = [[] for _ in range(limit + 1)]
    buckets[0].append(start)
    ok, ok_cache = mv._stepper(battle, unit, roads_only)
    enemy_zocs = [z for s, z in b.zoc.items() if s != unit.side]
    no_contact = bombarding(battle)
    contact = reach.contact
    for cost in range(limit + 1):
        for state in buckets[cost]:
            if best[state] != cost:
                continue
            box, d = state
            if cost + 1 <= limit:
                for nd in ((d + 1) & 7, (d - 1) & 7):
                    ns = (box, nd)
                    if cost + 1 < best.get(ns, 99):
                        best[ns] = cost + 1
                        buckets[cost + 1].append(ns)
            c = cost + (3 if d & 1 else 2)
            if c > limit:
                continue
            dx, dy = DIRS[d]
            nb = (box[0] + dx, box[1] + dy)
            through, stop = ok(nb)
            if not through:
                continue
            if any(nb in z for z in enemy_zocs):
                if stop and not no_contact and c < contact.get(nb, 99) * 2:
                    contact[nb] = c / 2
                continue
            ns = (nb, d)
            if c < best.get(ns, 99):
                best[ns] = c
                buckets[c].append(ns)
    for state, c in best.items():
        if state[0] == start[0] or ok_cache.get(state[0], (True, True))[1]:
            reach.cost[state] = c / 2
    return reach


def ref_blocked(battle, a, b):
    mode = battle.option("line_of_sight", "units_and_terrain")
    if mode == "none":
        return ""
    brd = board(battle)
    heights, screens = brd.terrain.heights, brd.terrain.screens
    top = max(heights.get(a, 0), heights.get(b, 0))
    units = brd.box_unit if mode == "units_and_terrain" else {}
    for box in _line_walk(a, b):
        h = heights.get(box, 0)
        if h > top:
            return f"higher ground at {box}"
        if box in screens:
            return f"{screens[box]} at {box}"
        if box in units and not top > h:
            return f"{battle.units[units[box]].name} is in the way"
    return ""


def ref_choose_move(self, u, goal, near, kind, form=""):
    b = self.battle
    prof = profile(u)
    reach, roads, backs, _ = moves.move_options(b, u, form)
    here = box_of(b, u)
    best_score, best = self._score_stay(u, goal), None
    front = self.front.get(b.hierarchy.command_of(u.id))
    pace = front is not None and goal != near and kind != "withdraw"
    _, obj = self.orders(b.hierarchy.command_of(u.id))
    anchor = obj if kind == "hold" and obj is not None and cm._gap(here, obj) <= 2 else None
    artillery = prof.arm == "artillery"
    rng = fire.max_range(b, u) if prof["fire_dice"] else 0
    ideal = min(rng * 0.6, 6)
    per_box = {}
    for r in (reach, roads):
        for (box, d), cost in r.cost.items():
            if box == here or (anchor and cm._gap(box, anchor) > 2):
                continue
            pb = per_box.get(box)
            if pb is None:
                if artillery:
                    pb = (-abs(cm._gap(box, near) - ideal), direction_to(box, near))
                else:
                    pb = (-cm._gap(box, goal) * 2, direction_to(box, goal))
                per_box[box] = pb
            s = pb[0] - 0.3 * cm._turn_off(d, pb[1]) - (0 if artillery else 0.05 * cost)
            if pace:
                ahead = front - cm._gap(box, goal)
                if ahead > 1.5:
                    s -= 3 * (ahead - 1.5)
            if s > best_score:
                best_score, best = s, (box, d)
        if artillery or kind == "withdraw":
            continue
        for box in r.contact:
            if anchor and cm._gap(box, anchor) > 3:
                continue
            for d in mv.contact_facings(b, u, box):
                edge = self._melee_edge(u, box, d)
                if edge is None:
                    continue
                s = -cm._gap(box, goal) * 2 + 3 * edge
                if s > best_score:
                    best_score, best = s, (box, d)
    if kind == "withdraw":
        for box, cost in backs.items():
            s = -cm._gap(box, goal) * 2
            if s > best_score:
                best_score, best = s, (box, facing_dir(u))
    if best is None:
        return cm.ChangeFormation(u.id, form) if form else None
    x, y = board(b).centre(best[0])
    return cm.MoveUnit(u.id, (x, y), best[1] * 45, form)


# ---- in play: every question the commander asks, answered both ways ----------------------
def _play_checked(monkeypatch, seed: int, turns: int, options=None):
    """Austerlitz with the commander on both sides; every search, sight line and choice
    of move is also answered by the reference and must agree. Returns the counts."""
    counts = {"search": 0, "blocked": 0, "choose": 0, "nearest": 0}
    real_search, real_blocked, real_choose = moves.search, fire._blocked, cm.Commander._choose_move
    real_nearest_all = cm.nearest_all

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
        assert got == [cm.nearest(h, boxes) for h in heres]
        counts["nearest"] += len(heres)
        return got

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
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.play_turn()
        # every sight line a shooter has, not only those the commander asked about
        b = s.battle
        for u in b.live_units():
            here = box_of(b, u)
            for e in b.live_units(b.enemy_of(u.side)):
                there = box_of(b, e)
                if max(abs(here[0] - there[0]), abs(here[1] - there[1])) <= 10:
                    assert fire._blocked(b, here, there) == ref_blocked(b, here, there)
    return counts


def test_speedups_answer_as_the_plain_code_in_play(monkeypatch):
    counts = _play_checked(monkeypatch, seed=3, turns=4)
    assert counts["search"] > 200 and counts["choose"] > 100 and counts["nearest"] > 200
    assert counts["blocked"] > 1000


def test_speedups_answer_as_the_plain_code_with_formations_and_sight_options(monkeypatch):
    counts = _play_checked(monkeypatch, seed=2, turns=3,
                           options={"formations": True, "line_of_sight": "terrain_only"})
    assert counts["choose"] > 100


# ---- on random inputs ------------------------------------------------------------------------
box = st.tuples(st.integers(-3, 60), st.integers(-3, 45))
offset = st.tuples(st.integers(-14, 14), st.integers(-14, 14))


@settings(max_examples=400, deadline=None)
@given(box, offset)
def test_line_boxes_by_offset_is_the_walk_where_it_is_drawn(a, off):
    b = (a[0] + off[0], a[1] + off[1])
    assert line_boxes(a, b) == _line_walk(a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(box, min_size=1, max_size=30), st.lists(box, min_size=1, max_size=40))
def test_nearest_all_is_nearest_for_each(heres, boxes):
    assert cm.nearest_all(heres, boxes) == [cm.nearest(h, boxes) for h in heres]


def test_nearest_all_takes_the_first_of_equals():
    boxes = [(5, 0), (0, 5), (-5, 0)]                    # all 5 boxes from (0, 0)
    assert cm.nearest_all([(0, 0)], boxes) == [(5, 0)] == [cm.nearest((0, 0), boxes)]
