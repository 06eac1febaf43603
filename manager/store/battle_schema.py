"""The battle file's schema, its history, and the migrations between versions.

Schema 1 (the first draft) kept one `undone` flag per log entry, so a redo could not be
told from an entry never undone, and it kept no record of when things were taken back.
Schema 2 gives every entry a `state` (live, undone: waiting on the redo stack, dropped:
undone and then replaced by a new order) and a `history` table of every undo, redo and
drop. Migrating marks v1's undone entries as dropped: a v1 file kept no redo stack.
Schema 3 adds unit traits (lancers, armoured, veteran, conscript) to the scenario rows.
"""
from __future__ import annotations

from .scenario_rows import add_traits_column, create_tables
from .sqlite_file import Schema

ENTRY_COLUMNS = {"id": int, "position": int, "verb": str, "action": str, "rolls": str,
                 "turn": int, "phase": str, "side": str, "events": str, "state": str,
                 "recorded_at": str}


def create_v3(db, traits: bool = True) -> None:
    create_tables(db, traits)
    db["entries"].create(ENTRY_COLUMNS, pk="id", not_null={"position", "verb", "action", "rolls",
                                                           "state"})
    db.execute("CREATE INDEX entries_state ON entries(state, position)")
    db["history"].create({"id": int, "entry": int, "change": str, "at": str}, pk="id",
                         foreign_keys=[("entry", "entries", "id")])


def create_v2(db) -> None:
    """Only for tests and the record: schema 2 had no unit traits."""
    create_v3(db, traits=False)


def create_v1(db) -> None:
    """Only for tests and the record: what schema 1 files look like."""
    create_tables(db, traits=False)
    db["entries"].create({"id": int, "position": int, "verb": str, "action": str, "rolls": str,
                          "turn": int, "phase": str, "side": str, "events": str, "undone": int},
                         pk="id")


def v1_to_v2(db) -> None:
    db.execute("ALTER TABLE entries ADD COLUMN state TEXT NOT NULL DEFAULT 'live'")
    db.execute("ALTER TABLE entries ADD COLUMN recorded_at TEXT")
    db.execute("UPDATE entries SET state = CASE WHEN undone THEN 'dropped' ELSE 'live' END")
    db.execute("ALTER TABLE entries DROP COLUMN undone")
    db.execute("CREATE INDEX entries_state ON entries(state, position)")
    db["history"].create({"id": int, "entry": int, "change": str, "at": str}, pk="id",
                         foreign_keys=[("entry", "entries", "id")])
    db.execute("INSERT INTO history(entry, change, at) SELECT id, 'drop', NULL FROM entries "
               "WHERE state = 'dropped'")


BATTLE_SCHEMA = Schema("battle", 3, create_v3, {1: v1_to_v2, 2: add_traits_column})
BATTLE_SCHEMA_V2 = Schema("battle", 2, create_v2, {1: v1_to_v2})
BATTLE_SCHEMA_V1 = Schema("battle", 1, create_v1, {})
