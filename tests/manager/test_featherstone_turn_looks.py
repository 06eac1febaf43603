"""Issue 17, Featherstone (seventh session): cheaper first looks in the commander's moves
and fire and in the rules' retreats, each giving the very answer of the code it replaced
(kept here as the reference), on random tables and at every call of Austerlitz turns.
tests/manager/test_same_results.py guards whole battles. The records a turn makes (fire,
a new turn, a move, casualties): test_featherstone_turn_records.py.
"""
from __future__ import annotations

from hypothesis import assume, given, settings, strategies as st

from builders import build_table, piece, rect
from play_checks import austerlitz_phases
from manager.errors import ScenarioError
from manager.footprint import distance, surely_apart
from manager import spatial
from manager.rules.featherstone import charge_reach, commander, fire_sight, losses, nearby
from manager.rules.featherstone.state import arm, footprint
from manager.rules.featherstone.nearby import unit_gap


FS = "featherstone"
KINDS = ["line_infantry", "light_infantry", "heavy_cavalry", "light_cavalry",
         "foot_artillery"]


# ---- the references: the code each first look replaced ---------------------------------------
def plain_nearest(units, x, y):
    return min(units, key=lambda e: distance((e.x, e.y), (x, y)))


def plain_cavalry_near(battle, u, enemies) -> bool:
    fp = footprint(battle, u)
    return any(arm(e) == "cavalry" and not surely_apart(footprint(battle, e), fp, 12)
               and unit_gap(battle, e, u) <= 12 for e in enemies)


# ---- the nearest enemy ------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=0, max_size=12,
                unique=True),
       st.tuples(st.floats(0, 6), st.floats(0, 6)), st.booleans(),
       st.sampled_from([3.0, 8.0, 12.0, 16.0, 24.0, 40.0, 60.0]))
def test_nearest_unit_is_the_first_min_by_distance(cells, at, on_lattice, reach):
    """Units on a coarse lattice (many exactly as far as another: ties), asked from a
    lattice point or anywhere, within reaches that take none, some or all: the same unit
    as `min` by `distance` over near_units (the first of the nearest on a tie)."""
    units = [piece(f"e{k}", "red", "line_infantry", (8 + 8 * cx, 8 + 8 * cy))
             for k, (cx, cy) in enumerate(cells)]
    units.append(piece("u", "blue", "line_infantry", (100, 100)))
    b = build_table(units, FS, width=110, height=110)
    x, y = (8 + 8 * round(at[0]), 8 + 8 * round(at[1])) if on_lattice else \
        (8 + 8 * at[0], 8 + 8 * at[1])
    near = nearby.near_units(b, (x, y), reach, "red")
    want = plain_nearest(near, x, y) if near else None
    assert spatial.nearest_unit(b, (x, y), reach, "red") is want


# ---- enemy horse near ---------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.tuples(st.floats(15, 33), st.floats(12, 24)), st.integers(0, 359),
       st.lists(st.tuples(st.floats(-20, 20), st.floats(-20, 20), st.integers(0, 359),
                          st.sampled_from(KINDS)), min_size=0, max_size=6))
def test_cavalry_near_is_the_plain_scan(at, facing, others):
    units = [piece("u", "blue", "line_infantry", at, facing=facing)]
    for k, (dx, dy, f, kind) in enumerate(others):
        units.append(piece(f"e{k}", "red", kind, (at[0] + dx, at[1] + dy), facing=f))
    try:
        b = build_table(units, FS)
    except ScenarioError:
        assume(False)           # a base off the table or on another
    c = commander.Commander(b, "blue")
    u = b.units["u"]
    enemies = nearby.near_units(b, u.pos, 40, "red")
    want = plain_cavalry_near(b, u, enemies)
    assert c._cavalry_near(u, enemies) == want
    # given only the enemies within _horse_reach, as _move_for gives them
    assert c._cavalry_near(u, nearby.near_units(b, u.pos, c._horse_reach(u), "red")) == want


def test_first_looks_in_play(monkeypatch):
    """Every call of 3 Austerlitz turns' moves: the nearest enemy within 40 inches and
    enemy horse near (given the enemies within `_horse_reach`) are the plain answers
    over every enemy within 40 inches; the horse is near some units and not others."""
    seen = {"nearest": 0, "cav": set()}
    plain = commander.nearest_unit

    def nearest(battle, xy, reach, side):
        got = plain(battle, xy, reach, side)
        near = nearby.near_units(battle, xy, reach, side)
        assert reach == 40 and got is (plain_nearest(near, *xy) if near else None)
        seen["nearest"] += 1
        return got
    monkeypatch.setattr(commander, "nearest_unit", nearest)
    cav = commander.Commander._cavalry_near

    def cavalry_near(self, u, enemies):
        got = cav(self, u, enemies)
        every = nearby.near_units(self.battle, u.pos, 40, self.battle.enemy_of(self.side))
        assert got == plain_cavalry_near(self.battle, u, every)
        assert len(enemies) <= len(every)
        seen["cav"].add(got)
        return got
    monkeypatch.setattr(commander.Commander, "_cavalry_near", cavalry_near)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert seen["nearest"] > 200 and seen["cav"] == {True, False}


