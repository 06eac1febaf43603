"""What D3 reads off a unit and the table: its type, base, hits, the activation test,
where it may go, and what covers or hides it.

Per-turn state lives in the unit's marks: `inactive` (the turn it failed its test: it
stays put, disordered, for the rest of the turn), `deployed` (artillery that has
shot), `charging` (its target). A general's once-a-turn re-roll is `Leader.rallied`.
"""
from __future__ import annotations

import math

import numpy as np
from shapely.geometry import Point

from ... import spatial
from ...errors import IllegalAction
from ...events import declare_event
from ...footprint import EPS, Footprint, Sweep, box, closer_than, distance, overlap, segment
from ...geometry import per_battlefield
from ...ground_memo import on_ground
from ...model.forces import mark
from ...table_terrain import table_terrain
from .tables import (CROSSING_LANDING, DEPTH, EVENTS, FRONTAGE, GENERAL_REROLL_REACH,
                     TYPES)

# the largest half-diagonal of any base at frontage_scale 1
HALF_DIAGONAL = max(math.hypot(FRONTAGE[t], DEPTH[t]) for t in FRONTAGE) / 2


def largest_half(battle) -> float:
    """The largest half-diagonal any base can have in this battle (HALF_DIAGONAL at the
    scenario's frontage_scale): the bound every "no base farther can meet" look uses."""
    return HALF_DIAGONAL * abs(float(battle.option("frontage_scale", 1.0) or 1.0))

Activation = declare_event("Activation", "{unit} tests to {what}: {detail} -> {result}",
                           unit=str, what=str, detail=str, result=str)


def utype(unit) -> str:
    """The unit's type (PROFILES[kind]["type"], from the same table)."""
    return TYPES[unit.kind]


def taken(unit) -> int:
    """Hits accumulated so far (the text counts up to 9)."""
    return unit.max_hits - unit.hits


def footprint(battle, unit, x=None, y=None, facing=None) -> Footprint:
    if x is None and y is None and facing is None:     # its own base: once per version
        return spatial.own_base(battle, "d3.footprints", unit,
                                _footprint, battle, unit, None, None, None)
    return _footprint(battle, unit, x, y, facing)


def _footprint(battle, unit, x, y, facing) -> Footprint:
    k = float(battle.option("frontage_scale", 1.0) or 1.0)
    t = utype(unit)
    return Footprint(unit.x if x is None else x, unit.y if y is None else y,
                     unit.facing if facing is None else facing, FRONTAGE[t] * k, DEPTH[t] * k)


def near(battle, xy, reach: float, side: str | None = None) -> list:
    """Live units whose centre is within `reach` (the spatial index; live_units order)."""
    return spatial.near_units(battle, xy, reach, side)


def inactive(battle, unit) -> bool:
    return mark(unit, "inactive") == battle.state.turn


def engaged(battle, unit) -> bool:
    return bool(mark(unit, "charging")) or \
        unit.id in charged_ids(battle, battle.enemy_of(unit.side))


def charged_ids(battle, side: str) -> frozenset:
    """spatial.charged_ids(battle, side, mark): the ids `side`'s units are charging (their
    'charging' marks), kept from version to version while the side's live records are
    the very same objects in the same order (their marks are all it reads): a unit is
    asked whether the enemy charges it, and the enemy does not change while it moves."""
    def build():
        units = tuple(battle.live_units(side))
        return spatial.kept_while(battle, "d3.charged_ids", side, units, lambda: frozenset(
            mark(u, "charging") for u in units))
    return battle.cached(("d3.charged_ids", side), build)


# ---- the activation test -----------------------------------------------------------------
def event_modifier(battle, what: str) -> int:
    card = dict(battle.state.marks).get("event")
    for _, (key, _text, applies, mod) in EVENTS.items():
        if key == card and applies == what:
            return mod
    return 0


def activation_chance(battle, unit, what: str, reroll: bool) -> tuple:
    """(chance of passing, as a Fraction) with the re-roll if one is at hand."""
    from fractions import Fraction
    mod = event_modifier(battle, what)
    p = Fraction(sum(1 for f in range(1, 7) if 2 * f + mod > taken(unit)), 6)
    return p + (1 - p) * p if reroll else p


