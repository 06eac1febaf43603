"""Issue 17, quick-play: answers worked out from boxes first are the answers measured.

- Terrain cost and sight by boxes first (`clear_ground`) are the cost and sight measured,
  on random tables; the boxes see the features they must; a bent road is boxed piece by
  piece.
- Base sizes worked out once are the sizes; a retreat asks only the bases beside its way.
- In play on Austerlitz: every move cost is the cost measured, orders along lines known
  blocked are refused, and known terrain sight is the remembered answer.
"""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager import game_actions as ga

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table  # noqa: E402
from test_quickplay_speed import crowd  # noqa: E402
from quickplay_refs import AREAS, KINDS, LINES, austerlitz, box_table, spot  # noqa: E402


# ---- boxes first (clear_ground) --------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), st.sampled_from(LINES), st.floats(3, 45),
       st.sampled_from(KINDS), st.sampled_from(["line", "column"]), st.floats(-9, 9),
       st.floats(-9, 9), st.integers(0, 359))
def test_terrain_cost_by_boxes_first_is_the_cost_measured(kind, c, r, line, lx, ukind, form,
                                                          dx, dy, facing):
    """A move whose bases' box meets no costly ground, lake, stream, river or road box
    gets the very answer the shapes give (0.0, '', off road); every other move is
    measured."""
    from manager.rules.quickplay.move_ground import _terrain_cost, measured_cost
    from manager.rules.quickplay.units import footprint
    b = box_table(kind, c, r, line, lx, ukind)
    u = b.units["a"]
    start = footprint(b, u, formation=form)
    end = footprint(b, u, x=u.x + dx, y=u.y + dy, facing=facing, formation=form)
    assert _terrain_cost(b, u, start, end) == measured_cost(b, u, start, end)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), st.sampled_from(LINES), st.floats(3, 45),
       spot, spot, st.sampled_from(["through", "within"]))
def test_terrain_sight_by_boxes_first_is_the_sight_measured(kind, c, r, line, lx, a, z, seen):
    from manager.footprint import segment
    from manager.rules.quickplay.units import _terrain_sight
    b = box_table(kind, c, r, line, lx, "line_infantry", {"woods_visibility": seen})
    line_ = segment(a, z)
    assert _terrain_sight(b, a, z, line_) == _terrain_sight(b, a, z, line_, boxes_first=False)


def test_boxes_see_the_features_they_must():
    """A move into a wood, across a stream, along a road, and a line through a town are
    not passed over by the boxes (each is measured and found)."""
    from builders import piece, polyline, rect
    from manager.footprint import segment
    from manager.rules.quickplay.clear_ground import box_of, clear
    from manager.rules.quickplay.move_ground import _terrain_cost
    from manager.rules.quickplay.units import _terrain_sight, footprint
    b = build_table([piece("a", "blue", "line_infantry", (10, 30), formation="column")],
                    "quickplay", terrain=[rect("woods", 8, 20, 12, 24), rect("town", 30, 10, 34, 14),
                                          polyline("stream", (20, 0.5), (20, 35.5)),
                                          polyline("road", (0.5, 31.5), (47.5, 31.5))])
    u = b.units["a"]
    bf = b.battlefield
    start = footprint(b, u)
    assert not clear(bf, box_of(start.corners()), road=True)            # on the road's ground
    assert clear(bf, box_of(start.corners()), ("woods", "town"), ("stream",))
    into_wood = footprint(b, u, x=10, y=23)
    assert _terrain_cost(b, u, start, into_wood)[0] > 0                  # woods cost
    across = footprint(b, u, x=22, y=30, facing=90)
    assert _terrain_cost(b, u, start, across)[0] >= 3                    # the stream's cost
    assert "woods or buildings" in _terrain_sight(b, (28, 12), (36, 12), segment((28, 12), (36, 12)))


def test_a_bent_road_is_boxed_piece_by_piece():
    """A road bent at a corner: ground beside either leg is on its box, ground inside
    the bend (within the road's whole box) is not, and moves there measure alike."""
    from builders import piece, polyline
    from manager.rules.quickplay.clear_ground import clear
    from manager.rules.quickplay.move_ground import _terrain_cost, measured_cost
    from manager.rules.quickplay.units import footprint
    b = build_table([piece("a", "blue", "line_infantry", (8, 28))], "quickplay",
                    terrain=[polyline("road", (0.5, 10), (24, 10), (24, 35.5))])
    bf = b.battlefield
    assert not clear(bf, (23.5, 30, 24.5, 31), road=True)       # on the second leg
    assert not clear(bf, (10, 10.5, 11, 11.5), road=True)       # beside the first
    assert clear(bf, (6, 26, 10, 30), road=True)                 # inside the bend
    u = b.units["a"]
    for to in ((8, 22), (20, 28), (24, 28), (8, 11)):
        start, end = footprint(b, u), footprint(b, u, x=to[0], y=to[1])
        assert _terrain_cost(b, u, start, end) == measured_cost(b, u, start, end)


