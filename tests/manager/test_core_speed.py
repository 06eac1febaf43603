"""The shared engine's speed-ups of issue 17 keep every answer: the check an automatic
commander already made is not made twice (and only then), views kept from the change
journal equal a fresh build all through a battle, and the record copier is replace()."""
import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from manager import spatial
from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.model.battle import TurnState
from manager.model.forces import Command, Leader, Side, Unit, evolve
from manager.scenario_io import load_scenario
from manager.session import Session

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def counting(session):
    """Wrap every checker of the session's ruleset: {action class name: calls}."""
    calls = {}
    rules = session.ruleset
    for name, fn in list(rules._checkers.items()):
        def wrapped(battle, action, fn=fn, name=name):
            calls[name] = calls.get(name, 0) + 1
            return fn(battle, action)
        rules._checkers[name] = wrapped
    return calls


@pytest.fixture
def session():
    s = Session(load_scenario(SKIRMISH, "featherstone"))
    saved = dict(s.ruleset._checkers)
    yield s
    s.ruleset._checkers.clear()
    s.ruleset._checkers.update(saved)


def _first_legal_order(s):
    ap = Autopilot(s)
    while True:
        c = ap.commanders[s.battle.state.active]
        action = c.next_action()
        if action.verb != "EndPhase":
            return c, action
        s.execute(action)


def test_execute_does_not_repeat_the_commanders_check(session):
    s = session
    Autopilot(s).step()                                   # StartBattle
    calls = counting(s)
    c, action = _first_legal_order(s)                     # the commander checked it
    asked = calls[action.verb]
    assert asked >= 1
    assert c.legal(action)
    s.execute(action)
    assert calls[action.verb] == asked                    # the same question, answered


def test_a_change_between_check_and_execute_checks_again(session):
    s = session
    Autopilot(s).step()
    calls = counting(s)
    c, action = _first_legal_order(s)
    asked = calls[action.verb]
    s.battle.touch()                                      # anything changed: ask again
    s.execute(action)
    assert calls[action.verb] == asked + 1


def test_an_equal_action_that_is_another_object_is_checked(session):
    s = session
    Autopilot(s).step()
    calls = counting(s)
    c, action = _first_legal_order(s)
    asked = calls[action.verb]
    s.execute(dataclasses.replace(action))
    assert calls[action.verb] == asked + 1


def test_a_refused_action_is_refused_every_time(session):
    from manager import game_actions as ga
    s = session
    Autopilot(s).step()
    bad = ga.MoveUnit("no-such-unit", 1.0, 1.0)
    for _ in range(2):
        with pytest.raises(IllegalAction):
            s.execute(bad)


@pytest.mark.parametrize("ruleset", ["featherstone", "d3", "quickplay"])
def test_kept_half_diagonals_equal_a_fresh_build_through_a_battle(ruleset):
    """The view follows every change of a battle (moves, losses, formations, units
    gone) and answers as a fresh build, action after action."""
    import math
    s = Session(load_scenario(SKIRMISH, ruleset))
    fp = {"featherstone": "manager.rules.featherstone.state",
          "d3": "manager.rules.d3.units", "quickplay": "manager.rules.quickplay.units"}[ruleset]
    footprint = __import__(fp, fromlist=["footprint"]).footprint
    ap = Autopilot(s)
    seen = 0
    while not s.battle.state.over and s.battle.state.turn <= 2 and seen < 400:
        ap.step()
        seen += 1
        b = s.battle
        kept = spatial.half_diagonals(b, footprint)
        fresh = {u.id: math.hypot(footprint(b, u).frontage, footprint(b, u).depth) / 2
                 for u in b.live_units()}
        assert kept == fresh
        radii = spatial.radii(b, footprint)
        assert list(radii) == [fresh[u.id] for u in spatial.unit_grid(b).units]
        for side in (None, *b.sides):
            same_grid(spatial.unit_grid(b, side), b.live_units(side))
    assert seen > 20


