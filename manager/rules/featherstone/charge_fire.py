"""Fire at a charging unit as its own step, before the melee (issue 15).

The text's combat phase: "Stationary units shoot first. This includes units that were
charged but withstood the charge ... a unit that shoots first at a charging unit is
considered to be meleeing with that shot", and "other nearby units may fire in support
if they did not move this turn". So a player may take these shots as steps of the
stationary fire: the charged unit's first fire (a Charged 6 if it did not move, or a 7)
and its friends' support fire at the charger. Each is resolved as ResolveMelee would
resolve it (the same shot, the same saves), then the charger reacts: it checks morale on
the Charged column if it lost figures, and a charge that has lost a quarter of the
strength it charged with is halted (cavalry withdraw a move; infantry stand, and may
return fire as moving units do). Shots taken here are not taken again in the melee:
first fire is marked on the defender (`first_fired`) and its casualties counted in its
score (`pre_melee`); supporters are marked as having fired; the check is remembered on
the charger (`checked_at`). A player who takes no such step gets them all inside
ResolveMelee, as before.
"""
from __future__ import annotations

from ...actions import need
from ...model.forces import mark
from ...odds import Odds, OddsLine
from .losses import hit_leaders_check, retreat, save_for, saving_rolls, settle, \
    take_casualties
from .state import arm, dice_for, engaged, firing_figures


def charge_shot_kind(battle, unit, target) -> str:
    """'first' (the charged unit at its charger), 'support' (a friend of the charged
    side at a charging enemy) or '' (an ordinary shot)."""
    if target is None or target.eliminated or target.side == unit.side:
        return ""
    charged = mark(target, "charging")
    if not charged:
        return ""
    if charged == unit.id:
        return "first"
    return "" if engaged(battle, unit) else "support"


def check_charge_shot(battle, unit, target, kind: str) -> None:
    if kind == "first":
        need(arm(unit) != "cavalry", f"{unit.name} is cavalry: horse does not fire")
        need(not mark(unit, "first_fired"), f"{unit.name} has already fired first")
        if mark(unit, "reaction", "stand") != "first_fire":
            need(not unit.moved, f"{unit.name} moved this turn: it may not fire first")
            need(False, f"{unit.name} has no first fire: only a Charged 6 (if it did not "
                 f"move) or 7 lets it fire first; the melee is simultaneous")
        return _in_stationary_fire(battle)
    from .fire import may_fire_supporting
    from .support import _spec
    need(battle.option("support_fire"), "support fire is off (option support_fire)")
    why = may_fire_supporting(battle, unit)
    need(not why, why)
    _in_stationary_fire(battle)
    _spec(battle, unit, target)                 # in range and sight, or why not


def _in_stationary_fire(battle) -> None:
    need(battle.state.phase == "fire_first", f"fire at a charging unit comes in the "
         f"stationary fire, before the melee (this is the {battle.state.phase} step)")


def resolve_charge_shot(battle, unit, lead, kind: str, dice) -> list:
    from .fire import shoot_hits
    from .support import support_fire
    events: list = []
    d = battle.units[mark(lead, "charging")]
    hits = 0
    if kind == "first":
        hits = shoot_hits(battle, unit, lead, dice, events)
        lost = saving_rolls(battle, lead, hits, dice, False, events, unit.pos)
        take_casualties(battle, lead.id, lost, events, dice=dice)
        battle.update_unit(unit.id, fired=True)
        battle.mark_unit(unit.id, first_fired=True)
    else:
        lost = support_fire(battle, (unit, lead), lead, dice, events)
    battle.mark_unit(d.id, pre_melee=mark(d, "pre_melee", 0) + lost)
    charger_reacts(battle, battle.units[lead.id], d, lost, dice, events)
    if not battle.units[lead.id].eliminated:
        hit_leaders_check(battle, battle.units[lead.id], hits, dice, events)
    settle(battle, events)
    return events


def charger_reacts(battle, lead, d, lost: int, dice, events: list) -> bool:
    """After a volley at the charger: its check if it lost figures, then the halt at a
    quarter of the strength it charged with (whatever the check said). True if the
    charge is stopped."""
    from .melee import ChargeHalted
    from .morale import check
    if lead.eliminated:
        return True
    charged_with = mark(lead, "charge_strength", lead.hits)
    stopped = False
    if lost and battle.option("charger_check") == "charged_column":
        _, result, _ = check(battle, lead, "charged", dice, events)
        battle.mark_unit(lead.id, checked_at=battle.units[lead.id].hits)
        if result in ("break", "fall_back"):
            stopped = True
            retreat(battle, lead.id, d.pos, 2 if result == "break" else 1,
                    "away" if result == "break" else "enemy", "falls back from the charge",
                    events, dice=dice)
    lead = battle.units[lead.id]
    fire_lost = charged_with - lead.hits
    if not stopped and not lead.eliminated and fire_lost and fire_lost * 4 >= charged_with:
        stopped = True
        events.append(ChargeHalted(lead.name, fire_lost))
        if arm(lead) != "infantry":             # infantry stand and may return fire
            retreat(battle, lead.id, d.pos, 1, "enemy", "withdraws", events, dice=dice)
    if stopped and not battle.units[lead.id].eliminated:
        battle.update_unit(lead.id, disordered=True)
        battle.mark_unit(lead.id, charging=None, stopped=f"{d.id}@{battle.state.turn}")
        battle.mark_unit(d.id, reaction=None, first_fired=None, pre_melee=None)
    return stopped


def stopped_before(battle, defender: str) -> str:
    """The charger whose charge at `defender` was stopped by fire this turn ('' if none)."""
    tag = f"{defender}@{battle.state.turn}"
    return next((u.name for u in battle.live_units() if mark(u, "stopped") == tag), "")


def charge_shot_odds(battle, unit, target, kind: str) -> Odds:
    """The casualties of the shot, exact, as resolve_charge_shot rolls it."""
    from dataclasses import replace
    from .fire import close_shot
    from .shot_odds import casualty_dist
    from .support import _spec
    if kind == "first":
        shot = close_shot(battle, unit, target, unit.disordered)
        shot = replace(shot, dice=dice_for(firing_figures(unit, unit.hits)))
        save, b = save_for(battle, target, False)
        shot = replace(shot, save=save, save_bonus=b)
    else:
        shot = _spec(battle, unit, target)
    lost = casualty_dist(shot)
    what = "first fire" if kind == "first" else "support fire"
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name} ({what})", lost, target.name)])
    odds.outcomes["no casualties"] = lost.p(0)
    charged_with = mark(target, "charge_strength", target.hits)
    need_lost = max(-(-charged_with // 4) - (charged_with - target.hits), 1)
    odds.outcomes[f"{target.name} has lost a quarter of its charge (halted)"] = \
        lost.p_at_least(need_lost)
    return odds
