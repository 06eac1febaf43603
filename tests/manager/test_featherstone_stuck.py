"""Issue 17, fifteenth session: a move whose five trial ends all landed on other bases is
not tried again while each unit they landed on stands live with the very same base
(`stuck.still_stuck`). Every answer must be the trials' own, in play and after every
kind of change to the units in the way (moved, turned, gone) or to the mover."""
from __future__ import annotations

from builders import build_table, piece, session_at
from play_checks import austerlitz_phases
from manager.rules.featherstone import commander as cm
from manager.rules.featherstone import stuck

FS = "featherstone"


def fresh(commander, u, way, inches, keep_facing=False):
    """The trials made, nothing kept read or written (the store is shared with copies)."""
    saved = cm.still_stuck, cm.note_stuck
    cm.still_stuck, cm.note_stuck = (lambda *a: False), (lambda *a: None)
    try:
        return REAL(commander, u, way, inches, keep_facing)
    finally:
        cm.still_stuck, cm.note_stuck = saved


REAL = cm.Commander._toward


def test_in_play(monkeypatch):
    """Every move the commander tries in 10 Austerlitz turns, against the trials made
    afresh: the same answer; more than 40 answered by the kept blockers."""
    seen = {"asked": 0, "kept": 0}

    def both(self, u, way, inches, keep_facing=False):
        kept = stuck.still_stuck(self.battle,
                                 stuck.stuck_key(self.battle, u, way, inches, keep_facing))
        got = REAL(self, u, way, inches, keep_facing)
        want = fresh(self, u, way, inches, keep_facing)
        assert got == want, u.id
        seen["asked"] += 1
        seen["kept"] += kept
        return got
    monkeypatch.setattr(cm.Commander, "_toward", both)
    for _ in austerlitz_phases(FS, (), 10):
        pass
    assert seen["kept"] > 40, seen


def line_ahead():
    """A blue line (3 by 1 inches) with three blue lines in a file before it: every end
    of its 6-inch move (at 6, 4.8, 3.6, 2.4 and 1.5 inches) lands on one of them."""
    b = build_table([piece("a", "blue", "line_infantry", (30, 20), facing=0),
                     piece("f", "blue", "line_infantry", (30, 14.5), facing=0),
                     piece("g", "blue", "line_infantry", (30, 16.9), facing=0),
                     piece("h", "blue", "line_infantry", (30, 18.9), facing=0),
                     piece("r", "red", "line_infantry", (30, 2), facing=180)],
                    FS, width=60, height=60)
    return session_at(b, "moves", side="blue")[0].battle


def ask(battle, inches=6.0):
    c = cm.Commander(battle, "blue")
    return c._toward(battle.units["a"], 0.0, inches)


def test_changes():
    """Stuck, then each change to what the ends landed on: asked again (kept), the units
    ahead moved away, turned, one gone, the mover itself moved or turned, a longer
    move; each answer the trials'."""
    b = line_ahead()
    assert ask(b) is None
    key = stuck.stuck_key(b, b.units["a"], 0.0, 6.0, False)
    assert stuck.still_stuck(b, key)
    assert ask(b) is None                               # kept: the same answer

    def check(change, inches=6.0):
        assert ask(b) is None and stuck.still_stuck(b, key)     # kept from b's trials
        c = b.copy()
        change(c)
        got = ask(c, inches)
        assert got == fresh(cm.Commander(c, "blue"), c.units["a"], 0.0, inches)
        return got
    assert check(lambda c: [c.update_unit(i, x=50.0) for i in "fgh"]) is not None
    assert check(lambda c: c.update_unit("h", x=50.0)) is not None    # the nearest end
    check(lambda c: c.update_unit("f", facing=90))      # turned in place
    check(lambda c: c.update_unit("f", y=14.0))         # moved a little
    assert check(lambda c: c.update_unit("g", eliminated=True)) is not None
    check(lambda c: c.update_unit("a", x=10.0))         # the mover elsewhere
    check(lambda c: c.update_unit("a", facing=10))      # the mover turned


def test_another_length():
    """Two friends 1.6 and 3.6 inches ahead: every end of a 4-inch move lands on one,
    but a 6-inch move's longest end is clear: another key, the move made."""
    b = build_table([piece("a", "blue", "line_infantry", (30, 20), facing=0),
                     piece("f", "blue", "line_infantry", (30, 16.4), facing=0),
                     piece("g", "blue", "line_infantry", (30, 18.4), facing=0)],
                    FS, width=60, height=60)
    b = session_at(b, "moves", side="blue")[0].battle
    assert ask(b, 4.0) is None
    assert ask(b, 6.0) == fresh(cm.Commander(b, "blue"), b.units["a"], 0.0, 6.0) is not None


def test_an_end_refused_by_the_check_is_asked_again():
    """Four ends land on friends and the fifth is refused by the rules' check (it would
    touch an enemy): not kept, so when the enemy steps back the move is made."""
    b = build_table([piece("a", "blue", "line_infantry", (30, 20), facing=0),
                     piece("f", "blue", "line_infantry", (30, 15.6), facing=0),
                     piece("g", "blue", "line_infantry", (30, 17.9), facing=0),
                     piece("e", "red", "line_infantry", (30, 12.95), facing=180)],
                    FS, width=60, height=60, options={"pass_through_friends": True})
    b = session_at(b, "moves", side="blue")[0].battle
    assert ask(b) is None
    c = b.copy()
    c.update_unit("e", y=5.0)
    assert ask(c) == fresh(cm.Commander(c, "blue"), c.units["a"], 0.0, 6.0) is not None


def test_ends_refused_by_the_budget_and_the_ground():
    """A unit with a tenth of its move left (every end costs more): kept as stuck, and
    asked afresh once its marks give it its move again; a unit before a lake: every end
    in the water, kept; the trials' own answers each time."""
    b = build_table([piece("a", "blue", "line_infantry", (30, 20), facing=0),
                     piece("r", "red", "line_infantry", (30, 2), facing=180)],
                    FS, width=60, height=60)
    b = session_at(b, "moves", side="blue")[0].battle
    b.mark_unit("a", used=0.9)
    assert ask(b) is None
    assert stuck.still_stuck(b, stuck.stuck_key(b, b.units["a"], 0.0, 6.0, False))
    for marks in ({"used": 0.0}, {"allow": 10}):
        c = b.copy()
        c.mark_unit("a", **marks)
        assert ask(c) == fresh(cm.Commander(c, "blue"), c.units["a"], 0.0, 6.0) is not None
    lake = [{"kind": "lake", "points": [[20, 5], [40, 5], [40, 18.8], [20, 18.8]]}]
    b = build_table([piece("a", "blue", "line_infantry", (30, 20), facing=0),
                     piece("r", "red", "line_infantry", (30, 2), facing=180)],
                    FS, terrain=lake, width=60, height=60)
    b = session_at(b, "moves", side="blue")[0].battle
    assert ask(b) is None
    assert stuck.still_stuck(b, stuck.stuck_key(b, b.units["a"], 0.0, 6.0, False))
    assert ask(b, 0.5) == fresh(cm.Commander(b, "blue"), b.units["a"], 0.0, 0.5)
