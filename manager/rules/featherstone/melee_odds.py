"""Exact odds of a melee (and of a charge before it is declared), by convolution.

The same steps resolve_melee takes, with every die replaced by its distribution:
support fire on each side, a first strike (first fire or lances) whose casualties
shrink the other side before it strikes, the charge halted at a quarter lost, the
charger's morale check, the dice (with a grenadier's re-roll), the halvings, the
saving rolls, the square's 4-casualty test and the scores with ties to the defender.
(The distributions it is built of: melee_parts.)
"""
from __future__ import annotations

from fractions import Fraction

from ...model.forces import mark
from ...odds import Dist, Odds, OddsLine, convolve
from ..common import Melee
from .charge_reach import charge_path, check_charge
from .charges import answers, charged_reread, reaction_for
from .losses import moved_leaders
from .melee import charged_now, setup
from .melee_exact import exact_melee_odds
from .melee_parts import SUPPORT_PARTS, _Pmfs, _shared_support
from .battery_odds import bonus_without as _bonus_without, on_trial, stray_risk
from .state import arm, is_skirmish
from .support import FRIENDS_FROM


def melee_odds(battle, m: Melee, support=None, exact: bool = True, shared=None) -> Odds:
    """The melee's outcomes (see stepwise): exact, in whole numbers (melee_exact: the
    same Fractions as stepwise's, several times faster), or in floats (stepwise's)."""
    if exact:
        return exact_melee_odds(battle, m, support, shared)
    return stepwise(battle, m, support, False, shared)


