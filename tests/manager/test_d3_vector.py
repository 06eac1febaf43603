"""d3's shooting candidates judged on the index's arrays (issue 17): the very list of the
plain near-scan and per-enemy test, borders included."""
import math
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
KINDS = ["line_infantry", "light_cavalry", "skirmishers", "foot_artillery", "heavy_cavalry"]


def _plain(battle, unit, reach, side) -> list:
    """The list as the near-scan and surely_out_of_range give it."""
    from manager.rules.d3.combat import surely_out_of_range
    from manager.rules.d3.units import near
    return [e for e in near(battle, unit.pos, reach, side)
            if not surely_out_of_range(battle, unit, e)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KINDS[:4]), st.integers(0, 359),
       st.lists(st.tuples(st.sampled_from(KINDS), st.floats(0, 359.9), st.integers(0, 359),
                          st.sampled_from([-1e-6, -3e-7, 0.0, 3e-7, 1e-6, -0.3, 0.4]),
                          st.booleans()), min_size=1, max_size=6),
       st.sampled_from([1.0, 0.5, 1.5]))
def test_d3_in_range_candidates_at_the_borders(kind, facing, enemies, scale):
    """A shooter and enemies placed on (or a hair off) either bound: the range plus the
    target's half-diagonal from the front centre, or the asked reach from the centre.
    The list is the plain one, in order."""
    from builders import build_table, piece, session_at

    from manager.footprint import heading
    from manager.rules.d3.combat import in_range_candidates
    from manager.rules.d3.tables import RANGE
    from manager.rules.d3.units import footprint, utype
    pieces = [piece("a", "blue", kind, (30.0, 40.0), facing=facing)]
    for n, (k, way, f, off, _) in enumerate(enemies):
        pieces.append(piece(f"e{n}", "red", k, (30.0 + n * 0.01, 40.0 - n * 0.01), facing=f))
    s, _ = session_at(build_table(pieces, "d3", width=120, height=120,
                                  options={"frontage_scale": scale}), "move", side="blue")
    b = s.battle
    u = b.units["a"]
    front = footprint(b, u).front_centre()
    r = RANGE.get(utype(u), 12)
    reach = 30.0
    for n, (k, way, f, off, by_reach) in enumerate(enemies):
        e = b.units[f"e{n}"]
        tfp = footprint(b, e)
        hx, hy = heading(way)
        if by_reach:        # on the asked reach from the shooter's centre
            d, (ox, oy) = reach + off, u.pos
        else:               # on the range bound from the front centre
            d, (ox, oy) = r + math.hypot(tfp.frontage, tfp.depth) / 2 + 2e-6 + off, front
        b.update_unit(e.id, x=ox + hx * d, y=oy + hy * d)
    u = b.units["a"]
    for asked in (reach, 60.0, 5.0):
        assert in_range_candidates(b, u, asked, "red") == _plain(b, u, asked, "red")


def test_d3_in_range_candidates_in_play(monkeypatch):
    """Two Austerlitz turns: every call gives the plain list, and many are not empty."""
    from manager.autopilot import Autopilot
    from manager.rules.d3 import combat, commander
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=2))
    fast, seen = combat.in_range_candidates, [0, 0]

    def checked(battle, unit, reach, side):
        got = fast(battle, unit, reach, side)
        assert got == _plain(battle, unit, reach, side) if combat.utype(unit) != "cavalry" \
            else got == []
        seen[bool(got)] += 1
        return got

    monkeypatch.setattr(commander, "in_range_candidates", checked)
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 2:
        ap.play_turn()
    # (the empty lists are fewer since the eighth session: `_shoot` passes over foot with
    # no enemy near its range unasked, `combat.surely_no_candidates`)
    assert seen[1] > 50 and seen[0] > 10, seen


def test_d3_hidden_pre_check_is_asked_only_for_four_or_more():
    """The commander's pre-check is surely_hidden's answer from four candidates up, and
    claims nothing below (the rules' shot then answers each), at Austerlitz's opening."""
    from manager.rules.d3.combat import in_range_candidates
    from manager.rules.d3.commander import HIDDEN_FROM, _hidden
    from manager.rules.d3.sight import surely_hidden
    from manager.rules.d3.units import utype
    from test_d3_speed import _battle
    b = _battle("austerlitz")
    sizes = set()
    for u in b.live_units():
        if utype(u) == "cavalry":
            continue
        cands = in_range_candidates(b, u, 60, b.enemy_of(u.side))
        sizes.add(min(len(cands), HIDDEN_FROM))
        for k in range(len(cands) + 1):
            want = surely_hidden(b, u, cands[:k]) if k >= HIDDEN_FROM else [False] * k
            assert _hidden(b, u, cands[:k]) == want
    assert HIDDEN_FROM in sizes
