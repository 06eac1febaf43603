"""Issue 17, tenth session: the horse's ride to a charge does less and orders the same.

- The search within a move skips the spots the horse surely cannot ride to
  (`surely_blocked`): their charge paths count as tried but are left (`LATER`) for the
  detour's search, which works them out uncounted. Within a move it yields the plain
  search's spots less the skipped ones, and the detour's search after it yields what
  it yields after the plain one, in play."""
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def _play(monkeypatch, turns: int, spies: dict):
    """Austerlitz (seed 1) for `turns` turns, with the given (owner, name) -> spy."""
    from manager.autopilot import Autopilot
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    for (owner, name), spy in spies.items():
        monkeypatch.setattr(owner, name, spy)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=turns))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= turns:
        ap.play_turn()
    return s


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
        friends = self._friends(u)
        plain, skipped = {}, {}
        a = list(self._staging(u, candidates, plain, within, floor, friends=friends))
        got = list(self._staging(u, candidates, skipped, within, floor, friends=friends,
                                 skip=lambda spot: surely_blocked(b, u, spot)))
        assert got == [s for s in a if not surely_blocked(b, u, s[1])]
        left = [k for k, v in skipped.items() if v is cavalry.LATER]
        assert set(skipped) == set(plain)            # (each counted as tried)
        seen["left"] += len(left)
        a = list(itertools.islice(self._staging(u, candidates, plain, lean=cavalry.DETOUR_WEIGHT,
                                                friends=friends), cavalry.DETOUR_SPOTS + 3))
        got = list(itertools.islice(self._staging(u, candidates, skipped,
                                                  lean=cavalry.DETOUR_WEIGHT, friends=friends),
                                    cavalry.DETOUR_SPOTS + 3))
        assert got == a
        seen["worked out"] += sum(skipped[k] is not cavalry.LATER for k in left)
        seen["rides"] += 1
        seen["spots"] += len(a)
        return ride(self, u, floor)

    _play(monkeypatch, 3, {(cavalry.CavalryMixin, "_ride_to_charge"): checked})
    assert seen["rides"] >= 40 and seen["spots"] > 50, seen
    assert seen["left"] > 20 and 0 < seen["worked out"] < seen["left"], seen
