"""Melee: support fire, first strikes, the charge halted, dice like shooting, the loser.

The fight at one charged unit, in order: friends that did not move fire in support at
half strength (charging cavalry are fired at as at long range); a lancer strikes first
against cavalry without lances, and a defender with first fire shoots instead of
fighting; a charger that has lost a quarter of its figures is halted (infantry return
fire in disorder, cavalry withdraw a move), and one that lost fewer checks morale on
the Charged column; then the dice: one per 5 fighting figures (3 ranks of foot, 2 of
horse, half a square), faces of 4 or less summed. Each side's score is the casualties
it inflicted plus its morale grade and +2 for a general attached (+1 for one within
4 inches); the lower score loses, ties to the defender. The loser rolls on the Lost
Melee column and the winner may pursue.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from shapely.geometry import Point

from ...actions import need
from ...events import MeleeResolved, declare_event
from ...footprint import distance, heading, inside, slide, surely_apart
from ...model.forces import mark
from ...table_terrain import table_terrain
from ..common import Melee, find_melee as find, melees  # noqa: F401  (melees: for the ruleset)
from .losses import (eliminate, half_up, hit_leaders_check, moved_leaders, retreat,
                     saving_rolls, settle, take_casualties)
from .morale import check
from .state import (arm, dice_for, footprint, grade, is_heavy_cav, is_light_cav,
                    is_skirmish, melee_figures, move_rate, special, traits)
from .nearby import attached_leaders, near_units
from .tables import DIFFICULT_AREAS, GENERAL_NEAR, MELEE_TARGET

Struck = declare_event("Struck", "{unit} strikes {target}: {hits} hit(s) on {dice} dice{note}",
                       unit=str, target=str, dice=int, hits=int, note=str)
ChargeHalted = declare_event("ChargeHalted", "{unit}'s charge is halted ({lost} lost)",
                             unit=str, lost=int)
Pursued = declare_event("Pursued", "{unit} pursues {inches:.1f} inches", unit=str, inches=float)


@dataclass
class Striker:
    """How one unit's melee dice work against one enemy."""
    uid: str
    dice: int
    halvings: int = 0                     # each halves the hits, rounding up
    reroll: bool = False                  # grenadiers and guards re-roll one die
    notes: list = field(default_factory=list)


def striker(battle, unit, enemy, figures: int, charging: bool) -> Striker:
    s = Striker(unit.id, 0)
    f = melee_figures(unit, figures)
    dice = dice_for(f)
    enemy_square = enemy.formation == "square"
    if arm(unit) == "cavalry" and arm(enemy) == "infantry":
        # "Light cavalry get 1 and a half times their dice against infantry": always, a
        # square too (issue 15); the square takes away only the heavy horse's "charge
        # impetus (double dice vs infantry)", which is theirs "in the turn they charge"
        if is_light_cav(unit):
            dice = math.floor(dice * 1.5)
            s.notes.append("light horse x1.5")
        elif charging and not enemy_square:
            dice = dice_for(f * 2)
            s.notes.append("impetus: figures double")
    s.dice = dice
    if unit.disordered and battle.option("melee_disorder") == "halve":
        s.halvings += 1
        s.notes.append("disordered")
    if is_skirmish(unit) and table_terrain(battle.battlefield).covered(
            footprint(battle, unit).polygon(), DIFFICULT_AREAS + ("town",)) < 0.5:
        s.halvings += 1
        s.notes.append("skirmishers in the open")
    if arm(unit) == "cavalry" and enemy_square and "lancers" not in traits(battle, unit):
        s.halvings += 1
        s.notes.append("against a square")
    if is_light_cav(unit) and is_heavy_cav(enemy):
        s.halvings += 1
        s.notes.append("light against heavy")
    s.reroll = "elite" in special(unit) and mark(unit, "no_reroll") != battle.state.turn
    return s


def charged_now(battle, unit) -> bool:
    """Horse that charged (or counter-charged) this turn: "Cavalry figures count double in
    the turn they charge infantry"; units fighting on in contact have no impetus."""
    return mark(unit, "impetuous") == battle.state.turn


