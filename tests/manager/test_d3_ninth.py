"""Issue 17, ninth session: d3 speed-ups that keep every answer.

- The horse's recoil after a charge (`combat._recoil`) asks only the units whose
  centre lies within both half-diagonals of its way back (overlap's own first look
  says no to the rest): where it stops and how it faces are the scan's of every unit
  within 20 inches (the code before, kept here), bases placed about that bound.
- `moves._through` unrolled: the loop's answers (kept here), at every border.
- `units.charged_ids`, kept across versions while the side's records stand: the fresh
  set of charging marks at every ask in play, and kept answers are used."""
import math

from hypothesis import HealthCheck, given, settings, strategies as st

KINDS = ["line_infantry", "skirmishers", "light_cavalry", "heavy_cavalry", "foot_artillery"]


def _old_recoil(battle, a, d, events) -> None:
    """combat._recoil as it was (871f821): every unit within 20 inches asked."""
    from manager.footprint import bearing, heading, inside, overlap, slide
    from manager.rules.d3.tables import MOVE
    from manager.rules.d3.units import footprint, near
    way = bearing(d.pos, a.pos)
    hx, hy = heading(way)
    facing = round((way + 180) % 360)
    others = [o for o in near(battle, a.pos, 20) if o.id != a.id]
    bf = battle.battlefield
    done, _ = slide(footprint(battle, a, facing=facing), way, MOVE["cavalry"] / 2,
                    lambda fp: "" if inside(fp, bf.width, bf.height) and not any(
                        overlap(fp, footprint(battle, o)) for o in others) else "stop")
    if done == 0 and any(overlap(footprint(battle, a, facing=facing), footprint(battle, o))
                         for o in others):
        facing = a.facing
    battle.update_unit(a.id, x=a.x + hx * done, y=a.y + hy * done, facing=facing)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 359), st.sampled_from([1.0, 0.5, 1.5, 3.0]),
       st.lists(st.tuples(st.floats(0.0, 11.0), st.floats(-6.0, 2.0), st.integers(0, 359),
                          st.sampled_from(KINDS)), min_size=0, max_size=5),
       st.booleans())
def test_d3_recoil_asks_only_units_along_the_way_back(way, scale, others, edge):
    """A horse recoils from its target with other bases beside, behind and about the way
    back (from on it to both half-diagonals + 2 inches off it, at several scales; near the
    table's edge or not): it ends where the scan of every unit within 20 inches puts it,
    faced as it does."""
    from builders import build_table, piece
    from manager.footprint import heading
    from manager.rules.d3 import combat
    from manager.rules.d3.units import HALF_DIAGONAL
    x0, y0 = (6.0, 6.0) if edge else (60.0, 60.0)
    hx, hy = heading(way)
    pieces = [piece("a", "blue", "light_cavalry", (x0, y0)),
              piece("d", "red", "line_infantry", (x0 - hx * 3, y0 - hy * 3))]
    reach = (math.hypot(4.0, 1.5) / 2 + HALF_DIAGONAL) * scale
    for k, (along, off, face, kind) in enumerate(others):
        side = reach + off                 # off the way back by the bound, give or take
        at = (x0 + hx * along - hy * side, y0 + hy * along + hx * side)
        if 1.0 < min(at) and max(at) < 119.0:
            pieces.append(piece(f"o{k}", "red" if k % 2 else "blue", kind, at, facing=face))
    got = []
    for recoil in (combat._recoil, _old_recoil):
        b = build_table(pieces, "d3", width=120.0, height=120.0,
                        options={"frontage_scale": scale})
        recoil(b, b.units["a"], b.units["d"], [])
        a = b.units["a"]
        got.append((a.x, a.y, a.facing))
    assert got[0] == got[1]


def _old_through(a, b, fp) -> bool:
    """moves._through as it was (871f821): the axes in a loop, min and max."""
    from manager.footprint import heading
    from manager.rules.d3.moves import DEEP
    fx, fy = heading(fp.facing)
    lo, hi = 0.0, 1.0
    ax, ay, bx, by = a[0] - fp.x, a[1] - fp.y, b[0] - fp.x, b[1] - fp.y
    for ux, uy, half in ((fx, fy, fp.depth / 2 - DEEP), (-fy, fx, fp.frontage / 2 - DEEP)):
        p0, p1 = ax * ux + ay * uy, bx * ux + by * uy
        dp = p1 - p0
        if half <= 0:
            return False
        if abs(dp) < 1e-12:
            if abs(p0) > half:
                return False
            continue
        t0, t1 = (-half - p0) / dp, (half - p0) / dp
        lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
        if lo > hi:
            return False
    return True


EDGES = [0.0, 1e-12, -1e-12, 1e-9, -1e-9, 0.5, -0.5]


@settings(max_examples=2000, deadline=None)
@given(st.floats(-6, 6), st.floats(-6, 6), st.floats(-6, 6), st.floats(-6, 6),
       st.sampled_from([0, 90, 180, 270, 45, 13, 359]) | st.integers(0, 359),
       st.sampled_from([(4.0, 1.0), (2.0, 1.5), (0.02, 0.02), (0.01, 3.0), (3.0, 0.01)]),
       st.sampled_from(EDGES), st.booleans())
def test_d3_through_unrolled_is_the_loop(ax, ay, bx, by, facing, size, nudge, parallel):
    """Segments anywhere about a base (through it, grazing it, parallel to an axis,
    of no length, ends on its shrunk edge), bases thin enough to vanish when shrunk:
    the unrolled test answers as the loop did."""
    from manager.footprint import Footprint, heading
    from manager.rules.d3.moves import DEEP, _through
    fp = Footprint(1.5, -2.0, float(facing), *size)
    if parallel:                       # along the facing, or across it
        fx, fy = heading(float(facing))
        bx, by = ax + fx * bx, ay + fy * bx
    a = (fp.x + ax, fp.y + ay)
    b = (fp.x + bx + nudge, fp.y + by)
    assert _through(a, b, fp) == _old_through(a, b, fp)
    edge = (fp.x + (fp.depth / 2 - DEEP) * heading(float(facing))[0] + nudge,
            fp.y + (fp.depth / 2 - DEEP) * heading(float(facing))[1])
    assert _through(a, edge, fp) == _old_through(a, edge, fp)


def test_d3_charged_ids_kept_are_the_fresh_set_in_play(monkeypatch):
    """Four Austerlitz turns (charges made, melees resolved, units destroyed): at every
    ask the kept set of ids charged is the fresh one of the side's charging marks, and
    most asks are answered from the kept set of an earlier version."""
    import sys
    from pathlib import Path

    from manager import spatial
    from manager.autopilot import Autopilot
    from manager.model.forces import mark
    from manager.rules.d3 import units
    from manager.session import Session
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    real = units.charged_ids
    seen = {"asks": 0, "built": 0, "charging": 0}
    kept_while = spatial.kept_while

    def counted(battle, name, key, pieces, compute):
        if name == "d3.charged_ids":
            def build():
                seen["built"] += 1
                return compute()
            return kept_while(battle, name, key, pieces, build)
        return kept_while(battle, name, key, pieces, compute)

    def checked(battle, side):
        got = real(battle, side)
        fresh = frozenset(mark(u, "charging") for u in battle.live_units(side))
        assert got == fresh
        seen["asks"] += 1
        seen["charging"] += len(fresh - {None}) > 0
        return got

    monkeypatch.setattr(units, "charged_ids", checked)
    monkeypatch.setattr(spatial, "kept_while", counted)
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=4))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 4:
        ap.play_turn()
    assert seen["charging"] > 10 and seen["asks"] > 3 * seen["built"], seen
