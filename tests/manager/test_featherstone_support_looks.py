"""Issue 17, Featherstone (seventh session): support fire's first looks.

`support.supporters` passes over a (friend, enemy) pair before judging whether the
friend may fire and before its line of sight when `_surely_refused` says `_spec` would
refuse the shot anyway: beyond the shot's reach (8 inches at charging horse, else the
weapon's longest range) or outside the arc of fire. Each pair passed over must be one
`_spec` refuses, so the supporters are the ones every pair measured gives
(tests/manager/test_featherstone_speed.py's old_supporters, in play there; here in any
geometry).
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from manager.errors import IllegalAction
from manager.footprint import heading
from manager.rules.common import Melee
from manager.rules.featherstone import support as sp
from manager.rules.featherstone.state import footprint

FS = "featherstone"
SHOOTERS = ["line_infantry", "rifles", "foot_artillery", "heavy_artillery", "skirmishers"]
TARGETS = ["line_infantry", "heavy_cavalry", "light_cavalry", "foot_artillery"]


def table(kind, form, facing, tkind, way, rng, tfacing, charging):
    """A shooter of `side` blue at the table's middle, an enemy `rng` inches off toward
    bearing `way` (charging a blue unit or not)."""
    hx, hy = heading(way)
    a = (70.0, 70.0)
    e = (a[0] + hx * rng, a[1] + hy * rng)
    tform = "line"
    b = build_table([piece("a", "blue", kind, a, facing=facing,
                           formation=form if kind in ("line_infantry", "rifles") else "line"),
                     piece("e", "red", tkind, e, facing=tfacing, formation=tform),
                     piece("t", "blue", "line_infantry", (10, 130))], FS,
                    width=140, height=140)
    if charging:
        b.mark_unit("e", charging="t")
    return b


def refused(b, u, e) -> bool:
    try:
        sp._spec(b, u, e)
        return False
    except IllegalAction:
        return True


def judged(b, u, e) -> bool:
    return sp._surely_refused(b, u, footprint(b, u), e, footprint(b, e),
                              sp._at_charging_horse(e))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SHOOTERS), st.sampled_from(["line", "column", "square"]),
       st.integers(0, 359), st.sampled_from(TARGETS), st.floats(0, 360),
       st.floats(0.0, 56.0), st.integers(0, 359), st.booleans())
def test_a_pair_passed_over_is_one_spec_refuses(kind, form, facing, tkind, way, rng,
                                                tfacing, charging):
    """Any shooter (muskets, rifles, field and heavy guns; line, column, square), any
    enemy (charging horse or not) in any direction and at any range, touching or
    overlapping too: whenever `_surely_refused` passes the pair over, `_spec` refuses
    the shot."""
    b = table(kind, form, facing, tkind, way, rng, tfacing, charging)
    u, e = b.units["a"], b.units["e"]
    if judged(b, u, e):
        assert refused(b, u, e)


def test_both_first_looks_pass_pairs_over_and_keep_the_ones_spec_allows():
    """A sweep of bearings and ranges: the first looks pass over pairs beyond reach and
    pairs outside the arc (not vacuous), never one `_spec` allows, and keep pairs just
    inside either border (a bound cut too tight fails here)."""
    far = arc = kept = 0
    for kind, reach in (("line_infantry", 8), ("rifles", 16), ("foot_artillery", 40),
                        ("heavy_artillery", 50)):
        for way in range(0, 360, 15):
            for rng in (3, reach - 1, reach + 4, reach + 12):
                for charging in (False, True):
                    b = table(kind, "line", 0, "heavy_cavalry", way, rng, 180, charging)
                    u, e = b.units["a"], b.units["e"]
                    if judged(b, u, e):
                        assert refused(b, u, e)
                        if sp.surely_apart(footprint(b, u), footprint(b, e),
                                           sp._reach(u, charging)):
                            far += 1
                        else:
                            arc += 1
                    elif not refused(b, u, e):
                        kept += 1
    assert far > 50 and arc > 50 and kept > 50


def test_a_touching_enemy_outside_the_arc_is_kept():
    """Bases in contact: the shot is not refused for its arc (shot_spec's rng <= 1e-6),
    so the first looks must keep the pair."""
    b = table("line_infantry", "line", 0, "line_infantry", 90, 0.0, 270, False)
    u, e = b.units["a"], b.units["e"]
    # the enemy stands beside the shooter, overlapping its flank: outside the arc
    assert not refused(b, u, e)
    assert not judged(b, u, e)


def test_supporters_with_two_enemies_shoot_the_first_allowed():
    """Two chargers at one defender: each friend fires at the first enemy (in the
    melee's order) its shot is allowed at, as every pair measured gives."""
    from test_featherstone_speed import old_supporters
    b = build_table([piece("d", "blue", "line_infantry", (40, 40)),
                     piece("f1", "blue", "line_infantry", (34, 40)),
                     piece("f2", "blue", "foot_artillery", (48, 44), facing=300),
                     piece("f3", "blue", "rifles", (40, 52), facing=90),
                     piece("c1", "red", "line_infantry", (40, 36.5)),
                     piece("c2", "red", "heavy_cavalry", (43, 37), facing=200)], FS,
                    width=90, height=90)
    for c in ("c1", "c2"):
        b.mark_unit(c, charging="d")
    m = Melee("d", ("c1", "c2"))
    got = [(u.id, e.id) for u, e in sp.supporters(b, m, "blue")]
    assert got == [(u.id, e.id) for u, e in old_supporters(b, m, "blue")]
    assert got


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["foot_artillery", "line_infantry", "rifles"]),
       st.integers(-44, 44), st.floats(4.0, 10.0), st.integers(0, 359),
       st.sampled_from(["heavy_cavalry", "light_cavalry"]))
