"""Battle files: every action committed as it happens, reopened by replay, history kept."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from manager import game_actions as ga
from manager.autopilot import Autopilot
from manager.errors import StoreError
from manager.scenario_io import battle_from_dict, battle_to_dict, load_scenario
from manager.session import Session
from manager.simulate import fight
from manager.store import create_battle, open_battle
from manager.store.battle_file import load_battle

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"
AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml")) + [SKIRMISH]


def states(path):
    with sqlite3.connect(path) as c:
        return [tuple(r) for r in c.execute("SELECT position, verb, state FROM entries ORDER BY id")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_scenarios_round_trip_through_the_database_exactly(tmp_path, scenario):
    battle = load_scenario(scenario)
    f = create_battle(tmp_path / "b.berthier", Session(battle.copy()))
    f.close()
    back, _ = load_battle(tmp_path / "b.berthier")
    assert back.battle.fingerprint() == battle.fingerprint()
    assert battle_to_dict(back.battle) == battle_to_dict(battle)
    # and out to TOML again: the same scenario
    again = battle_from_dict(battle_to_dict(back.battle), "<again>")
    assert again.fingerprint() == battle.fingerprint()


def test_off_centre_pieces_on_a_grid_keep_their_exact_position(tmp_path):
    battle = load_scenario(SKIRMISH)
    lid = next(iter(battle.leaders))
    battle.update_leader(lid, x=battle.leaders[lid].x + 0.75)
    data = battle_to_dict(battle)
    assert battle_from_dict(data, "<t>").leaders[lid].x == battle.leaders[lid].x


def test_a_played_battle_reopens_to_the_same_state(tmp_path):
    path = tmp_path / "s.berthier"
    session = fight(SKIRMISH, seed=4, save=path)
    f = open_battle(path)
    assert f.session.battle.fingerprint() == session.battle.fingerprint()
    assert [e.action for e in f.session.entries] == [e.action for e in session.entries]
    assert [e.rolls for e in f.session.entries] == [e.rolls for e in session.entries]
    assert f.drift == [] and f.backup is None
    f.close()
    assert not Path(str(path) + "-wal").exists()     # closed cleanly: one file to share


def test_undone_entries_stay_in_the_file_marked(tmp_path):
    path = tmp_path / "u.berthier"
    s = Session(load_scenario(SKIRMISH))
    f = create_battle(path, s)
    s.execute(ga.StartBattle())
    for _ in range(3):
        s.execute(ga.EndPhase())
    s.undo()
    s.undo()
    assert [st for _, _, st in states(path)] == ["live", "live", "undone", "undone"]
    s.redo()                                   # the first of the two comes back
    assert [st for _, _, st in states(path)] == ["live", "live", "live", "undone"]
    f.close()
    # reopened: the redo stack is still there, and redo replays the recorded dice
    g = open_battle(path)
    assert len(g.session.entries) == 3 and len(g.session.redo_stack) == 1
    g.session.redo()
    g.session.undo()
    g.session.execute(ga.EndPhase())           # a new order drops what waited to be redone
    assert [st for _, _, st in states(path)] == ["live", "live", "live", "dropped", "live"]
    history = [(h["change"], h["position"]) for h in g.taken_back()]
    assert history == [("undo", 3), ("undo", 2), ("redo", 2), ("redo", 3), ("undo", 3),
                       ("drop", 3)]
    g.close()
    h = open_battle(path)
    assert len(h.session.entries) == 4 and h.session.redo_stack == []
    assert len(h.session.taken_back) == 1
    h.close()


def test_a_new_file_never_replaces_an_existing_one(tmp_path):
    path = tmp_path / "x.berthier"
    path.write_bytes(b"precious")
    with pytest.raises(StoreError, match="already exists"):
        create_battle(path, Session(load_scenario(SKIRMISH)))
    assert path.read_bytes() == b"precious"


def test_saving_mid_game_keeps_the_whole_log(tmp_path):
    s = Session(load_scenario(SKIRMISH))
    pilot = Autopilot(s)
    pilot.step()                                # StartBattle
    pilot.play_turn()
    s.undo()
    f = create_battle(tmp_path / "m.berthier", s)
    f.close()
    g = open_battle(tmp_path / "m.berthier")
    assert g.session.battle.fingerprint() == s.battle.fingerprint()
    assert len(g.session.redo_stack) == 1
    g.close()


def test_kill_9_loses_at_most_the_action_in_flight(tmp_path):
    path = tmp_path / "k.berthier"
    proc = subprocess.Popen([sys.executable, "-m", "manager.cli", "simulate", str(AUSTERLITZ),
                             "--seed", "11", "--save", str(path)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen, deadline = 0, time.monotonic() + 60
    while seen < 150 and time.monotonic() < deadline:
        if path.exists():
            try:
                with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
                    seen = c.execute("SELECT count(*) FROM entries").fetchone()[0]
            except sqlite3.Error:
                pass                               # the file is still being put in place
    assert proc.poll() is None, "the battle ended before it could be interrupted"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert seen >= 150
    f = open_battle(path)
    n = len(f.session.entries)
    assert n >= seen
    # the same seed fought to the end passes through exactly the reopened state
    whole = fight(AUSTERLITZ, seed=11)
    assert [e.action for e in whole.entries[:n]] == [e.action for e in f.session.entries]
    assert whole.state_at(n).fingerprint() == f.session.battle.fingerprint()
    # and the game goes on from there
    Autopilot(f.session).play()
    assert f.session.battle.fingerprint() == whole.battle.fingerprint()
    f.close()


def test_a_log_that_no_longer_replays_is_refused_by_entry(tmp_path):
    path = tmp_path / "r.berthier"
    fight(SKIRMISH, seed=2, save=path)
    with sqlite3.connect(path) as c:
        c.execute("UPDATE entries SET action = ? WHERE position = 5",
                  [json.dumps({"action": "__import__", "name": "os"})])
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"log entry 5 .*unknown action '__import__'"):
        open_battle(path)
    assert path.read_bytes() == before


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from random_play import candidates  # noqa: E402


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 1000),
       steps=st.lists(st.tuples(st.sampled_from(["do", "do", "do", "undo", "redo"]),
                                st.integers(0, 1000)), min_size=1, max_size=60))
def test_any_mix_of_orders_undo_and_redo_reopens_identically(tmp_path_factory, seed, steps):
    from dataclasses import replace
    path = tmp_path_factory.mktemp("prop") / "p.berthier"
    battle = load_scenario(SKIRMISH)
    battle.set_info(replace(battle.info, seed=seed))
    s = Session(battle)
    f = create_battle(path, s)
    s.execute(ga.StartBattle())
    undos = redos = 0
    for what, pick in steps:
        if what == "undo" and s.can_undo:
            s.undo()
            undos += 1
        elif what == "redo" and s.can_redo:
            s.redo()
            redos += 1
        elif what == "do" and not s.battle.state.over:
            options = candidates(s) or [ga.StartBattle()]   # an undo may reach the set-up
            s.execute(options[pick % len(options)])
    f.close()
    g = open_battle(path)
    assert g.session.battle.fingerprint() == s.battle.fingerprint()
    assert [e.action for e in g.session.redo_stack] == [e.action for e in s.redo_stack]
    changes = [h["change"] for h in g.taken_back()]
    assert changes.count("undo") == undos and changes.count("redo") == redos
    # everything waiting to be redone comes back exactly as it would have in memory
    while s.can_redo:
        s.redo()
        g.session.redo()
    assert g.session.battle.fingerprint() == s.battle.fingerprint()
    g.close()


def test_an_option_changed_in_the_editor_survives_the_file(tmp_path):
    from manager.editor_actions import SetOption
    s = Session(load_scenario(AUSTERLITZ))
    s.execute(SetOption("army_morale", "all"))          # the file said "half"
    f = create_battle(tmp_path / "o.berthier", s)
    f.close()
    back, _ = load_battle(tmp_path / "o.berthier")
    assert back.battle.info.options["army_morale"] == "all"
    assert back.battle.fingerprint() == s.battle.fingerprint()
    # and the battle as it stands, stored as a scenario, keeps the change too
    g = create_battle(tmp_path / "p.berthier", Session(s.battle.copy()))
    g.close()
    assert load_battle(tmp_path / "p.berthier")[0].battle.fingerprint() == s.battle.fingerprint()
