"""Issue 17, twelfth session: a rally's "canister/contact" modifier measures only the
enemy bases not surely farther than the reach (footprint.surely_apart); it must answer
as the plain scan, which measured every one, in play and on the border."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from manager.rules.featherstone import morale
from manager.rules.featherstone.nearby import near_units, unit_gap
from manager.rules.featherstone.tables import ARTILLERY_RANGES, CLOSE_CANISTER, PROFILES
from test_featherstone_speed import FS, phases_in_play


def plain_contact(battle, unit) -> bool:
    """in_enemy_contact as it was: every enemy within 12 inches measured."""
    return any(unit_gap(battle, e, unit) <= 0.05
               for e in near_units(battle, unit.pos, 12, battle.enemy_of(unit.side)))


def plain_canister(battle, unit, close: bool) -> bool:
    """in_canister_range as it was: every enemy gun within its reach + 6 measured."""
    from manager.footprint import distance
    for e in battle.live_units(battle.enemy_of(unit.side)):
        if PROFILES[e.kind].arm != "artillery":
            continue
        reach = CLOSE_CANISTER if close else ARTILLERY_RANGES[PROFILES[e.kind]["weapon"]][0]
        if distance(e.pos, unit.pos) <= reach + 6 and unit_gap(battle, e, unit) <= reach:
            return True
    return False


def same(battle, unit) -> tuple:
    got = (morale.in_enemy_contact(battle, unit), morale.in_canister_range(battle, unit, True),
           morale.in_canister_range(battle, unit, False))
    assert got == (plain_contact(battle, unit), plain_canister(battle, unit, True),
                   plain_canister(battle, unit, False))
    return got


def test_contact_and_canister_are_the_plain_scans_in_play():
    """Every live unit at the start of each rally, moves and melee step of 3 Austerlitz
    turns: the same answers, some in contact and some in canister range."""
    seen = [0, 0, 0]
    judged = 0
    for s, _ in phases_in_play(turns=3, phases=("rally", "moves", "melee")):
        for u in s.battle.live_units():
            for k, v in enumerate(same(s.battle, u)):
                seen[k] += v
            judged += 1
    assert judged > 1000 and seen[0] and seen[2], seen  # (close canister: on the border)


gap = st.floats(0, 0.2) | st.sampled_from([0.0, 0.05, 0.05 - 1e-7, 0.05 + 1e-7, 0.049, 0.051])
reach_off = st.floats(-1, 1) | st.sampled_from([0.0, 1e-7, -1e-7])


@settings(max_examples=200, deadline=None)
@given(gap, st.integers(0, 3).map(lambda k: k * 90), st.sampled_from(
    ["line_infantry", "heavy_cavalry", "foot_artillery"]), reach_off,
    st.sampled_from([CLOSE_CANISTER, 8]), st.integers(0, 359))
def test_on_the_border_of_the_reach(g, facing, kind, off, reach, gun_facing):
    """A blue line at (24, 20) facing north; a red unit square to it at about gap g from
    its front, and a red gun with its base about `reach` (+ off) from the line's rear:
    the same answers as the scans."""
    blue = piece("b", "blue", "line_infantry", (24.0, 20.0), facing=0)
    b = build_table([blue], FS)
    fp = morale.footprint(b, b.units["b"])
    red = build_table([blue, piece("r", "red", kind, (24.0, 10.0), facing=facing)], FS)
    rfp = morale.footprint(red, red.units["r"])
    # the red base's nearest edge at g north of the line's front (facings square to it)
    half = (rfp.depth if facing % 180 == 0 else rfp.frontage) / 2
    y_red = 20.0 - fp.depth / 2 - g - half
    gun = piece("g", "red", "foot_artillery", (24.0, 20.0 + fp.depth / 2 + reach + off + 1.0),
                facing=gun_facing)
    t = build_table([blue, piece("r", "red", kind, (24.0, y_red), facing=facing), gun], FS)
    same(t, t.units["b"])


@settings(max_examples=150, deadline=None)
@given(st.floats(0, 0.1) | st.sampled_from([0.05, 0.05 - 1e-7, 0.05 + 1e-7, 0.05 + 2e-6]),
       st.sampled_from([0, 90, 180, 270]), st.integers(0, 3))
def test_corner_to_corner_where_the_circles_are_the_gap(g, facing, corner):
    """Two like bases, corner to corner along their common diagonal at gap g: there the
    circles' bound is the gap itself (the tightest case for surely_apart's test)."""
    import math
    blue = piece("b", "blue", "line_infantry", (24.0, 18.0), facing=facing)
    b = build_table([blue], FS)
    fp = morale.footprint(b, b.units["b"])
    cx, cy = fp.corners()[corner]
    half = math.hypot(cx - fp.x, cy - fp.y)
    ux, uy = (cx - fp.x) / half, (cy - fp.y) / half
    at = (fp.x + ux * (2 * half + g), fp.y + uy * (2 * half + g))
    t = build_table([blue, piece("r", "red", "line_infantry", at, facing=facing)], FS)
    assert abs(unit_gap(t, t.units["r"], t.units["b"]) - g) < 1e-6
    same(t, t.units["b"])


# ---- a pursuit's room: the bases surely farther than 0.1 inch are not measured ------------
def plain_clear(fp, other) -> bool:
    """pursue_unit's test as it was: shapely's distance of the two bases."""
    return fp.polygon().distance(other.polygon()) >= 0.1


@settings(max_examples=150, deadline=None)
@given(st.floats(0, 0.3) | st.sampled_from([0.1, 0.1 - 1e-7, 0.1 + 1e-7, 0.1 + 2e-6, 0.0]),
       st.sampled_from([0, 90, 180, 270, 45, 30]), st.integers(0, 3),
       st.sampled_from(["line_infantry", "heavy_cavalry"]))
def test_a_pursuers_room_corner_to_corner(g, facing, corner, kind):
    """Two like bases corner to corner along their common diagonal at gap g (where the
    circles' bound is the gap itself): the same answer as shapely's distance."""
    import math
    from manager.rules.featherstone.melee import _clear
    b = build_table([piece("b", "blue", kind, (24.0, 18.0), facing=facing)], FS)
    fp = morale.footprint(b, b.units["b"])
    cx, cy = fp.corners()[corner]
    half = math.hypot(cx - fp.x, cy - fp.y)
    ux, uy = (cx - fp.x) / half, (cy - fp.y) / half
    other = fp.moved(fp.x + ux * (2 * half + g), fp.y + uy * (2 * half + g))
    assert _clear(fp, other) == plain_clear(fp, other)
    assert _clear(other, fp) == plain_clear(other, fp)


def test_a_pursuers_room_in_play():
    """Every live base against the bases within 12 inches of it, at the start of each
    melee and moves step of 3 Austerlitz turns: the same answers, some not clear."""
    from manager.rules.featherstone.melee import _clear
    judged = tight = 0
    for s, _ in phases_in_play(turns=3, phases=("melee", "moves")):
        b = s.battle
        for u in b.live_units():
            fp = morale.footprint(b, u)
            for o in near_units(b, u.pos, 12):
                if o.id != u.id:
                    ofp = morale.footprint(b, o)
                    assert _clear(fp, ofp) == plain_clear(fp, ofp)
                    judged += 1
                    tight += not plain_clear(fp, ofp)
    assert judged > 5000 and tight > 20
