"""A general's re-roll of a failed activation, when the player chooses to spend it.

"Generals once per turn can re-roll a single activation check during a turn. They must
be within 12" of the unit." With `general_reroll = choose` (the text: the player picks
which check) a failed test keeps the action it was for in the turn's marks; the next
action may be RerollActivation, which rolls again and, on a pass, carries the action
out. Any other action lets the chance go (D3.resolve clears the mark).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from shapely.geometry import Point

from ...actions import action_from_dict, need, register

from ...game_actions import GameAction
from ...model.forces import with_marks
from .tables import GENERAL_REROLL_REACH
from .units import Activation, event_modifier, footprint, taken


@register
@dataclass(frozen=True)
class RerollActivation(GameAction):
    """A general re-rolls the activation test that has just failed."""
    leader: str
    unit: str


def pending(battle) -> dict | None:
    """{'unit', 'what', 'action'} of the test that has just failed, or None."""
    due = dict(battle.state.marks).get("reroll_due")
    return json.loads(due) if due else None


def clear(battle) -> None:
    battle.set_state(marks=with_marks(battle.state.marks, reroll_due=None))


def check_reroll(battle, action) -> None:
    need(battle.option("general_reroll") == "choose", "re-rolls are not chosen in this "
         f"battle (general_reroll = {battle.option('general_reroll')})")
    due = pending(battle)
    need(due is not None and due["unit"] == action.unit,
         "only the activation test that has just failed may be re-rolled")
    unit = battle.units[action.unit]
    leader = battle.leaders.get(action.leader)
    need(leader is not None and not leader.eliminated and leader.side == unit.side,
         f"there is no general {action.leader!r} on {unit.name}'s side")
    need(not leader.rallied, f"{leader.name} has used his re-roll this turn")
    d = footprint(battle, unit).polygon().distance(Point(leader.pos))   # to the base's nearest part
    need(d <= GENERAL_REROLL_REACH + 1e-6, f"{leader.name} is {d:.1f} inches from "
         f"{unit.name}: a general re-rolls within {GENERAL_REROLL_REACH}")


def resolve_reroll(battle, action, dice) -> list:
    from .. import get_ruleset
    due = pending(battle)
    clear(battle)
    unit, leader = battle.units[action.unit], battle.leaders[action.leader]
    battle.update_leader(leader.id, rallied=True)
    mod = event_modifier(battle, due["what"])
    face = dice.d6(f"re-roll by {leader.name}: {unit.name}")
    ok = 2 * face + mod > taken(unit)
    events: list = [Activation(unit.name, due["what"], f"{leader.name} re-rolls: 2 x {face}"
                               f"{f' {mod:+d}' if mod else ''} = {2 * face + mod} against "
                               f"{taken(unit)} hits",
                               "activated" if ok else "inactive and disordered this turn")]
    if not ok:
        return events
    battle.update_unit(unit.id, disordered=False)
    battle.mark_unit(unit.id, inactive=None, rerolled=battle.state.turn)
    return events + get_ruleset("d3").resolve(battle, action_from_dict(due["action"]), dice)
