"""Harman's movement in squares: marching or moving tactically, limbering and
unlimbering, cavalry manoeuvre, generals, and what each kind of square allows.

Steps are orthogonal (diagonal too with the `diagonal_moves` option). A unit may not
end a move next to an enemy, orthogonally: that is a charge into close combat.
"""
from __future__ import annotations

from collections import deque

from ...actions import need
from ...events import FormationChanged, LeaderMoved, UnitMoved
from ...model.forces import mark
from ..common import own_unit
from .board import (DIAG, ORTHO, box, centre, enemies_adjacent, generals_with, kinds,
                    occupants, on_table, retiring, squares, utype, wall_across, weakened)
from .tables import CROPS_MOVE, FOREST_MOVE, GENERAL_MOVE, MARCH

FORMED = ("infantry", "cavalry", "foot_artillery", "horse_artillery")


def step_refusal(battle, unit, a, b) -> tuple[str, str]:
    """(why the unit may not step from square a to b, why it must stop there)."""
    t = utype(unit)
    k = kinds(battle, b)
    road = "road" in k and "road" in kinds(battle, a)
    if not on_table(battle, b):
        return "off the table", ""
    if "lake" in k:
        return "a lake cannot be entered", ""
    if "marsh" in k and t != "skirmishers":
        return "only skirmishers cross a marsh", ""
    if "woods" in k and t != "skirmishers" and not road:
        return "formed units enter a forest only along a road", ""
    if ("river" in k or "stream" in k) and not (k & {"bridge", "ford"}):
        return "rivers and streams are crossed only at a bridge or ford", ""
    stop = ""                                # why it must stop there (truthy)
    if "town" in k and not road:
        if t in ("cavalry", "foot_artillery", "horse_artillery"):
            return "cavalry and artillery enter a built-up area (BUA) only along a road", ""
        if t == "infantry":
            stop = "formed infantry must stop on entering a built-up area (BUA)"
    if t in FORMED and wall_across(battle, a, b):
        stop = "formed troops must stop on entering a square with a fence or wall"
    return "", stop


def allowance(battle, unit, formation: str) -> int:
    t = utype(unit)
    if t.endswith("artillery"):
        n = MARCH[t]
        if unit.formation != "limbered":
            n -= 1                                   # limbering up costs a square
        if formation and formation != "limbered":
            n = {"foot_artillery": 1, "horse_artillery": 2}[t] if unit.formation == "limbered" \
                else 0
        return max(n, 0)
    if unit.formation == "square":
        return 0
    return MARCH[t]


def reach(battle, unit, limit: int, why: dict | None = None) -> dict:
    """{square: steps} the unit can reach, by the square-by-square rules; `why` collects,
    square by square, the rule that kept the unit out of it or made it stop there."""
    start = box(battle, unit)
    occ = occupants(battle)
    steps = ORTHO + (DIAG if battle.option("diagonal_moves") else ())
    t = utype(unit)
    why = {} if why is None else why
    crops_start = "fields" in kinds(battle, start) and t in CROPS_MOVE
    seen = {start: 0}
    queue = deque([(start, 0, "")])
    while queue:
        here, n, stopped = queue.popleft()
        if stopped or n >= limit:
            continue
        for dx, dy in steps:
            nxt = (here[0] + dx, here[1] + dy)
            if nxt in seen:
                continue
            refusal, stop = step_refusal(battle, unit, here, nxt)
            if refusal:
                why.setdefault(nxt, refusal)
                continue
            o = occ.get(nxt)
            if o is not None and (o.side != unit.side or not (t == "skirmishers" or
                                                              utype(o) == "skirmishers")):
                why.setdefault(nxt, f"{o.name} holds it")
                continue                     # only skirmishers and friends pass each other
            k = kinds(battle, nxt)
            cap, capped = limit, ""
            if t == "skirmishers" and ("woods" in k or "woods" in kinds(battle, here)):
                cap, capped = FOREST_MOVE, "skirmishers move one square a turn in a forest"
            if ("fields" in k or crops_start) and t in CROPS_MOVE and CROPS_MOVE[t] < cap:
                cap = CROPS_MOVE[t]          # in (or into) tall crops
                capped = f"in tall crops {t} move only {cap} square(s)"
            if n + 1 > cap:
                why.setdefault(nxt, capped)
                continue
            seen[nxt] = n + 1
            if stop:
                why.setdefault(("stop",) + nxt, stop)
            queue.append((nxt, n + 1, stop))
    return seen


