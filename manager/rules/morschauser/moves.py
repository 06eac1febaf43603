"""MoveUnit, MoveLeader and ChangeFormation: checked against the grid rules, then applied."""
from __future__ import annotations

from collections.abc import Mapping

from ...actions import need
from ...errors import IllegalAction
from ...events import FormationChanged, LeaderMoved, UnitMoved
from ...grid import DIR_NAMES, DIRS, dir_of_degrees
from .board import board, box_of, distance, facing_dir, is_centre, profile
from .movement import (allowances, contact_facings, facing_cost, formation_cost,
                       half_speed_reasons, is_shaken, leader_cost, rear_moves, search,
                       search_to,
                       terrain_refusal)
from .tables import FOOT_GUNS, FORMATIONS, LEADER


def own_unit(battle, uid: str):
    if uid not in battle.units:
        raise IllegalAction(f"there is no unit {uid!r}")
    unit = battle.units[uid]
    if unit.eliminated:
        raise IllegalAction(f"{unit.name} has been eliminated")
    if unit.side != battle.state.active:
        raise IllegalAction(f"{unit.name} belongs to {battle.sides[unit.side].name}; it is "
                            f"{battle.sides[battle.state.active].name}'s turn")
    return unit


def own_leader(battle, lid: str):
    if lid not in battle.leaders:
        raise IllegalAction(f"there is no leader {lid!r}")
    leader = battle.leaders[lid]
    if leader.eliminated:
        raise IllegalAction(f"{leader.name} has fallen")
    if leader.side != battle.state.active:
        raise IllegalAction(f"{leader.name} is not on the side to move: it "
                            f"is {battle.sides[battle.state.active].name}'s turn")
    return leader


def _formation_ok(battle, unit, formation: str) -> None:
    if not formation or formation == unit.formation:
        return
    need(battle.option("formations"), "formations are not in use in this battle "
         "(the 'formations' option is off)")
    if formation not in FORMATIONS:
        raise IllegalAction(f"unknown formation {formation!r}; "
                            f"use one of {', '.join(FORMATIONS)}")
    if profile(unit).arm != "infantry":
        raise IllegalAction(f"only infantry changes formation, not {unit.name}")


def move_options(battle, unit, formation: str = ""):
    """(reach, roads, rear boxes, forward budget): cached until the battle changes. The
    rear boxes are walked when first read (the commander reads them only to withdraw,
    the check only for a box straight to the rear)."""
    key = ("morschauser.moves", unit.id, formation)
    made = battle.peek(key)
    if made is not None:                # (the check reads it again: no closure made)
        return made

    def build():
        form = formation or unit.formation
        fwd, rear, rear_step = allowances(battle, unit, form)
        extra = formation_cost(battle, unit, formation)
        reach = search(battle, unit, fwd - extra)
        roads = search(battle, unit, 1.5 * fwd - extra, roads_only=True)
        version = battle.version

        def walk_back():
            if battle.version != version:
                raise RuntimeError("rear moves read after the battle changed")
            return rear_moves(battle, unit, rear - extra, rear_step)
        return reach, roads, LazyMap(walk_back), fwd - extra
    return battle.cached(key, build)


class LazyMap(Mapping):
    """A mapping made by `make()` when it is first read."""

    def __init__(self, make):
        self._make, self._made = make, None

    def _table(self) -> dict:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getitem__(self, key):
        return self._table()[key]

    def __iter__(self):
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


def straight_back(start, to_box, facing: int) -> bool:
    """Is to_box straight to the rear of a unit in start facing `facing` (where alone
    rear_moves finds boxes)?"""
    bx, by = DIRS[(facing + 4) % 8]
    dx, dy = to_box[0] - start[0], to_box[1] - start[1]
    k = max(abs(dx), abs(dy))
    return k > 0 and dx == bx * k and dy == by * k


def move_cost(battle, unit, to_box, facing: int, formation: str = "") -> float | None:
    """The cheapest legal cost of this move, or None when it cannot be made (cached until
    the battle changes, so resolving a move reuses the answer its check found)."""
    key = ("morschauser.move_cost", unit.id, to_box, facing, formation)
    return battle.cached(key, lambda: _move_cost(battle, unit, to_box, facing, formation))