def same_grid(grid, units):
    assert grid.units == units and all(a is b for a, b in zip(grid.units, units))
    assert list(grid.xs) == [u.x for u in units] and list(grid.ys) == [u.y for u in units]


def test_the_kept_grid_follows_units_gone_arrived_and_put_back():
    """Moves patch the grid in place; a unit eliminated, dropped, put back (last in the
    order now) or a newcomer rebuilds it: always the fresh grid of live_units."""
    from manager.model.forces import evolve
    b = load_scenario(SKIRMISH, "featherstone")
    grids = {side: spatial.unit_grid(b, side) for side in (None, *b.sides)}
    first, second = list(b.units)[:2]
    steps = [lambda: b.update_unit(first, x=b.units[first].x + 1.5),
             lambda: b.update_unit(second, eliminated=True),
             lambda: b.update_unit(second, eliminated=False),
             lambda: (b.drop_unit(first), b.put_unit(evolve(b.units[second], id=first))),
             lambda: b.put_unit(evolve(b.units[second], id="newcomer", y=1.0)),
             lambda: b.update_unit(first, side=[s for s in b.sides
                                                if s != b.units[first].side][0])]
    generation = grids[None].generation
    for n, step in enumerate(steps):
        step()
        for side in (None, *b.sides):
            same_grid(spatial.unit_grid(b, side), b.live_units(side))
        if n == 0:                                  # a move: patched, not rebuilt
            assert spatial.unit_grid(b) is grids[None]
            assert grids[None].generation == generation


names = st.sampled_from(["x", "y", "hits", "facing", "formation", "eliminated", "marks"])
values = {"x": st.floats(0, 100), "y": st.floats(0, 100), "hits": st.integers(0, 30),
          "facing": st.integers(0, 359), "formation": st.sampled_from(["line", "column"]),
          "eliminated": st.booleans(), "marks": st.just((("used", 0.5),))}


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_evolve_is_replace(data):
    u = Unit("u1", "First", "line_infantry", "blue", 20, 24, 3.0, 4.0, traits=("veteran",))
    chosen = data.draw(st.sets(names, max_size=4))
    changes = {k: data.draw(values[k]) for k in chosen}
    assert evolve(u, **changes) == dataclasses.replace(u, **changes)
    leader = Leader("l1", "Ney", "blue", 1.0, 2.0)
    assert evolve(leader, x=5.0) == dataclasses.replace(leader, x=5.0)


@pytest.mark.parametrize("record", [
    Unit("u1", "First", "line_infantry", "blue", 20, 24, 3.0, 4.0, traits=("veteran",)),
    Leader("l1", "Ney", "blue", 1.0, 2.0), TurnState(dice_seq=7), Side("blue", "Blue"),
    Command("c1", "I Corps", "blue", orders={"kind": "attack"})])
def test_evolve_makes_a_frozen_record_of_the_class_itself(record):
    # filled as a mutable twin, then made the class: the very class, every slot the
    # record's own object but the one changed, and frozen as any record
    last = record.__slots__[-1]
    new = evolve(record, **{last: "changed"})
    assert type(new) is type(record) and new is not record
    for name in record.__slots__[:-1]:
        assert getattr(new, name) is getattr(record, name)
    assert getattr(new, last) == "changed"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(new, last, 1)
    assert evolve(new, **{last: getattr(record, last)}) == record


def test_evolve_refuses_an_unknown_field():
    u = Unit("u1", "First", "line_infantry", "blue", 20, 24, 3.0, 4.0)
    with pytest.raises(TypeError, match="no field"):
        evolve(u, colour="red")


coord = st.floats(-1e4, 1e4, allow_nan=False)


@settings(max_examples=500, deadline=None)
@given(coord, coord, coord, coord)
def test_distance_is_the_hypot_of_the_differences_to_the_bit(ax, ay, bx, by):
    import math
    from manager.footprint import distance
    assert distance((ax, ay), (bx, by)) == math.hypot(ax - bx, ay - by)
