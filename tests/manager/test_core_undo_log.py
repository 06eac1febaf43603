"""A game action's writes are noted and taken back should it fail (Session._apply), in
place of a snapshot of every table: the battle after a failed action is the battle
before it, table by table and in the tables' order, as the snapshot left it."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import IllegalAction
from manager.model.forces import evolve
from manager.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_common import AUSTERLITZ, scenario  # noqa: E402


def _tables(b) -> tuple:
    """Everything a snapshot holds, with each table's order and each record's identity."""
    return (b.info, b.battlefield, b.hierarchy, b.state, b.pending,
            [(k, id(v)) for k, v in b.sides.items()],
            [(k, id(v)) for k, v in b.commands.items()],
            [(k, id(v)) for k, v in b.units.items()],
            [(k, id(v)) for k, v in b.leaders.items()])


def _battle_in_play(seed: int = 2, steps: int = 300):
    s = Session(scenario(AUSTERLITZ, "morschauser", seed=seed, turns=12))
    ap = Autopilot(s)
    for _ in range(steps):
        ap.step()
    return s, ap


def _every_writer(b, dice) -> None:
    """Writes of every kind, in an order that tests the taking back: a record changed
    twice, one dropped after it changed, one put in new, and every setter."""
    uids = list(b.units)
    b.update_unit(uids[3], hits=0, eliminated=True)
    b.update_unit(uids[3], moved=2)
    b.update_unit(uids[0], x=b.units[uids[0]].x + 3)
    b.drop_unit(uids[0])
    b.put_unit(evolve(b.units[uids[1]], id="newcomer"))
    b.drop_unit(uids[5])
    b.update_unit(uids[6], fired=True)
    lid = next(iter(b.leaders))
    b.update_leader(lid, moved=True)
    cid = next(iter(b.commands))
    b.put_command(dataclasses.replace(b.commands[cid], name="Renamed"))
    sid = next(iter(b.sides))
    b.put_side(dataclasses.replace(b.sides[sid], name="Renamed"))
    b.set_state(turn=b.state.turn + 5, dice_seq=b.state.dice_seq + 9)
    b.set_hierarchy(b.hierarchy.without_unit(uids[7]))
    b.set_pending(())
    b.set_info(dataclasses.replace(b.info, name="Renamed"))
    dice.d6("a roll before the failure")
    raise IllegalAction("failed half-way")


def test_a_failed_game_action_leaves_the_battle_as_the_snapshot_did(monkeypatch):
    s, ap = _battle_in_play()
    b = s.battle
    before, fingerprint, entries = _tables(b), b.fingerprint(), len(s.entries)
    snap = b.snapshot()
    monkeypatch.setitem(s.ruleset._resolvers, "EndPhase", lambda battle, action, dice:
                        _every_writer(battle, dice))
    monkeypatch.setitem(s.ruleset._checkers, "EndPhase", lambda battle, action: None)
    version = b.version
    with pytest.raises(IllegalAction):
        s.execute(ga.EndPhase())
    assert _tables(b) == before and b.fingerprint() == fingerprint
    assert len(s.entries) == entries and b._undo is None
    assert b.version > version and b._journal[-1] == ("all",)   # views rebuilt, as restore
    b.restore(snap)                                 # the snapshot's way, for the record
    assert _tables(b) == before
    # and the battle plays on as it would have: the next action is taken as before
    monkeypatch.undo()
    ap.step()
    assert len(s.entries) == entries + 1


def test_the_writes_are_noted_only_while_a_game_action_is_applied():
    s, ap = _battle_in_play(seed=3, steps=40)
    b = s.battle
    assert b._undo is None
    ap.step()
    assert b._undo is None
    copy = b.copy()
    assert copy._undo is None
    uid = next(iter(copy.units))
    copy.update_unit(uid, moved=2)                 # a trial battle notes nothing
    assert copy._undo is None and b._undo is None


def test_noting_never_outlives_the_action_whatever_fails(monkeypatch):
    """The dice made for the action failing (before the action is applied) leaves no
    noting behind: a battle left noting would take back later writes with a later
    failure."""
    import manager.session as session_module
    s, ap = _battle_in_play(seed=2, steps=10)
    b = s.battle

    def broken_dice(*args, **kwargs):
        raise RuntimeError("no dice")
    monkeypatch.setattr(session_module, "Dice", broken_dice)
    with pytest.raises(RuntimeError):
        s.execute(ga.EndPhase())
    assert b._undo is None
    monkeypatch.undo()
    ap.step()                                   # and play goes on, nothing noted after
    assert b._undo is None