# ---- a retreat's ground: no shape where the base's box is clear of every lake ---------------
@settings(max_examples=120, deadline=None)
@given(st.tuples(st.floats(12, 36), st.floats(10, 26)), st.integers(0, 359),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.floats(0, 359), st.floats(1, 12),
       st.lists(st.tuples(st.floats(2, 44), st.floats(2, 32), st.floats(0.5, 9),
                          st.floats(0.5, 9)), min_size=0, max_size=3),
       st.lists(st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.integers(0, 359)),
                max_size=3), st.floats(0.5, 2))
def test_a_retreat_stops_as_by_the_ground_under_every_step(at, facing, kind, away, off,
                                                          lakes, others, moves):
    """A unit driven back any way, any distance, past lakes and other bases (or off the
    table): the same place, facing and fate as when every step's ground is asked of its
    shape (may_touch always yes: the code before)."""
    from manager.table_terrain import table_terrain
    from manager.footprint import heading
    units = [piece("u", "blue", kind, at, facing=facing)]
    for k, (dx, dy, f) in enumerate(others):
        units.append(piece(f"o{k}", "red", "line_infantry", (at[0] + dx, at[1] + dy), facing=f))
    try:
        b = build_table(units, FS, terrain=[rect("lake", x, y, x + w, y + h)
                                            for x, y, w, h in lakes])
    except ScenarioError:
        assume(False)           # a base set in a lake
    hx, hy = heading(away)
    src = (at[0] - hx * off, at[1] - hy * off)
    fast, slow = b.copy(), b.copy()
    ev1, ev2 = [], []
    gone1 = losses.retreat(fast, "u", src, moves, "enemy", "falls back", ev1)
    t = table_terrain(slow.battlefield)
    cls = type(t)
    keep = cls.may_touch
    try:
        cls.may_touch = lambda self, bounds, kinds: True
        gone2 = losses.retreat(slow, "u", src, moves, "enemy", "falls back", ev2)
    finally:
        cls.may_touch = keep
    assert gone1 == gone2 and ev1 == ev2
    assert fast.units["u"] == slow.units["u"]


# ---- a line of sight: no shape for a base whose centre is beyond its half diagonal --------
def plain_sight_refusal(battle, unit, target) -> str:
    """fire_sight._sight_refusal as it was: shapely asked of every base within 4.5 inches."""
    import math
    from manager import spatial
    from manager.footprint import segment
    (ax, ay), (bx, by) = unit.pos, target.pos
    length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2) or 1e-9
    line = None
    for o in spatial.unit_grid(battle).along(unit.pos, target.pos, 4.5):
        if o.id in (unit.id, target.id) or distance(o.pos, unit.pos) > length + 8:
            continue
        t = max(0.0, min(1.0, ((o.x - ax) * (bx - ax) + (o.y - ay) * (by - ay)) / length ** 2))
        if math.hypot(ax + t * (bx - ax) - o.x, ay + t * (by - ay) - o.y) > 4.5:
            continue
        line = line or segment(unit.pos, target.pos)
        if footprint(battle, o).polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = fire_sight.ground_blocking(battle, unit, target)
    return f"{blocked} blocks the line of sight" if blocked else ""


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(4, 44), st.floats(4, 32)), st.tuples(st.floats(4, 44),
                                                               st.floats(4, 32)),
       st.lists(st.tuples(st.floats(0, 1), st.floats(-6, 6), st.integers(0, 359),
                          st.sampled_from(KINDS), st.sampled_from(["line", "column", "square"]),
                          st.booleans()), min_size=1, max_size=6))
def test_a_line_of_sight_is_judged_as_by_every_base_near(a, z, others):
    """Bases of every kind, formation and facing strewn along and beside a line (some
    across it, some grazing it, some just clear): the same refusal, naming the same
    base, as asking shapely of every base within 4.5 inches."""
    import math
    length = math.dist(a, z)
    assume(length > 1)
    ux, uy = (z[0] - a[0]) / length, (z[1] - a[1]) / length
    units = [piece("u", "blue", "line_infantry", a), piece("t", "red", "line_infantry", z)]
    for k, (t, side_off, f, kind, form, enemy) in enumerate(others):
        x, y = a[0] + ux * length * t - uy * side_off, a[1] + uy * length * t + ux * side_off
        units.append(piece(f"o{k}", "red" if enemy else "blue", kind, (x, y), facing=f,
                           formation=form if "infantry" in kind else "line"))
    try:
        b = build_table(units, FS)
    except ScenarioError:
        assume(False)
    u, e = b.units["u"], b.units["t"]
    assert fire_sight._sight_refusal(b, u, e) == plain_sight_refusal(b, u, e)
    assert fire_sight._sight_refusal(b, e, u) == plain_sight_refusal(b, e, u)


