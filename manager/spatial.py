"""Who stands near what on an open table, without asking every unit every time.

Inch rulesets keep asking which units stand within a reach of a point (a first filter
before the exact geometry), and which bases could lie across a line of sight. Scanning
every live unit in Python for each question made an Austerlitz turn 25-40 times a grid
turn. The live units' centres (`unit_centres.UnitGrid`) and their bases' half diagonals
are kept per battle version, patched from the battle's journal of changes: a question
is a few comparisons with a little slack, and the scan's own exact test runs only on
the few units left. Here too: the memos the inch rulesets share (a unit's own base,
answers kept while their pieces stand) and "would this base land on another?".

The answers are exactly the scan's: the same distance test on the same floats, in the
order of `battle.live_units(side)`, so no result of the game can change.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from operator import is_

import numpy as np

from . import unit_centres as _centres
from .footprint import distance, overlap
# the rulesets read SLACK, BAND and UnitGrid as spatial's too
from .unit_centres import BAND, SLACK, UnitGrid


def _current(battle, key):
    """battle.current(key) without the method call (hot); None from a stand-in battle
    that keeps no derived views (tests)."""
    try:
        hit = battle._derived.get(key)
    except AttributeError:
        return None
    return hit[0] if hit is not None and hit[2] == battle.version else None


def unit_grid(battle, side: str | None = None) -> UnitGrid:
    """The grid of `battle.live_units(side)`, kept current from the change journal (a
    grid is asked for after nearly every action, which changes a unit or two)."""
    key = ("unit_grid", side)
    hit = _current(battle, key)
    if hit is not None:
        return hit
    return battle.derived(key, lambda: UnitGrid(battle.live_units(side)),
                          lambda grid, changes: grid.follow(battle, side, changes))


def near_units(battle, xy, reach: float, side: str | None = None) -> list:
    """Live units whose centre is within `reach` inches of xy, in `live_units` order."""
    return unit_grid(battle, side).within(xy, reach)


def nearest_unit(battle, xy, reach: float, side: str | None = None):
    """The first live unit (live_units order) of those whose centre is nearest xy, if
    within `reach` inches, or None (min over near_units by distance)."""
    return unit_grid(battle, side).nearest(xy, reach)


def memo(battle, name: str, key, pieces: tuple, compute):
    """`compute()` remembered until the battle next changes, for these very pieces (unit
    records are immutable: a trial copy of a unit is another object, so never a stale
    hit)."""
    store = battle.cached(name, dict)
    hit = store.get(key)
    if hit is not None and all(map(is_, hit[0], pieces)):    # (zip's pairs, in C)
        return hit[1]
    value = compute()
    store[key] = (pieces, value)
    return value


def kept_while(battle, name: str, key, pieces: tuple, compute):
    """`compute()` kept across the battle's changes while `pieces` are the very same
    objects in the same order (unit records are immutable: the records, and
    battle.info when the options matter, are all a value may read). For what the side
    that does not move reads, turn after turn: `memo` forgets at every change."""
    store = battle.kept(name, dict)
    hit = store.get(key)
    if hit is not None and len(hit[0]) == len(pieces) and all(map(is_, hit[0], pieces)):
        return hit[1]
    value = compute()
    store[key] = (pieces, value)
    return value


def crossing_line(battle, a, b, reach: float, footprint, key: str, origin=None) -> list:
    """Live units whose centre is within `reach` of origin (default a: the old scan's
    filter) and whose
    base could cross segment a-b, in `live_units` order: candidates for "is a base in
    the way". A base crosses the line only if its centre lies within half its diagonal
    of it, so the cells along the line widened by the largest half diagonal suffice."""
    margin = battle.cached((key, "half_diagonal"), lambda: max(
        half_diagonals(battle, footprint).values(), default=0.0) + 1e-6)
    origin = a if origin is None else origin
    return [u for u in unit_grid(battle).along(a, b, margin)
            if distance(u.pos, origin) <= reach]


def half_diagonals(battle, footprint) -> dict:
    """{live unit id: half the diagonal of its base}, kept current from the battle's
    journal of changes: a base changes only with its unit's record (or the scenario
    info, which rebuilds), so one change costs one base, not every unit's."""
    def half(u):
        fp = footprint(battle, u)
        return math.hypot(fp.frontage, fp.depth) / 2

    def build():
        return {u.id: half(u) for u in battle.live_units()}

    def update(view, changes):
        for change in changes:
            if change[0] == "unit":
                u = battle.units.get(change[1])
                if u is None or u.eliminated:
                    view.pop(change[1], None)
                else:
                    view[u.id] = half(u)

    return battle.derived(("half_diagonals", footprint), build, update)


def radii(battle, footprint) -> np.ndarray:
    """Half the diagonal of every base, in `unit_grid(battle)` order, kept current from
    the change journal: a unit changed in place has its row rewritten (in a copy: an array
    handed out before never changes), a grid rebuilt (a unit gone or come) rebuilds it."""
    hit = _current(battle, ("radii", footprint))
    if hit is not None:
        return hit[0]
    return _radii(battle, footprint)[0]


