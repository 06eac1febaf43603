"""Quick-play movement: declared, then rolled. Advance or retire at full speed, back or
sideways at half, wheels priced by the outer flank; charges that pin; counter-charges and
evading skirmishers; commanders riding, rallying and leading ("Follow me!").

A move is checked against the most its dice could give; the dice then say how far it
gets: a unit whose roll falls short goes as far as the roll allows along the line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...actions import need, register
from ...events import FormationChanged, LeaderMoved, UnitMoved, declare_event
from ...footprint import angle_between, bearing, distance, heading, travel
from ...game_actions import GameAction
from ...model.forces import mark
from ..common import own_unit
from .tables import (ARM_FORMATIONS, COLUMN_BONUS_DICE, COMMAND_TEST, COMMANDER_JOIN, DOUBLED,
                     FIRE_ARC, LIMBERED_BONUS, MOVE_DICE, ROAD_BONUS_DICE)
from .move_ground import ground_refusal, no_extra_along, terrain_cost
from .units import acted, arm, engaged, footprint, in_command, is_skirmish, pinned, prof, quality


MoveRolled = declare_event("MoveRolled", "{unit} rolls {detail}: {inches:.1f} inches",
                           unit=str, detail=str, inches=float)
CommandFailed = declare_event("CommandFailed", "{unit} is out of command and does not move "
                              "({face} {mod:+d}, needs 4)", unit=str, face=int, mod=int)


@register
@dataclass(frozen=True)
class FollowMe(GameAction):
    """Quick-play: a commander rides up to 12 inches to join a unit; it moves 1D6 farther."""
    leader: str
    unit: str


def move_class(unit) -> str:
    return prof(unit)["move"]


def max_allowance(battle, unit, formation: str = "", road: bool = False) -> float:
    fixed, n = MOVE_DICE[move_class(unit)]
    n += _bonus_dice(unit, formation, road)
    top = fixed + 6 * n + (LIMBERED_BONUS if unit.formation == "limbered" else 0)
    top *= 2 if move_class(unit) in DOUBLED else 1
    return top + mark(unit, "bonus", 0)


def _bonus_dice(unit, formation: str, road: bool) -> int:
    n = 0
    if move_class(unit) == "regular" and arm(unit) == "infantry" and \
            "column" in (unit.formation, formation or unit.formation):
        n += COLUMN_BONUS_DICE
    if road and move_class(unit) in ("artillery", "heavy"):
        n += ROAD_BONUS_DICE
    return n


def roll_allowance(battle, unit, formation: str, road: bool, dice, events) -> float:
    fixed, n = MOVE_DICE[move_class(unit)]
    n += _bonus_dice(unit, formation, road)
    faces = dice.roll(n, f"move: {unit.name}").faces
    inches = fixed + sum(faces) + (LIMBERED_BONUS if unit.formation == "limbered" else 0)
    if move_class(unit) in DOUBLED:
        inches *= 2
    inches += mark(unit, "bonus", 0)
    events.append(MoveRolled(unit.name, f"{fixed or ''}{'+' if fixed else ''}"
                             f"{'+'.join(map(str, faces))}"
                             f"{' x2' if move_class(unit) in DOUBLED else ''}", inches))
    return inches


def roll_reaches(unit, cost: float):
    """The chance a charger's move roll covers `cost` inches (exact, before any command
    test): no outcome of its charge is likelier than this. It hangs on the move class,
    the bonus and the quarter inches alone: each is worked out once."""
    key = (move_class(unit), mark(unit, "bonus", 0), math.ceil(cost * 4 - 1e-6))
    hit = _REACHES.get(key)
    if hit is None:
        hit = _REACHES[key] = _roll_reaches(*key)
    return hit


_REACHES: dict = {}


def _roll_reaches(cls: str, bonus, quarters: int):
    from ...odds import Dist
    fixed, n = MOVE_DICE[cls]
    moves = Dist.die([1, 2, 3, 4, 5, 6]).times(n).map(
        lambda k: int(((fixed + k) * (2 if cls in DOUBLED else 1) + bonus) * 4))
    return moves.p_at_least(quarters)


def speed(unit, to, facing: int) -> float:
    """1 for an advance or a retirement with the back to the enemy, 2 (half speed) else."""
    d = distance(unit.pos, to)
    if d < 1e-9:
        return 1.0 if facing == unit.facing else 2.0
    way = bearing(unit.pos, to)
    if angle_between(way, facing) <= 1.0 and (angle_between(way, unit.facing) <= FIRE_ARC
                                              or angle_between(way, unit.facing) >= 135):
        return 1.0
    return 2.0


def start_base(battle, unit, to, facing: int, formation: str):
    """The base a move is measured from: turning about to retire with the back to the
    enemy is part of the retirement, so it is measured already faced about."""
    d = distance(unit.pos, to)
    if d > 1e-9 and angle_between(bearing(unit.pos, to), unit.facing) >= 135 and \
            angle_between(bearing(unit.pos, to), facing) <= 1.0:
        return footprint(battle, unit, facing=facing, formation=formation)
    return footprint(battle, unit, formation=formation)


def check_move_unit(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(not acted(battle, unit), f"{unit.name} has already acted this turn")
    need(not pinned(battle, unit) and not engaged(battle, unit), f"{unit.name} is pinned in melee")
    form = action.formation or unit.formation
    if action.formation and action.formation != unit.formation:
        need(action.formation in ARM_FORMATIONS[arm(unit)], f"{unit.name} cannot form "
             f"{action.formation}")
    need(0 <= action.facing < 360, "facing is 0 to 359 degrees")
    start = start_base(battle, unit, action.to, action.facing, form)
    end = footprint(battle, unit, x=action.to[0], y=action.to[1], facing=action.facing,
                    formation=form)
    extra, refusal, road = terrain_cost(battle, unit, start, end)
    need(not refusal, f"{unit.name} cannot go there: {refusal}")
    cost = travel(start, end) * speed(unit, action.to, action.facing) + extra
    top = max_allowance(battle, unit, form, road)
    need(cost <= top + 1e-6, f"{unit.name} needs {cost:.1f} inches; its best roll gives {top:g}")
    why = ground_refusal(battle, unit, start, end)
    need(not why, f"{unit.name} cannot go there: {why}")


def resolve_move_unit(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    events: list = []
    battle.mark_unit(unit.id, acted=battle.state.turn)
    if not command_test(battle, unit, dice, events):
        return events
    form = action.formation or unit.formation
    start = start_base(battle, unit, action.to, action.facing, form)
    end = footprint(battle, unit, x=action.to[0], y=action.to[1], facing=action.facing,
                    formation=form)
    extra, _, road = terrain_cost(battle, unit, start, end)
    allowance = roll_allowance(battle, unit, form, road, dice, events)
    k = 1.0
    per = speed(unit, action.to, action.facing)
    if travel(start, end) * per + extra > allowance + 1e-9:       # short: as far as it gets
        lo, hi = 0.0, 1.0
        plain = no_extra_along(battle, unit.pos, action.to)
        along = _travel_along(start, unit.pos, action.to, action.facing)
        for _ in range(30):
            mid = (lo + hi) / 2
            if plain:
                ex, went = 0.0, along(mid)
            else:
                part = start.moved(unit.x + (action.to[0] - unit.x) * mid,
                                   unit.y + (action.to[1] - unit.y) * mid, action.facing)
                ex, went = terrain_cost(battle, unit, start, part)[0], travel(start, part)
            lo, hi = (mid, hi) if went * per + ex <= allowance else (lo, mid)
        k = lo
        # a short move must still end clear of every base: back off until it does
        while k > 0 and ground_refusal(battle, unit, start, start.moved(
                unit.x + (action.to[0] - unit.x) * k, unit.y + (action.to[1] - unit.y) * k,
                action.facing)):
            k = max(k - 0.02, 0.0)
    x = unit.x + (action.to[0] - unit.x) * k
    y = unit.y + (action.to[1] - unit.y) * k
    facing = action.facing % 360
    if k == 0 and ground_refusal(battle, unit, start, start.moved(x, y, facing)):
        facing, form = unit.facing, unit.formation  # no room even to turn: as it was
    from .combat import moved_with
    moved_with(battle, unit, x, y)
    battle.update_unit(unit.id, x=x, y=y, facing=facing, formation=form,
                       moved=2 if k > 0 else max(unit.moved, 1))
    if form != unit.formation:
        events.append(FormationChanged(unit.name, form))
    events.append(UnitMoved(unit.name, (round(x, 1), round(y, 1)), facing,
                            distance(unit.pos, (x, y))))
    return events


def _travel_along(start, frm, to, facing):
    """k -> `travel(start, start.moved(frm + (to - frm) * k, facing))`: the moved base's
    corners by Footprint.corners' very arithmetic (its offsets from the centre hang on
    the facing and sizes alone), no base built at each step of a bisection."""
    dist = distance
    fx, fy = heading(facing)
    hf, hd = start.frontage / 2, start.depth / 2
    fa, fb, ra, rb = fx * hd, fy * hd, -fy * hf, fx * hf
    c = start.corners()
    (ux, uy), (tx, ty) = frm, to

    def went(k: float) -> float:
        x, y = ux + (tx - ux) * k, uy + (ty - uy) * k
        return max(dist(c[0], (x + fa - ra, y + fb - rb)), dist(c[1], (x + fa + ra, y + fb + rb)),
                   dist(c[2], (x - fa + ra, y - fb + rb)), dist(c[3], (x - fa - ra, y - fb - rb)))
    return went


def command_test(battle, unit, dice, events) -> bool:
    if not battle.option("command_control") or in_command(battle, unit):
        return True
    mod = quality(unit)
    face = dice.d6(f"command control: {unit.name}")
    if face + mod >= COMMAND_TEST:
        return True
    events.append(CommandFailed(unit.name, face, mod))
    return False


def check_change_formation(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(not acted(battle, unit), f"{unit.name} has already acted this turn")
    need(not engaged(battle, unit), f"{unit.name} is pinned in melee")
    need(action.formation in ARM_FORMATIONS[arm(unit)] and not is_skirmish(unit),
         f"{unit.name} may form {', '.join(ARM_FORMATIONS[arm(unit)])}")
    need(action.formation != unit.formation, f"{unit.name} is already in {unit.formation}")
    end = footprint(battle, unit, formation=action.formation)
    why = ground_refusal(battle, unit, end, end)
    need(not why, f"{unit.name} cannot form {action.formation} here: {why}")


def resolve_change_formation(battle, action, dice) -> list:
    """Re-forming in place is the unit's activation (it stands, so it may not shoot)."""
    unit = battle.units[action.unit]
    battle.update_unit(unit.id, formation=action.formation, moved=max(unit.moved, 1))
    battle.mark_unit(unit.id, acted=battle.state.turn)
    return [FormationChanged(unit.name, action.formation)]