def _move_cost(battle, unit, to_box, facing: int, formation: str = "") -> float | None:
    """The cheapest legal cost of this move, or None when it cannot be made.

    Read off the full search when it has been made (the commander and the UI make it to
    weigh or show every choice); otherwise a targeted search to the one box and facing."""
    if battle.peek(("morschauser.moves", unit.id, formation)) is not None:
        return _cost_from_reach(battle, unit, to_box, facing, formation)
    return _targeted_cost(battle, unit, to_box, facing, formation)


def _targeted_cost(battle, unit, to_box, facing: int, formation: str = "") -> float | None:
    """A* to the one state asked for; the same steps as the full search (tested equal)."""
    form = formation or unit.formation
    fwd, rear, rear_step = allowances(battle, unit, form)
    extra = formation_cost(battle, unit, formation)
    start = box_of(battle, unit)
    if to_box == start:
        c = facing_cost(facing_dir(unit), facing) + extra
        return c if c <= fwd + 1e-9 else None
    costs = [search_to(battle, unit, fwd - extra, to_box, facing),
             search_to(battle, unit, 1.5 * fwd - extra, to_box, facing, roads_only=True)]
    if facing == facing_dir(unit):
        costs.append(rear_moves(battle, unit, rear - extra, rear_step).get(to_box))
    costs = [c + extra for c in costs if c is not None]
    return min(costs) if costs else None


def _cost_from_reach(battle, unit, to_box, facing: int, formation: str) -> float | None:
    """The same answer read off the full search, when it has been made already."""
    reach, roads, backs, budget = move_options(battle, unit, formation)
    extra = formation_cost(battle, unit, formation)
    if to_box == box_of(battle, unit):
        c = facing_cost(facing_dir(unit), facing) + extra
        return c if c <= budget + extra + 1e-9 else None
    state = (to_box, facing)
    costs = [reach.cost.get(state), roads.cost.get(state)]
    if (to_box in reach.contact or to_box in roads.contact) and (
            facing in contact_facings(battle, unit, to_box)):
        costs += [r.contact.get(to_box) for r in (reach, roads)]
    if facing == facing_dir(unit) and straight_back(box_of(battle, unit), to_box, facing):
        costs.append(backs.get(to_box))
    costs = [c + extra for c in costs if c is not None]
    return min(costs) if costs else None


