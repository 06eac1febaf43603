"""Issue 17, Featherstone (fifth session): first looks that let the commander skip work
whose answer could not change its pick; each only skips what the full judgement would
refuse or rank below (tests/manager/test_same_results.py guards whole battles).

- shot_bound: never below a shot's value, so targets whose bound is below the best
  value found need no sight line, check nor value (Commander._shots);
- threatened_ids: every unit `threats` can name a charger for is in it, so the
  generals' stances pass over the rest (neither choice has anything to weigh);
- threats of the foot alone: the full list without the horse; foot_in_first_looks
  is True whenever that list is not empty (counter_choice passes over the rest).
"""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from builders import build_table, piece, session_at
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.errors import ScenarioError
from manager.model.forces import mark
from manager.rules.featherstone import choices, fire
from manager.rules.featherstone import (charge_reach, fire_sight, melee_parts, shot_odds, state,
                                        threats)
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
            cands = fire_sight.maybe_in_arc(b, u, [e for e in state.near_units(
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
    for e in state.near_units(battle, unit.pos, 24, enemy):
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


# ---- a move's ground: only the bases that could meet it ------------------------------------
def scan_ground_refusal(battle, unit, fp, path_from=None) -> str:
    """moves.ground_refusal as it was: every unit near the end, the ground by kinds_at."""
    from manager.footprint import Sweep, closer_than, distance, inside, overlap
    from manager.rules.featherstone.state import footprint
    from manager.table_terrain import table_terrain
    bf = battle.battlefield
    if not inside(fp, bf.width, bf.height):
        return "the base would leave the table"
    bad = table_terrain(bf).kinds_at(fp.polygon()) & {"lake"}
    if bad:
        return f"{', '.join(sorted(bad))} cannot be entered"
    sweep = Sweep(path_from, fp) if path_from is not None else None
    for o in state.near_units(battle, fp.centre, distance(unit.pos, fp.centre) + 12):
        if o.id == unit.id:
            continue
        ofp = footprint(battle, o)
        if overlap(fp, ofp):
            return f"it would stand on {o.name}"
        if o.side != unit.side:
            if closer_than(fp, ofp, 0.1):
                return f"only a charge may touch {o.name}"
            if sweep is not None and sweep.crosses(ofp):
                return f"{o.name} is in the way"
        elif sweep is not None and not battle.option("pass_through_friends") and \
                sweep.crosses(ofp):
            return f"{o.name} is in the way"
    return ""


@settings(max_examples=150, deadline=None)
@given(st.tuples(st.floats(25, 50), st.floats(25, 45)), st.integers(0, 359),
       st.floats(0, 359), st.floats(0, 14),
       st.lists(st.tuples(st.floats(-10, 10), st.floats(-10, 10), st.integers(0, 359),
                          st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
                          st.booleans()), min_size=1, max_size=6),
       st.booleans(), st.sampled_from(["line", "column", "square"]),
       st.lists(st.tuples(st.floats(10, 60), st.floats(10, 55), st.floats(0.5, 8),
                          st.floats(0.5, 8)), min_size=1, max_size=2))
def test_a_moves_ground_is_judged_as_by_every_unit_near(at, facing, way, inches, others,
                                                        through, form, lakes):
    """A move (or a re-forming in place) of any length and facing among friends and
    enemies strewn about its path and end, with a lake or two somewhere, friends passed
    through or not: ground_refusal says the very same as asking every unit near the
    end and the ground's kinds (the first look leaves out only bases clear of it)."""
    from builders import rect
    from manager.footprint import heading
    from manager.rules.featherstone.moves import ground_refusal
    from manager.rules.featherstone.state import footprint
    hx, hy = heading(way)
    to = (at[0] + hx * inches, at[1] + hy * inches)
    units = [piece("u", "blue", "line_infantry", at, facing=facing)]
    for k, (dx, dy, f, kind, enemy) in enumerate(others):
        units.append(piece(f"o{k}", "red" if enemy else "blue", kind,
                           (to[0] + dx, to[1] + dy), facing=f))
    try:
        b = build_table(units, FS, terrain=[rect("lake", lx, ly, lx + w, ly + h)
                                            for lx, ly, w, h in lakes],
                        options={"pass_through_friends": through}, width=80, height=75)
    except ScenarioError:
        assume(False)           # a base set in the lake
    u = b.units["u"]
    start = footprint(b, u)
    end = footprint(b, u, x=to[0], y=to[1], facing=round(way) % 360, formation=form)
    assert ground_refusal(b, u, end, start) == scan_ground_refusal(b, u, end, start)
    here = footprint(b, u, formation=form)
    assert ground_refusal(b, u, here) == scan_ground_refusal(b, u, here)


def test_a_moves_ground_in_play(monkeypatch):
    """Every ground refusal asked in 3 Austerlitz turns (the commander's trial moves,
    the session's checks, re-formings) says what asking every unit near says; some
    moves are refused for a unit (not vacuous)."""
    from manager.rules.featherstone import moves
    plain = moves.ground_refusal
    said = []

    def spy(battle, unit, fp, path_from=None):
        why = plain(battle, unit, fp, path_from)
        assert why == scan_ground_refusal(battle, unit, fp, path_from)
        said.append(why)
        return why
    monkeypatch.setattr(moves, "ground_refusal", spy)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(said) > 200 and sum("stand on" in w or "touch" in w for w in said) >= 3


def scan_path_refusal(battle, unit, target, end) -> str:
    """charge_reach._path_refusal as it was: every unit near the charger asked (nothing kept)."""
    from manager.footprint import Sweep, distance, inside
    from manager.rules.featherstone.state import footprint
    sweep = Sweep(footprint(battle, unit), end)
    for o in state.near_units(battle, unit.pos, distance(unit.pos, end.centre) + 12):
        if o.id in (unit.id, target.id):
            continue
        if o.side == unit.side and battle.option("pass_through_friends") and \
                not end.polygon().intersection(footprint(battle, o).polygon()).area > 1e-4:
            continue
        if sweep.crosses(footprint(battle, o)):
            return f"{o.name} is in the way"
    bf = battle.battlefield
    return "it would leave the table" if not inside(end, bf.width, bf.height) else ""


@settings(max_examples=150, deadline=None)
@given(st.floats(2, 16), st.integers(0, 359),
       st.lists(st.tuples(st.floats(-0.2, 1.2), st.floats(-6, 6), st.integers(0, 359),
                          st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
                          st.sampled_from(["blue", "red"])), min_size=1, max_size=5),
       st.booleans())
def test_a_charges_path_is_judged_as_by_every_unit_near(rng, turn, others, through):
    """Friends and enemies of any kind and facing strewn about a charge's path, before,
    beside and beyond it, friends passed through or not: the path's refusal is the very
    one asking every unit near the charger gives (whatever the check says first)."""
    from manager.errors import IllegalAction
    from manager.footprint import heading
    from manager.rules.featherstone.charge_reach import _path_refusal, charge_path
    from manager.rules.featherstone.state import footprint
    a = (35.0, 35.0)
    hx, hy = heading(turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    units = [piece("a", "blue", "heavy_cavalry", a, facing=turn),
             piece("e", "red", "line_infantry", e, facing=(turn + 180) % 360)]
    for k, (t, off, f, kind, side) in enumerate(others):
        units.append(piece(f"o{k}", side, kind, (a[0] + hx * rng * t - hy * off,
                                                 a[1] + hy * rng * t + hx * off), facing=f))
    try:
        b = build_table(units, FS, width=70, height=70,
                        options={"pass_through_friends": through})
        spot, way, _, _ = charge_path(b, b.units["a"], b.units["e"])
    except (ScenarioError, IllegalAction):
        assume(False)
    u, t = b.units["a"], b.units["e"]
    end = footprint(b, u, x=spot[0], y=spot[1], facing=way)
    assert _path_refusal(b, u, t, end) == scan_path_refusal(b, u, t, end)


def test_a_charges_path_in_play(monkeypatch):
    """Every path refusal asked in 3 Austerlitz turns (the commander's charges and
    threats, the session's checks) is the old scan's; some name a unit in the way."""
    from manager.rules.featherstone import charges
    plain = charge_reach._path_refusal
    said = []

    def spy(battle, unit, target, end):
        why = plain(battle, unit, target, end)
        assert why == scan_path_refusal(battle, unit, target, end)
        said.append(why)
        return why
    monkeypatch.setattr(charge_reach, "_path_refusal", spy)
    monkeypatch.setattr(charges, "_path_refusal", spy)     # (resolve_charge imports it)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(said) > 20 and sum("in the way" in w for w in said) >= 3, said


# ---- charge_looks: the enemies the charges step weighs --------------------------------------
def scan_charges(battle, unit) -> list:
    """The enemies the charges step weighed before (near_units within the move + 8,
    not surely too far), whose charge the full check allows, in order."""
    from manager.errors import IllegalAction
    from manager.rules.featherstone.charge_reach import check_charge, surely_too_far
    from manager.rules.featherstone.state import move_rate
    out = []
    for e in state.near_units(battle, unit.pos, move_rate(unit) + 8,
                             battle.enemy_of(unit.side)):
        if surely_too_far(battle, unit, e):
            continue
        try:
            check_charge(battle, ga.Charge(unit.id, e.id))
        except IllegalAction:
            continue
        out.append(e)
    return out


def allowed(battle, unit, targets) -> list:
    from manager.errors import IllegalAction
    from manager.rules.featherstone.charge_reach import check_charge
    out = []
    for e in targets:
        try:
            check_charge(battle, ga.Charge(unit.id, e.id))
        except IllegalAction:
            continue
        out.append(e)
    return out


@settings(max_examples=150, deadline=None)
@given(spot, st.integers(-80, 80), st.sampled_from(["line_infantry", "heavy_cavalry",
                                                    "light_cavalry", "light_infantry"]),
       st.sampled_from(["line", "column"]), st.floats(0, 359), st.floats(0.5, 30),
       st.integers(0, 359), st.sampled_from(TARGETS), st.sampled_from([1, 0.5]))
def test_every_charge_the_check_allows_is_in_charge_looks(at, turn, kind, form, way, rng,
                                                          tf, tkind, allow):
    """A charger in any direction and range (its rate cut by a rally result or not), of
    any formation, facing the target or up to 80 degrees off it (the forward arc's
    border either side): whenever the check allows the charge, the target is among
    the charger's charge_looks, and the looks keep the order of the old scan."""
    from manager.footprint import heading
    hx, hy = heading(way)
    a = (at[0] + 40, at[1] + 40)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    b = build_table([piece("e", "blue", tkind, a, facing=tf),
                     piece("c", "red", kind, e, facing=round(way + 180 + turn) % 360,
                           formation=form if "infantry" in kind else "line")], FS,
                    width=130, height=120)
    b.set_state(active="red", phase="charges")
    if allow != 1:
        b.mark_unit("c", allow=allow)
    c = b.units["c"]
    looks = threats.charge_looks(b, "red").get("c", ())
    assert allowed(b, c, looks) == scan_charges(b, c)


def test_charge_looks_in_play():
    """At each charges step of 3 Austerlitz turns, for every unit of the side: the
    charges the check allows among its looks are the old scan's (same order), and the
    looks leave out most of the pairs the old scan weighed (not vacuous)."""
    from manager.rules.featherstone.state import move_rate
    pairs = looked = charges = 0
    for s, side in austerlitz_phases(FS, ("charges",), 3):
        b = s.battle
        looks = threats.charge_looks(b, side)
        for u in b.live_units(side):
            if u.moved or arm(u) == "artillery":
                continue
            mine = looks.get(u.id, ())
            pairs += len(state.near_units(b, u.pos, move_rate(u) + 8, b.enemy_of(side)))
            looked += len(mine)
            found = scan_charges(b, u)
            charges += len(found)
            assert allowed(b, u, mine) == found
    assert charges >= 3 and looked < pairs / 2, (charges, looked, pairs)


# ---- a move's end: the unit the last trial landed on, first --------------------------------
@settings(max_examples=150, deadline=None)
@given(spot, st.tuples(st.floats(-6, 6), st.floats(-6, 6)), spot, st.integers(0, 359),
       st.integers(0, 359), st.sampled_from(["line_infantry", "heavy_cavalry",
                                             "foot_artillery"]),
       st.sampled_from(["line", "column", "square"]))
def test_a_hinted_landing_is_the_scan(a, off, to, fa, fo, kind, form):
    """Whatever unit is tried first (one the end overlaps, one it does not, the mover
    itself is never passed), the answer to "lands on another?" is the scan's: another
    base within 6 inches of the end either way, of any kind, formation and facing."""
    from manager.rules.featherstone.moves import landing_on, lands_on_another
    o = (min(max(to[0] + off[0], 2), 46), min(max(to[1] + off[1], 2), 34))
    b = build_table([piece("a", "blue", "line_infantry", a, facing=fa),
                     piece("o", "blue", kind, o, facing=fo,
                           formation=form if kind == "line_infantry" else "line"),
                     piece("e", "red", "line_infantry", (to[0] + 3, to[1] - 2))], FS)
    u = b.units["a"]
    scan = lands_on_another(b, u, to, fa)
    for first in (None, b.units["o"], b.units["e"]):
        assert (landing_on(b, u, to, fa, first) is not None) == scan


def test_toward_trials_with_the_last_blocker_first_in_play(monkeypatch):
    """Every trial end of the commander's moves over 3 Austerlitz turns: the hinted
    answer is the scan's, and the hint answers many (the units stuck behind a friend)."""
    from manager.rules.featherstone import commander, moves
    seen = {"asked": 0, "hinted": 0}

    def checking(battle, unit, to, facing, first=None):
        got = moves.landing_on(battle, unit, to, facing, first)
        scan = moves.lands_on_another(battle, unit, to, facing)
        assert (got is not None) == scan
        seen["asked"] += 1
        seen["hinted"] += got is not None and got is first
        return got
    monkeypatch.setattr(commander, "landing_on", checking)
    for _ in austerlitz_phases(FS, ("fire_first",), 3):
        pass
    assert seen["asked"] > 100 and seen["hinted"] > 50


# ---- a charge: the unit last found in the way, first -----------------------------------------
def charge_refused(b, u, e) -> bool:
    from manager.errors import IllegalAction
    from manager.rules.featherstone.charge_reach import check_charge
    try:
        check_charge(b, ga.Charge(u.id, e.id))
    except IllegalAction:
        return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.floats(4, 14), st.floats(-5, 5), st.floats(0.1, 0.95), st.integers(0, 359),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.sampled_from(["blue", "red"]), st.booleans(), st.integers(-30, 30))
def test_surely_in_the_way_only_what_the_check_refuses(rng, side_off, t, fo, kind, oside,
                                                       through, turn):
    """A third unit anywhere about a charge's path (friend or enemy, any kind and
    facing, friends passed through or not): whenever the first look says it stands in
    the way, the rules' check refuses the charge."""
    from manager.footprint import heading
    from manager.rules.featherstone.charge_reach import surely_in_the_way
    a = (30.0, 40.0)
    hx, hy = heading(turn)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    o = (a[0] + hx * rng * t - hy * side_off, a[1] + hy * rng * t + hx * side_off)
    b = session_at(build_table([piece("a", "blue", "heavy_cavalry", a, facing=0),
                                piece("e", "red", "line_infantry", e),
                                piece("o", oside, kind, o, facing=fo)], FS, width=60,
                               height=60, options={"pass_through_friends": through}),
                   "charges", side="blue")[0].battle
    b.kept("featherstone.in_the_way", dict)[("a", "e")] = "o"
    u, en = b.units["a"], b.units["e"]
    if surely_in_the_way(b, u, en):
        assert charge_refused(b, u, en)


def test_surely_in_the_way_sees_a_friend_squarely_before_the_charger():
    from manager.rules.featherstone.charge_reach import surely_in_the_way
    b = session_at(build_table([piece("a", "blue", "heavy_cavalry", (30, 30)),
                                piece("f", "blue", "line_infantry", (30, 26)),
                                piece("e", "red", "line_infantry", (30, 21))], FS,
                               width=60, height=60, options={"pass_through_friends": False}),
                   "charges", side="blue")[0].battle
    u, e = b.units["a"], b.units["e"]
    assert not surely_in_the_way(b, u, e)          # nothing remembered yet
    assert charge_refused(b, u, e)                 # the check finds the friend ...
    assert surely_in_the_way(b, u, e)              # ... and the first look asks it first


def test_charges_passed_over_as_in_the_way_are_refused_in_play():
    """Every unit and enemy at each charges step of 3 Austerlitz turns: a charge the
    first look says a unit stands in the way of is one the rules' check refuses."""
    from manager.rules.featherstone.charge_reach import surely_in_the_way
    passed = 0
    for s, side in austerlitz_phases(FS, ("charges",), 3):
        b = s.battle
        for u in b.live_units(side):
            for e in state.near_units(b, u.pos, 30, b.enemy_of(side)):
                if surely_in_the_way(b, u, e):
                    passed += 1
                    assert charge_refused(b, u, e)
    assert passed > 10


def test_a_squares_fired_face_is_passed_over_as_the_check_refuses():
    """A square that has fired from its front: the target before that face is refused
    by the rules and left out by _shots; the one behind is still shot at."""
    s, _ = session_at(build_table([piece("a", "blue", "line_infantry", (24, 20),
                                         formation="square"),
                                   piece("f", "red", "line_infantry", (24, 14)),
                                   piece("r", "red", "line_infantry", (24, 26))], FS),
                      "fire_first", side="blue")
    b = s.battle
    b.mark_unit("a", faces=(0,))
    u, f, r = b.units["a"], b.units["f"], b.units["r"]
    c = Commander(b, "blue")
    assert fire.square_face(b, u, f) == 0 and fire.square_face(b, u, r) == 2
    assert not c.legal(ga.Fire("a", "f")) and c.legal(ga.Fire("a", "r"))
    assert [o[1] for o in c._shots(u, [f, r])] == ["r"]


# ---- the dice of a shot or a strike: kept per what the dice read ------------------------------
@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.integers(0, 12), st.integers(2, 5), st.booleans(),
       st.integers(0, 5), st.integers(1, 2), st.integers(0, 2), st.booleans(), st.booleans(),
       st.booleans(), st.integers(3, 6), st.integers(0, 1), st.floats(0, 50))
def test_kept_casualties_are_the_plain_ones(art, dice, number, halve, to_hit, dd, db, hd, bt,
                                            op, save, sb, rng):
    """Any shot (small arms or guns, any range): the kept distribution has the weights
    the plain computation gives."""
    shot = fire.Shot(art, "long", rng, dice=dice, number=number, halve=halve, to_hit=to_hit,
                     damage_dice=dd, damage_bonus=db, half_damage=hd, battery_target=bt,
                     in_open=op, save=save, save_bonus=sb)
    keep, of = shot_odds.save_keep(shot)
    plain = shot_odds.hits_dist(shot).thinned(keep, of)
    got = shot_odds.casualty_dist(shot)
    assert (got.weights, got.total) == (plain.weights, plain.total)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 12), st.booleans(), st.integers(0, 2), st.integers(0, 6))
