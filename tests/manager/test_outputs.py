"""Writing onto a full disk or into a read-only folder: a message naming the file, exit
status 2, and nothing left behind (no .tmp, .part, -wal, -shm, .lock)."""
import errno
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from manager.cli import main
from manager.simulate import fight
from manager.store import sqlite_file
from tests.manager.test_messages import LEFTOVERS, refused, run

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"
OOB = ROOT / "tests" / "data" / "austerlitz_oob.txt"


@pytest.fixture
def read_only_dir(tmp_path):
    """A folder nothing can be written into. chmod does not stop root (the tests may run
    as root), so there the folder is made immutable (chattr +i), which does."""
    d = tmp_path / "locked"
    d.mkdir()
    if os.geteuid() != 0:
        d.chmod(0o555)
        yield d
        d.chmod(0o755)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(d)]).returncode:
        pytest.skip("running as root without chattr: no way to make a folder read-only")
    try:
        probe = d / "probe"
        with pytest.raises(OSError):
            probe.write_text("x")
        yield d
    finally:
        subprocess.run(["chattr", "-i", str(d)])


def full_disk(monkeypatch, files=True):
    """Every file write reaching the disk fails as on a full disk (ENOSPC; `files`); SQLite's
    writes fail as SQLITE_FULL (its page limit is set at what the file holds now)."""
    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if files:
        monkeypatch.setattr(os, "fsync", no_space)
    real = sqlite_file.connect

    def tiny(path):
        db = real(path)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return db
    monkeypatch.setattr(sqlite_file, "connect", tiny)
    real_create = sqlite_file.create

    def create(path, schema, meta):
        db = real_create(path, schema, meta)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db
    monkeypatch.setattr(sqlite_file, "create", create)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    p = tmp_path_factory.mktemp("saved") / "b.berthier"
    fight(SKIRMISH, seed=3, save=p)
    return p


def outputs(folder: Path, saved: Path):
    """Each command that writes a file, aimed into `folder`."""
    return [("report", saved, "--html", folder / "r.html"),
            ("import-oob", OOB, "-o", folder / "s.toml"),
            ("campaign", "new", folder / "c.campaign", "--from", SKIRMISH),
            ("simulate", SKIRMISH, "--turns", "1", "--save", folder / "s.berthier")]


def test_a_read_only_folder_is_a_message(read_only_dir, saved, capsys):
    for args in outputs(read_only_dir, saved):
        err = refused(capsys, read_only_dir, *args, says=[str(read_only_dir)])
        assert "cannot" in err
    assert list(read_only_dir.iterdir()) == []


def test_a_full_disk_is_a_message(tmp_path, saved, capsys, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    full_disk(monkeypatch)
    for args in outputs(out, saved):
        err = refused(capsys, out, *args, says=[str(out)])
        assert "No space left on device" in err or "disk is full" in err, err
    assert list(out.iterdir()) == []


def test_campaign_fight_onto_a_full_disk_leaves_the_campaign_as_it_was(tmp_path, capsys,
                                                                         monkeypatch):
    assert main(["campaign", "new", str(tmp_path / "c.campaign"), "--from", str(SKIRMISH)]) == 0
    before = (tmp_path / "c.campaign").read_bytes()
    full_disk(monkeypatch, files=False)
    err = refused(capsys, tmp_path, "campaign", "fight", tmp_path / "c.campaign", "--simulate",
                  "-o", tmp_path / "b1.berthier", says=["disk is full"])
    assert (tmp_path / "c.campaign").read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if LEFTOVERS.search(p.name)]


def test_show_onto_a_full_output_is_a_message(tmp_path, capsys, monkeypatch):
    assert main(["campaign", "new", str(tmp_path / "c.campaign"), "--from", str(SKIRMISH)]) == 0

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    capsys.readouterr()
    monkeypatch.setattr("sys.stdout", Full())
    status = main(["campaign", "show", str(tmp_path / "c.campaign")])
    err = capsys.readouterr().err
    assert status == 2 and "No space left on device" in err and "Traceback" not in err


def test_a_library_entry_of_the_wrong_shape_is_a_message_and_can_be_removed(tmp_path, capsys,
                                                                             monkeypatch):
    from manager.errors import StoreError
    from manager.scenario_io import load_scenario
    from manager.store.oob_library import OobLibrary
    lib_path = tmp_path / "lib.berthier-lib"
    lib = OobLibrary(lib_path)
    b = load_scenario(SKIRMISH)
    lib.save_command(b, "b1", "Good")
    lib.db.execute("INSERT INTO library(name, kind, data) VALUES ('Odd', 'command', "
                   "'{\"commands\": [{\"units\": 3}]}')")
    lib.db.execute("INSERT INTO library(name, kind, data) VALUES ('Broken', 'command', '{x')")
    for name, says in (("Odd", "entry 'Odd' is damaged"), ("Broken", "not JSON")):
        with pytest.raises(StoreError, match=says):
            lib.actions_to_add(name, b, "blue", (30, 20))
    assert lib.actions_to_add("Good", b, "blue", (30, 20))
    lib.close()
    for name in ("Odd", "Broken"):
        status, err = run(capsys, "library", "--library", lib_path, "remove", name)
        assert status == 0, err
    status, err = run(capsys, "library", "--library", lib_path, "remove", "Nothing")
    assert status == 2 and "no entry 'Nothing'" in err and "Good" in err
    assert [e["name"] for e in OobLibrary(lib_path).entries()] == ["Good"]
