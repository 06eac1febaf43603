"""Issue 17, tenth session: the d3 commander's foot moves and best shot, deciding the
same with less work.

- `combat.shot_mean`: the best shot's worth is fire_odds' mean without the odds built
  (the pick is compared with the plain search in test_d3_skips).
- `moves.landing`: the foot's ends along one line asked against bases gathered by one
  scan: each answer is `spatial.lands_on`'s.
- `ground._Boxes.water`: the box of each stretch of a river or stream: a path whose box
  meets none crosses none.
"""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
from test_d3_speed import _battle, _old_ground_refusal

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

KINDS = ["line_infantry", "light_cavalry", "skirmishers", "foot_artillery"]


def _play(monkeypatch, turns: int, spies: dict):
    """Austerlitz (seed 1) under d3 for `turns` turns, the given (owner, name) -> spy."""
    from builders import play_spied
    return play_spied(monkeypatch, "d3", turns, spies)


def test_d3_shot_mean_is_fire_odds_mean_in_play(monkeypatch):
    """Three Austerlitz turns: for every shot the commander finds legal, shot_mean of the
    shooter's chance and the shot's minus is fire_odds' mean, float for float."""
    from manager.game_actions import Fire
    from manager.rules.d3 import combat, commander
    plain, seen = commander.shot_mean, {"shots": 0}

    def checked(p, minus):
        got = plain(p, minus)
        frame = sys._getframe(1)
        u, e = frame.f_locals["u"], frame.f_locals["e"]
        battle = frame.f_locals["b"]
        want = float(combat.fire_odds(battle, Fire(u.id, e.id)).lines[0].dist.mean())
        assert minus == combat.shot(battle, u, e).minus and got == want
        seen["shots"] += 1
        return got

    _play(monkeypatch, 3, {(commander, "shot_mean"): checked})
    assert seen["shots"] > 30, seen


# ---- the foot's landing looks: one scan for a line's ends ----------------------------------
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KINDS), st.integers(0, 359), st.floats(0, 360), st.floats(0.5, 12),
       st.sampled_from([0.5, 1.0, 2.0, 4.0]), st.integers(0, 359),
       st.lists(st.tuples(st.floats(0, 1.3), st.floats(-6, 6), st.integers(0, 359),
                          st.sampled_from(KINDS), st.booleans()), min_size=1, max_size=5))
def test_d3_landing_is_the_engines_lands_on(kind, fa, way, want, scale, facing, others):
    """A unit's ends along one bearing (four distances rounded to the hundredth, three
    facings), with bases of any kind and side ahead, beside, at or beyond them, at any
    frontage_scale (bases larger than the 10 inches lands_on asks about too): each
    answer of the one-scan look is spatial.lands_on's."""
    from builders import build_table, piece
    from manager import spatial
    from manager.footprint import heading
    from manager.rules.d3.moves import landing
    from manager.rules.d3.units import footprint
    a = (60.0, 60.0)
    hx, hy = heading(way)
    pieces = [piece("a", "blue", kind, a, facing=fa)]
    for k, (along, aside, fo, ko, friend) in enumerate(others):
        d = want * along
        pieces.append(piece(f"o{k}", "blue" if friend else "red", ko,
                            (a[0] + hx * d - hy * aside * scale, a[1] + hy * d + hx * aside * scale),
                            facing=fo))
    b = build_table(pieces, "d3", width=120.0, height=120.0,
                    options={"frontage_scale": scale})
    u = b.units["a"]
    lands = landing(b, u, (u.x + hx * want, u.y + hy * want))
    for k in (1.0, 0.75, 0.5, 0.25):
        to = (round(u.x + hx * want * k, 2), round(u.y + hy * want * k, 2))
        for f in (round(way) % 360, fa, facing):
            end = footprint(b, u, x=to[0], y=to[1], facing=f)
            assert lands(to, f) == spatial.lands_on(b, u, end, footprint)


