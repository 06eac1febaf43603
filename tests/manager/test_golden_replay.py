"""A battle saved yesterday replays to the same state today, roll for roll."""
import json

from golden import GOLDEN, SKIRMISH, summary
from manager.scenario_io import load_scenario
from manager.session import LogEntry, Session


def test_the_recorded_skirmish_replays_to_its_recorded_state():
    data = json.loads(GOLDEN.read_text())
    log = [LogEntry.from_dict(e) for e in data["log"]]
    assert len(log) > 50 and sum(len(e.rolls) for e in log) > 20
    s = Session.replay(load_scenario(SKIRMISH), log)
    assert summary(s.battle) == data["final"]
    assert [e.to_dict()["events"] for e in s.entries] == [e["events"] for e in data["log"]]
