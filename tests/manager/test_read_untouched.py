"""A refused open changes nothing, and every read path leaves the file, its -wal and its
-shm exactly as they were (bytes and modification times)."""
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from manager.campaign.ledger import Campaign
from manager.errors import StoreError
from manager.scenario_io import load_scenario
from manager.simulate import fight
from manager.store import open_battle
from manager.store.battle_file import load_battle
from tests.manager.test_store_files import make_v1

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


def fingerprint(folder: Path) -> dict:
    """Every file in the folder: its bytes' hash and its modification time (ns)."""
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir()) if p.is_file()}


def crashed_copy(src: Path, folder: Path) -> Path:
    """A battle as a crash leaves it: the file, a WAL holding committed actions, and -shm.
    Made by copying the three files while a writer still has them open."""
    folder.mkdir()
    c = sqlite3.connect(src)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA wal_autocheckpoint=0")
    c.execute("INSERT INTO meta VALUES ('note', 'in the WAL')")   # something in the WAL
    c.commit()
    for suffix in ("", "-wal", "-shm"):
        shutil.copy2(str(src) + suffix, folder / (src.name + suffix))
    c.close()
    out = folder / src.name
    assert Path(str(out) + "-wal").stat().st_size > 0
    return out


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "b.berthier"
    fight(SKIRMISH, seed=3, save=path)
    return path


def cli(*args):
    return subprocess.run([sys.executable, "-m", "manager.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)


@pytest.mark.parametrize("crashed", [False, True], ids=["closed", "crash-left-wal"])
def test_every_read_path_leaves_file_wal_and_shm_untouched(saved, tmp_path, crashed):
    path = crashed_copy(saved, tmp_path / "crash") if crashed else saved
    before = fingerprint(path.parent)
    session, meta = load_battle(path)
    assert meta.get("note") == ("in the WAL" if crashed else None)   # the WAL's commit is read
    view = open_battle(path, read_only=True)
    assert view.session.battle.fingerprint() == session.battle.fingerprint()
    view.close()
    for args in (("report", path), ("report", path, "--json"),
                 ("report", path, "--html", tmp_path.parent / f"{tmp_path.name}-r.html")):
        r = cli(*args)
        assert r.returncode == 0, r.stderr
    assert fingerprint(path.parent) == before


def test_campaign_show_leaves_the_campaign_untouched(tmp_path):
    c = Campaign.create(tmp_path / "c.campaign", load_scenario(SKIRMISH))
    c.close()
    before = fingerprint(tmp_path)
    r = cli("campaign", "show", tmp_path / "c.campaign", "--json")
    assert r.returncode == 0, r.stderr
    Campaign.view(tmp_path / "c.campaign").close()
    assert fingerprint(tmp_path) == before


def refused_untouched(path, match):
    before = fingerprint(path.parent)
    for opener in (open_battle, load_battle):
        with pytest.raises(StoreError, match=match) as info:
            opener(path)
        assert str(path) in str(info.value)
    assert fingerprint(path.parent) == before


def test_an_older_file_that_will_be_refused_is_neither_upgraded_nor_backed_up(tmp_path):
    path = tmp_path / "old.berthier"
    make_v1(path)
    c = sqlite3.connect(path)
    c.execute("UPDATE entries SET action = '{\"verb\": \"NoSuchVerb\"}' WHERE position = 3")
    c.commit()
    c.close()
    refused_untouched(path, "log entry 3")
    assert not list(tmp_path.glob("*.bak"))


def test_a_rollback_journal_file_refused_keeps_its_header(saved):
    c = sqlite3.connect(saved)
    c.execute("PRAGMA journal_mode=DELETE")
    c.execute("PRAGMA user_version = 99")
    c.close()
    assert saved.read_bytes()[18:20] == b"\x01\x01"        # rollback journal in the header
    refused_untouched(saved, "newer Berthier")


def test_an_added_trigger_is_refused(saved):
    c = sqlite3.connect(saved)
    c.execute("CREATE TRIGGER erase AFTER INSERT ON entries BEGIN DELETE FROM entries; END")
    c.commit()
    c.close()
    refused_untouched(saved, r"trigger 'erase'.*did not create")


@pytest.mark.parametrize("sql", ["CREATE VIEW v AS SELECT 1",
                                 "CREATE TABLE notes(x)",
                                 "CREATE INDEX sneaky ON units(name)"])
def test_other_added_schema_objects_are_refused(saved, sql):
    c = sqlite3.connect(saved)
    c.execute(sql)
    c.commit()
    c.close()
    refused_untouched(saved, "did not create")


def test_an_accepted_upgrade_is_renamed_into_place_after_the_backup(tmp_path):
    path = tmp_path / "old.berthier"
    make_v1(path)
    original = path.read_bytes()
    inode = os.stat(path).st_ino
    f = open_battle(path)
    f.close()
    assert Path(f.backup).read_bytes() == original
    assert os.stat(path).st_ino != inode                  # a new file, put in place whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.berthier", "old.berthier.v1.bak"]
