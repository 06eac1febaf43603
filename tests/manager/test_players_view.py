"""The players' view (issue 18): what the phones at the table are told matches the battle."""
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from manager.autopilot import Autopilot
from manager.net.players_view import page_html, players_state, state_json
from manager.scenario_io import load_scenario
from manager.session import Session

SCENARIOS = Path(__file__).parent.parent.parent / "scenarios"


def play_until(session, done, limit=5000):
    pilot = Autopilot(session)
    for _ in range(limit):
        if done(session.battle) or not pilot.step():
            break
    assert done(session.battle), "the automatic commander never got there"
    return session


@pytest.fixture(scope="module")
def austerlitz():
    """Austerlitz played by the automatic commander until a command is Shaken."""
    session = Session(load_scenario(SCENARIOS / "austerlitz.toml"))
    return play_until(session, lambda b: bool(b.state.shaken) and b.state.turn >= 3)


def test_units_hits_and_shaken_match_the_battle(austerlitz):
    b = austerlitz.battle
    before = b.fingerprint()
    state = json.loads(state_json(austerlitz))          # what the page really receives
    assert b.fingerprint() == before, "a view never changes the battle"
    shown = {u["id"]: u for u in state["units"]}
    on_table = {uid for uid, u in b.units.items() if not u.eliminated}
    assert set(shown) == on_table
    assert any(u.eliminated for u in b.units.values()), "some units were lost by turn 3"
    for uid in on_table:
        u, s = b.units[uid], shown[uid]
        assert (s["hits"], s["max_hits"], s["x"], s["y"], s["facing"]) == (
            u.hits, u.max_hits, round(u.x, 2), round(u.y, 2), u.facing)
        assert s["command"] == b.hierarchy.command_of(uid)
        assert ("shaken" in s["flags"]) == (s["command"] in b.state.shaken)
        assert ("disordered" in s["flags"]) == u.disordered
        assert s["w"] > 0 and s["d"] > 0
    assert any(u["hits"] < u["max_hits"] for u in state["units"]), "hits were taken"


def test_commands_and_army_morale_match_the_battle(austerlitz):
    b, h = austerlitz.battle, austerlitz.battle.hierarchy
    state = players_state(austerlitz)
    cmds = {c["id"]: c for c in state["commands"]}
    assert set(cmds) == set(b.commands)
    assert {c for c in cmds if cmds[c]["shaken"]} == set(b.state.shaken) != set()
    for cid, c in cmds.items():
        units = [b.units[u] for u in h.units_of(cid)]
        lost = sum(u.eliminated for u in units)
        assert (c["units"], c["lost"], c["live"]) == (len(units), lost, len(units) - lost)
        assert c["hits"] == sum(u.hits for u in units if not u.eliminated)
        assert c["hits_taken"] == sum(u.max_hits for u in units) - c["hits"]
        lid = h.leader_of_command(cid)
        if lid in b.leaders:
            lead = b.leaders[lid]
            assert (c["leader"]["name"], c["leader"]["x"], c["leader"]["y"]) == (
                lead.name, round(lead.x, 2), round(lead.y, 2))
    for side in state["sides"]:
        live_cmds = [c for c in h.commands_of(side["id"]) if h.units_of(c)]
        assert side["morale"]["commands"] == len(live_cmds)
        assert side["morale"]["shaken"] == sum(c in b.state.shaken for c in live_cmds)
        # Austerlitz plays army_morale = "half": an army concedes at half its commands
        assert side["morale"]["concedes_at"] == -(-len(live_cmds) // 2)


def test_turn_and_log_follow_the_session(austerlitz):
    b = austerlitz.battle
    state = players_state(austerlitz)
    t = state["turn"]
    assert (t["turn"], t["phase"], t["active"]) == (b.state.turn, b.state.phase, b.state.active)
    assert t["active_name"] == b.sides[b.state.active].name
    assert t["phase_label"] == austerlitz.ruleset.phase(b.state.phase).label
    assert t["to_act"] == len(austerlitz.ruleset.to_act(b))
    log = state["log"]
    assert log["index"] == len(austerlitz.entries)
    assert [line["index"] for line in log["lines"]] == list(
        range(len(austerlitz.entries) - len(log["lines"]) + 1, len(austerlitz.entries) + 1))
    last = austerlitz.entries[-1]
    assert log["lines"][-1]["text"] == "; ".join(e.describe() for e in last.events)


def test_a_bare_battle_has_the_state_and_an_empty_log():
    battle = load_scenario(SCENARIOS / "austerlitz.toml")
    state = players_state(battle)
    assert state["log"] == {"index": 0, "lines": []}
    assert not state["turn"]["started"]
    assert state["table"] == {"width": 120.0, "height": 90.0, "grid": 3.0}
    davout = next(c for c in state["commands"] if c["to_arrive"])
    assert "Raigern" in davout["arrival"] and davout["leader"]["arriving"]
    kinds = {f["kind"] for f in state["terrain"]}
    assert {"stream", "town", "lake", "road"} <= kinds
    for f in state["terrain"]:
        assert all(len(p) == 2 for p in f["points"])


def test_an_open_table_and_a_disordered_unit():
    """An inch ruleset on an open table: no grid, and a disordered unit flagged."""
    battle = load_scenario(SCENARIOS / "quatre_bras.toml")
    uid = sorted(battle.units)[0]
    battle.put_unit(replace(battle.units[uid], disordered=True))
    state = players_state(battle)
    assert state["table"]["grid"] is None
    unit = next(u for u in state["units"] if u["id"] == uid)
    assert "disordered" in unit["flags"]
    cmd = next(c for c in state["commands"] if uid in c["unit_ids"])
    assert cmd["disordered"] == 1


def test_the_page_is_self_contained_and_treats_names_as_text():
    page = page_html().decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "</html>" in page
    assert "state.json" in page and "<svg" in page
    # nothing fetched from elsewhere: no external scripts, styles, fonts or images
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"] * 2
    # a unit named "<script>" must show as its name: text goes in through textContent
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page


def test_a_hosts_laptops_still_acting_travel_with_the_state(austerlitz):
    plain = json.loads(state_json(austerlitz))
    assert "acting" not in plain
    told = json.loads(state_json(austerlitz, acting={
        "waiting": ["Sector A"], "done": ["Sector B"], "laptops": [{"name": "x"}]}))
    assert told["acting"] == {"waiting": ["Sector A"], "done": ["Sector B"]}
    assert "waiting for" in page_html().decode()
