"""Issue 17, Featherstone (ninth session): shapely asked only where plain arithmetic is
not certain, and a unit's own base read without a call.

- `charge_reach.on_friend` (a charge passing through friends: does its end stand on one?) is
  shapely's common area above 1e-4, answered by `footprint.area_above` when it is sure.
- `charge_reach.surely_too_far` measures the gap by `footprint.gap_above` first, shapely's
  `base_gap` only when the axes are not sure.
- `state.footprint` reads `spatial.own_base`'s memo itself.
Each against the reference it replaces (kept here), in any geometry and in play.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager import spatial
from manager.footprint import EPS, Footprint, bearing, surely_apart
from manager.model.forces import evolve, mark
from manager.rules.featherstone import charge_reach, charges, commander, state, threats
from manager.rules.featherstone.state import footprint, move_rate
from manager.rules.featherstone.nearby import base_gap

FS = "featherstone"


def shapely_on_friend(end, fp) -> bool:
    """The reference: what _path_refusal and surely_in_the_way asked before."""
    return end.polygon().intersection(fp.polygon()).area > 1e-4


def old_surely_too_far(battle, unit, target) -> bool:
    """surely_too_far before the separating axes: the gap by shapely alone (then the
    wheel's and the ground's bound, as surely_too_far asks it)."""
    rate = move_rate(unit) * mark(unit, "allow", 1)
    way = round(bearing(unit.pos, target.pos)) % 360
    fp = footprint(battle, unit)
    start = fp.moved(unit.x, unit.y, way)
    tfp = footprint(battle, target)
    slack = rate + 1e-6 + EPS + 1e-6
    if surely_apart(start, tfp, slack) or base_gap(battle, start, tfp) > slack:
        return True
    return charge_reach._surely_beyond(fp, start, tfp, way, rate, battle.battlefield)


SIZES = st.sampled_from([(4.0, 1.0), (2.0, 2.0), (6.0, 1.5), (1.0, 3.0), (3.2, 0.8)])


@settings(max_examples=400, deadline=None)
@given(SIZES, SIZES, st.floats(-6, 6), st.floats(-6, 6), st.integers(0, 359),
       st.sampled_from([0, 90, 180, 270, 45, 1, 359, 37]))
def test_on_friend_is_shapelys_area_anywhere(sa, sb, dx, dy, fa, turn):
    """Bases of the sizes in play, anywhere about each other, square or turned."""
    a = Footprint(50.0, 50.0, fa, *sa)
    b = Footprint(50.0 + dx, 50.0 + dy, (fa + turn) % 360, *sb)
    assert charge_reach.on_friend(a, b) == shapely_on_friend(a, b)


@settings(max_examples=300, deadline=None)
@given(SIZES, SIZES, st.sampled_from([0, 90, 180, 270]), st.floats(-1e-6, 1e-6),
       st.sampled_from([1e-4, 2e-4, 5e-5, 0.0, 1e-3]), st.booleans())
def test_on_friend_at_the_edge(sa, sb, fa, hair, area, across):
    """Square bases side by side overlapping by a sliver whose area is about 1e-4 (the
    border itself, a hair either side): the sure answers and the shapes agree."""
    a = Footprint(50.0, 50.0, fa, *sa)
    w = sb[0] if across else sb[1]                # b's side along the sliver
    over = area / min(w, sa[0] if across else sa[1]) + hair
    if across:      # side by side along a's frontage
        off = (sa[0] + sb[0]) / 2 - over
        b = Footprint(50.0 + off, 50.0, 0, *sb) if fa in (0, 180) else \
            Footprint(50.0, 50.0 + off, 0, *sb)
    else:
        off = (sa[1] + sb[1]) / 2 - over
        b = Footprint(50.0, 50.0 + off, 0, *sb) if fa in (0, 180) else \
            Footprint(50.0 + off, 50.0, 0, *sb)
    assert charge_reach.on_friend(a, b) == shapely_on_friend(a, b)


def test_on_friend_is_asked_and_agrees_in_play(monkeypatch):
    """Every friend a charge's end is tested against in 3 Austerlitz turns (the
    commander's first looks, the checks, the odds' checks)."""
    asked, real = [], charge_reach.on_friend

    def both(end, fp):
        got = real(end, fp)
        assert got == shapely_on_friend(end, fp)
        asked.append(got)
        return got
    monkeypatch.setattr(charge_reach, "on_friend", both)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(asked) > 100 and any(asked) and not all(asked), len(asked)


CHARGERS = ["light_cavalry", "heavy_cavalry", "line_infantry", "grenadiers"]
TARGETS = ["line_infantry", "heavy_cavalry", "foot_artillery", "light_infantry"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CHARGERS), st.sampled_from(["line", "column"]),
       st.sampled_from(TARGETS), st.sampled_from(["line", "column", "square"]),
       st.floats(0, 360), st.floats(0.5, 24.0), st.floats(-60, 60), st.integers(0, 359))
def test_surely_too_far_is_the_shapely_gaps_anywhere(kind, form, tkind, tform, way, rng,
                                                      turn, tfacing):
    """A charger and an enemy at any bearing, from touching to past the longest charge."""
    from manager.footprint import heading
    hx, hy = heading(way)
    e = (60.0 + hx * rng, 60.0 + hy * rng)
    b = build_table([piece("a", "blue", kind, (60.0, 60.0), facing=round(way + turn) % 360,
                           formation=form if kind != "light_cavalry" else "line"),
                     piece("e", "red", tkind, e, facing=tfacing,
                           formation=tform if "infantry" in tkind else "line")],
                    FS, width=120, height=120)
    u, t = b.units["a"], b.units["e"]
    assert charge_reach.surely_too_far(b, u, t) == old_surely_too_far(b, u, t)


def test_surely_too_far_is_the_shapely_gaps_in_play(monkeypatch):
    """Every first look at a charge in 3 Austerlitz turns; the axes decide most gaps."""
    asked, real = [], charge_reach.surely_too_far
    sure, gap_above = [], charge_reach.gap_above

    def both(battle, unit, target):
        got = real(battle, unit, target)
        assert got == old_surely_too_far(battle, unit, target)
        asked.append(got)
        return got

    def counting(a, b, inches):
        got = gap_above(a, b, inches)
        sure.append(got is not None)
        return got
    for module in (charges, threats, commander):       # (each imports it by name)
        monkeypatch.setattr(module, "surely_too_far", both)
    monkeypatch.setattr(charge_reach, "gap_above", counting)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(asked) > 300 and any(asked) and not all(asked), len(asked)
    assert sum(sure) > len(sure) / 3, (sum(sure), len(sure))


def test_own_base_is_the_memos_and_a_fresh_one():
    """footprint(battle, unit) is the base own_base keeps (built once), the unit's own
    base as built afresh; another record, or another scenario info (the options scale
    the bases), is built again."""
    b = build_table([piece("a", "blue", "line_infantry", (20, 20)),
                     piece("c", "blue", "heavy_cavalry", (40, 20), facing=90)], FS,
                    width=60, height=40)
    u = b.units["a"]
    fp = footprint(b, u)
    assert fp == state._footprint(b, u, None, None, None, None)
    assert footprint(b, u) is fp
    assert spatial.own_base(b, state.BASES, u, state._footprint, b, u, None, None, None,
                            None) is fp
    v = evolve(u, x=22.0)                              # another record: its own base
    assert footprint(b, v) == Footprint(22.0, 20.0, u.facing, fp.frontage, fp.depth)
    assert footprint(b, u) == fp                       # (and the first's again)
    b.set_info(evolve(b.info, options={**b.info.options, "stand_scale": 2.0}))
    big = footprint(b, u)
    assert big.frontage == 2 * fp.frontage and big == \
        state._footprint(b, u, None, None, None, None)


def test_own_bases_are_fresh_ones_in_play():
    """At the start of each phase of 3 Austerlitz turns every live unit's base read
    through the memo is the one built afresh."""
    n = 0
    for s, _ in austerlitz_phases(FS, ("charges", "moves", "fire", "melee"), 3):
        b = s.battle
        for u in b.live_units():
            assert footprint(b, u) == state._footprint(b, u, None, None, None, None)
            # (moves.plan's start in the unit's own formation: its own base)
            assert footprint(b, u) == footprint(b, u, formation=u.formation)
            n += 1
    assert n > 1000
