"""Issue 17, eighth session: d3 answers worked out once and kept while their inputs stand.

- One ride to a charge (`_ride_to_charge`) shares the candidates' distances from the
  horse and each spot's "cramped" between its searches (`cavalry._Ride`): the same
  order as the plain ride (the code before, kept here), search by search, in play;
  "cramped" asks only the friends that could stand within 1.5 inches (random tables
  at that bound's border).
- The enemy's shooter rows (`_shooter_arrays`) and the bases' half-diagonals
  (`combat._halves`) are kept from version to version while the very records stand:
  each equals a fresh build, in play and after an option that scales the bases.

The bounds (surely no candidates, the re-roll's circles, the wedge, close):
test_d3_kept_bounds.py."""
import heapq
import itertools
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st


ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


# ---- the ride's searches, as they were (8d814c6) -----------------------------------------
def _plain_cramped(self, u, spot, facing):
    """CavalryMixin._cramped as it was: every friend within 8 inches asked."""
    from manager.footprint import closer_than
    from manager.rules.d3.units import footprint, near, utype
    b = self.battle
    fp = footprint(b, u, x=spot[0], y=spot[1], facing=facing)
    return any(f.id != u.id and utype(f) != "skirmishers"
               and closer_than(fp, footprint(b, f), 1.5) for f in near(b, spot, 8, self.side))


def _plain_staging(self, u, candidates, paths, within=None, floor=-99.0, lean=0.0):
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
            cramped = CRAMPED if _plain_cramped(self, u, spot, facing) else 0.0
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
    for value, spot, e in _plain_staging(self, u, candidates, paths, within, floor):
        action = MoveUnit(u.id, spot, round(bearing(spot, e.pos)) % 360)
        if not surely_blocked(self.battle, u, spot) and self.legal(action):
            return action
    if floor > 0:
        return None
    staging = list(itertools.islice(
        _plain_staging(self, u, candidates, paths, lean=DETOUR_WEIGHT),
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
        score -= CRAMPED if _plain_cramped(self, u, to, u.facing) else 0.0
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
        shared = cavalry._Ride(self, u, candidates)
        paths_a, paths_b = {}, {}
        for within, lean in ((MOVE["cavalry"] - 0.05, 0.0), (None, cavalry.DETOUR_WEIGHT)):
            a = list(self._staging(u, candidates, paths_a, within, floor, lean, ride=shared))
            b = list(_plain_staging(self, u, candidates, paths_b, within, floor, lean))
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
@given(st.integers(0, 359), st.sampled_from([1.0, 0.5, 1.5]),
       st.lists(st.tuples(st.floats(-1.0, 1.0), st.integers(0, 359), st.integers(0, 359),
                          st.sampled_from(FRIEND_KINDS)), min_size=1, max_size=4))
def test_d3_cramped_asks_only_friends_that_could_be_near(facing, scale, friends):
    """A horse's spot and friends placed about the bound (both half-diagonals + 1.5
    inches between centres, give or take an inch, faced anyhow, at several scales):
    "cramped" is the plain one's (every friend within 8 asked)."""
    from manager.footprint import heading
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
    assert c._cramped(u, spot, facing) == _plain_cramped(c, u, spot, facing)


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
