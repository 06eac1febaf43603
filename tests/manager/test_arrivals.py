"""Reinforcements: off the table until their turn (or their roll), brought on at the start
of their side's move through the Session, delayed when their entry is blocked, not
counted for morale until they come, replayed identically, booked only if they came."""
import copy
import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from manager import game_actions as ga
from manager.arrival_edit import SetArrival
from manager.arrivals import BringOnArrival, arrival_note, due_arrivals
from manager.autopilot import Autopilot
from manager.campaign import Campaign
from manager.campaign.reconstitute import close_battle
from manager.dice import QueueSource
from manager.errors import IllegalAction, ScenarioError
from manager.scenario_io import battle_from_dict, battle_to_dict
from manager.session import Session

BASE = """
[scenario]
name = "arrivals"
ruleset = "morschauser"
turns = 8
first_side = "a"
[table]
width = 60
height = 60
grid = 3
[[sides]]
id = "a"
name = "A"
home_edge = "west"
[[sides.commands]]
id = "c1"
name = "First"
leader = { id = "l1", name = "L1", quality = 3, at = [2, 2] }
units = [ { id = "u1", name = "U1", kind = "line_infantry", at = [3, 3], facing = 90 },
          { id = "u4", name = "U4", kind = "line_infantry", at = [3, 5], facing = 90 } ]
[[sides.commands]]
id = "c2"
name = "Second"
leader = { id = "l2", name = "L2", quality = 3, at = [2, 10] }
arrives = { turn = 2, at = [0, 10], name = "the Raigern road", delay_if_blocked = true }
units = [ { id = "u2", name = "U2", kind = "line_infantry", facing = 90 },
          { id = "u3", name = "U3", kind = "light_cavalry", facing = 90 } ]
[[sides]]
id = "b"
name = "B"
home_edge = "east"
[[sides.commands]]
id = "d1"
name = "Third"
leader = { id = "l3", name = "L3", quality = 3, at = [18, 3] }
units = [ { id = "v1", name = "V1", kind = "line_infantry", at = [15, 3], facing = 270 },
          { id = "v2", name = "V2", kind = "line_infantry", at = [15, 5], facing = 270, arrives = { turn = 1, roll = 4, at = [19, 19], to = [19, 15] } } ]
"""


def data():
    return tomllib.loads(BASE)


def battle(d=None):
    return battle_from_dict(d or data(), "<arrivals>")


def to_move(s, side, turn):
    """Advance with EndPhase until `side`'s move phase of `turn`."""
    b = s.battle
    if not b.state.started:
        s.execute(ga.StartBattle())
    while not (b.state.turn == turn and b.state.active == side and b.state.phase == "move"):
        s.execute(ga.EndPhase())


def test_arriving_units_are_off_the_table_and_the_order_of_battle_says_when():
    b = battle()
    assert "u2" not in b.units and "u3" not in b.units and "l2" not in b.leaders
    assert b.hierarchy.units_of("c2") == () and b.hierarchy.leader_of_command("c2") == ""
    assert set(b.all_units()) == {"u1", "u2", "u3", "u4", "v1", "v2"}
    assert arrival_note(b, "u2") == "arriving turn 2 at the Raigern road"
    assert arrival_note(b, "c2") == "arriving turn 2 at the Raigern road"
    assert arrival_note(b, "v2") == "arriving from turn 1 on a 4+"
    assert arrival_note(b, "u1") == ""


