"""Reinforcements: taking units off the table until their turn, and bringing them on.

An arrival holds its units (and its command's leader) out of the battle until
`BringOnArrival` puts them down at the start of their side's move (the ruleset's
`arrival_phase`): on their turn, or from it on a die roll, at their entry point or
along a stretch of edge; placed by the umpire (`spots`) or automatically in the free
spots nearest the entry. An entry with the enemy on it, or without room, delays them a
turn when the scenario says so. Every roll goes through the dice service, so a replay
brings them on exactly as before.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from .actions import Action, need, register
from .events import _event
from .model.arrival import Arrival
from .model.forces import evolve
from .placement import placement_problem

ReinforcementsArrived = _event("ReinforcementsArrived", "{what} arrive at {where}",
                               what=str, where=str, units=tuple)
ReinforcementsDelayed = _event("ReinforcementsDelayed", "{what}: {why}; expected turn {turn}",
                               what=str, why=str, turn=int)


# ---- taking pieces off the table, and putting them back -----------------------------------
def take_off(battle, target: str, **spec) -> Arrival:
    """Move a command's units and leader (or one unit) into a new pending arrival.

    `spec` gives the Arrival's fields (turn, roll, name, entry, delay_if_blocked). The
    caller has checked the target exists and is on the table."""
    h = battle.hierarchy
    if target in battle.commands:
        scope, side = "command", battle.commands[target].side
        members = [(target, battle.units[u]) for u in h.units_of(target)]
        lid = h.leader_of_command(target)
        leader = (target, battle.leaders[lid]) if lid else ()
    else:
        u = battle.units[target]
        scope, side = "unit", u.side
        members, leader = [(h.command_of(target), u)], ()
    arrival = Arrival(target, scope, side, units=tuple(members), leader=leader, **spec)
    for _, u in members:
        battle.drop_unit(u.id)
        h = h.without_unit(u.id)
    if leader:
        del battle.leaders[leader[1].id]
        h = h.with_command_leader(target, "")
    battle.set_hierarchy(h)
    battle.set_pending(battle.pending + (arrival,))
    return arrival


def put_on(battle, arrival: Arrival, spots: dict) -> None:
    """The arrival's units at `spots` ({unit id: (x, y)}; a unit not named keeps the
    position its record holds), its leader with them; the arrival no longer pending."""
    h = battle.hierarchy
    for cid, u in arrival.units:
        x, y = spots.get(u.id, (u.x, u.y))
        battle.put_unit(evolve(u, x=x, y=y))
    led = None
    if arrival.leader:
        cid, leader = arrival.leader
        first = arrival.units[0][1].id if arrival.units else ""
        x, y = spots.get(first, (leader.x, leader.y))
        battle.put_leader(evolve(leader, x=x, y=y))
        led = (cid, leader.id)
    if arrival.units:
        h = h.with_units(((cid, u.id) for cid, u in arrival.units), led)
    elif led:
        h = h.with_command_leader(*led)
    battle.set_hierarchy(h)
    battle.set_pending(a for a in battle.pending if a.id != arrival.id)


def find_arrival(battle, aid: str) -> Arrival | None:
    return next((a for a in battle.pending if a.id == aid), None)


def due_arrivals(battle, ruleset, side: str | None = None) -> list[Arrival]:
    """Arrivals that may be brought on now: their side's move has begun on their turn."""
    st = battle.state
    if not st.started or st.over or st.phase != ruleset.arrival_phase:
        return []
    side = side or st.active
    return [a for a in battle.pending
            if a.side == side == st.active and st.turn >= a.next_turn]


# ---- where they may stand ----------------------------------------------------------------
def _to_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def entry_distance(arrival: Arrival, pos) -> float:
    a = arrival.entry[0]
    return _to_segment(pos, a, arrival.entry[-1])


def step_of(battle, ruleset) -> float:
    """The spacing of spots near an entry: a box on a grid, a base's frontage otherwise."""
    g = battle.battlefield.grid
    return g if g and ruleset.measure == "grid" else 4.0


def reach(battle, ruleset, arrival: Arrival) -> float:
    """How far from the entry its units may be set down (room for all of them)."""
    return step_of(battle, ruleset) * (2 + math.ceil(math.sqrt(len(arrival.units))))


