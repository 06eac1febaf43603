"""Issue 17, Featherstone: the commander's and the rules' cheap first answers about shapes
give exactly what the full shape tests give (tests/manager/test_same_results.py guards
whole battles; these, each piece on its own).

- enemy horse near, a general on the base, the melee bonus's general near: circles and
  plain arithmetic first;
- enemies near enough to shoot at: numpy first;
- saves: a wall's widened base only when the line crosses the wall;
- the rows of every base: sight lines judged from arrays kept by the journal;
- the ground's answers, kept across versions (featherstone/ground.py);
- the arc of fire judged before the sight line.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from manager import game_actions as ga
from manager.rules.featherstone import choices, fire, fire_sight, nearby
from manager.rules.featherstone.commander import Commander
from test_featherstone_speed import FS, outcome, phases_in_play, spot


# ---- enemy horse near: the circles first ---------------------------------------------------
def test_cavalry_near_is_the_scan_in_play():
    from manager.rules.featherstone.nearby import unit_gap
    judged = near = 0
    for s, side in phases_in_play(turns=3, phases=("moves",)):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            enemies = nearby.near_units(b, u.pos, 40, b.enemy_of(side))
            scan = any(choices.arm(e) == "cavalry" and unit_gap(b, e, u) <= 12
                       for e in enemies)
            judged += 1
            near += scan
            assert c._cavalry_near(u, enemies) == scan
    assert judged > 200 and 0 < near < judged


# ---- a general on the base: plain arithmetic first -----------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.floats(-8, 8), st.floats(-8, 8), st.integers(0, 359), st.floats(0.5, 12),
       st.floats(0.5, 6))
def test_on_base_agrees_with_the_buffered_shape(px, py, facing, front, depth):
    from shapely.geometry import Point
    from manager.footprint import Footprint
    from manager.rules.featherstone.nearby import _on_base
    fp = Footprint(20.0, 20.0, facing, front, depth)
    for xy in ((20 + px, 20 + py), (20 + px / 4, 20 + py / 4)):
        inside = _on_base(fp, xy)
        if inside is not None:
            assert inside == fp.polygon().buffer(0.25).contains(Point(*xy))


def test_attached_leaders_are_the_shape_test_in_play():
    from shapely.geometry import Point
    from manager.rules.featherstone.state import footprint
    from manager.rules.featherstone.nearby import attached_leaders
    judged = attached = 0
    for s, side in phases_in_play(turns=2, phases=("generals", "charges", "melee")):
        b = s.battle
        for u in b.live_units():
            poly = footprint(b, u).polygon().buffer(0.25)
            shape = [l for l in b.live_leaders(u.side) if poly.contains(Point(l.x, l.y))]
            judged += 1
            attached += bool(shape)
            assert attached_leaders(b, u) == shape
            assert attached_leaders(b, u) == shape              # remembered
    assert judged > 500 and attached > 10


# ---- enemies near enough to shoot at: numpy first -----------------------------------------
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(spot, st.integers(0, 359), st.sampled_from(
    ["line_infantry", "heavy_cavalry", "foot_artillery"]), st.booleans()), min_size=2,
    max_size=8), st.floats(1, 40), st.floats(0, 30))
def test_near_bases_is_the_scan(pieces, reach, inches):
    from manager.footprint import surely_apart
    from manager.rules.featherstone.state import footprint
    from manager.rules.featherstone.nearby import near_bases, near_units
    b = build_table([piece(f"u{k}", "red" if red else "blue", kind, at, facing=f)
                     for k, (at, f, kind, red) in enumerate(pieces)], FS)
    for u in b.live_units():
        for side in ("blue", "red"):
            scan = [e for e in near_units(b, u.pos, reach, side)
                    if not surely_apart(footprint(b, u), footprint(b, e), inches)]
            assert near_bases(b, u, side, reach, inches) == scan


def test_fire_candidates_are_the_scan_in_play():
    from manager.footprint import surely_apart
    from manager.rules.featherstone.state import footprint
    from manager.rules.featherstone.nearby import near_bases, near_units
    judged = kept = 0
    for s, side in phases_in_play(turns=3, phases=("fire_first", "moves")):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            if choices.arm(u) == "cavalry":
                continue
            reach = 55 if choices.arm(u) == "artillery" else 20
            scan = [e for e in near_units(b, u.pos, reach, b.enemy_of(side))
                    if not surely_apart(footprint(b, u), footprint(b, e), c._longest(u))]
            got = near_bases(b, u, b.enemy_of(side), reach, c._longest(u))
            judged += 1
            kept += len(got)
            assert got == scan
    assert judged > 200 and kept > 100


# ---- saves: a wall's widened base only when the line crosses the wall ----------------------
@settings(max_examples=60, deadline=None)
@given(spot, spot, st.tuples(st.floats(5, 43), st.floats(5, 31)),
       st.tuples(st.floats(5, 43), st.floats(5, 31)), st.integers(0, 359))
def test_behind_wall_is_the_plain_test(at, shooter, w0, w1, facing):
    from manager.footprint import segment
    from manager.table_terrain import table_terrain
    from manager.rules.featherstone.losses import behind_wall
    from manager.rules.featherstone.state import footprint
    wall = {"kind": "wall", "points": [list(w0), list(w1)]}
    b = build_table([piece("u", "red", "line_infantry", at, facing=facing)], FS,
                    terrain=[wall])
    u = b.units["u"]
    near = footprint(b, u).polygon().buffer(1.0)
    line = segment(shooter, u.pos)
    plain = any(line.intersects(w) and line.intersection(w).intersects(near)
                for _, w in table_terrain(b.battlefield).lines.get("wall", []))
    assert behind_wall(b, u, shooter) == plain


def test_behind_wall_sees_a_wall_just_before_the_base():
    from manager.rules.featherstone.losses import behind_wall, cover_save
    b = build_table([piece("u", "red", "line_infantry", (20, 20), facing=0)], FS,
                    terrain=[{"kind": "wall", "points": [[10, 18.5], [30, 18.5]]}])
    u = b.units["u"]
    assert behind_wall(b, u, (20, 5)) and not behind_wall(b, u, (20, 35))
    assert cover_save(b, u) == 0 == cover_save(b, u)             # remembered: the same


# ---- the melee bonus: a general near, the circle first --------------------------------------
def test_melee_bonus_is_the_shape_test_in_play():
    from shapely.geometry import Point
    from manager.rules.featherstone.melee import bonus
    from manager.rules.featherstone.state import footprint, grade
    from manager.rules.featherstone.nearby import attached_leaders
    from manager.rules.featherstone.tables import GENERAL_NEAR

    def by_shape(b, u):
        best = grade(b, u)
        if attached_leaders(b, u):
            return best + 2
        poly = footprint(b, u).polygon()
        near = any(poly.distance(Point(l.x, l.y)) <= GENERAL_NEAR
                   for l in b.live_leaders(u.side))
        return best + 1 if near else best
    judged = near = 0
    for s, side in phases_in_play(turns=1, phases=("charges", "moves")):
        b = s.battle
        for u in b.live_units():
            judged += 1
            near += bonus(b, [u]) > grade(b, u)
            assert bonus(b, [u]) == by_shape(b, u)
    assert judged > 300 and 0 < near < judged


# ---- the rows of every base: sight lines judged from arrays kept by the journal ----------
def old_crossed(b, origin, ends) -> list:
    """The lines judged as before the rows: the box's bases built into arrays per call."""
    import numpy as np
    from manager import spatial
    from manager.sightlines import surely_crossed
    from manager.rules.featherstone.state import footprint
    g = spatial.unit_grid(b)
    xs, ys = [origin.x] + [u.x for u in ends], [origin.y] + [u.y for u in ends]
    m = 4.5 + 1e-6
    keep = (g.xs >= min(xs) - m) & (g.xs <= max(xs) + m) & \
        (g.ys >= min(ys) - m) & (g.ys <= max(ys) + m)
    others = [g.units[k] for k in np.flatnonzero(keep)]
    return surely_crossed(origin.pos, [t.pos for t in ends], [t.id for t in ends], others,
                          [footprint(b, o) for o in others], origin, 8.0, centre_within=4.5)


