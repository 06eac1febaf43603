"""Issue 17, eighth session: d3 answers worked out once and kept while their inputs stand.

- One ride to a charge (`_ride_to_charge`) shares the candidates' distances from the
  horse and each spot's "cramped" between its searches (`cavalry._Ride`): the same
  order as the plain ride (the code before, kept here), search by search, in play;
  "cramped" asks only the friends that could stand within 1.5 inches (random tables
  at that bound's border).
- The enemy's shooter rows (`_shooter_arrays`) and the bases' half-diagonals
  (`combat._halves`) are kept from version to version while the very records stand:
  each equals a fresh build, in play and after an option that scales the bases.
- `combat.surely_no_candidates`: when it says so, `in_range_candidates` keeps no enemy
  (random tables, at the bound's border, and in play)."""
import heapq
import itertools
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


# ---- the ride's searches, as they were (8d814c6) -----------------------------------------
def _plain_cramped(self, u, spot, facing, friends=None):
    """CavalryMixin._cramped as it was: every friend within 8 inches asked."""
    from manager.footprint import closer_than
    from manager.rules.d3.units import footprint, near, utype
    b = self.battle
    fp = footprint(b, u, x=spot[0], y=spot[1], facing=facing)
    close = near(b, spot, 8, self.side) if friends is None else friends.within(spot, 8)
    return any(f.id != u.id and utype(f) != "skirmishers"
               and closer_than(fp, footprint(b, f), 1.5) for f in close)


def _plain_staging(self, u, candidates, paths, within=None, floor=-99.0, lean=0.0,
                   friends=None):
    from manager.errors import IllegalAction
    from manager.footprint import bearing, distance
    from manager.rules.d3.cavalry import (CRAMPED, STAGING_TRIED, blocked_before_contact,
                                          check_charge_path, surely_no_charge_path)
    b = self.battle
    heap = [(lean * distance(u.pos, spot) - bound, k, False, spot, e)
            for k, (bound, spot, e) in enumerate(candidates)
            if within is None or distance(u.pos, spot) <= within]
    heapq.heapify(heap)
    tried = 0
    while heap and tried < STAGING_TRIED:
        neg, k, exact, spot, e = heapq.heappop(heap)
        if -neg < floor:
            return
        facing = round(bearing(spot, e.pos)) % 360
        if not exact:
            cramped = CRAMPED if _plain_cramped(self, u, spot, facing, friends) else 0.0
            heapq.heappush(heap, (neg + cramped, k, True, spot, e))
            continue
        key = (spot, e.id)
        if key not in paths:
            tried += 1
            try:
                if blocked_before_contact(b, u, e, spot, facing) or \
                        surely_no_charge_path(b, u, e, spot, facing):
                    raise IllegalAction("surely refused")
                check_charge_path(b, u, e, at=spot, facing=facing)
                paths[key] = True
            except IllegalAction:
                paths[key] = False
        if paths[key]:
            yield lean * distance(u.pos, spot) - neg, spot, e


def _plain_ride(self, u, floor):
    from manager.footprint import bearing, distance, heading
    from manager.game_actions import MoveUnit
    from manager.rules.d3.cavalry import (CRAMPED, DETOUR_SPOTS, DETOUR_WAYS, DETOUR_WEIGHT,
                                          RINGS, surely_blocked)
    # (the plain code: every heading worked out, "cramped" asked of every friend in 8)
    from manager.rules.d3.tables import MOVE
    within = MOVE["cavalry"] - 0.05
    candidates = self._candidates(u, 2 * MOVE["cavalry"], None if floor <= 0 else
                                  within + max(RINGS) + 0.01)
    if not candidates:
        return None
    paths: dict = {}
    friends = self._friends(u)
    for value, spot, e in _plain_staging(self, u, candidates, paths, within, floor,
                                         friends=friends):
        action = MoveUnit(u.id, spot, round(bearing(spot, e.pos)) % 360)
        if not surely_blocked(self.battle, u, spot) and self.legal(action):
            return action
    if floor > 0:
        return None
    staging = list(itertools.islice(
        _plain_staging(self, u, candidates, paths, lean=DETOUR_WEIGHT, friends=friends),
        DETOUR_SPOTS))
    if not staging:
        return None
    now = min(distance(u.pos, s[1]) for s in staging)
    moves = []
    for d in (MOVE["cavalry"] - 0.05, 9.0, 6.0, 3.0):
        for k in range(DETOUR_WAYS):
            hx, hy = heading(k * 360.0 / DETOUR_WAYS)
            to = (round(u.x + hx * d, 2), round(u.y + hy * d, 2))
            if min(distance(to, s[1]) for s in staging) < now - 0.5:
                moves.append((max(v - DETOUR_WEIGHT * distance(to, spot)
                                  for v, spot, _ in staging), to))
    moves.sort(key=lambda m: -m[0])
    best = None
    for score, to in moves:
        if best is not None and score <= best[0]:
            break
        if surely_blocked(self.battle, u, to):
            continue
        score -= CRAMPED if _plain_cramped(self, u, to, u.facing, friends) else 0.0
        if best is not None and score <= best[0]:
            continue
        e = min(staging, key=lambda s: distance(to, s[1]))[2]
        action = MoveUnit(u.id, to, round(bearing(to, e.pos)) % 360)
        if self.legal(action):
            best = (score, action)
    return best[1] if best else None