def unreachable(battle, unit, dest, limit: int, why: dict) -> str:
    """Why the square is out of reach, in the text's terms."""
    from ...grid import line_boxes
    start = box(battle, unit)
    if dest in why:
        return why[dest]
    path = [sq for sq in (line_boxes(start, dest) or ()) if sq != start]
    for sq in path:
        if ("stop",) + sq in why and sq != dest:
            return why[("stop",) + sq]
        if sq in why:
            return why[sq]
    far = abs(dest[0] - start[0]) + abs(dest[1] - start[1])
    if not battle.option("diagonal_moves") and max(abs(dest[0] - start[0]),
                                                   abs(dest[1] - start[1])) <= limit < far:
        return "squares are counted orthogonally: no diagonal steps"
    return f"too far: more squares than its move of {limit}"


def check_move_unit(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    turn = battle.state.turn
    if battle.option("retire") != "once":
        need(not retiring(unit), f"{unit.name} is retiring: it falls back a square each move "
             "until a General joins it and rallies it")
    need(not unit.moved, f"{unit.name} has already moved this turn")
    need(mark(unit, "no_move") != turn, f"{unit.name} lost its officer: it halts, no move this turn")
    need(mark(unit, "halted") != turn, f"{unit.name} has halted this turn"
         + (" and is retiring" if retiring(unit) else ""))
    need(not mark(unit, "engaged"), f"{unit.name} is in close combat")
    g = battle.battlefield.grid
    dest = (int(action.to[0] // g), int(action.to[1] // g))
    need(action.facing % 45 == 0, "on a grid a unit faces a multiple of 45 degrees")
    if action.formation and action.formation != unit.formation:
        need(utype(unit).endswith("artillery") and action.formation in ("line", "limbered"),
             "only guns limber or unlimber as they move")
    limit = allowance(battle, unit, action.formation)
    if unit.fired and utype(unit) == "infantry":
        limit = min(limit, 1)                # fired: a tactical move of one square only
    if unit.fired and utype(unit).endswith("artillery"):
        limit = 0                            # guns that fired do not move that turn
    need(limit > 0 or dest == box(battle, unit), f"{unit.name} cannot move now"
         + (" (it fired this turn)" if unit.fired else ""))
    why: dict = {}
    r = reach(battle, unit, limit, why)
    need(dest in r, f"{unit.name} cannot reach square {dest}: "
         f"{unreachable(battle, unit, dest, limit, why)}{_limit_note(unit, action.formation)}")
    if retiring(unit):                   # (retire = once) it may step back, not advance
        need(_nearest_enemy(battle, unit, dest) >= _nearest_enemy(battle, unit, box(battle, unit)),
             f"{unit.name} is retiring: it may not advance until a General rallies it")
    holder = occupants(battle).get(dest)
    need(holder is None or holder.id == unit.id, f"square {dest} is held by "
         f"{holder.name if holder else ''}: one unit a square")
    moved = battle.copy()
    x, y = centre(battle, dest)
    moved.update_unit(unit.id, x=x, y=y)
    need(not enemies_adjacent(moved, moved.units[unit.id]) or dest == box(battle, unit),
         "moving next to the enemy is a charge into close combat: order a Charge")


def _nearest_enemy(battle, unit, sq) -> int:
    foes = [box(battle, e) for e in battle.live_units(battle.enemy_of(unit.side))]
    return min((abs(f[0] - sq[0]) + abs(f[1] - sq[1]) for f in foes), default=0)


def _limit_note(unit, formation: str) -> str:
    """What shortened the move, in the text's words."""
    notes = []
    if unit.fired:
        notes.append("it fired this turn")
    if utype(unit).endswith("artillery"):
        if unit.formation != "limbered":
            notes.append("limbering up costs a square")
        if formation and formation != "limbered" and unit.formation == "limbered":
            notes.append("a battery that will unlimber moves less")
    return f" ({'; '.join(notes)})" if notes else ""


def resolve_move_unit(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    g = battle.battlefield.grid
    dest = (int(action.to[0] // g), int(action.to[1] // g))
    n = reach(battle, unit, allowance(battle, unit, action.formation)).get(dest, 0)
    x, y = centre(battle, dest)
    for l in generals_with(battle, unit):
        battle.update_leader(l.id, x=x, y=y)
    form = action.formation or unit.formation
    battle.update_unit(unit.id, x=x, y=y, facing=action.facing % 360, formation=form,
                       moved=max(n, 1))
    turn = battle.state.turn
    events = []
    if form != unit.formation:
        battle.mark_unit(unit.id, unlimbered=turn if form == "line" else None)
        events.append(FormationChanged(unit.name, "unlimbered" if form == "line" else "limbered"))
    if utype(unit) in ("infantry", "foot_artillery") and n >= 2 or \
            (utype(unit) == "horse_artillery" and n >= 2 and form == "limbered"):
        battle.mark_unit(unit.id, marched=turn)
    events.append(UnitMoved(unit.name, dest, action.facing % 360, n))
    return events


def check_change_formation(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(not unit.moved, f"{unit.name} has already moved this turn")
    need(not mark(unit, "engaged"), f"{unit.name} is in close combat")
    t = utype(unit)
    allowed = ("line", "limbered") if t.endswith("artillery") else \
        ("line", "square") if t == "infantry" else ()
    need(action.formation in allowed and action.formation != unit.formation,
         f"{unit.name} may form {', '.join(a for a in allowed if a != unit.formation) or 'nothing'}")


def resolve_change_formation(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    battle.update_unit(unit.id, formation=action.formation, moved=1)
    if action.formation == "line" and utype(unit).endswith("artillery"):
        battle.mark_unit(unit.id, unlimbered=battle.state.turn)
    return [FormationChanged(unit.name, action.formation)]


def check_move_leader(battle, action) -> None:
    leader = battle.leaders.get(action.leader)
    need(leader is not None and not leader.eliminated, f"there is no general {action.leader!r}")
    need(leader.side == battle.state.active, f"{leader.name} is not on the side to move")
    need(not leader.moved, f"{leader.name} has already moved")
    g = battle.battlefield.grid
    dest = (int(action.to[0] // g), int(action.to[1] // g))
    need(on_table(battle, dest), "off the table")
    need(squares(box(battle, leader), dest) <= GENERAL_MOVE,
         f"a General rides {GENERAL_MOVE} squares")


def resolve_move_leader(battle, action, dice) -> list:
    leader = battle.leaders[action.leader]
    g = battle.battlefield.grid
    dest = (int(action.to[0] // g), int(action.to[1] // g))
    x, y = centre(battle, dest)
    battle.update_leader(leader.id, x=x, y=y, moved=True)
    return [LeaderMoved(leader.name, dest)]


def may_charge(battle, unit) -> str:
    t = utype(unit)
    if t not in ("infantry", "cavalry"):
        return "only formed infantry and cavalry charge"
    if unit.moved or retiring(unit) or mark(unit, "engaged"):
        return f"{unit.name} has moved, is retiring or is in close combat"
    if weakened(battle, unit):
        return f"{unit.name} has lost over half its Combat Value: no offensive action"
    if mark(unit, "halted") == battle.state.turn or mark(unit, "no_move") == battle.state.turn:
        return f"{unit.name} is halted this turn"
    if unit.formation == "square":
        return f"{unit.name} is in square"
    return ""