def test_sight_rows_give_the_old_answers_in_play(monkeypatch):
    """Every line the commander and support fire judged in 3 turns of Austerlitz (the
    rows patched from the journal, action after action, and trial copies) gets the
    answer the per-call arrays gave."""
    seen = []
    real = fire_sight._crossed

    def recording(battle, origin, ends):
        got = real(battle, origin, ends)
        seen.append((got, old_crossed(battle, origin, ends)))
        return got
    monkeypatch.setattr(fire_sight, "_crossed", recording)
    for _ in phases_in_play(turns=3, phases=("melee",)):
        pass
    assert len(seen) > 100
    assert sum(sum(g) for g, _ in seen) > 100              # lines found hidden
    assert all(g == o for g, o in seen)


def test_sight_rows_follow_a_base_moved_across_the_line():
    from manager.rules.featherstone.rows import rows
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("x", "blue", "line_infantry", (40, 25)),
                     piece("e", "red", "line_infantry", (20, 20))], FS, width=60, height=40)
    first = rows(b)
    assert fire_sight.surely_hidden(b, b.units["a"], [b.units["e"]]) == [False]
    b.update_unit("x", x=20.0)                              # now squarely across the line
    assert rows(b) is first and first.fps[first.index["x"]].x == 20.0      # patched, not rebuilt
    assert fire_sight.surely_hidden(b, b.units["a"], [b.units["e"]]) == [True]
    b.update_unit("x", eliminated=True)                     # gone: the rows are rebuilt
    assert "x" not in rows(b).index
    assert fire_sight.surely_hidden(b, b.units["a"], [b.units["e"]]) == [False]