def test_d3_landing_keeps_lands_ons_ten_inches():
    """At frontage_scale 4 a line's base is 16 inches wide: one overlapping the end's
    tip with its centre 14 inches away is not among lands_on's (10 inches), nor the
    one-scan look's; at 9.5 inches it is, for both."""
    from builders import build_table, piece
    from manager import spatial
    from manager.rules.d3.moves import landing
    from manager.rules.d3.units import footprint
    for gap, want in ((14.0, False), (9.5, True)):
        b = build_table([piece("a", "blue", "line_infantry", (60, 70), facing=0),
                         piece("o", "blue", "line_infantry", (60 + gap, 60), facing=0)],
                        "d3", width=120.0, height=120.0, options={"frontage_scale": 4.0})
        u = b.units["a"]
        end = footprint(b, u, x=60.0, y=60.0, facing=0)
        assert spatial.lands_on(b, u, end, footprint) is want
        assert landing(b, u, (60.0, 60.0))((60.0, 60.0), 0) is want


def test_d3_landing_in_play(monkeypatch):
    """Three Austerlitz turns: every end the foot's commander asks is answered as
    spatial.lands_on answers it, and many land."""
    from manager import spatial
    from manager.rules.d3 import commander
    from manager.rules.d3.units import footprint
    made, seen = commander.landing, {"asked": 0, "landed": 0}

    def checked(battle, unit, far):
        lands = made(battle, unit, far)

        def asked(to, facing):
            got = lands(to, facing)
            end = footprint(battle, unit, x=to[0], y=to[1], facing=facing)
            assert got == spatial.lands_on(battle, unit, end, footprint)
            seen["asked"] += 1
            seen["landed"] += got
            return got
        return asked

    _play(monkeypatch, 3, {(commander, "landing"): checked})
    assert seen["asked"] > 300 and seen["landed"] > 100, seen


# ---- water: the boxes of its stretches --------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["hanau", "austerlitz"]), st.integers(0, 10 ** 6), st.floats(0, 1),
       st.floats(-3, 3), st.floats(0, 360), st.floats(0, 13))
def test_d3_water_stretches_pass_over_only_paths_that_cross_none(name, pick, at, off, way,
                                                                 d):
    """Paths from points about each stretch of Hanau's river and Austerlitz's stream
    (along it, across it, about its bends): when the stretches' boxes pass a path over,
    the table's own crossings name none, and the ground check's answer is the plain one
    (without the box pre-checks)."""
    from manager.footprint import heading, segment
    from manager.rules.d3.ground import _boxes, _meets, ground_refusal
    from manager.rules.d3.units import footprint
    from manager.table_terrain import table_terrain
    b = _battle(name)
    t = table_terrain(b.battlefield)
    lines = [line for k in ("river", "stream") for _, line in t.lines.get(k, [])]
    coords = [c for line in lines for c in line.coords]
    k = pick % (len(coords) - 1)
    (ax, ay), (bx, by) = coords[k], coords[k + 1]
    hx, hy = heading(way)
    x, y = ax + (bx - ax) * at + off, ay + (by - ay) * at - off
    p, q = (x, y), (x + hx * d, y + hy * d)
    if not _meets((min(x, q[0]), min(y, q[1]), max(x, q[0]), max(y, q[1])),
                  _boxes(b.battlefield).water):
        assert t.crossings(segment(p, q), ("river", "stream")) == []
    units = b.live_units()
    u = units[pick % len(units)]
    start = footprint(b, u, x=x, y=y, facing=round(way) % 360)
    end = footprint(b, u, x=q[0], y=q[1], facing=round(way) % 360)
    assert ground_refusal(b, u, start, end) == _old_ground_refusal(b, u, start, end)


def test_d3_water_stretches_are_not_vacuous():
    """Austerlitz's stream runs the table's length: many paths meet its box but none of
    its stretches' (passed over without a shape), and the stretches still find every
    crossing of a grid of paths across the table."""
    from manager.footprint import segment
    from manager.rules.d3.ground import _boxes, _meets
    from manager.table_terrain import table_terrain
    b = _battle("austerlitz")
    t = table_terrain(b.battlefield)
    whole = [line.bounds for _, line in t.lines.get("stream", [])]
    stretches = _boxes(b.battlefield).water
    bf = b.battlefield
    passed = crossed = 0
    for i in range(60):
        for j in range(40):
            x, y = bf.width * i / 60, bf.height * j / 40
            for dx, dy in ((6, 0), (0, 6), (4, 4)):
                box = (x, y, x + dx, y + dy)
                hits = t.crossings(segment((x, y), (x + dx, y + dy)), ("river", "stream"))
                if not _meets(box, stretches):
                    assert hits == []
                    passed += _meets(box, whole)
                crossed += bool(hits)
    assert passed > 150 and crossed > 50, (passed, crossed)
