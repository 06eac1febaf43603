"""A cheap upper bound of the commander's value of a shot, so that it judges the costly
part of a shot (the line of sight, the exact spec) only for targets that could still be
the best one: the mean casualties `casualty_dist(shot_spec(battle, unit, target)).mean()`
is never more than `shot_bound(battle, unit, target)`.

Why it bounds: the bases' gap (the shot's range) is never less than the centres' distance
less both bases' half diagonals (each base lies inside the circle of its half diagonal),
so the shot's band is that of this distance or a longer one: the bound takes the best
band it could be. A hit is not saved on at most 4 faces of 6 (formed troops save on
5 or 6; skirmishers and crews on 4 or more; cover, walls and armour only save more, and
the woods' +1 to the die only saves more). Halving (disorder, skirmish targets) only
lowers the hits. The flank (a bonus to hit or to damage) is judged as the spec does.
"""
from __future__ import annotations

import math

from ...footprint import aspect, distance
from ...model.forces import mark
from .state import arm, dice_for, firing_figures, footprint, is_skirmish, profile
from .tables import (ARTILLERY_BANDS, ARTILLERY_RANGES, ARTILLERY_TO_HIT, CLOSE_CANISTER,
                     DAMAGE_BONUS, SAVE_FORMED, SAVE_LIGHT_OR_CREW, SMALL_ARMS)

SLACK = 1e-6                 # inches: far more than the floats' error in the gap bound
BATTERY_MEN = 16 / 36        # the counter-battery table's mean men hit (in cover: more)


def shot_bound(battle, unit, target) -> float:
    """No less than the commander's value of `unit`'s shot at `target` (0 if out of range
    whatever the bases' angles)."""
    fp, tfp = footprint(battle, unit), footprint(battle, target)
    rng_lo = (distance(fp.centre, tfp.centre) - math.hypot(fp.frontage, fp.depth) / 2
              - math.hypot(tfp.frontage, tfp.depth) / 2 - SLACK)
    flank = aspect(tfp, unit.pos) != "front"
    save = SAVE_LIGHT_OR_CREW if (is_skirmish(target) or arm(target) == "artillery") \
        else SAVE_FORMED
    keep = (save - 1) / 6                          # faces that do not save, at most
    if arm(unit) == "artillery":
        hits = 0.0
        ranges = ARTILLERY_RANGES[profile(unit)["weapon"]]
        for band, limit in zip(ARTILLERY_BANDS, ranges):
            if limit < rng_lo:
                continue                           # the shot is surely farther
            p_hit = 1.0 if ARTILLERY_TO_HIT[band] == 0 else (7 - ARTILLERY_TO_HIT[band]) / 6
            if arm(target) == "artillery":
                mean = BATTERY_MEN
            elif band == "canister":
                mean = 7.0 if rng_lo <= CLOSE_CANISTER else 3.5
            else:
                bonus = max(DAMAGE_BONUS.get(target.formation, 0)
                            if arm(target) == "infantry" else 0,
                            DAMAGE_BONUS["flank"] if flank else 0)
                mean = 3.5 + bonus
            hits = max(hits, p_hit * mean)
        return hits * keep * (1 + 1e-9)
    numbers = [n for limit, n in SMALL_ARMS[profile(unit)["weapon"]] if limit >= rng_lo]
    if not numbers:
        return 0.0
    number = max(numbers) + (1 if flank else 0)
    dice = dice_for(firing_figures(unit, mark(unit, "strength", unit.hits)))
    per_die = sum(f for f in range(1, 7) if f <= number) / 6
    return dice * per_die * keep * (1 + 1e-9)
