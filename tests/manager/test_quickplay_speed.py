"""The quick-play commander's first looks and the rules' shortcuts change no result.

Issue 17: the quick-play turn was 7.7 times the Morschauser turn. The commander now
asks the base table (manager/rules/quickplay/bases.py) which enemies could be in reach
and in front, which bases could stand across a line, which enemy is nearest; the rules
remember a check for the battle version and look for blockers only near a line or a
path. Each is either the very answer of the scan it replaces or passes over only what
the rules refuse: checked here on random tables (hypothesis) and on Austerlitz as the
commanders play it (tests/manager/test_same_results.py guards the whole game).
"""
import sys
from pathlib import Path

from hypothesis import assume, given, settings, strategies as st

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import IllegalAction, ScenarioError
from manager.footprint import distance, surely_apart
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from builders import build_table, piece, session_at  # noqa: E402
from play_checks import refused  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KINDS = ["line_infantry", "light_cavalry", "heavy_cavalry", "grenadiers", "light_infantry",
         "foot_artillery"]
spot = st.tuples(st.floats(3, 45), st.floats(3, 33))




def crowd(data, n, ruleset="quickplay", terrain=()):
    """A table of n random units (both sides), blue to act."""
    units = [piece(f"u{k}", "blue" if k % 2 == 0 else "red", data.draw(st.sampled_from(KINDS)),
                   data.draw(spot), facing=data.draw(st.integers(0, 359)),
                   formation=data.draw(st.sampled_from(["line", "column"])))
             for k in range(n)]
    return build_table(units, ruleset, terrain=terrain)


# ---- the reference scans (the code the table replaced) -------------------------------------
def old_sight_blockers(b, a, z):
    from manager import spatial
    from manager.rules.quickplay.units import footprint
    from manager.footprint import segment
    line = segment(a, z)
    return [o.id for o in spatial.crossing_line(b, a, z, line.length + 8, footprint, "quickplay")
            if footprint(b, o).polygon().intersects(line)]


def new_sight_blockers(b, a, z):
    from manager.rules.quickplay.bases import near_line
    from manager.rules.quickplay.units import footprint
    from manager.footprint import segment
    line = segment(a, z)
    return [o.id for o in near_line(b, a, z, line.length + 8)
            if footprint(b, o).polygon().intersects(line)]


def old_surely_hidden(b, u, targets):
    from manager.rules.quickplay.units import footprint, near
    from manager.sightlines import surely_crossed
    if not targets:
        return []
    others = near(b, u.pos, max(distance(u.pos, t.pos) for t in targets) + 8)
    return surely_crossed(u.pos, [t.pos for t in targets], [t.id for t in targets], others,
                          [footprint(b, o) for o in others], u, 8.0)


def old_ground_refusal(b, unit, start, end, ignore=(), charge=False):
    from manager.footprint import Sweep, closer_than, inside, overlap
    from manager.rules.quickplay.units import footprint, near
    bf = b.battlefield
    if not inside(end, bf.width, bf.height):
        return "the base would leave the table"
    sweep = Sweep(start, end)
    for o in near(b, end.centre, distance(start.centre, end.centre) + 12):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(b, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if o.side != unit.side:
            if not charge and closer_than(end, ofp, 0.1):
                return f"only a charge may touch {o.name}"
            if sweep.crosses(ofp):
                return f"{o.name} is in the way"
    return ""


def judge_table(b, side):
    """Every claim of the first looks on one battle, for the units of `side`: returns how
    many pairs were judged (the caller checks the play reached some)."""
    from manager.rules.quickplay import bases as bt, hidden_lines
    from manager.rules.quickplay.tables import FIRE_ARC, RANGES
    from manager import spatial
    from manager.model.forces import mark
    from manager.rules.quickplay.move_ground import lands_on_another
    from manager.rules.quickplay.units import arm, engaged, footprint, near, prof, to_front
    enemy = b.enemy_of(side)
    judged = 0
    for u in b.live_units():               # in melee: the chargers the table keeps
        assert engaged(b, u) == (bool(mark(u, "charging")) or u.id in spatial.charged_ids(
            b, b.enemy_of(u.side), mark))
    for u in b.live_units(side):
        fp = footprint(b, u)
        # the nearest enemy: exactly the scan's
        es = near(b, u.pos, 60, enemy)
        want = min(es, key=lambda e: distance(e.pos, u.pos)) if es else None
        assert bt.nearest(b, u.pos, 60, enemy) is want
        # in reach and maybe in front (and maybe in range): never drops what the scan keeps
        for reach, half, far in ((52, FIRE_ARC, RANGES[prof(u)["weapon"]][1]
                                  if arm(u) != "cavalry" else -1.0), (20, 45, None)):
            got = bt.maybe_in_reach(b, u, fp, reach, enemy, half, far)
            keep = [e for e in near(b, u.pos, reach, enemy) if to_front(b, u, e.pos, half)
                    and (far is None or not surely_apart(fp, footprint(b, e), far))]
            assert set(e.id for e in keep) <= set(e.id for e in got)
            assert all(distance(e.pos, u.pos) <= reach for e in got)
            ids = [e.id for e in got]
            assert ids == sorted(ids, key=[x.id for x in b.live_units()].index)
        # a spot on another base: the engine's answer (the nearest base asked first)
        for dx, dy in ((0, -3), (0, -6), (2, 2), (-4, 0)):
            to = (round(u.x + dx, 2), round(u.y + dy, 2))
            end = footprint(b, u, x=to[0], y=to[1], facing=u.facing, formation=u.formation)
            assert lands_on_another(b, u, to, u.facing) == \
                spatial.lands_on(b, u, end, footprint)
        # the lines to the near enemies: the same blockers, the same "surely hidden"
        targets = near(b, u.pos, 30, enemy)
        assert hidden_lines.surely_hidden(b, u, targets) == old_surely_hidden(b, u, targets)
        for e in targets:
            judged += 1
            assert new_sight_blockers(b, u.pos, e.pos) == old_sight_blockers(b, u.pos, e.pos)
    return judged


# ---- random tables -------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 14))
def test_the_table_answers_as_the_scans_on_random_tables(data, n):
    b = crowd(data, n)
    s, _ = session_at(b, "act", side="blue")
    judge_table(s.battle, "blue")


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(2, 10), st.floats(-8, 8), st.floats(-8, 8),
       st.integers(0, 359), st.booleans())