def roll_strike(battle, s: Striker, target, dice, events: list) -> int:
    """Hits (before saves) of a striker: faces of 4 or less summed, halved as due."""
    unit = battle.units[s.uid]
    if s.dice <= 0:
        events.append(Struck(unit.name, target.name, 0, 0, " (too few figures)"))
        return 0
    faces = list(dice.roll(s.dice, f"melee: {unit.name} on {target.name}").faces)
    note = ""
    if s.reroll:
        i = next((k for k, f in enumerate(faces) if f > MELEE_TARGET), None)
        if i is None:
            i = next((k for k, f in enumerate(faces) if f == 1), None)
        if i is not None:
            old = faces[i]
            faces[i] = dice.d6(f"re-roll: {unit.name} (was {old})")
            note = f"; re-rolled a {old}"
    hits = sum(f for f in faces if f <= MELEE_TARGET)
    for _ in range(s.halvings):
        hits = half_up(hits)
    if s.notes:
        note += "; " + ", ".join(s.notes)
    events.append(Struck(unit.name, target.name, s.dice, hits, f" ({note.lstrip('; ')})"
                         if note else ""))
    return hits


def bonus(battle, units) -> int:
    """Grade plus generals: +2 for one attached, else +1 for one within 4 inches."""
    best = max(grade(battle, u) for u in units)
    attached = any(attached_leaders(battle, u) for u in units)
    if attached:
        return best + 2
    for u in units:
        fp = footprint(battle, u)
        # a general farther than GENERAL_NEAR beyond the base's circle is not measured
        reach = math.hypot(fp.frontage, fp.depth) / 2 + GENERAL_NEAR + 1e-6
        near = [l for l in battle.live_leaders(u.side) if distance(l.pos, fp.centre) <= reach]
        if any(fp.polygon().distance(Point(l.x, l.y)) <= GENERAL_NEAR for l in near):
            return best + 1
    return best


def check_resolve_melee(battle, action) -> None:
    from .charge_fire import stopped_before
    if not any(m.defender == action.defender for m in melees(battle)):
        who = stopped_before(battle, action.defender)
        need(not who, f"{who}'s charge was stopped by fire before contact: no melee")
    need(any(m.defender == action.defender for m in melees(battle)),
         f"there is no melee at {action.defender!r}: no charger is in contact with it")