def radii_list(battle, footprint) -> tuple:
    """(`radii` as a list of floats, the largest of them): for plain-float passes."""
    view = _current(battle, ("radii", footprint))
    if view is None:
        view = _radii(battle, footprint)
    if view[3] is None:
        rows = view[3] = view[0].tolist()
        view[4] = max(rows, default=0.0)
    return view[3], view[4]


def _radii(battle, footprint) -> list:
    """The view [rows, grid, its generation, rows as a list or None, their max]."""
    def build():
        grid = unit_grid(battle)
        half, units = half_diagonals(battle, footprint), grid.units
        return [np.fromiter((half[u.id] for u in units), float, len(units)), grid,
                grid.generation, None, None]

    def update(view, changes):
        grid = unit_grid(battle)
        if view[1] is not grid or view[2] != grid.generation or grid.index is None:
            view[:] = build()
            return
        half, rows, index = half_diagonals(battle, footprint), None, grid.index
        for change in changes:
            if change[0] == "unit":
                k = index.get(change[1])
                if k is not None:
                    rows = view[0].copy() if rows is None else rows
                    rows[k] = half[change[1]]
        if rows is not None:
            view[0], view[3] = rows, None

    return battle.derived(("radii", footprint), build, update)


def charged_ids(battle, side: str, mark) -> frozenset:
    """Ids of the units `side`'s units are charging (their 'charging' mark)."""
    return battle.cached(("charged_ids", side), lambda: frozenset(
        mark(u, "charging") for u in battle.live_units(side)))


def own_base(battle, key: str, unit, build, *args):
    """A unit's own base (`build(*args)`), memoised under `key`: the inch rulesets ask
    for it thousands of times a turn of units that did not change, and a trial copy of a
    unit is another object, so it never gets the memo's answer. (The builder's
    arguments are passed, not closed over: no closure built per ask, ~40,000 a turn.)"""
    # kept across the battle's changes, not cleared with its cache: most units do not
    # change in an action, and one that does is another record (its old base never
    # answers for it); a new scenario info (the options scale bases) is a miss too
    # (the hit test is read in line, without this call, by d3's units.footprint and
    # Featherstone's state.footprint: change the (unit, info, base) entry in all three)
    memo = battle._kept.get(key)                 # (battle.kept, without the call: hot)
    if memo is None:
        memo = battle.kept(key, dict)
    hit = memo.get(unit.id)
    if hit is not None and hit[0] is unit and hit[1] is battle.info:
        return hit[2]
    fp = build(*args)
    memo[unit.id] = (unit, battle.info, fp)
    return fp


def lands_on(battle, unit, end, footprint, reach: float = 10.0) -> bool:
    """Would `unit`'s base at `end` overlap another live unit's base? (landing_on)"""
    return landing_on(battle, unit, end, footprint, reach) is not None


def landing_on(battle, unit, end, footprint, reach: float = 10.0):
    """The first live unit (in the grid's order) whose base `unit`'s base at `end` would
    overlap, or None. Every ground check
    of an inch ruleset refuses such a move (it scans at least `reach` inches around the
    end, and bases that overlap stand closer than that): a cheap first look that lets
    an automatic commander skip the costly checks of terrain and paths.

    The units within `reach` whose circles could meet the end's (overlap's own first
    look, with SLACK to spare) in one vector pass; the exact tests on those few."""
    g = unit_grid(battle)
    ex, ey = end.x, end.y
    c = math.hypot(end.frontage, end.depth) / 2 + 1e-6 + SLACK
    r = reach + SLACK
    rad, top = radii_list(battle, footprint)
    w = min(r, top + c) + BAND              # no centre farther in x can pass both tests
    sx = g.sx or g.by_x()                   # (g.span without its call)
    lo, hi = bisect_left(sx, ex - w), bisect_right(sx, ex + w)
    if hi - lo > _centres.NARROW:
        return _landing_on(battle, unit, end, footprint, reach)
    lx, ly, r2, near = g.lx, g.ly, r * r, []
    for k in g.sk[lo:hi]:                   # numpy's element-wise arithmetic, in floats
        dx, dy = lx[k] - ex, ly[k] - ey
        d2 = dx * dx + dy * dy
        if d2 <= r2:
            meet = rad[k] + c
            if d2 <= meet * meet:
                near.append(k)
    near.sort()
    units = g.units
    for k in near:
        o = units[k]
        if o.id != unit.id and distance(o.pos, (ex, ey)) <= reach and \
                overlap(end, footprint(battle, o)):
            return o
    return None


def _landing_on(battle, unit, end, footprint, reach: float = 10.0):
    """`landing_on` by one numpy pass over every unit."""
    g = unit_grid(battle)
    ex, ey = end.x, end.y
    dx, dy = g.xs - ex, g.ys - ey
    d2 = dx * dx
    d2 += dy * dy
    r = reach + SLACK
    meet = radii(battle, footprint) + (math.hypot(end.frontage, end.depth) / 2 + 1e-6 + SLACK)
    units = g.units
    for k in ((d2 <= r * r) & (d2 <= meet * meet)).nonzero()[0].tolist():
        o = units[k]
        if o.id != unit.id and distance(o.pos, (ex, ey)) <= reach and \
                overlap(end, footprint(battle, o)):
            return o
    return None
