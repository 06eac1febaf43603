"""Issue 17's d3 commander speed-ups (shooting, the look-ahead's bookkeeping) give the
answers of the slower code they stand in for (the rules' checks: test_d3_speed.py)."""
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
_BATTLES: dict = {}


def _battle(name: str):
    """The opening battle of a scenario under d3 (loaded once for the module)."""
    if name not in _BATTLES:
        from manager.scenario_io import load_scenario
        _BATTLES[name] = load_scenario(ROOT / "scenarios" / f"{name}.toml", "d3")
    return _BATTLES[name]


# ---- sight: the table's bound on half-diagonals, the shot remembered per version ---------
def _old_sight_refusal(battle, unit, target) -> str:
    from manager import spatial
    from manager.footprint import segment
    from manager.rules.d3.units import footprint
    from manager.table_terrain import table_terrain
    front = footprint(battle, unit).front_centre()
    line = segment(front, target.pos)
    for o in spatial.crossing_line(battle, front, target.pos, line.length + 8, footprint, "d3",
                                   origin=unit.pos):
        if o.id not in (unit.id, target.id) and footprint(battle, o).polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = table_terrain(battle.battlefield).sight_blocked(unit.pos, target.pos, skip=1.0)
    return f"{blocked} blocks the view" if blocked else ""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6),
       st.integers(0, 10 ** 6))
def test_d3_sight_refusal_is_the_old_one(name, i, j):
    """Any unit's view of any other on Hanau's or Austerlitz's opening table: the same
    refusal (the same first base named) as with spatial.crossing_line's candidates."""
    from manager.rules.d3.sight import sight_refusal
    b = _battle(name)
    units = b.live_units()
    u, t = units[i % len(units)], units[j % len(units)]
    if u.id != t.id:
        assert sight_refusal(b, u, t) == _old_sight_refusal(b, u, t)


