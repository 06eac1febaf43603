"""Continuing is the same as never stopping: a battle reopened (or rewound by undo) at any
point and handed to the automatic commander ends exactly as the uninterrupted run."""
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.session import Session
from manager.simulate import fight

ROOT = Path(__file__).parent.parent.parent
SC = ROOT / "scenarios"


def continued(whole, n, turns):
    """The first n entries folded afresh (as a reopened file is), then the commander."""
    s = Session.replay(whole.initial_battle(), whole.entries[:n])
    Autopilot(s).play(turns)
    return s


def same(a, b):
    assert [e.action for e in a.entries] == [e.action for e in b.entries]
    assert [e.rolls for e in a.entries] == [e.rolls for e in b.entries]
    assert a.battle.fingerprint() == b.battle.fingerprint()


@pytest.fixture(scope="module")
def austerlitz():
    return fight(SC / "austerlitz.toml", seed=11, turns=4)


# Restarting in the middle of a Morschauser move phase used to re-plan the phase from the
# state at the restart, not as it began (352, 355, 358 diverged before the fix).
@pytest.mark.parametrize("n", [1, 2, 97, 200, 331, 352, 355, 358, 421, 500])
def test_austerlitz_continues_as_if_never_stopped(austerlitz, n):
    same(continued(austerlitz, n, 4), austerlitz)


@pytest.mark.parametrize("scenario, ruleset", [("hanau", "d3"), ("maida", "quickplay"),
                                               ("arcole", "harman"),
                                               ("quatre_bras", "featherstone")])
def test_every_ruleset_continues_as_if_never_stopped(scenario, ruleset):
    whole = fight(SC / f"{scenario}.toml", seed=3, turns=3)
    assert whole.battle.info.ruleset == ruleset
    n = len(whole.entries)
    for k in sorted({1, n // 5, n // 3, n // 2, 2 * n // 3, n - 2}):
        same(continued(whole, k, 3), whole)


@pytest.mark.parametrize("back", [1, 5, 23])
def test_undo_then_continue_is_the_uninterrupted_run(austerlitz, back):
    s = Session.replay(austerlitz.initial_battle(), austerlitz.entries[:360])
    pilot = Autopilot(s)
    for _ in range(back):
        s.undo()
    pilot.play(4)                       # the same pilot, its commander rewound with the log
    same(s, austerlitz)
