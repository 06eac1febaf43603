"""Harman's turn: both sides' artillery fire (simultaneous), the initiative (the lower
D6 chooses, with the catch-up bonus against a side that keeps winning), then each side
moves, fires and closes in turn.

Turn marks: `streak` ((side, turns in a row it won the initiative)). As a side's move
begins, its spent and retiring units fall back a square, its wounded Generals dice to
stay, and gunners who ran to the infantry go back to guns no enemy stands beside.
"""
from __future__ import annotations

from ...actions import need
from ...events import BattleStarted, PhaseBegan, TurnBegan, declare_event
from ...model.forces import mark, with_marks
from ..army_morale import settle_army
from ..common import check_two_sides, next_turn
from .board import box, enemies_adjacent, generals_with, retiring
from .combat import melees
from .fire import apply_pending
from .tables import PHASES
from .tactical import Effect, step_back

InitiativeRolled = declare_event("InitiativeRolled", "Initiative: {detail}; {side} chooses",
                                 detail=str, side=str)
LABEL = {p.name: p.label for p in PHASES}
KEEP = ("retiring", "engaged", "rounds", "origin", "volleys", "unlimbered", "gunners_away",
        "no_move", "flagged", "flags_turn", "steadied", "clash")


def check_start(battle, action) -> None:
    check_two_sides(battle)
    need(battle.battlefield.grid, "Harman's rules are played on a gridded table")


def resolve_start(battle, action, dice) -> list:
    battle.set_state(started=True, turn=0, order=tuple(battle.sides))
    return [BattleStarted("the artillery")] + _begin_turn(battle, 1, dice)


def _begin_turn(battle, turn: int, dice) -> list:
    for u in battle.live_units():
        keep = tuple((k, v) for k, v in u.marks if k in KEEP)
        battle.update_unit(u.id, moved=0, fired=False, fell_back=False, marks=keep)
    for l in battle.leaders.values():
        if l.moved or l.rallied:
            battle.update_leader(l.id, moved=False, rallied=False)
    first = battle.state.order[0]
    battle.set_state(turn=turn, phase="artillery", active=first, fought=frozenset())
    return [TurnBegan(turn), PhaseBegan(battle.sides[first].name, LABEL["artillery"])]


def _initiative(battle, dice) -> list:
    sides = list(battle.sides)
    streak = dict(battle.state.marks).get("streak", ("", 0))
    while True:
        rolls = {}
        for s in sides:
            face = dice.d6(f"initiative: {battle.sides[s].name}")
            bonus = max(streak[1] - 1, 0) if streak[0] == s else 0
            rolls[s] = (face, bonus)
        a, b = (rolls[s][0] + rolls[s][1] for s in sides)
        if a != b:
            break
    low = sides[0] if a < b else sides[1]
    n = streak[1] + 1 if streak[0] == low else 1
    battle.set_state(phase="initiative", active=low,     # by default the chooser moves first
                     order=(low,) + tuple(s for s in sides if s != low),
                     marks=with_marks(battle.state.marks, streak=(low, n)))
    detail = "; ".join(f"{battle.sides[s].name} {f}" + (f"+{bn}" if bn else "")
                       for s, (f, bn) in rolls.items())
    return [InitiativeRolled(detail, battle.sides[low].name),
            PhaseBegan(battle.sides[low].name, LABEL["initiative"])]


def check_choose(battle, action) -> None:
    need(battle.state.phase == "initiative", "the order is chosen in the initiative phase")
    need(action.first in battle.sides, f"{action.first!r} is not a side")
    need(not action.steps, "the side moving first does everything first")


def resolve_choose(battle, action, dice) -> list:
    battle.set_state(order=(action.first,) + tuple(s for s in battle.sides if s != action.first))
    return [PhaseBegan(battle.sides[action.first].name, "moves first")]


def check_end_phase(battle, action) -> None:
    if battle.state.phase == "move":
        left = melees(battle)
        need(not left, f"{len(left)} close combat(s) go on: resolve them first" if left else "")


def resolve_end_phase(battle, action, dice) -> list:
    st = battle.state
    events: list = []
    if st.phase == "artillery":
        if st.active == st.order[0]:
            battle.set_state(active=st.order[1])
            return [PhaseBegan(battle.sides[st.order[1]].name, LABEL["artillery"])]
        apply_pending(battle, dice, events)
        settle_army(battle, events, battle.option("army_morale"))
        if battle.state.over:
            return events
        return events + _initiative(battle, dice)
    if st.phase == "initiative":
        return events + _begin_move(battle, st.order[0], dice)
    if st.phase == "move" and st.active == st.order[0]:
        return _begin_move(battle, st.order[1], dice)
    settle_army(battle, events, battle.option("army_morale"))
    if battle.state.over:
        return events
    return events + next_turn(battle, lambda turn: _begin_turn(battle, turn, dice))


def _begin_move(battle, side: str, dice) -> list:
    battle.set_state(phase="move", active=side)
    events: list = [PhaseBegan(battle.sides[side].name, LABEL["move"])]
    for u in sorted(battle.live_units(side), key=lambda u: u.id):
        held = u.hits > 0 and generals_with(battle, u)     # a General joined it: it halts
        if retiring(u) and not mark(u, "engaged") and held:          # for his rally
            events.append(Effect(u.name, f"{held[0].name} has joined it: it halts to rally"))
        elif retiring(u) and not mark(u, "engaged") and battle.option("retire") != "once":
            enemy = min(battle.live_units(battle.enemy_of(side)),
                        key=lambda e: (e.x - u.x) ** 2 + (e.y - u.y) ** 2, default=None)
            if enemy is not None:
                step_back(battle, u.id, box(battle, enemy), events, "retires")
                battle.update_unit(u.id, moved=1)
        if mark(u, "gunners_away") and not enemies_adjacent(battle, u):
            battle.mark_unit(u.id, gunners_away=None)
            events.append(Effect(u.name, "the gunners return to their guns"))
    for l in battle.live_leaders(side):
        if l.hits == 1 and dice.d6(f"wounded: {l.name}") == 1:
            battle.update_leader(l.id, eliminated=True, hits=0)
            events.append(Effect(l.name, "his wound forces him from the field"))
    return events

