"""The quick-play turn: initiative (the winner goes first or second with all units) or a
deck of red and black cards (one activation a card); then the end-of-turn shooting of
units that moved; then every melee. Disordered units that spent the turn halted recover.

Turn marks: `deck` (cards left per side, in the order of `battle.sides`), `uses` (pieces
activated on the current card).
"""
from __future__ import annotations

from ...actions import need
from ...events import BattleStarted, PhaseBegan, TurnBegan, declare_event
from ...model.forces import mark, with_marks
from ..army_morale import settle_army
from ..common import check_two_sides, dice_off, next_turn
from .melee import melees
from .tables import PHASES

CardDrawn = declare_event("CardDrawn", "A {colour} card: {side} activates", colour=str, side=str)
UnitRecovered = declare_event("UnitRecovered", "{unit} spent the turn halted and recovers",
                              unit=str)
LABEL = {p.name: p.label for p in PHASES}
KEEP = ("first_fired",)


def cards(battle) -> bool:
    return battle.option("activation") == "cards"


def check_start(battle, action) -> None:
    check_two_sides(battle)


def resolve_start(battle, action, dice) -> list:
    battle.set_state(started=True, turn=0, order=tuple(battle.sides))
    return [BattleStarted("the first turn's " + ("cards" if cards(battle) else "initiative"))] \
        + _begin_turn(battle, 1, dice)


def _begin_turn(battle, turn: int, dice) -> list:
    for u in battle.live_units():
        keep = tuple(sorted(tuple((k, v) for k, v in u.marks if k in KEEP)
                            + (("turn_start", u.hits),)))
        # (~64% of the units are already as the new turn leaves them: records kept)
        battle.refresh_unit(u.id, moved=0, fired=False, fell_back=False, marks=keep)
    for l in battle.leaders.values():
        if l.moved:
            battle.update_leader(l.id, moved=False)
    battle.set_state(turn=turn, marks=(), fought=frozenset())
    events: list = [TurnBegan(turn)]
    if cards(battle):
        deck = tuple(len(battle.live_units(s)) + len(battle.live_leaders(s)) for s in battle.sides)
        battle.set_state(phase="act", marks=(("deck", deck), ("uses", 0)))
        return events + _draw(battle, dice)
    first = battle.info.first_side if turn == 1 and battle.info.first_side != "roll" else \
        dice_off(battle, dice, "initiative")
    battle.set_state(phase="initiative", active=first,
                     order=(first,) + tuple(s for s in battle.sides if s != first))
    return events + [PhaseBegan(battle.sides[first].name, LABEL["initiative"])]


def _draw(battle, dice) -> list:
    """The next card; when the deck is out, on to the end-of-turn shooting."""
    deck = dict(battle.state.marks)["deck"]
    sides = list(battle.sides)
    if sum(deck) == 0:
        return _to(battle, "end_fire", battle.state.order[0])
    if deck[0] and deck[1]:
        face = dice.roll(1, f"card: {deck[0]} red, {deck[1]} black left", sides=sum(deck)).faces[0]
        i = 0 if face <= deck[0] else 1
    else:
        i = 0 if deck[0] else 1
    deck = tuple(n - 1 if k == i else n for k, n in enumerate(deck))
    battle.set_state(active=sides[i], phase="act",
                     marks=with_marks(battle.state.marks, deck=deck, uses=0))
    return [CardDrawn("red" if i == 0 else "black", battle.sides[sides[i]].name)]


def _to(battle, phase: str, side: str) -> list:
    battle.set_state(phase=phase, active=side)
    return [PhaseBegan(battle.sides[side].name, LABEL[phase])]


def check_choose(battle, action) -> None:
    need(battle.state.phase == "initiative", "the order is chosen in the initiative step")
    need(action.first in battle.sides, f"{action.first!r} is not a side")
    need(not action.steps, "the winner goes first or second with all his units")


def resolve_choose(battle, action, dice) -> list:
    order = (action.first,) + tuple(s for s in battle.sides if s != action.first)
    battle.set_state(order=order)
    return [PhaseBegan(battle.sides[action.first].name, "goes first")]


def check_end_phase(battle, action) -> None:
    if battle.state.phase == "melee":
        left = melees(battle)
        need(not left, f"{len(left)} melee(s) still to fight" if left else "")


def resolve_end_phase(battle, action, dice) -> list:
    st = battle.state
    first, second = st.order[0], st.order[1]
    if st.phase == "initiative":
        return _to(battle, "act", first)
    if st.phase == "act":
        if cards(battle):
            return _draw(battle, dice)
        return _to(battle, "act", second) if st.active == first else _to(battle, "end_fire", first)
    if st.phase == "end_fire":
        return _to(battle, "end_fire", second) if st.active == first else _to(battle, "melee", first)
    return _end_turn(battle, dice)


def _end_turn(battle, dice) -> list:
    events: list = []
    for u in battle.live_units():
        if u.disordered and not u.moved and not mark(u, "tested") == battle.state.turn:
            battle.update_unit(u.id, disordered=False)
            events.append(UnitRecovered(u.name))
    settle_army(battle, events, battle.option("army_morale"))
    if battle.state.over:
        return events
    return events + next_turn(battle, lambda turn: _begin_turn(battle, turn, dice))