def resolve_melee(battle, action, dice) -> list:
    from .support import support_fire, supporters
    m = find(battle, action.defender)
    d = battle.units[m.defender]
    attackers = [battle.units[a] for a in m.attackers]
    lead = attackers[0]
    events: list = []
    reaction = mark(d, "reaction", "stand")
    charged_with = mark(lead, "charge_strength", lead.hits)   # figures as it charged
    # first fire and support fire a player took as steps before the melee count here
    inflicted = {"a": 0, "d": mark(d, "pre_melee", 0)}
    hits_on = {u.id: 0 for u in attackers + [d]}
    if battle.option("support_fire"):
        for side_key, shooters, target in (("d", supporters(battle, m, d.side, action.support),
                                            lead),
                                           ("a", supporters(battle, m, lead.side, action.support),
                                            d)):
            for sup in shooters:
                if not battle.units[target.id].eliminated:
                    inflicted[side_key] += support_fire(battle, sup, target, dice, events)
    halted = failed = False
    first = _first_striker(battle, d, lead, reaction)
    a_hits = d_hits = 0

    def defender_first():
        """The defender strikes before the charger: its blow, the saves, the casualties."""
        hits = _defender_strike(battle, d, lead, reaction, dice, events)
        lost = saving_rolls(battle, lead, hits, dice, False, events, d.pos)
        take_casualties(battle, lead.id, lost, events, dice=dice)
        inflicted["d"] += lost
        hits_on[lead.id] += hits
        return hits

    if first == "d" and reaction == "first_fire" and not mark(d, "first_fired") \
            and not battle.units[lead.id].eliminated:
        d_hits = defender_first()
    lead = battle.units[lead.id]
    fire_lost = charged_with - lead.hits        # canister at the charge, support, first fire
    if fire_lost * 4 >= charged_with and fire_lost and not lead.eliminated:
        halted = True                           # a quarter of its strength at the charge
        _halt(battle, lead, d, dice, events, fire_lost)
    if not halted and first == "d" and reaction != "first_fire" \
            and not battle.units[lead.id].eliminated:       # a lancer's first strike
        d_hits = defender_first()
    lead = battle.units[lead.id]
    if not halted and not lead.eliminated and mark(lead, "checked_at", charged_with) > lead.hits \
            and battle.option("charger_check") == "charged_column":
        _, result, _ = check(battle, lead, "charged", dice, events)   # casualties while charging
        if result in ("break", "fall_back"):
            failed = True
            retreat(battle, lead.id, d.pos, 2 if result == "break" else 1,
                    "away" if result == "break" else "enemy", "falls back from the charge",
                    events, dice=dice)
            if not battle.units[lead.id].eliminated:
                battle.update_unit(lead.id, disordered=True)
    if not halted and not failed:
        live = [battle.units[a.id] for a in attackers if not battle.units[a.id].eliminated]
        for a in live:
            s = striker(battle, a, d, a.hits, charged_now(battle, a))
            a_hits += roll_strike(battle, s, d, dice, events)
        hits_on[d.id] += a_hits
        a_lost = 0
        if first == "a":                        # the first strike lands before the reply
            a_lost = saving_rolls(battle, d, a_hits, dice, False, events, lead.pos)
            take_casualties(battle, d.id, a_lost, events, dice=dice)
        d_now = battle.units[d.id]
        lead_now = battle.units[lead.id]
        lost = 0
        if first != "d" and live and reaction != "caught" and not d_now.eliminated \
                and not lead_now.eliminated:     # both strike, then both save (as shooting)
            s = striker(battle, d_now, lead_now, d_now.hits, reaction == "counter")
            d_hits = roll_strike(battle, s, lead_now, dice, events)
            hits_on[lead.id] += d_hits
        if first != "a":
            a_lost = saving_rolls(battle, d, a_hits, dice, False, events, lead.pos)
        if d_hits and first != "d":
            lost = saving_rolls(battle, lead_now, d_hits, dice, False, events, d.pos)
        inflicted["a"] += a_lost
        inflicted["d"] += lost
        take_casualties(battle, lead.id, lost, events, dice=dice)
        if first != "a":
            take_casualties(battle, d.id, a_lost, events, dice=dice)
        _decide(battle, m, d, attackers, inflicted, a_lost, dice, events, action.pursue)
    for uid, h in hits_on.items():
        if not battle.units[uid].eliminated:
            hit_leaders_check(battle, battle.units[uid], h, dice, events)
    for a in attackers:
        if not battle.units[a.id].eliminated:
            battle.mark_unit(a.id, charging=None, checked_at=None)
    if not battle.units[d.id].eliminated:
        battle.mark_unit(d.id, reaction=None, first_fired=None, pre_melee=None)
    battle.set_state(fought=battle.state.fought | {d.id})
    settle(battle, events)
    return [MeleeResolved(d.name, tuple(a.name for a in attackers), (d.name,), inflicted["a"],
                          inflicted["d"], "charge halted" if halted else
                          "charge failed" if failed else _summary(events))] + events


def _first_striker(battle, d, lead, reaction) -> str:
    if reaction in ("first_fire", "caught"):
        return "d" if reaction == "first_fire" else "a"
    a_lance = "lancers" in traits(battle, lead)
    d_lance = "lancers" in traits(battle, d)
    if arm(d) == "cavalry" and arm(lead) == "cavalry" and a_lance != d_lance:
        return "d" if d_lance else "a"
    return ""


def _defender_strike(battle, d, lead, reaction, dice, events) -> int:
    if reaction == "first_fire":
        from .fire import shoot_hits
        return shoot_hits(battle, d, lead, dice, events)
    s = striker(battle, d, lead, d.hits, reaction == "counter")
    return roll_strike(battle, s, lead, dice, events)


def _halt(battle, lead, d, dice, events, lost) -> None:
    events.append(ChargeHalted(lead.name, lost))
    battle.update_unit(lead.id, disordered=True)
    if arm(lead) == "infantry":
        from .fire import return_fire
        return_fire(battle, lead, d, dice, events)
    else:
        retreat(battle, lead.id, d.pos, 1, "enemy", "withdraws", events, dice=dice)


def _decide(battle, m, d, attackers, inflicted, a_lost, dice, events, pursue=None) -> None:
    live_a = [battle.units[a.id] for a in attackers]
    d_now = battle.units[d.id]
    cav = [a for a in live_a if arm(a) == "cavalry"]
    if d_now.formation == "square" and cav and a_lost < 4 and not d_now.eliminated:
        for a in live_a:
            if not a.eliminated:
                retreat(battle, a.id, d.pos, 1, "enemy", "recoils from the square", events, dice=dice)
                battle.update_unit(a.id, disordered=True)
        events.append(Pursued(d_now.name, 0.0))
        return
    score_a = inflicted["a"] + bonus(battle, live_a)
    score_d = inflicted["d"] + bonus(battle, [d_now])
    losers, winners = (live_a, [d_now]) if score_a <= score_d else ([d_now], live_a)
    for u in losers:
        u = battle.units[u.id]
        if not u.eliminated:
            lost_melee(battle, u, winners[0], dice, events)
    if battle.option("pursuit"):
        for w in winners:                # infantry "may" pursue: the player's choice;
            if arm(w) == "cavalry" or pursue is None or w.id in pursue:   # horse "will"
                pursue_unit(battle, battle.units[w.id], dice, events)


