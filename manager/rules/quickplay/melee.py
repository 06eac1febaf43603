"""Quick-play charges and melees, and "Rally men!" (their exact odds: `melee_odds`).

A charge needs the enemy visible to the front before moving; it is declared, then the
move is rolled; if it reaches, the target is pinned. An unmoved cavalry target
counter-charges, unmoved skirmishers retreat, and a target that has not shot this turn
may shoot at the charger as it comes in (a reaction: the only shooting a disordered
unit may do).
"""
from __future__ import annotations

from ...actions import need
from ...errors import IllegalAction
from ...events import MeleeResolved, UnitMoved
from ...contact import contact_point
from ...footprint import (EPS, aspect, bearing, distance, gap, overlap, segment,
                          surely_apart, travel)
from ...model.forces import mark
from ...table_terrain import table_terrain
from ..common import find_melee as find, melees, own_unit  # noqa: F401  (melees: ruleset)
from .combat import (ChargeOutcome, RallyMen, moved_with, retreat, shoot, take, test_morale,
                     volley)
from .move_ground import ground_refusal
from .moves import (_own_commander, command_test as in_command_test, max_allowance,
                    roll_allowance)
from .tables import COMMANDER_JOIN, FIGURES_PER_DIE, HIT_ON
from .units import (acted, arm, engaged, footprint, is_skirmish, pinned, quality, remembered,
                    shot_this_turn, sight_refusal, special, to_front)


def charge_plan(battle, unit, target):
    """(contact spot, way, cost) or IllegalAction, remembered for the battle version."""
    return remembered(battle, "quickplay.charge_plan", (unit.id, target.id), (unit, target),
                      lambda: _charge_plan(battle, unit, target))


def _charge_plan(battle, unit, target):
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    need(to_front(battle, unit, target.pos, 45), f"{target.name} is not to {unit.name}'s front")
    why = sight_refusal(battle, unit.pos, target.pos, ignore=(unit.id, target.id))
    need(not why, f"{unit.name} cannot see {target.name}: {why}")
    way = round(bearing(unit.pos, target.pos)) % 360
    spot = contact_point(fp.moved(unit.x, unit.y, way), tfp, way)
    need(spot is not None and not overlap(fp.moved(*spot, way), tfp),
         f"{unit.name} cannot reach {target.name} in a straight line")
    return spot, way, travel(fp, fp.moved(*spot, way))


def surely_too_far(battle, unit, target) -> bool:
    """Is the target certainly beyond the charger's best roll (check_charge refuses it)?
    The base, turned toward the target, must advance at least its gap to the target's
    (less touching) before they meet, and the charge costs at least that advance (its
    farthest corner travels no less than its centre). A cheap first look for the
    automatic commander: no line of sight, no bisection."""
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    way = round(bearing(unit.pos, target.pos)) % 360
    start = fp.moved(unit.x, unit.y, way)
    slack = max_allowance(battle, unit) + 1e-6 + EPS + 1e-6
    if distance(unit.pos, target.pos) < slack - 1e-6:   # the gap is no more than that
        return False
    return surely_apart(start, tfp, slack) or gap(start, tfp) > slack


def charger_refusal(battle, unit) -> str:
    """Why `unit` may charge nobody now ('' if it may): check_charge's refusals that hang
    on the charger alone, asked once a unit by the commander, not once a target."""
    if arm(unit) == "artillery":
        return "guns do not charge"
    if pinned(battle, unit):
        return f"{unit.name} is pinned: a charge has contacted it"
    if acted(battle, unit):
        return f"{unit.name} has already acted"
    if engaged(battle, unit):
        return f"{unit.name} is in melee"
    return ""


def check_charge(battle, action) -> None:
    """(Remembered for the battle version: the commander checks, then its odds check.)"""
    remembered(battle, "quickplay.check_charge", (action.unit, action.target),
               (battle.units.get(action.unit), battle.units.get(action.target)),
               lambda: _check_charge(battle, action))


def _check_charge(battle, action) -> None:
    unit = own_unit(battle, action.unit)
    why = charger_refusal(battle, unit)
    need(not why, why)
    target = battle.units.get(action.target)
    need(target is not None and not target.eliminated and target.side != unit.side,
         f"{action.target!r} is not an enemy unit")
    spot, way, cost = charge_plan(battle, unit, target)
    top = max_allowance(battle, unit)
    need(cost <= top + 1e-6, f"{target.name} is {cost:.1f} inches away; {unit.name}'s best "
         f"roll is {top:g}")
    why = ground_refusal(battle, unit, footprint(battle, unit, facing=way),
                         footprint(battle, unit, x=spot[0], y=spot[1], facing=way),
                         ignore=(target.id,), charge=True)
    need(not why, f"{unit.name} cannot charge {target.name}: {why}")


