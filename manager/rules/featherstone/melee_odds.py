"""Exact odds of a melee (and of a charge before it is declared), by convolution.

The same steps resolve_melee takes, with every die replaced by its distribution:
support fire on each side, a first strike (first fire or lances) whose casualties
shrink the other side before it strikes, the charge halted at a quarter lost, the
charger's morale check, the dice (with a grenadier's re-roll), the halvings, the
saving rolls, the square's 4-casualty test and the scores with ties to the defender.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...errors import IllegalAction
from ...model.forces import evolve, mark
from ...odds import Dist, Odds, OddsLine
from ..common import Melee
from .fire import casualty_dist, close_shot
from .losses import half_up, save_for
from .melee import _first_striker, bonus, striker
from .morale import column_table, modifiers
from .state import arm, firing_figures, dice_for
from .tables import MELEE_TARGET, MORALE_MAX, MORALE_MIN

ZERO = Dist.point(0)


@lru_cache(maxsize=256)
def _plain(n: int) -> Dist:
    return Dist.die([f if f <= MELEE_TARGET else 0 for f in range(1, 7)]).times(n)


@lru_cache(maxsize=256)
def _rerolled(n: int) -> Dist:
    """n dice, one re-rolled: a miss if there is one, else a 1 (the owner's best use)."""
    fresh = Dist.die([f if f <= MELEE_TARGET else 0 for f in range(1, 7)])
    # state: (sum of hits, any miss, any one) -> weight
    states = {(0, False, False): 1}
    for _ in range(n):
        nxt: dict = {}
        for (s, miss, one), w in states.items():
            for f in range(1, 7):
                key = (s + (f if f <= MELEE_TARGET else 0), miss or f > MELEE_TARGET,
                       one or f == 1)
                nxt[key] = nxt.get(key, 0) + w
        states = nxt
    total = 6 ** n
    parts = []
    for (s, miss, one), w in states.items():
        base = Dist.point(s) if not (miss or one) else (
            Dist.point(s) + fresh if miss else Dist.point(s - 1) + fresh)
        parts.append((Fraction(w, total), base))
    return Dist.mix(parts)


def strike_hits(s) -> Dist:
    if s.dice <= 0:
        return ZERO
    d = _rerolled(s.dice) if s.reroll else _plain(s.dice)
    for _ in range(s.halvings):
        d = d.map(half_up)
    return d


def lost_dist(battle, unit, enemy, figures, charging, target) -> Dist:
    """Casualties (after the target's melee saves) a unit inflicts striking with `figures`."""
    if figures <= 0:
        return ZERO
    s = striker(battle, unit, enemy, figures, charging)
    save, b = save_for(battle, target, False)
    keep = 6 - sum(1 for f in range(1, 7) if f + b >= save)
    return strike_hits(s).thinned(keep, 6)


def _support(battle, m: Melee, side: str, target) -> Dist:
    from .support import _spec, supporters
    total = ZERO
    if not battle.option("support_fire"):
        return total
    for u, _ in supporters(battle, m, side):
        try:
            total = total + casualty_dist(_spec(battle, u, target))
        except IllegalAction:
            continue
    return total


def _check_fails(battle, unit, lost: int) -> Fraction:
    """Chance the charger, `lost` figures down, breaks or falls back on the Charged column."""
    hurt = evolve(unit, hits=max(unit.hits - lost, 1))
    mod = sum(v for _, v in modifiers(battle, hurt, "charged"))
    table = column_table(battle, "charged")
    bad = sum(1 for f in range(1, 7)
              if table[max(MORALE_MIN, min(MORALE_MAX, f + mod))] in ("break", "fall_back"))
    return Fraction(bad, 6)


def melee_odds(battle, m: Melee) -> Odds:
    d = battle.units[m.defender]
    attackers = [battle.units[a] for a in m.attackers]
    lead = attackers[0]
    reaction = mark(d, "reaction", "stand")
    first = _first_striker(battle, d, lead, reaction)
    sup_on_a, sup_on_d = _support(battle, m, d.side, lead), _support(battle, m, lead.side, d)
    bonus_a, bonus_d = bonus(battle, attackers), bonus(battle, [d])
    square_rule = d.formation == "square" and any(arm(a) == "cavalry" for a in attackers)
    out = {"attacker wins": Fraction(0), "defender wins": Fraction(0),
           "charge halted": Fraction(0), "charge fails (morale)": Fraction(0)}
    on_d, on_a = [], []
    check_on = battle.option("charger_check") == "charged_column"

    def fight(p, a_sup, d_sup, c, x_dist: Dist, y_dist_for):
        """Accumulate: x = casualties by the attackers, y (given x) by the defender."""
        for x, px in enumerate(x_dist.probabilities()):
            if not px:
                continue
            y_dist = y_dist_for(x)
            for y, py in enumerate(y_dist.probabilities()):
                if not py:
                    continue
                q = p * px * py
                inflicted_a, inflicted_d = d_sup + x, a_sup + c + y
                on_d.append((q, inflicted_a))
                on_a.append((q, inflicted_d))
                lost = square_rule and x < 4
                if lost or inflicted_a + bonus_a <= inflicted_d + bonus_d:
                    out["defender wins"] += q
                else:
                    out["attacker wins"] += q

    for a_sup, pa in enumerate(sup_on_a.probabilities()):
        for d_sup, pd in enumerate(sup_on_d.probabilities()):
            p = pa * pd
            if not p:
                continue
            fa, fd = max(lead.hits - a_sup, 0), max(d.hits - d_sup, 0)
            others = ZERO
            for a in attackers[1:]:
                others = others + lost_dist(battle, a, d, a.hits, True, d)
            if first == "d":
                if reaction == "first_fire":
                    shot = close_shot(battle, d, lead, d.disordered)
                    from dataclasses import replace
                    shot = replace(shot, dice=dice_for(firing_figures(d, fd)))
                    first_dist = casualty_dist(shot)
                else:
                    first_dist = lost_dist(battle, d, lead, fd, False, lead)
                for c, pc in enumerate(first_dist.probabilities()):
                    if not pc:
                        continue
                    total = a_sup + c
                    if reaction == "first_fire" and total * 4 >= lead.hits:
                        out["charge halted"] += p * pc
                        on_a.append((p * pc, total))
                        on_d.append((p * pc, d_sup))
                        continue
                    fail = _check_fails(battle, lead, total) if (total and check_on) else 0
                    out["charge fails (morale)"] += p * pc * fail
                    if fail:
                        on_a.append((p * pc * fail, total))
                        on_d.append((p * pc * fail, d_sup))
                    x = lost_dist(battle, lead, d, max(fa - c, 0), True, d) + others
                    fight(p * pc * (1 - fail), a_sup, d_sup, c, x, lambda _x: ZERO)
            else:
                x = lost_dist(battle, lead, d, fa, True, d) + others
                if reaction == "caught":
                    fight(p, a_sup, d_sup, 0, x, lambda _x: ZERO)
                elif first == "a":
                    fight(p, a_sup, d_sup, 0, x, lambda xx: lost_dist(
                        battle, d, lead, max(fd - xx, 0), reaction == "counter", lead))
                else:
                    y = lost_dist(battle, d, lead, fd, reaction == "counter", lead)
                    fight(p, a_sup, d_sup, 0, x, lambda _x: y)
    odds = Odds("melee", [OddsLine(f"casualties on {d.name}", _collect(on_d), d.name),
                          OddsLine(f"casualties on {lead.name}", _collect(on_a), lead.name)])
    odds.outcomes = {k: v for k, v in out.items() if v}
    odds.notes.append(f"scores add +{bonus_a} (attackers) and +{bonus_d} (defender); "
                      "ties go to the defender")
    return odds


def resolve_melee_odds(battle, action) -> Odds:
    from .melee import find
    return melee_odds(battle, find(battle, action.defender))


def _collect(pairs) -> Dist:
    top = max((k for _, k in pairs), default=0)
    from math import lcm
    denom = 1
    for q, _ in pairs:
        denom = lcm(denom, q.denominator)
    w = [0] * (top + 1)
    for q, k in pairs:
        w[k] += int(q * denom)
    return Dist(w, denom)


def charge_odds(battle, action) -> Odds:
    """Before a charge: the melee as it would stand if the target stood (no first fire)."""
    from .charges import check_charge
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    m = Melee(target.id, (unit.id,))
    odds = melee_odds(battle, m)
    odds.kind = "charge"
    odds.notes.append("if the target stands; it first checks morale on the Charged column")
    return odds