def test_kept_strikes_are_the_plain_ones(dice, reroll, halvings, keep):
    plain = melee_parts._strike(dice, reroll, halvings).thinned(keep, 6) if dice > 0 \
        else melee_parts.ZERO.thinned(keep, 6)
    got = melee_parts._struck_and_saved(dice, reroll, halvings, keep) if dice > 0 \
        else melee_parts.ZERO.thinned(keep, 6)
    assert (got.weights, got.total) == (plain.weights, plain.total)


def test_a_unit_refused_to_fire_stays_refused_all_the_step():
    """_fire stops asking a unit may_fire refuses (not for a melee) for the rest of the
    fire step: at every order of the fire steps of 3 Austerlitz turns, such a unit is
    still refused by may_fire, for the very same reason (cavalry, a volley fired, moved
    or not, a gun's shots, move or crew, too few figures)."""
    import sys
    from manager.autopilot import Autopilot
    from manager.session import Session
    from manager.rules.featherstone.state import engaged
    from play_checks import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, FS, seed=1, turns=3))
    ap = Autopilot(s)
    ap.step()
    stopped: dict = {}
    checked = 0
    while not s.battle.state.over and s.battle.state.turn <= 3:
        b = s.battle
        st_ = b.state
        if st_.phase in ("fire_first", "fire"):
            key = (st_.turn, st_.active, st_.phase)
            for u in b.live_units(st_.active):
                if (key, u.id) in stopped:
                    checked += 1
                    assert fire.may_fire(b, u) == stopped[(key, u.id)]
                elif fire.may_fire(b, u) and not engaged(b, u):
                    stopped[(key, u.id)] = fire.may_fire(b, u)
        ap.step()
    reasons = {why.split(":")[0].split(" ", 1)[-1] for why in stopped.values()}
    assert checked > 1000 and len(reasons) >= 3, (checked, reasons)


