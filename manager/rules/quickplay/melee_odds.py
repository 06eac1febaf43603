"""Quick-play: the exact odds of a volley, a melee and a charge, for the players' odds
panel and the automatic commander (the dice of a volley and a fight worked out once).
"""
from __future__ import annotations

from fractions import Fraction

from ...errors import IllegalAction
from ...model.forces import evolve, mark, with_marks
from ...odds import Dist, Odds, OddsLine
from ..common import Melee, find_melee as find
from .combat import morale_mods, volley
from .melee import _dice, _flank_plus, charge_plan, check_charge, fighter
from .moves import roll_reaches
from .tables import COMMAND_TEST, HIT_ON, STEADY_FROM
from .units import acted, arm, in_command, is_skirmish, quality, shot_this_turn


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
