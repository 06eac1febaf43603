"""Issue 17, Featherstone: answers kept and followed, checked against the plain work.

- the dice of a shot or a strike, kept per what the dice read; a unit refused to fire
  stays refused all the step;
- the rows of bases, followed from the journal, are a fresh fill;
- near generals: the circle first, every general asked;
- a threat's odds weighed on the enemy's view of the version are those on a fresh copy;
- the first looks' floats kept per record are the plain ones.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.model.forces import mark
from manager.rules.featherstone import choices, fire
from manager.rules.featherstone import melee_parts, shot_odds, threats
from manager.rules.featherstone.state import arm
from test_featherstone_prune import FS


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
    from manager.rules.featherstone.nearby import attached_leaders
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
