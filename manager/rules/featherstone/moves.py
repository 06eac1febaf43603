"""Movement on the open table: full-rate forward moves, half-rate moves in any direction,
formation changes, generals, and the cavalry recall.

A full-rate move is one straight line within the forward arc, the unit ending square
to its line of advance; any other move or facing is at half rate (each inch costs
two). No figure may go farther than the allowance: the cost is the largest distance
any corner of the base travels, plus half speed inside area terrain (not on a road),
plus 3 inches per linear obstacle. A formation change spends half the allowance.
Artillery moves in any direction at full speed; roads double it.
"""
from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import LineString, Point

from ... import spatial
from ...actions import need, register
from ...game_actions import GameAction
from ...events import FormationChanged, LeaderMoved, UnitMoved, declare_event
from ...footprint import (Sweep, angle_between, bearing, box, closer_than, distance, inside,
                          segment, overlap, travel)
from ...model.forces import mark, with_marks
from ...table_terrain import table_terrain
from ..common import check_ride, own_unit  # noqa: F401  (own_unit: for the other modules)
from . import ground
from .losses import moved_leaders, retreat
from .recall import recall
from .state import (allowance, arm, crew, engaged, footprint, formations_for, move_budget,
                    move_rate)
from .nearby import attached_leaders, near_the_move, near_units, nearest_enemy
from .tables import (DIFFICULT_AREAS, GENERAL_MOVE, IMPASSABLE_AREAS, LINEAR_OBSTACLE_COST,
                     MARCH_COLUMN_ROAD_BONUS)


StanceChosen = declare_event("StanceChosen", "{unit} {what}", unit=str, what=str)


@register
@dataclass(frozen=True)
class SoundRecall(GameAction):
    """Featherstone: recall cavalry that rolled 'no move' within 8 inches of the enemy."""
    unit: str


@register
@dataclass(frozen=True)
class HoldGround(GameAction):
    """Featherstone: skirmishers choose to stand and fight if charged (stand=True) or to
    evade, as they do unless told (the choice holds until changed)."""
    unit: str
    stand: bool = True


def check_hold(battle, action) -> None:
    from .state import is_skirmish
    unit = own_unit(battle, action.unit)
    need(is_skirmish(unit), f"{unit.name} is not skirmish infantry: formed troops never evade")


def resolve_hold(battle, action, dice) -> list:
    battle.mark_unit(action.unit, stand_ground=True if action.stand else None)
    name = battle.units[action.unit].name
    return [StanceChosen(name, "will stand and fight if charged" if action.stand
                         else "will evade a charge")]


@register
@dataclass(frozen=True)
class CounterCharge(GameAction):
    """Featherstone: foot that rolls 7 when charged by foot may "Counter charge, stand
    ground or form square": this unit counter-charges (on=True) rather than stand and fire
    first, as it does unless told (the choice holds until changed). Horse charged by horse
    "MUST counter-charge"; foot may not charge horse."""
    unit: str
    on: bool = True


def check_counter(battle, action) -> None:
    unit = battle.units.get(action.unit)
    need(unit is not None and not unit.eliminated, f"there is no unit {action.unit!r}")
    need(arm(unit) == "infantry", f"{unit.name} is not foot: horse charged by horse must "
         "counter-charge on a 7, guns never do")


def resolve_counter(battle, action, dice) -> list:
    battle.mark_unit(action.unit, counter_seven=True if action.on else None)
    return [StanceChosen(battle.units[action.unit].name,
                         "will counter-charge foot on a 7" if action.on
                         else "will stand and fire first on a 7")]


@register
@dataclass(frozen=True)
class DeclineReroll(GameAction):
    """Featherstone: grenadiers and guards "may opt to re-roll 1 die" in melee; their owner
    declines it for this turn's melee (by default the engine makes the owner's best use:
    a missed die, else a 1)."""
    unit: str


def check_decline(battle, action) -> None:
    from .state import special
    unit = battle.units.get(action.unit)
    need(unit is not None and not unit.eliminated, f"there is no unit {action.unit!r}")
    need("elite" in special(unit), f"{unit.name} is not grenadiers or guards: no re-roll")


def resolve_decline(battle, action, dice) -> list:
    battle.mark_unit(action.unit, no_reroll=battle.state.turn)
    return [StanceChosen(battle.units[action.unit].name, "forgoes its re-roll this turn")]