def test_lines_of_sight_in_play(monkeypatch):
    """Every line of sight judged in 3 Austerlitz turns (shots checked and valued, support
    fire): the plain answer; some lines are refused for a base in the way."""
    said = []
    plain = fire_sight._sight_refusal

    def spy(battle, unit, target):
        why = plain(battle, unit, target)
        assert why == plain_sight_refusal(battle, unit, target)
        said.append(why)
        return why
    monkeypatch.setattr(fire_sight, "_sight_refusal", spy)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(said) > 50 and sum("in the way" in w for w in said) >= 3, len(said)


# ---- the bases near a move: the band of x in plain floats -------------------------------------
def plain_near_the_move(battle, unit, end, start=None, reach=None, centre=None) -> list:
    """nearby.near_the_move as it was: numpy over every base."""
    import math
    import numpy as np
    from manager import spatial
    g = spatial.unit_grid(battle)
    if not g.units:
        return []
    ex, ey = end.x, end.y
    r = math.hypot(end.frontage, end.depth) / 2
    sx, sy = (start.x, start.y) if start is not None else (ex, ey)
    if start is not None:
        r = max(r, math.hypot(start.frontage, start.depth) / 2)
    if reach is None:
        reach = math.hypot(ex - sx, ey - sy) + 12
    px, py = g.xs - sx, g.ys - sy
    vx, vy = ex - sx, ey - sy
    l2 = vx * vx + vy * vy
    if l2 > 0:
        t = np.minimum(np.maximum((px * vx + py * vy) / l2, 0.0), 1.0)
        px, py = px - t * vx, py - t * vy
    meet = np.hypot(px, py) <= spatial.radii(battle, footprint) + (r + 0.1 + 1e-5)
    cx, cy = centre if centre is not None else (ex, ey)
    dx, dy = g.xs - cx, g.ys - cy
    keep = (dx * dx + dy * dy <= (reach + 1e-5) ** 2) & meet
    return [o for o in (g.units[k] for k in np.flatnonzero(keep).tolist())
            if distance(o.pos, (cx, cy)) <= reach]


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(6, 42), st.floats(6, 30)), st.integers(0, 359), st.floats(0, 359),
       st.floats(0, 14),
       st.lists(st.tuples(st.floats(-14, 14), st.floats(-14, 14), st.integers(0, 359),
                          st.sampled_from(KINDS), st.booleans()), min_size=0, max_size=40),
       st.sampled_from(["line", "column", "square"]), st.booleans(), st.floats(0, 30))
def test_the_bases_near_a_move_are_the_numpy_pass(at, facing, way, inches, others, form,
                                                  centred, reach):
    """A move (or a re-forming in place) of any length and facing among up to 40 bases of
    every kind, with the default reach, or any reach about the charger's centre (as a
    charge's path asks): the band gives the same units in the same order as numpy over
    every base."""
    from manager.footprint import heading
    hx, hy = heading(way)
    to = (at[0] + hx * inches, at[1] + hy * inches)
    units = [piece("u", "blue", "line_infantry", at, facing=facing)]
    for k, (dx, dy, f, kind, enemy) in enumerate(others):
        units.append(piece(f"o{k}", "red" if enemy else "blue", kind, (to[0] + dx, to[1] + dy),
                           facing=f))
    try:
        b = build_table(units, FS)
    except ScenarioError:
        assume(False)
    u = b.units["u"]
    start = footprint(b, u)
    end = footprint(b, u, x=to[0], y=to[1], facing=round(way) % 360, formation=form)
    if centred:
        args = (b, u, end, start, reach, u.pos)
    else:
        args = (b, u, end, start)
    assert nearby.near_the_move(*args) == plain_near_the_move(*args)
    here = footprint(b, u, formation=form)
    assert nearby.near_the_move(b, u, here) == plain_near_the_move(b, u, here)


def test_the_bases_near_a_move_in_play(monkeypatch):
    """Every ask of 3 Austerlitz turns (moves' ground, charges' paths): the numpy pass's
    units; the band answers most asks."""
    from manager.rules.featherstone import moves
    seen = {"asked": 0, "band": 0}
    band = nearby._near_the_move_band

    def counted(*args):
        seen["band"] += 1
        return band(*args)
    monkeypatch.setattr(nearby, "_near_the_move_band", counted)

    def spy(battle, unit, end, start=None, reach=None, centre=None):
        got = nearby.near_the_move(battle, unit, end, start, reach, centre)
        assert got == plain_near_the_move(battle, unit, end, start, reach, centre)
        seen["asked"] += 1
        return got
    monkeypatch.setattr(moves, "near_the_move", spy)
    monkeypatch.setattr(charge_reach, "near_the_move", spy)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert seen["asked"] > 200 and seen["band"] > seen["asked"] / 2, seen
