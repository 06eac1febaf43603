"""Issue 17, sixth session: Featherstone's engaged units read from the chargers view kept
from the change journal, and a unit's own base read from its memo (spatial.own_base),
answer as the plain scan and the plain build do at every step of play."""
from __future__ import annotations

import sys

from play_checks import ROOT
from manager.autopilot import Autopilot
from manager.model.forces import mark
from manager.rules.featherstone import state
from manager.session import Session


def plain_engaged(battle) -> frozenset:
    ids = set()
    for u in battle.live_units():
        t = mark(u, "charging")
        if t:
            ids.update((u.id, t))
    return frozenset(ids)


def test_engaged_and_own_bases_are_the_plain_ones_in_play():
    """Every step of 3 Austerlitz turns: the engaged ids are the scan of every live
    unit's charging mark, and each live unit's base (asked twice: the build, then the
    memo's answer) is the one built afresh; some steps have units engaged."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_common import AUSTERLITZ, scenario
    s = Session(scenario(AUSTERLITZ, "featherstone", seed=1, turns=3))
    ap = Autopilot(s)
    steps = engaged_steps = 0
    while not s.battle.state.over and s.battle.state.turn <= 3 and ap.step():
        b = s.battle
        ids = state._engaged_ids(b)
        assert ids == plain_engaged(b)
        engaged_steps += bool(ids)
        for u in b.live_units():
            assert state.engaged(b, u) == (u.id in ids)
            fresh = state._footprint(b, u, None, None, None, None)
            assert state.footprint(b, u) == fresh
            assert state.footprint(b, u) == fresh        # the memo's answer
        steps += 1
    assert steps > 100 and engaged_steps >= 5
