"""The quick-play rules' shortcuts (issue 17) answer as the code they replaced: shapes
built once a base, a joined commander looked for only near the base, a terrain cost
remembered, the charge odds the commander does not ask (the roll reaches too seldom)."""
import sys
from pathlib import Path

from hypothesis import assume, given, settings, strategies as st

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import ScenarioError
from manager.footprint import distance
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table, piece  # noqa: E402
from test_quickplay_speed import AREAS, KINDS, ROOT, refused, spot  # noqa: E402


# ---- shapes built once, a commander looked for only near, a terrain cost remembered --------
@settings(max_examples=80, deadline=None)
@given(st.tuples(st.floats(5, 40), st.floats(5, 28)), st.integers(0, 359),
       st.sampled_from(KINDS), st.floats(-5, 5), st.floats(-5, 5),
       st.sampled_from(["line", "column"]))
def test_joined_commander_is_the_one_on_the_widened_base(at, facing, kind, dx, dy, form):
    """A commander within the base widened by a quarter inch (shapely's buffer, as the
    rules always asked) is found; one farther off is not, as before."""
    from shapely.geometry import Point
    from manager.rules.quickplay.units import footprint, joined_commander
    at = (at[0] + 1.5, at[1] + 1.5)                     # the commander stays on the table
    b = build_table([piece("a", "blue", kind, at, facing=facing, formation=form)],
                    "quickplay", leaders={"b1": {"pos": [at[0] + dx, at[1] + dy]}})
    u = b.units["a"]
    zone = footprint(b, u).polygon().buffer(0.25)
    want = [l for l in b.live_leaders("blue") if zone.contains(Point(l.x, l.y))]
    assert joined_commander(b, u) is (want[0] if want else None)


@settings(max_examples=60, deadline=None)
@given(spot, st.floats(0.5, 10), st.integers(0, 359), st.sampled_from(KINDS))
def test_cover_behind_a_wall_as_before(at, off, facing, kind):
    from shapely.geometry import LineString
    from manager.rules.quickplay.units import cover, footprint
    from manager.table_terrain import table_terrain
    wall = [[at[0] - 6, at[1] - off], [at[0] + 6, at[1] - off]]
    b = build_table([piece("a", "blue", kind, at, facing=facing)], "quickplay",
                    terrain=[{"kind": "wall", "points": wall}])
    u = b.units["a"]
    poly = footprint(b, u).polygon()
    t = table_terrain(b.battlefield)
    behind = any(poly.buffer(1.0).intersects(w) for _, w in t.lines.get("wall", []))
    assert (cover(b, u) == "partial") == behind
    assert len(t.lines["wall"]) == 1 and LineString(wall).length > 11.9


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), st.floats(-8, 8), st.floats(-8, 8),
       st.integers(0, 359), st.sampled_from(KINDS), st.sampled_from(["line", "column"]))
def test_terrain_cost_remembered_is_terrain_cost_measured(kind, c, r, dx, dy, facing, ukind,
                                                          form):
    from dataclasses import replace
    from manager.rules.quickplay.move_ground import _terrain_cost, terrain_cost
    from manager.rules.quickplay.units import footprint
    terrain = [{"kind": kind, "points": [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r],
                                         [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]}]
    try:
        b = build_table([piece("a", "blue", ukind, (24, 18), formation=form)], "quickplay",
                        terrain=terrain)
    except ScenarioError:
        assume(False)
    u = b.units["a"]
    start = footprint(b, u)
    end = footprint(b, u, x=u.x + dx, y=u.y + dy, facing=facing)
    assert terrain_cost(b, u, start, end) == _terrain_cost(b, u, start, end)
    assert terrain_cost(b, u, start, end) == _terrain_cost(b, u, start, end)   # remembered
    b.set_battlefield(replace(b.battlefield, features=()))      # another table: measured
    assert terrain_cost(b, u, start, end) == _terrain_cost(b, u, start, end) == (0.0, "", False)


def test_no_charge_outcome_is_likelier_than_the_roll_reaching_in_play():
    """The commander asks no odds of a charge whose roll reaches too seldom: every charge
    it weighs on two turns of Austerlitz scores no more than its roll's chance."""
    from manager.rules.quickplay.melee import charge_plan
    from manager.rules.quickplay.melee_odds import charge_odds
    from manager.rules.quickplay.moves import roll_reaches
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "quickplay", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    weighed = skipped = 0
    while not s.battle.state.over and s.battle.state.turn <= 2:
        b = s.battle
        if b.state.phase == "act":
            side = b.state.active
            for u in b.live_units(side):
                for e in b.live_units(b.enemy_of(side)):
                    if distance(u.pos, e.pos) > 30 or refused(s, ga.Charge(u.id, e.id)):
                        continue
                    o = charge_odds(b, ga.Charge(u.id, e.id)).outcomes
                    top = roll_reaches(u, charge_plan(b, u, e)[2])
                    score = o.get("defender tests morale", 0) - o.get("attackers test morale", 0)
                    assert score <= top and o["the charge reaches"] <= top
                    weighed += 1
                    skipped += float(top) <= 0.3
        ap.step()
    assert weighed > 20 and skipped > 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["woods", "town", "hill", "marsh"]), spot, st.floats(1, 8), spot, spot,
       st.sampled_from(["through", "within"]))
def test_terrain_sight_remembered_is_terrain_sight_measured(kind, c, r, a, z, seen):
    """The terrain part of a line of sight, remembered by its ends, table and option,
    is the one measured (and another table, or the option changed, measures again)."""
    from dataclasses import replace
    from manager.footprint import segment
    from manager.rules.quickplay.units import _terrain_sight, terrain_sight
    area = {"kind": kind, "points": [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r],
                                     [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]}
    if kind == "hill":
        area["level"] = 1
    b = build_table([piece("a", "blue", "line_infantry", (46, 34))], "quickplay",
                    terrain=[area], options={"woods_visibility": seen})
    line = segment(a, z)
    for _ in range(2):                                       # measured, then remembered
        assert terrain_sight(b, a, z, line) == _terrain_sight(b, a, z, line)
    b.set_info(replace(b.info, options={**b.info.options, "woods_visibility":
                                        "within" if seen == "through" else "through"}))
    assert terrain_sight(b, a, z, line) == _terrain_sight(b, a, z, line)
    b.set_battlefield(replace(b.battlefield, features=()))
    assert terrain_sight(b, a, z, line) == _terrain_sight(b, a, z, line) == ""
