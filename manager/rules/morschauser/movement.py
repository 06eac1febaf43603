"""Movement on the grid: allowances, the legal moves of a unit, falling back and retreating.

A move is a path of 45 degree turns (half a box each) and steps straight ahead (one
box, or 1.5 on the diagonal). The search runs over (box, facing) states, so the
cheapest legal way to reach a box with a given facing is found, as a player would.
Entering an enemy zone of control ends the move; the unit then faces an enemy whose
zone it entered (that last turn is free: the text says it must).
"""
from __future__ import annotations

import heapq
import math

from ...grid import DIRS, Box, direction_to, step, turn_steps
from .board import army_trait, board, bombarding, box_of, distance, facing_dir, profile
from .tables import COLUMN_MOVE, FORMATION_CHANGE_COST, LEADER

LIGHT_FOOT = frozenset({"light_infantry", "rifles", "skirmishers"})
EDGE_DIR = {"north": 0, "east": 2, "south": 4, "west": 6}


def terrain_refusal(battle, kind: str, box: Box) -> str:
    """Why a unit of this kind may not enter the box ('' when it may)."""
    return board(battle).refusal(kind, box, _refusal)


def _refusal(battle, kind: str, box: Box, t) -> str:
    """The terrain rules for one box (t: its BoxTerrain); called once per kind and box."""
    if "lake" in t.kinds:
        return "lakes and ponds are impassable"
    if "river" in t.kinds and not ({"bridge", "ford"} & t.kinds):
        return "a river is crossed only at a bridge or ford"
    if kind == "leader":
        return ""
    if "marsh" in t.kinds and (battle.option("marsh") == "impassable"
                               or profile_arm(kind) != "infantry"):
        return "only infantry may enter marsh"
    if "woods" in t.kinds and kind not in LIGHT_FOOT:
        return "only light infantry may enter woods"
    if "town" in t.kinds and profile_arm(kind) in ("cavalry", "artillery"):
        return "cavalry and artillery may not enter buildings (a town)"
    return ""


def profile_arm(kind: str) -> str:
    from .tables import PROFILES
    return PROFILES[kind].arm


# ---- allowances ----------------------------------------------------------------------------
def half_speed_reasons(battle, unit) -> list[str]:
    """Why a unit moves at half speed this turn, Shaken aside (that one spares the rear)."""
    lid = battle.hierarchy.leader_of_unit(unit.id)
    reasons = []
    if lid:
        leader = battle.leaders[lid]
        if leader.eliminated:
            reasons.append(f"{leader.name} has fallen")
        elif distance(box_of(battle, leader), box_of(battle, unit)) > LEADER["radius"]:
            reasons.append(f"more than {LEADER['radius']} boxes from {leader.name}")
    general = battle.leaders.get(battle.sides[unit.side].general or "")
    if (general is not None and general.eliminated
            and battle.option("general_commands", "army") == "army"):
        reasons.append(f"{general.name}, the army's General, has fallen")
    return reasons


def base_move(battle, unit, formation: str | None = None) -> int:
    prof = profile(unit)
    move = prof["move"]
    formation = formation or unit.formation
    if battle.option("formations") and prof.arm == "infantry" and formation == "column":
        move = max(move, COLUMN_MOVE)
    if prof.arm == "infantry" and army_trait(battle, unit.side) == "napoleon":
        move += 1
    return move


def is_shaken(battle, unit) -> bool:
    return battle.hierarchy.command_of(unit.id) in battle.state.shaken


def allowances(battle, unit, formation: str | None = None) -> tuple[float, float, float]:
    """(forward budget, rear budget, cost of one rear step per box) in boxes."""
    move = base_move(battle, unit, formation)
    halved = math.ceil(move / 2)
    slow = bool(half_speed_reasons(battle, unit))
    shaken = is_shaken(battle, unit)
    rear_budget = halved if slow else move
    forward = halved if (slow or shaken) else move
    rear_step = 1.0 if shaken and battle.option("shaken_rear_speed") == "full" else 2.0
    return float(forward), float(rear_budget), rear_step


# ---- the search -------------------------------------------------------------------------------
class Reach:
    """Every (box, facing) a unit can end its move in, with the cheapest cost."""

    def __init__(self):
        self.cost: dict[tuple[Box, int], float] = {}
        self.contact: dict[Box, float] = {}        # ZOC boxes entered, cheapest cost


def _stepper(battle, unit, roads_only: bool):
    """ok(box) -> (may pass through, may stop in), cached per search; the rules of a step
    in one place for the full search and the targeted one."""
    b = board(battle)
    cols, rows = b.grid.cols, b.grid.rows
    refused = b.refusals(unit.kind, _refusal)
    terrain, box_unit, box_leaders = b.terrain, b.box_unit, b.box_leaders
    units, leaders, side = battle.units, battle.leaders, unit.side
    through_friends = bool(battle.option("pass_through_friends"))
    cache: dict[Box, tuple[bool, bool]] = {}

    def ok(nb: Box) -> tuple[bool, bool]:
        hit = cache.get(nb)
        if hit is not None:
            return hit
        if not (0 <= nb[0] < cols and 0 <= nb[1] < rows) or nb in refused or (
                roads_only and "road" not in terrain.at(nb).kinds):
            hit = (False, False)
        else:
            other = box_unit.get(nb)
            ls = box_leaders.get(nb)            # (most boxes have none: no generator)
            if other is not None and other != unit.id:
                hit = (False, False) if units[other].side != side else (through_friends, False)
            elif ls and any(leaders[l].side != side for l in ls):
                hit = (False, False)
            else:
                hit = (True, True)
        cache[nb] = hit
        return hit
    return ok, cache