def test_a_command_arrives_on_its_turn_at_the_start_of_its_move():
    s = Session(battle(), QueueSource([1] * 40))
    to_move(s, "a", 1)
    assert due_arrivals(s.battle, s.ruleset) == []
    with pytest.raises(IllegalAction, match="arriving turn 2"):
        s.execute(BringOnArrival("c2"))
    to_move(s, "a", 2)
    s.check(BringOnArrival("c2"))
    s.execute(BringOnArrival("c2"))
    b = s.battle
    assert set(b.hierarchy.units_of("c2")) == {"u2", "u3"}
    assert b.hierarchy.leader_of_command("c2") == "l2" and "l2" in b.leaders
    # set down in the free boxes nearest the entry (box (0, 10))
    boxes = {(int(b.units[u].x // 3), int(b.units[u].y // 3)) for u in ("u2", "u3")}
    assert (0, 10) in boxes and all(abs(c) + abs(r - 10) <= 2 for c, r in boxes)
    assert b.pending[0].id == "v2" and len(b.pending) == 1


def test_from_a_turn_on_a_roll_with_typed_dice():
    src = QueueSource([])
    s = Session(battle(), src)
    s.execute(ga.StartBattle())     # first_side fixed: no dice
    to_move(s, "b", 1)
    src.push(3)                     # the umpire's die: 3, needs 4
    events = s.execute(BringOnArrival("v2"))
    assert "rolled 3, needed 4" in events[0].describe()
    assert s.battle.arrival_of("v2").due == 2 and "v2" not in s.battle.units
    with pytest.raises(IllegalAction):     # one try a turn
        s.execute(BringOnArrival("v2"))
    to_move(s, "b", 2)
    src.push(4)
    s.execute(BringOnArrival("v2"))
    roll = s.entries[-1].rolls[0]
    assert roll.faces == (4,) and "arrival" in roll.purpose
    v2 = s.battle.units["v2"]                        # on the stretch (19, 15)-(19, 19)
    assert int(v2.x // 3) == 19 and 15 <= int(v2.y // 3) <= 19


def test_a_blocked_entry_delays_them_a_turn_when_the_scenario_says_so():
    d = data()
    d["sides"][1]["commands"][0]["units"][0]["at"] = [1, 10]     # the enemy on the road
    s = Session(battle(d), QueueSource([1] * 40))
    to_move(s, "a", 2)
    events = s.execute(BringOnArrival("c2"))
    assert "blocked by V1" in events[0].describe()
    assert s.battle.arrival_of("c2").next_turn == 3 and not s.battle.hierarchy.units_of("c2")
    # without the delay they come on anyway, in the nearest room away from the entry
    d["sides"][0]["commands"][1]["arrives"]["delay_if_blocked"] = False
    s = Session(battle(d), QueueSource([1] * 40))
    to_move(s, "a", 2)
    s.execute(BringOnArrival("c2"))
    assert set(s.battle.hierarchy.units_of("c2")) == {"u2", "u3"}


def test_the_umpire_places_them_and_a_bad_spot_is_refused():
    s = Session(battle(), QueueSource([1] * 40))
    to_move(s, "a", 2)
    with pytest.raises(IllegalAction, match="name a spot for each"):
        s.execute(BringOnArrival("c2", (("u2", 1.5, 31.5),)))
    with pytest.raises(IllegalAction, match="more than"):
        s.execute(BringOnArrival("c2", (("u2", 1.5, 31.5), ("u3", 58.5, 31.5))))
    with pytest.raises(IllegalAction, match="one unit a box"):
        s.execute(BringOnArrival("c2", (("u2", 1.5, 31.5), ("u3", 1.5, 31.5))))
    s.execute(BringOnArrival("c2", (("u2", 1.5, 31.5), ("u3", 4.5, 34.5))))
    assert s.battle.units["u3"].pos == (4.5, 34.5)
    s.undo()
    assert "u3" not in s.battle.units and s.battle.arrival_of("c2") is not None


def test_absent_units_do_not_count_for_command_or_army_morale():
    b = battle()
    h = b.hierarchy
    # with c2 off the table the army of A is c1 alone: c1 Shaken breaks it even on 'all'
    assert h.army_broken("a", {"c1"}, "all")
    # v2 off the table: V1 alone makes up Third, so losing it is half (and all) its units
    assert h.losses_shake("d1", lambda u: u == "v1")
    s = Session(b, QueueSource([6] * 40))
    to_move(s, "a", 2)
    s.execute(BringOnArrival("c2"))
    assert not s.battle.hierarchy.army_broken("a", {"c1"}, "all")


def test_a_replay_brings_them_on_identically():
    b = battle()
    s = Session(b)
    Autopilot(s).play(max_turns=5)
    assert any(e.action.verb == "BringOnArrival" and e.rolls for e in s.entries)
    again = Session.replay(battle(), s.entries)
    assert again.battle.fingerprint() == s.battle.fingerprint()


def test_the_scenario_round_trips_its_arrivals():
    b = battle()
    d = battle_to_dict(b)
    c2 = d["sides"][0]["commands"][1]
    assert c2["arrives"] == {"turn": 2, "at": [0, 10], "name": "the Raigern road",
                             "delay_if_blocked": True}
    assert c2["leader"]["id"] == "l2" and [u["id"] for u in c2["units"]] == ["u2", "u3"]
    assert battle_from_dict(d).fingerprint() == b.fingerprint()


@pytest.mark.parametrize("where,value,message", [
    ("turn", 0, "turn: expected the turn they arrive"),
    ("roll", 7, "roll: expected the D6 score"),
    ("at", [99, 0], "off the 60 x 60 table"),
    ("when", 1, "unknown key"),
])
def test_bad_arrivals_are_refused_with_the_key(where, value, message):
    d = data()
    d["sides"][0]["commands"][1]["arrives"][where] = value
    with pytest.raises(ScenarioError, match=message) as exc:
        battle(d)
    assert "sides[0].commands[1].arrives" in str(exc.value)


def test_an_arrival_on_a_command_and_its_unit_is_refused():
    d = data()
    d["sides"][0]["commands"][1]["units"][0]["arrives"] = {"turn": 3, "at": [0, 0]}
    with pytest.raises(ScenarioError, match="not both"):
        battle(d)


def test_the_editor_sets_and_clears_an_arrival_undoably():
    s = Session(battle())
    before = s.battle.fingerprint()
    s.execute(SetArrival("u1", 3, 0, "the Olmütz road", ((1.5, 1.5),)))
    assert "u1" not in s.battle.units and arrival_note(s.battle, "u1") == \
        "arriving turn 3 at the Olmütz road"
    s.undo()
    assert s.battle.fingerprint() == before
    with pytest.raises(IllegalAction, match="arrives with its command"):
        s.execute(SetArrival("u2", 3, 0, "", ((1.5, 1.5),)))
    s.execute(SetArrival("c2", 4, 5, "the lane", ((1.5, 1.5), (1.5, 10.5))))
    assert arrival_note(s.battle, "c2") == "arriving from turn 4 on a 5+ at the lane"
    s.execute(SetArrival("v2", 0))                   # back where its record stood
    assert s.battle.units["v2"].pos == (46.5, 16.5) and "v2" in s.battle.hierarchy.units_of("d1")
    s.execute(ga.StartBattle())
    with pytest.raises(IllegalAction, match="before the battle begins"):
        s.execute(SetArrival("u1", 3, 0, "", ((1.5, 1.5),)))


def test_the_campaign_books_the_arrived_and_not_the_absent(tmp_path):
    c = Campaign.create(tmp_path / "c.campaign", battle(), "Test", 1)
    assert {"u2", "u3", "v2"} <= set(c.units())        # mustered although still to come
    assert c.leaders()["l2"]["command"] == "c2"
    s = Session(battle(), QueueSource([3] * 60))    # v2 never rolls its 4
    to_move(s, "a", 2)
    s.execute(BringOnArrival("c2"))
    s.battle.set_state(over=True, winner="a", reason="test")
    # c2 arrived; strike u2 to see a loss booked, v2 never arrived: no row at all
    s.battle.update_unit("u2", hits=0, eliminated=True)
    close_battle(c, s, {"campaign_id": c.meta["id"], "campaign_battle": "1"}, force=True)
    rows = list(c.db.query("SELECT unit, kind, points FROM ledger WHERE battle = 1"))
    assert ("u2", "loss") in {(r["unit"], r["kind"]) for r in rows}
    assert not [r for r in rows if r["unit"] == "v2"]
    assert c.strength()["v2"] == battle().all_units()["v2"].hits


def test_the_battle_file_keeps_the_arrivals(tmp_path):
    from manager.store import create_battle
    from manager.store.battle_file import load_battle
    s = Session(battle())
    f = create_battle(tmp_path / "a.berthier", s)
    s.execute(ga.StartBattle())
    f.close()
    got, _ = load_battle(tmp_path / "a.berthier")
    assert got.battle.pending and got.battle.fingerprint() == s.battle.fingerprint()


@settings(max_examples=15, deadline=None)
@given(turn=st.integers(1, 4), roll=st.integers(0, 6).filter(lambda r: r != 1),
       seed=st.integers(1, 10_000))
def test_arrivals_always_come_on_their_turn_or_later_and_never_before(turn, roll, seed):
    d = data()
    d["scenario"]["seed"] = seed
    d["sides"][0]["commands"][1]["arrives"].update(turn=turn, roll=roll)
    s = Session(battle(d))
    Autopilot(s).play(max_turns=6)
    came = [e for e in s.entries if e.action.verb == "BringOnArrival" and e.action.arrival == "c2"
            and e.events and "arrive" in e.events[0].describe() and "expected" not in
            e.events[0].describe()]
    assert all(e.turn >= turn for e in came)
    if not roll and not s.battle.state.over and s.battle.state.turn > turn:
        assert came and came[0].turn == turn
