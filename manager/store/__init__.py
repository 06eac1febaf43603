"""SQLite files: battles (scenario + append-only log) and campaigns (armies + ledger).

Nothing here runs code from a file: values are text and numbers, every query is
parameterised, JSON is parsed with json.loads. A file is checked read-only (header,
application id, schema version, integrity) before it is opened for writing.
"""
from .battle_file import BattleFile, create_battle, open_battle  # noqa: F401
