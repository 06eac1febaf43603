"""Issue 17's d3 speed-ups give the answers of the slower code they stand in for."""
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from manager.contact_scan import contact_point as shared_contact_point
from manager.footprint import Footprint, bearing
from manager.contact import contact_point
from play_checks import refused

coord = st.floats(0, 40, allow_nan=False)
facing = st.one_of(st.integers(0, 359).map(float), st.floats(0, 359.99))
ROOT = Path(__file__).resolve().parents[2]
size = st.sampled_from([(4.0, 2.0), (3.0, 1.5), (2.0, 1.0), (4.0, 4.0)])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coord, coord, facing, size, coord, coord, facing, size, st.floats(-60, 60),
       st.booleans())
def test_d3_contact_point_is_the_shared_one(mx, my, mf, ms, tx, ty, tf, ts, off, aim):
    """The same point (float for float) or None, whether the mover heads at the target
    (a charge: round(bearing) like charge_plan), aside of it, or from touching."""
    mover = Footprint(mx, my, mf, *ms)
    target = Footprint(tx, ty, tf, *ts)
    way = round(bearing(mover.centre, target.centre)) % 360 if aim else \
        (bearing(mover.centre, target.centre) + off) % 360
    mover = mover.moved(mx, my, way) if aim else mover
    assert contact_point(mover, target, way) == shared_contact_point(mover, target, way)


# ---- ground_refusal: boxes first, shapes only where a box meets -------------------------
def _old_ground_refusal(battle, unit, start, end, ignore=(), charging=False) -> str:
    """ground_refusal as it was before the box pre-checks (the reference)."""
    from manager.footprint import Sweep, closer_than, distance, inside, overlap, segment
    from manager.rules.d3.tables import CROSSING_LANDING
    from manager.rules.d3.units import footprint, near, utype
    from manager.table_terrain import table_terrain
    bf = battle.battlefield
    if not inside(end, bf.width, bf.height):
        return "the base would leave the table"
    t = table_terrain(bf)
    kind = utype(unit)
    sweep = Sweep(start, end)
    crossed = t.kinds_at(sweep.hull)
    if "lake" in crossed or "marsh" in crossed:
        return "marsh and lakes are impassable"
    if "woods" in crossed and kind != "skirmishers":
        return "only skirmishers enter woods"
    if "rough" in crossed and kind not in ("infantry", "skirmishers"):
        return "only infantry and skirmishers enter difficult ground"
    if t.covered(end.polygon(), ("town",)) >= 0.5 and kind not in ("infantry", "cavalry"):
        return "only infantry and cavalry may end a move in a town"
    if distance(start.centre, end.centre) >= 1e-9:
        path = segment(start.centre, end.centre)
        for f, p in t.crossings(path, ("river", "stream")):
            if f.kind == "river" and not t.crossing_at(p):
                return f"{f.name or 'the river'} is crossed only at a bridge or ford"
            at_bridge = t.crossing_at(p) == "bridge"
            if f.kind == "stream" and utype(unit) == "artillery" and not (
                    at_bridge and battle.option("artillery_streams") == "at_bridges"):
                return "artillery cannot cross a stream"
            if at_bridge and battle.option("bridge_crossing") == "free":
                continue
            if distance(start.centre, (p.x, p.y)) > end.depth / 2 + CROSSING_LANDING or \
                    distance((p.x, p.y), end.centre) > end.depth / 2 + CROSSING_LANDING:
                return f"crossing {f.name or f.kind} takes the whole move: start at the bank " \
                       f"and end on the far bank"
    for o in near(battle, end.centre, distance(start.centre, end.centre) + 10):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(battle, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if not charging and o.side != unit.side and closer_than(end, ofp, 0.1):
            return f"only a charge may touch {o.name}"
        through = sweep.crosses(ofp)
        if through and (o.side != unit.side or not (kind == "skirmishers"
                                                     or utype(o) == "skirmishers")):
            return f"{o.name} is in the way (only skirmishers pass through friends)"
    return ""


_BATTLES: dict = {}


def _battle(name: str):
    """The opening battle of a scenario under d3 (loaded once for the module)."""
    if name not in _BATTLES:
        from manager.scenario_io import load_scenario
        _BATTLES[name] = load_scenario(ROOT / "scenarios" / f"{name}.toml", "d3")
    return _BATTLES[name]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6), st.floats(0, 1),
       st.floats(0, 1), st.floats(0, 16), st.floats(0, 360), st.integers(0, 359),
       st.booleans())
