"""Fuzzing the files Berthier reads (bounded: a few seconds each): scenario TOML, battle
files and campaign files, mutated at random, are either read or refused with a message
naming the file and the place, never a traceback, and a refused file is byte-identical
afterwards with nothing left beside it. (Order-of-battle text is fuzzed in
test_oob_import.py.)"""
import hashlib
import shutil
import sqlite3
import tempfile
from pathlib import Path

import tomli_w
import tomllib
from hypothesis import HealthCheck, given, settings, strategies as st

from manager.autopilot import Autopilot
from manager.campaign import Campaign
from manager.errors import ScenarioError, StoreError
from manager.scenario_io import load_scenario
from manager.session import Session
from manager.simulate import fight
from manager.store import open_battle
from manager.store.battle_file import load_battle

ROOT = Path(__file__).parent.parent.parent
SKIRMISH = ROOT / "tests" / "data" / "skirmish.toml"
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FILES = settings(FUZZ, max_examples=20)          # each example reads a file three times

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8)


def folder_state(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def paths_in(data, prefix=()):
    """Every key path into a parsed TOML document."""
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths_in(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths_in(v, prefix + (i,))


def set_at(data, path, value):
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


SKIRMISH_DATA = tomllib.loads(SKIRMISH.read_text())
SKIRMISH_PATHS = [p for p in paths_in(SKIRMISH_DATA) if p]


@st.composite
def mutated_scenario(draw):
    text = SKIRMISH.read_text()
    how = draw(st.sampled_from(["value", "value", "drop", "bytes"]))
    if how == "bytes":
        raw = bytearray(text.encode())
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(raw) - 1))
            raw[at:at + draw(st.integers(0, 3))] = draw(st.binary(max_size=3))
        return bytes(raw)
    import copy
    data = copy.deepcopy(SKIRMISH_DATA)
    path = draw(st.sampled_from(SKIRMISH_PATHS))
    if how == "drop":
        node = data
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
    else:
        set_at(data, path, draw(values))
    try:
        return tomli_w.dumps(data).encode()
    except (TypeError, ValueError):      # None and the like have no TOML form
        return text.encode()


def named(exc, path) -> bool:
    text = str(exc)
    return text.startswith(str(path)) and len(text) > len(str(path)) + 5


@FUZZ
@given(mutated_scenario())
def test_mutated_scenarios_load_or_are_refused_with_the_place(raw):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.toml"
        p.write_bytes(raw)
        try:
            battle = load_scenario(p)
        except ScenarioError as exc:
            assert named(exc, p), exc
            assert exc.where or "line" in exc.problem or "UTF-8" in exc.problem, exc
        else:
            pilot = Autopilot(Session(battle))   # what checks fine also plays
            for _ in range(40):
                if not pilot.step():
                    break
        assert p.read_bytes() == raw


# ---- battle files ------------------------------------------------------------------------------
BATTLE = Path(tempfile.mkdtemp(prefix="berthier-fuzz-")) / "b.berthier"
fight(SKIRMISH, seed=5, save=BATTLE, turns=2)
COLUMNS = {}
with sqlite3.connect(BATTLE) as _c:
    for (_t,) in _c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        COLUMNS[_t] = [r[1] for r in _c.execute(f"PRAGMA table_info([{_t}])")]
sql_values = (st.none() | st.integers(-10, 10**12) | st.floats(allow_nan=False)
              | st.text(max_size=20) | st.binary(max_size=8)
              | st.sampled_from(["[", "{}", "[]", '{"action": "Fire"}', "[" * 3000 + "]" * 3000,
                                 "live", "undone", "dropped", "null", "-1"]))


@st.composite
def sql_edit(draw, columns):
    table = draw(st.sampled_from(sorted(columns)))
    column = draw(st.sampled_from(columns[table]))
    return table, column, draw(st.integers(1, 40)), draw(sql_values)


def apply_edit(path, edit):
    table, column, rowid, value = edit
    c = sqlite3.connect(path)
    try:
        c.execute("PRAGMA foreign_keys = OFF")
        c.execute(f"UPDATE [{table}] SET [{column}] = ? WHERE rowid = ?", [value, rowid])
        c.commit()
    except sqlite3.Error:
        c.rollback()                  # a constraint said no: the file is as it was
    c.execute("PRAGMA journal_mode=DELETE")
    c.close()


@st.composite
def byte_edit(draw):
    return [(draw(st.integers(0, 20000)), draw(st.binary(min_size=1, max_size=16)))
            for _ in range(draw(st.integers(1, 3)))]


def judged(path, openers):
    """Each opener either reads the file or refuses it, naming it, touching nothing."""
    for opener in openers:
        before = folder_state(path.parent)
        try:
            result = opener(path)
        except StoreError as exc:
            assert named(exc, path), exc
            assert folder_state(path.parent) == before
        else:
            close = getattr(result, "close", None)
            if close is not None:
                close()


@FILES
@given(st.lists(sql_edit(COLUMNS), min_size=1, max_size=3))
def test_battle_files_edited_row_by_row(edits):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "b.berthier"
        shutil.copyfile(BATTLE, p)
        for e in edits:
            apply_edit(p, e)
        judged(p, [load_battle, lambda q: open_battle(q, read_only=True), open_battle])
        assert not [q for q in Path(d).iterdir() if q.name.endswith((".lock", ".part", ".tmp"))]


@FILES
@given(byte_edit())
def test_battle_files_damaged_byte_by_byte(edits):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "b.berthier"
        raw = bytearray(BATTLE.read_bytes())
        for at, data in edits:
            at %= len(raw)
            raw[at:at + len(data)] = data
        p.write_bytes(bytes(raw))
        judged(p, [load_battle, open_battle])


# ---- campaign files ----------------------------------------------------------------------------
CAMPAIGN = BATTLE.with_name("c.campaign")
Campaign.create(CAMPAIGN, load_scenario(SKIRMISH), "Fuzz", 1).close()
CAMPAIGN_COLUMNS = {}
with sqlite3.connect(CAMPAIGN) as _c:
    for (_t,) in _c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        CAMPAIGN_COLUMNS[_t] = [r[1] for r in _c.execute(f"PRAGMA table_info([{_t}])")]


def campaign_uses(path):
    c = Campaign.view(path)
    try:
        c.summary()
        c.strength_history()
        from manager.campaign.reconstitute import battle_for
        battle_for(c, c.founding_battle())
    finally:
        c.close()
    return None


@FILES
@given(st.lists(sql_edit(CAMPAIGN_COLUMNS), min_size=1, max_size=3))
def test_campaign_files_edited_row_by_row(edits):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "c.campaign"
        shutil.copyfile(CAMPAIGN, p)
        for e in edits:
            apply_edit(p, e)
        judged(p, [campaign_uses, Campaign.open])
