"""Issue 17, tenth session: the horse's ride to a charge does less and orders the same.

- The search within a move skips the spots the horse surely cannot ride to
  (`surely_blocked`): their charge paths count as tried but are left (`LATER`) for the
  detour's search, which works them out uncounted. Within a move it yields the plain
  search's spots less the skipped ones, and the detour's search after it yields what
  it yields after the plain one, in play.
- `_ride_toward` takes the nearest enemy when he is chargeable (the chargeable ones
  are not all asked) and stops at once when no move can gain: the old code's order
  (kept here) in play, and on tables where the nearest enemy stands in a wood."""
import itertools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _play(monkeypatch, turns: int, spies: dict):
    """Austerlitz (seed 1) under d3 for `turns` turns, the given (owner, name) -> spy."""
    from builders import play_spied
    return play_spied(monkeypatch, "d3", turns, spies)


# ---- the search within a move skips what the horse cannot ride to ------------------------
def test_d3_within_search_skips_blocked_spots_and_the_detour_searches_the_same(monkeypatch):
    """Every ride of 3 Austerlitz turns: the search within a move with `skip` yields the
    plain search's spots less those surely blocked from the horse, and the detour's
    search after each yields the same spots, worths and order; some paths are left
    and some of those worked out by the detour (not vacuous)."""
    from manager.rules.d3 import cavalry
    from manager.rules.d3.moves import surely_blocked
    from manager.rules.d3.tables import MOVE
    ride = cavalry.CavalryMixin._ride_to_charge
    seen = {"rides": 0, "left": 0, "worked out": 0, "spots": 0}

    def checked(self, u, floor):
        b = self.battle
        within = MOVE["cavalry"] - 0.05
        candidates = self._candidates(u, 2 * MOVE["cavalry"])
        plain, skipped = {}, {}
        a = list(self._staging(u, candidates, plain, within, floor))
        got = list(self._staging(u, candidates, skipped, within, floor,
                                 skip=lambda spot: surely_blocked(b, u, spot)))
        assert got == [s for s in a if not surely_blocked(b, u, s[1])]
        left = [k for k, v in skipped.items() if v is cavalry.LATER]
        assert set(skipped) == set(plain)            # (each counted as tried)
        seen["left"] += len(left)
        a = list(itertools.islice(self._staging(u, candidates, plain, lean=cavalry.DETOUR_WEIGHT),
                                  cavalry.DETOUR_SPOTS + 3))
        got = list(itertools.islice(self._staging(u, candidates, skipped,
                                                  lean=cavalry.DETOUR_WEIGHT),
                                    cavalry.DETOUR_SPOTS + 3))
        assert got == a
        seen["worked out"] += sum(skipped[k] is not cavalry.LATER for k in left)
        seen["rides"] += 1
        seen["spots"] += len(a)
        return ride(self, u, floor)

    _play(monkeypatch, 3, {(cavalry.CavalryMixin, "_ride_to_charge"): checked})
    assert seen["rides"] >= 40 and seen["spots"] > 50, seen
    assert seen["left"] > 20 and 0 < seen["worked out"] < seen["left"], seen


# ---- the ride toward the nearest chargeable enemy -----------------------------------------
def _old_ride_toward(self, u):
    """CavalryMixin._ride_toward as it was (d6eb10f): every chargeable enemy within 60."""
    from manager.footprint import bearing, distance, heading
    from manager.game_actions import MoveUnit
    from manager.rules.d3.moves import surely_blocked
    from manager.rules.d3.tables import MOVE
    b = self.battle
    targets = self._targets(u, 60)
    if not targets:
        return None
    e = min(targets, key=lambda t: distance(t.pos, u.pos))
    now = distance(u.pos, e.pos)
    goal = bearing(u.pos, e.pos)
    best = None
    for d in (MOVE["cavalry"] - 0.05, 8.0, 4.0):
        for turn in (0, -20, 20, -40, 40, -60, 60, -90, 90):
            hx, hy = heading((goal + turn) % 360)
            to = (round(u.x + hx * d, 2), round(u.y + hy * d, 2))
            gap = distance(to, e.pos)
            if gap < 13 or gap > now - 1:
                continue
            if best is not None and gap >= best[0]:
                continue
            action = MoveUnit(u.id, to, round(bearing(to, e.pos)) % 360)
            if not surely_blocked(b, u, to) and self.legal(action):
                best = (gap, action)
    return best[1] if best else None


def test_d3_ride_toward_orders_as_before_in_play(monkeypatch):
    """Five Austerlitz turns: every `_ride_toward` gives the old code's order; both
    some orders and some stops (no move can gain) are among them."""
    from manager.rules.d3 import cavalry
    toward = cavalry.CavalryMixin._ride_toward
    seen = {"asks": 0, "orders": 0}

    def checked(self, u):
        want = _old_ride_toward(self, u)
        got = toward(self, u)
        assert got == want
        seen["asks"] += 1
        seen["orders"] += got is not None
        return got

    _play(monkeypatch, 5, {(cavalry.CavalryMixin, "_ride_toward"): checked})
    assert seen["asks"] >= 20 and 0 < seen["orders"] < seen["asks"], seen


@pytest.mark.parametrize("wood_at, open_at, horse_at, rides", [
    ((30.0, 36.0), (50.0, 30.0), (30.0, 52.0), True),    # the nearest in a wood
    ((30.0, 36.0), (30.0, 14.0), (30.0, 52.0), True),    # the open one behind the wood
    ((30.0, 36.0), None, (30.0, 52.0), False),           # only one, in a wood: none
    ((30.0, 44.0), (36.0, 42.0), (30.0, 52.0), False),   # the open one within 14: a stop
    ((12.0, 12.0), (30.0, 30.0), (30.0, 52.0), True),    # the nearest in the open
    ((12.0, 12.0), (30.0, 37.0), (30.0, 52.0), True),    # 15 away: a wheel gains an inch
    ((12.0, 12.0), (30.0, 38.2), (30.0, 52.0), False),   # 13.8 away: a stop
])
def test_d3_ride_toward_passes_over_the_nearest_in_a_wood(wood_at, open_at, horse_at, rides):
    """The nearest enemy in a wood is not the one the horse rides at: the old code's
    order (min over the chargeable ones) on small tables, each way round."""
    from builders import build_table, piece, rect, session_at
    from manager.rules.d3.commander import Commander
    wood = rect("woods", wood_at[0] - 4, wood_at[1] - 3, wood_at[0] + 4, wood_at[1] + 3)
    pieces = [piece("h", "blue", "light_cavalry", horse_at),
              piece("w", "red", "line_infantry", wood_at)]
    if open_at is not None:
        pieces.append(piece("o", "red", "line_infantry", open_at))
    s, _ = session_at(build_table(pieces, "d3", terrain=[wood], width=60.0, height=60.0),
                      "move", side="blue")
    b = s.battle
    c = Commander(b, "blue")
    u = b.units["h"]
    assert not c._chargeable(b.units["w"])
    got = c._ride_toward(u)
    assert got == _old_ride_toward(c, u)
    assert (got is not None) is rides
