"""The shared path every action goes through (issue 17, fifth session): each cheaper
step gives what the plain code gave.

- `evolve` writes one copier per class and set of changed names, setting each slot
  through its descriptor: the same record as dataclasses.replace, whatever the order of
  the names; an unknown name is still refused.
- `Battle.snapshot` / `restore` copy the dicts with dict.copy: the same keys in the same
  order, and copies the battle's later changes never reach.
- `Battle.cached` finds a miss without a KeyError: a cached None (or any falsy value)
  is handed back, not rebuilt.
- `SeededSource.faces` seeds the generator by C and draws as randint draws: the same
  faces for every seed, count and number of sides.
- `Session._apply` leaves the turn state alone after an action that rolled no dice and
  changed the battle: every step of a played battle is the same as with the plain
  apply (which always set the dice counter anew), in state, log and orders.
"""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from manager.autopilot import Autopilot
from manager.model.battle import Battle, TurnState
from manager.model.forces import Leader, Unit, evolve
from manager.scenario_io import load_scenario
from manager.session import Session

SKIRMISH = Path(__file__).resolve().parents[2] / "tests" / "data" / "skirmish.toml"

UNIT = Unit("u1", "First", "line_infantry", "blue", 20, 24, 3.0, 4.0, traits=("veteran",))
VALUES = {"x": st.floats(-50, 50), "y": st.floats(-50, 50), "hits": st.integers(0, 30),
          "facing": st.integers(0, 359), "moved": st.integers(0, 2),
          "fired": st.booleans(), "formation": st.sampled_from(["line", "column"]),
          "marks": st.just((("charging", "u2"),)), "eliminated": st.booleans()}


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_evolve_in_any_order_of_names_is_replace(data):
    names = data.draw(st.lists(st.sampled_from(sorted(VALUES)), unique=True, max_size=5))
    changes = {k: data.draw(VALUES[k]) for k in names}
    want = dataclasses.replace(UNIT, **changes)
    for order in itertools.islice(itertools.permutations(names), 6):
        got = evolve(UNIT, **{k: changes[k] for k in order})
        assert got == want and type(got) is Unit
        assert all(getattr(got, f) == getattr(want, f) for f in Unit.__slots__)
    st_ = TurnState(turn=3, phase="move", dice_seq=9)
    assert evolve(st_, dice_seq=10) == dataclasses.replace(st_, dice_seq=10)
    assert evolve(Leader("l1", "Ney", "blue", 1.0, 2.0), y=7.0).y == 7.0


def test_evolve_refuses_an_unknown_name_among_known_ones_every_time():
    for _ in range(2):                      # the second time after a copier was written
        with pytest.raises(TypeError, match="no field.*colour"):
            evolve(UNIT, x=1.0, colour="red")
    assert evolve(UNIT, x=1.0).x == 1.0


def test_evolve_leaves_the_record_it_copies_as_it_was():
    before = dataclasses.astuple(UNIT)
    evolve(UNIT, hits=1, x=0.0)
    assert dataclasses.astuple(UNIT) == before


def _battle() -> Battle:
    return load_scenario(SKIRMISH)


def test_snapshot_and_restore_keep_order_and_never_share_a_dict():
    b = _battle()
    snap = b.snapshot()
    plain = (dict(b.sides), dict(b.commands), dict(b.units), dict(b.leaders))
    for mine, want in zip(snap[2:6], plain):
        assert mine == want and list(mine) == list(want)
    for mine, live in zip(snap[2:6], (b.sides, b.commands, b.units, b.leaders)):
        assert mine is not live
    uid = next(iter(b.units))
    b.update_unit(uid, hits=1)
    assert snap[4][uid].hits != 1                     # the snapshot kept the old record
    b.restore(snap)
    assert b.units[uid] is snap[4][uid] and b.units is not snap[4]
    b.update_unit(uid, hits=1)
    assert snap[4][uid].hits != 1                     # restoring shared no dict either


def test_cached_hands_back_a_falsy_value_without_rebuilding():
    b = _battle()
    calls = []
    for value in (None, 0, "", ()):
        key = ("falsy", repr(value))
        assert b.cached(key, lambda v=value: calls.append(v) or v) == value
        assert b.cached(key, lambda: calls.append("again") or "rebuilt") == value
    assert calls == [None, 0, "", ()]
    b.touch()
    assert b.cached(("falsy", "None"), lambda: "after a change") == "after a change"


