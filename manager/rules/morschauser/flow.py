"""The turn: players alternate; each player turn is rally, move and fire, then melee."""
from __future__ import annotations

from ...actions import need
from ...events import BattleEnded, BattleStarted, PhaseBegan, TurnBegan
from ..base import roll_leader_qualities
from .board import box_of, distance
from .melee import melees
from .morale import commands_nothing, rally, rallyable, seized
from .moves import own_leader, own_unit
from .tables import LEADER, NEXT_PHASE, PHASES, QUALITY


def check_start(battle, action) -> None:
    need(not battle.state.started, "the battle has already started")
    need(len(battle.sides) == 2, f"a battle needs two sides, this one has {len(battle.sides)}")
    for side in battle.sides:
        need(battle.live_units(side) or any(a.side == side for a in battle.pending),
             f"{battle.sides[side].name} has no units")     # (reinforcements count)
    first = battle.info.first_side
    need(first == "roll" or first in battle.sides, f"first_side {first!r} is not a side")
    if battle.option("army_composition"):
        from .composition import composition_breaches
        breaches = composition_breaches(battle)
        need(not breaches, "army composition: " + "; ".join(breaches))


def resolve_start(battle, action, dice) -> list:
    events = roll_leader_qualities(battle, dice, lambda q: QUALITY[q][0])
    sides = list(battle.sides)
    first = battle.info.first_side
    while first == "roll":
        a = dice.d6(f"first move: {battle.sides[sides[0]].name}")
        b = dice.d6(f"first move: {battle.sides[sides[1]].name}")
        if a != b:
            first = sides[0] if a > b else sides[1]
    order = (first,) + tuple(s for s in sides if s != first)
    battle.set_state(started=True, turn=1, phase=PHASES[0].name, active=first, order=order)
    _begin_player_turn(battle, first)
    events += [BattleStarted(battle.sides[first].name), TurnBegan(1),
               PhaseBegan(battle.sides[first].name, PHASES[0].label)]
    return events


def _begin_player_turn(battle, side: str) -> None:
    for u in battle.units.values():
        if u.side == side and (u.moved or u.fired or u.fire_hits or u.fell_back):
            battle.update_unit(u.id, moved=0, fired=False, fire_hits=0, fell_back=False)
    for l in battle.leaders.values():
        if l.side == side and (l.moved or l.rallied):
            battle.update_leader(l.id, moved=False, rallied=False)
    if battle.state.marks:              # rally attempts, gains and a seizure: this turn's
        battle.set_state(marks=())


def check_end_phase(battle, action) -> None:
    if battle.state.phase == "melee":
        left = melees(battle)
        need(not left, f"{len(left)} melee(s) still to resolve, first at "
             f"{(battle.units.get(left[0].defender) or battle.leaders[left[0].defender]).name}"
             if left else "")


def resolve_end_phase(battle, action, dice) -> list:
    state = battle.state
    nxt = NEXT_PHASE[state.phase]
    label = {p.name: p.label for p in PHASES}
    if nxt:
        battle.set_state(phase=nxt, fought=frozenset())
        return [PhaseBegan(battle.sides[state.active].name, label[nxt])]
    i = state.order.index(state.active)
    events = []
    turn = state.turn
    if i + 1 == len(state.order):
        turn += 1
        if turn > battle.info.turns:
            battle.set_state(over=True, winner=None, phase="over",
                             reason=f"the turn limit ({battle.info.turns}) is reached")
            return [BattleEnded(None, battle.state.reason)]
        events.append(TurnBegan(turn))
    side = state.order[(i + 1) % len(state.order)]
    battle.set_state(turn=turn, active=side, phase=PHASES[0].name, fought=frozenset())
    _begin_player_turn(battle, side)
    events.append(PhaseBegan(battle.sides[side].name, label[PHASES[0].name]))
    return events


def check_rally(battle, action) -> None:
    leader = own_leader(battle, action.leader)
    need(not seized(battle, leader.side), "the Archduke has had a seizure: no rallying "
         "takes place this turn")
    need(not leader.rallied, f"{leader.name} has already rallied a unit this turn")
    unit = own_unit(battle, action.unit)
    need(not commands_nothing(battle, leader), f"{leader.name} is the army's General and "
         "commands no unit of his own (option general_commands = none)")
    need(unit.id in battle.hierarchy.units_led_by(leader.id),
         f"{unit.name} is not under {leader.name}'s command")
    need(unit.hits < unit.max_hits, f"{unit.name} has lost no hits")
    if unit.id not in rallyable(battle, leader):
        d = distance(box_of(battle, leader), box_of(battle, unit))
        need(False, f"{unit.name} is {d:g} boxes from {leader.name}; "
             f"he rallies within {LEADER['radius']}")


def resolve_rally(battle, action, dice) -> list:
    events: list = []
    rally(battle, battle.leaders[action.leader], battle.units[action.unit], dice, events)
    return events