def lost_melee(battle, u, enemy, dice, events: list) -> str:
    """The loser's roll on the Lost Melee column and what it does; the result's name."""
    _, result, _ = check(battle, u, "lost_melee", dice, events)
    if result == "disperse":
        eliminate(battle, u.id, events, "disperses or surrenders", dice=dice)
    elif result == "rout":
        lost = dice.d6(f"rout losses: {u.name}")
        if not take_casualties(battle, u.id, lost, events, dice=dice):
            retreat(battle, u.id, enemy.pos, 2, "away", "routs", events, dice=dice)
    elif result == "stand_ground":               # option morale_table = stand_ground
        battle.update_unit(u.id, disordered=True)
    else:
        retreat(battle, u.id, enemy.pos, 1, "enemy", "falls back", events, dice=dice)
        if not battle.units[u.id].eliminated:
            battle.update_unit(u.id, disordered=True)
    return result


def pursue_unit(battle, unit, dice, events) -> None:
    """Infantry 1D6 inches; cavalry the rest of their move + 1D6 (2D6 if impetuous)."""
    if unit.eliminated or arm(unit) == "artillery" or unit.formation == "square":
        return
    if arm(unit) == "infantry":
        inches = dice.d6(f"pursuit: {unit.name}")
    else:
        n = 2 if mark(unit, "impetuous") == battle.state.turn else 1
        inches = dice.roll(n, f"pursuit: {unit.name}").result + max(
            move_rate(unit) * (1 - mark(unit, "used", 0.0)), 0)
    hx, hy = heading(unit.facing)
    others = [footprint(battle, o) for o in near_units(battle, unit.pos, inches + 12)
              if o.id != unit.id]
    bf = battle.battlefield
    done, _ = slide(footprint(battle, unit), unit.facing, inches, lambda fp: "" if inside(
        fp, bf.width, bf.height) and all(_clear(fp, o) for o in others) else "stop")
    if done:
        x, y = unit.x + hx * done, unit.y + hy * done
        moved_leaders(battle, unit, x, y)
        battle.update_unit(unit.id, x=x, y=y)
    events.append(Pursued(unit.name, done))


def _clear(fp, other) -> bool:
    """Is the pursuer's base at fp at least 0.1 inch from the base `other` (shapely's
    distance)? Bases whose circles are surely farther apart are not measured (most of
    those within the pursuit's reach, at every half inch of it)."""
    return surely_apart(fp, other, 0.1) or fp.polygon().distance(other.polygon()) >= 0.1


def _summary(events) -> str:
    from .morale import MoraleChecked
    checks = [e for e in events if isinstance(e, MoraleChecked) and e.column == "lost melee"]
    return f"{checks[-1].unit} lost ({checks[-1].result})" if checks else "decided"


def setup(battle, m: Melee) -> tuple:
    """What both walks (stepwise, melee_exact) read before the dice: the defender, the
    attackers and their lead, the reaction, who strikes first, the charge's strength and
    its losses to fire so far, both sides' bonuses, the losses already checked, the
    square's rule against horse and the charger-check option. Reads only."""
    d = battle.units[m.defender]
    attackers = [battle.units[a] for a in m.attackers]
    lead = attackers[0]
    reaction = mark(d, "reaction", "stand")
    first = _first_striker(battle, d, lead, reaction)
    charged_with = mark(lead, "charge_strength", lead.hits)
    before = charged_with - lead.hits               # lost to fire since the charge began
    bonus_a, bonus_d = bonus(battle, attackers), bonus(battle, [d])
    bonus_d += mark(d, "pre_melee", 0)             # first / support fire taken as steps
    checked = charged_with - mark(lead, "checked_at", charged_with)   # losses checked
    square_rule = d.formation == "square" and any(arm(a) == "cavalry" for a in attackers)
    check_on = battle.option("charger_check") == "charged_column"
    return (d, attackers, lead, reaction, first, charged_with, before, bonus_a, bonus_d,
            checked, square_rule, check_on)