def _play(monkeypatch, turns: int, spies: dict):
    """Austerlitz (seed 1) under d3 for `turns` turns, the given (owner, name) -> spy."""
    from builders import play_spied
    return play_spied(monkeypatch, "d3", turns, spies)


def test_d3_ride_shares_its_searches_and_orders_as_before_in_play(monkeypatch):
    """Three Austerlitz turns: every ride's order is the plain ride's, and each of its
    searches (within a move; the detour's, by lean) yields the same spots, worths and
    order as the plain search; the shared "cramped" answers some asks (not vacuous)."""
    from manager.rules.d3 import cavalry
    from manager.rules.d3.tables import MOVE
    ride = cavalry.CavalryMixin._ride_to_charge
    cramped = cavalry._Ride.cramped
    seen = {"rides": 0, "spots": 0, "asked": 0, "kept": 0}

    def counted(self, spot, facing):
        seen["asked"] += 1
        seen["kept"] += (spot, facing) in self.crampeds
        return cramped(self, spot, facing)

    def checked(self, u, floor):
        want = _plain_ride(self, u, floor)
        got = ride(self, u, floor)
        assert got == want
        candidates = self._candidates(u, 2 * MOVE["cavalry"])
        friends = self._friends(u)
        shared = cavalry._Ride(self, u, candidates, friends)
        paths_a, paths_b = {}, {}
        for within, lean in ((MOVE["cavalry"] - 0.05, 0.0), (None, cavalry.DETOUR_WEIGHT)):
            a = list(self._staging(u, candidates, paths_a, within, floor, lean,
                                   friends=friends, ride=shared))
            b = list(_plain_staging(self, u, candidates, paths_b, within, floor, lean,
                                    friends=friends))
            assert a == b
            seen["spots"] += len(a)
        seen["rides"] += 1
        return got

    _play(monkeypatch, 3, {(cavalry.CavalryMixin, "_ride_to_charge"): checked,
                             (cavalry._Ride, "cramped"): counted})
    assert seen["rides"] >= 40 and seen["spots"] > 50, seen
    assert seen["kept"] > 20 and seen["asked"] > seen["kept"], seen


FRIEND_KINDS = ["line_infantry", "skirmishers", "light_cavalry", "heavy_cavalry",
                "foot_artillery"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 359), st.sampled_from([1.0, 0.5, 1.5]), st.booleans(),
       st.lists(st.tuples(st.floats(-1.0, 1.0), st.integers(0, 359), st.integers(0, 359),
                          st.sampled_from(FRIEND_KINDS)), min_size=1, max_size=4))
def test_d3_cramped_asks_only_friends_that_could_be_near(facing, scale, grid, friends):
    """A horse's spot and friends placed about the bound (both half-diagonals + 1.5
    inches between centres, give or take an inch, faced anyhow, at several scales):
    "cramped" is the plain one's (every friend within 8 asked), from the index or the
    decision's friends."""
    from manager.footprint import heading
    from manager.rules.d3 import cavalry
    from manager.rules.d3.commander import Commander
    from manager.rules.d3.units import HALF_DIAGONAL, footprint
    from builders import build_table, piece
    spot = (60.0, 60.0)
    pieces = [piece("h", "blue", "light_cavalry", (30.0, 60.0))]
    probe = build_table(pieces, "d3", width=120.0, height=120.0,
                        options={"frontage_scale": scale})
    own = footprint(probe, probe.units["h"])
    for k, (off, way, face, kind) in enumerate(friends):
        hx, hy = heading(way)
        d = (own.frontage ** 2 + own.depth ** 2) ** 0.5 / 2 + HALF_DIAGONAL * scale + 1.5 + off
        pieces.append(piece(f"f{k}", "blue", kind, (spot[0] + hx * d, spot[1] + hy * d),
                            facing=face))
    b = build_table(pieces, "d3", width=120.0, height=120.0,
                    options={"frontage_scale": scale})
    c = Commander(b, "blue")
    u = b.units["h"]
    near = c._friends(u) if grid else None
    assert c._cramped(u, spot, facing, near) == _plain_cramped(c, u, spot, facing, near)


