"""What D3 reads off a unit: its type, base and hits, the activation test and the
general's re-roll, a general in danger, and answers kept while the units stand (where
it may go is `ground.py`'s, what it can see `sight.py`'s).

Per-turn state lives in the unit's marks: `inactive` (the turn it failed its test: it
stays put, disordered, for the rest of the turn), `deployed` (artillery that has
shot), `charging` (its target). A general's once-a-turn re-roll is `Leader.rallied`.
"""
from __future__ import annotations

import math

from shapely.geometry import Point

from ... import spatial
from ...errors import IllegalAction
from ...events import declare_event
from ...footprint import Footprint, distance, segment
from ...model.forces import mark
from ...table_terrain import table_terrain
from .tables import DEPTH, EVENTS, FRONTAGE, GENERAL_REROLL_REACH, TYPES

# the largest half-diagonal of any base at frontage_scale 1
HALF_DIAGONAL = max(math.hypot(FRONTAGE[t], DEPTH[t]) for t in FRONTAGE) / 2


def largest_half(battle) -> float:
    """The largest half-diagonal any base can have in this battle (HALF_DIAGONAL at the
    scenario's frontage_scale): the bound every "no base farther can meet" look uses."""
    return _scaled(battle)[2]


def frontage_scale(battle) -> float:
    """The scenario's frontage_scale as a float (1.0 when unset)."""
    return _scaled(battle)[1]


_SCALE: list = [None, 1.0, HALF_DIAGONAL]   # (info read, its frontage_scale, largest_half)


def _scaled(battle) -> list:
    """_SCALE, read again when the battle's scenario info is another record (the info is
    immutable, and held here, so `is` cannot meet a new record at an old address): the
    rules ask the scale ~25,000 times in 8 Austerlitz turns, an option call each."""
    info = battle.info
    if _SCALE[0] is not info:
        k = float(battle.option("frontage_scale", 1.0) or 1.0)
        _SCALE[:] = [info, k, HALF_DIAGONAL * abs(k)]
    return _SCALE

Activation = declare_event("Activation", "{unit} tests to {what}: {detail} -> {result}",
                           unit=str, what=str, detail=str, result=str)


def utype(unit) -> str:
    """The unit's type (PROFILES[kind]["type"], from the same table)."""
    return TYPES[unit.kind]


def taken(unit) -> int:
    """Hits accumulated so far (the text counts up to 9)."""
    return unit.max_hits - unit.hits


BASES = "d3.footprints"                 # spatial.own_base's memo of the units' own bases
_NONE: dict = {}


def footprint(battle, unit, x=None, y=None, facing=None) -> Footprint:
    if x is None and y is None and facing is None:     # its own base: once per version
        # spatial.own_base's hit read here (as Featherstone's): a frame and six
        # arguments less on ~16,000 asks in 3 Austerlitz turns
        hit = battle._kept.get(BASES, _NONE).get(unit.id)
        if hit is not None and hit[0] is unit and hit[1] is battle.info:
            return hit[2]
        return spatial.own_base(battle, BASES, unit, _footprint, battle, unit, None, None, None)
    return _footprint(battle, unit, x, y, facing)


def _footprint(battle, unit, x, y, facing) -> Footprint:
    k = _scaled(battle)[1]
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


def on_hilltop(battle, unit) -> bool:
    return table_terrain(battle.battlefield).level(unit.pos) > 0


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
