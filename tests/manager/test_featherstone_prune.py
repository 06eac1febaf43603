"""Issue 17, Featherstone (fifth session): first looks that let the commander skip work
whose answer could not change its pick; each only skips what the full judgement would
refuse or rank below (tests/manager/test_same_results.py guards whole battles).

- shot_bound: never below a shot's value, so targets whose bound is below the best
  value found need no sight line, check nor value (Commander._shots);
- threatened_ids: every unit `threats` can name a charger for is in it, so the
  generals' stances pass over the rest (neither choice has anything to weigh);
- threats of the foot alone: the full list without the horse; foot_in_first_looks
  is True whenever that list is not empty (counter_choice passes over the rest);
- the ground across a line of sight, judged first, is what the check refuses.

Moves and charges: test_featherstone_prune_charges.py; answers kept and followed:
test_featherstone_prune_kept.py.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.model.forces import mark
from manager.rules.featherstone import choices, fire
from manager.rules.featherstone import fire_sight, nearby, threats
from manager.rules.featherstone.commander import Commander
from manager.rules.featherstone.shot_bound import shot_bound
from manager.rules.featherstone.state import arm


FS = "featherstone"
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))
SHOOTERS = ["line_infantry", "light_infantry", "foot_artillery", "horse_artillery"]
TARGETS = ["line_infantry", "light_infantry", "heavy_cavalry", "foot_artillery"]


def value(c, u, e) -> float:
    """The commander's value of the shot (0 when the shot itself is refused)."""
    return c._shot_value(u, e)


# ---- shot_bound -----------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(spot, st.integers(0, 359), st.sampled_from(SHOOTERS), st.sampled_from(TARGETS),
       st.sampled_from(["line", "column", "square", "march_column"]), st.floats(0, 359),
       st.floats(0.2, 52), st.integers(0, 359), st.integers(1, 40))
def test_shot_bound_is_never_below_the_value(at, facing, kind, tkind, form, way, rng, tf,
                                             strength):
    """A target in any direction, range, formation and facing (flanks, squares,
    columns, skirmishers, a battery), a shooter of any strength: the bound is never
    below the value of the shot."""
    from manager.footprint import heading
    hx, hy = heading(way)
    a = (at[0] + 55, at[1] + 55)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    tform = form if tkind in ("line_infantry", "light_infantry") else "line"
    b = build_table([piece("a", "blue", kind, a, facing=facing),
                     piece("e", "red", tkind, e, facing=tf, formation=tform)], FS,
                    width=170, height=170)
    b.mark_unit("a", strength=min(strength, b.units["a"].hits))
    c = Commander(b, "blue")
    u, t = b.units["a"], b.units["e"]
    assert value(c, u, t) <= shot_bound(b, u, t)


def test_shot_bound_is_the_value_for_formed_foot_in_the_open():
    """Not vacuous: a line of foot straight ahead, in the open, is valued at its bound
    (guns at medium range, muskets at short), and a farther one is bounded lower."""
    b = build_table([piece("g", "blue", "foot_artillery", (30, 60)),
                     piece("i", "blue", "line_infantry", (60, 60)),
                     piece("n", "red", "line_infantry", (30, 38)),
                     piece("m", "red", "line_infantry", (60, 57)),
                     piece("f", "red", "line_infantry", (10, 20))], FS,
                    width=100, height=80)
    c = Commander(b, "blue")
    g, i = b.units["g"], b.units["i"]
    for u, t in ((g, b.units["n"]), (i, b.units["m"])):
        v = value(c, u, t)
        assert v > 0 and abs(shot_bound(b, u, t) - v) < 1e-6
    assert shot_bound(b, g, b.units["f"]) < value(c, g, b.units["n"])


def test_shots_pick_what_valuing_every_target_picks_in_play():
    """At each fire step of 3 Austerlitz turns, for every unit that may fire: every
    candidate's value is within its bound, and the options _shots keeps hold the best
    of valuing every candidate (the same max); some targets are passed over."""
    asked = passed = 0
    for s, side in austerlitz_phases(FS, ("fire_first", "fire"), 3):
        b = s.battle
        c = Commander(b, side)
        for u in b.live_units(side):
            if fire.may_fire(b, u):
                continue
            cands = fire_sight.maybe_in_arc(b, u, [e for e in nearby.near_units(
                b, u.pos, 55 if arm(u) == "artillery" else 20, b.enemy_of(side))
                if not fire.engaged(b, e)])
            full = []
            for e in cands:
                v = value(c, u, e)
                assert v <= shot_bound(b, u, e)
                if c.legal(ga.Fire(u.id, e.id)):
                    full.append((v, e.id, ga.Fire(u.id, e.id)))
            got = c._shots(u, cands)
            asked += len(full)
            passed += len(full) - len(got)
            assert (max(got) if got else None) == (max(full) if full else None)
    assert asked > 100 and passed > 5


# ---- threatened_ids -------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(spot, st.integers(-80, 80), st.sampled_from(["line_infantry", "heavy_cavalry",
                                                    "light_cavalry", "light_infantry"]),
       st.sampled_from(["line", "column"]), st.floats(0, 359), st.floats(0.5, 28),
       st.integers(0, 359), st.sampled_from(TARGETS))
def test_every_threatened_unit_is_in_threatened_ids(at, turn, kind, form, way, rng, tf,
                                                    tkind):
    """A charger in any direction and range, of any formation, facing the unit or up
    to 80 degrees off it (the forward arc's border either side): whenever `threats`
    names it, the unit is among threatened_ids."""
    from manager.footprint import heading
    hx, hy = heading(way)
    a = (at[0] + 40, at[1] + 40)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    b = build_table([piece("u", "blue", tkind, a, facing=tf),
                     piece("e", "red", kind, e, facing=round(way + 180 + turn) % 360,
                           formation=form if "infantry" in kind else "line")], FS,
                    width=130, height=120)
    u = b.units["u"]
    found = threats.threats(b, u)
    assert found == scan_threats(b, u)
    if found:
        assert u.id in threats.threatened_ids(b, "blue")
    if scan_threats(b, u, ("infantry",)):
        assert choices.foot_in_first_looks(b, u)