# ---- commanders ------------------------------------------------------------------------------
def _own_commander(battle, lid: str):
    leader = battle.leaders.get(lid)
    need(leader is not None and not leader.eliminated, f"there is no commander {lid!r}")
    need(leader.side == battle.state.active, f"{leader.name} is not on the side to move")
    need(not leader.moved, f"{leader.name} has already acted this turn")
    return leader


def check_move_leader(battle, action) -> None:
    leader = _own_commander(battle, action.leader)
    bf = battle.battlefield
    need(0 <= action.to[0] <= bf.width and 0 <= action.to[1] <= bf.height, "off the table")
    d = distance(leader.pos, action.to)
    need(d <= 24 + 1e-6, f"a commander rides (6+D6) x 2, at most 24 inches; that is {d:.1f}")


def resolve_move_leader(battle, action, dice) -> list:
    leader = battle.leaders[action.leader]
    faces = dice.roll(1, f"ride: {leader.name}").faces
    reach = (6 + faces[0]) * 2
    d = distance(leader.pos, action.to)
    k = min(1.0, reach / d) if d > 0 else 1.0
    x, y = leader.x + (action.to[0] - leader.x) * k, leader.y + (action.to[1] - leader.y) * k
    battle.update_leader(leader.id, x=x, y=y, moved=True)
    return [LeaderMoved(leader.name, (round(x, 1), round(y, 1)))]


def check_follow_me(battle, action) -> None:
    leader = _own_commander(battle, action.leader)
    unit = own_unit(battle, action.unit)
    need(not acted(battle, unit), f"{unit.name} has already acted: lead it before it moves")
    need(distance(leader.pos, unit.pos) <= COMMANDER_JOIN + 1e-6,
         f"{unit.name} is more than {COMMANDER_JOIN} inches from {leader.name}")


def resolve_follow_me(battle, action, dice) -> list:
    leader, unit = battle.leaders[action.leader], battle.units[action.unit]
    extra = dice.d6(f"Follow me!: {leader.name} leads {unit.name}")
    battle.update_leader(leader.id, x=unit.x, y=unit.y, moved=True)
    battle.mark_unit(unit.id, bonus=extra)
    return [LeaderMoved(leader.name, (f"joins {unit.name}: Follow me! +{extra} inches",))]
