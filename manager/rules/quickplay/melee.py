"""Quick-play charges and melees, "Rally men!", and the exact odds of a volley and a fight.

A charge needs the enemy visible to the front before moving; it is declared, then the
move is rolled; if it reaches, the target is pinned. An unmoved cavalry target
counter-charges, unmoved skirmishers retreat, and a target that has not shot this turn
may shoot at the charger as it comes in (a reaction: the only shooting a disordered
unit may do).
"""
from __future__ import annotations

import math
from fractions import Fraction

from ...actions import need
from ...errors import IllegalAction
from ...events import MeleeResolved, UnitMoved
from ...contact import contact_point
from ...footprint import (EPS, aspect, bearing, distance, gap, overlap, segment,
                          surely_apart, travel)
from ...model.forces import evolve, mark, with_marks
from ...odds import Dist, Odds, OddsLine
from ...table_terrain import table_terrain
from ..common import Melee, find_melee as find, melees, own_unit  # noqa: F401  (melees: ruleset)
from .combat import (ChargeOutcome, RallyMen, morale_mods, moved_with, retreat, shoot, take,
                     test_morale, volley)
from .moves import (_own_commander, command_test as in_command_test, ground_refusal,
                    max_allowance, roll_allowance, roll_reaches)
from .tables import COMMAND_TEST, COMMANDER_JOIN, FIGURES_PER_DIE, HIT_ON, STEADY_FROM
from .units import (acted, arm, engaged, footprint, in_command, is_skirmish, pinned, quality,
                    remembered, shot_this_turn, sight_refusal, special, to_front)


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


# ---- exact odds ----------------------------------------------------------------------------
def _die_hits(plus: int) -> Dist:
    return Dist.die([1 if f + plus >= HIT_ON else 0 for f in range(1, 7)])


_ROLLS: dict = {}


def _rolled(plus: int, dice: int) -> Dist:
    """`_die_hits(plus).times(dice)`, worked out once for each (a Dist is never changed
    in place: every operation makes a new one); a battle asks a few dozen of them
    thousands of times."""
    key = (plus, dice)
    hit = _ROLLS.get(key)
    if hit is None:
        hit = _ROLLS[key] = _die_hits(plus).times(dice)
    return hit