def test_d3_cramped_bound_is_not_vacuous():
    """A friend's base 1.4 inches from the spot's base is cramped (both ways); 2.4
    inches from it, not."""
    from builders import build_table, piece
    from manager.rules.d3.commander import Commander
    b = build_table([piece("h", "blue", "light_cavalry", (30.0, 60.0)),
                     piece("f", "blue", "line_infantry", (60.0, 60.0 - 1.5 / 2 - 1.0 / 2 - 1.4),
                           facing=0)], "d3", width=120.0, height=120.0)
    c = Commander(b, "blue")
    u = b.units["h"]
    assert c._cramped(u, (60.0, 60.0), 0) and _plain_cramped(c, u, (60.0, 60.0), 0)
    assert not c._cramped(u, (60.0, 61.0), 0)


def test_d3_shooter_rows_and_halves_kept_equal_fresh_builds_in_play(monkeypatch):
    """Three Austerlitz turns: each time the shooter rows or the half-diagonals are
    worked out for a version, they equal a build from scratch; most come kept from an
    earlier version (not vacuous)."""
    from manager.rules.d3 import cavalry, combat
    from manager.rules.d3.tables import RANGE
    from manager.rules.d3.units import footprint, utype
    from manager import spatial
    arrays = cavalry.CavalryMixin._shooter_arrays
    halves = combat._halves
    seen = {"rows": 0, "rows_kept": 0, "halves": 0, "halves_kept": 0}

    def rows_checked(self):
        b = self.battle
        fresh = b.peek(("d3.shooters", self.side)) is None
        hit = b.kept("d3.shooter_rows", dict).get(self.side)
        rows, columns = arrays(self)
        if fresh:
            want = [(s.x, s.y, s.facing, RANGE[utype(s)] + 2,
                     2.0 if utype(s) == "infantry" else 1.0)
                    for s in b.live_units(b.enemy_of(self.side)) if utype(s) != "cavalry"]
            assert rows == want
            assert all(np.array_equal(c, np.array(w, dtype=float))
                       for c, w in zip(columns, zip(*want)))
            seen["rows"] += 1
            seen["rows_kept"] += hit is not None and hit[1][0] is rows
        return rows, columns

    def halves_checked(battle, side):
        fresh = battle.peek(("d3.halves", side)) is None
        hit = battle.kept("d3.halves", dict).get(side)
        got = halves(battle, side)
        if fresh:
            half = spatial.half_diagonals(battle, footprint)
            units = spatial.unit_grid(battle, side).units
            assert np.array_equal(got, np.array([half[u.id] for u in units], dtype=float))
            seen["halves"] += 1
            seen["halves_kept"] += hit is not None and hit[1] is got
        return got

    _play(monkeypatch, 3, {(cavalry.CavalryMixin, "_shooter_arrays"): rows_checked,
                             (combat, "_halves"): halves_checked})
    assert seen["rows"] > 30 and seen["rows"] > seen["rows_kept"] > seen["rows"] // 3, seen
    assert seen["halves"] > 30 and seen["halves"] > seen["halves_kept"] > seen["halves"] // 3, \
        seen


def test_d3_halves_follow_the_bases_scale():
    """A new scenario info with another frontage_scale: the kept half-diagonals are not
    answered for the same records (their bases are scaled)."""
    from dataclasses import replace

    from builders import build_table, piece
    from manager.rules.d3.combat import _halves
    b = build_table([piece("a", "blue", "line_infantry", (10, 20)),
                     piece("k", "red", "line_infantry", (20, 8))], "d3")
    before = _halves(b, "red").copy()
    b.set_info(replace(b.info, options={**b.info.options, "frontage_scale": 2.0}))
    after = _halves(b, "red")
    assert np.allclose(after, 2 * before) and not np.allclose(after, before)


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

    _play(monkeypatch, 3, {(commander, "surely_no_candidates"): checked})
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
    _play(monkeypatch, 3, spies)
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

    _play(monkeypatch, 3, {(combat, "_wedge"): checked})
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