def test_charging_horse_at_the_edge_of_eight_inches(kind, off, gap, tfacing, tkind):
    """Charging horse in the shooter's arc whose base's circle is 4-10 inches from the
    shooter's (so the bases' own gap lies about the 8 inches support reaches at
    charging horse): a pair passed over is one `_spec` refuses."""
    import math
    b = table(kind, "line", 0, tkind, off, 10.0, tfacing, True)
    fa, fe = footprint(b, b.units["a"]), footprint(b, b.units["e"])
    rng = (math.hypot(fa.frontage, fa.depth) + math.hypot(fe.frontage, fe.depth)) / 2 + gap
    b = table(kind, "line", 0, tkind, off, rng, tfacing, True)
    u, e = b.units["a"], b.units["e"]
    if judged(b, u, e):
        assert refused(b, u, e)


# ---- tenth session: the circles in plain floats before _surely_refused ------------------
def plain_first_looks(b, e) -> set:
    """supporters' first looks as they were: `_surely_refused` asked of every friend."""
    tfp, horse = footprint(b, e), sp._at_charging_horse(e)
    return {u.id for u in b.live_units("blue")
            if u.kind not in ("heavy_cavalry", "light_cavalry")
            and not sp._surely_refused(b, u, footprint(b, u), e, tfp, horse)}


def rows_of(b, units) -> list:
    return [sp._row(b, u) for u in units]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SHOOTERS), st.sampled_from(["line", "column", "square"]),
       st.integers(0, 359), st.sampled_from(TARGETS), st.floats(0, 360),
       st.floats(-2e-5, 2e-5), st.integers(0, 359), st.booleans())
def test_first_looks_are_surely_refused_at_the_circles_border(kind, form, facing, tkind,
                                                              way, hair, tfacing, charging):
    """The shooter's centre a hair (up to 2e-5 inch) either side of its reach + both half
    diagonals from the enemy's: exactly the friends `_surely_refused` keeps."""
    import math
    b = table(kind, form, facing, tkind, way, 10.0, tfacing, charging)
    fa, fe = footprint(b, b.units["a"]), footprint(b, b.units["e"])
    rng = (math.hypot(fa.frontage, fa.depth) + math.hypot(fe.frontage, fe.depth)) / 2 + \
        sp._reach(b.units["a"], charging) + 1e-6 + hair
    b = table(kind, form, facing, tkind, way, rng, tfacing, charging)
    near = [b.units["a"], b.units["t"]]
    e = b.units["e"]
    assert sp._first_looks(b, near, rows_of(b, near), e) == plain_first_looks(b, e)


def test_first_looks_are_the_plain_ones_in_play(monkeypatch):
    """Every support-fire question of 3 Austerlitz turns (the odds' trial copies and the
    melees resolved): the friends kept are the ones `_surely_refused` keeps, and the
    circles pass most over without it."""
    asked, plain = [], sp._surely_refused

    def counted(*args):
        asked.append(1)
        return plain(*args)
    seen = []
    real = sp._first_looks

    def both(battle, near, rows, e):
        n = len(asked)
        got = real(battle, near, rows, e)
        tfp, horse = footprint(battle, e), sp._at_charging_horse(e)
        assert got == {u.id for u in near
                       if not plain(battle, u, footprint(battle, u), e, tfp, horse)}
        seen.append((len(near), len(asked) - n))
        return got
    monkeypatch.setattr(sp, "_surely_refused", counted)
    monkeypatch.setattr(sp, "_first_looks", both)
    from play_checks import austerlitz_phases
    for _ in austerlitz_phases(FS, ("melee",), 3):
        pass
    friends, measured = sum(n for n, _ in seen), sum(m for _, m in seen)
    assert len(seen) > 20 and measured < friends / 3, (len(seen), friends, measured)


def test_a_friend_moved_gets_a_new_row():
    """The rows are kept per record across versions: a friend that moved is read afresh
    (its new place, base and reach), so supporters stays every pair measured."""
    from test_featherstone_speed import old_supporters
    b = table("line_infantry", "line", 0, "line_infantry", 0, 30.0, 180, False)
    m = Melee("e", ("t",))
    assert sp.supporters(b, m, "blue") == old_supporters(b, m, "blue") == []
    ex, ey = b.units["e"].pos
    b.update_unit("a", x=ex, y=ey + 6.0, facing=0)         # 6 inches behind it, facing it
    got = [(u.id, e.id) for u, e in sp.supporters(b, m, "blue")]
    assert got == [(u.id, e.id) for u, e in old_supporters(b, m, "blue")] == [("a", "e")]
