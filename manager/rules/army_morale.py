"""Army morale for rulesets whose texts have none: commands Shaken at half their units
lost, and an army conceding when half (or all) of its commands are Shaken.

Offered as an option (`army_morale`: half_commands, all_commands, off) by rulesets
whose battles otherwise end only on the clock.
"""
from __future__ import annotations

from ..events import ArmyConceded, BattleEnded, CommandShaken
from .base import Option

ARMY_MORALE_OPTION = Option(
    "army_morale", "half_commands", "Not in the text: an army concedes when half (or all) "
    "of its commands are Shaken (half their units gone), or never.",
    ("half_commands", "all_commands", "off"))


def settle_army(battle, events: list, rule: str) -> None:
    h = battle.hierarchy

    def gone(u):
        return battle.units[u].eliminated

    for side in battle.sides:
        for cid in h.commands_of(side):
            if cid not in battle.state.shaken and h.losses_shake(cid, gone):
                battle.set_state(shaken=battle.state.shaken | {cid})
                events.append(CommandShaken(battle.commands[cid].name))
    if rule == "off" or battle.state.over:
        return
    share = "half" if rule == "half_commands" else "all"
    for side in battle.sides:
        if h.army_broken(side, battle.state.shaken, share):
            winner = battle.enemy_of(side)
            reason = f"{battle.sides[side].name}: {share} of its commands are Shaken"
            events.append(ArmyConceded(battle.sides[side].name, reason))
            battle.set_state(over=True, winner=winner, phase="over", reason=reason)
            events.append(BattleEnded(winner, reason))
            return