# ---- the ground's answers, kept across versions (featherstone/ground.py) ------------------
def test_ground_answers_are_the_computed_ones_in_play(monkeypatch):
    """Every answer kept across versions in 3 turns of Austerlitz (charge paths, the
    terrain of a path and of a line of sight, the ground under a base, the gap of two
    bases, cover, a wall before the target, woods) is what computing it afresh gives at
    that moment, refusals by their message; and many are kept."""
    from manager.ground_memo import holds
    from manager.rules.featherstone import ground
    real = ground.kept
    asked, kept = [], [0]

    def checking(battle, name, key, compute):
        kept[0] += holds(battle.battlefield, "featherstone." + name, key)
        got = outcome(lambda: real(battle, name, key, compute))
        asked.append(name)
        assert got == outcome(compute), (name, key)
        return real(battle, name, key, compute)
    monkeypatch.setattr(ground, "kept", checking)
    for _ in phases_in_play(turns=3, phases=("melee",)):
        pass
    assert {"charge_path", "terrain_cost", "sight", "impassable", "gap", "cover",
            "behind_wall", "woods"} <= set(asked)
    assert kept[0] > len(asked) // 4


def test_ground_answers_start_afresh_on_new_terrain():
    from dataclasses import replace
    from manager.rules.featherstone.moves import terrain_between
    b = build_table([piece("a", "blue", "line_infantry", (20, 30))], FS,
                    terrain=[{"kind": "wall", "points": [[10, 18.5], [30, 18.5]]}])
    assert terrain_between(b, (20, 25), (20, 12))[0] == 3          # the wall's cost
    b.set_battlefield(replace(b.battlefield, features=()))
    assert terrain_between(b, (20, 25), (20, 12))[0] == 0          # not the kept answer


# ---- the arc of fire judged before the sight line ----------------------------------------
@settings(max_examples=150, deadline=None)
@given(spot, st.integers(0, 359), st.sampled_from(["line_infantry", "foot_artillery",
                                                   "light_infantry"]),
       st.sampled_from(["line", "column", "square"]), st.floats(0, 359), st.floats(0.5, 40),
       st.integers(0, 359))
def test_surely_out_of_arc_only_what_the_shot_refuses(at, facing, kind, form, way, rng, tf):
    """Whenever the first look says "outside the arc", the rules' own shot refuses it
    for that reason (the target in any direction and range, bases of any size)."""
    from manager.footprint import heading
    hx, hy = heading(way)
    e = (at[0] + 40 + hx * rng, at[1] + 40 + hy * rng)
    b = build_table([piece("a", "blue", kind, (at[0] + 40, at[1] + 40), facing=facing,
                           formation=form if kind != "foot_artillery" else "line"),
                     piece("e", "red", "line_infantry", e, facing=tf)], FS,
                    width=130, height=120)
    u, t = b.units["a"], b.units["e"]
    if fire_sight.surely_out_of_arc(b, u, t):
        got = outcome(lambda: fire.shot_spec(b, u, t))
        assert got[0] == "refused" and "outside" in got[1] and "arc of fire" in got[1]


def test_surely_out_of_arc_sees_a_target_behind_and_not_one_in_front_or_touching():
    b = build_table([piece("a", "blue", "line_infantry", (20, 20), facing=0),
                     piece("f", "red", "line_infantry", (20, 12)),
                     piece("r", "red", "line_infantry", (20, 30)),
                     piece("s", "blue", "line_infantry", (40, 20), facing=0,
                           formation="square")], FS)
    a, s = b.units["a"], b.units["s"]
    assert not fire_sight.surely_out_of_arc(b, a, b.units["f"])            # in front
    assert fire_sight.surely_out_of_arc(b, a, b.units["r"])                # behind
    assert not fire_sight.surely_out_of_arc(b, s, b.units["r"])            # a square: all round


def test_out_of_arc_shots_are_refused_in_play():
    """Every enemy near a unit that may fire, at each fire step of 3 Austerlitz turns: a
    shot the first look puts outside the arc is one the rules' check refuses."""
    skipped = asked = 0
    for s, side in phases_in_play(turns=3, phases=("fire_first", "fire")):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            if fire.may_fire(b, u):
                continue
            near = nearby.near_units(b, u.pos, 55, b.enemy_of(side))
            assert fire_sight.maybe_in_arc(b, u, near) == [
                e for e in near if not fire_sight.surely_out_of_arc(b, u, e)]
            for e in near:
                asked += 1
                if fire_sight.surely_out_of_arc(b, u, e):
                    skipped += 1
                    assert not c.legal(ga.Fire(u.id, e.id))
    assert skipped > 50 and asked > skipped
