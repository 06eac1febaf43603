"""Issue 17, Featherstone: a turn's records made once, each giving the very units of the code
it replaced (kept here as the reference), on random tables and in Austerlitz turns.
tests/manager/test_same_results.py guards whole battles.

- simultaneous fire: the step's figures noted on a unit only when a shot changes them;
- a new turn: a unit already as the turn would leave it keeps its record;
- a move: one new record, its marks with it;
- casualties: one new record, the disorder with the figures;
- the fire step's engaged enemies by one set.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from builders import build_table, piece
from play_checks import SameDice, austerlitz_phases
from manager.footprint import distance
from manager.rules.featherstone import fire, losses, state


FS = "featherstone"


# ---- simultaneous fire: the step's figures noted on a unit only when a shot changes them -----
def test_every_unit_reads_its_figures_and_disorder_as_the_fire_step_began():
    """Every action of 6 Austerlitz turns' fire steps (both sides' halves, the guns'
    bombardment and the volleys): each live unit's figures and disorder as the shots
    read them (`strength`, else its figures; `disordered_now`) are what it had as the
    step began, though only the units hit carry the marks; many units are hit in a
    step and read their old figures."""
    import sys
    from manager.autopilot import Autopilot
    from manager.session import Session
    from manager.model.forces import mark
    from play_checks import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, FS, seed=1, turns=6))
    ap = Autopilot(s)
    ap.step()
    began, step, read_old, marked, clean = None, None, 0, 0, 0
    while not s.battle.state.over and s.battle.state.turn <= 6:
        b = s.battle
        phase = b.state.phase
        if phase in ("fire_first", "fire"):
            if phase != step:                       # a fire step begins (both halves)
                began = {u.id: (u.hits, u.disordered) for u in b.live_units()}
                clean += all(mark(u, "strength") is None for u in b.live_units())
            for u in b.live_units():
                hits, dis = began[u.id]
                assert mark(u, "strength", u.hits) == hits, u.id
                assert fire.disordered_now(u) == dis, u.id
                read_old += u.hits != hits or u.disordered != dis
                marked += mark(u, "strength") is not None
        step = phase
        ap.step()
    assert read_old > 20 and marked > 20 and clean > 10, (read_old, marked, clean)


# ---- a new turn: a unit already as the turn would leave it keeps its record ------------------
def plain_begin_turn(begin, battle, turn, dice) -> list:
    """flow._begin_turn as it was: every live unit's record made anew (then the rest of
    the turn's start, by `begin`, which finds every unit as it leaves it)."""
    from manager.rules.featherstone import flow
    for u in battle.units.values():
        if u.eliminated:
            continue
        keep = {k: v for k, v in u.marks if k in flow.TURN_MARKS}
        battle.update_unit(u.id, moved=0, fired=False, fell_back=False,
                           marks=tuple(sorted(keep.items())))
    return begin(battle, turn, dice)



def test_a_new_turn_leaves_every_unit_as_making_each_anew_in_play(monkeypatch):
    """Each turn's start of 6 Austerlitz turns: the battle (every record's fields,
    the state) and the events are those of making every unit's record anew; most units
    keep their record, some are made anew."""
    from manager.rules.featherstone import flow
    seen = {"turns": 0, "kept": 0, "new": 0}
    begin = flow._begin_turn

    def spy(battle, turn, dice):
        mine, ref = battle.copy(), battle.copy()
        before = dict(mine.units)
        got = begin(mine, turn, SameDice())
        want = plain_begin_turn(begin, ref, turn, SameDice())
        assert got == want
        assert mine.fingerprint() == ref.fingerprint()
        seen["turns"] += 1
        seen["kept"] += sum(mine.units[k] is u for k, u in before.items() if not u.eliminated)
        seen["new"] += sum(mine.units[k] is not u for k, u in before.items())
        return begin(battle, turn, dice)
    monkeypatch.setattr(flow, "_begin_turn", spy)
    for _ in austerlitz_phases(FS, (), 6):
        pass
    assert seen["turns"] >= 5 and seen["kept"] > 100 and seen["new"] > 50, seen


def test_a_new_turn_clears_a_move_a_volley_and_a_fall_back_without_marks():
    """A unit that moved, fired or fell back with no turn's marks left (a recalled horse,
    say) is made anew: the flags go; one with only the lasting marks keeps its record."""
    from manager.rules.featherstone import flow
    b = build_table([piece("m", "blue", "heavy_cavalry", (10, 20)),
                     piece("f", "blue", "line_infantry", (20, 20)),
                     piece("r", "blue", "line_infantry", (30, 20)),
                     piece("k", "red", "line_infantry", (20, 8))], FS)
    b.update_unit("m", moved=2)
    b.update_unit("f", fired=True)
    b.update_unit("r", fell_back=True)
    b.mark_unit("k", shots=3, checked=1)
    kept = b.units["k"]
    flow._begin_turn(b, 2, SameDice())
    assert b.units["m"].moved == 0 and not b.units["f"].fired and not b.units["r"].fell_back
    assert b.units["k"] is kept and dict(kept.marks) == {"shots": 3, "checked": 1}