def search(battle, unit, budget: float, roads_only: bool = False) -> Reach:
    """Every (box, facing) the unit can reach within `budget` boxes, cheapest first.

    Costs are whole half-boxes (a turn is 1, a straight box 2, a diagonal 3), so a
    bucket per cost replaces a priority heap: the budget is at most a few boxes. Each
    box reached keeps a list of its eight facings' costs, so a turn in place costs no
    hashing; `order` remembers when each state was first reached (the commander weighs
    the states in that order, and the first of equal scores wins).
    """
    b = board(battle)
    here = box_of(battle, unit)
    d0 = facing_dir(unit)
    reach = Reach()
    first = (here, d0)
    if roads_only and "road" not in b.terrain.at(here).kinds:
        reach.cost[first] = 0.0
        return reach
    limit = int(budget * 2 + 1e-9)
    start = [99] * 8
    start[d0] = 0
    at = {here: start}                  # box -> cost per facing (99: not reached)
    order = [first]                     # states in the order first reached
    buckets = [[] for _ in range(limit + 1)]
    buckets[0].append(first)
    ok, ok_cache = _stepper(battle, unit, roads_only)
    ok_get = ok_cache.get
    in_zoc = b.enemy_zoc_boxes(unit.side)
    no_contact = bombarding(battle)                 # the opening bombardment: keep apart
    contact = reach.contact
    at_get = at.get
    moves = _MOVES
    for cost in range(limit):           # (a state at the limit can neither turn nor step)
        turn = cost + 1
        later = buckets[turn]
        can_step = cost + 2 <= limit
        for state in buckets[cost]:
            box, d = state
            arr = at[box]
            if arr[d] != cost:
                continue
            dx, dy, sc, right, left = moves[d]
            old = arr[right]
            if turn < old:
                arr[right] = turn
                s = (box, right)
                if old == 99:
                    order.append(s)
                later.append(s)
            old = arr[left]
            if turn < old:
                arr[left] = turn
                s = (box, left)
                if old == 99:
                    order.append(s)
                later.append(s)
            if not can_step:
                continue
            c = cost + sc
            if c > limit:
                continue
            nb = (box[0] + dx, box[1] + dy)
            hit = ok_get(nb)
            if hit is None:
                hit = ok(nb)
            if not hit[0]:
                continue
            if nb in in_zoc:                            # entering a zone of control: stop
                if hit[1] and not no_contact and c < contact.get(nb, 99) * 2:
                    contact[nb] = c / 2
                continue
            narr = at_get(nb)
            if narr is None:
                narr = at[nb] = [99] * 8
            old = narr[d]
            if c < old:
                narr[d] = c
                s = (nb, d)
                if old == 99:
                    order.append(s)
                buckets[c].append(s)
    # a state in a box the unit may not stop in (a friend's) is only a way through
    # (every box reached but `here` was stepped into, so its answer is in ok_cache)
    passable = {box for box, hit in ok_cache.items() if not hit[1]}
    passable.discard(here)
    cost_of = reach.cost
    if passable:
        for s in order:
            box = s[0]
            if box not in passable:
                cost_of[s] = at[box][s[1]] / 2
    else:
        for s in order:
            cost_of[s] = at[s[0]][s[1]] / 2
    return reach


# per facing: the step (dx, dy), its cost in half-boxes, the facings a turn either way
_MOVES = tuple((dx, dy, 3 if d & 1 else 2, (d + 1) & 7, (d - 1) & 7)
               for d, (dx, dy) in enumerate(DIRS))


