"""Issue 17, eleventh session: the d3 commander deciding the same with less work.

- `ring.hundredth`: round(x, 2), the very float, by float arithmetic away from a half.
- `ground.swept_core`: a band along the path inside the swept hull; a base it surely
  shares more than CROSSING with, the hull does (Sweep.crosses, no hull clipped).
- `units.footprint`: spatial.own_base's memo hit read in line.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _play(monkeypatch, turns: int, spies: dict):
    """Austerlitz (seed 1) under d3 for `turns` turns, the given (owner, name) -> spy."""
    from builders import play_spied
    return play_spied(monkeypatch, "d3", turns, spies)


# ---- round(x, 2) without the decimal conversions ---------------------------------------------
def _same(a: float, b: float) -> bool:
    """The very float (repr tells -0.0 from 0.0 and every float apart)."""
    return repr(a) == repr(b)


EDGES = [0.0, -0.0, 0.001, -0.001, 0.004999, -0.004999, 0.005, -0.005, 0.015, -0.015,
         0.125, -0.125, 0.135, 1.005, -1.005, 2.675, -2.675, 0.285, 1.115, 10.005,
         -9.649999999999999, 88.17, 123.455, 1e6 + 0.005, -1e6 - 0.005, 0.5, -0.5,
         49.995, 99.995, -99.995, 3.0000000001, 1e-300, -1e-300, 7e12 + 0.125]


def test_d3_hundredth_is_round_at_the_edges():
    """Halves in decimal (not exact in binary: 1.005 is a hair below, 0.285 x 100 a hair
    below its half in floats too), exact binary halves (0.125: round half to even), zeros
    of either sign and values that round to one (-0.001 -> -0.0), large values."""
    from manager.rules.d3.ring import hundredth
    for x in EDGES:
        assert _same(hundredth(x), round(x, 2)), x


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.floats(-1e4, 1e4), st.floats(-1e12, 1e12),
                 st.builds(lambda k, d: k / 100 + d, st.integers(-10 ** 6, 10 ** 6),
                           st.sampled_from([0.005, -0.005, 0.0049999999, 0.0050000001,
                                            -0.0049999999, 5e-13, -5e-13, 0.0]))))
def test_d3_hundredth_is_round(x):
    from manager.rules.d3.ring import hundredth
    assert _same(hundredth(x), round(x, 2)), x


def test_d3_hundredth_is_round_in_play(monkeypatch):
    """Every end the commander rounds in 3 Austerlitz turns (the foot's ends, the ride's
    detour and its ride toward the enemy): the very float of round(x, 2)."""
    from manager.rules.d3 import cavalry, commander, ring
    seen = {"n": 0}

    def checked(x):
        got = ring.hundredth(x)
        assert _same(got, round(x, 2)), x
        seen["n"] += 1
        return got

    _play(monkeypatch, 3, {(cavalry, "hundredth"): checked, (commander, "hundredth"): checked})
    assert seen["n"] > 5000, seen


# ---- the swept core: a band inside the hull of a move's two bases -------------------------
def _core_says(start, end, fp) -> bool:
    from manager import convex
    from manager.footprint import _frame
    from manager.rules.d3.ground import CROSSING, swept_core
    core = swept_core(start, end)
    return bool(core) and convex.area_above(core[0], core[1], core[2], _frame(fp), fp.x, fp.y,
                                            CROSSING) is True


@settings(max_examples=400, deadline=None)
@given(st.floats(0, 360), st.floats(0.2, 13), st.floats(0, 360), st.floats(0, 360),
       st.sampled_from([(4.0, 1.0), (4.0, 1.5), (2.0, 1.5), (8.0, 2.0)]),
       st.floats(-1.5, 1.5), st.floats(-0.3, 1.3), st.floats(0, 360),
       st.sampled_from([(4.0, 1.0), (4.0, 1.5), (2.0, 1.5)]), st.booleans())
def test_d3_swept_core_lies_in_the_hull(way, length, facing, start_turn, size, across, along,
                                        ofacing, osize, march):
    """Moves of any length and end facing, the start base faced along the path (as the
    rules pivot it) or any way, and a base beside, across or at either end of the path:
    whenever the core claims a crossing, the hull's own test (Sweep.crosses) finds it,
    and the band's corners lie in the hull (by the exact clip: it shares all its area)."""
    from manager import convex
    from manager.footprint import Footprint, Sweep, heading
    from manager.rules.d3.ground import swept_core
    hx, hy = heading(way)
    start = Footprint(50.0, 50.0, way if march else start_turn, *size)
    end = Footprint(50.0 + hx * length, 50.0 + hy * length, facing, *size)
    rx, ry = -hy, hx
    fp = Footprint(50.0 + hx * length * along + rx * across * (size[0] / 2 + osize[0] / 2),
                   50.0 + hy * length * along + ry * across * (size[0] / 2 + osize[0] / 2),
                   ofacing, *osize)
    if _core_says(start, end, fp):
        assert Sweep(start, end).crosses(fp)
    core = swept_core(start, end)
    if core:
        pts = start.corners() + end.corners()
        inside = convex.exact_clip_area(list(core[0][4]), convex.hull(pts))
        assert abs(float(inside) - 4 * core[0][2] * core[0][3]) < 1e-9