@pytest.mark.parametrize("form", ["line", "column"])
def test_foot_in_first_looks_whenever_foot_may_charge(form):
    """Enemy foot straight ahead and at the arc's edge, at every half inch out to twice
    a column's charge: whenever the full scan finds the foot may charge the unit,
    foot_in_first_looks says so (counter_choice passes over a unit only when it says
    no), and it does say no to some (not vacuous)."""
    found = refused = 0
    for tenth in range(5, 200, 5):
        for turn in (0, 40, -60):
            b = build_table([piece("u", "blue", "line_infantry", (40, 40), facing=0),
                             piece("e", "red", "line_infantry", (40, 40 - tenth / 10),
                                   facing=(180 + turn) % 360, formation=form)], FS,
                            width=90, height=90)
            u = b.units["u"]
            if scan_threats(b, u, ("infantry",)):
                found += 1
                assert choices.foot_in_first_looks(b, u)
            refused += not choices.foot_in_first_looks(b, u)
    assert found > 5 and refused > 5


def scan_threats(battle, unit, arms=("infantry", "cavalry")) -> list:
    """`_threats` as it was: every enemy within 24 inches, the full check."""
    from manager.errors import IllegalAction
    from manager.rules.featherstone.charge_reach import check_charge
    enemy = battle.enemy_of(unit.side)
    view = threats.enemy_view(battle, enemy)
    out = []
    for e in nearby.near_units(battle, unit.pos, 24, enemy):
        if arm(e) not in arms or e.moved:
            continue
        try:
            check_charge(view, ga.Charge(e.id, unit.id))
        except IllegalAction:
            continue
        out.append(e)
    return out


def test_threatened_ids_in_play():
    """At each generals step of 3 Austerlitz turns: every unit with a threat is in it,
    the threats (from the first looks' pairs) are the full scan's, the foot-only
    threats the scan's of the foot, and most units are passed over (not vacuous)."""
    units = kept = threatened = looked = 0
    for s, side in austerlitz_phases(FS, ("generals", "charges"), 3):
        b = s.battle
        ids = threats.threatened_ids(b, side)
        for u in b.live_units(side):
            units += 1
            kept += u.id in ids
            found = threats.threats(b, u)
            assert found == scan_threats(b, u)
            foot = scan_threats(b, u, ("infantry",))
            assert threats.threats(b, u, ("infantry",)) == foot
            if foot:
                assert choices.foot_in_first_looks(b, u)
            looked += choices.foot_in_first_looks(b, u)
            if found:
                threatened += 1
                assert u.id in ids
    assert threatened >= 1 and kept < units / 2 and looked < kept


# ---- the ground across a line of sight, first ----------------------------------------------
@settings(max_examples=150, deadline=None)
@given(spot, st.integers(0, 359), st.sampled_from(SHOOTERS), st.sampled_from(TARGETS),
       st.floats(0, 359), st.floats(0.5, 40), st.sampled_from(["woods", "town", "hill"]),
       st.tuples(st.floats(-8, 8), st.floats(-8, 8)), st.floats(1, 6), st.floats(1, 6),
       st.booleans())
def test_ground_across_the_line_is_refused_by_the_check(at, facing, kind, tkind, way, rng,
                                                        area, off, w, h, charging):
    """A patch of woods, town or hill anywhere about a line of sight of any length,
    shooter and target of any kind (the target charging the shooter or not): whenever
    ground_blocking names ground, shot_spec refuses the shot (so the commander's value
    is 0 and, for a target not charging, check_fire refuses it)."""
    from manager.errors import IllegalAction
    from manager.footprint import heading
    from builders import rect
    hx, hy = heading(way)
    a = (at[0] + 45, at[1] + 45)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    mx, my = (a[0] + e[0]) / 2 + off[0], (a[1] + e[1]) / 2 + off[1]
    terrain = [rect(area, mx - w / 2, my - h / 2, mx + w / 2, my + h / 2)]
    b = build_table([piece("a", "blue", kind, a, facing=round(way) % 360),
                     piece("e", "red", tkind, e, facing=facing)], FS, terrain=terrain,
                    width=150, height=150)
    if charging:
        b.mark_unit("e", charging="a")
    u, t = b.units["a"], b.units["e"]
    if fire_sight.ground_blocking(b, u, t):
        with pytest.raises(IllegalAction):
            fire.shot_spec(b, u, t)
        if not charging:
            with pytest.raises(IllegalAction):
                fire.check_fire(b, ga.Fire("a", "e"))


def test_shots_passed_over_for_the_ground_are_refused_in_play(monkeypatch):
    """Every target the commander passes over for the ground across the line (its fire
    steps and its guns' look for a target) in 3 Austerlitz turns is one the rules
    refuse, asked there and then, and there are some (not vacuous)."""
    from manager.errors import IllegalAction
    from manager.rules.featherstone import commander
    passed = []

    def spy(battle, unit, target):
        why = fire_sight.ground_blocking(battle, unit, target)
        if why:
            passed.append(1)
            with pytest.raises(IllegalAction):
                fire.shot_spec(battle, unit, target)
            if not mark(target, "charging"):
                with pytest.raises(IllegalAction):
                    fire.check_fire(battle, ga.Fire(unit.id, target.id))
        return why
    monkeypatch.setattr(commander, "ground_blocking", spy)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(passed) > 20
