"""Issue 17, Featherstone: the answers remembered per battle version and the commander's
pre-checks give exactly what the full computations give (tests/manager/
test_same_results.py guards whole battles; these, each piece on its own).

- recall.py: the shot, the charge path, the charge check, who could charge a unit, the
  rules' checks of orders: kept until the battle changes, a refusal as its message;
- may_influence: a general farther than GENERAL_NEAR beyond the base's circle is out of
  reach without measuring to the shape;
- counter_possible: no face of the charged unit's roll reads the 7, so its
  counter-charge mark changes no charge's odds (counter_choice has nothing to weigh);
- the commander's _has_target judges the guns' candidate lines of sight together.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from builders import build_table, piece, session_at
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.errors import IllegalAction
from manager.rules.featherstone import (charge_reach, choices, fire, fire_sight, melee_parts,
                                        morale, state, threats)
from manager.rules.featherstone.commander import Commander
from manager.rules.featherstone.recall import recall

FS = "featherstone"
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))


def outcome(f):
    """What a call answers: its value, or the refusal's message."""
    try:
        return ("ok", f())
    except IllegalAction as e:
        return ("refused", str(e))


def phases_in_play(turns: int = 2, phases=("charges", "moves", "fire", "generals")):
    """(session, side to move) at the start of each listed phase on Austerlitz, the
    automatic commander playing both sides."""
    return austerlitz_phases(FS, phases, turns)


# ---- recall ---------------------------------------------------------------------------
def test_recall_keeps_an_answer_until_the_battle_changes_and_a_refusal_as_its_message():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("e", "red", "line_infantry", (20, 20))], FS)
    calls = []

    def compute():
        calls.append(1)
        if len(calls) % 2 == 0:
            raise IllegalAction("refused the second time")
        return len(calls)
    a = b.units["a"]
    assert recall(b, "t", "k", (a,), compute) == 1
    assert recall(b, "t", "k", (a,), compute) == 1 and len(calls) == 1     # kept
    b.update_unit("e", x=21.0)                                              # a change
    with pytest.raises(IllegalAction, match="refused the second time"):
        recall(b, "t", "k", (b.units["a"],), compute)
    with pytest.raises(IllegalAction, match="refused the second time"):
        recall(b, "t", "k", (b.units["a"],), compute)                       # kept too
    assert len(calls) == 2
    c = b.copy()                                  # a trial copy has its own answers
    assert recall(c, "t", "k", (c.units["a"],), compute) == 3
    b.update_unit("a", x=19.0)
    with pytest.raises(IllegalAction):
        recall(b, "t", "k", (b.units["a"],), compute)               # the 4th call
    assert recall(b, "t", "k", (a,), compute) == 5                  # another record: asked
    assert len(calls) == 5


def test_a_remembered_shot_follows_a_base_moved_across_the_line():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("x", "blue", "line_infantry", (40, 25)),
                     piece("e", "red", "line_infantry", (20, 22))], FS)
    a, e = b.units["a"], b.units["e"]
    assert fire.shot_spec(b, a, e).band
    b.update_unit("x", x=20.0, y=26.0)            # now squarely in the way
    with pytest.raises(IllegalAction, match="in the way"):
        fire.shot_spec(b, b.units["a"], b.units["e"])


