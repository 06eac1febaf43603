"""Issue 17, Featherstone: first looks at moves and charges that skip only what the full
check refuses (tests/manager/test_same_results.py guards whole battles).

- a move's ground and a charge's path: judged against the bases that could meet them, as
  against every unit near;
- charge_looks: every charge the check allows is among the enemies the charges step weighs;
- a move's end: the unit the last trial landed on is tried first;
- a charge: the unit last found in the way is tried first, and what is passed over as
  surely in the way the check refuses.
"""
from __future__ import annotations

from hypothesis import assume, given, settings, strategies as st

from builders import build_table, piece, session_at
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.errors import ScenarioError
from manager.rules.featherstone import fire
from manager.rules.featherstone import charge_reach, nearby, threats
from manager.rules.featherstone.commander import Commander
from manager.rules.featherstone.state import arm
from test_featherstone_prune import FS, TARGETS, spot


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
    for o in nearby.near_units(battle, fp.centre, distance(unit.pos, fp.centre) + 12):
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
    for o in nearby.near_units(battle, unit.pos, distance(unit.pos, end.centre) + 12):
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
    for e in nearby.near_units(battle, unit.pos, move_rate(unit) + 8,
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
            pairs += len(nearby.near_units(b, u.pos, move_rate(u) + 8, b.enemy_of(side)))
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
            for e in nearby.near_units(b, u.pos, 30, b.enemy_of(side)):
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