def _plain_apply(self, action, source):
    """Session._apply as it was: the dice counter set anew after every action."""
    from manager.dice import Dice
    from manager.session import LogEntry
    battle = self.battle
    state = battle.state
    before = battle.snapshot()
    dice = Dice(source, state.dice_seq)
    try:
        events = action.apply(battle, self.ruleset, dice)
        battle.set_state(dice_seq=dice.next_seq)
    except BaseException:
        battle.restore(before)
        raise
    return LogEntry(len(self.entries), action, tuple(dice.rolls), list(events),
                    state.turn, state.phase, state.active)


@pytest.mark.parametrize("ruleset", ["morschauser", "featherstone", "d3", "quickplay"])
def test_a_battle_steps_as_with_the_plain_apply(ruleset, monkeypatch):
    """Two turns of the skirmish, step by step: the same action, log entry and state
    after every step as a session whose apply always sets the dice counter."""
    runs, counter_set = [], [0]
    set_state = Battle.set_state

    def counting(self, **changes):
        counter_set[0] += set(changes) == {"dice_seq"}
        return set_state(self, **changes)
    monkeypatch.setattr(Battle, "set_state", counting)
    for plain in (False, True):
        counter_set[0] = 0
        if plain:
            monkeypatch.setattr(Session, "_apply", _plain_apply)
        s = Session(load_scenario(SKIRMISH, ruleset))
        ap = Autopilot(s)
        steps = []
        while not s.battle.state.over and s.battle.state.turn <= 2 and len(steps) < 400:
            if not ap.step():
                break
            e = s.entries[-1]
            steps.append((e.action, e.rolls, [x.describe() for x in e.events],
                          s.battle.fingerprint()))
        skipped = len(s.entries) - counter_set[0]      # actions whose counter was left alone
        runs.append((steps, ap.refused, skipped))
    (mine, refused, skipped), (plain, plain_refused, plain_skipped) = runs
    assert len(mine) > 20 and refused == plain_refused
    assert skipped > 5 and plain_skipped == 0           # the new path was taken, often
    for k, (a, b) in enumerate(zip(mine, plain)):
        assert a == b, f"step {k}: {a[0]} / {b[0]}"
    assert len(mine) == len(plain)


@settings(max_examples=400, deadline=None)
@given(st.integers(-10 ** 30, 10 ** 30), st.integers(1, 8),
       st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100, 2 ** 31 + 1]))
def test_seeded_faces_are_randints_of_a_seeded_generator(seed, count, sides):
    import random
    from manager.dice import seeded_faces
    rng = random.Random(seed)
    assert seeded_faces(seed, count, sides) == tuple(rng.randint(1, sides)
                                                     for _ in range(count))


def test_seeded_faces_refuse_what_randint_refuses():
    from manager.dice import seeded_faces
    with pytest.raises(ValueError):
        seeded_faces(5, 1, 0)                       # an empty range, as randint says
    assert seeded_faces(5, 2, 6) == seeded_faces(5, 2, 6)


def test_a_phase_is_found_by_name_as_the_scan_found_it():
    from manager.errors import IllegalAction
    from manager.rules import get_ruleset, ruleset_ids
    from manager.rules.base import Phase, Ruleset
    for rid in ruleset_ids():
        rs = get_ruleset(rid)
        for p in rs.phases:
            assert rs.phase(p.name) is next(q for q in rs.phases if q.name == p.name)
        with pytest.raises(IllegalAction, match="unknown phase 'nowhere'"):
            rs.phase("nowhere")

    class Twice(Ruleset):                     # a name given twice: the first, as the scan
        phases = (Phase("move", "first", frozenset()), Phase("move", "second", frozenset()))
    r = Twice()
    assert r.phase("move").label == "first"
    r.phases = (Phase("fire", "Fire", frozenset()),)      # changed phases: asked afresh
    assert r.phase("fire").label == "Fire"
    with pytest.raises(IllegalAction):
        r.phase("move")