def search_to(battle, unit, budget: float, to: Box, facing: int,
              roads_only: bool = False) -> float | None:
    """The cheapest cost of ending in `to` facing `facing`, or None: A* over the same
    states as `search`, guided by the octile distance, so a check costs a straight walk."""
    b = board(battle)
    start = (box_of(battle, unit), facing_dir(unit))
    if roads_only and "road" not in b.terrain.at(start[0]).kinds:
        return None
    ok, _ = _stepper(battle, unit, roads_only)
    if to != start[0] and not ok(to)[1]:
        return None
    limit = int(budget * 2 + 1e-9)
    in_zoc = b.enemy_zoc_boxes(unit.side)
    contact_goal = (not bombarding(battle) and to in in_zoc
                    and facing in contact_facings(battle, unit, to))

    def h(box):                                     # half-boxes: 2 straight, 3 diagonal
        dx, dy = abs(box[0] - to[0]), abs(box[1] - to[1])
        return 2 * max(dx, dy) + min(dx, dy)
    best: dict = {start: 0}
    heap = [(h(start[0]), 0, start)]
    while heap:
        f, c, state = heapq.heappop(heap)
        if state == "contact":
            return c / 2
        if c != best.get(state):
            continue
        box, d = state
        if box == to and d == facing and not contact_goal:
            return c / 2
        if c + 1 <= limit and c + 1 + h(box) <= limit:
            for nd in ((d + 1) & 7, (d - 1) & 7):
                ns = (box, nd)
                if c + 1 < best.get(ns, 99):
                    best[ns] = c + 1
                    heapq.heappush(heap, (c + 1 + h(box), c + 1, ns))
        dx, dy = DIRS[d]
        nb = (box[0] + dx, box[1] + dy)
        nc = c + (3 if d & 1 else 2)
        if nc + h(nb) > limit:
            continue
        through, stop = ok(nb)
        if not through:
            continue
        if nb in in_zoc:
            if nb == to and contact_goal and stop and nc < best.get("contact", 99):
                best["contact"] = nc
                heapq.heappush(heap, (nc, nc, "contact"))
            continue
        ns = (nb, d)
        if nc < best.get(ns, 99):
            best[ns] = nc
            heapq.heappush(heap, (nc + h(nb), nc, ns))
    return None


def rear_moves(battle, unit, budget: float, step_cost: float) -> dict[Box, float]:
    """Boxes reachable straight to the rear, facing unchanged, with their cost."""
    b = board(battle)
    ok, _ = _stepper(battle, unit, False)
    back = (facing_dir(unit) + 4) % 8
    per_box = (1.5 if back % 2 else 1.0) * step_cost
    out: dict[Box, float] = {}
    box, cost = box_of(battle, unit), 0.0
    while True:
        box = step(box, back)
        cost += per_box
        if cost > budget + 1e-9:
            break
        through, stop = ok(box)
        if not through:
            break
        zoc = b.in_enemy_zoc(unit.side, box)
        if stop and not (zoc and bombarding(battle)):
            out[box] = cost
        if zoc:
            break
    return out


def contact_facings(battle, unit, box: Box) -> list[int]:
    """Facings that point into the box of an enemy whose zone of control covers `box`."""
    b = board(battle)
    out = []
    for uid in b.enemy_zoc(unit.side, box):
        eb = b.unit_box[uid]
        if max(abs(eb[0] - box[0]), abs(eb[1] - box[1])) == 1:
            out.append(direction_to(box, eb))
    return sorted(set(out))


def facing_cost(a: int, b: int) -> float:
    return 0.5 * turn_steps(a, b)


def leader_cost(battle, leader, to: Box) -> float | None:
    """The cost of the leader's cheapest ride to `to` within his 6 boxes, or None.

    Leaders ride anywhere but impassable ground and enemy-held boxes, 1.5 a diagonal.
    A* with the octile distance as its guide: on open ground it walks straight there.
    Kept until the battle changes: the commander's choice and the check of it ask alike.
    """
    return battle.cached(("morschauser.leader_cost", leader.id, to),
                         lambda: _leader_cost(battle, leader, to))


def _leader_cost(battle, leader, to: Box) -> float | None:
    b = board(battle)
    start = box_of(battle, leader)
    budget = float(LEADER["move"])
    tx, ty = to

    def guess(box):
        dx, dy = abs(box[0] - tx), abs(box[1] - ty)
        return dx + dy - 0.5 * min(dx, dy)
    if guess(start) > budget + 1e-9:
        return None
    refused = b.refusals("leader", _refusal)
    cols, rows = b.grid.cols, b.grid.rows
    box_unit, units, side = b.box_unit, battle.units, leader.side
    limit = budget + 1e-9
    cost = {start: 0.0}
    # equal guesses are taken deepest first (-cost): on open ground every box between
    # him and the spot has the same guess, and the walk goes straight there rather than
    # widening over them all; any order of equals finds the same cheapest cost (the
    # guess is the cost on open ground, so it never overestimates and never drops
    # by more than a step costs)
    heap = [(guess(start), -0.0, start)]
    steps = [(dx, dy, 1.5 if d % 2 else 1.0) for d, (dx, dy) in enumerate(DIRS)]
    while heap:
        _, c, box = heapq.heappop(heap)
        c = -c
        if box == to:
            return c
        if c > cost[box]:
            continue
        for dx, dy, sc in steps:
            nb = (box[0] + dx, box[1] + dy)
            nc = c + sc
            if nc + guess(nb) > limit or nc >= cost.get(nb, math.inf):
                continue
            if not (0 <= nb[0] < cols and 0 <= nb[1] < rows) or nb in refused:
                continue
            other = box_unit.get(nb)
            if other and units[other].side != side:
                continue
            cost[nb] = nc
            heapq.heappush(heap, (nc + guess(nb), -nc, nb))
    return None


def formation_cost(battle, unit, formation: str) -> float:
    if not formation or formation == unit.formation:
        return 0.0
    return float(FORMATION_CHANGE_COST)