def test_remembered_answers_are_the_computed_ones_in_play():
    """On Austerlitz, at each phase: the shot, the charge path and check, who could
    charge a unit, asked twice (computed, then remembered), equal the computation."""
    from manager.footprint import distance
    pairs = 0
    for s, side in phases_in_play(turns=2):
        b = s.battle
        for u in b.live_units(side)[::3]:
            for e in b.live_units(b.enemy_of(side)):
                if distance(u.pos, e.pos) > 30:
                    continue
                pairs += 1
                for _ in range(2):
                    if choices.arm(u) != "cavalry":           # horse does not shoot
                        assert outcome(lambda: fire.shot_spec(b, u, e)) == \
                            outcome(lambda: fire._shot_spec(b, u, e, False, ""))
                    assert outcome(lambda: charge_reach.charge_path(b, u, e)) == \
                        outcome(lambda: charge_reach._charge_path(b, u, e))
                    assert outcome(lambda: charge_reach.check_charge(b, ga.Charge(u.id, e.id))) \
                        == outcome(lambda: charge_reach._check_charge(b, ga.Charge(u.id, e.id)))
            for _ in range(2):
                assert threats.threats(b, u) == threats._threats(b, u, ("infantry", "cavalry"))
                assert threats.threats(b, u, ("infantry",)) == \
                    [e for e in threats._threats(b, u, ("infantry", "cavalry"))
                     if e.kind in ("line_infantry", "light_infantry", "grenadiers",
                                   "guard_infantry", "militia", "rifles", "skirmishers")]
    assert pairs > 200


# ---- may_influence: the circle first -----------------------------------------------------
def by_shape(b, leader, unit) -> bool:
    from shapely.geometry import Point
    from manager.rules.featherstone.state import footprint
    from manager.rules.featherstone.tables import GENERAL_NEAR
    return footprint(b, unit).polygon().distance(Point(*leader.pos)) > GENERAL_NEAR


_TABLES: dict = {}


def one_unit_table(kind):
    """A table with unit 'u' and its general 'b1-ldr' (built once per kind; copied)."""
    if kind not in _TABLES:
        _TABLES[kind] = build_table([piece("u", "blue", kind, (40, 40))], FS,
                                    leaders={"b1": {"pos": [50, 50]}}, width=80, height=80)
    return _TABLES[kind].copy()


@settings(max_examples=200, deadline=None)
@given(spot, st.floats(-12, 12), st.floats(-12, 12), st.integers(0, 359),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.sampled_from(["line", "column", "square"]))
def test_may_influence_says_out_of_reach_exactly_when_the_shape_is_beyond_4(
        at, dx, dy, facing, kind, form):
    b = one_unit_table(kind)
    at = (at[0] + 15, at[1] + 15)
    b.update_unit("u", x=at[0], y=at[1], facing=facing,
                  formation=form if kind == "line_infantry" else "line")
    b.update_leader("b1-ldr", x=at[0] + dx, y=at[1] + dy)
    u, l = b.units["u"], b.leaders["b1-ldr"]
    assert bool(morale.may_influence(b, l, u)) == by_shape(b, l, u)


def test_may_influence_in_play():
    judged = far = 0
    for s, side in phases_in_play(turns=1, phases=("generals", "charges")):
        b = s.battle
        for u in b.live_units(side):
            for l in b.live_leaders(side):
                judged += 1
                far += by_shape(b, l, u)
                assert bool(morale.may_influence(b, l, u)) == by_shape(b, l, u)
    assert judged > 1000 and 0 < far < judged


# ---- counter_possible: the 7 out of reach -------------------------------------------------
def worst_both_ways(b, unit, chargers):
    return (threats.worst_threat(b, unit, None, chargers),
            threats.worst_threat(b, unit, {"counter_seven": True}, chargers))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["line_infantry", "militia", "grenadiers"]), st.integers(0, 17),
       st.booleans(), st.booleans(), st.floats(-3, 3))
def test_without_a_seven_the_counter_mark_changes_no_odds(kind, lost, disordered, checked,
                                                          dx):
    s, _ = __import__("test_featherstone_choices").threatened(kind=kind)
    b = s.battle
    b.update_unit("r", hits=24 - lost, disordered=disordered)
    b.update_unit("b", x=20 + dx)
    if checked:
        b.mark_unit("r", checked=b.state.turn)
    r = b.units["r"]
    chargers = threats.threats(b, r, ("infantry",))
    if not choices.counter_possible(b, r) and chargers:
        stay, flip = worst_both_ways(b, r, chargers)
        assert stay == flip
        assert choices.counter_choice(b, r) is None


