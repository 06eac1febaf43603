"""The order-of-battle library: save a command or an army, set it down in another battle."""
import subprocess
import sys
from pathlib import Path

import pytest

from manager.errors import IllegalAction, StoreError
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.store.oob_library import OobLibrary, data_dir

ROOT = Path(__file__).parent.parent.parent
AUSTERLITZ = ROOT / "scenarios" / "austerlitz.toml"
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


@pytest.fixture
def lib(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTHIER_DATA", str(tmp_path / "data"))
    library = OobLibrary()
    yield library
    library.close()


def test_the_library_lives_in_the_data_folder(lib, tmp_path):
    assert data_dir() == tmp_path / "data" and lib.path.parent == tmp_path / "data"


def test_a_command_is_set_down_facing_the_way_asked(lib):
    source = load_scenario(AUSTERLITZ)
    cid = "i-corps"
    lib.save_command(source, cid, "Vandamme's division")
    # where a piece may not stand, the editor's own check says so
    crowded = Session(load_scenario(SKIRMISH))
    with pytest.raises(IllegalAction, match="one unit a box"):
        for a in lib.actions_to_add("Vandamme's division", crowded.battle, "red", (45.0, 22.5), 270):
            crowded.execute(a)
    target = Session(load_scenario(SKIRMISH))
    n_units = len(target.battle.units)
    units = source.hierarchy.units_of(cid)
    actions = lib.actions_to_add("Vandamme's division", target.battle, "red", (24.0, 39.0), 270)
    for a in actions:
        target.execute(a)
    placed = [u for u in target.battle.units.values() if u.id not in load_scenario(SKIRMISH).units]
    assert len(target.battle.units) == n_units + len(units) == n_units + len(placed)
    assert {u.kind for u in placed} == {source.units[u].kind for u in units}
    # saved facing east (the French advance), set down facing west: every unit turned 180
    turned = {(source.units[u].facing + 180) % 360 for u in units}
    assert {u.facing for u in placed} == turned
    assert all(u.side == "red" for u in placed)
    # all of it is undoable: the log holds ordinary editor actions
    for _ in actions:
        target.undo()
    assert len(target.battle.units) == n_units


def test_an_army_brings_its_general_when_the_side_has_none(lib):
    source = load_scenario(AUSTERLITZ)
    lib.save_army(source, "french", "Grande Armée")
    entry = {e["name"]: e for e in lib.entries()}["Grande Armée"]
    assert entry["kind"] == "army" and entry["units"] == 81
    data = lib.entry("Grande Armée")
    assert data["general"]["name"] == source.leaders[source.sides["french"].general].name
    target = load_scenario(SKIRMISH)
    verbs = [a.verb for a in lib.actions_to_add("Grande Armée", target, "blue", (30, 20))]
    assert verbs.count("AddCommand") == len(source.hierarchy.commands_of("french"))
    assert ("AppointGeneral" in verbs) == (not target.sides["blue"].general)


def test_unknown_entries_are_named(lib):
    with pytest.raises(StoreError, match="no entry 'Nobody' in the library"):
        lib.entry("Nobody")


def test_library_cli_saves_and_lists(tmp_path):
    env = {"BERTHIER_DATA": str(tmp_path), "PATH": "", "PYTHONPATH": str(ROOT)}
    run = lambda *a: subprocess.run([sys.executable, "-m", "manager.cli", "library", *a],  # noqa: E731
                                    capture_output=True, text=True, cwd=ROOT, env=env)
    r = run("save", str(AUSTERLITZ), "--army", "allies", "--name", "Kutusov's army")
    assert r.returncode == 0, r.stderr
    out = run("list").stdout
    assert "army" in out and "Kutusov's army" in out and "82 units" in out
    bad = run("save", str(AUSTERLITZ), "--command", "nobody")
    assert bad.returncode == 2 and "no command 'nobody'" in bad.stderr