def reroller(battle, unit, mode: str | None = None):
    """The general who could re-roll a failed test for this unit (his re-roll unused,
    within 12 inches), or None; none at all when re-rolls are off."""
    if (mode or battle.option("general_reroll")) == "never":
        return None
    fp, base = footprint(battle, unit), None
    reach = GENERAL_REROLL_REACH + 1e-6
    half = math.hypot(fp.frontage, fp.depth) / 2
    for l in sorted(battle.live_leaders(unit.side), key=lambda l: l.id):
        # "within 12" of the unit": to the nearest part of its base, as range is measured.
        # The base holds its centre and lies within half its diagonal of it, so a general
        # that near the centre (1e-9 to spare: far above shapely's rounding) is within,
        # one that far beyond it is not; only the rest are measured by shapely
        if l.rallied:
            continue
        d = distance(l.pos, unit.pos)
        if d <= reach - 1e-9:
            return l
        if d - half > reach + 1e-9:
            continue
        base = fp.polygon() if base is None else base
        if base.distance(Point(l.pos)) <= reach:
            return l
    return None


def _passes(battle, unit, face: int, mod: int) -> bool:
    return 2 * face + mod > taken(unit)


def activate(battle, unit, what: str, dice, events: list, action=None) -> bool:
    """2 x D6 (+ any event card) must beat the hits taken. A failure leaves the unit
    inactive and disordered for the rest of the turn, unless a general re-rolls it: at
    once (`general_reroll = auto`), or when the player chooses (`choose`: the failed
    action is kept so RerollActivation can carry it out on a pass)."""
    if mark(unit, "rerolled") == battle.state.turn:       # a re-roll passed: go ahead
        battle.mark_unit(unit.id, rerolled=None)
        return True
    mod = event_modifier(battle, what)
    need = taken(unit)
    face = dice.d6(f"activation to {what}: {unit.name}")
    detail = f"2 x {face}{f' {mod:+d}' if mod else ''} = {2 * face + mod} against {need} hits"
    ok = _passes(battle, unit, face, mod)
    mode = battle.option("general_reroll")
    if not ok and mode == "auto":
        general = reroller(battle, unit)
        if general is not None:
            battle.update_leader(general.id, rallied=True)
            face = dice.d6(f"re-roll by {general.name}: {unit.name}")
            detail += f"; {general.name} re-rolls: 2 x {face}{f' {mod:+d}' if mod else ''}" \
                      f" = {2 * face + mod}"
            ok = _passes(battle, unit, face, mod)
    events.append(Activation(unit.name, what, detail, "activated" if ok else
                             "inactive and disordered this turn"))
    if not ok:
        battle.update_unit(unit.id, disordered=True)
        battle.mark_unit(unit.id, inactive=battle.state.turn)
        if mode == "choose" and action is not None and reroller(battle, unit) is not None:
            import json
            from ...model.forces import with_marks
            due = json.dumps({"unit": unit.id, "what": what, "action": action.to_dict()})
            battle.set_state(marks=with_marks(battle.state.marks, reroll_due=due))
    return ok


# ---- ground -----------------------------------------------------------------------------
def ground_refusal(battle, unit, start: Footprint, end: Footprint, ignore=(),
                   charging: bool = False) -> str:
    """Why the unit may not go from start to end in a straight line ('' when it may);
    a charge may end touching enemies (the one it charges, and any beside it)."""
    kind = utype(unit)
    why = _kept_refusal(battle, unit, kind, start, end)
    if why:
        return why
    return units_refusal(battle, unit, start, end, ignore, charging)


def units_refusal(battle, unit, start: Footprint, end: Footprint, ignore=(),
                  charging: bool = False) -> str:
    """ground_refusal's part that reads the other units ('' when none stands in the
    way), remembered until the battle next changes for the very unit record: the
    commander asks it first (a move it refuses is refused whatever the ground says:
    `moves.surely_refused_by_units`), and the check then asks it again."""
    store = battle.cached("d3.units_refusals", dict)
    key = (unit.id, start, end, ignore, charging)
    hit = store.get(key)
    if hit is None or hit[0] is not unit:
        hit = store[key] = (unit, _units_refusal(battle, unit, start, end, ignore, charging))
    return hit[1]


