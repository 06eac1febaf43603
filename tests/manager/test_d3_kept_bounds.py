"""Issue 17, d3: bounds and kept answers that pass over the work the rules would refuse
(tests/manager/test_same_results.py guards whole battles).

- `combat.surely_no_candidates`: when it says so, `in_range_candidates` keeps no enemy
  (random tables, at the bound's border, and in play); the candidates in range are the
  plain list at the borders;
- the general's re-roll: circles before shapely, the plain answer at the borders and in
  play;
- the wedge kept per battlefield is the fresh one, in play;
- `close` is closer than at its borders.
"""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from builders import play_spied  # noqa: E402

KINDS = ["line_infantry", "skirmishers", "light_infantry", "foot_artillery", "light_cavalry",
         "heavy_cavalry"]
SHOOTERS = ["line_infantry", "skirmishers", "foot_artillery"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHOOTERS), st.integers(0, 359), st.sampled_from([1.0, 0.5, 1.5]),
       st.lists(st.tuples(st.floats(-8, 8), st.integers(0, 359), st.integers(0, 359),
                          st.sampled_from(KINDS)), min_size=1, max_size=4))
def test_d3_surely_no_candidates_keeps_none(kind, facing, scale, enemies):
    """A shooter and enemies placed about the bound (range + largest half-diagonal from
    the front centre, give or take 8 inches, faced anyhow): whenever the screen says
    none, in_range_candidates keeps none, whatever the reach."""
    from manager.footprint import heading
    from manager.rules.d3.combat import in_range_candidates, surely_no_candidates
    from manager.rules.d3.tables import RANGE
    from manager.rules.d3.units import HALF_DIAGONAL, footprint, utype
    from builders import build_table, piece
    x0, y0 = 100.0, 100.0
    pieces = [piece("s", "blue", kind, (x0, y0), facing=facing)]
    b = build_table(pieces, "d3", width=240.0, height=240.0,
                    options={"frontage_scale": scale})
    u = b.units["s"]
    front = footprint(b, u).front_centre()
    bound = RANGE[utype(u)] + HALF_DIAGONAL * scale
    for k, (off, way, face, ekind) in enumerate(enemies):
        hx, hy = heading(way)
        pieces.append(piece(f"e{k}", "red", ekind, (front[0] + hx * (bound + off),
                                                    front[1] + hy * (bound + off)),
                            facing=face))
    b = build_table(pieces, "d3", width=240.0, height=240.0,
                    options={"frontage_scale": scale})
    u = b.units["s"]
    if surely_no_candidates(b, u, "red"):
        for reach in (RANGE[utype(u)] + 4, 55, 200):
            assert in_range_candidates(b, u, reach, "red") == []



@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHOOTERS), st.integers(0, 359), st.sampled_from([1.0, 0.5, 1.5]),
       st.lists(st.tuples(st.sampled_from(["bound", "range"]),
                          st.sampled_from([-8.0, -1.0, -3e-6, -1e-6, 0.0, 1e-6, 3e-6, 0.5]),
                          st.integers(0, 359), st.integers(0, 359), st.sampled_from(KINDS)),
                min_size=1, max_size=5),
       st.sampled_from([4.0, 16.0, 52.0, 55.0, 200.0]))
def test_d3_in_range_candidates_are_the_plain_list_at_the_borders(kind, facing, scale,
                                                                   enemies, reach):
    """Enemies a hair either side of the largest bound (range + largest half-diagonal)
    or of their own (range + their half-diagonal) from the front centre, at several
    scales and reaches: the same list, in order, as the near-scan less those surely
    out of range (foot by the index's band, guns by the arrays)."""
    import math

    from manager.footprint import heading
    from manager.rules.d3.combat import in_range_candidates, surely_out_of_range
    from manager.rules.d3.tables import DEPTH, FRONTAGE, PROFILES, RANGE
    from manager.rules.d3.units import HALF_DIAGONAL, footprint, near, utype
    from builders import build_table, piece
    x0, y0 = 100.0, 100.0
    pieces = [piece("s", "blue", kind, (x0, y0), facing=facing)]
    b = build_table(pieces, "d3", width=240.0, height=240.0,
                    options={"frontage_scale": scale})
    u = b.units["s"]
    front = footprint(b, u).front_centre()
    r = RANGE[utype(u)]
    for k, (edge, off, way, face, ekind) in enumerate(enemies):
        t = PROFILES[ekind]["type"]
        own = math.hypot(FRONTAGE[t] * scale, DEPTH[t] * scale) / 2
        d = r + (HALF_DIAGONAL * scale if edge == "bound" else own) + 2e-6 + off
        hx, hy = heading(way)
        pieces.append(piece(f"e{k}", "red", ekind, (front[0] + hx * d, front[1] + hy * d),
                            facing=face))
    b = build_table(pieces, "d3", width=240.0, height=240.0,
                    options={"frontage_scale": scale})
    u = b.units["s"]
    want = [e for e in near(b, u.pos, reach, "red") if not surely_out_of_range(b, u, e)]
    assert in_range_candidates(b, u, reach, "red") == want