def _plain_units_refusal(battle, unit, start, end, ignore, charging) -> str:
    """ground._units_refusal as it was (every base asked of the hull, Sweep.crosses)."""
    from manager.footprint import Sweep, closer_than, overlap
    from manager.rules.d3.ground import _near_path
    from manager.rules.d3.units import footprint, utype
    kind = utype(unit)
    sweep = Sweep(start, end)
    for o in _near_path(battle, start, end):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(battle, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if not charging and o.side != unit.side and closer_than(end, ofp, 0.1):
            return f"only a charge may touch {o.name}"
        through = sweep.crosses(ofp)
        if through and (o.side != unit.side or not (kind == "skirmishers"
                                                     or utype(o) == "skirmishers")):
            return f"{o.name} is in the way (only skirmishers pass through friends)"
    return ""


def test_d3_swept_core_in_play(monkeypatch):
    """Every units part of the ground check in 3 Austerlitz turns is the plain one's
    answer, and every base near the path the core claims is one Sweep.crosses finds;
    the core settles some."""
    from manager.footprint import Sweep
    from manager.rules.d3 import ground
    from manager.rules.d3.units import footprint
    fast, seen = ground._units_refusal, {"asked": 0, "core": 0}

    def checked(battle, unit, start, end, ignore, charging):
        got = fast(battle, unit, start, end, ignore, charging)
        assert got == _plain_units_refusal(battle, unit, start, end, ignore, charging)
        for o in ground._near_path(battle, start, end):
            if o.id != unit.id:
                fp = footprint(battle, o)
                said = _core_says(start, end, fp)
                assert Sweep(start, end).crosses(fp) or not said
                seen["asked"] += 1
                seen["core"] += said
        return got

    _play(monkeypatch, 3, {(ground, "_units_refusal"): checked})
    assert seen["core"] > 100 and seen["asked"] > seen["core"], seen


# ---- a unit's own base: the memo's hit read in line -----------------------------------------
def test_d3_own_base_follows_the_record_and_the_scale():
    """The kept base answers for the very record under the very scenario info: a moved
    unit (a new record) and a new frontage_scale (a new info) each get their own base."""
    from dataclasses import replace

    from builders import build_table, piece
    from manager.rules.d3.units import _footprint, footprint
    b = build_table([piece("a", "blue", "line_infantry", (10, 20)),
                     piece("k", "red", "line_infantry", (20, 8))], "d3")
    a = b.units["a"]
    first = footprint(b, a)
    assert footprint(b, a) is first and first == _footprint(b, a, None, None, None)
    b.update_unit("a", x=12.0)
    moved = footprint(b, b.units["a"])
    assert moved.x == 12.0 and moved == _footprint(b, b.units["a"], None, None, None)
    b.set_info(replace(b.info, options={**b.info.options, "frontage_scale": 2.0}))
    scaled = footprint(b, b.units["a"])
    assert scaled.frontage == 2 * moved.frontage and scaled is not moved


def test_d3_own_base_in_play(monkeypatch):
    """Every own base asked in 2 Austerlitz turns is the base built afresh."""
    from manager.rules.d3 import units
    fast, seen = units.footprint, {"n": 0}

    def checked(battle, unit, x=None, y=None, facing=None):
        got = fast(battle, unit, x, y, facing)
        if x is None and y is None and facing is None:
            assert got == units._footprint(battle, unit, None, None, None)
            seen["n"] += 1
        return got

    import manager.rules.d3.cavalry as cavalry
    import manager.rules.d3.combat as combat
    import manager.rules.d3.commander as commander
    import manager.rules.d3.ground as ground
    import manager.rules.d3.moves as moves
    import manager.rules.d3.ride_spots as ride_spots
    import manager.rules.d3.sight as sight
    spies = {(m, "footprint"): checked
             for m in (units, cavalry, combat, ground, moves, ride_spots, sight)
             if hasattr(m, "footprint")}
    spies.pop((commander, "footprint"), None)
    _play(monkeypatch, 2, spies)
    assert seen["n"] > 3000, seen
