"""The turn: initiative, then each step played by the first player and then the second
(rally, generals, charges, other moves, stationary fire, moving fire), then melee.

The high roller chooses who goes first, in every step or step by step; ties re-roll.
Turn state lives in the turn's marks: `initiative` (the winner) and `first.<step>`
(the side going first in that step). Per-turn unit state is cleared as a turn begins;
figures are noted as each fire step begins so that shooting in it is simultaneous.
"""
from __future__ import annotations

from ...actions import need
from ...events import PhaseBegan, TurnBegan, declare_event
from ..base import roll_leader_qualities
from ..common import check_two_sides, next_turn
from ...model.forces import mark, with_marks
from .charges import must_charge_left
from .losses import settle
from .melee import melees
from .morale import apply_rally, check, may_influence, to_check
from .moves import own_unit
from .tables import PER_SIDE, PHASES, QUALITY_LABEL, STEPS

InitiativeWon = declare_event("InitiativeWon", "{side} wins the initiative ({a} to {b})",
                              side=str, a=int, b=int)
OrderChosen = declare_event("OrderChosen", "{side} goes first in {steps}", side=str, steps=str)
Began = declare_event("BattleBegan", "The battle begins: each turn opens with the initiative")
LABEL = {p.name: p.label for p in PHASES}


def turn_mark(battle, key, default=None):
    return dict(battle.state.marks).get(key, default)


def first_in(battle, step: str) -> str:
    return turn_mark(battle, f"first.{step}") or turn_mark(battle, "initiative")


def side_order(battle, step: str) -> tuple:
    first = first_in(battle, step)
    return (first,) + tuple(s for s in battle.sides if s != first)


def check_start(battle, action) -> None:
    check_two_sides(battle)


def resolve_start(battle, action, dice) -> list:
    events = roll_leader_qualities(battle, dice, QUALITY_LABEL.get, "general's rating")
    battle.set_state(started=True, turn=0, order=tuple(battle.sides))
    events.append(Began())
    return events + _begin_turn(battle, 1, dice)


TURN_MARKS = ("shots", "fired_turn", "impetuous", "officer_lost", "sheltered", "checked",
              "stand_ground", "counter_seven")         # the marks that outlast a turn


def _begin_turn(battle, turn: int, dice) -> list:
    for u in battle.units.values():
        if u.eliminated:
            continue
        keep = tuple(sorted((k, v) for k, v in u.marks if k in TURN_MARKS))
        # (~65% of the units are already as the new turn leaves them: records kept)
        battle.refresh_unit(u.id, moved=0, fired=False, fell_back=False, marks=keep)
    for l in battle.leaders.values():
        if l.moved or l.rallied:
            battle.update_leader(l.id, moved=False, rallied=False)
    sides = list(battle.sides)
    first = battle.info.first_side if turn == 1 and battle.info.first_side != "roll" else None
    events: list = [TurnBegan(turn)]
    a = b = 0
    while first is None:
        a = dice.d6(f"initiative: {battle.sides[sides[0]].name}")
        b = dice.d6(f"initiative: {battle.sides[sides[1]].name}")
        if a != b:
            first = sides[0] if a > b else sides[1]
    battle.set_state(turn=turn, phase="initiative", active=first,
                     order=(first,) + tuple(s for s in sides if s != first),
                     marks=(("initiative", first),), fought=frozenset())
    events.append(InitiativeWon(battle.sides[first].name, max(a, b), min(a, b)))
    events.append(PhaseBegan(battle.sides[first].name, LABEL["initiative"]))
    return events


def check_choose(battle, action) -> None:
    need(battle.state.phase == "initiative", "the order is chosen in the initiative step")
    need(action.first in battle.sides, f"{action.first!r} is not a side")
    unknown = set(action.steps) - set(PER_SIDE)
    need(not unknown, f"steps are {', '.join(PER_SIDE)}; not {', '.join(sorted(unknown))}")


def resolve_choose(battle, action, dice) -> list:
    steps = tuple(action.steps) or PER_SIDE
    battle.set_state(marks=with_marks(battle.state.marks,
                                      **{f"first.{s}": action.first for s in steps}))
    return [OrderChosen(battle.sides[action.first].name, ", ".join(steps))]


