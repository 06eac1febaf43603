"""The D3 turn: two player turns, each movement, shooting, hand-to-hand, elimination.

Dice for the first player (ties re-rolled) unless the scenario names one. As a player
turn begins its side's units shed last turn's disorder and flags, its generals get
their re-roll back and, with the event-card variant, a card is drawn. Units with 9
hits are removed as the player turn ends.
"""
from __future__ import annotations

from ...actions import need
from ...events import (BattleEnded, BattleStarted, PhaseBegan, TurnBegan, UnitEliminated,
                       declare_event)
from ...model.forces import with_marks
from ..army_morale import settle_army
from ..common import check_two_sides, dice_off
from .combat import melees
from .moves import generals_to_flee
from .tables import EVENTS, NEXT_PHASE, PHASES

EventDrawn = declare_event("EventDrawn", "{side} draws an event: {text}", side=str, text=str)
LABEL = {p.name: p.label for p in PHASES}


def check_start(battle, action) -> None:
    check_two_sides(battle)


def resolve_start(battle, action, dice) -> list:
    sides = list(battle.sides)
    first = battle.info.first_side
    if first == "roll":
        first = dice_off(battle, dice, "first player")
    order = (first,) + tuple(s for s in sides if s != first)
    battle.set_state(started=True, turn=1, phase="move", active=first, order=order)
    events = [BattleStarted(battle.sides[first].name), TurnBegan(1)]
    return events + _begin_player_turn(battle, first, dice)


def _begin_player_turn(battle, side: str, dice) -> list:
    for u in battle.units.values():
        if u.side == side and not u.eliminated:
            keep = tuple((k, v) for k, v in u.marks if k == "deployed")
            # (~72% are already as their turn leaves them: records kept)
            battle.refresh_unit(u.id, moved=0, fired=False, disordered=False, marks=keep)
    for l in battle.leaders.values():
        if l.side == side and (l.moved or l.rallied):
            battle.update_leader(l.id, moved=False, rallied=False)
    events = [PhaseBegan(battle.sides[side].name, LABEL["move"])]
    battle.set_state(marks=with_marks(battle.state.marks, event=None))
    if battle.option("event_cards"):
        face = dice.d6(f"event card: {battle.sides[side].name}")
        key, text, _, _ = EVENTS.get(face, ("", "no event", "", 0))
        if key:
            battle.set_state(marks=with_marks(battle.state.marks, event=key))
        events.append(EventDrawn(battle.sides[side].name, text))
    return events


def check_end_phase(battle, action) -> None:
    phase = battle.state.phase
    if phase == "move":
        flee = generals_to_flee(battle, battle.state.active)
        need(not flee, f"{flee[0].name} has the enemy within 6 inches: he must ride 12 inches "
             "away first" if flee else "")
    if phase == "melee":
        left = melees(battle)
        need(not left, f"{len(left)} charge(s) still to resolve" if left else "")


def resolve_end_phase(battle, action, dice) -> list:
    state = battle.state
    nxt = NEXT_PHASE[state.phase]
    if nxt:
        battle.set_state(phase=nxt)
        return [PhaseBegan(battle.sides[state.active].name, LABEL[nxt])]
    events: list = []
    for u in battle.live_units():                      # the elimination phase
        if u.hits <= 0:
            battle.update_unit(u.id, eliminated=True, marks=())
            events.append(UnitEliminated(u.name, u.id))
    settle_army(battle, events, battle.option("army_morale"))
    if battle.state.over:
        return events
    i = state.order.index(state.active)
    turn = state.turn
    if i + 1 == len(state.order):
        turn += 1
        if turn > battle.info.turns:
            battle.set_state(over=True, winner=None, phase="over",
                             reason=f"the turn limit ({battle.info.turns}) is reached")
            return events + [BattleEnded(None, battle.state.reason)]
        events.append(TurnBegan(turn))
    side = state.order[(i + 1) % len(state.order)]
    battle.set_state(turn=turn, active=side, phase="move")
    return events + _begin_player_turn(battle, side, dice)