def stepwise(battle, m: Melee, support=None, exact: bool = True, shared=None) -> Odds:
    """The melee's outcomes, step by step as resolve_melee plays it: support fire, first
    fire, the halt at a quarter of the charge's strength lost to fire, a lancer's first
    strike, the charger's check, then the strikes, each with the disorder the casualties
    before it caused (a disordered striker halves its hits). In Fractions (exact=True:
    the reference melee_exact is tested against) or floats (the commander's odds)."""
    pm = _Pmfs(battle, exact)
    one = Fraction(1) if exact else 1.0
    (d, attackers, lead, reaction, first, charged_with, before, bonus_a, bonus_d, checked,
     square_rule, check_on) = setup(battle, m)
    sup_on_a = pm.of(_shared_support(shared, battle, m, d.side, lead, support))
    sup_on_d = pm.of(_shared_support(shared, battle, m, lead.side, d, support))
    out = {"attacker wins": 0 * one, "defender wins": 0 * one,
           "charge halted": 0 * one, "charge fails (morale)": 0 * one}
    on_d, on_a = [0 * one], [0 * one]
    others = [one]
    for a in attackers[1:]:
        others = convolve(others, pm.lost(a, d, a.hits, a.disordered, charged_now(battle, a), d))

    edge = [bonus_a]                  # the attackers' bonus in the branch being weighed
    lost_bonus = _bonus_without(battle, attackers, stray_risk(battle, lead))

    def note(line, k, q):
        if k >= len(line):
            line.extend([0 * one] * (k + 1 - len(line)))
        line[k] += q

    def fight(q, a_base, d_base, x_pmf, y_of_x):
        """x: casualties by the attackers; y: by the defender (given x, or fixed)."""
        if isinstance(y_of_x, list):
            cum, run = [], 0 * one
            for py in y_of_x:
                run += py
                cum.append(run)
            for y, py in enumerate(y_of_x):
                if py:
                    note(on_a, d_base + y, q * py)
            for x, px in enumerate(x_pmf):
                if not px:
                    continue
                note(on_d, a_base + x, q * px)
                if square_rule and x < 4:
                    out["defender wins"] += q * px
                    continue
                # the attackers win when x + a_base + bonus_a > y + d_base + bonus_d
                limit = x + a_base + edge[0] - d_base - bonus_d - 1     # largest y they beat
                p_win = cum[min(limit, len(cum) - 1)] if limit >= 0 else 0 * one
                out["attacker wins"] += q * px * p_win
                out["defender wins"] += q * px * (1 - p_win)
            return
        for x, px in enumerate(x_pmf):
            if px:
                fight(q * px, a_base, d_base, [0 * one] * x + [one], y_of_x(x))

    for a_sup, pa in enumerate(sup_on_a):
        if not pa:
            continue
        for d_sup, pd in enumerate(sup_on_d):
            if not pd:
                continue
            p = pa * pd
            la, fd = lead.hits - a_sup, d.hits - d_sup
            a_dis, d_dis = lead.disordered or a_sup > 0, d.disordered or d_sup > 0
            if la <= 0:
                out["defender wins"] += p
                note(on_a, a_sup, p)
                note(on_d, d_sup, p)
                continue
            if fd <= 0:
                out["attacker wins"] += p
                note(on_a, a_sup, p)
                note(on_d, d_sup, p)
                continue
            fire_first = first == "d" and reaction == "first_fire" and not mark(d, "first_fired")
            if fire_first:
                first_pmf = pm.first_fire(d, lead, fd, d_dis)
            else:
                first_pmf = [one]
            for c, pc in enumerate(first_pmf):
                if not pc:
                    continue
                q = p * pc
                la2 = la - c
                if la2 <= 0:
                    out["defender wins"] += q
                    note(on_a, a_sup + c, q)
                    note(on_d, d_sup, q)
                    continue
                fire_lost = before + a_sup + c
                if fire_lost and fire_lost * 4 >= charged_with:
                    out["charge halted"] += q
                    note(on_a, a_sup + c, q)
                    note(on_d, d_sup, q)
                    continue
                lancer_pmf = pm.lost(d, lead, fd, d_dis, False, lead) \
                    if first == "d" and reaction != "first_fire" else [one]
                for k, pk in enumerate(lancer_pmf):
                    if not pk:
                        continue
                    qq, la3, hit = q * pk, la2 - k, c + k
                    if la3 <= 0:
                        out["defender wins"] += qq
                        note(on_a, a_sup + hit, qq)
                        note(on_d, d_sup, qq)
                        continue
                    lost_now = before + a_sup + hit
                    fail = pm.fails(lead, lost_now - before) if (
                        lost_now > checked and check_on) else 0 * one
                    if fail:
                        out["charge fails (morale)"] += qq * fail
                        note(on_a, a_sup + hit, qq * fail)
                        note(on_d, d_sup, qq * fail)
                    go = qq * (1 - fail)
                    if not go:
                        continue
                    x_pmf = convolve(pm.lost(lead, d, la3, a_dis or hit > 0,
                                         charged_now(battle, lead), d), others)
                    # a committed general's stray round: 1 in 6 he falls (and his +1)
                    parts = [(go * 5 / 6, bonus_a), (go / 6, lost_bonus)] if (
                        lost_bonus is not None and lost_now > checked and check_on) \
                        else [(go, bonus_a)]
                    for go, edge[0] in parts:
                        if first == "d" or reaction == "caught":
                            fight(go, d_sup, a_sup + hit, x_pmf, [one])
                        elif first == "a":
                            fight(go, d_sup, a_sup, x_pmf, lambda xx: pm.lost(
                                d, lead, max(fd - xx, 0), d_dis or xx > 0,
                                reaction == "counter", lead) if fd - xx > 0 else [one])
                        else:
                            fight(go, d_sup, a_sup, x_pmf,
                                  pm.lost(d, lead, fd, d_dis, reaction == "counter", lead))
    odds = Odds("melee", [OddsLine(f"casualties on {d.name}", _as_dist(on_d, exact), d.name),
                          OddsLine(f"casualties on {lead.name}", _as_dist(on_a, exact),
                                   lead.name)])
    odds.outcomes = {k: v for k, v in out.items() if v}
    odds.notes.append(f"scores add +{bonus_a} (attackers) and +{bonus_d} (defender); "
                      "ties go to the defender")
    return odds


def _as_dist(probs: list, exact: bool) -> Dist:
    if exact:
        from math import lcm
        denom = 1
        for q in probs:
            denom = lcm(denom, Fraction(q).denominator)
        return Dist([int(Fraction(q) * denom) for q in probs], denom)
    scale = 1 << 40                                  # floats: weights on a fine common scale
    return Dist([round(q * scale) for q in probs], scale)


def resolve_melee_odds(battle, action) -> Odds:
    from .melee import find
    return melee_odds(battle, find(battle, action.defender), action.support)


def _answered(b, m: Melee, k: tuple, risk, exact: bool, shared) -> Odds:
    """The melee if the target answers k = (reaction, disordered, square, its general
    fell), weighed on charge_odds' own copy b, changed and put back (on_trial)."""
    reaction, disordered, square, dead = k
    with on_trial(b, (m.defender,), (risk.id,) if dead else ()) as c:
        c.update_unit(m.defender, disordered=disordered,
                      formation="square" if square else c.units[m.defender].formation)
        c.mark_unit(m.defender, reaction=reaction)
        if dead:
            c.update_leader(risk.id, eliminated=True, hits=0)
        return melee_odds(c, m, exact=exact, shared=shared)