def _units_refusal(battle, unit, start, end, ignore, charging) -> str:
    kind = utype(unit)
    sweep = Sweep(start, end)
    for o in _near_path(battle, start, end):
        if o.id == unit.id or o.id in ignore:
            continue
        ofp = footprint(battle, o)
        if overlap(end, ofp):
            return f"it would stand on {o.name}"
        if not charging and o.side != unit.side and closer_than(end, ofp, 0.1):
            return f"only a charge may touch {o.name}"
        through = sweep.crosses(ofp)
        if through and (o.side != unit.side or not (kind == "skirmishers"
                                                     or utype(o) == "skirmishers")):
            return f"{o.name} is in the way (only skirmishers pass through friends)"
    return ""


def _terrain_refusal(battle, unit, kind, start: Footprint, end: Footprint) -> str:
    """ground_refusal's part that reads the table alone: its edge, the area terrain the
    swept ground meets, towns and water ('' when the ground lets the move go)."""
    bf = battle.battlefield
    # (the base's box is its polygon's bounds: the very test of footprint.inside)
    minx, miny, maxx, maxy = box(end)
    if not (minx >= -EPS and miny >= -EPS and maxx <= bf.width + EPS and
            maxy <= bf.height + EPS):
        return "the base would leave the table"
    t = table_terrain(bf)
    boxes = _boxes(bf)
    sweep = box(start, end)
    # only these kinds refuse a move: a hull whose box meets none of their boxes touches
    # none of them, and is not even built (hills and towns are most of Austerlitz's)
    crossed = t.kinds_at(Sweep(start, end).hull) if t.may_touch(sweep, REFUSING) else ()
    if "lake" in crossed or "marsh" in crossed:
        return "marsh and lakes are impassable"
    if "woods" in crossed and kind != "skirmishers":
        return "only skirmishers enter woods"
    if "rough" in crossed and kind not in ("infantry", "skirmishers"):
        return "only infantry and skirmishers enter difficult ground"
    if kind not in ("infantry", "cavalry") and _meets(box(end), boxes.towns) and \
            t.covered(end.polygon(), ("town",)) >= 0.5:
        return "only infantry and cavalry may end a move in a town"
    return _water(battle, unit, start, end)


def _kept_refusal(battle, unit, kind, start, end) -> str:
    """_terrain_refusal's answer, kept per battlefield (`ground_memo`): the same bases and
    options get the same answer in every battle version and every battle fought over
    this ground, as in a balance run; units held up ask the same moves turn after turn.
    Keyed by the unit's type, both bases and the two options `_water` reads."""
    key = (kind, start, end, battle.option("artillery_streams"),
           battle.option("bridge_crossing"))
    return on_ground(battle.battlefield, "d3.ground", key,
                     lambda: _terrain_refusal(battle, unit, kind, start, end))


def _kept_sight(battle, a, b) -> str:
    """table_terrain's sight_blocked(a, b, skip=1.0), kept per battlefield by the line's
    ends (`ground_memo`): shooters that stand ask the same lines turn after turn."""
    return on_ground(battle.battlefield, "d3.sight", (a, b),
                     lambda: table_terrain(battle.battlefield).sight_blocked(a, b, skip=1.0))


def _near_path(battle, start: Footprint, end: Footprint) -> list:
    """The units of the old scan (centre within the move's length + 10 of the end, in
    live_units order) that could stand on, touch or be crossed by the move: only those
    whose centre lies within both half-diagonals (+ 0.1) of the path of the centre (the
    swept ground lies within the mover's half-diagonal of it). The rest pass every test."""
    reach = distance(start.centre, end.centre) + 10
    k = float(battle.option("frontage_scale", 1.0) or 1.0)
    margin = max(math.hypot(start.frontage, start.depth), math.hypot(end.frontage, end.depth)) \
        / 2 + HALF_DIAGONAL * abs(k) + 0.1 + 1e-6
    return [o for o in spatial.unit_grid(battle).along(start.centre, end.centre, margin)
            if distance(o.pos, end.centre) <= reach]


REFUSING = ("lake", "marsh", "woods", "rough")     # the area kinds _terrain_refusal reads