@register
@dataclass(frozen=True)
class CommitGeneral(GameAction):
    """Featherstone: a general within 4 inches lends his influence (+1..-1, "at the
    player's whim") to a unit's checks on the Charged and Lost Melee columns this turn;
    a stray round may hit him (1 on a die) when the unit is in harm's way."""
    leader: str
    unit: str
    influence: int = 1


def check_commit(battle, action) -> None:
    from .morale import may_influence
    leader, unit = battle.leaders.get(action.leader), battle.units.get(action.unit)
    need(leader is not None and not leader.eliminated, f"there is no general {action.leader!r}")
    need(unit is not None and not unit.eliminated, f"there is no unit {action.unit!r}")
    why = may_influence(battle, leader, unit)
    need(not why, why)
    from .nearby import attached_to
    host = attached_to(battle, leader)
    top = 2 if host is not None and host.id == unit.id else 1
    need(-top <= action.influence <= top, "a general within 4 inches gives +1, 0 or -1; "
         "one attached +2 to -2")


def resolve_commit(battle, action, dice) -> list:
    battle.mark_unit(action.unit, lend=f"{action.leader}:{action.influence}:{battle.state.turn}")
    leader, unit = battle.leaders[action.leader], battle.units[action.unit]
    return [StanceChosen(unit.name, f"has {leader.name}'s influence ({action.influence:+d}) "
                                    f"if charged or beaten this turn")]


@dataclass
class Plan:
    cost: float          # inches the move spends (half-rate moves count double)
    rate: float          # the allowance the move is measured against
    kind: str            # "forward", "half" or "artillery"
    road: bool


def terrain_cost(battle, path: LineString) -> tuple[float, str, bool]:
    """(extra inches, refusal, on road) for a straight path of the unit's centre."""
    return terrain_between(battle, *path.coords)


def terrain_between(battle, a, b) -> tuple[float, str, bool]:
    """terrain_cost of the path from a to b, kept across versions (the ground alone:
    the commander tries the same paths again, and charge paths are asked each step)."""
    a, b = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
    return ground.kept(battle, "terrain_cost", (a, b), lambda: _terrain_cost(battle, segment(a, b)))


def _terrain_cost(battle, path: LineString) -> tuple[float, str, bool]:
    t = table_terrain(battle.battlefield)
    road = path.length > 0 and t.along_road(path)
    extra = 0.0 if road else t.length_inside(path, DIFFICULT_AREAS)
    for f, p in t.crossings(path, ("wall", "stream", "river")):
        if f.kind == "river":
            crossing = t.crossing_at(p)
            if not crossing:
                return 0.0, f"{f.name or 'the river'} can be crossed only at a bridge or ford", road
            extra += LINEAR_OBSTACLE_COST if crossing == "ford" else 0
        elif not (f.kind == "stream" and t.crossing_at(p) == "bridge"):
            extra += LINEAR_OBSTACLE_COST
    return extra, "", road


def plan(battle, unit, to, facing: int, formation: str = "") -> Plan:
    """Check a move and price it; raises IllegalAction with the reason."""
    forward_arc = battle.option("forward_arc", 45)
    form = formation or unit.formation
    # (re-forming is paid separately; in its own formation the unit's own base, kept)
    start = footprint(battle, unit) if form == unit.formation else \
        footprint(battle, unit, formation=form)
    end = footprint(battle, unit, x=to[0], y=to[1], facing=facing, formation=form)
    d = distance(unit.pos, to)
    extra, refusal, road = terrain_between(battle, unit.pos, to) if d > 1e-9 else (0.0, "", False)
    need(not refusal, refusal)
    rate = move_rate(unit, form)
    if road and form == "march_column":
        rate += MARCH_COLUMN_ROAD_BONUS
    if road and arm(unit) == "artillery":
        rate *= 2
    if arm(unit) == "artillery":
        kind = "artillery"
    elif d <= 1e-9 and facing % 360 == unit.facing % 360:
        kind = "forward"
    elif (d > 1e-9 and angle_between(bearing(unit.pos, to), unit.facing) <= forward_arc + 1e-6
          and angle_between(bearing(unit.pos, to), facing) <= 1.0):
        kind = "forward"
    else:
        kind = "half"
    # a gun team turns as it goes: measured at the centre; a formed unit by its outer flank
    cost = (d if kind == "artillery" else travel(start, end)) + extra
    return Plan(cost * (2 if kind == "half" else 1), rate, kind, road)


