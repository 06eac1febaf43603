"""Files Berthier must refuse, untouched; an older schema upgraded after a backup."""
import sqlite3
from pathlib import Path

import pytest

from manager.errors import StoreError
from manager.simulate import fight
from manager.store import open_battle, sqlite_file
from manager.store.battle_file import entry_row, load_battle
from manager.store.battle_schema import BATTLE_SCHEMA, BATTLE_SCHEMA_V1
from manager.store.scenario_rows import write_scenario

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "good.berthier"
    fight(SKIRMISH, seed=3, save=path)
    return path


def poke(path, *sql):
    c = sqlite3.connect(path)
    for statement in sql:
        c.execute(statement)
    c.commit()
    c.close()


def refused(path, match):
    """Both ways of opening refuse with the file's name; the folder is left as it was."""
    before = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    for opener in (open_battle, load_battle):
        with pytest.raises(StoreError, match=match) as info:
            opener(path)
        assert str(path) in str(info.value)
    after = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    assert after == before


def test_a_text_file_is_refused(tmp_path):
    p = tmp_path / "notes.berthier"
    p.write_text("Austerlitz, turn 3: the Pratzen is ours\n")
    refused(p, "not an SQLite database")


def test_an_empty_file_is_refused(tmp_path):
    p = tmp_path / "empty.berthier"
    p.write_bytes(b"")
    refused(p, "not an SQLite database")


def test_another_programs_database_is_refused(tmp_path):
    p = tmp_path / "other.berthier"
    with sqlite3.connect(p) as c:
        c.execute("CREATE TABLE t(x)")
    refused(p, "not a Berthier file")


def test_a_truncated_battle_is_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(data[: len(data) // 3])
    refused(saved, "damaged|truncated")


def test_a_battle_cut_inside_its_header_is_refused(saved):
    saved.write_bytes(saved.read_bytes()[:60])
    refused(saved, "truncated")


def test_a_corrupted_battle_is_refused(saved):
    data = bytearray(saved.read_bytes())
    page = 4096
    for at in range(2 * page, len(data) - page, 3 * page):   # scribble over many pages
        data[at + 8: at + 200] = bytes(range(192))
    saved.write_bytes(bytes(data))
    refused(saved, "damaged")


def test_a_battle_from_a_newer_berthier_is_refused(saved):
    poke(saved, "PRAGMA user_version = 99")
    refused(saved, "newer Berthier .schema 99")


def test_a_campaign_is_not_a_battle(saved):
    poke(saved, "UPDATE meta SET value = 'campaign' WHERE key = 'kind'")
    refused(saved, "a Berthier campaign file, not a battle file")


def make_v1(path, undone_last=True):
    """A battle as the first schema wrote it: one `undone` flag per entry."""
    played = fight(SKIRMISH, seed=6)
    db = sqlite_file.create(path, BATTLE_SCHEMA_V1, {"scenario": "test"})
    with db.atomic():
        write_scenario(db, played.initial_battle())
        rows = []
        for e in played.entries:
            r = entry_row(e)
            rows.append({k: r[k] for k in ("position", "verb", "action", "rolls", "turn",
                                           "phase", "side", "events")} | {"undone": 0})
        taken = dict(rows[-1], undone=1)          # an order taken back in the v1 days
        rows.append(taken)
        db["entries"].insert_all(rows)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return played


def test_an_older_schema_is_backed_up_then_upgraded(tmp_path):
    path = tmp_path / "old.berthier"
    played = make_v1(path)
    original = path.read_bytes()
    # reading for a report upgrades in memory only
    session, _ = load_battle(path)
    assert session.battle.fingerprint() == played.battle.fingerprint()
    assert path.read_bytes() == original
    f = open_battle(path)
    assert f.backup == str(tmp_path / "old.berthier.v1.bak")
    assert Path(f.backup).read_bytes() == original
    assert f.session.battle.fingerprint() == played.battle.fingerprint()
    assert f.session.redo_stack == [] and len(f.session.taken_back) == 1
    assert [h["change"] for h in f.taken_back()] == ["drop"]
    f.close()
    assert sqlite_file.inspect(path, "battle") == BATTLE_SCHEMA.version
    again = open_battle(path)                    # already current: no second backup
    assert again.backup is None
    again.close()


def test_a_stored_value_of_the_wrong_type_names_its_row(saved):
    poke(saved, "UPDATE units SET hits = 99 WHERE ord = 0")
    with pytest.raises(StoreError, match=r"stored scenario is not valid: .*hits: expected 1 to"):
        load_battle(saved)
    poke(saved, "UPDATE terrain SET points = 'not json' WHERE ord = 0")
    with pytest.raises(StoreError, match=r"terrain\[.*\]\.points: expected JSON text"):
        load_battle(saved)