# ---- the rows of bases, followed from the journal --------------------------------------------
def test_followed_rows_are_a_fresh_fill_in_play():
    """After every step of 3 Austerlitz turns (marks set on every unit as each fire step
    begins, casualties, moves, re-formings), the rows kept from the journal (a mark or a
    casualty leaves a row as it is) hold the very floats and records a fresh fill
    would."""
    import sys
    from manager import spatial
    from manager.autopilot import Autopilot
    from manager.session import Session
    from manager.rules.featherstone.rows import Rows, rows
    from play_checks import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, FS, seed=1, turns=3))
    ap = Autopilot(s)
    ap.step()
    steps = 0
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.step()
        b = s.battle
        kept, fresh = rows(b), Rows.__new__(Rows)
        fresh._fill_fresh(b, list(spatial.unit_grid(b).units))
        assert kept.units == fresh.units and all(a is c for a, c in zip(kept.units,
                                                                         fresh.units))
        for name in ("fps", "fx", "fy", "hd", "hf", "diag"):
            assert getattr(kept, name) == getattr(fresh, name), name
        steps += 1
    assert steps > 300


# ---- near generals: the circle first ------------------------------------------------------
def plain_near_generals(battle, unit) -> list:
    """near_generals as it was: may_influence asked of every live general of the side."""
    from manager.rules.featherstone.morale import may_influence
    from manager.rules.featherstone.state import attached_leaders
    if attached_leaders(battle, unit):
        return []
    return [l for l in battle.live_leaders(unit.side) if not may_influence(battle, l, unit)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.sampled_from(["line", "column", "square"]), st.integers(0, 359),
       st.lists(st.tuples(st.floats(0, 360), st.floats(0, 12)), min_size=1, max_size=3))
