"""rules.common.chargers, the `charging` marks kept from the journal, and
charges_by_target read from it: what a scan of every live unit's marks gives (issue 17)."""
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from manager.model.forces import mark
from manager.rules import common

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def scan_chargers(battle) -> dict:
    return {u.id: mark(u, "charging") for u in battle.live_units() if mark(u, "charging")}


def scan_by_target(battle) -> dict:
    """charges_by_target as it was: every live unit's mark read."""
    out = {}
    for u in battle.live_units():
        t = mark(u, "charging")
        if t and t in battle.units and not battle.units[t].eliminated:
            out.setdefault(t, []).append(u.id)
    return {t: sorted(a) for t, a in sorted(out.items())}


def skirmish():
    from bench_common import SKIRMISH, scenario
    from manager.session import Session
    return Session(scenario(SKIRMISH, "featherstone", seed=1, turns=3)).battle


ops = st.lists(st.tuples(st.sampled_from(["charge", "clear", "kill", "drop", "other"]),
                         st.integers(0, 40), st.integers(0, 40)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_chargers_follow_marks_kills_and_drops_as_the_scan(steps):
    battle = skirmish()
    ids = sorted(battle.units)
    for op, i, j in steps:
        live = [u for u in sorted(battle.units) if not battle.units[u].eliminated]
        if not live:
            break
        uid, tid = live[i % len(live)], ids[j % len(ids)]
        if op == "charge":
            battle.mark_unit(uid, charging=tid)
        elif op == "clear":
            battle.mark_unit(uid, charging=None)
        elif op == "kill":
            battle.update_unit(uid, eliminated=True)
        elif op == "drop":
            battle.drop_unit(uid)
        else:
            battle.mark_unit(uid, other=j)
        assert common.chargers(battle) == scan_chargers(battle)
        assert common.charges_by_target(battle) == scan_by_target(battle)


@pytest.mark.parametrize("ruleset", ["featherstone", "d3", "quickplay"])
def test_charges_by_target_in_play_is_the_scan(ruleset, monkeypatch):
    """Every charges_by_target of three Austerlitz turns against the scan; some charge."""
    from bench_common import AUSTERLITZ, scenario
    from manager.autopilot import Autopilot
    from manager.session import Session

    plain, seen = common.charges_by_target, []

    def checked(battle):
        got = plain(battle)
        assert got == scan_by_target(battle)
        assert common.chargers(battle) == scan_chargers(battle)
        seen.append(bool(got))
        return got

    monkeypatch.setattr(common, "charges_by_target", checked)
    for name, mod in list(sys.modules.items()):
        if name.startswith("manager.rules.") and getattr(mod, "charges_by_target", None) \
                is plain:
            monkeypatch.setattr(mod, "charges_by_target", checked)
    s = Session(scenario(AUSTERLITZ, ruleset, seed=1, turns=3))
    ap = Autopilot(s)
    ap.step()
    while not s.battle.state.over and s.battle.state.turn <= 3:
        ap.play_turn()
    assert len(seen) > 5 and any(seen), (len(seen), sum(seen))