def charge_odds(battle, action, exact: bool = True, shared: dict | None = None,
                melees: dict | None = None, lines: bool = True) -> Odds:
    """Before a charge: the target's one morale roll, each face's answer (it breaks or falls
    back; or wavers, stands, fires first, forms square or counter-charges) and, for each
    answer that stands, the melee as it would then be fought (support fire, first fire,
    the halt, the charger's check, disorder before the strikes). Batteries and evading
    skirmishers are shown as the melee if they stand; a battery's canister, the charger's
    check after it and the crew's shelter come first (battery_odds). `shared`: support
    fire kept for another charge_odds of the same charge on a battle that differs only
    in marks support fire never reads (`lend`, `counter_seven`; see _shared_support);
    `melees`: each answer's melee kept likewise, for battles that differ only in marks
    no melee reads (the target's `counter_seven`). lines=False: the outcomes alone (the
    commander reads only those; mixing the casualty lines is most of the float odds)."""
    check_charge(battle, action)
    unit, target = battle.units[action.unit], battle.units[action.target]
    spot, way, cost, rate = charge_path(battle, unit, target)
    b = battle.copy()
    moved_leaders(b, unit, spot[0], spot[1])             # attached generals ride with it
    b.update_unit(unit.id, x=spot[0], y=spot[1], facing=round(way) % 360, moved=2)
    b.mark_unit(unit.id, charging=target.id, charge_strength=unit.hits,
                impetuous=b.state.turn if arm(unit) == "cavalry" else None)
    m = Melee(target.id, (unit.id,))
    one = Fraction(1) if exact else 1.0
    if arm(target) == "artillery":
        from .battery_odds import battery_charge_odds
        return battery_charge_odds(battle, b, unit, target, exact)
    if is_skirmish(target) and not mark(target, "stand_ground"):
        odds = melee_odds(b, m, exact=exact)
        odds.kind = "charge"
        odds.notes.append("if the skirmishers stand (they evade)")
        return odds
    mixed: dict = {}
    parts_of: dict = {}
    memo: dict = {} if melees is None else melees
    if shared is None:
        shared = {}                   # support fire, by the charged unit's formation
    # the answers' copies differ from `battle` only in the melee's own units (and the
    # generals): support fire finds the friends near on `battle`'s grid
    shared.setdefault(SUPPORT_PARTS, {}).setdefault(FRIENDS_FROM, battle)
    risk = stray_risk(battle, target)
    for face, column, score in answers(battle, unit, target):
        again = charged_reread(battle, target, face, score) if column == "rally" else None
        word, reaction, disorder, square = reaction_for(battle, unit, target, column, score,
                                                        again)
        w = one / 6
        if reaction is None:
            key = f"{target.name} {'breaks' if word in ('broke', 'routs', 'dispersed') else 'falls back'} (no melee)"
            mixed[key] = mixed.get(key, 0 * one) + w
            continue
        rallied = column == "rally"
        # a general committed to the target: his stray round after its Charged-column check
        ways = [(w * 5 / 6, False), (w / 6, True)] if risk and not rallied else [(w, False)]
        for wv, dead in ways:
            k = (reaction, disorder or (target.disordered and not rallied), square, dead)
            if k not in memo:
                memo[k] = _answered(b, m, k, risk, exact, shared)
            o = memo[k]
            for name, p in o.outcomes.items():
                mixed[name] = mixed.get(name, 0 * one) + wv * p
            for i, line in enumerate(o.lines if lines else ()):
                parts_of.setdefault(i, []).append((wv, line))
    odds = Odds("charge")
    for i, parts in sorted(parts_of.items()):
        total = sum((p for p, _ in parts), 0 * one)
        dist = Dist.mix([(Fraction(p) / Fraction(total), l.dist) for p, l in parts])
        odds.lines.append(OddsLine(parts[0][1].label + " (if it stands)", dist,
                                   parts[0][1].target))
    odds.outcomes = {k: v for k, v in mixed.items() if v}
    odds.notes.append(f"{target.name} checks morale on the "
                      f"{'Rally then Charged' if column == 'rally' else 'Charged'} column first")
    return odds