def test_d3_shot_is_remembered_only_until_the_battle_changes():
    """A refusal is re-raised with its message; a friend stepping into the line (a new
    battle version) is seen at once."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build_table, piece, session_at

    from manager.errors import IllegalAction
    from manager.rules.d3.combat import shot
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("f", "blue", "line_infantry", (40, 30)),
                     piece("e", "red", "line_infantry", (20, 22))], "d3")
    s, _ = session_at(b, "shoot", side="blue")
    bt = s.battle
    a, e = bt.units["a"], bt.units["e"]
    assert shot(bt, a, e) is shot(bt, a, e)
    bt.update_unit("f", x=20.0, y=26.0)
    for _ in range(2):
        try:
            shot(bt, bt.units["a"], bt.units["e"])
            raise AssertionError("a friend in the way")
        except IllegalAction as why:
            assert "in the way" in str(why)


# ---- the shooting candidates: the near-scan's list, filtered one by one ------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6), st.floats(0, 60))
def test_d3_in_range_candidates_are_the_old_list(name, pick, reach):
    """The same enemies in the same order as near(unit, reach) less those surely out of
    range, for any unit of either side (cavalry: none)."""
    from manager.rules.d3.combat import in_range_candidates, surely_out_of_range
    from manager.rules.d3.units import near
    b = _battle(name)
    units = b.live_units()
    u = units[pick % len(units)]
    side = b.enemy_of(u.side)
    old = [e for e in near(b, u.pos, reach, side) if not surely_out_of_range(b, u, e)]
    assert in_range_candidates(b, u, reach, side) == old


def test_d3_in_range_candidates_are_not_vacuous():
    from manager.rules.d3.combat import in_range_candidates
    from manager.rules.d3.units import utype
    b = _battle("hanau")
    shooters = [u for u in b.live_units() if utype(u) != "cavalry"]
    assert any(in_range_candidates(b, u, 60, b.enemy_of(u.side)) for u in shooters)



# the (dx, dy) of enemies exactly 5 inches off (3-4-5 and 5-0), and some farther or nearer
RING5 = [(3, 4), (-3, 4), (3, -4), (-3, -4), (4, 3), (-4, -3), (5, 0), (-5, 0), (0, 5),
         (0, -5), (0, 7), (6, 1), (-7, 2), (2, 4.5)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(RING5), min_size=1, max_size=9, unique=True),
       st.sampled_from([4.9, 5.0, 5.0000001, 60.0]), st.integers(0, 3))
def test_d3_nearest_walk_keeps_the_first_of_equal_distances(offsets, reach, moved):
    """Enemies at equal distances (several at one x, on both sides of the unit's x), in
    any order: the walk over the centres sorted by x keeps the first of the nearest in
    live_units order, as min() does, also after a few enemies moved (the grid patched
    in place, its sorted order kept up); None beyond the reach."""
    from builders import build_table, piece
    from manager.footprint import distance
    from manager.rules.d3.commander import Commander
    from manager.rules.d3.units import near
    pieces = [piece("u", "blue", "line_infantry", (30.0, 30.0))]
    pieces += [piece(f"e{k}", "red", "line_infantry", (30.0 + dx, 30.0 + dy))
               for k, (dx, dy) in enumerate(offsets)]
    b = build_table(pieces, "d3", width=60.0, height=60.0)
    u = b.units["u"]
    c = Commander(b, "blue")
    c._nearest(u, reach)                          # (the grid built and sorted)
    for k in range(min(moved, len(offsets))):     # moved onto another's distance
        dx, dy = RING5[(k + 5) % len(RING5)]
        b.update_unit(f"e{k}", x=30.0 + dy, y=30.0 + dx)
    u = b.units["u"]
    enemies = near(b, u.pos, reach, "red")
    want = min(enemies, key=lambda e: distance(e.pos, u.pos)) if enemies else None
    assert c._nearest(u, reach) is want

# ---- the look-ahead's candidate spots: the plain computation's list ----------------------
def _old_candidates(c, u, reach, targets=None):
    """_candidates computed plainly: every ring spot, aspect and blow per spot, the
    exposure by the one-spot scan."""
    from manager.footprint import aspect, bearing, distance, heading
    from manager.odds import Dist
    from manager.rules.d3.ride_spots import EXPOSURE_WEIGHT, RINGS, blow_value
    from manager.rules.d3.combat import Strike, blow_hits
    from manager.rules.d3.units import footprint, on_hilltop, utype
    b = c.battle
    out = []
    for e in c._targets(u, reach + max(RINGS) if targets is None else targets):
        away = bearing(e.pos, u.pos)
        ways = [away + d for d in (-90, -45, 0, 45, 90)]
        ways += [e.facing + 90, e.facing + 180, e.facing + 270]
        for r in RINGS:
            for w in ways:
                hx, hy = heading(w % 360)
                spot = (round(e.x + hx * r, 2), round(e.y + hy * r, 2))
                if distance(u.pos, spot) <= reach:
                    minus = (1 if on_hilltop(b, e) else 0) + (1 if utype(e) == "cavalry" else 0)
                    s = Strike(minus, aspect(footprint(b, e), spot) != "front")
                    worth = blow_value(Dist.die([blow_hits(b, s, f) for f in (1, 2, 3)]), e)
                    out.append([worth - EXPOSURE_WEIGHT * c._exposure(spot), spot, e])
    return out


def test_d3_cavalry_candidates_are_the_plain_ones_in_play(monkeypatch):
    """Two Austerlitz turns: every horse's candidate spots, their bounds and targets are
    those of the plain computation, value for value and in order."""
    import sys

    from manager.autopilot import Autopilot
    from manager.rules.d3 import cavalry
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    fast = cavalry.CavalryMixin._candidates
    asked = [0, 0]

    def checked(self, u, reach, targets=None):
        got = fast(self, u, reach, targets)
        assert got == _old_candidates(self, u, reach, targets)
        asked[0] += 1
        asked[1] += len(got)
        return got

    monkeypatch.setattr(cavalry.CavalryMixin, "_candidates", checked)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert asked[0] > 20 and asked[1] > 2000


# ---- surely_hidden over the kept arrays of every base ----------------------------------
def _old_surely_hidden(battle, unit, targets) -> list:
    from manager.footprint import distance
    from manager.rules.d3.units import footprint, near
    from manager.sightlines import surely_crossed
    if not targets or battle.option("line_of_sight", "blocked") == "none":
        return [False] * len(targets)
    front = footprint(battle, unit).front_centre()
    others = near(battle, unit.pos, max(distance(front, t.pos) for t in targets) + 8)
    return surely_crossed(front, [t.pos for t in targets], [t.id for t in targets],
                          others, [footprint(battle, o) for o in others], unit, 8.0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6),
       st.lists(st.integers(0, 10 ** 6), min_size=1, max_size=12))
def test_d3_surely_hidden_is_the_near_scan_one(name, pick, others):
    """Any shooter and any targets (friends too) on Hanau's or Austerlitz's table: the
    same answers as surely_crossed over the near bases."""
    from manager.rules.d3.sight import surely_hidden
    b = _battle(name)
    units = b.live_units()
    u = units[pick % len(units)]
    targets = [units[k % len(units)] for k in others if units[k % len(units)].id != u.id]
    assert surely_hidden(b, u, targets) == _old_surely_hidden(b, u, targets)


def test_d3_surely_hidden_arrays_follow_the_battle():
    """A base moved into the line (a new battle version) hides the target at once."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build_table, piece, session_at

    from manager.rules.d3.sight import surely_hidden
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("f", "blue", "line_infantry", (40, 30)),
                     piece("e", "red", "line_infantry", (20, 18))], "d3")
    s, _ = session_at(b, "shoot", side="blue")
    bt = s.battle
    assert surely_hidden(bt, bt.units["a"], [bt.units["e"]]) == [False]
    bt.update_unit("f", x=20.0, y=24.0)
    assert surely_hidden(bt, bt.units["a"], [bt.units["e"]]) == [True]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6), st.floats(0.5, 80))