def test_ground_refusal_looks_near_the_path_only(data, n, dx, dy, facing, charge):
    """The scan near the path names the very refusal the scan of every near unit named."""
    from manager.rules.quickplay.move_ground import ground_refusal
    from manager.rules.quickplay.units import footprint
    b = crowd(data, n)
    u = b.units["u0"]
    start = footprint(b, u)
    end = footprint(b, u, x=u.x + dx, y=u.y + dy, facing=facing)
    ignore = ("u1",) if charge else ()
    assert ground_refusal(b, u, start, end, ignore, charge) == \
        old_ground_refusal(b, u, start, end, ignore, charge)


AREAS = ["woods", "marsh", "town", "rough", "fields", "lake", "hill"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(AREAS), spot, st.floats(1, 8), spot, st.integers(0, 359),
       st.floats(0.0, 1.0), st.sampled_from(["stream", "river", "road", "wall"]),
       st.floats(3, 45), st.sampled_from(KINDS))
def test_a_path_clear_of_costly_ground_costs_nothing_extra(kind, c, r, to, facing, k, line,
                                                           lx, ukind):
    """no_extra_along(a, b): every move along that line costs exactly 0.0 extra inches."""
    from manager.rules.quickplay.move_ground import no_extra_along, terrain_cost
    from manager.rules.quickplay.units import footprint
    terrain = [{"kind": kind, "points": [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r],
                                         [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]},
               {"kind": line, "points": [[lx, 0.5], [lx + 2, 35.5]]}]
    try:
        b = build_table([piece("a", "blue", ukind, (24, 18)),
                         piece("e", "red", "line_infantry", (40, 3))], "quickplay",
                        terrain=terrain)
    except ScenarioError:                     # a piece stood in the lake: not this table
        assume(False)
    u = b.units["a"]
    if not no_extra_along(b, u.pos, to):
        return
    start = footprint(b, u)
    part = start.moved(u.x + (to[0] - u.x) * k, u.y + (to[1] - u.y) * k, facing)
    assert terrain_cost(b, u, start, part)[0] == 0.0


def test_no_extra_along_sees_costly_ground():
    from manager.rules.quickplay.move_ground import no_extra_along
    terrain = [{"kind": "woods", "points": [[10, 10], [14, 10], [14, 14], [10, 14]]},
               {"kind": "stream", "points": [[30, 0.5], [30, 35.5]]}]
    b = build_table([piece("a", "blue", "line_infantry", (5, 12))], "quickplay",
                    terrain=terrain)
    assert not no_extra_along(b, (5, 12), (20, 12))        # through the wood
    assert not no_extra_along(b, (25, 20), (35, 20))       # over the stream
    assert no_extra_along(b, (5, 20), (20, 20))            # clear of both


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 8))
def test_the_table_kept_from_the_journal_is_the_table_rebuilt(data, n):
    """Moves, hits and eliminations write rows; the table is the one built afresh."""
    from manager.rules.quickplay import bases as bt
    b = crowd(data, n)
    bt.bases(b)
    for k in range(data.draw(st.integers(1, 6))):
        uid = f"u{data.draw(st.integers(0, n - 1))}"
        change = data.draw(st.sampled_from(["move", "form", "hit", "gone", "charge"]))
        u = b.units[uid]
        if change == "move":
            b.update_unit(uid, x=u.x + 1.5, facing=(u.facing + 30) % 360)
        elif change == "form":
            b.update_unit(uid, formation="column" if u.formation == "line" else "line")
        elif change == "charge":
            b.mark_unit(uid, charging=data.draw(st.sampled_from([None, "u0", "u1"])))
        elif change == "hit":
            b.update_unit(uid, hits=max(1, u.hits - 2))
        else:
            b.update_unit(uid, eliminated=True)
        same_table(bt.bases(b), bt.Bases(b))
        trial = b.copy()                       # a trial copy starts from the table kept
        trial.update_unit(uid, x=b.units[uid].x - 0.5)
        same_table(bt.bases(trial), bt.Bases(trial))
        same_table(bt.bases(b), bt.Bases(b))   # and leaves the battle's as it was


