"""d3's answers kept per battlefield across battle versions (issue 17): the ground part of
a move's refusal and the terrain part of a line of sight are the table's alone, so they
are remembered by their inputs; they must answer as worked out afresh."""
import sys
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from test_d3_speed import _battle, _old_ground_refusal

ROOT = Path(__file__).resolve().parents[2]


def test_d3_ground_memo_answers_each_battles_options():
    """Two battles over the very same Hanau battlefield, one with the club options for
    streams and bridges: every move of guns and horse about the water is answered as the
    old ground_refusal answers it in that battle, asked in turn, so the second battle's
    asks hit the first's remembered answers only where the options agree."""
    from manager.footprint import heading
    from manager.rules.d3.ground import ground_refusal
    from manager.rules.d3.units import footprint, utype
    b = _battle("hanau").copy()
    club = b.copy()
    club.set_info(replace(club.info, options=MappingProxyType(dict(
        club.info.options, artillery_streams="at_bridges", bridge_crossing="free"))))
    assert club.battlefield is b.battlefield
    movers = [next(u for u in b.live_units() if utype(u) == t) for t in ("artillery", "cavalry")]
    differ = 0
    for u in movers:
        for x in range(2, 47, 3):
            for y in range(2, 35, 3):
                for way in (0, 90, 180, 270):
                    hx, hy = heading(way)
                    d = 6 if utype(u) == "artillery" else 12
                    start = footprint(b, u, x=float(x), y=float(y), facing=way)
                    end = footprint(b, u, x=x + hx * d, y=y + hy * d, facing=way)
                    got = [ground_refusal(bt, u, start, end) for bt in (b, club, b, club)]
                    want = [_old_ground_refusal(bt, u, start, end) for bt in (b, club)] * 2
                    assert got == want, (u.id, x, y, way)
                    differ += want[0] != want[1]
    assert differ > 0          # the options do change some answers here


def test_d3_memos_answer_as_afresh_in_play(monkeypatch):
    """Three Austerlitz turns: every terrain refusal and every terrain line of sight the
    memos answer equals the one worked out afresh, and many are answered from memory."""
    from manager.autopilot import Autopilot
    from manager.rules.d3 import ground, sight as seen_lines
    from manager.session import Session
    from manager.table_terrain import table_terrain
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=3))
    from manager.ground_memo import holds
    seen = {"ground": [0, 0], "sight": [0, 0]}
    kept_refusal, kept_sight = ground._kept_refusal, seen_lines._kept_sight

    def refusal(battle, unit, kind, start, end):
        seen["ground"][holds(battle.battlefield, "d3.ground", (
            kind, start, end, battle.option("artillery_streams"),
            battle.option("bridge_crossing")))] += 1
        got = kept_refusal(battle, unit, kind, start, end)
        assert got == ground._terrain_refusal(battle, unit, kind, start, end)
        return got

    def blocked(battle, a, b):
        seen["sight"][holds(battle.battlefield, "d3.sight", (a, b))] += 1
        got = kept_sight(battle, a, b)
        assert got == table_terrain(s.battle.battlefield).sight_blocked(a, b, skip=1.0)
        return got

    monkeypatch.setattr(ground, "_kept_refusal", refusal)
    monkeypatch.setattr(seen_lines, "_kept_sight", blocked)
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    # (the best shot stops judging once no other can beat it: fewer lines are asked; the
    # commander passes over moves another unit refuses before their ground is asked)
    assert seen["ground"][1] > 50 and seen["sight"][1] > 20, seen
    assert seen["ground"][0] > 100 and seen["sight"][0] > 50, seen