def planned(battle, unit, to, facing: int, formation: str = "") -> Plan:
    """`plan`, remembered for this battle version and this unit record (its refusal too):
    the check of a move and then its resolution ask it of one version in turn. (The key
    takes `to` by value: 1 and 1.0 plan alike, every use of them being arithmetic.)"""
    return recall(battle, "featherstone.plan", (unit.id, to[0], to[1], facing, formation),
                  (unit,), lambda: plan(battle, unit, to, facing, formation))


def ground_refusal(battle, unit, fp, path_from=None) -> str:
    """Why the base may not stand at fp (or pass from path_from to it): '' when it may."""
    bf = battle.battlefield
    if not inside(fp, bf.width, bf.height):
        return "the base would leave the table"
    bad = ground.kept(battle, "impassable", fp,       # the ground under the base
                      lambda: _impassable_under(battle, fp))
    if bad:
        return f"{', '.join(sorted(bad))} cannot be entered"
    sweep = Sweep(path_from, fp) if path_from is not None else None
    reach = distance(unit.pos, fp.centre) + 12
    # near_units(fp.centre, reach) less the bases surely clear of every test below
    for o in near_the_move(battle, unit, fp, path_from, reach):
        if o.id == unit.id:
            continue
        ofp = footprint(battle, o)
        if overlap(fp, ofp):
            return f"it would stand on {o.name}"
        if o.side != unit.side:
            if closer_than(fp, ofp, 0.1):
                return f"only a charge may touch {o.name}"
            if sweep is not None and sweep.crosses(ofp):
                return f"{o.name} is in the way"
        elif sweep is not None and not battle.option("pass_through_friends") and \
                sweep.crosses(ofp):
            return f"{o.name} is in the way"
    return ""


def _impassable_under(battle, fp) -> frozenset:
    """The impassable kinds of area the base stands in (kinds_at's answer for them),
    without building the base's shape when its box is apart from every such piece's."""
    t = table_terrain(battle.battlefield)
    if not t.may_touch(box(fp), IMPASSABLE_AREAS):
        return frozenset()
    return t.kinds_at(fp.polygon()) & set(IMPASSABLE_AREAS)


def lands_on_another(battle, unit, to, facing) -> bool:
    """Would the move end on another unit's base (ground_refusal refuses it)?"""
    return landing_on(battle, unit, to, facing) is not None


def landing_on(battle, unit, to, facing, first=None):
    """The unit whose base the move would end on (lands_on_another), or None. `first`: a
    unit to try before the scan (the one a shorter or longer trial of the same move
    landed on): if the end overlaps it within the scan's 10 inches, the scan would find
    a unit too (it keeps every unit whose base could overlap), so the answer to
    "lands on another?" is the same."""
    end = footprint(battle, unit, x=to[0], y=to[1], facing=facing, formation=unit.formation)
    if first is not None and distance(first.pos, to) <= 10.0 and \
            overlap(end, footprint(battle, first)):
        return first
    return spatial.landing_on(battle, unit, end, footprint)