def old_size(unit, formation, k):
    """`units._footprint`'s sizes as they were worked out for every call."""
    import math
    from manager.rules.quickplay.tables import BASE, RANKS
    from manager.rules.quickplay.units import arm, is_skirmish
    a = arm(unit)
    w, d = BASE[a]
    if a == "artillery":
        return w * k, d * k
    deep = 1 if is_skirmish(unit) else RANKS.get(formation or unit.formation, 2)
    wide = math.ceil(unit.max_hits / deep)
    spread = 2.0 if is_skirmish(unit) else 1.0
    return wide * w * spread * k, deep * d * k


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(sorted(__import__("manager.rules.quickplay.tables",
                                         fromlist=["PROFILES"]).PROFILES)),
       st.sampled_from(["line", "column", "skirmish", "limbered"]),
       st.sampled_from([None, "line", "column"]), st.integers(1, 40),
       st.sampled_from([1.0, 0.5, 2.0, 1.5]))
def test_base_sizes_worked_out_once_are_the_sizes(kind, form, asked, figures, scale):
    from manager.model.forces import evolve
    from manager.rules.quickplay.units import _footprint
    from builders import piece
    b = build_table([piece("a", "blue", "line_infantry", (20, 20))], "quickplay",
                    options={"base_scale": scale})
    u = evolve(b.units["a"], kind=kind, formation=form, max_hits=figures, hits=figures)
    for _ in range(2):
        fp = _footprint(b, u, 3.0, 4.0, 90, asked)
        assert (fp.frontage, fp.depth) == old_size(u, asked, scale)
        assert (fp.x, fp.y, fp.facing) == (3.0, 4.0, 90)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 14), st.floats(-3, 3), st.floats(-3, 3),
       st.sampled_from([0.5, 1, 2]), st.sampled_from(["lost", "stop"]))
def test_a_retreat_asks_only_the_bases_beside_its_way(data, n, dx, dy, moves, at_edge):
    """A retreat (toward another unit, give or take) stops at the same spot, or leaves
    the table alike, when only the bases that could meet it somewhere on its way are
    asked at each half inch as when all the near ones were."""
    from manager.rules.quickplay import combat
    b = crowd(data, n)
    u, o = b.live_units("blue")[0], b.live_units("red")[0]
    away = (2 * u.x - o.x + dx, 2 * u.y - o.y + dy)      # so it retreats toward o
    if away == u.pos:
        return
    kept, every = b.copy(), b.copy()
    combat.retreat(kept, u.id, away, moves, [], at_edge=at_edge)
    real = combat._beside
    combat._beside = lambda battle, unit, hx, hy, inches, others: others
    try:
        combat.retreat(every, u.id, away, moves, [], at_edge=at_edge)
    finally:
        combat._beside = real
    assert kept.units[u.id] == every.units[u.id]


def test_every_move_cost_in_play_is_the_cost_measured():
    """Every move and charge path costed on two turns of Austerlitz (a stream, roads,
    towns, lakes and hills): the box-first answer is the one measured on every shape."""
    from manager.rules.quickplay import move_ground as moves
    calls = []
    real = moves._terrain_cost

    def both(battle, unit, start, end):
        got = real(battle, unit, start, end)
        assert got == moves.measured_cost(battle, unit, start, end)
        calls.append(got)
        return got

    s, ap = austerlitz(2)
    moves._terrain_cost = both
    try:
        while not s.battle.state.over and s.battle.state.turn <= 2:
            ap.step()
    finally:
        moves._terrain_cost = real
    assert len(calls) > 100 and any(c[1] for c in calls) and any(c[0] for c in calls)


def test_orders_along_lines_known_blocked_are_refused_in_play():
    """Every shot and charge the commander passes over because woods, towns or a hill
    are known to block its line (`known_terrain_sight`) is refused by the rules, on four
    turns of Austerlitz; and such lines do come up."""
    from manager.rules.quickplay.commander import Commander
    from play_checks import refused
    s, ap = austerlitz(4)
    passed = []
    real = Commander._seen_blocked

    def checked(self, u, e):
        out = real(self, u, e)
        if out:
            passed.append((u.id, e.id))
            assert refused(s, ga.Charge(u.id, e.id)) and refused(s, ga.Fire(u.id, e.id))
        return out

    Commander._seen_blocked = checked
    try:
        while not s.battle.state.over and s.battle.state.turn <= 4:
            ap.step()
    finally:
        Commander._seen_blocked = real
    assert len(passed) > 20


def test_known_terrain_sight_is_the_remembered_answer():
    from builders import piece, rect
    from manager.footprint import segment
    from manager.rules.quickplay.units import known_terrain_sight, terrain_sight
    b = build_table([piece("a", "blue", "line_infantry", (10, 30))], "quickplay",
                    terrain=[rect("woods", 14, 10, 20, 20)])
    a, z = (10, 15), (30, 15)
    assert known_terrain_sight(b, a, z) is None                 # not measured yet
    why = terrain_sight(b, a, z, segment(a, z))
    assert why and known_terrain_sight(b, a, z) == why
    assert known_terrain_sight(b, z, a) is None                 # the other way: not yet
    from dataclasses import replace
    b.set_battlefield(replace(b.battlefield, features=()))      # another table
    assert known_terrain_sight(b, a, z) is None
