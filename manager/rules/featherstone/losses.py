"""Casualties and what follows them: disorder, saving rolls, retreats, leaders lost,
Shaken commands and army morale."""
from __future__ import annotations

import math

from shapely.geometry import Point

from ...events import HitsTaken, UnitEliminated, UnitRetreated, declare_event
from ...footprint import bearing, box, heading, overlap, segment, slide
from ...model.forces import mark, with_marks
from ...table_terrain import table_terrain
from . import ground                        # the ground under a base: kept across versions
from .settled import settle_kept
from .state import arm, footprint, is_skirmish, move_rate, traits
from .nearby import attached_leaders, near_units
from .tables import (IMPASSABLE_AREAS, SAVE_ARMOURED, SAVE_BUILDINGS, SAVE_FORMED,
                     SAVE_FORTIFIED, SAVE_LIGHT_OR_CREW, SAVE_MELEE)

CasualtiesSaved = declare_event("CasualtiesSaved", "{unit} saves {saved} of {hits} ({save}+)",
                                unit=str, hits=int, saved=int, save=int)
GeneralFell = declare_event("GeneralFell", "{leader} falls: {why}", leader=str, why=str)
UnitDisordered = declare_event("UnitDisordered", "{unit} is disordered", unit=str)
LeaderSurvived = declare_event("LeaderSurvived", "{leader} is unhurt ({why})", leader=str, why=str)
OfficerFell = declare_event("OfficerFell", "{unit} loses its commander; it checks morale at -1",
                            unit=str)
UnitRouted = declare_event("UnitRouted", "{unit} {how} {inches:.1f} inches to {to}",
                           unit=str, how=str, inches=float, to=tuple)

FORTIFIED_VARIANTS = ("fortified", "castle", "chateau", "earthworks", "redoubt")


def cover_save(battle, unit) -> int:
    """The save buildings or works give a unit standing in them (0: none); remembered
    until the battle changes (every shot at the unit asks it)."""
    return ground.kept(battle, "cover", footprint(battle, unit),
                       lambda: _cover_save(battle, unit))


def _cover_save(battle, unit) -> int:
    t = table_terrain(battle.battlefield)
    poly = footprint(battle, unit).polygon()
    if t.covered(poly, ("town",)) < 0.5:
        return 0
    for f in battle.battlefield.features:
        if f.kind == "town" and f.variant in FORTIFIED_VARIANTS:
            from ...geometry import feature_geometry
            if feature_geometry(f).contains(Point(unit.x, unit.y)):
                return SAVE_FORTIFIED
    return SAVE_BUILDINGS


def behind_wall(battle, unit, from_xy) -> bool:
    """Is a wall, hedge or fence between the shooter and the unit, within an inch of it?
    (The bases and the ground alone: kept across versions.)"""
    fp = footprint(battle, unit)
    return ground.kept(battle, "behind_wall", (fp, float(from_xy[0]), float(from_xy[1])),
                       lambda: _behind_wall(battle, unit, from_xy))


def _behind_wall(battle, unit, from_xy) -> bool:
    t = table_terrain(battle.battlefield)
    line, near = segment(from_xy, unit.pos), None
    for _, w in t.lines.get("wall", []):
        if line.intersects(w):        # the widened base only for a wall the line crosses
            if near is None:
                near = footprint(battle, unit).polygon().buffer(1.0)
            if line.intersection(w).intersects(near):
                return True
    return False


def save_for(battle, unit, shooting: bool, from_xy=None) -> tuple[int, int]:
    """(lowest face that saves, bonus added to the die) for this unit now."""
    base = SAVE_FORMED if shooting else SAVE_MELEE
    if shooting and (is_skirmish(unit) or arm(unit) == "artillery"):
        base = SAVE_LIGHT_OR_CREW
    if "armoured" in traits(battle, unit):
        base = min(base, SAVE_ARMOURED)
    cover = cover_save(battle, unit)
    if cover:
        base = min(base, cover)
    elif from_xy is not None and behind_wall(battle, unit, from_xy):
        base = min(base, SAVE_BUILDINGS)
    bonus = 0
    if arm(unit) == "infantry" and _in_woods(battle, unit.x, unit.y):
        bonus = 1                                   # +1 to the die in the woods
    return base, bonus