def check_move_unit(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(unit.moved < 2, f"{unit.name} has already moved this turn")
    need(not engaged(battle, unit), f"{unit.name} is locked in a melee")
    need(not mark(unit, "sheltered"), f"{unit.name}'s crew are sheltering")
    need(mark(unit, "allow", 1) > 0, f"{unit.name} may not move this turn (its rally result)")
    if arm(unit) == "artillery":
        need(crew(unit) >= 2, f"{unit.name} has a crew of one left: the gun cannot be moved")
    if action.formation and action.formation != unit.formation:
        need(action.formation in formations_for(battle, unit),
             f"{unit.name} cannot form {action.formation}")
        need(mark(unit, "used", 0.0) <= 0.5, f"{unit.name} has no half move left to re-form")
    need(0 <= action.facing < 360, "facing is 0 to 359 degrees")
    p = planned(battle, unit, action.to, action.facing, action.formation)
    need(p.rate > 0, f"{unit.name} cannot move in {action.formation or unit.formation}")
    budget = move_budget(unit, p.rate, bool(action.formation) and
                         action.formation != unit.formation)
    need(p.cost <= budget + 1e-6,
         f"{unit.name} needs {p.cost:.1f} inches{' (half rate)' if p.kind == 'half' else ''}"
         " of move"
         f" and has {max(budget, 0):.1f}")
    end = footprint(battle, unit, x=action.to[0], y=action.to[1], facing=action.facing,
                    formation=action.formation or unit.formation)
    why = ground_refusal(battle, unit, end, footprint(battle, unit))
    need(not why, f"{unit.name} cannot go there: {why}")


def resolve_move_unit(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    p = planned(battle, unit, action.to, action.facing, action.formation)
    changing = bool(action.formation and action.formation != unit.formation)
    used = mark(unit, "used", 0.0) + (0.5 if changing else 0)
    used += p.cost / (p.rate * mark(unit, "allow", 1)) if p.rate else 0
    x, y = float(action.to[0]), float(action.to[1])
    moved_leaders(battle, unit, x, y)
    turned = mark(unit, "turned", 0) + angle_between(unit.facing, action.facing)
    moved = 2 if distance(unit.pos, (x, y)) > 1e-9 else max(unit.moved, 1)
    # (one new record, its marks with it: not a second for the marks)
    battle.update_unit(unit.id, x=x, y=y, facing=action.facing % 360, moved=moved,
                       formation=action.formation or unit.formation,
                       marks=with_marks(battle.units[unit.id].marks,
                                        used=round(min(used, 1.0), 6), turned=round(turned, 3)))
    events = []
    if changing:
        events.append(FormationChanged(unit.name, action.formation))
    events.append(UnitMoved(unit.name, (round(x, 1), round(y, 1)), action.facing, p.cost))
    return events


def check_change_formation(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(not engaged(battle, unit), f"{unit.name} is locked in a melee")
    need(action.formation in formations_for(battle, unit),
         f"{unit.name} may not take that formation: it may form "
         f"{', '.join(formations_for(battle, unit))}")
    need(action.formation != unit.formation, f"{unit.name} is already in {unit.formation}")
    need(mark(unit, "allow", 1) > 0, f"{unit.name} may not move this turn (its rally result)")
    need(mark(unit, "used", 0.0) <= 0.5, f"{unit.name} has no half move left to re-form")
    end = footprint(battle, unit, formation=action.formation)
    why = ground_refusal(battle, unit, end)
    need(not why, f"{unit.name} cannot form {action.formation} there: {why}")


def resolve_change_formation(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    battle.update_unit(unit.id, formation=action.formation, moved=max(unit.moved, 1))
    battle.mark_unit(unit.id, used=round(mark(unit, "used", 0.0) + 0.5, 6))
    return [FormationChanged(unit.name, action.formation)]


def check_move_leader(battle, action) -> None:
    check_ride(battle, action, GENERAL_MOVE)
    t = table_terrain(battle.battlefield)
    need(not (t.kinds_at_point(action.to) & set(IMPASSABLE_AREAS)), "he cannot ride into a lake")


def resolve_move_leader(battle, action, dice) -> list:
    leader = battle.leaders[action.leader]
    battle.update_leader(leader.id, x=float(action.to[0]), y=float(action.to[1]), moved=True)
    events = [LeaderMoved(leader.name, (round(action.to[0], 1), round(action.to[1], 1)))]
    for u in near_units(battle, action.to, 6, leader.side):
        if battle.leaders[leader.id] in attached_leaders(battle, u):
            events.append(LeaderMoved(leader.name, (f"attached to {u.name}",)))
            break
    return events


def check_recall(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(arm(unit) == "cavalry", "only cavalry is recalled")
    need(mark(unit, "recall") == battle.state.turn,
         f"{unit.name} may be recalled only after a 'no move' rally result within 8 inches "
         "of the enemy, and not the turn after it charged (impetuous)")
    need(unit.moved < 2, f"{unit.name} has already moved")


def resolve_recall(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    events: list = []
    enemy = nearest_enemy(battle, unit)
    retreat(battle, unit.id, enemy.pos if enemy else unit.pos, 1, "enemy", "is recalled", events, dice=dice)
    if not battle.units[unit.id].eliminated:
        battle.update_unit(unit.id, disordered=True, moved=2)
        battle.mark_unit(unit.id, recall=None)
    return events


def reach_polygons(battle, unit) -> list[tuple]:
    """The ground the unit's centre could reach: the forward sector at full rate and a
    circle at half rate (terrain ignored: the drop is checked exactly)."""
    import math
    a = allowance(unit)
    if a <= 0:
        return []
    arc = battle.option("forward_arc", 45)
    pts = [unit.pos]
    for i in range(-8, 9):
        r = math.radians(unit.facing + arc * i / 8)
        pts.append((unit.x + a * math.sin(r), unit.y - a * math.cos(r)))
    sector = tuple(pts)
    half = Point(unit.pos).buffer(a / 2 if arm(unit) != "artillery" else a, 24)
    return [sector, tuple(half.exterior.coords)[:-1]]