def test_counter_possible_is_not_vacuous():
    mod = __import__("test_featherstone_choices")
    s, _ = mod.threatened(kind="line_infantry")            # regulars: 6 + 1 reads the 7
    assert choices.counter_possible(s.battle, s.battle.units["r"])
    s, _ = mod.threatened(kind="militia")                  # no modifier: 6 at most
    r = s.battle.units["r"]
    assert not choices.counter_possible(s.battle, r)
    chargers = threats.threats(s.battle, r, ("infantry",))
    assert chargers
    stay, flip = worst_both_ways(s.battle, r, chargers)
    assert stay == flip


def test_counter_possible_in_play():
    """Every unit of Austerlitz counter_choice passes over for want of a 7 has the same
    worst threat with its counter-charge mark flipped."""
    judged = 0
    for s, side in phases_in_play(turns=3, phases=("generals",)):
        b = s.battle
        for u in b.live_units(side):
            if choices.arm(u) != "infantry" or choices.counter_possible(b, u):
                continue
            chargers = threats.threats(b, u, ("infantry",))
            if chargers:
                judged += 1
                stay, flip = worst_both_ways(b, u, chargers)
                assert stay == flip
    assert judged >= 1


# ---- the guns' targets: lines of sight judged together ------------------------------------
def test_has_target_is_the_scan_of_every_enemy_in_play():
    judged = found = 0
    for s, side in phases_in_play(turns=3, phases=("moves",)):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            if choices.arm(u) != "artillery":
                continue
            scan = any(c._shot_value(u, e) > 0
                       for e in state.near_units(b, u.pos, 50, b.enemy_of(side)))
            judged += 1
            found += scan
            assert c._has_target(u) == scan
    assert judged > 20 and 0 < found < judged


# ---- support fire: the lines to one target judged together --------------------------------
def old_supporters(battle, melee, side, chosen=None) -> list:
    """supporters as it was before the sight pre-check: every pair measured."""
    from manager.rules.featherstone import support as sp
    fighting = {melee.defender, *melee.attackers}
    enemies = [battle.units[u] for u in fighting if battle.units[u].side != side]
    out = []
    for u in state.near_units(battle, battle.units[melee.defender].pos, 60, side):
        if u.id in fighting or (chosen is not None and u.id not in chosen) \
                or fire.may_fire_supporting(battle, u):
            continue
        for e in enemies:
            try:
                sp._spec(battle, u, e)
            except IllegalAction:
                continue
            out.append((u, e))
            break
    return out


def test_supporters_are_the_old_scan_in_play(monkeypatch):
    """Every support-fire question of 3 turns of Austerlitz (the commander's odds and the
    melees resolved) gets the same units as when each pair is measured."""
    from manager.rules.featherstone import support as sp
    seen = []
    real = sp.supporters

    def recording(battle, melee, side, chosen=None, parts=None):
        got = real(battle, melee, side, chosen, parts)
        seen.append((battle.copy(), melee, side, chosen, got))
        return got
    monkeypatch.setattr(sp, "supporters", recording)
    monkeypatch.setattr(melee_parts, "supporters", recording)  # (the odds import it by name)
    for _ in phases_in_play(turns=3, phases=("melee",)):
        pass
    assert len(seen) > 20
    hidden = 0
    for b, m, side, chosen, got in seen:
        old = old_supporters(b, m, side, chosen)
        assert [(u.id, e.id) for u, e in got] == [(u.id, e.id) for u, e in old]
        for e in (b.units[x] for x in (m.defender, *m.attackers) if b.units[x].side != side):
            near = [u for u in state.near_units(b, e.pos, 30, side) if u.id != e.id]
            hidden += sum(fire_sight.hidden_from(b, e, near))
    assert hidden > 10


@settings(max_examples=200, deadline=None)
@given(spot, st.integers(0, 359), st.floats(0.05, 0.95), st.floats(-4, 4),
       st.integers(0, 359), st.sampled_from(["line_infantry", "heavy_cavalry",
                                             "foot_artillery", "light_infantry"]),
       st.floats(-40, 40), st.floats(4, 30))
