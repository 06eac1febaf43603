"""The distributions a melee's odds are built of (melee_odds, melee_exact): the strikes
(a grenadier's re-roll, the halvings), the casualties after the melee saves, first fire,
the charger's failed check, and the support fire on each side (shared between the
answers of one charge that support fire cannot tell apart).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...errors import IllegalAction
from ...model.forces import evolve
from ...odds import Dist
from ..common import Melee
from .fire import close_shot
from .losses import half_up, save_for
from .melee import striker
from .morale import column_table, modifiers
from .shot_odds import casualty_dist
from .state import dice_for, firing_figures
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


def _support(battle, m: Melee, side: str, target, chosen=None, parts=None) -> Dist:
    total = ZERO
    if not battle.option("support_fire"):
        return total
    for u, _ in supporters(battle, m, side, chosen, parts):
        try:
            total = total + casualty_dist(_spec(battle, u, target))
        except IllegalAction:
            continue
    return total


SUPPORT_PARTS = "support parts"     # shared's dict of support.supporters' parts


def _shared_support(shared, battle, m: Melee, side: str, target, chosen) -> Dist:
    """_support, shared between the answers a charge_odds weighs (`shared`: one dict per
    charge_odds call, or None). Those answers are copies of one battle that differ only
    in the charged unit's disorder, formation and `reaction` mark; support fire reads
    the charged unit's formation (its base, its save, the damage bonus) but never its
    disorder nor its reaction, so answers with the same formation share it; those of
    another formation share the first looks that read neither (support.supporters'
    `parts`: the friends near, which may shoot, their looks at the charger)."""
    if shared is None:
        return _support(battle, m, side, target, chosen)
    key = (side, target.id, chosen, battle.units[m.defender].formation)
    if key not in shared:
        parts = shared.setdefault(SUPPORT_PARTS, {})
        shared[key] = _support(battle, m, side, target, chosen, parts)
    return shared[key]
