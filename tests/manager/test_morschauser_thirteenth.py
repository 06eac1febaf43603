"""Issue 17, thirteenth session: Morschauser's cheaper paths against the code they replaced
(morschauser_refs.py keeps it), on every input of a range and in play."""
import sys
from pathlib import Path

from manager.grid import line_boxes, line_offsets

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from morschauser_refs import ref_line_walk  # noqa: E402


def test_the_whole_number_line_walk_is_the_float_walk_for_every_offset():
    # every offset on a 100 x 100 box table: straight, diagonal, steep and shallow lines,
    # corner touches at every ratio of the offset's sides
    for dx in range(-50, 51):
        for dy in range(-50, 51):
            assert line_offsets(dx, dy) == ref_line_walk((0, 0), (dx, dy)), (dx, dy)


def test_the_line_walk_drawn_anywhere_is_the_float_walk():
    for a in ((0, 0), (3, 7), (-4, 2), (59, 44)):
        for off in ((5, 3), (-7, 2), (1, -9), (6, 6), (0, 4), (-3, 0), (10, -5)):
            b = (a[0] + off[0], a[1] + off[1])
            assert line_boxes(a, b) == ref_line_walk(a, b)


def test_walls_not_asked_of_shapely_answer_as_the_crossing_worked_out(monkeypatch):
    """The walls' bounding boxes pass over shapely for lines whose last box no wall comes
    near: every line between boxes about the walls (and random ones across the table)
    answers as the crossing worked out, and most are told without shapely."""
    import random

    from manager.rules.morschauser import fire
    from manager.rules.morschauser.board import board
    from manager.session import Session
    from bench_common import AUSTERLITZ, scenario
    monkeypatch.setattr(fire, "_WALLS", {})
    monkeypatch.setattr(fire, "_WALLS_BY_GROUND", {})
    t = board(Session(scenario(AUSTERLITZ, "morschauser", seed=1, turns=1)).battle).terrain
    assert t.walls
    near = set()
    for w in t.walls:
        x0, y0, x1, y1 = w.bounds
        c0, r0 = t.grid.box_of(x0, y0)
        c1, r1 = t.grid.box_of(x1, y1)
        near |= {(c, r) for c in range(c0 - 2, c1 + 3) for r in range(r0 - 2, r1 + 3)}
    rng = random.Random(5)
    near = sorted(near)
    pairs = [(a, b) for a in rng.sample(near, 40) for b in near]
    pairs += [((rng.randrange(40), rng.randrange(30)), (rng.randrange(40), rng.randrange(30)))
              for _ in range(2000)]
    skipped = crossed = 0
    for a, b in pairs:
        got = fire._wall_between(t, a, b)
        assert got == t._wall_crosses(a, b), (a, b)
        crossed += got
        skipped += not fire._wall_may_cross(fire._WALLS[id(t)][2], t.grid.size, a, b)
    assert crossed > 20 and skipped > len(pairs) // 2


def _play(monkeypatch, seed, turns, options=None, **patches):
    """Austerlitz with the commander on both sides, `patches` set on the commander."""
    from dataclasses import replace
    from types import MappingProxyType

    from manager.autopilot import Autopilot
    from manager.rules.morschauser import commander as cm
    from manager.session import Session
    from bench_common import AUSTERLITZ, scenario
    for name, fn in patches.items():
        monkeypatch.setattr(cm.Commander, name, fn)
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=turns))
    if options:
        s.battle.set_info(replace(s.battle.info, options=MappingProxyType(
            {**s.battle.info.options, **options})))
    ap = Autopilot(s)
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.step()
    return s


def test_the_shot_chosen_is_the_shot_of_a_scan_of_every_enemy(monkeypatch):
    """The enemies near are passed over cheaply when surely out of range or behind the
    shooter: every shot judged in play is the shot of the plain scan, under the usual
    arc, a wide one (the cheap look off) and a narrow one."""
    from manager.rules.morschauser import commander as cm
    from morschauser_refs import ref_find_shot
    real = cm.Commander._find_shot
    seen = {"shots": 0, "none": 0}

    def find_shot(self, u):
        got = real(self, u)
        assert got == ref_find_shot(self, u), (u.id, got)
        seen["shots" if got else "none"] += 1
        return got
    _play(monkeypatch, 1, 4, _find_shot=find_shot)
    assert seen["shots"] > 60 and seen["none"] > 100
    for arc in (100, 30):
        _play(monkeypatch, 2, 3, options={"fire_arc": arc}, _find_shot=find_shot)
    assert seen["shots"] > 100


def test_the_enemies_are_the_scan_of_every_live_unit_in_play():
    """With two sides the enemy's own live view is the scan of every live unit not of
    this side, in the battle's order, and so are their boxes: at every step of 3 turns
    (moves, fire, falls back, eliminations) and after a unit is put back."""
    from manager.autopilot import Autopilot
    from manager.rules.morschauser.board import board
    from manager.rules.morschauser.commander import enemies_of
    from manager.session import Session
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=4, turns=3))
    ap, steps = Autopilot(s), 0
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.step()
        b = s.battle
        for side in b.sides:
            want = [u for u in b.live_units() if u.side != side]
            got, boxes = enemies_of(b, side)
            assert got == want and boxes == [board(b).unit_box[u.id] for u in want]
        steps += 1
    gone = [u for u in s.battle.units.values() if u.eliminated]
    assert steps > 200 and gone
    b = s.battle
    b.update_unit(gone[0].id, eliminated=False, hits=1)       # one put back
    for side in b.sides:
        assert enemies_of(b, side)[0] == [u for u in b.live_units() if u.side != side]


def test_the_units_a_leader_may_rally_are_those_of_the_distance_first_scan(monkeypatch):
    """Units short of hits are picked before their distance is measured: every leader's
    answer at every step of 4 turns (the army's General among them) is the old scan's,
    order included, and some answers hold units."""
    from manager.autopilot import Autopilot
    from manager.rules.morschauser import morale
    from manager.rules.morschauser.board import board, box_of, distance
    from manager.rules.morschauser.tables import LEADER
    from manager.session import Session
    from bench_common import AUSTERLITZ, scenario

    def old(battle, leader):
        if morale.commands_nothing(battle, leader):
            return []
        ub = board(battle).unit_box
        near = battle.hierarchy.units_within(
            leader.id, LEADER["radius"], lambda u: ub[u] if u in ub else box_of(battle, battle.units[u]),
            box_of(battle, leader), distance)
        return [u for u in near if not battle.units[u].eliminated
                and battle.units[u].hits < battle.units[u].max_hits]
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=1, turns=4))
    ap, held = Autopilot(s), 0
    while not s.battle.state.over and s.battle.state.turn <= 4:
        ap.step()
        for leader in s.battle.live_leaders():
            got = morale.rallyable(s.battle, leader)
            assert got == old(s.battle, leader), leader.id
            held += bool(got)
    assert held > 100