def _in_woods(battle, x: float, y: float) -> bool:
    return ground.kept(battle, "woods", (x, y), lambda: "woods" in table_terrain(
        battle.battlefield).kinds_at(Point(x, y)))


def saving_rolls(battle, unit, hits: int, dice, shooting: bool, events: list,
                 from_xy=None) -> int:
    """Roll a die per hit; return the casualties that stand."""
    if hits <= 0:
        return 0
    save, bonus = save_for(battle, unit, shooting, from_xy)
    faces = dice.roll(hits, f"saves: {unit.name} ({save}+{' +1 woods' if bonus else ''})").faces
    saved = sum(1 for f in faces if f + bonus >= save)
    events.append(CasualtiesSaved(unit.name, hits, saved, save))
    return hits - saved


def take_casualties(battle, uid: str, n: int, events: list, dice=None) -> bool:
    """Remove figures (never below zero) and disorder the unit; True if it is gone."""
    unit = battle.units[uid]
    n = min(n, unit.hits)
    if n <= 0:
        return False
    was = unit.disordered
    # (one new record with its disorder, not a second for it)
    unit = battle.update_unit(uid, hits=unit.hits - n, disordered=True) if unit.hits > n \
        else battle.update_unit(uid, hits=0)
    events.append(HitsTaken(unit.name, n, unit.hits, uid))
    if unit.hits == 0:
        eliminate(battle, uid, events, dice=dice)
        return True
    if not was:
        events.append(UnitDisordered(unit.name))
    return False


def eliminate(battle, uid: str, events: list, why: str = "", dice=None) -> None:
    """The unit is gone; a general attached to it is diced for as overrun (1-3 falls)."""
    unit = battle.units[uid]
    riders = attached_leaders(battle, unit)
    battle.update_unit(uid, eliminated=True, marks=())
    for l in riders:                       # he escapes to another unit, never this one
        overrun_general(battle, l.id, dice, events)
    events.append(UnitEliminated(unit.name + (f" ({why})" if why else ""), uid))


# ---- leaders --------------------------------------------------------------------------
def leader_dies(battle, lid: str, events: list, why: str) -> None:
    leader = battle.leaders[lid]
    battle.update_leader(lid, eliminated=True, hits=0)
    events.append(GeneralFell(leader.name, why))


def hit_leaders_check(battle, unit, hits: int, dice, events: list) -> None:
    """6 or more hits on a unit: dice for its attached generals (and its officer): 1-2 falls."""
    if hits < 6:
        return
    for l in attached_leaders(battle, unit):
        if dice.d6(f"leader hit: {l.name} with {unit.name}") <= 2:
            leader_dies(battle, l.id, events, f"struck down with {unit.name}")
        else:
            events.append(LeaderSurvived(l.name, "the balls miss him"))
    if battle.option("unit_officers") and not mark(unit, "officer_lost"):
        if dice.d6(f"officer hit: {unit.name}") <= 2:
            battle.mark_unit(unit.id, officer_lost=True)
            events.append(OfficerFell(unit.name))


def overrun_general(battle, lid: str, dice, events: list) -> None:
    """A general caught by the enemy: 1-3 killed or captured, 4+ escapes to the nearest
    formed friendly unit, with no influence for the rest of the turn."""
    leader = battle.leaders[lid]
    friends = [u for u in battle.live_units(leader.side) if not u.disordered]
    face = dice.d6(f"overrun: {leader.name}")
    if face <= 3 or not friends:
        leader_dies(battle, lid, events, "overrun")
        return
    to = min(friends, key=lambda u: (u.x - leader.x) ** 2 + (u.y - leader.y) ** 2)
    battle.update_leader(lid, x=to.x, y=to.y, moved=True)
    barred = dict(battle.state.marks).get("no_influence", ())
    battle.set_state(marks=with_marks(battle.state.marks, no_influence=barred + (lid,)))
    events.append(LeaderSurvived(leader.name, f"escapes to {to.name}"))