def test_d3_ground_refusal_is_the_old_one(name, pick, fx, fy, d, way, facing, charging):
    """Any straight move of any unit anywhere on Hanau's or Austerlitz's table (woods,
    rough, marsh, town, river, stream, and the armies in place) is refused for the
    same reason, or allowed, as by the check without the box pre-checks."""
    from manager.footprint import heading
    from manager.rules.d3.ground import ground_refusal
    from manager.rules.d3.units import footprint
    b = _battle(name)
    units = b.live_units()
    u = units[pick % len(units)]
    bf = b.battlefield
    x, y = fx * bf.width, fy * bf.height
    hx, hy = heading(way)
    start = footprint(b, u, x=x, y=y, facing=round(way) % 360)
    end = footprint(b, u, x=x + hx * d, y=y + hy * d, facing=facing)
    ignore = (units[(pick + 1) % len(units)].id,) if charging else ()
    assert ground_refusal(b, u, start, end, ignore, charging) == \
        _old_ground_refusal(b, u, start, end, ignore, charging)


def test_d3_ground_refusal_box_checks_are_not_vacuous():
    """On Hanau the box pre-checks pass over many moves in the open, and the shapes still
    refuse the wood, the marsh, rough ground and the river's crossing, as before."""
    from manager.footprint import box, heading
    from manager.rules.d3.ground import REFUSING, _boxes, ground_refusal
    from manager.rules.d3.units import footprint, utype
    from manager.table_terrain import table_terrain
    b = _battle("hanau")
    boxes, t = _boxes(b.battlefield), table_terrain(b.battlefield)
    whole = (0.0, 0.0, b.battlefield.width, b.battlefield.height)
    assert t.may_touch(whole, REFUSING) and boxes.towns and boxes.water
    u = next(u for u in b.live_units() if utype(u) == "cavalry")
    reasons, in_the_open = set(), 0
    for x in range(2, 47, 2):
        for y in range(2, 35, 2):
            for way in (0, 90):
                hx, hy = heading(way)
                start = footprint(b, u, x=float(x), y=float(y), facing=way)
                end = footprint(b, u, x=x + hx * 4, y=y + hy * 4, facing=way)
                why = ground_refusal(b, u, start, end)
                assert why == _old_ground_refusal(b, u, start, end)
                reasons.add(why)
                in_the_open += not t.may_touch(box(start, end), REFUSING)
    assert in_the_open > 50
    assert {"only skirmishers enter woods", "marsh and lakes are impassable",
            "only infantry and skirmishers enter difficult ground", ""} <= reasons
    assert any(r.startswith("crossing") for r in reasons)
    assert any("crossed only at a bridge or ford" in r for r in reasons)