def test_near_generals_are_every_general_asked(kind, form, facing, where):
    """Generals about a unit of any kind, formation and facing, at bearings and ranges
    about the 4 inches and its base (on it too): near_generals names the same, in the
    same order, as may_influence asked of every general."""
    from manager.footprint import heading
    units = [piece("u", "blue", kind, (40, 40), facing=facing,
                   formation=form if kind == "line_infantry" else "line")]
    leaders = {}
    for i, (way, rng) in enumerate(where):
        hx, hy = heading(way)
        cid = f"b{i + 1}"
        if i:
            units.append(piece(f"s{i}", "blue", "line_infantry", (5 + 6 * i, 75), command=cid))
        leaders[cid] = {"pos": [40 + hx * rng, 40 + hy * rng]}
    b = build_table(units, FS, leaders=leaders, width=80, height=80)
    u = b.units["u"]
    assert choices.near_generals(b, u) == plain_near_generals(b, u)


def test_near_generals_in_play():
    """Every unit at each generals step of 3 Austerlitz turns: the same generals, and
    some units have one (not vacuous)."""
    some = 0
    for s, side in austerlitz_phases(FS, ("generals",), 3):
        for u in s.battle.live_units(side):
            got = choices.near_generals(s.battle, u)
            assert got == plain_near_generals(s.battle, u)
            some += bool(got)
    assert some > 5


