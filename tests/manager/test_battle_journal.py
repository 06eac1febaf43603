"""Issue 17, twelfth session: Battle.changes_since finds a wholesale change after the mark
by where touch noted the last one, not by scanning the changes; it must answer as the
scan did for every mark, through journals that wrap past 4096 entries, in copies and
after restores."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from manager.scenario_io import load_scenario

SKIRMISH = Path(__file__).resolve().parents[2] / "tests" / "data" / "skirmish.toml"


def scanned(battle, mark: int):
    """changes_since as it was written: the changes after the mark scanned for ("all",)."""
    end = battle._journal_base + len(battle._journal)
    if mark < battle._journal_base:
        return None, end
    changes = battle._journal[mark - battle._journal_base:]
    return (None if ("all",) in changes else changes), end


def every_mark_as_scanned(battle) -> int:
    end = battle._journal_base + len(battle._journal)
    base = battle._journal_base
    walls = [base + k for k, c in enumerate(battle._journal) if c == ("all",)]
    edges = {m for w in (base, *walls) for m in (w - 1, w, w + 1)}   # about each one
    recent = range(max(0, end - 150), end + 2)                       # every recent mark
    for mark in sorted({*range(0, max(0, end - 150), 37), *recent, *edges}):
        if mark >= 0:
            assert battle.changes_since(mark) == scanned(battle, mark), mark
    return end


touches = st.lists(st.sampled_from(["unit", "leader", "state", "all", "copy", "restore"]),
                   max_size=60)


@settings(max_examples=60, deadline=None)
@given(touches, st.integers(0, 4200))
def test_changes_since_is_the_scan(kinds, filler):
    """Random changes (a wholesale one among them, copies, restores) after `filler` unit
    changes, which wrap the journal when past 4096: every mark answers as the scan."""
    b = load_scenario(SKIRMISH, "featherstone")
    uid, lid = next(iter(b.units)), next(iter(b.leaders))
    for k in range(filler):
        b.update_unit(uid, x=1.0 + k % 7)
    every_mark_as_scanned(b)
    snap = b.snapshot()
    for kind in kinds:
        if kind == "unit":
            b.update_unit(uid, hits=max(b.units[uid].hits - 1, 1))
        elif kind == "leader":
            b.update_leader(lid, x=b.leaders[lid].x + 0.5)
        elif kind == "state":
            b.set_state(dice_seq=b.state.dice_seq + 1)
        elif kind == "all":
            b.set_pending(b.pending)
        elif kind == "copy":
            c = b.copy()
            c.update_unit(uid, y=2.0)
            every_mark_as_scanned(c)
        else:
            b.restore(snap)
        every_mark_as_scanned(b)


def test_a_wholesale_change_right_at_the_mark_and_just_before_it():
    b = load_scenario(SKIRMISH, "featherstone")
    uid = next(iter(b.units))
    b.update_unit(uid, x=3.0)
    before = b._journal_base + len(b._journal)
    b.set_pending(b.pending)                        # ("all",) at index `before`
    after = b._journal_base + len(b._journal)
    b.update_unit(uid, x=4.0)
    assert b.changes_since(before)[0] is None       # the wholesale change is after it
    assert b.changes_since(after)[0] == [("unit", uid)]
    assert b.changes_since(after + 1)[0] == []
    every_mark_as_scanned(b)


def test_the_journal_wrapped_past_4096_entries():
    """Unit changes until the journal starts afresh (its first entry ("all",) at the new
    base), then a few more: every mark as the scan, the base's own among them."""
    b = load_scenario(SKIRMISH, "featherstone")
    uid = next(iter(b.units))
    start = b._journal_base
    k = 0
    while b._journal_base == start:
        b.update_unit(uid, x=1.0 + k % 5)
        k += 1
    assert b.changes_since(b._journal_base) == (None, b._journal_base + len(b._journal))
    for k in range(3):
        b.update_unit(uid, y=1.0 + k)
        every_mark_as_scanned(b)