def test_d3_surely_no_candidates_is_not_vacuous():
    """An enemy within range + its own half-diagonal (a corner in range) is a candidate
    and the screen does not rule it out; one beyond the bound is ruled out."""
    from builders import build_table, piece
    from manager.rules.d3.combat import in_range_candidates, surely_no_candidates
    from manager.rules.d3.tables import RANGE
    from manager.rules.d3.units import HALF_DIAGONAL, footprint
    for off, some in ((-0.5, True), (HALF_DIAGONAL + 0.01, False)):
        probe = build_table([piece("s", "blue", "line_infantry", (50, 60))], "d3",
                            width=120.0, height=120.0)
        fy = footprint(probe, probe.units["s"]).front_centre()[1]
        b = build_table([piece("s", "blue", "line_infantry", (50, 60)),
                         piece("e", "red", "line_infantry",
                               (50, fy - RANGE["infantry"] - off))], "d3",
                        width=120.0, height=120.0)
        u = b.units["s"]
        assert bool(in_range_candidates(b, u, 55, "red")) is some
        assert surely_no_candidates(b, u, "red") is not some


def test_d3_surely_no_candidates_in_play(monkeypatch):
    """Three Austerlitz turns: every foot unit `_shoot` passes over by the screen has no
    candidate; most foot that may shoot are passed over (not vacuous)."""
    from manager.rules.d3 import combat, commander
    screen = combat.surely_no_candidates
    seen = {"asked": 0, "none": 0}

    def checked(battle, unit, side):
        got = screen(battle, unit, side)
        seen["asked"] += 1
        if got:
            seen["none"] += 1
            assert combat.in_range_candidates(battle, unit, 55, side) == []
        return got

    play_spied(monkeypatch, "d3", 3, {(commander, "surely_no_candidates"): checked})
    assert seen["asked"] > 50 and seen["asked"] > seen["none"] > seen["asked"] // 3, seen


# ---- the general's re-roll: circles before shapely ----------------------------------------
def _plain_reroller(battle, unit, mode=None):
    """units.reroller as it was: shapely's distance to every unrallied general."""
    from shapely.geometry import Point
    from manager.rules.d3.tables import GENERAL_REROLL_REACH
    from manager.rules.d3.units import footprint
    if (mode or battle.option("general_reroll")) == "never":
        return None
    base = footprint(battle, unit).polygon()
    for l in sorted(battle.live_leaders(unit.side), key=lambda l: l.id):
        if not l.rallied and base.distance(Point(l.pos)) <= GENERAL_REROLL_REACH + 1e-6:
            return l
    return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["line_infantry", "foot_artillery", "light_cavalry"]),
       st.integers(0, 359), st.sampled_from([1.0, 0.5, 2.0]),
       st.lists(st.tuples(st.sampled_from(["centre", "corner", "edge"]),
                          st.sampled_from([-1e-5, -2e-9, -1e-10, 0.0, 1e-10, 2e-9, 1e-5, 0.3]),
                          st.integers(0, 359), st.booleans()), min_size=1, max_size=3))
def test_d3_reroller_is_the_plain_one_at_the_borders(kind, facing, scale, generals):
    """Generals a hair either side of 12 inches from the unit's centre, from a corner
    of its base (out along the diagonal), or from its front edge (straight ahead),
    rallied or not: the general who may re-roll is the plain one's (shapely's
    distance to every general)."""
    from manager.footprint import heading
    from manager.rules.d3.tables import GENERAL_REROLL_REACH
    from manager.rules.d3.units import footprint, reroller
    from builders import build_table, piece
    x0, y0 = 60.0, 60.0
    pieces = [piece("u", "blue", kind, (x0, y0), facing=facing, command="b0")]
    probe = build_table(pieces, "d3", width=120.0, height=120.0,
                        options={"frontage_scale": scale})
    fp = footprint(probe, probe.units["u"])
    half = (fp.frontage ** 2 + fp.depth ** 2) ** 0.5 / 2
    leaders = {}
    for k, (where, off, way, _) in enumerate(generals):
        hx, hy = heading(way)
        if where == "centre":
            d = GENERAL_REROLL_REACH + 1e-6 + off
        elif where == "corner":                      # out along a diagonal, past its corner
            cx, cy = fp.corners()[way % 4]
            hx, hy = (cx - x0) / half, (cy - y0) / half
            d = GENERAL_REROLL_REACH + 1e-6 + half + off
        else:                                        # straight out from the front edge
            hx, hy = heading(facing)
            d = fp.depth / 2 + GENERAL_REROLL_REACH + 1e-6 + off
        leaders[f"b{k + 1}"] = dict(pos=[x0 + hx * d, y0 + hy * d])
        pieces.append(piece(f"s{k}", "blue", "line_infantry", (10.0 + 6 * k, 110.0),
                            command=f"b{k + 1}"))
    leaders["b0"] = dict(pos=[1.0, 1.0])
    b = build_table(pieces, "d3", width=120.0, height=120.0, leaders=leaders,
                    options={"frontage_scale": scale, "general_reroll": "auto"})
    for k, (_, _, _, rallied) in enumerate(generals):
        if rallied:
            b.update_leader(f"b{k + 1}-ldr", rallied=True)
    u = b.units["u"]
    for mode in (None, "choose", "never"):
        want = _plain_reroller(b, u, mode)
        got = reroller(b, u, mode)
        assert (got and got.id) == (want and want.id)


