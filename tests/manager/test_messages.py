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