def test_hidden_from_only_when_a_base_is_in_the_way(a, fa, t, side, fb, kb, turn, rng):
    """A blocker near the line from a shooter to a target (across it, beside it, on its
    ends): judged from the target's end, a "hidden" answer always comes with the
    shooter's own sight scan naming a base in the way."""
    from manager.footprint import heading
    a = (a[0] + 35, a[1] + 40)
    hx, hy = heading(fa + turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    px, py = -hy, hx
    blk = (a[0] + hx * rng * t + px * side, a[1] + hy * rng * t + py * side)
    b = build_table([piece("a", "blue", "line_infantry", a, facing=fa),
                     piece("b", "blue", kb, blk, facing=fb),
                     piece("e", "red", "line_infantry", e)], FS, width=120, height=120)
    shooters = [b.units["a"], b.units["b"]]
    for s_, h in zip(shooters, fire_sight.hidden_from(b, b.units["e"], shooters)):
        if h:
            assert "is in the way" in fire_sight.sight_refusal(b, s_, b.units["e"])


def test_hidden_from_sees_a_base_squarely_across_the_line():
    b = build_table([piece("a", "blue", "line_infantry", (20, 30)),
                     piece("c", "blue", "line_infantry", (32, 30)),
                     piece("x", "blue", "line_infantry", (20, 25)),
                     piece("y", "blue", "line_infantry", (38, 25)),
                     piece("e", "red", "line_infantry", (20, 20))], FS, width=60, height=40)
    # a: x stands across its line to e; c: y stands beside it (not in the way)
    assert fire_sight.hidden_from(b, b.units["e"], [b.units["a"], b.units["c"]]) == [True, False]


# ---- enemy horse near: the circles first ---------------------------------------------------
def test_cavalry_near_is_the_scan_in_play():
    from manager.rules.featherstone.state import unit_gap
    judged = near = 0
    for s, side in phases_in_play(turns=3, phases=("moves",)):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            enemies = state.near_units(b, u.pos, 40, b.enemy_of(side))
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
    from manager.rules.featherstone.state import _on_base
    fp = Footprint(20.0, 20.0, facing, front, depth)
    for xy in ((20 + px, 20 + py), (20 + px / 4, 20 + py / 4)):
        inside = _on_base(fp, xy)
        if inside is not None:
            assert inside == fp.polygon().buffer(0.25).contains(Point(*xy))


def test_attached_leaders_are_the_shape_test_in_play():
    from shapely.geometry import Point
    from manager.rules.featherstone.state import attached_leaders, footprint
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
    from manager.rules.featherstone.state import footprint, near_bases, near_units
    b = build_table([piece(f"u{k}", "red" if red else "blue", kind, at, facing=f)
                     for k, (at, f, kind, red) in enumerate(pieces)], FS)
    for u in b.live_units():
        for side in ("blue", "red"):
            scan = [e for e in near_units(b, u.pos, reach, side)
                    if not surely_apart(footprint(b, u), footprint(b, e), inches)]
            assert near_bases(b, u, side, reach, inches) == scan


def test_fire_candidates_are_the_scan_in_play():
    from manager.footprint import surely_apart
    from manager.rules.featherstone.state import footprint, near_bases, near_units
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
    from manager.rules.featherstone.state import attached_leaders, footprint, grade
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
            near = state.near_units(b, u.pos, 55, b.enemy_of(side))
            assert fire_sight.maybe_in_arc(b, u, near) == [
                e for e in near if not fire_sight.surely_out_of_arc(b, u, e)]
            for e in near:
                asked += 1
                if fire_sight.surely_out_of_arc(b, u, e):
                    skipped += 1
                    assert not c.legal(ga.Fire(u.id, e.id))
    assert skipped > 50 and asked > skipped