def test_d3_contact_and_ground_are_the_old_ones_in_play(monkeypatch):
    """Two Austerlitz turns of the automatic commanders: every contact point and every
    ground check the game asks is the shared / old function's answer."""
    import sys

    from manager.autopilot import Autopilot
    from manager.rules.d3 import ground, moves
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    asked = {"contact": 0, "ground": 0, "refused": 0}
    fast_contact, fast_ground = moves.contact_point, ground.ground_refusal

    def contact(mover, target, along):
        asked["contact"] += 1
        got = fast_contact(mover, target, along)
        assert got == shared_contact_point(mover, target, along)
        return got

    def ground(battle, unit, start, end, ignore=(), charging=False):
        asked["ground"] += 1
        got = fast_ground(battle, unit, start, end, ignore, charging)
        assert got == _old_ground_refusal(battle, unit, start, end, ignore, charging)
        asked["refused"] += bool(got)
        return got

    fast_units = moves.units_refusal

    def in_the_way(battle, unit, start, end, ignore=(), charging=False):
        # (the commander's first look: a move another unit refuses is refused)
        asked["units"] = asked.get("units", 0) + 1
        got = fast_units(battle, unit, start, end, ignore, charging)
        if got:
            assert _old_ground_refusal(battle, unit, start, end, ignore, charging)
        return got

    monkeypatch.setattr(moves, "contact_point", contact)
    monkeypatch.setattr(moves, "ground_refusal", ground)
    monkeypatch.setattr(moves, "units_refusal", in_the_way)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    # (moves another unit refuses are passed over before the full ground check)
    assert asked["contact"] > 100 and asked["ground"] > 200 and asked["units"] > 300
    assert 0 < asked["refused"] < asked["ground"]


# ---- surely_blocked: a move whose centre runs through a base is refused -----------------
D3_KINDS = ["line_infantry", "light_cavalry", "heavy_cavalry", "skirmishers", "foot_artillery"]
spot = st.tuples(st.floats(4, 44), st.floats(4, 32))


def _ground(battle, unit, to, facing) -> str:
    """ground_refusal of a MoveUnit, on the bases check_move_unit draws."""
    from manager.footprint import bearing
    from manager.rules.d3.ground import ground_refusal
    from manager.rules.d3.units import footprint
    moving = footprint(battle, unit, facing=bearing(unit.pos, to))
    end = footprint(battle, unit, x=to[0], y=to[1], facing=facing)
    return ground_refusal(battle, unit, moving, end)




@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, spot, st.integers(0, 359), st.integers(0, 359), st.sampled_from(D3_KINDS),
       st.sampled_from(D3_KINDS), st.booleans(), st.floats(0.3, 2.0), st.floats(-3, 3),
       st.integers(0, 359))
def test_d3_surely_blocked_moves_are_refused(a, o, fa, fo, ka, ko, friend, past, aside,
                                             facing):
    """A move aimed at, past or beside another base (friend or enemy, any kinds): when
    the pre-check says "through a base", the rules refuse it, whatever the facing."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build_table, piece, session_at

    from manager import game_actions as ga
    from manager.footprint import bearing, heading
    from manager.rules.d3.moves import surely_blocked
    b = build_table([piece("a", "blue", ka, a, facing=fa),
                     piece("o", "blue" if friend else "red", ko, o, facing=fo)], "d3")
    s, _ = session_at(b, "move", side="blue")
    u = s.battle.units["a"]
    hx, hy = heading(bearing(a, o))
    to = (round(a[0] + (o[0] - a[0]) * past - hy * aside, 2),
          round(a[1] + (o[1] - a[1]) * past + hx * aside, 2))
    if surely_blocked(s.battle, u, to):
        assert _ground(s.battle, u, to, facing)              # the ground, not the allowance
        assert refused(s, ga.MoveUnit("a", to, facing))


def test_d3_surely_blocked_is_not_vacuous():
    """Straight through a friend's line is claimed (and refused); beside it, or for
    skirmishers passing friends, it is not claimed."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build_table, piece, session_at

    from manager import game_actions as ga
    from manager.rules.d3.moves import surely_blocked
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("k", "blue", "skirmishers", (30, 30)),
                     piece("f", "blue", "line_infantry", (20, 27)),
                     piece("g", "blue", "line_infantry", (30, 27))], "d3")
    s, _ = session_at(b, "move", side="blue")
    a, k = s.battle.units["a"], s.battle.units["k"]
    assert surely_blocked(s.battle, a, (20, 24.5))
    assert refused(s, ga.MoveUnit("a", (20, 24.5), 0))
    assert not surely_blocked(s.battle, a, (14, 30))
    assert not refused(s, ga.MoveUnit("a", (14, 30), 0))
    assert not surely_blocked(s.battle, k, (30, 24.5))


