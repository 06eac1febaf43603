"""The command line: same seed, same bytes; errors as messages; the import writes whole files."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def run(*args, hashseed="0"):
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run([sys.executable, "-m", "manager.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env)


def test_simulate_json_is_byte_identical_for_a_seed():
    a = run("simulate", str(SKIRMISH), "--seed", "5", "--json", hashseed="1")
    b = run("simulate", str(SKIRMISH), "--seed", "5", "--json", hashseed="2")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert set(data) == {"scenario", "ruleset", "seed", "turns", "result", "sides"}
    assert data["seed"] == 5 and set(data["result"]) == {"winner", "reason"}
    cmd = data["sides"]["blue"]["commands"]["1st Brigade"]
    assert set(cmd) == {"units_start", "units_left", "units_eliminated", "hits_taken", "shaken",
                        "leader_lost", "units_to_come", "arrived_turn", "fought"}
    assert cmd["units_start"] == 4


def test_errors_are_messages_not_tracebacks(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario\n")
    r = run("simulate", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "not valid TOML" in r.stderr


def test_import_oob_json_and_scenario(tmp_path):
    out = tmp_path / "oob.toml"
    r = run("import-oob", str(ROOT / "tests" / "data" / "austerlitz_oob.txt"), "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["total_units"] == 163
    assert run("check", str(out)).returncode == 0


def test_import_oob_error_writes_nothing(tmp_path):
    src = tmp_path / "bad.txt"
    src.write_text("T\nA - X\nC, Y\n3 Blorps\n")
    out = tmp_path / "never.toml"
    r = run("import-oob", str(src), "-o", str(out))
    assert r.returncode == 2 and "line 4" in r.stderr and not out.exists()


def test_rules_json_lists_morschauser_profiles():
    r = run("rules", "--json")
    data = json.loads(r.stdout)
    m = next(d for d in data if d["id"] == "morschauser")
    gren = next(p for p in m["profiles"] if p["kind"] == "grenadiers")
    assert (gren["move"], gren["hits"], gren["melee_front"], gren["melee_other"]) == (2, 6, 4, 2)
