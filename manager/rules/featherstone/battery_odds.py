"""Exact odds of a charge at a battery, step by step as resolve_charge plays it.

The battery's one canister shot at the charger (hits, then the charger's saving rolls);
6 or more hits dice for the charger's attached generals (1-2 falls); any casualties make
the charger check on the Charged column (a committed general near it risks his stray
round), and a break or fall back stops it; a quarter of its strength lost halts it;
then the crew shelter with a friend within 2 inches (no melee) or fight the melee,
whose own odds (support fire, the strikes) melee_odds gives for each way the shot fell.
"""
from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from math import comb

from ...model.forces import mark
from ...odds import Dist, Odds, OddsLine
from ..common import Melee
from .shot_odds import hits_dist, save_keep
from .morale import committed_general, influence_at_risk, influence_value
from .state import arm
from .nearby import attached_leaders

FAIL = "charge fails (morale)"
HALT = "charge halted"


def _fails(battle, unit, exact) -> object:
    """P(break or fall back) on the charger's Charged-column check, as the battle stands."""
    from .morale import column_table, modifiers
    from .tables import MORALE_MAX, MORALE_MIN
    mod = sum(v for _, v in modifiers(battle, unit, "charged"))
    table = column_table(battle, "charged")
    f = Fraction(sum(1 for face in range(1, 7) if table[max(MORALE_MIN, min(
        MORALE_MAX, face + mod))] in ("break", "fall_back")), 6)
    return f if exact else float(f)


def _falls(battle, unit, hits: int, exact):
    """[(p, generals who fell, officer lost)] for hit_leaders_check after `hits` hits."""
    one = Fraction(1) if exact else 1.0
    ways = [(one, (), False)]
    if hits < 6:
        return ways
    third = one / 3
    for l in attached_leaders(battle, unit):
        ways = [w for p, dead, off in ways
                for w in ((p * third, dead + (l.id,), off), (p * (1 - third), dead, off))]
    if battle.option("unit_officers") and not mark(unit, "officer_lost"):
        ways = [w for p, dead, off in ways
                for w in ((p * third, dead, True), (p * (1 - third), dead, off))]
    return ways


@contextmanager
def on_trial(b, units=(), leaders=()):
    """b itself, for trial changes of these units and leaders, put back after: odds weigh
    a dozen such branches, and b's views (unit grid, rows of bases) follow a change of a
    record or two, where a copy per branch built them afresh (most of a charge's odds).
    b must be the odds' own copy, never the caller's battle."""
    kept_units = [b.units[u] for u in units]
    kept_leaders = [b.leaders[l] for l in leaders]
    try:
        yield b
    finally:
        for r in kept_units:
            b.put_unit(r)
        for r in kept_leaders:
            b.put_leader(r)


def stray_risk(battle, unit):
    """The committed near general whose stray-round die follows the unit's check on the
    Charged column (morale.check), or None."""
    g, infl = committed_general(battle, unit)
    if g is None or attached_leaders(battle, unit) or \
            influence_value(battle, g, False, infl) == 0 or not influence_at_risk(battle, unit):
        return None
    return g


def bonus_without(battle, units, general):
    """The side's melee bonus once `general` has fallen (None: no general at risk)."""
    if general is None:
        return None
    c = battle.copy()
    c.update_leader(general.id, eliminated=True, hits=0)
    from .melee import bonus
    return bonus(c, [c.units[u.id] for u in units])


def battery_charge_odds(battle, moved, unit, target, exact: bool = True) -> Odds:
    """`battle` as the charge is declared; `moved` the same with the charger in contact
    (charging marks set) for the melee."""
    from .charges import canister_at, shelter_for
    from .melee_odds import melee_odds
    one = Fraction(1) if exact else 1.0
    shot = canister_at(battle, unit, target)
    joint: dict = {}                         # (casualties, generals fallen, officer) -> p
    if shot is None:
        joint[(0, (), False)] = one
    else:
        keep, of = save_keep(shot)
        k = Fraction(keep, of) if exact else keep / of
        hd = hits_dist(shot)
        for h, w in enumerate(hd.weights):
            if not w:
                continue
            ph = Fraction(w, hd.total) if exact else w / hd.total
            for p, dead, off in _falls(battle, unit, h, exact):
                for c in range(h + 1):
                    q = ph * p * comb(h, c) * k ** c * (1 - k) ** (h - c)
                    if q:
                        key = (c, dead, off)
                        joint[key] = joint.get(key, 0 * one) + q
    friend = shelter_for(battle, target)
    check_on = battle.option("charger_check") == "charged_column"
    out: dict = {}
    lines: dict = {}
    m = Melee(target.id, (unit.id,))

    def add(k, p):
        out[k] = out.get(k, 0 * one) + p

    declared = battle.copy()                 # the charger's check, before it moves
    for (c, dead, off), p in joint.items():
        if c >= unit.hits:
            add("defender wins", p)               # the canister destroys the charger
            continue
        branches = [(one, ())]
        if c and check_on:
            with on_trial(declared, (unit.id,), dead) as now:
                for lid in dead:
                    now.update_leader(lid, eliminated=True, hits=0)
                if off:
                    now.mark_unit(unit.id, officer_lost=True)
                now.update_unit(unit.id, hits=unit.hits - c, disordered=True)
                lead = now.units[unit.id]
                fail = _fails(now, lead, exact)
                add(FAIL, p * fail)
                g = stray_risk(now, lead)
            branches = [(1 - fail, ())] if g is None else \
                [((1 - fail) * one / 6, (g.id,)), ((1 - fail) * 5 * one / 6, ())]
        for pb, stray in branches:
            q = p * pb
            if not q:
                continue
            if c and c * 4 >= unit.hits:
                add(HALT, q)
                continue
            if friend is not None:
                add(f"{target.name}'s crew shelter with {friend.name} (no melee)", q)
                continue
            with on_trial(moved, (unit.id, target.id), dead + stray) as fight:
                for lid in dead + stray:
                    fight.update_leader(lid, eliminated=True, hits=0)
                if off:
                    fight.mark_unit(unit.id, officer_lost=True)
                if c:
                    fight.update_unit(unit.id, hits=unit.hits - c, disordered=True)
                    if check_on:
                        fight.mark_unit(unit.id, checked_at=unit.hits - c)
                if shot is not None:
                    fight.mark_unit(target.id, shots=mark(target, "shots", 0) + 1,
                                    fired_turn=battle.state.turn)
                fight.mark_unit(target.id, reaction="stand")
                o = melee_odds(fight, m, exact=exact)
            for name, v in o.outcomes.items():
                add(name, q * v)
            for i, line in enumerate(o.lines):
                dist = line.dist + Dist.point(c) if line.target == unit.name else line.dist
                lines.setdefault(i, []).append((q, line.label, dist, line.target))
    odds = Odds("charge")
    for i, parts in sorted(lines.items()):
        total = sum((q for q, *_ in parts), 0 * one)
        dist = Dist.mix([(Fraction(q) / Fraction(total), d) for q, _, d, _ in parts])
        label = parts[0][1] + (" (canister and melee," if parts[0][3] == unit.name else " (")
        odds.lines.append(OddsLine(label + " if the gunners stand)", dist, parts[0][3]))
    odds.outcomes = {k: v for k, v in out.items() if v}
    what = "canister" if arm(unit) == "cavalry" else "close canister"
    odds.notes.append(f"{target.name} fires {what} first" if shot is not None else
                      f"{target.name} has no round left to fire")
    if shot is not None and check_on:
        odds.notes.append(f"{unit.name} checks morale (Charged column) if it loses figures")
    return odds