class _Boxes:
    """The bounds of the table's towns and of its rivers and streams, once per
    battlefield: a move whose box meets none of them crosses none, so no shape need be
    built (shapely's tests are false for shapes whose boxes are apart)."""

    def __init__(self, battlefield):
        t = table_terrain(battlefield)
        self.towns = [shape.bounds for kind, shape, _ in t.pieces if kind == "town"]
        self.water = [line.bounds for k in ("river", "stream") for _, line in t.lines.get(k, [])]


_boxes = per_battlefield(_Boxes)


def _meets(b, bounds) -> bool:
    """Does box b (minx, miny, maxx, maxy) meet any of the bounds?"""
    return any(not (c[0] > b[2] or b[0] > c[2] or c[1] > b[3] or b[1] > c[3]) for c in bounds)


def _water(battle, unit, start, end) -> str:
    """Rivers only at a bridge or ford, streams not for guns (option `artillery_streams`:
    or at a bridge); either takes a full move, bridges too (option `bridge_crossing`):
    the crossing move starts at the bank and ends on the far bank."""
    if distance(start.centre, end.centre) < 1e-9:
        return ""
    (ax, ay), (bx, by) = start.centre, end.centre
    if not _meets((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)),
                  _boxes(battle.battlefield).water):
        return ""                       # the path's box meets no river's or stream's
    t = table_terrain(battle.battlefield)
    path = segment(start.centre, end.centre)
    for f, p in t.crossings(path, ("river", "stream")):
        if f.kind == "river" and not t.crossing_at(p):
            return f"{f.name or 'the river'} is crossed only at a bridge or ford"
        at_bridge = t.crossing_at(p) == "bridge"
        if f.kind == "stream" and utype(unit) == "artillery" and not (
                at_bridge and battle.option("artillery_streams") == "at_bridges"):
            return "artillery cannot cross a stream"
        if at_bridge and battle.option("bridge_crossing") == "free":
            continue
        if distance(start.centre, (p.x, p.y)) > end.depth / 2 + CROSSING_LANDING or \
                distance((p.x, p.y), end.centre) > end.depth / 2 + CROSSING_LANDING:
            return f"crossing {f.name or f.kind} takes the whole move: start at the bank " \
                   f"and end on the far bank"
    return ""


def in_cover(battle, unit) -> bool:
    return _covered(battle, footprint(battle, unit), ("woods", "town"))


def in_town(battle, unit) -> bool:
    return _covered(battle, footprint(battle, unit), ("town",))


def _kept_cover(battle, fp, kinds) -> bool:
    """Is at least half a base in these kinds of area? Kept per battlefield by the base
    (`ground_memo`): the same answer in every battle version and battle over that ground."""
    return on_ground(battle.battlefield, "d3.cover", (fp, kinds),
                     lambda: table_terrain(battle.battlefield).covered(fp.polygon(), kinds) >= 0.5)


def _covered(battle, fp, kinds) -> bool:
    return _kept_cover(battle, fp, kinds)


def on_hilltop(battle, unit) -> bool:
    return table_terrain(battle.battlefield).level(unit.pos) > 0


def sight_refusal(battle, unit, target) -> str:
    front = footprint(battle, unit).front_centre()
    line = segment(front, target.pos)
    for o in _crossing_line(battle, front, target.pos, line.length + 8, unit.pos):
        if o.id not in (unit.id, target.id) and footprint(battle, o).polygon().intersects(line):
            return f"{o.name} is in the way"
    blocked = _kept_sight(battle, unit.pos, target.pos)
    return f"{blocked} blocks the view" if blocked else ""


def _crossing_line(battle, a, b, reach: float, origin) -> list:
    """spatial.crossing_line's candidates for a base across segment a-b (centre within
    `reach` of origin and within the largest half-diagonal of the line), with the
    table's bound on that half-diagonal rather than one measured over every live unit
    each battle version: a few more units, whose bases cannot meet the line."""
    return [u for u in spatial.unit_grid(battle).along(a, b, largest_half(battle) + 1e-6)
            if distance(u.pos, origin) <= reach]


