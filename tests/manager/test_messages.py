"""A message, never a traceback: each bad input names the file, the place and what was
expected; exit status 2; nothing left behind (.tmp, .part, -wal, -shm)."""
import json
import re
import sqlite3
from pathlib import Path

import pytest

from manager.cli import main
from manager.simulate import fight

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"
LEFTOVERS = re.compile(r"(\.tmp|\.part|-wal|-shm|\.lock|\.upgrade)$")


def run(capsys, *args):
    """`berthier ARGS` in this process: (status, stderr)."""
    capsys.readouterr()
    status = main([str(a) for a in args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


def refused(capsys, folder, *args, says=()):
    """Exit 2 with a message saying each of `says`; the folder keeps no leftovers and
    every file in it is byte-identical."""
    before = {p.name: p.read_bytes() for p in Path(folder).iterdir() if p.is_file()}
    status, err = run(capsys, *args)
    assert status == 2, err
    for s in says:
        assert re.search(s, err), (s, err)
    after = {p.name: p.read_bytes() for p in Path(folder).iterdir() if p.is_file()}
    assert after == before
    assert not [p for p in Path(folder).iterdir() if LEFTOVERS.search(p.name)]
    return err


def scenario(tmp_path, text_or_edit) -> Path:
    text = SKIRMISH.read_text()
    text = text_or_edit(text) if callable(text_or_edit) else text_or_edit
    p = tmp_path / "s.toml"
    p.write_text(text)
    return p


# ---- scenarios -----------------------------------------------------------------------------
def test_deeply_nested_toml_is_a_message(tmp_path, capsys):
    p = scenario(tmp_path, "x = " + "[" * 5000 + "]" * 5000 + "\n")
    for cmd in ("check", "simulate"):
        refused(capsys, tmp_path, cmd, p, says=[str(p), "nested too deeply"])


@pytest.mark.parametrize("edit, key", [
    (lambda t: t.replace("width = 60", "width = nan"), r"table\.width: expected a finite"),
    (lambda t: t.replace("grid = 3", "grid = inf"), r"table\.grid: expected a finite"),
    (lambda t: t.replace("[[40.5, 15], [40.5, 45]]", "[[40.5, nan], [40.5, 45]]"),
     r"terrain\[3\]\.points\[0\]: expected \[x, y\] in finite inches"),
    (lambda t: t.replace("at = [1, 7] }", "pos = [inf, 3] }", 1),
     r"sides\[0\]\.general\.pos: expected two finite numbers"),
])
def test_nan_or_infinite_numbers_name_their_key(tmp_path, capsys, edit, key):
    p = scenario(tmp_path, edit)
    refused(capsys, tmp_path, "check", p, says=[str(p), key])


@pytest.mark.parametrize("orders, says", [
    ("orders = 3", r"commands\[0\]\.orders: expected a table, got 3"),
    ("orders = { kind = \"charge\" }", r"orders\.kind: expected one of attack, hold, reserve"),
    ("orders = { objective = [1] }", r"orders\.objective: expected two finite numbers"),
    ("orders = { objective = \"the mill\" }", r"orders\.objective: expected a list"),
    ("orders = { kind = \"reserve\", release_turn = \"soon\" }",
     r"orders\.release_turn: expected a whole number"),
    ("orders = { go = 1 }", r"orders\.go: unknown key"),
])
def test_orders_are_checked_by_check_so_simulate_never_crashes(tmp_path, capsys, orders, says):
    p = scenario(tmp_path, lambda t: t.replace('name = "1st Brigade"\n',
                                               f'name = "1st Brigade"\n{orders}\n', 1))
    for cmd in ("check", "simulate"):
        refused(capsys, tmp_path, cmd, p, says=[str(p), r"sides\[0\]\.commands\[0\]", says])


# ---- battle files --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("played") / "g.berthier"
    fight(SKIRMISH, seed=3, save=path)
    return path.read_bytes()


def battle(tmp_path, played, *sql) -> Path:
    p = tmp_path / "b.berthier"
    p.write_bytes(played)
    c = sqlite3.connect(p)
    for statement in sql:
        c.execute(statement)
    c.commit()
    c.execute("PRAGMA journal_mode=DELETE")     # one file, as a user would send it
    c.close()
    return p


FIRST_FIRE = "(SELECT min(id) FROM entries WHERE verb = 'Fire')"
BATTLE_CASES = {
    "bad JSON in events": (["UPDATE entries SET events = '{bad' WHERE position = 5"],
                           [r"log entry 5: events: expected JSON text"]),
    "bad UTF-8": (["UPDATE entries SET verb = CAST(X'FFFE41' AS TEXT) WHERE position = 5"],
                  [r"table entries, row 6 cannot be read"]),
    "bad UTF-8 in a unit": (["UPDATE units SET name = CAST(X'FFFE41' AS TEXT) WHERE ord = 0"],
                            [r"table units, row 1 cannot be read"]),
    "a dropped log column": (["ALTER TABLE entries DROP COLUMN turn"],
                             [r"table entries: column\(s\) turn missing"]),
    "a dropped unit column": (["ALTER TABLE units DROP COLUMN facing"],
                              [r"table units: column\(s\) facing missing"]),
    "deeply nested JSON": (["UPDATE entries SET action = '" + "[" * 50000 + "]" * 50000
                            + "' WHERE position = 5"],
                           [r"log entry 5 \(entries row 6\): action: nested too deeply"]),
    "a die face out of range": ([f"UPDATE entries SET rolls = json_replace(rolls, '$[0].faces[0]', 9) "
                                 f"WHERE id = {FIRST_FIRE}"],
                                [r"log entry \d+ \(Fire\) no longer replays: .*faces? .*1 to 6|"
                                 r"log entry \d+ \(Fire\) no longer replays: .*9"]),
    "a unit that does not exist": ([f"UPDATE entries SET action = json_set(action, '$.unit', "
                                    f"'ghost') WHERE id = {FIRST_FIRE}"],
                                   [r"log entry \d+ \(Fire\) no longer replays: .*ghost"]),
    "a unit of no command": (["UPDATE units SET command = 'nowhere' WHERE ord = 0"],
                             [r"units row 'b1-inf1': command 'nowhere' is not in the commands"]),
    "a leader of no command": (["UPDATE leaders SET command = 'nowhere' WHERE id = 'b1-ldr'"],
                               [r"leaders row 'b1-ldr'"]),
    "rolls of the wrong shape": (["UPDATE entries SET rolls = '{\"a\": 1}' WHERE position = 5"],
                                 [r"log entry 5 \(entries row 6\): rolls: expected a list"]),
    "a position that is text": (["UPDATE entries SET position = 'x' WHERE position = 5"],
                                [r"entries row 6: position: expected a whole number"]),
    "an unknown entry state": (["UPDATE entries SET state = 'weird' WHERE position = 5"],
                               [r"entries row 6 \(log entry 5\): state: expected live"]),
}


@pytest.mark.parametrize("case", BATTLE_CASES, ids=list(BATTLE_CASES))
def test_damaged_battle_files_are_a_message_naming_the_place(tmp_path, capsys, played, case):
    sql, says = BATTLE_CASES[case]
    p = battle(tmp_path, played, *sql)
    for args in (("report", p), ("report", p, "--json")):
        refused(capsys, tmp_path, *args, says=[str(p), *says])


def test_report_after_the_umpire_removed_a_unit_that_took_hits(tmp_path, capsys):
    from manager import editor_actions as ea
    from manager.autopilot import Autopilot
    from manager.report_html import battle_report_html
    from manager.scenario_io import load_scenario
    from manager.session import Session
    from manager.simulate import hits_by_unit
    from manager.store import create_battle
    s = Session(load_scenario(SKIRMISH))
    f = create_battle(tmp_path / "r.berthier", s)
    pilot = Autopilot(s)
    while not [u for u in hits_by_unit(s) if u in s.battle.units
               and not s.battle.units[u].eliminated]:
        pilot.step()
    hit = next(u for u in hits_by_unit(s) if u in s.battle.units)
    s.execute(ea.RemoveUnit(hit))
    f.close()
    assert "<html" in battle_report_html(s).lower()
    capsys.readouterr()
    assert main(["report", str(tmp_path / "r.berthier")]) == 0
    assert "Result after" in capsys.readouterr().out
    status, _ = run(capsys, "report", tmp_path / "r.berthier", "--json")
    assert status == 0


def test_control_characters_in_names_are_shown_escaped(tmp_path, capsys):
    p = scenario(tmp_path, lambda t: t.replace('name = "1st Brigade"',
                                               'name = "1st \\u001b[2J\\u001b[31mBrigade\\u009b"'))
    capsys.readouterr()
    assert main(["simulate", str(p), "--turns", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out
    assert "1st \\u001b[2J\\u001b[31mBrigade\\u009b" in out
    assert main(["simulate", str(p), "--turns", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)        # still JSON, the same name inside
    assert "1st \x1b[2J\x1b[31mBrigade\x9b" in data["sides"]["blue"]["commands"]
