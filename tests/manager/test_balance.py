"""Balance at scale: the same seeds give the same battles on one core, on a pool of
processes and on a Dask cluster; --grid sweeps an option; the scenario is parsed once."""
import json
from pathlib import Path

import pytest

from manager import balance as bal
from manager.cli import main as cli
from manager.simulate import balance, fight, report, sweep

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def test_a_job_is_the_battle_fight_plays():
    sc = bal.read_scenario(SKIRMISH)
    assert bal.run_job((sc, 5, 3)) == report(fight(SKIRMISH, seed=5, turns=3))
    fs = bal.read_scenario(SKIRMISH, "featherstone")
    assert bal.run_job((fs, 2, 2)) == report(fight(SKIRMISH, "featherstone", seed=2, turns=2))


def test_same_seeds_same_results_whatever_the_workers():
    one = balance(SKIRMISH, 4, turns=3, progress=False, workers=1)
    two = balance(SKIRMISH, 4, turns=3, progress=False, workers=2)
    assert one == two and one["seeds"] == [1, 2, 3, 4]


def test_the_scenario_is_parsed_once_per_process(monkeypatch):
    import manager.scenario_io as sio
    calls = []
    real = sio.battle_from_dict
    monkeypatch.setattr(sio, "battle_from_dict", lambda *a, **k: calls.append(1) or real(*a, **k))
    bal._PARSED.clear()
    balance(SKIRMISH, 3, turns=1, progress=False, workers=1)
    assert len(calls) == 1


def test_on_a_dask_cluster_of_two_workers():
    pytest.importorskip("dask.distributed",
                        reason="Dask distributed is not installed (pip install -e \".[cluster]\")")
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = balance(SKIRMISH, 4, turns=2, progress=False, cluster=cluster.scheduler_address)
    assert remote == balance(SKIRMISH, 4, turns=2, progress=False, workers=1)


def test_cluster_address_that_answers_nothing_is_a_message(capsys):
    pytest.importorskip("dask.distributed", reason="Dask distributed is not installed")
    import manager.balance as b
    with pytest.raises(b.BerthierError, match="cannot reach"):
        # a short wait: the message is the same whether Dask gives up after 2 s or 30 s
        b._on_cluster("tcp://127.0.0.1:9", [], lambda: None, connect_timeout=2)


def test_grid_sweeps_an_option_on_the_same_seeds():
    g = sweep(SKIRMISH, 3, "army_morale", ["half", "all"], turns=3, progress=False, workers=1)
    assert [s["value"] for s in g["settings"]] == ["half", "all"]
    assert all(s["seeds"] == [1, 2, 3] for s in g["settings"])
    # each setting is what a plain balance under that option gives
    assert g["settings"][1]["wins"] == balance(SKIRMISH, 3, turns=3, progress=False, workers=1,
                                               options=(("army_morale", "all"),))["wins"]


def test_grid_on_the_command_line(capsys):
    assert cli(["simulate", str(SKIRMISH), "--runs", "2", "--turns", "2",
                "--grid", "army_morale=half,all", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert "2 battles a setting" in lines[0] and "blue wins (95% CI)" in lines[1]
    assert [l.split()[0] for l in lines[2:]] == ["half", "all"]
    assert "4/4 battles" in err                                   # the progress bar
    assert cli(["simulate", str(SKIRMISH), "--runs", "2", "--turns", "1", "--json",
                "--grid", "fire_arc=45,60", "--workers", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["option"] == "fire_arc" and [s["value"] for s in data["settings"]] == [45, 60]


@pytest.mark.parametrize("grid, says", [("nope=1,2", "unknown option 'nope'"),
                                        ("army_morale", "expected option=value1,value2"),
                                        ("army_morale=sometimes", "army_morale")])
def test_bad_grid_is_a_message(grid, says, capsys):
    assert cli(["simulate", str(SKIRMISH), "--runs", "2", "--grid", grid]) != 0
    assert says in capsys.readouterr().err


def test_grid_values_are_typed():
    assert bal.parse_grid("fire_arc=45, 60") == ("fire_arc", [45, 60])
    assert bal.parse_grid("formations=true,false") == ("formations", [True, False])
    assert bal.parse_grid("army_morale=half,all") == ("army_morale", ["half", "all"])


def test_battles_run_with_the_battle_gc_thresholds_and_the_callers_come_back(monkeypatch):
    """Fewer, larger collections while battles are fought (the same reports as under the
    default collector), and a run in the caller's process puts its thresholds back."""
    import gc
    seen = []
    real = bal.run_job
    monkeypatch.setattr(bal, "run_job", lambda job: seen.append(gc.get_threshold()) or real(job))
    before = gc.get_threshold()
    sc = bal.read_scenario(SKIRMISH, "quickplay")
    jobs = [(sc, 1, 2), (sc, 2, 2)]
    tuned = bal.run_jobs(jobs, workers=1)
    assert seen == [bal.BATTLE_GC] * 2 and gc.get_threshold() == before
    plain = [real(job) for job in jobs]                 # the default collector
    assert tuned == plain


def _side(*commands):
    """A side's report: (units_start, units_eliminated, units_to_come, hits_taken) per
    command."""
    return {"commands": {f"c{i}": {"units_start": s, "units_eliminated": e,
                                   "units_left": s - e, "units_to_come": t, "hits_taken": h}
                         for i, (s, e, t, h) in enumerate(commands)}}


def test_ahead_on_losses_is_the_smaller_share_of_the_units_that_came():
    # blue lost 3 of 10, red 2 of the 4 that came (2 more never arrived): blue is ahead
    r = {"result": {"winner": None}, "sides": {"blue": _side((10, 3, 0, 40)),
                                                "red": _side((4, 1, 0, 9), (2, 1, 2, 3))}}
    assert bal.losses(r["sides"]["red"]) == (0.5, 3.0)
    assert bal.ahead_on_losses(r) == "blue"
    # the same share lost: fewer hits taken per unit leads
    r["sides"]["blue"] = _side((10, 5, 0, 40))
    assert bal.ahead_on_losses(r) == "red"
    r["sides"]["blue"] = _side((10, 5, 0, 25))
    assert bal.ahead_on_losses(r) == "blue"
    r["sides"]["blue"] = _side((10, 5, 0, 30))
    assert bal.ahead_on_losses(r) is None                     # 1/2 and 3 hits a unit each


def test_undecided_battles_say_who_was_ahead_at_the_turn_limit(capsys):
    s = balance(SKIRMISH, 3, turns=2, progress=False, workers=1)
    u = s["undecided"]
    assert u["count"] == 3 and sum(u["ahead"].values()) == 3     # each counted once
    assert set(u["ahead"]) == set(s["wins"]) | {"even"}
    assert u["ahead"]["even"] < 3                                # two turns of fire tell
    assert cli(["simulate", str(SKIRMISH), "--runs", "3", "--turns", "2", "--workers", "1"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if "undecided" in l)
    words = ", ".join(f"{side} {k}" for side, k in u["ahead"].items() if side != "even")
    assert f"(ahead on losses at the turn limit: {words}, even {u['ahead']['even']})" in line
