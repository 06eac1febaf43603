"""Orders of battle as people write them (issue 19): indented, unindented, messy, several files."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from manager.errors import OobError
from manager.oob import Scale, import_files, import_texts, printable
from manager.oob_text import read_oob
from manager.scenario_io import battle_from_dict

ROOT = Path(__file__).parent.parent.parent
DATA = ROOT / "tests" / "data" / "oob"
SEED = ROOT / "tests" / "data" / "austerlitz_oob.txt"


def commands(result, army):
    return result.to_json()["armies"][army]["commands"]


def test_indented_listing_keeps_the_hierarchy_and_types():
    r = import_files([DATA / "iv_corps_indented.txt"])
    assert not r.problems and not r.skipped
    assert [a.name for a in r.armies] == ["French Army"]     # from !French 1809
    iv = commands(r, "French Army")["IV Corps"]
    assert iv["leader"] == "Massena"
    # 24 bases of foot and horse, 4 batteries (HvF, 2 MdF, LtH) as listed
    assert iv["listed"] == {"bases": 24, "batteries": 4}
    assert r.scale.describe() == "2 bases a unit"
    assert iv["by_kind"] == {"heavy_artillery": 1, "light_infantry": 4, "line_infantry": 6,
                             "rifles": 1, "foot_artillery": 1, "light_cavalry": 2,
                             "horse_artillery": 1}
    units = {u["name"]: u for u in r.to_json()["units"]}
    assert units["Baden Jäger"]["kind"] == "rifles" and units["Baden Jäger"]["traits"] == ["veteran"]
    assert units["Reserve Bty"]["kind"] == "heavy_artillery"


def test_division_level_makes_each_division_a_command():
    r = import_files([DATA / "iv_corps_indented.txt"], command_level="division")
    cmds = commands(r, "French Army")
    assert list(cmds) == ["Corps Artillery", "1st Division", "2nd Division",
                          "Light Cavalry Division"]
    assert cmds["1st Division"]["leader"] == "Legrand"
    assert cmds["1st Division"]["listed"] == {"bases": 9, "batteries": 1}


def test_every_game_unit_says_which_lines_made_it():
    r = import_files([DATA / "iv_corps_indented.txt"], scale="element")
    data = r.to_json()
    assert data["total_units"] == 12            # one unit per listed element (12 lines)
    legere = next(u for u in data["units"] if u["name"] == "26e Legere")
    assert legere["from"] == [{"file": str(DATA / "iv_corps_indented.txt"), "line": 7,
                               "share": 1.0}]
    pooled = import_files([DATA / "iv_corps_indented.txt"], scale="bases:3").to_json()
    # 18e (4 bases) and 4e (4) and 46e conscripts (4, a trait of their own) at 3 bases a unit
    line_units = [u for u in pooled["units"] if u["kind"] == "line_infantry"]
    assert all(u["from"] for u in line_units)
    shares = sum(f["share"] for u in line_units for f in u["from"] if f["line"] == 8)
    assert shares == pytest.approx(1.0, abs=1e-3)       # 18e Ligne wholly used


def test_unindented_listing_reads_headings_blank_lines_and_skips_prose():
    r = import_files([DATA / "portugal_unindented.txt"])
    assert not r.problems
    skipped = [s[1] for s in r.skipped]
    assert skipped == [1, 3, 4, 5, 24]          # title, the preamble paragraph, a note
    army = r.armies[0]
    assert (army.name, army.leader) == ("Army of Portugal", "Marmont")
    sixth = commands(r, "Army of Portugal")["6th Corps"]
    assert sixth["leader"] == "Clausel"
    assert sixth["listed"] == {"bases": 23, "batteries": 6}
    notes = {(n[1], n[2]) for n in r.notes}
    assert (11, "mixed (2nd light, 36th line): counted as line infantry") in notes
    div = import_files([DATA / "portugal_unindented.txt"], command_level="division")
    assert list(commands(div, "Army of Portugal")) == [
        "4th Division", "5th Division", "Cavalry", "Reserve Artillery"]
    assert commands(div, "Army of Portugal")["Cavalry"]["by_kind"] == {
        "heavy_cavalry": 2, "horse_artillery": 1}       # dragoons counted as heavy


def test_messy_text_is_read_and_every_guess_reported():
    r = import_files([DATA / "allies_messy.txt"], command_level="division")
    [problem] = r.problems
    assert (problem.line, problem.text) == (17, "Mystery Regiment - 4 bns blorps")
    assert "unknown troop type 'blorps'" in problem.message
    notes = {(n[1], n[2]) for n in r.notes}
    assert (11, "'hussards' read as 'hussars'") in notes            # a typo, reported
    assert (16, "'infantery' read as 'infantry'") in notes
    assert (12, "Uhlans Schwarzenberg: marked absent, left out") in notes
    assert (8, "Brigade Grill: marked absent, left out") in notes   # a detached division
    assert any(n[1] == 9 and "leader unknown or doubtful" in n[2] for n in r.notes)
    cmds = commands(r, "Austrian Army")
    assert cmds["Division Dedovich"]["units"] == 0
    assert cmds["Division Hohenlohe"]["by_kind"] == {"line_infantry": 3, "militia": 2,
                                                     "grenadiers": 1}
    assert cmds["Reserve cavalry"]["leader_doubtful"] is True
    # listed: what is present (8 + 8 squadrons); the absent uhlans are in the notes
    assert cmds["Reserve cavalry"]["listed"] == {"squadrons": 16}


def test_the_seed_listing_reads_as_before():
    old = read_oob(SEED).to_json()
    new = import_files([SEED]).to_json()
    assert new["total_units"] == old["total_units"] == 163
    for army, a in old["armies"].items():
        assert new["armies"][army]["leader"] == a["leader"]
        for name, c in a["commands"].items():
            n = new["armies"][army]["commands"][name]
            assert (n["leader"], n["units"], n["by_kind"]) == (c["leader"], c["units"],
                                                                c["by_kind"])
    b = battle_from_dict(import_files([SEED]).to_scenario(), "generated")
    assert len(b.units) == 163 and sum(u.fixed for u in b.units.values()) == 2


def test_two_files_make_two_armies_and_a_playable_scenario():
    r = import_files([DATA / "iv_corps_indented.txt", DATA / "allies_messy.txt"])
    assert [a.name for a in r.armies] == ["French Army", "Austrian Army"]
    b = battle_from_dict(r.to_scenario(), "two files")
    assert len(b.units) == r.total_units
    boxes = [(u.x, u.y) for u in b.units.values()]
    assert len(set(boxes)) == len(boxes)        # no two units in one box


def test_one_file_per_corps_joins_one_army_by_nation_or_by_flag():
    a = "!French\n!Indent 2\nI Corps - Victor\n  Div A - X\n    1st Ligne - 4 bases line\n"
    b = "!French\n!Indent 2\nII Corps - Oudinot\n  Div B - Y\n    2e Legere - 4 bases light\n"
    c = "III Corps - Davout\n  Div C - Z\n    3e Ligne - 4 bases line\n"
    r = import_texts([("a.txt", a), ("b.txt", b), ("c.txt", c)], armies={"c.txt": "French Army"})
    assert [a.name for a in r.armies] == ["French Army", "French Army"] or \
        [len(a.commands) for a in r.armies] == [3]
    assert sum(len(a.commands) for a in r.armies) == 3


def test_conflicting_nation_headers_split_the_armies_and_say_so():
    text = ("!French 1809\n!Indent 2\nIV Corps - Massena\n  Div - Legrand\n    26e - 3 bases light\n"
            "!Austrian 1809\nV Korps - Reuss\n  Div - X\n    IR 4 - 6 bns line\n")
    r = import_texts([("mixed.txt", text)])
    assert [a.name for a in r.armies] == ["French Army", "Austrian Army"]
    assert any("nation changes from france to austria" in n[2] for n in r.notes)


def test_too_many_or_too_few_armies_is_a_message_naming_them():
    r = import_files([DATA / "iv_corps_indented.txt"])
    with pytest.raises(OobError, match="a scenario needs two armies, the listings make 1: "
                                       "'French Army'"):
        r.to_scenario()


@pytest.mark.parametrize("text,message", [
    ("men:1,2", "expected men:INFANTRY,CAVALRY,GUNS"), ("bases:0", "must be positive"),
    ("furlongs", "unknown scale"), ("bases:x", "expected numbers")])
def test_bad_scales_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        Scale.parse(text)


def test_absurd_counts_and_pathological_lines_are_problems_in_linear_time():
    bad = ("!Indent 2\nA Corps - X\n  Div - Y\n    Huge - 9000000 bases line\n"
           "    Spaces - 1" + " " * 4000 + "bases line" + " " * 4000 + "(\n")
    t = time.perf_counter()
    r = import_texts([("bad.txt", bad)])
    assert time.perf_counter() - t < 2.0        # took minutes with the old pattern
    assert [p.line for p in r.problems] == [4]
    assert "more than any order of battle holds" in r.problems[0].message


def test_the_benchmark_runs_with_tiny_parameters():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import oob_bench
    r = oob_bench.measure(units=200, repeat=1)
    assert r["lines"] > 200 and r["indented_s"] > 0 and r["pathological_s"] > 0


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "manager.cli", "import-oob", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env)


def test_cli_reports_every_problem_and_writes_nothing_until_asked(tmp_path):
    out = tmp_path / "battle.toml"
    files = [str(DATA / "iv_corps_indented.txt"), str(DATA / "allies_messy.txt")]
    r = run_cli(*files, "-o", str(out), "--json")
    assert r.returncode == 2 and not out.exists()
    assert "allies_messy.txt: line 17: unknown troop type 'blorps'" in r.stderr
    report = json.loads(r.stdout)
    assert {"armies", "total_units", "skipped", "problems", "notes", "units"} <= set(report)
    cmd = report["armies"]["French Army"]["commands"]["IV Corps"]
    assert {"leader", "units", "listed"} <= set(cmd)
    r = run_cli(*files, "-o", str(out), "--skip-bad-lines", "--scale", "element")
    assert r.returncode == 0, r.stderr
    assert out.exists() and "units in 2 commands at one unit per listed element" in r.stderr


def test_cli_shows_control_characters_escaped(tmp_path):
    src = tmp_path / "evil.txt"
    src.write_text("!Indent 2\nA Corps - X\n  Div - Y\n    \x1b[31mRed - 4 bns blorps\n")
    r = run_cli(str(src))
    assert r.returncode == 2 and "\x1b" not in r.stderr and "\\x1b" in r.stderr
    assert printable("a\x07b") == "a\\x07b"


LINES = st.sampled_from([
    "!French 1809", "!Indent 2", "!Veteran", "!cavalry", "IV Corps - Massena", "1st Division",
    "  26e Legere - 3 bases veteran light", "    18e Ligne - 4 bases line", "Div Bty - MdF",
    "Brigade Fririon - 5 bases veteran (2nd light, 36th line)", "2 batteries medium horse artillery",
    "(absent)", "Army of X - Y?", "", "\t\tHussars 6 sqns", "3 Line Infantry", "plus",
    "Some prose about the battle that goes on for a while.", "2 more Foot Artillery"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(LINES, st.text(max_size=40)), max_size=30))
def test_any_text_gives_a_report_never_a_traceback(lines):
    text = "\n".join(lines)
    r = import_texts([("fuzz.txt", text)])
    n = max(1, len(text.splitlines()))
    for p in r.problems:
        assert p.file == "fuzz.txt" and 1 <= p.line <= n and p.message
    data = r.to_json()
    assert data["total_units"] == sum(c["units"] for a in data["armies"].values()
                                      for c in a["commands"].values())
    json.dumps(data)