def test_d3_shot_reach_and_cover_memos_answer_as_afresh_in_play(monkeypatch):
    """Three Austerlitz turns: every shot's arc and range, and every cover and town
    answer, from memory or not, equal the plain measures (the wedge, shapely's distance,
    the covered fraction), and many come from memory."""
    from manager.autopilot import Autopilot
    from manager.footprint import point
    from manager.rules.d3 import combat, ground
    from manager.session import Session
    from manager.table_terrain import table_terrain
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=3))
    from manager.ground_memo import holds
    seen = {"reach": [0, 0], "cover": [0, 0]}
    reach, covered = combat._reach, ground._kept_cover

    def checked_reach(battle, unit, fp, tfp):
        seen["reach"][holds(battle.battlefield, "d3.reach",
                            (fp, tfp, battle.option("fire_arc", "any_part")))] += 1
        got = reach(battle, unit, fp, tfp)
        front = fp.front_centre()
        town = table_terrain(battle.battlefield).covered(fp.polygon(), ("town",)) >= 0.5
        assert got == (town or combat.in_arc(battle, unit, fp, tfp, front),
                       tfp.polygon().distance(point(front)))
        return got

    def checked_cover(battle, fp, kinds):
        seen["cover"][holds(battle.battlefield, "d3.cover", (fp, kinds))] += 1
        got = covered(battle, fp, kinds)
        assert got == (table_terrain(s.battle.battlefield).covered(fp.polygon(), kinds) >= 0.5)
        return got

    monkeypatch.setattr(combat, "_reach", checked_reach)
    monkeypatch.setattr(ground, "_kept_cover", checked_cover)
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert seen["reach"][1] > 100 and seen["reach"][0] > 100, seen
    assert seen["cover"][1] > 100 and seen["cover"][0] > 20, seen


def test_d3_shot_reach_memo_keeps_each_fire_arc_option():
    """Two battles over the same Austerlitz battlefield, `fire_arc` any_part and centre:
    each battle's shots are refused or passed as its own option says, asked in turn."""
    from manager.errors import IllegalAction
    from manager.ground_memo import forget
    from manager.rules.d3 import combat
    from manager.rules.d3.units import utype
    b = _battle("austerlitz").copy()
    other = b.copy()
    other.set_info(replace(other.info, options=MappingProxyType(dict(
        other.info.options, fire_arc="centre"))))
    assert other.battlefield is b.battlefield
    shooters = [u for u in b.live_units() if utype(u) != "cavalry"][:40]

    def answers(bt):
        out = []
        for u in shooters:
            for e in bt.live_units(bt.enemy_of(u.side)):
                try:
                    combat._shot(bt, bt.units[u.id], e)
                    out.append("")
                except IllegalAction as why:
                    out.append(str(why))
        return out

    plain = []
    for bt in (b, other):
        forget(bt.battlefield, "d3.reach")
        plain.append(answers(bt))
    assert plain[0] != plain[1]                 # the option changes some answers here
    forget(b.battlefield, "d3.reach")
    assert [answers(bt) for bt in (b, other, b, other)] == plain * 2



def test_d3_kept_base_arrays_equal_a_fresh_build_through_a_battle():
    """After every action of three Austerlitz turns, after a unit is removed and after the
    scenario's frontage scale changes, the journal-kept base arrays are a fresh build's,
    float for float and in order."""
    import numpy as np

    from manager.autopilot import Autopilot
    from manager.rules.d3 import sight
    from manager.session import Session
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "d3", seed=1, turns=3))

    def same():
        b = s.battle
        kept, fresh = sight._base_arrays(b), sight._BaseRows(b).arrays()
        assert kept[0] == fresh[0]
        for a, f in zip(kept[1:], fresh[1:]):
            assert a.dtype == f.dtype and np.array_equal(a, f) and a.tobytes() == f.tobytes()

    ap = Autopilot(s)
    steps = 0
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.step()
        same()
        steps += 1
    assert steps > 100
    b = s.battle
    b.update_unit(b.live_units()[3].id, eliminated=True)
    same()
    b.set_info(replace(b.info, options=MappingProxyType(dict(b.info.options,
                                                             frontage_scale=0.5))))
    same()