# ---- a threat's odds weighed on the enemy's view of the version -------------------------
def threat_on_a_fresh_copy(battle, unit, e) -> float:
    """The enemy's chance, weighed as before: on a fresh copy where the enemy moves."""
    from manager.rules.featherstone.melee_odds import charge_odds
    view = battle.copy()
    view.set_state(active=battle.enemy_of(unit.side))
    return threats.charger_good(charge_odds(view, ga.Charge(e.id, unit.id), exact=False,
                                            lines=False).outcomes)


def test_threat_chances_on_the_enemy_view_are_those_on_a_fresh_copy():
    """A unit threatened by enemy foot (test_featherstone_choices' table), and every
    threat of 6 Austerlitz turns' generals steps: the chance weighed on the version's
    enemy view (threat_chance without marks) is the one weighed on a fresh copy."""
    mod = __import__("test_featherstone_choices")
    s, _ = mod.threatened(kind="line_infantry")
    r = s.battle.units["r"]
    asked = 0
    for e in threats.threats(s.battle, r):
        asked += 1
        assert threats._threat_chance(s.battle, r, e, {}) == \
            threat_on_a_fresh_copy(s.battle, r, e)
    for s, side in austerlitz_phases(FS, ("generals",), 6):
        b = s.battle
        for u in b.live_units(side):
            for e in threats.threats(b, u):
                asked += 1
                assert threats._threat_chance(b, u, e, {}) == threat_on_a_fresh_copy(b, u, e)
    assert asked >= 30, asked