# ---- retreats ---------------------------------------------------------------------------
def retreat(battle, uid: str, away_from, moves: float, face: str, how: str,
            events: list, dice=None) -> bool:
    """Move a unit `moves` of its moves directly away from a point, stopping short of any
    base or impassable ground; facing the enemy ('enemy') or its way ('away'). A unit
    driven off the table is lost. True if it left the table."""
    unit = battle.units[uid]
    rate = max(move_rate(unit), move_rate(unit, "line"))
    inches = moves * rate
    way = bearing(away_from, unit.pos) if (away_from[0], away_from[1]) != unit.pos else \
        (unit.facing + 180) % 360
    hx, hy = heading(way)
    facing = round((way + 180) % 360) if face == "enemy" else round(way)
    t = table_terrain(battle.battlefield)
    bf = battle.battlefield
    fp = footprint(battle, unit, facing=facing)
    others = _on_the_way(fp, hx, hy, inches, [footprint(battle, u) for u in near_units(
        battle, unit.pos, inches + 12) if u.id != uid])

    def stop(nxt) -> str:
        if not (0 <= nxt.x <= bf.width and 0 <= nxt.y <= bf.height):
            return "off"
        if any(overlap(nxt, o) for o in others):
            return "blocked"
        # no shape built where the base's box is apart from every lake piece's box
        if t.may_touch(box(nxt), IMPASSABLE_AREAS) and \
                t.kinds_at(nxt.polygon()) & set(IMPASSABLE_AREAS):
            return "blocked"
        return ""

    done, why = slide(fp, way, inches, stop)
    if why == "off":
        moved_leaders(battle, unit, unit.x + hx * done, unit.y + hy * done)
        eliminate(battle, uid, events, "driven off the table", dice=dice)
        return True
    x, y = unit.x + hx * done, unit.y + hy * done
    if done == 0 and any(overlap(fp, o) for o in others):
        facing = unit.facing                   # no room even to turn: it stays as it was
    moved_leaders(battle, unit, x, y)
    battle.update_unit(uid, x=x, y=y, facing=facing % 360, fell_back=True)
    events.append(UnitRouted(unit.name, how, done, (round(x, 1), round(y, 1))))
    events.append(UnitRetreated(unit.name, (round(x, 1), round(y, 1))))
    return False


def _on_the_way(fp, hx: float, hy: float, inches: float, others: list) -> list:
    """The bases of `others` (in order) the base fp could overlap anywhere on its slide
    of `inches` along (hx, hy): overlap's own first look passes over a base whose
    circle is apart from the slid base's, and every step's centre lies on the segment
    the slide's centre sweeps (to rounding far inside the 1e-6 inch kept here)."""
    x, y, half = fp.x, fp.y, math.hypot(fp.frontage, fp.depth) / 2
    vx, vy = hx * inches, hy * inches
    l2 = vx * vx + vy * vy
    out = []
    for o in others:
        px, py = o.x - x, o.y - y
        t = min(max((px * vx + py * vy) / l2, 0.0), 1.0) if l2 > 0 else 0.0
        reach = half + math.hypot(o.frontage, o.depth) / 2 + 2e-6
        if math.hypot(px - t * vx, py - t * vy) <= reach:
            out.append(o)
    return out


def moved_leaders(battle, unit, x: float, y: float) -> None:
    """Attached generals go where their unit goes."""
    dx, dy = x - unit.x, y - unit.y
    for l in attached_leaders(battle, unit):
        battle.update_leader(l.id, x=min(max(l.x + dx, 0), battle.battlefield.width),
                             y=min(max(l.y + dy, 0), battle.battlefield.height))


# ---- commands and armies ----------------------------------------------------------------
def settle(battle, events: list) -> None:
    """Shaken commands and army morale (not in the text: the army_morale option); not
    asked again while nothing it reads has changed (settled)."""
    settle_kept(battle, events, battle.option("army_morale"))


def half_up(n: int) -> int:
    return math.ceil(n / 2)
