"""Benchmarks cannot rot: every script in benchmarks/ runs with tiny parameters.

`benchmarks/all.py --tiny` runs each script as its own process (--tiny --json) and
prints one table; an import error, a renamed function or a script that prints no
figures makes it exit 1. Timings are not asserted (a shared machine is noisy): the
figures' names and the issue's targets are.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
sys.path.insert(0, str(BENCH))


@pytest.fixture(scope="module")
def tiny_run():
    p = subprocess.run([sys.executable, str(BENCH / "all.py"), "--tiny", "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    return p


def test_every_script_is_run_by_all_py():
    import all as every
    # mechanics.py reports how often each mechanic occurs, not a timed figure: it has its
    # own test (tests/manager/test_mechanics_bench.py)
    scripts = {p.stem for p in BENCH.glob("*.py")} - {"all", "bench_common"}
    assert scripts == set(every.SCRIPTS), "a benchmark script all.py does not run"


def test_all_scripts_run_with_tiny_parameters(tiny_run):
    assert tiny_run.returncode == 0, tiny_run.stdout + tiny_run.stderr
    out = json.loads(tiny_run.stdout.strip().splitlines()[-1])
    assert out["failures"] == []
    by_script = {}
    for f in out["figures"]:
        by_script.setdefault(f["script"], []).append(f)
        assert f["value"] == f["value"] or f["figure"].startswith("exact odds"), f
        assert f["target"] == "" and f["ok"] is None           # tiny runs hold no target
    import all as every
    assert set(by_script) == set(every.SCRIPTS)


def test_the_issue_figures_are_all_reported(tiny_run):
    """Each figure of issue 17 is in the table (names as the full run prints them)."""
    names = [f["figure"] for f in json.loads(tiny_run.stdout.strip().splitlines()[-1])["figures"]]
    wanted = ["turn, morschauser", "turn, featherstone / morschauser", "turn, d3 / morschauser",
              "turn, quickplay / morschauser", "exact odds, featherstone Fire",
              "exact odds, d3 Fire", "exact odds, quickplay Fire",
              "judge a dragged move, featherstone", "Leipzig-size turn",
              "battles a minute, morschauser", "battles a minute, featherstone",
              "battles a minute, d3", "battles a minute, quickplay", "pan frame", "zoom frame",
              "zoom frame at its slowest zoom", "zoom frame CPU",
              "net: action round trip on loopback", "net: actions lost or duplicated",
              "net: host CPU per action"]
    for w in wanted:
        assert any(w in n for n in names), f"no figure for {w!r} in {names}"


def test_a_failing_script_fails_all_py(tmp_path, monkeypatch):
    import all as every
    monkeypatch.setattr(every, "HERE", tmp_path)
    (tmp_path / "run.py").write_text("import no_such_module_anywhere\n")
    figures, error = every.run_script("run", tiny=True)
    assert figures == [] and "run.py failed" in error and "no_such_module_anywhere" in error


def test_targets_are_judged():
    from bench_common import figure, table
    assert figure("t", 24.0, "ms", 25)["ok"] is True
    assert figure("t", 26.0, "ms", 25)["ok"] is False
    assert figure("r", 300.0, "/min", 300, at_least=True)["ok"] is True
    assert "MISSED" in table([figure("t", 26.0, "ms", 25)])


def test_leipzig_is_600_units_with_unique_ids():
    import leipzig
    data = leipzig.leipzig_data()
    ids = [u["id"] for s in data["sides"] for c in s["commands"] for u in c["units"]]
    assert len(ids) >= 600 and len(set(ids)) == len(ids)
    from manager.scenario_io import battle_from_dict
    b = battle_from_dict(data, "<leipzig>")
    assert len(b.units) == len(ids)
    # every copy stands on its own stretch of the table
    assert max(u.y for u in b.units.values()) > 3 * b.battlefield.height / 4


def test_instruction_counts_read_callgrind_dumps_and_refuse_other_files():
    import instructions_bench as ib
    dump = "# callgrind format\nversion: 1\nevents: Ir\nsummary: 123456\ntotals: 123456\n"
    assert ib.summary(dump) == 123456
    with pytest.raises(ValueError, match="cg.out.3: no 'summary:' line"):
        ib.summary("events: Ir\n", "cg.out.3")
    cmd = ib.callgrind_command(["python", "x.py"], Path("/tmp/cg.out"))
    assert "--zero-before=getppid" in cmd and "--dump-before=getpgrp" in cmd
    assert cmd[-2:] == ["python", "x.py"]


def test_estimated_cycles_weigh_each_simulated_miss_as_valgrind_does():
    import instructions_bench as ib
    dump = ("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
            "summary: 1000000 400 300 20 30 40 1 2 3 500 50 60 6\n")
    # Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr + DLmw)
    assert ib.estimated_cycles(dump) == 1000000 + 10 * (20 + 30 + 40 + 50 + 6) + 100 * 6
    with pytest.raises(ValueError, match="cg.out.2: no cache or branch events"):
        ib.estimated_cycles("events: Ir\nsummary: 5\n", "cg.out.2")
    with pytest.raises(ValueError, match="cg.out.4: no 'events:' and 'summary:'"):
        ib.estimated_cycles("summary: 5\n", "cg.out.4")
    cmd = ib.callgrind_command(["python", "x.py"], Path("/tmp/cg.out"), cycles=True)
    assert "--cache-sim=yes" in cmd and "--branch-sim=yes" in cmd
    assert "--cache-sim=yes" not in ib.callgrind_command(["python"], Path("/tmp/cg.out"))


def test_instruction_counts_cover_only_the_marked_work_or_say_why_not(monkeypatch):
    """With valgrind on the machine: a tiny program's count between the markers grows
    with the work done there, one count per dump marker, start-up excluded. Without it
    the benchmark times the turns and its figures say valgrind is missing."""
    import shutil
    import instructions_bench as ib
    if shutil.which("valgrind"):
        def work(n):
            return [sys.executable, "-S", "-c",
                    f"import os; os.getppid(); sum(range({n})); os.getpgrp(); "
                    f"sum(range({n})); os.getpgrp()"]
        small, _ = ib.counted(work(10))
        large, _ = ib.counted(work(100_000))
        assert len(small) == len(large) == 2
        assert small[0] < 100_000 < 2_000_000 < large[0]      # start-up not counted
        assert large[1] > 2_000_000
        cycles, _ = ib.counted(work(100_000), cycles=True)
        assert len(cycles) == 2 and cycles[0] > large[0]      # the misses on top
    monkeypatch.setattr(ib, "valgrind", lambda: None)
    monkeypatch.setattr(ib, "per_turn", lambda rs, turns, path, by_cpu, cycles=False: (
        [0.01 if by_cpu else 1e6], "CPU s" if by_cpu else "instructions"))
    got = ib.figures(turns=1, rulesets=("morschauser", "d3"))
    assert [f["figure"] for f in got] == ["Austerlitz CPU of 1 turns, morschauser",
                                          "Austerlitz CPU of 1 turns, d3",
                                          "Austerlitz CPU, d3 / morschauser"]
    assert all("valgrind is not on this machine" in f["note"] for f in got[:2])


def test_instruction_counts_run_the_child_with_string_hashing_fixed():
    import instructions_bench as ib
    env = ib.child_env()
    assert env["PYTHONHASHSEED"] == "0" and env["PATH"]
    assert env["OPENBLAS_NUM_THREADS"] == "1"          # no threads counted by chance
    p = subprocess.run([sys.executable, "-c", "print(hash('berthier'))"], env=env,
                       capture_output=True, text=True)
    q = subprocess.run([sys.executable, "-c", "print(hash('berthier'))"], env=env,
                       capture_output=True, text=True)
    assert p.stdout == q.stdout != ""


def test_rounds_take_turns_each_in_its_own_process_and_report_medians(monkeypatch):
    """--rounds: the rulesets alternate, each round's ratio is of that round's turns,
    and the figures are the medians (a burst of load on one round does not decide)."""
    import rulesets_bench as rb
    turns = {"morschauser": [0.010, 0.020, 0.012], "d3": [0.040, 0.040, 0.030]}
    calls = []

    def child(rs, tiny, n):
        k = sum(1 for c in calls if c == rs)
        calls.append(rs)
        return {"turn_s": [turns[rs][k]] * n, "wall_s": [0.0] * n, "odds": {},
                "drag": [], "units": 163}
    monkeypatch.setattr(rb, "in_child", child)
    got = {f["figure"]: f for f in rb.figures(turns=2, rulesets=("morschauser", "d3"),
                                              rounds=3)}
    assert calls == ["morschauser", "d3"] * 3
    ratio = got["Austerlitz turn, d3 / morschauser"]
    assert ratio["value"] == 2.5 and "2.00-4.00x" in ratio["note"]    # 4x, 2x, 2.5x
    assert got["Austerlitz turn, d3"]["value"] == 40.0               # not the mean 36.7
    assert got["Austerlitz turn, morschauser"]["value"] == 12.0


def test_a_round_plays_in_a_fresh_process():
    import rulesets_bench as rb
    r = rb.in_child("morschauser", tiny=True, turns=1)
    assert len(r["turn_s"]) == 1 and r["turn_s"][0] > 0 and r["units"] == 12