def resolve_charge(battle, action, dice) -> list:
    unit, target = battle.units[action.unit], battle.units[action.target]
    events: list = []
    battle.mark_unit(unit.id, acted=battle.state.turn)
    spot, way, cost = charge_plan(battle, unit, target)
    if not in_command_test(battle, unit, dice, events):     # a charge is a move: tested
        events.insert(0, ChargeOutcome(unit.name, target.name, "out of command: no charge"))
        return events
    allowance = roll_allowance(battle, unit, "", False, dice, events)    # declared, rolled
    if is_skirmish(target) and not acted(battle, target) and battle.option("skirmisher_evade"):
        battle.mark_unit(target.id, acted=battle.state.turn)
        retreat(battle, target.id, unit.pos, 1, events, face_enemy=False, dice=dice)
        events.insert(0, ChargeOutcome(unit.name, target.name, "the skirmishers retreat"))
        _advance(battle, unit, spot, way, min(cost, allowance), events)   # its rolled move
        return events
    if allowance + 1e-9 < cost:
        _advance(battle, unit, spot, way, allowance, events)
        events.insert(0, ChargeOutcome(unit.name, target.name, "falls short"))
        return events
    if arm(target) == "cavalry" and not acted(battle, target) and battle.option("counter_charge"):
        battle.mark_unit(target.id, acted=battle.state.turn, counter=battle.state.turn)
        outcome = "met by a counter-charge"
    else:
        outcome = "contact: the target is pinned"
        if not shot_this_turn(battle, target) and arm(target) != "cavalry":
            # the target shoots as the charger comes in: measured to it at the contact spot
            moved_with(battle, unit, spot[0], spot[1])
            battle.update_unit(unit.id, x=spot[0], y=spot[1], facing=way, moved=2)
            try:
                v = volley(battle, target, battle.units[unit.id], reaction=True)
                shoot(battle, target, battle.units[unit.id], v, dice, events)
            except IllegalAction:                  # out of arc or sight: it simply waits
                pass
    unit = battle.units[unit.id]
    if unit.eliminated or mark(unit, "tested") == battle.state.turn and unit.fell_back:
        events.insert(0, ChargeOutcome(unit.name, target.name, "broken by fire"))
        return events
    moved_with(battle, unit, spot[0], spot[1])
    battle.update_unit(unit.id, x=spot[0], y=spot[1], facing=way, moved=2)
    battle.mark_unit(unit.id, charging=target.id)
    battle.mark_unit(target.id, pinned=battle.state.turn)
    events.insert(0, ChargeOutcome(unit.name, target.name, outcome))
    events.append(UnitMoved(unit.name, (round(spot[0], 1), round(spot[1], 1)), way, cost))
    return events


def _advance(battle, unit, spot, way, inches, events) -> None:
    d = distance(unit.pos, spot)
    k = max(0.0, min(1.0, (inches - 0.5) / d)) if d else 0.0
    x, y = unit.x + (spot[0] - unit.x) * k, unit.y + (spot[1] - unit.y) * k
    end = footprint(battle, unit, x=x, y=y, facing=way)
    if k > 0 and not ground_refusal(battle, unit, footprint(battle, unit, facing=way), end):
        moved_with(battle, unit, x, y)
        battle.update_unit(unit.id, x=x, y=y, facing=way, moved=2)
        events.append(UnitMoved(unit.name, (round(x, 1), round(y, 1)), way, d * k))


# ---- melee ----------------------------------------------------------------------------------
def fighter(battle, unit, enemy, charging: bool) -> tuple[int, int]:
    """(dice, added to each die) for a unit in this fight."""
    flank, plus = _flank_plus(battle, unit, enemy, charging)
    return _dice(unit, flank, unit.hits), plus