def blocked_by(battle, ruleset, arrival: Arrival) -> str:
    """The enemy unit standing on the entry (within two spots of it), or ''."""
    near = 2 * step_of(battle, ruleset)
    for e in battle.live_units():
        if e.side != arrival.side and entry_distance(arrival, e.pos) <= near:
            return e.name
    return ""


def auto_spots(battle, ruleset, arrival: Arrival, radius: float) -> dict | None:
    """Free spots nearest the entry for every unit, within `radius`; None without room."""
    bf = battle.battlefield
    step = step_of(battle, ruleset)
    grid = step if ruleset.measure == "grid" and bf.grid else None
    xs = [p[0] for p in arrival.entry]
    ys = [p[1] for p in arrival.entry]
    if grid:
        c0, c1 = int((min(xs) - radius) // grid), int((max(xs) + radius) // grid)
        r0, r1 = int((min(ys) - radius) // grid), int((max(ys) + radius) // grid)
        cells = [((c + 0.5) * grid, (r + 0.5) * grid) for c in range(c0, c1 + 1)
                 for r in range(r0, r1 + 1)]
    else:
        ox, oy = arrival.entry[0]
        n = int(radius // step) + 1
        span = int(max(max(xs) - min(xs), max(ys) - min(ys)) // step) + n
        cells = [(ox + i * step, oy + j * step) for i in range(-span, span + 1)
                 for j in range(-span, span + 1)]
    cells = sorted((c for c in cells if entry_distance(arrival, c) <= radius),
                   key=lambda c: (round(entry_distance(arrival, c), 6), c[1], c[0]))
    others = [u.pos for u in battle.live_units()]
    spots, taken = {}, None
    if grid:
        taken = {(int(u.x // grid), int(u.y // grid)): u.id for u in battle.live_units()}
    for _, u in arrival.units:
        for c in cells:
            if placement_problem(battle, ruleset, u.kind, c, taken=taken):
                continue
            if not grid and any(math.dist(c, o) < step * 0.9 for o in others):
                continue                      # inches: keep the bases apart
            spots[u.id] = c
            cells.remove(c)
            if grid:
                taken[(int(c[0] // grid), int(c[1] // grid))] = u.id
            else:
                others.append(c)
            break
        else:
            return None
    return spots


def taken_boxes(battle, ruleset) -> dict | None:
    """{box: unit id} on a gridded table under gridded rules (one unit a box), else None."""
    g = battle.battlefield.grid
    if not (g and ruleset.measure == "grid"):
        return None
    return {(int(u.x // g), int(u.y // g)): u.id for u in battle.live_units()}


def spot_problem(battle, ruleset, arrival: Arrival, uid: str, pos, taken=None) -> str:
    """Why the umpire may not set this arriving unit down at `pos` ('' when he may): too
    far from the entry, or where the rules would not let it stand. `taken` (boxes) holds
    the spots already given to the others of the arrival."""
    kinds = {u.id: u.kind for _, u in arrival.units}
    if uid not in kinds:
        return f"{uid} is not part of this arrival"
    limit = reach(battle, ruleset, arrival)
    if entry_distance(arrival, pos) > limit:
        return (f"({pos[0]:g}, {pos[1]:g}) is more than {limit:g} inches from "
                f"{arrival.name or 'the entry'}")
    return placement_problem(battle, ruleset, kinds[uid], pos, taken=taken)


def _what(battle, arrival: Arrival) -> str:
    if arrival.scope == "command":
        c = battle.commands.get(arrival.id)
        return c.name if c else arrival.id
    return arrival.units[0][1].name


# ---- the game action -----------------------------------------------------------------------
@register
@dataclass(frozen=True)
class BringOnArrival(Action):
    """Bring a due reinforcement on: roll for it if it comes on a die, then set its units
    down at `spots` ((unit id, x, y), ...) as the umpire names them, or automatically."""
    category: ClassVar[str] = "game"
    arrival: str
    spots: tuple = ()

    def validate(self, battle, ruleset) -> None:
        need(battle.state.started, "the battle has not started: start it first")
        a = find_arrival(battle, self.arrival)
        need(a is not None, f"nothing is waiting to arrive as {self.arrival!r}")
        st = battle.state
        need(st.active == a.side, f"{_what(battle, a)} come on in their own side's turn")
        need(st.phase == ruleset.arrival_phase,
             f"reinforcements come on in the {ruleset.phase(ruleset.arrival_phase).label} phase")
        need(st.turn >= a.next_turn, f"{_what(battle, a)}: {a.describe()}")
        if not self.spots:
            return
        ids = [s[0] for s in self.spots if isinstance(s, (tuple, list)) and len(s) == 3]
        need(len(ids) == len(self.spots), "each spot is (unit id, x, y)")
        want = sorted(u.id for _, u in a.units)
        need(sorted(ids) == want, f"name a spot for each of {', '.join(want)}, once")
        g = battle.battlefield.grid
        taken = taken_boxes(battle, ruleset)
        for uid, x, y in self.spots:
            why = spot_problem(battle, ruleset, a, uid, (x, y), taken)
            need(not why, f"{uid}: {why}")
            if taken is not None:
                taken[(int(x // g), int(y // g))] = uid

    def apply(self, battle, ruleset, dice) -> list:
        a = find_arrival(battle, self.arrival)
        what, turn = _what(battle, a), battle.state.turn
        where = a.name or "their entry"

        def delay(why):
            later = replace(a, due=turn + 1)
            battle.set_pending(later if p.id == a.id else p for p in battle.pending)
            return [ReinforcementsDelayed(what, why, turn + 1)]

        if a.roll and not a.rolled:
            face = dice.d6(f"arrival: {what} ({a.roll}+ to come on at {where})")
            if face < a.roll:
                return delay(f"rolled {face}, needed {a.roll}")
            a = replace(a, rolled=True)
            battle.set_pending(a if p.id == a.id else p for p in battle.pending)
        if self.spots:
            spots = {uid: (float(x), float(y)) for uid, x, y in self.spots}
        else:
            enemy = blocked_by(battle, ruleset, a)
            spots = None if enemy else auto_spots(battle, ruleset, a, reach(battle, ruleset, a))
            if spots is None and a.delay_if_blocked:
                return delay(f"{where} is blocked" + (f" by {enemy}" if enemy else " (no room)"))
            if spots is None:                 # not delayed: the nearest room at any distance
                spots = auto_spots(battle, ruleset, a, 4 * reach(battle, ruleset, a))
            if spots is None:
                return delay(f"no room near {where}")
        put_on(battle, a, spots)
        return [ReinforcementsArrived(what, where, tuple(sorted(spots)))]


@register
@dataclass(frozen=True)
class RollForArrival(Action):
    """Roll for a due reinforcement that comes on a die before setting it down, so the
    umpire knows whether to place it: a success holds (a blocked entry later keeps it),
    a failure puts it off a turn. `BringOnArrival` rolls by itself when this was not used."""
    category: ClassVar[str] = "game"
    arrival: str

    def validate(self, battle, ruleset) -> None:
        BringOnArrival(self.arrival).validate(battle, ruleset)
        a = find_arrival(battle, self.arrival)
        need(a.roll and not a.rolled, f"{_what(battle, a)} need no roll now")

    def apply(self, battle, ruleset, dice) -> list:
        a = find_arrival(battle, self.arrival)
        what, turn, where = _what(battle, a), battle.state.turn, a.name or "their entry"
        face = dice.d6(f"arrival: {what} ({a.roll}+ to come on at {where})")
        if face < a.roll:
            later = replace(a, due=turn + 1)
            battle.set_pending(later if p.id == a.id else p for p in battle.pending)
            return [ReinforcementsDelayed(what, f"rolled {face}, needed {a.roll}", turn + 1)]
        battle.set_pending(replace(a, rolled=True) if p.id == a.id else p for p in battle.pending)
        return [ArrivalRolled(what, face, a.roll)]


ArrivalRolled = _event("ArrivalRolled", "{what}: rolled {face}, needed {roll}: they may come on",
                       what=str, face=int, roll=int)


def arrival_note(battle, ref: str) -> str:
    """'arriving turn 3 at the Raigern road' for a unit, leader or command still to come."""
    a = battle.arrival_of(ref)
    return a.describe() if a is not None else ""
