"""Issue 17, eighth session: the commander's lines of sight surely crossed by a base
(`fire_sight.surely_hidden`, `fire_sight.hidden_from`) judged in plain floats, each line
stopping at the first base across it (`sight_floats.crossed`), answer as the numpy pass
over every pair of line and base they replaced (kept here as the reference)."""
from __future__ import annotations

import math

from hypothesis import assume, given, settings, strategies as st
import numpy as np

from builders import build_table, piece
from play_checks import austerlitz_phases
from manager.errors import ScenarioError
from manager import spatial
from manager.rules.featherstone import fire_sight, sight_floats
from manager.rules.featherstone.rows import Rows, rows
from manager.rules.featherstone.state import footprint
from manager.sightlines import surely_crossed

FS = "featherstone"
KINDS = ["line_infantry", "light_infantry", "heavy_cavalry", "light_cavalry",
         "foot_artillery"]


def numpy_crossed(battle, origin, ends) -> list:
    """The numpy pass over every pair of line and base (sightlines.surely_crossed, its
    headings from the footprints), on the bases whose centre is in the box about the
    origin and the ends widened by 4.5 inches (as `fire_sight._crossed` asked it before)."""
    g = spatial.unit_grid(battle)
    xs, ys = [origin.x] + [u.x for u in ends], [origin.y] + [u.y for u in ends]
    m = 4.5 + 1e-6
    keep = (g.xs >= min(xs) - m) & (g.xs <= max(xs) + m) & \
        (g.ys >= min(ys) - m) & (g.ys <= max(ys) + m)
    others = [g.units[k] for k in np.flatnonzero(keep)]
    return surely_crossed(origin.pos, [t.pos for t in ends], [t.id for t in ends], others,
                          [footprint(battle, o) for o in others], origin, 8.0,
                          centre_within=4.5)


def fresh_rows(battle) -> Rows:
    """The rows filled afresh from every live base (none copied from other rows)."""
    t = Rows.__new__(Rows)
    t._fill_fresh(battle, list(spatial.unit_grid(battle).units))
    return t


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(4, 44), st.floats(4, 32)),
       st.lists(st.tuples(st.floats(4, 44), st.floats(4, 32)), min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 4), st.floats(-6, 6),
                          st.integers(0, 359), st.sampled_from(KINDS),
                          st.sampled_from(["line", "column", "square"]), st.booleans()),
                min_size=1, max_size=8))
def test_lines_crossed_are_the_numpy_pass(a, ends, others):
    """A shooter, a few targets and bases of every kind, formation and facing strewn
    along and beside its lines (across, grazing, just clear, beyond the 4.5 inches, near
    either end): the same answer for every line, from the shooter and from each end."""
    units = [piece("u", "blue", "foot_artillery", a)]
    for k, z in enumerate(ends):
        units.append(piece(f"t{k}", "red", "line_infantry", z))
    for k, (t, which, side_off, f, kind, form, enemy) in enumerate(others):
        z = ends[which % len(ends)]
        length = math.dist(a, z)
        assume(length > 1)
        ux, uy = (z[0] - a[0]) / length, (z[1] - a[1]) / length
        x, y = a[0] + ux * length * t - uy * side_off, a[1] + uy * length * t + ux * side_off
        units.append(piece(f"o{k}", "red" if enemy else "blue", kind, (x, y), facing=f,
                           formation=form if "infantry" in kind else "line"))
    try:
        b = build_table(units, FS)
    except ScenarioError:
        assume(False)
    u = b.units["u"]
    targets = [b.units[f"t{k}"] for k in range(len(ends))]
    assert sight_floats.crossed(b, u, targets) == numpy_crossed(b, u, targets)
    for e in targets:                            # support fire's way: from the target
        assert sight_floats.crossed(b, e, [u]) == numpy_crossed(b, e, [u])


def test_lines_crossed_in_play(monkeypatch):
    """Every pass of 3 Austerlitz turns (the commander's fire and its guns' targets in the
    moves step, support fire in the odds and the melee): the numpy pass's answers, on
    the battle and on the odds' trial copies; many lines are hidden and many are not.
    The rows, followed from the journal or copied from the last rows for a trial copy,
    are a fresh fill's: the same records, bases and floats."""
    asked, copied = [], []
    real, fill_from = sight_floats.crossed, Rows._fill_from

    def spy(self, battle, last, units):
        copied.append(fill_from(self, battle, last, units))
        return copied[-1]

    def both(battle, origin, ends):
        got = real(battle, origin, ends)
        assert got == numpy_crossed(battle, origin, ends)
        t, fresh = rows(battle), fresh_rows(battle)
        assert all(a is c for a, c in zip(t.units, fresh.units))
        assert t.index == fresh.index and t.fps == fresh.fps
        assert t.as_lists() == fresh.as_lists()
        assert t.diag == [math.hypot(d, f) for d, f in zip(t.hd, t.hf)]
        asked.extend(got)
        return got
    monkeypatch.setattr(fire_sight, "crossed", both)
    monkeypatch.setattr(Rows, "_fill_from", spy)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(asked) > 1000 and sum(asked) > 500 and len(asked) - sum(asked) > 100, \
        (len(asked), sum(asked))
    assert sum(copied) > 20, copied          # rows copied for the odds' trial copies


