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
from .charges import answers, charge_path, charged_reread, check_charge, reaction_for
from .fire import casualty_dist, close_shot
from .losses import half_up, moved_leaders, save_for
from .melee import charged_now, setup, striker
from .battery_odds import bonus_without as _bonus_without, on_trial, stray_risk
from .morale import column_table, modifiers
from .state import arm, firing_figures, dice_for, is_skirmish
from .support import _spec, supporters
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
    return _strike(s.dice, s.reroll, s.halvings)


@lru_cache(maxsize=512)
def _strike(dice: int, reroll: bool, halvings: int) -> Dist:
    d = _rerolled(dice) if reroll else _plain(dice)
    for _ in range(halvings):
        d = d.map(half_up)
    return d


def lost_dist(battle, unit, enemy, figures, charging, target, saves=None) -> Dist:
    """Casualties (after the target's melee saves) a unit inflicts striking with `figures`
    (saves: save_for(battle, target, False) when the caller has it)."""
    if figures <= 0:
        return ZERO
    s = striker(battle, unit, enemy, figures, charging)
    save, b = saves or save_for(battle, target, False)
    keep = 6 - sum(1 for f in range(1, 7) if f + b >= save)
    if s.dice <= 0:
        return ZERO.thinned(keep, 6)
    return _struck_and_saved(s.dice, s.reroll, s.halvings, keep)


@lru_cache(maxsize=2048)
def _struck_and_saved(dice: int, reroll: bool, halvings: int, keep: int) -> Dist:
    """strike_hits thinned by the saves: the same few strikes recur in every melee weighed."""
    return _strike(dice, reroll, halvings).thinned(keep, 6)


class _Pmfs:
    """The distributions one melee needs, each built once: probabilities as Fractions
    (exact) or floats (fast; they agree with the exact ones to rounding)."""

    def __init__(self, battle, exact: bool):
        self.battle, self.exact, self.memo = battle, exact, {}

    def of(self, dist: Dist) -> list:
        if self.exact:
            return dist.probabilities()
        t = float(dist.total)
        return [w / t for w in dist.weights]

    def lost(self, unit, enemy, figures, disordered, charging, target) -> list:
        key = ("lost", unit.id, enemy.id, figures, disordered, charging, target.id)
        if key not in self.memo:
            u = unit if unit.disordered == disordered else evolve(unit, disordered=disordered)
            saves = ("saves", target.id)            # the target's melee save, asked once
            if saves not in self.memo:
                self.memo[saves] = save_for(self.battle, target, False)
            self.memo[key] = self.of(lost_dist(self.battle, u, enemy, figures, charging,
                                               target, self.memo[saves]))
        return self.memo[key]

    def first_fire(self, d, lead, figures, disordered) -> list:
        key = ("ff", figures, disordered)
        if key not in self.memo:
            from dataclasses import replace
            base = ("ff shot", disordered)        # the volley but its dice, built once
            if base not in self.memo:
                shot = close_shot(self.battle, d, lead, disordered)
                save, b = save_for(self.battle, lead, False)   # melee saves, as resolved
                self.memo[base] = replace(shot, save=save, save_bonus=b)
            shot = replace(self.memo[base], dice=dice_for(firing_figures(d, figures)))
            self.memo[key] = self.of(casualty_dist(shot))
        return self.memo[key]

    def fails(self, lead, lost) -> object:
        key = ("fail", lost)
        if key not in self.memo:
            if "base" not in self.memo:      # the modifiers but the quarters lost, once
                self.memo["base"] = sum(v for k, v in modifiers(self.battle, lead, "charged")
                                        if not k.endswith("% lost"))
            hurt = max(lead.hits - lost, 1)
            quarters = (lead.max_hits - hurt) * 4 // lead.max_hits if lead.max_hits else 0
            mod = self.memo["base"] - quarters
            table = column_table(self.battle, "charged")
            f = Fraction(sum(1 for face in range(1, 7) if table[max(MORALE_MIN, min(
                MORALE_MAX, face + mod))] in ("break", "fall_back")), 6)
            self.memo[key] = f if self.exact else float(f)
        return self.memo[key]


def _add(pa: list, pb: list) -> list:
    out = [0] * (len(pa) + len(pb) - 1)
    for i, x in enumerate(pa):
        if x:
            for j, y in enumerate(pb):
                if y:
                    out[i + j] += x * y
    return out


def _support(battle, m: Melee, side: str, target, chosen=None) -> Dist:
    total = ZERO
    if not battle.option("support_fire"):
        return total
    for u, _ in supporters(battle, m, side, chosen):
        try:
            total = total + casualty_dist(_spec(battle, u, target))
        except IllegalAction:
            continue
    return total


def _shared_support(shared, battle, m: Melee, side: str, target, chosen) -> Dist:
    """_support, shared between the answers a charge_odds weighs (`shared`: one dict per
    charge_odds call, or None). Those answers are copies of one battle that differ only
    in the charged unit's disorder, formation and `reaction` mark; support fire reads
    the charged unit's formation (its base, its save, the damage bonus) but never its
    disorder nor its reaction, so answers with the same formation share it."""
    if shared is None:
        return _support(battle, m, side, target, chosen)
    key = (side, target.id, chosen, battle.units[m.defender].formation)
    if key not in shared:
        shared[key] = _support(battle, m, side, target, chosen)
    return shared[key]


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
        others = _add(others, pm.lost(a, d, a.hits, a.disordered, charged_now(battle, a), d))

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
                    x_pmf = _add(pm.lost(lead, d, la3, a_dis or hit > 0,
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


from .melee_exact import exact_melee_odds  # noqa: E402  (it builds on _Pmfs above)
