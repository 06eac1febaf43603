"""Issue 17, Featherstone (fifth session): first looks that let the commander skip work
whose answer could not change its pick; each only skips what the full judgement would
refuse or rank below (tests/manager/test_same_results.py guards whole battles).

- shot_bound: never below a shot's value, so targets whose bound is below the best
  value found need no sight line, check nor value (Commander._shots);
- threatened_ids: every unit `threats` can name a charger for is in it, so the
  generals' stances pass over the rest (neither choice has anything to weigh);
- threats of the foot alone: the full list without the horse.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager import game_actions as ga
from manager.rules.featherstone import choices, fire
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
            cands = fire.maybe_in_arc(b, u, [e for e in fire.near_units(
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
    if choices.threats(b, u):
        assert u.id in choices.threatened_ids(b, "blue")


def test_threatened_ids_in_play():
    """At each generals step of 3 Austerlitz turns: every unit with a threat is in it,
    the foot-only threats are the full list without the horse, and most units are
    passed over (not vacuous)."""
    from manager.rules.featherstone.choices import _threats
    units = kept = threatened = 0
    for s, side in austerlitz_phases(FS, ("generals", "charges"), 3):
        b = s.battle
        ids = choices.threatened_ids(b, side)
        for u in b.live_units(side):
            units += 1
            kept += u.id in ids
            found = choices.threats(b, u)
            assert found == _threats(b, u, ("infantry", "cavalry"))
            assert choices.threats(b, u, ("infantry",)) == _threats(b, u, ("infantry",))
            if found:
                threatened += 1
                assert u.id in ids
    assert threatened >= 1 and kept < units / 2