# ---- the first looks' floats kept per record --------------------------------------------
def plain_looks(battle, side):
    """threats._looks as it was: every unit's floats read afresh."""
    import math
    import numpy as np
    from manager.footprint import EPS
    from manager.rules.featherstone.state import footprint, move_rate
    chargers = [e for e in battle.live_units(battle.enemy_of(side))
                if arm(e) in ("infantry", "cavalry") and not e.moved]
    units = battle.live_units(side)
    if not chargers or not units:
        return None
    arc = battle.option("forward_arc", 45)
    fps = [footprint(battle, e) for e in chargers]
    ex = np.array([e.x for e in chargers])
    ey = np.array([e.y for e in chargers])
    far = np.array([move_rate(e) + 8 for e in chargers]) + threats.SLACK
    reach = np.array([move_rate(e) * mark(e, "allow", 1) + math.hypot(f.frontage, f.depth) / 2
                      for e, f in zip(chargers, fps)]) + (3e-6 + EPS + threats.SLACK)
    fronts = [f.front_centre() for f in fps]
    fx = np.array([p[0] for p in fronts])
    fy = np.array([p[1] for p in fronts])
    facing = np.array([e.facing for e in chargers], dtype=float)
    ux = np.array([u.x for u in units])[:, None]
    uy = np.array([u.y for u in units])[:, None]
    hd = np.array([math.hypot(f.frontage, f.depth) / 2
                   for f in (footprint(battle, u) for u in units)])[:, None]
    d = np.hypot(ux - ex, uy - ey)
    off = np.abs((np.degrees(np.arctan2(ux - fx, -(uy - fy))) % 360 - facing) % 360)
    off = np.minimum(off, 360 - off)
    can = (d <= far) & (d - hd <= reach) & (off <= arc + 1e-6 + threats.SLACK)
    return units, chargers, can, d