def _dice(unit, flank: bool, hits: int) -> int:
    """`fighter`'s dice for the unit with `hits` figures (the only part that hangs on
    them: a charge's odds ask it for every count its charger may come in with)."""
    per_rank = -(-hits // max(1, 2 if unit.formation == "line" else 4)) \
        if not is_skirmish(unit) else hits
    deep = 2 if (unit.formation == "line" and not flank and not is_skirmish(unit)) else 1
    figures = min(hits, per_rank * deep)
    dice = figures if arm(unit) == "cavalry" else figures // FIGURES_PER_DIE
    if unit.disordered:
        dice //= 2
    return dice


def _flank_plus(battle, unit, enemy, charging: bool) -> tuple[bool, int]:
    """(fought on a flank, added to each die): `fighter`'s parts that do not hang on the
    unit's figures."""
    flank = aspect(footprint(battle, unit), enemy.pos) != "front"
    plus = 0
    if quality(unit) > 0 or "shock" in special(unit):
        plus += 1
    if quality(unit) < 0 or "no_melee" in special(unit):
        plus -= 1
    if (charging or mark(unit, "counter") == battle.state.turn) and not shot_this_turn(battle, unit):
        plus += 1
    if charging and _obstructed(battle, unit, enemy):
        plus -= 1
    return flank, plus


def _obstructed(battle, attacker, defender) -> bool:
    """Attacking an obstacle (a wall or hedge before it, a town it holds) or uphill."""
    t = table_terrain(battle.battlefield)
    if t.level(defender.pos) > t.level(attacker.pos):
        return True
    line = segment(attacker.pos, defender.pos)
    if any(line.intersects(w) for _, w in t.lines.get("wall", [])):
        return True
    return t.covered(footprint(battle, defender).polygon(), ("town",)) >= 0.5


def check_resolve_melee(battle, action) -> None:
    find(battle, action.defender)


def resolve_melee(battle, action, dice) -> list:
    m = find(battle, action.defender)
    d = battle.units[m.defender]
    attackers = [battle.units[a] for a in m.attackers]
    events: list = []
    a_dice = [fighter(battle, a, d, True) for a in attackers]
    d_dice = fighter(battle, d, attackers[0], False)
    dealt_a = 0
    for a, (n, plus) in zip(attackers, a_dice):
        faces = dice.roll(n, f"melee: {a.name} on {d.name}").faces if n else ()
        dealt_a += sum(1 for f in faces if f + plus >= HIT_ON)
    n, plus = d_dice
    faces = dice.roll(n, f"melee: {d.name} on {attackers[0].name}").faces if n else ()
    dealt_d = sum(1 for f in faces if f + plus >= HIT_ON)
    take(battle, d.id, dealt_a, events)
    take(battle, attackers[0].id, dealt_d, events)
    for a in attackers:
        if not battle.units[a.id].eliminated:
            battle.mark_unit(a.id, charging=None)
    if dealt_d > dealt_a:
        for a in attackers:
            if not battle.units[a.id].eliminated:
                test_morale(battle, battle.units[a.id], d.pos, True, dice, events)
        outcome = "the attackers lose"
    elif dealt_a > dealt_d and battle.units[d.id].eliminated:
        outcome = f"{d.name} is destroyed"          # not a draw: nobody is left to test
    elif dealt_a > dealt_d:
        test_morale(battle, battle.units[d.id], attackers[0].pos, True, dice, events)
        outcome = "the defenders lose"
    else:
        outcome = "drawn: both stand"
    battle.set_state(fought=battle.state.fought | {d.id})
    return [MeleeResolved(d.name, tuple(a.name for a in attackers), (d.name,), dealt_a, dealt_d,
                          outcome)] + events


# ---- Rally men! -----------------------------------------------------------------------------
def check_rally(battle, action) -> None:
    leader = _own_commander(battle, action.leader)
    unit = own_unit(battle, action.unit)
    need(distance(leader.pos, unit.pos) <= COMMANDER_JOIN + 1e-6,
         f"{unit.name} is more than {COMMANDER_JOIN} inches from {leader.name}")
    need(mark(unit, "hit_by_fire") == battle.state.turn or engaged(battle, unit),
         f"{unit.name} has lost nobody to shooting this turn and is not in melee")
    need(unit.hits < unit.max_hits, f"{unit.name} has lost nobody")


def resolve_rally(battle, action, dice) -> list:
    leader, unit = battle.leaders[action.leader], battle.units[action.unit]
    battle.update_leader(leader.id, x=unit.x, y=unit.y, moved=True)
    face = dice.d6(f"Rally men!: {leader.name} with {unit.name}")
    if face >= 4:
        battle.update_unit(unit.id, hits=unit.hits + 1)
        return [RallyMen(leader.name, unit.name, f"{face}: a hit cancelled")]
    if face == 1:
        battle.update_leader(leader.id, eliminated=True, hits=0)
        return [RallyMen(leader.name, unit.name, "1: the commander is knocked out")]
    return [RallyMen(leader.name, unit.name, f"{face}: no effect")]