def test_d3_reroller_in_play(monkeypatch):
    """Three Austerlitz turns: every re-roll asked names the plain one's general, and
    some name one, some none (not vacuous)."""
    from manager.rules.d3 import units
    fast = units.reroller
    seen = {"some": 0, "none": 0}

    def checked(battle, unit, mode=None):
        got = fast(battle, unit, mode)
        want = _plain_reroller(battle, unit, mode)
        assert (got and got.id) == (want and want.id)
        seen["some" if got else "none"] += 1
        return got

    import manager.rules.d3.combat as combat
    import manager.rules.d3.commander as commander
    spies = {(units, "reroller"): checked, (combat, "reroller"): checked,
             (commander, "reroller"): checked}
    play_spied(monkeypatch, "d3", 3, spies)
    assert seen["some"] > 20 and seen["none"] > 20, seen


def test_d3_wedge_kept_per_battlefield_is_the_fresh_one_in_play(monkeypatch):
    """Three Austerlitz turns: every arc of fire the shots ask is the very polygon a
    fresh build gives (the same corners), and most come from an earlier battle version
    (the shooter stood): not vacuous."""
    from shapely.geometry import Polygon
    from manager.footprint import heading
    from manager.rules.d3 import combat
    from manager.rules.d3.tables import FIRE_ARC
    wedge = combat._wedge
    seen = {"asked": 0, "kept": 0, "versions": {}}

    def checked(battle, unit, front):
        got = wedge(battle, unit, front)
        reach = 2 * (battle.battlefield.width + battle.battlefield.height)
        rim = [heading(unit.facing + a)
               for a in (-FIRE_ARC, -FIRE_ARC / 2, 0, FIRE_ARC / 2, FIRE_ARC)]
        want = Polygon([front] + [(front[0] + hx * reach, front[1] + hy * reach)
                                  for hx, hy in rim])
        assert list(got.exterior.coords) == list(want.exterior.coords)
        first = seen["versions"].setdefault(id(got), battle.version)
        seen["asked"] += 1
        seen["kept"] += first != battle.version
        return got

    play_spied(monkeypatch, "d3", 3, {(combat, "_wedge"): checked})
    assert seen["asked"] > 30 and seen["kept"] > 10, seen


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 359), st.sampled_from([(4.0, 1.5), (4.0, 1.0), (2.0, 1.5)]),
       st.sampled_from([(4.0, 1.5), (4.0, 1.0), (2.0, 1.5)]), st.booleans(),
       st.sampled_from([-0.2, -1e-5, -1e-7, 0.0, 1e-7, 1e-5, 0.2]),
       st.floats(0, 360), st.floats(0, 7), st.floats(0, 360))
def test_d3_close_is_closer_than_at_its_borders(facing, a_size, b_size, diagonal, off, way,
                                               d, b_facing):
    """"Hard against" (`ride_spots._close`) is closer_than(.., 1.5): for bases side by side
    and corner to corner whose separation is a hair either side of 1.5 / sqrt(2) (where
    the gap is sqrt(2) times it, a hair either side of 1.5), and for bases anywhere."""
    import math
    from manager.footprint import Footprint, closer_than, heading
    from manager.rules.d3.ride_spots import CRAMP, _close
    a = Footprint(50.0, 50.0, facing, *a_size)
    fx, fy = heading(facing)
    rx, ry = -fy, fx
    t = CRAMP / math.sqrt(2) + off
    if diagonal:                     # corner to corner, the same facing: gap = sqrt(2) t
        along = (a.depth + b_size[1]) / 2 + t
        across = (a.frontage + b_size[0]) / 2 + t
        b = Footprint(50.0 + fx * along + rx * across, 50.0 + fy * along + ry * across,
                      facing, *b_size)
    else:
        hx, hy = heading(way)
        b = Footprint(50.0 + hx * d, 50.0 + hy * d, b_facing, *b_size)
    assert _close(a, b) == closer_than(a, b, CRAMP)