def test_looks_from_kept_rows_are_the_plain_ones_in_play():
    """Every generals and charges step of 4 Austerlitz turns, both sides (the rows kept
    from earlier versions, units moved, marked, rallied and fallen between): the first
    looks' table and distances are the very ones read afresh."""
    import numpy as np
    asked = 0
    for s, side in austerlitz_phases(FS, ("generals", "charges", "moves"), 4):
        for who in (side, s.battle.enemy_of(side)):
            got, want = threats._looks(s.battle, who), plain_looks(s.battle, who)
            assert (got is None) == (want is None)
            if got is None:
                continue
            asked += 1
            assert [u.id for u in got[0]] == [u.id for u in want[0]]
            assert [e.id for e in got[1]] == [e.id for e in want[1]]
            # (the looks come as the pairs the table keeps, row by row, with distances)
            rows, cols = np.nonzero(want[2])
            assert got[2] == rows.tolist() and got[3] == cols.tolist()
            assert got[4] == want[3][rows, cols].tolist()
            for e, row in zip(got[1], threats._look_rows(s.battle, got[1])):
                assert row == plain_row(s.battle, e)
    assert asked > 10


def plain_row(battle, u) -> tuple:
    import math
    from manager.rules.featherstone.state import footprint, move_rate
    f = footprint(battle, u)
    half = math.hypot(f.frontage, f.depth) / 2
    return (u.x, u.y, move_rate(u) + 8, move_rate(u) * mark(u, "allow", 1) + half,
            *f.front_centre(), float(u.facing), half)