def same_table(kept, fresh):
    import numpy as np
    assert kept.ids == fresh.ids
    assert [u is v for u, v in zip(kept.units, fresh.units)] == [True] * len(kept.ids)
    for name in ("x", "y", "fx", "fy", "hd", "hf", "r", "alive"):
        assert np.array_equal(getattr(kept, name), getattr(fresh, name)), name
    assert kept.charging == fresh.charging


# ---- in play: Austerlitz, the commanders playing ----------------------------------------------
def test_the_first_looks_in_play():
    """On Austerlitz, each time a side comes to act: the table is the one rebuilt, and
    every answer of the first looks is the scan's (or passes over only refusals); every
    order the commander passes over for a refusal of the shooter or charger alone is
    refused by the rules."""
    from manager.rules.quickplay import bases as bt
    from manager.rules.quickplay.combat import shooter_refusal
    from manager.rules.quickplay.melee import charger_refusal
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "quickplay", seed=1, turns=2))
    ap = Autopilot(s)
    ap.step()
    seen, judged, barred, steps = set(), 0, 0, 0
    while not s.battle.state.over and s.battle.state.turn <= 2:
        b = s.battle
        st_ = b.state
        steps += 1
        if steps % 7 == 0:
            same_table(bt.bases(b), bt.Bases(b))
        key = (st_.turn, st_.active, st_.phase)
        if st_.phase == "act" and key not in seen and len(seen) < 3:
            seen.add(key)
            judged += judge_table(b, st_.active)
        if st_.phase in ("act", "end_fire"):
            for u in b.live_units(st_.active):
                enemies = b.live_units(b.enemy_of(st_.active))[:3]
                if shooter_refusal(b, u):
                    barred += 1
                    assert all(refused(s, ga.Fire(u.id, e.id)) for e in enemies)
                if st_.phase == "act" and charger_refusal(b, u):
                    assert all(refused(s, ga.Charge(u.id, e.id)) for e in enemies)
        ap.step()
    assert judged > 300 and barred > 20


def test_ground_refusal_in_play():
    """Every move and charge the commander asks about on Austerlitz: the scan near the
    path names the very refusal the full scan named."""
    from manager.rules.quickplay import moves
    from manager.rules.quickplay.units import footprint
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    calls = []
    real = moves.ground_refusal

    def both(battle, unit, start, end, ignore=(), charge=False):
        why = real(battle, unit, start, end, ignore, charge)
        calls.append(why)
        assert why == old_ground_refusal(battle, unit, start, end, ignore, charge)
        return why

    s = Session(scenario(AUSTERLITZ, "quickplay", seed=1, turns=1))
    ap = Autopilot(s)
    ap.step()
    moves.ground_refusal = both
    try:
        import manager.rules.quickplay.melee as melee
        melee.ground_refusal = both
        while not s.battle.state.over and s.battle.state.turn <= 1:
            ap.play_turn()
    finally:
        moves.ground_refusal = real
        melee.ground_refusal = real
    assert len(calls) > 50 and any(calls)
    assert footprint                     # the module the scans read


def test_remembered_checks_are_the_checks_in_play():
    """A check remembered for the battle version answers as the check made afresh: every
    charge and shot the commanders weigh in a turn of Austerlitz."""
    from manager.rules.quickplay import combat, melee
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario

    def fresh(f, *args):
        try:
            return f(*args)
        except IllegalAction as e:
            return f"refused: {e}"

    s = Session(scenario(AUSTERLITZ, "quickplay", seed=1, turns=1))
    ap = Autopilot(s)
    ap.step()
    checked = 0
    while not s.battle.state.over and s.battle.state.turn <= 1:
        b = s.battle
        if b.state.phase == "act":
            side = b.state.active
            for u in b.live_units(side)[::9]:
                for e in b.live_units(b.enemy_of(side))[::9]:
                    a = ga.Charge(u.id, e.id)
                    assert fresh(melee.check_charge, b, a) == fresh(melee._check_charge, b, a)
                    assert fresh(melee.check_charge, b, a) == fresh(melee._check_charge, b, a)
                    assert fresh(combat.volley, b, u, e) == fresh(combat._volley, b, u, e)
                    checked += 1
        ap.step()
    assert checked > 500