def fire_odds(battle, action) -> Odds:
    unit, target = battle.units[action.unit], battle.units[action.target]
    v = volley(battle, unit, target)
    d = _rolled(v.plus, v.dice)
    if v.halve:
        d = d.map(lambda k: -(-k // 2) if v.halve == "up" else k // 2)
    odds = Odds("fire", [OddsLine(f"{unit.name} on {target.name} ({v.band})", d, target.name)])
    quarter = -(-mark(target, "turn_start", target.max_hits) // 4) - mark(target, "fire_losses", 0)
    odds.outcomes[f"{target.name} must test morale (25% lost this turn)"] = d.p_at_least(max(quarter, 1))
    return odds


def melee_odds(battle, m: Melee) -> Odds:
    """Hits each way and the outcomes, each once: the side taking more tests morale
    unless it is wiped out (an eliminated unit is eliminated, not tested)."""
    d = battle.units[m.defender]
    attackers = [battle.units[a] for a in m.attackers]
    return fight_odds(d, attackers, [fighter(battle, a, d, True) for a in attackers],
                      fighter(battle, d, attackers[0], False))


def fight_odds(d, attackers, a_fighters, d_fighter) -> Odds:
    """`melee_odds` of defender d (a record) and the attackers, given each one's
    (dice, plus) from `fighter`."""
    a_dist = Dist.point(0)
    for n, plus in a_fighters:
        a_dist = a_dist + _rolled(plus, n)
    n, plus = d_fighter
    d_dist = _rolled(plus, n)
    first = attackers[0]
    # summed in whole numbers over the common denominator (each pair's chance is
    # wa * wd / total), one Fraction per outcome at the end: the same exact values
    out = {"defender tests morale": 0, "attackers test morale": 0,
           "drawn": 0, f"{d.name} eliminated": 0, f"{first.name} eliminated": 0}
    total = a_dist.total * d_dist.total
    for ha, wa in enumerate(a_dist.weights):
        if not wa:
            continue
        for hd, wd in enumerate(d_dist.weights):
            q = wa * wd
            if not q:
                continue
            d_gone, a_gone = ha >= d.hits, hd >= first.hits
            out[f"{d.name} eliminated"] += q * d_gone
            out[f"{first.name} eliminated"] += q * a_gone
            if ha == hd:
                out["drawn"] += q
            elif ha > hd and not d_gone:
                out["defender tests morale"] += q
            elif hd > ha and (not a_gone or len(attackers) > 1):
                out["attackers test morale"] += q
    odds = Odds("melee", [OddsLine(f"hits on {d.name}", a_dist, d.name),
                          OddsLine(f"hits on {first.name}", d_dist, first.name)])
    odds.outcomes = {k: Fraction(w, total) for k, w in out.items()}
    return odds


def resolve_melee_odds(battle, action) -> Odds:
    return melee_odds(battle, find(battle, action.defender))


def command_chance(battle, unit):
    """The chance a unit passes its command test (1 when none is due)."""
    if not battle.option("command_control") or in_command(battle, unit):
        return Fraction(1)
    return Fraction(sum(1 for f in range(1, 7) if f + quality(unit) >= COMMAND_TEST), 6)


_MEANS: dict = {}


def volley_mean(v) -> float:
    """The mean hits of a volley (`fire_odds`'s line: the same floats), by its dice, plus
    and halving (a handful of those come up in a battle)."""
    key = (v.dice, v.plus, v.halve)
    hit = _MEANS.get(key)
    if hit is None:
        hit = _MEANS[key] = float(_volley_dist(v).mean())
    return hit


def _volley_dist(v) -> Dist:
    d = _rolled(v.plus, v.dice)
    if v.halve:
        d = d.map(lambda k: -(-k // 2) if v.halve == "up" else k // 2)
    return d


def charge_odds(battle, action) -> Odds:
    """What the resolver does, in order: the command test (with command control), the
    move roll reaching, the target's reaction volley at the charger as it comes in and
    the charger's morale test if it loses a quarter, then the fight. Each fight outcome
    is mixed over the hits the volley may cost the charger."""
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    spot, way, cost = charge_plan(battle, unit, target)
    reach = roll_reaches(unit, cost) * command_chance(battle, unit)
    if is_skirmish(target) and not acted(battle, target) and battle.option("skirmisher_evade"):
        odds = Odds("charge", notes=["the skirmishers retreat before the charge"])
        odds.outcomes = {"the charge reaches": Fraction(0)}
        return odds
    # the charger at its contact spot, as a record: no copy of the battle is built (the
    # rules' answers about it, sight, range, cover, the fight, hang on the records and
    # the other bases only; the charger's own base is out of every line it is asked of)
    mover = evolve(unit, x=spot[0], y=spot[1], facing=way)
    counter = arm(target) == "cavalry" and not acted(battle, target) and \
        battle.option("counter_charge")
    parts = [(Fraction(1), unit.hits)]            # (chance, the charger's figures left)
    if not counter and not shot_this_turn(battle, target) and arm(target) != "cavalry":
        try:
            v = volley(battle, target, mover, reaction=True)
        except IllegalAction:
            v = None
        if v is not None:
            parts = []
            start = mark(unit, "turn_start", unit.max_hits)
            for h, p in enumerate(_volley_dist(v).probabilities()):
                left = unit.hits - h
                if not p or left <= 0:
                    continue
                stand = Fraction(1)
                if h and (mark(unit, "fire_losses", 0) + h) * 4 >= start \
                        and mark(unit, "tested") != battle.state.turn:
                    mods = sum(m for _, m in morale_mods(battle, replace_hits(mover, left)))
                    stand = Fraction(sum(1 for f in range(1, 7) if f + mods >= STEADY_FROM), 6)
                parts.append((p * stand, left))
    odds = Odds("charge")
    contact = sum((p for p, _ in parts), Fraction(0))
    outcomes: dict = {}
    defender = target if not counter else evolve(
        target, marks=with_marks(target.marks, counter=battle.state.turn))
    # the fight's terms that do not hang on the charger's figures, asked once
    flank, plus = _flank_plus(battle, mover, defender, True)
    d_fighter = fighter(battle, defender, mover, False)
    for p, left in parts:
        part = fight_odds(defender, [replace_hits(mover, left)],
                          [(_dice(mover, flank, left), plus)], d_fighter)
        if not odds.lines:
            odds.lines = part.lines
        for k, q in part.outcomes.items():
            outcomes[k] = outcomes.get(k, Fraction(0)) + p * q
    odds.outcomes = {"the charge reaches": reach, "contact": reach * contact,
                     **{k: v * reach for k, v in outcomes.items()}}
    if contact < 1:
        odds.notes.append("the target's volley as the charger comes in may break it")
    return odds


def replace_hits(unit, hits):
    return evolve(unit, hits=hits)