def surely_hidden(battle, unit, targets) -> list:
    """For each target: is its centre certainly hidden from the unit's front centre by
    another live unit's base, so that `sight_refusal` names one (shot refuses it)? One
    numpy pass per shooter over every live base (`sightlines.surely_crossed_arrays`: the
    scan's bounds, blockers within the line's length + 8 of the shooter's centre, are
    its own), never under the option `line_of_sight = none`. False means only "maybe
    not"."""
    from ...sightlines import surely_crossed_arrays
    if not targets or battle.option("line_of_sight", "blocked") == "none":
        return [False] * len(targets)
    index, keys, ox, oy, fx, fy, hd, hf = _base_arrays(battle)
    front = footprint(battle, unit).front_centre()
    hits = surely_crossed_arrays(front, [t.pos for t in targets],
                                 [index.get(t.id, -1) for t in targets], keys, ox, oy, fx, fy,
                                 hd, hf, unit.pos, index.get(unit.id, -1), 8.0)
    return hits.tolist()                    # (a numpy bool array: Python bools)


def _base_arrays(battle) -> tuple:
    """(index by unit id, keys, x, y, facing vector x and y, half depth, half frontage) of
    every live unit's base, in live_units order: kept from the battle's journal of
    changes (a unit that moved or was hit is patched where it stands; one gone, new or
    a wholesale change rebuilds), so a change costs a row, not every base."""
    rows = battle.derived("d3.base_rows", lambda: _BaseRows(battle),
                          lambda view, changes: view.follow(battle, changes))
    return rows.arrays()


class _BaseRows:
    """The columns of _base_arrays, and the rows they were filled from (`rows`); the
    facing vectors are worked out again over the whole column after a patch that turned
    a base (the very vector call of a fresh build: the same floats). A change that
    leaves a base where it was (hits, marks: half the changes a turn) patches nothing."""

    __slots__ = ("index", "keys", "ox", "oy", "facing", "hd", "hf", "fx", "fy", "rows")

    def __init__(self, battle):
        self.fill(battle)

    def fill(self, battle) -> None:
        units = battle.live_units()
        self.rows = [_row(battle, u) for u in units]
        self.ox, self.oy, self.facing, self.hd, self.hf = \
            np.array(self.rows, dtype=float).reshape(-1, 5).T.copy()
        self.index = {u.id: k for k, u in enumerate(units)}
        self.keys = np.arange(len(units))
        self._turn()

    def _turn(self) -> None:
        r = np.radians(self.facing)         # (numpy's sin and cos: far inside MARGIN)
        self.fx, self.fy = np.sin(r), -np.cos(r)

    def follow(self, battle, changes) -> None:
        turned = False
        for change in changes:
            if change[0] != "unit":
                continue
            u, k = battle.units.get(change[1]), self.index.get(change[1])
            live = u is not None and not u.eliminated
            if k is None and not live:
                continue
            if k is None or not live:           # a newcomer, or one gone: rebuild
                return self.fill(battle)
            row = _row(battle, u)
            if row == self.rows[k]:
                continue
            turned = turned or row[2] != self.rows[k][2]
            self.rows[k] = row
            (self.ox[k], self.oy[k], self.facing[k], self.hd[k], self.hf[k]) = row
        if turned:
            self._turn()

    def arrays(self) -> tuple:
        return (self.index, self.keys, self.ox, self.oy, self.fx, self.fy, self.hd, self.hf)


def _row(battle, u) -> tuple:
    fp = footprint(battle, u)
    return fp.x, fp.y, fp.facing, fp.depth / 2, fp.frontage / 2


def threatened_general(battle, leader) -> bool:
    """An enemy unit within 6 inches with no friendly unit between them."""
    for e in near(battle, leader.pos, 10, battle.enemy_of(leader.side)):
        fp = footprint(battle, e)
        if fp.polygon().distance(Point(leader.pos)) > 6:
            continue
        line = segment(leader.pos, e.pos)
        if not any(footprint(battle, f).polygon().intersects(line)
                   for f in near(battle, leader.pos, 8, leader.side)):
            return True
    return False


def kept_for(battle, name: str, key, unit, target, compute):
    """compute()'s answer, or the IllegalAction it raised (re-raised with its message),
    remembered until the battle next changes and for these very unit records: the
    commander's look, its legal(), the odds and the session's check ask the same."""
    store = battle.cached(name, dict)
    hit = store.get(key)
    if hit is None or hit[0] is not unit or hit[1] is not target:
        try:
            hit = (unit, target, compute(), None)
        except IllegalAction as e:
            hit = (unit, target, None, str(e))
        store[key] = hit
    if hit[3] is not None:
        raise IllegalAction(hit[3])
    return hit[2]