def test_d3_surely_blocked_in_play(monkeypatch):
    """Two Austerlitz turns: every move the commanders' pre-check passes over is refused
    by the rules (and many are passed over)."""
    import sys

    from manager import game_actions as ga
    from manager.autopilot import Autopilot
    from manager.rules.d3 import cavalry, commander, moves
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    claimed = [0]

    def checked(battle, unit, to):
        got = moves.surely_blocked(battle, unit, to)
        if got:
            claimed[0] += 1
            for facing in (0, 137, unit.facing):
                assert _ground(battle, unit, to, facing), (unit.id, to)
                assert refused(s, ga.MoveUnit(unit.id, to, facing)), (unit.id, to)
        return got

    def checked_each(battle, unit, tos):
        # (the foot's paths, one scan for all: each answer the plain one's)
        for to, got in zip(tos, moves.surely_blocked_each(battle, unit, tos)):
            assert got == moves.surely_blocked(battle, unit, to), (unit.id, to)
            yield checked(battle, unit, to)

    monkeypatch.setattr(commander, "surely_blocked_each", checked_each)
    monkeypatch.setattr(cavalry, "surely_blocked", checked)
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert claimed[0] > 100


# ---- the look-ahead's charge paths: surely refused ones skip the ground test -------------
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spot, spot, spot, st.integers(0, 359), st.integers(0, 359), st.sampled_from(D3_KINDS),
       st.sampled_from(D3_KINDS), st.booleans(), st.floats(0, 1))
def test_d3_surely_no_charge_path_is_refused(at, e, o, fe, fo, ke, ko, friend, k):
    """A horse at a staging spot, its target, and a third base between them or about
    the contact (friend or enemy): a path the pre-check calls refused, check_charge_path
    refuses."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from builders import build_table, piece, session_at

    from manager.errors import IllegalAction
    from manager.footprint import bearing
    from manager.rules.d3.moves import check_charge_path, surely_no_charge_path
    mid = (at[0] + (e[0] - at[0]) * k, at[1] + (e[1] - at[1]) * k)
    b = build_table([piece("h", "blue", "light_cavalry", (2.5, 2.5)),
                     piece("e", "red", ke, e, facing=fe),
                     piece("o", "blue" if friend else "red", ko,
                           mid if k > 0.2 else o, facing=fo)], "d3")
    s, _ = session_at(b, "move", side="blue")
    bt = s.battle
    h, t = bt.units["h"], bt.units["e"]
    facing = round(bearing(at, e)) % 360
    if surely_no_charge_path(bt, h, t, at, facing):
        try:
            check_charge_path(bt, h, t, at=at, facing=facing)
            raise AssertionError("the pre-check passed over an open path")
        except IllegalAction:
            pass


def test_d3_surely_no_charge_path_in_play(monkeypatch):
    """Two Austerlitz turns: every staging path the look-ahead passes over is refused by
    check_charge_path, and some are passed over, some not."""
    import sys

    from manager.autopilot import Autopilot
    from manager.errors import IllegalAction
    from manager.rules.d3 import cavalry, moves
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    seen = {True: 0, False: 0}

    def checked(battle, unit, target, at, facing):
        got = moves.surely_no_charge_path(battle, unit, target, at, facing)
        seen[got] += 1
        if got:
            try:
                moves.check_charge_path(battle, unit, target, at=at, facing=facing)
                raise AssertionError((unit.id, target.id, at))
            except IllegalAction:
                pass
        return got

    monkeypatch.setattr(cavalry, "surely_no_charge_path", checked)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    assert seen[True] > 100 and seen[False] > 50
