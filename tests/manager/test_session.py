"""The one door: execute, undo, redo, replay, and all-or-nothing actions."""
import pytest

from builders import build, centre, session, unit
from manager import game_actions as ga
from manager.errors import DiceError, IllegalAction
from manager.session import LogEntry, Session

UNITS = [unit("b", "blue", "light_infantry", (5, 5)), unit("r", "red", "line_infantry", (7, 5)),
         unit("c", "blue", "line_infantry", (5, 7))]


def test_undo_restores_the_state_and_the_dice_counter():
    s, src = session(build(UNITS), [6, 6, 6])
    before = s.battle.fingerprint()
    s.execute(ga.Fire("b", "r"))
    assert s.battle.state.dice_seq == 2 and s.battle.units["r"].hits < 5
    s.undo()
    assert s.battle.fingerprint() == before and s.battle.state.dice_seq == 1


def test_redo_replays_the_recorded_dice_nobody_rerolls():
    s, src = session(build(UNITS), [6, 6, 6])
    s.execute(ga.Fire("b", "r"))
    after = s.battle.fingerprint()
    s.undo()
    s.redo()                                     # the queue is empty: only the log's faces can serve
    assert s.battle.fingerprint() == after
    assert s.entries[-1].rolls[0].faces == (6, 6, 6)


def test_a_new_action_after_undo_clears_redo_but_the_undone_entry_is_kept():
    s, src = session(build(UNITS), [6, 6, 6])
    s.execute(ga.Fire("b", "r"))
    s.undo()
    s.execute(ga.MoveUnit("c", centre((6, 7)), 90))
    assert not s.can_redo and len(s.taken_back) == 1


def test_a_refused_die_leaves_nothing_half_done():
    s, src = session(build(UNITS), [6, 6])       # light infantry needs three faces
    before = s.battle.fingerprint()
    with pytest.raises(DiceError, match="needs 3"):
        s.execute(ga.Fire("b", "r"))
    assert s.battle.fingerprint() == before
    assert len(s.entries) == 2                   # StartBattle and EndPhase only


def test_illegal_actions_are_refused_before_anything_changes():
    s, _ = session(build(UNITS))
    before = s.battle.fingerprint()
    with pytest.raises(IllegalAction):
        s.execute(ga.MoveUnit("b", centre((15, 5)), 90))
    assert s.battle.fingerprint() == before


def test_replay_of_the_log_reproduces_state_and_every_roll():
    b = build(UNITS)
    scenario = b.copy()
    s, _ = session(b, [6, 5, 1, 2, 3])
    s.execute(ga.Fire("b", "r"))
    s.execute(ga.MoveUnit("c", centre((6, 7)), 90))
    log = [LogEntry.from_dict(e) for e in s.log()]       # through the text form
    r = Session.replay(scenario, log)
    assert r.battle.fingerprint() == s.battle.fingerprint()
    assert [e.rolls for e in r.entries] == [e.rolls for e in s.entries]


def test_state_at_shows_the_battle_as_it_was():
    s, _ = session(build(UNITS), [6, 6, 6])
    s.execute(ga.Fire("b", "r"))
    earlier = s.state_at(2)
    assert earlier.units["r"].hits == 5 and s.battle.units["r"].hits < 5
    assert len(s.entries) == 3, "looking back changes nothing"


def test_undo_to_here_rewinds_several_entries():
    s, _ = session(build(UNITS), [6, 1, 1, 5])   # one hit, then a long-range die
    s.execute(ga.Fire("b", "r"))
    s.execute(ga.Fire("c", "r"))
    s.undo_to(2)
    assert len(s.entries) == 2 and s.battle.units["r"].hits == 5 and len(s.redo_stack) == 2


def test_undo_past_many_snapshots():
    s, _ = session(build(UNITS, turns=40), phase="rally")
    fps = [s.battle.fingerprint()]
    for _ in range(100):
        s.execute(ga.EndPhase())
        fps.append(s.battle.fingerprint())
    for k in range(100, 0, -1):
        s.undo()
        assert s.battle.fingerprint() == fps[k - 1]
