"""Morschauser's speed-ups, piece by piece on random inputs (hypothesis) and on kept answers:
the line walk by offsets, nearest boxes, leader spot scores, the board and sight plans and
wall answers kept through undo and across battles, melee odds in whole numbers. Each is
compared with the plain code it replaced (morschauser_refs.py) or with the formula.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager.autopilot import Autopilot
from manager.grid import direction_to, line_boxes
from manager.rules.morschauser import fire, reckoning
from manager.rules.morschauser.board import board
from manager.session import Session


ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402
from morschauser_refs import (  # noqa: E402
    ref_blocked, ref_leader_scores, ref_line_walk, same_board)


# ---- on random inputs ------------------------------------------------------------------------
box = st.tuples(st.integers(-3, 60), st.integers(-3, 45))
offset = st.tuples(st.integers(-14, 14), st.integers(-14, 14))


@settings(max_examples=400, deadline=None)
@given(box, offset)
def test_line_boxes_by_offset_is_the_walk_where_it_is_drawn(a, off):
    b = (a[0] + off[0], a[1] + off[1])
    assert line_boxes(a, b) == ref_line_walk(a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(box, min_size=1, max_size=30), st.lists(box, min_size=1, max_size=40))
def test_nearest_all_is_nearest_for_each(heres, boxes):
    assert reckoning.nearest_all(heres, boxes) == [reckoning.nearest(h, boxes) for h in heres]


def test_nearest_all_takes_the_first_of_equals():
    boxes = [(5, 0), (0, 5), (-5, 0)]                    # all 5 boxes from (0, 0)
    assert reckoning.nearest_all([(0, 0)], boxes) == [(5, 0)] == [reckoning.nearest((0, 0), boxes)]


@settings(max_examples=200, deadline=None)
@given(st.lists(box, min_size=1, max_size=20), st.lists(box, min_size=1, max_size=70), box,
       st.sampled_from([4, 6, 6.5]), st.sets(box, max_size=10))
def test_leader_spot_scores_count_as_the_loop(boxes, units, want, radius, taken):
    assert reckoning.leader_spot_scores(boxes, units, want, radius, taken) == \
        ref_leader_scores(boxes, units, want, radius, taken)


@settings(max_examples=300, deadline=None)
@given(box, box)
def test_direction_and_distance_as_the_formulas(a, b):
    import math
    from manager.grid import box_distance, dir_of_degrees
    dx, dy = b[0] - a[0], b[1] - a[1]
    want = 0 if dx == 0 and dy == 0 else dir_of_degrees(math.degrees(math.atan2(dx, -dy)))
    assert direction_to(a, b) == want == direction_to(a, b)        # asked again: remembered
    ax, ay = abs(dx), abs(dy)
    assert box_distance(a, b) == (max(ax, ay) - min(ax, ay)) + 1.5 * min(ax, ay)


def test_the_board_kept_through_undo_and_redo_is_the_board_built_afresh():
    """Undo restores a snapshot (a wholesale change): the board is resynced from the
    records, and must be the board a fresh build gives, step after step back."""
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=4, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    board(s.battle)
    for _ in range(40):
        s.undo()
        same_board(s.battle)
    for _ in range(15):
        s.redo()
        same_board(s.battle)


def test_sight_plans_are_kept_by_the_ground_and_read_as_the_walk_in_another_battle():
    """Battles over the same ground share the sight plans (a plan reads only heights and
    screens); a plan warmed by one battle answers as the plain walk in the next, and
    other ground (one height changed) gets a store of its own."""
    from types import SimpleNamespace
    first = Session(scenario(AUSTERLITZ, "morschauser", seed=1, turns=2)).battle
    second = Session(scenario(AUSTERLITZ, "morschauser", seed=2, turns=2)).battle
    t1, t2 = board(first).terrain, board(second).terrain
    assert t1 is not t2
    assert fire.plans_for_ground(t1) is fire.plans_for_ground(t2)
    boxes = sorted(board(first).unit_box.values())[::7]
    for a in boxes:                                  # warm the store from the first battle
        for b in boxes:
            fire._blocked(first, a, b)
    looked = 0
    for a in boxes:
        for b in boxes:
            assert fire._blocked(second, a, b) == ref_blocked(second, a, b)
            looked += 1
    assert looked > 100
    box = next(iter(t1.heights)) if t1.heights else (0, 0)
    other = SimpleNamespace(heights={**t1.heights, box: t1.heights.get(box, 0) + 1},
                            screens=dict(t1.screens))
    assert fire.plans_for_ground(other) is not fire.plans_for_ground(t1)
    assert fire.plans_for_ground(SimpleNamespace(heights=dict(t1.heights),
                                                 screens=dict(t1.screens))) is fire.plans_for_ground(t1)


def test_wall_answers_kept_by_the_ground_are_the_crossing_worked_out(monkeypatch):
    """The walls' answers are shared by battles over the same ground (keyed by the walls'
    shapes and the box size): warmed by one battle, they are the crossing worked out
    afresh in another, on lines across and beside every wall.

    The memos start empty here: they are emptied when they pass 8 entries, so the battles
    of tests run before this one in the same process (any order, under xdist) could empty
    them between the two battles, and the sharing would not show."""
    monkeypatch.setattr(fire, "_WALLS", {})
    monkeypatch.setattr(fire, "_WALLS_BY_GROUND", {})
    first = Session(scenario(AUSTERLITZ, "morschauser", seed=1, turns=2)).battle
    second = Session(scenario(AUSTERLITZ, "morschauser", seed=2, turns=2)).battle
    t1, t2 = board(first).terrain, board(second).terrain
    assert t1 is not t2 and t1.walls
    near = set()
    for w in t1.walls:
        x0, y0, x1, y1 = w.bounds
        for x, y in ((x0, y0), (x1, y1)):
            c, r = t1.grid.box_of(x, y)
            near |= {(c + i, r + j) for i in range(-2, 3) for j in range(-2, 3)}
    near = sorted(near)[:60]
    for a in near:                                   # warm the store from the first battle
        for b in near:
            fire._wall_between(t1, a, b)
    warmed = fire._WALLS[id(t1)][1]
    assert warmed
    crossed = 0
    for a in near:
        for b in near:
            got = fire._wall_between(t2, a, b)
            assert got == t2._wall_crosses(a, b), (a, b)
            crossed += got
    assert crossed > 0 and fire._WALLS[id(t2)][1] is warmed


def _melee_outcomes_by_product(battle, ps, penalties):
    """The plain reference for pieces_odds' outcomes: every combination of hits on every
    target (itertools.product of the targets' distributions), each as a Fraction."""
    import itertools
    from fractions import Fraction

    from manager.odds import Dist
    per_target, dealer = {}, {}
    for p in ps:
        d = Dist.die([1 if f <= p.rating else 0 for f in range(1, 7)]).times(p.dice)
        per_target[p.target] = per_target.get(p.target, Dist.point(0)) + d
        dealer[p.target] = p.side
    units = {p.id: p for p in ps if not p.is_leader}
    targets = sorted(per_target)
    out = {"attackers fall back": Fraction(0), "defenders fall back": Fraction(0),
           "drawn": Fraction(0)}
    gone = {u: Fraction(0) for u in units}
    for combo in itertools.product(*(enumerate(per_target[t].weights) for t in targets)):
        p = Fraction(1)
        for t, (k, w) in zip(targets, combo):
            p *= Fraction(w, per_target[t].total)
        if not p:
            continue
        taken = {t: k for t, (k, _) in zip(targets, combo)}
        a = sum(k for t, k in taken.items() if dealer[t] == "attack")
        d = sum(k for t, k in taken.items() if dealer[t] == "defend")
        losers = "attack" if a < d else "defend" if d < a else ""
        standing = False
        for uid, piece in units.items():
            lost = taken.get(uid, 0)
            left = battle.units[uid].hits
            if piece.side == losers and lost < left:
                lost += penalties.get(uid, 0)
            if lost >= left:
                gone[uid] += p
            elif piece.side == losers:
                standing = True
        if not losers:
            out["drawn"] += p
        elif standing:
            out[f"{'attackers' if losers == 'attack' else 'defenders'} fall back"] += p
    out.update({f"{battle.units[u].name} eliminated": g for u, g in gone.items()})
    return out


def test_melee_odds_summed_in_whole_numbers_are_the_fractions_of_every_combination():
    """pieces_odds sums whole-number weights and divides once: on every melee of three
    Austerlitz turns (up to three units a side) its outcomes are the exact fractions of
    the plain product of the targets' distributions."""
    from manager.odds import Odds
    from manager.rules.morschauser import melee as ml
    from manager.rules.morschauser.board import box_of
    from manager.rules.morschauser.morale import fall_back_penalty
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=1, turns=3))
    seen = []

    def execute(action):
        if type(action).__name__ == "ResolveMelee":
            m = ml.find_melee(s.battle, action.defender)
            if not m.lone_leader:
                b = s.battle
                ps = ml.pieces(b, m, action.joiners)
                pen = {p.id: fall_back_penalty(b, b.units[p.id], [box_of(b, b.units[p.target])])
                       for p in ps if not p.is_leader}
                got = ml.pieces_odds(b, ps, Odds("melee"), pen).outcomes
                want = _melee_outcomes_by_product(b, ps, pen)
                assert {k: got[k] for k in want} == want
                seen.append(len(ps))
        return s.execute(action)

    ap = Autopilot(s, execute=execute)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(seen) >= 5 and max(seen) >= 3          # several melees, some of 3+ pieces