def check_end_phase(battle, action) -> None:
    phase = battle.state.phase
    if phase == "melee":
        left = melees(battle)
        need(not left, f"{len(left)} melee(s) still to resolve, first at "
             f"{battle.units[left[0].defender].name}" if left else "")
    if phase == "charges":
        left = must_charge_left(battle, battle.state.active)
        need(not left, f"{left[0][0].name} rallied on a 7 and must charge "
             f"({left[0][1].name} is in reach)" if left else "")


def resolve_end_phase(battle, action, dice) -> list:
    state = battle.state
    events: list = []
    if state.phase == "rally":                 # the checks are mandatory: roll the rest
        for u in to_check(battle, state.active):
            _, result, _ = check(battle, u, "rally", dice, events)
            apply_rally(battle, battle.units[u.id], result, dice, events)
        settle(battle, events)
        if battle.state.over:
            return events
    step, side = state.phase, state.active
    if step == "initiative":
        nxt, who = "rally", first_in(battle, "rally")
    elif step in PER_SIDE and side == side_order(battle, step)[0]:
        nxt, who = step, side_order(battle, step)[1]
    else:
        i = STEPS.index(step)
        if i + 1 == len(STEPS):
            return events + _end_turn(battle, dice)
        nxt = STEPS[i + 1]
        who = side_order(battle, nxt)[0] if nxt in PER_SIDE else first_in(battle, "moves")
    if nxt in ("fire_first", "fire") and (nxt != step):
        # simultaneous: figures and disorder as the step begins. A shot of the step notes
        # them on its target just before it first changes them (fire.note_step_strength);
        # a unit not hit in the step reads its own, which are those. So only the marks
        # the last step left go (not a new record for every unit at every fire step)
        for u in battle.live_units():
            if mark(u, "strength") is not None or mark(u, "was_disordered") is not None:
                battle.mark_unit(u.id, strength=None, was_disordered=None)
    if nxt == "melee":                             # support and first fire: as they are now
        for u in battle.live_units():
            if mark(u, "strength") is not None or mark(u, "was_disordered") is not None:
                battle.mark_unit(u.id, strength=None, was_disordered=None)
    if nxt == "moves":
        _crews_return(battle, who)
    battle.set_state(phase=nxt, active=who, fought=frozenset())
    events.append(PhaseBegan(battle.sides[who].name, LABEL[nxt]))
    return events


def _crews_return(battle, side: str) -> None:
    """Sheltering gunners go back to their gun when no enemy base is within 2 inches."""
    from .nearby import near_units, unit_gap
    for u in battle.live_units(side):
        if mark(u, "sheltered") and not any(
                unit_gap(battle, e, u) <= 2 for e in near_units(battle, u.pos, 12,
                                                                battle.enemy_of(side))):
            battle.mark_unit(u.id, sheltered=None)


def _end_turn(battle, dice) -> list:
    events: list = []
    settle(battle, events)
    if battle.state.over:
        return events
    return events + next_turn(battle, lambda turn: _begin_turn(battle, turn, dice))


def check_rally(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    need(unit.disordered, f"{unit.name} is not disordered")
    need(mark(unit, "checked") != battle.state.turn, f"{unit.name} has already checked this turn")
    if action.leader:
        leader = battle.leaders.get(action.leader)
        need(leader is not None, f"there is no general {action.leader!r}")
        why = may_influence(battle, leader, unit)
        need(not why, why)
        if action.influence is not None:
            from .nearby import attached_leaders
            top = 2 if leader in attached_leaders(battle, unit) else 1
            need(-top <= action.influence <= top, f"{leader.name} may add -{top} to +{top}"
                 + (" (attached)" if top == 2 else " (within 4 inches)"))


def resolve_rally(battle, action, dice) -> list:
    events: list = []
    unit = battle.units[action.unit]
    leader = battle.leaders.get(action.leader) if action.leader else None
    _, result, _ = check(battle, unit, "rally", dice, events, general=leader,
                         influence=action.influence)
    apply_rally(battle, battle.units[unit.id], result, dice, events,
                leader.name if leader else "")
    if leader is not None and not battle.leaders[leader.id].eliminated:
        battle.update_leader(leader.id, rallied=True)
    settle(battle, events)
    return events