# ---- a move: one new record, its marks with it ----------------------------------------------
def plain_resolve_move_unit(battle, action, dice) -> list:
    """moves.resolve_move_unit as it was: the move, then its marks as a second record."""
    from manager.events import FormationChanged, UnitMoved
    from manager.footprint import angle_between
    from manager.model.forces import mark
    from manager.rules.featherstone.losses import moved_leaders
    from manager.rules.featherstone.moves import plan
    unit = battle.units[action.unit]
    p = plan(battle, unit, action.to, action.facing, action.formation)
    changing = bool(action.formation and action.formation != unit.formation)
    used = mark(unit, "used", 0.0) + (0.5 if changing else 0)
    used += p.cost / (p.rate * mark(unit, "allow", 1)) if p.rate else 0
    x, y = float(action.to[0]), float(action.to[1])
    moved_leaders(battle, unit, x, y)
    turned = mark(unit, "turned", 0) + angle_between(unit.facing, action.facing)
    moved = 2 if distance(unit.pos, (x, y)) > 1e-9 else max(unit.moved, 1)
    battle.update_unit(unit.id, x=x, y=y, facing=action.facing % 360, moved=moved,
                       formation=action.formation or unit.formation)
    battle.mark_unit(unit.id, used=round(min(used, 1.0), 6), turned=round(turned, 3))
    events = []
    if changing:
        events.append(FormationChanged(unit.name, action.formation))
    events.append(UnitMoved(unit.name, (round(x, 1), round(y, 1)), action.facing, p.cost))
    return events


@settings(max_examples=100, deadline=None)
@given(st.tuples(st.floats(8, 40), st.floats(8, 28)), st.integers(0, 359),
       st.tuples(st.floats(-6, 6), st.floats(-6, 6)), st.integers(0, 359),
       st.sampled_from(["", "line", "column", "square"]),
       st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.floats(0, 0.5), st.integers(0, 90), st.booleans())
def test_a_move_makes_the_record_of_the_move_then_its_marks(at, facing, off, to_facing, form,
                                                             kind, used, turned, general):
    """Any move (or a turn in place, a re-forming), with some of the move already used
    and a general riding on the base: the same unit, leaders and events as the move and
    then its marks (two records)."""
    from manager import game_actions as ga
    from manager.rules.featherstone.moves import resolve_move_unit
    to = (round(at[0] + off[0], 2), round(at[1] + off[1], 2))
    leaders = {"b1": {"pos": list(at)}} if general else None
    b = build_table([piece("u", "blue", kind, at, facing=facing)], FS, leaders=leaders)
    b.mark_unit("u", used=used, turned=turned, checked=3)     # (a mark the move keeps)
    action = ga.MoveUnit("u", to, to_facing, form if kind == "line_infantry" else "")
    mine, ref = b.copy(), b.copy()
    assert resolve_move_unit(mine, action, None) == plain_resolve_move_unit(ref, action, None)
    assert mine.fingerprint() == ref.fingerprint()


# ---- casualties: one new record, the disorder with the figures --------------------------------
def plain_take_casualties(battle, uid, n, events, dice=None) -> bool:
    """losses.take_casualties as it was: the figures, then the disorder as a second record."""
    from manager.events import HitsTaken
    from manager.rules.featherstone.losses import UnitDisordered, eliminate
    unit = battle.units[uid]
    n = min(n, unit.hits)
    if n <= 0:
        return False
    unit = battle.update_unit(uid, hits=unit.hits - n)
    events.append(HitsTaken(unit.name, n, unit.hits, uid))
    if unit.hits == 0:
        eliminate(battle, uid, events, dice=dice)
        return True
    if not unit.disordered:
        battle.update_unit(uid, disordered=True)
        events.append(UnitDisordered(unit.name))
    return False


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["line_infantry", "heavy_cavalry", "foot_artillery"]),
       st.integers(-1, 30), st.booleans(), st.integers(0, 6))
def test_casualties_make_the_figures_then_the_disorder(kind, n, disordered, lost_before):
    """Any casualties (none, some, all and more) on a unit in order or disordered, with
    figures already lost: the same battle and events as the figures then the disorder."""
    b = build_table([piece("u", "blue", kind, (20, 20))], FS)
    u = b.units["u"]
    b.update_unit("u", disordered=disordered, hits=max(u.hits - lost_before, 1))
    mine, ref = b.copy(), b.copy()
    ev1, ev2 = [], []
    assert losses.take_casualties(mine, "u", n, ev1) == plain_take_casualties(ref, "u", n, ev2)
    assert ev1 == ev2 and mine.fingerprint() == ref.fingerprint()


# ---- tenth session: the fire step's engaged enemies by one set ----------------------------
def test_engaged_ids_are_the_units_engaged_is_true_of_in_play():
    """At every phase of 3 Austerlitz turns, and on the charges' trial copies: the set the
    fire step tests its candidates against holds exactly the units `engaged` is true
    of (some in melees, not vacuous)."""
    judged = busy = 0
    for s, _ in austerlitz_phases("featherstone", ("charges", "fire", "melee"), 3):
        b = s.battle
        for battle in (b, b.copy()):
            ids = state.engaged_ids(battle)
            assert ids == {u.id for u in battle.live_units() if state.engaged(battle, u)}
            judged += 1
            busy += len(ids)
    assert judged > 10 and busy > 0