def test_rows_are_copied_only_over_the_same_ids_and_options():
    """A unit gone and another come (the same count, the ids shifted), and a trial copy
    with other options (the stand scale sizes the bases): the rows are a fresh fill's."""
    from dataclasses import replace
    from types import MappingProxyType
    b = build_table([piece("a", "blue", "line_infantry", (10, 30)),
                     piece("x", "blue", "line_infantry", (20, 25)),
                     piece("e", "red", "line_infantry", (30, 20))], FS, width=60, height=40)
    before = rows(b)
    arrived = replace(b.units["a"], id="z", x=40.0, y=10.0, facing=90)
    b.update_unit("a", eliminated=True)
    b.put_unit(arrived)
    now, fresh = rows(b), fresh_rows(b)
    assert len(now.units) == len(before.units) and now.index == fresh.index
    assert now.fps == fresh.fps and now.as_lists() == fresh.as_lists()
    c = b.copy()
    c.set_info(replace(c.info, options=MappingProxyType({**c.info.options,
                                                         "stand_scale": 2.0})))
    scaled, fresh = rows(c), fresh_rows(c)
    assert scaled.fps == fresh.fps and scaled.as_lists() == fresh.as_lists()
    assert scaled.hd != now.hd


# ---- ninth session: a line found crossed keeps its base ---------------------------------------
def test_kept_blockers_answer_half_the_lines_in_play(monkeypatch):
    """Every pass of 3 Austerlitz turns: the numpy pass's answers (as above), and more
    than a fifth of the lines answered by the base kept across them (not scanned)."""
    lines, scanned = [], []
    real, scan = sight_floats.crossed, sight_floats._first_across

    def both(battle, origin, ends):
        got = real(battle, origin, ends)
        assert got == numpy_crossed(battle, origin, ends)
        lines.extend(got)
        return got

    def counted(battle, t, origin, ends):
        scanned.extend(ends)
        return scan(battle, t, origin, ends)
    monkeypatch.setattr(fire_sight, "crossed", both)
    monkeypatch.setattr(sight_floats, "_first_across", counted)
    for _ in austerlitz_phases(FS, (), 3):
        pass
    assert len(lines) > 1000 and len(lines) - len(scanned) > len(lines) / 5, \
        (len(lines), len(scanned))


def test_a_kept_blocker_answers_only_while_its_base_and_the_line_stand():
    """A gun's line to a target with a friend across it: asked again, the kept friend
    answers; the friend turned aside, moved off, gone, or the target moved: the line
    is judged afresh (the numpy pass's answer each time)."""
    b = build_table([piece("g", "blue", "foot_artillery", (20, 30)),
                     piece("f", "blue", "line_infantry", (20, 25)),
                     piece("t", "red", "line_infantry", (20, 10)),
                     piece("s", "red", "line_infantry", (40, 10))], FS, width=60, height=40)

    def judged(battle):
        g, t = battle.units["g"], battle.units["t"]
        got = sight_floats.crossed(battle, g, [t, battle.units["s"]])
        assert got == numpy_crossed(battle, g, [t, battle.units["s"]])
        return got[0]
    kept = b.kept(sight_floats.BLOCKERS, dict)
    assert judged(b) and ("g", 20, 30, "t", 20, 10) in kept
    assert judged(b.copy())                          # a trial copy: the same friend
    c = b.copy()
    c.update_unit("f", facing=90)                    # end on to the line: still across
    assert judged(c) and kept[("g", 20, 30, "t", 20, 10)][1] == footprint(c, c.units["f"])
    d = b.copy()
    d.update_unit("f", x=30.0)                       # stepped aside: clear
    assert not judged(d)
    e = b.copy()
    e.update_unit("f", eliminated=True)              # gone: clear
    assert not judged(e)
    m = b.copy()
    m.update_unit("t", x=50.0)                       # the target moved: another line
    assert not judged(m)


# ---- tenth session: a patched row's floats without numpy calls ---------------------------
def fresh_lists(battle) -> tuple:
    """The rows' lists as a fresh fill makes them (numpy over every base at once)."""
    r = Rows.__new__(Rows)
    r._fill_fresh(battle, list(spatial.unit_grid(battle).units))
    return r.as_lists()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KINDS), st.one_of(st.integers(0, 359), st.floats(0, 359.99)),
       st.sampled_from(["line", "column", "square"]))
def test_a_patched_row_is_the_fresh_fill(kind, facing, form):
    """A unit turned (to any facing, whole degrees or not) and reformed: its row patched
    from the journal holds the very floats a fresh fill computes."""
    b = build_table([piece("a", "blue", kind, (20, 30)),
                     piece("e", "red", "line_infantry", (20, 20))], FS, width=60, height=40)
    before = rows(b)
    b.update_unit("a", facing=facing, formation=form if kind in KINDS[:2] else "line")
    after = rows(b)
    assert after is before                                    # patched, not filled again
    assert after.as_lists() == fresh_lists(b)


def test_patched_rows_are_the_fresh_fill_in_play():
    """At each fire and melee step of 3 Austerlitz turns: the rows kept current from the
    journal (patched, copied to trial copies) are the fresh fill's floats."""
    judged = 0
    for s, _ in austerlitz_phases(FS, ("fire", "melee"), 3):
        assert rows(s.battle).as_lists() == fresh_lists(s.battle)
        judged += 1
    assert judged >= 6