def check_move_unit(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    if unit.moved:
        raise IllegalAction(f"{unit.name} has already moved this turn")
    need(len(action.to) == 2, "a move needs a destination (x, y) in inches")
    if not is_centre(battle, action.to):
        raise IllegalAction(f"{tuple(action.to)} is not the centre of a box")
    need(action.facing % 45 == 0, "on the grid a unit faces one of the eight directions "
         "(a multiple of 45 degrees)")
    _formation_ok(battle, unit, action.formation)
    b = board(battle)
    to_box = b.grid.box_of(*action.to)
    start = box_of(battle, unit)
    facing = dir_of_degrees(action.facing)
    if unit.fixed and to_box != start:
        raise IllegalAction(f"{unit.name} is fixed in place: it may only change facing")
    if unit.kind in FOOT_GUNS and unit.fired and to_box != start:
        raise IllegalAction(f"{unit.name} is foot artillery and fired this turn: it may not "
                            "move, other than to change facing")
    form = action.formation or unit.formation
    need(not (form == "square" and to_box != start), "a square cannot move")
    refusal = terrain_refusal(battle, unit.kind, to_box)
    if refusal:
        raise IllegalAction(f"{unit.name} cannot go to box {to_box}: {refusal}")
    if move_cost(battle, unit, to_box, facing, action.formation) is None:
        raise IllegalAction(_why_not(battle, unit, to_box, facing, action.formation))


def _why_not(battle, unit, to_box, facing, formation) -> str:
    b = board(battle)
    other = b.box_unit.get(to_box)
    where = f"box {to_box} facing {DIR_NAMES[facing]}"
    if other and other != unit.id:
        return f"{unit.name} cannot end in {where}: {battle.units[other].name} is there"
    fwd, _, _ = allowances(battle, unit, formation or unit.formation)
    slow = half_speed_reasons(battle, unit) + (["its command is Shaken"] if is_shaken(battle, unit) else [])
    why = f" (half speed: {'; '.join(slow)})" if slow else ""
    if to_box in search(battle, unit, fwd + 20).contact:
        return (f"{unit.name} entering {to_box} is in an enemy zone of control (ZOC) and must face "
                f"into an enemy box ({', '.join(DIR_NAMES[d] for d in contact_facings(battle, unit, to_box))})")
    return (f"{unit.name} cannot reach {where} with its {fwd:g} box move{why}"
            f"{_obstacle(battle, unit, to_box)}; turns cost 1/2 box per 45 degrees, diagonals "
            f"1.5, a move to the rear half speed, enemy zones of control (ZOC) stop a move")


def _obstacle(battle, unit, to_box) -> str:
    """What lies on the straight way there: ground the unit may not enter, or an enemy
    zone of control it would have to stop in (a hint; other paths were tried too)."""
    from ...grid import line_boxes
    b = board(battle)
    start = box_of(battle, unit)
    for box in line_boxes(start, to_box):
        if box in (start, to_box):
            continue
        refusal = terrain_refusal(battle, unit.kind, box)
        if refusal:
            return f" ({refusal}: {box} is in the way)"
        if b.in_enemy_zoc(unit.side, box):
            return f" (it would enter an enemy zone of control (ZOC) at {box} and stop there)"
    return ""


def resolve_move_unit(battle, action, dice) -> list:
    unit = battle.units[action.unit]
    start = box_of(battle, unit)
    b = board(battle)
    to_box = b.grid.box_of(*action.to)
    facing = dir_of_degrees(action.facing)
    cost = move_cost(battle, unit, to_box, facing, action.formation) or 0.0
    x, y = b.centre(to_box)
    events = []
    if action.formation and action.formation != unit.formation:
        events.append(FormationChanged(unit.name, action.formation))
    battle.update_unit(unit.id, x=x, y=y, facing=facing * 45,
                       formation=action.formation or unit.formation,
                       moved=2 if to_box != start else 1)
    events.append(UnitMoved(unit.name, to_box, facing * 45, cost))
    return events


def check_change_formation(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    if unit.moved:
        raise IllegalAction(f"{unit.name} has already moved this turn")
    if action.formation == unit.formation:
        raise IllegalAction(f"{unit.name} is already in {unit.formation}")
    _formation_ok(battle, unit, action.formation)
    fwd, _, _ = allowances(battle, unit)
    if fwd < 1:
        raise IllegalAction(f"{unit.name} has no move left to change formation")


def resolve_change_formation(battle, action, dice) -> list:
    battle.update_unit(action.unit, formation=action.formation, moved=1)
    return [FormationChanged(battle.units[action.unit].name, action.formation)]


def check_move_leader(battle, action) -> None:
    leader = own_leader(battle, action.leader)
    if leader.moved:
        raise IllegalAction(f"{leader.name} has already moved this turn")
    if not is_centre(battle, action.to):
        raise IllegalAction(f"{tuple(action.to)} is not the centre of a box")
    b = board(battle)
    to_box = b.grid.box_of(*action.to)
    if leader_cost(battle, leader, to_box) is None:
        raise IllegalAction(f"{leader.name} cannot reach box {to_box} with his "
                            f"{LEADER['move']} box move")
    units = [battle.units[u] for u in battle.hierarchy.units_led_by(leader.id)]
    live = [u for u in units if not u.eliminated]
    if live:
        where = [b.unit_box[u.id] for u in live]          # the board's boxes: live units
        near = min(distance(to_box, ub) for ub in where)
        here = box_of(battle, leader)
        was = min(distance(here, ub) for ub in where)
        if not (near <= LEADER["radius"] or near < was):
            raise IllegalAction(f"{leader.name} must stay within {LEADER['radius']} boxes of "
                                f"his command (box {to_box} is {near:g} from the nearest unit)")


def resolve_move_leader(battle, action, dice) -> list:
    b = board(battle)
    to_box = b.grid.box_of(*action.to)
    x, y = b.centre(to_box)
    leader = battle.update_leader(action.leader, x=x, y=y, moved=True)
    return [LeaderMoved(leader.name, to_box)]