def test_d3_nearest_enemy_is_the_first_of_the_nearest(name, pick, reach):
    """The commander's nearest enemy is min() over the near enemies, ties to the first,
    and None when no enemy is near (seventh session: without asking near())."""
    from manager.footprint import distance
    from manager.rules.d3.commander import Commander
    from manager.rules.d3.units import near
    b = _battle(name)
    units = b.live_units()
    u = units[pick % len(units)]
    enemies = near(b, u.pos, reach, b.enemy_of(u.side))
    got = Commander(b, u.side)._nearest(u, reach)
    if enemies:
        assert got is min(enemies, key=lambda e: distance(e.pos, u.pos))
    else:
        assert got is None


def test_d3_holding_horse_searches_the_same_spots_in_play(monkeypatch):
    """Two Austerlitz turns: a holding horse's search within a move yields the same
    spots, in the same order, from the candidates round the near enemies as from all."""
    import sys

    from manager.autopilot import Autopilot
    from manager.rules.d3 import cavalry
    from manager.rules.d3.tables import MOVE
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    ride = cavalry.CavalryMixin._ride_to_charge
    compared = [0, 0]

    def checked(self, u, floor):
        if floor > 0:
            within = MOVE["cavalry"] - 0.05
            near = self._candidates(u, 2 * MOVE["cavalry"], within + max(cavalry.RINGS) + 0.01)
            full = self._candidates(u, 2 * MOVE["cavalry"])
            assert len(near) < len(full)
            for floor_ in (floor, -99.0):
                a = list(self._staging(u, near, {}, within, floor_))
                assert a == list(self._staging(u, full, {}, within, floor_))
                compared[1] += len(a)
            compared[0] += 1
        return ride(self, u, floor)

    monkeypatch.setattr(cavalry.CavalryMixin, "_ride_to_charge", checked)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert compared[0] >= 4 and compared[1] > 0
