"""melee_exact's walk by columns (issue 17, eleventh session): after support fire the
branches that reach the same losses on the lead merge, and each step's ends (the lead
fallen to support fire, first fire or a lancer's first strike, the charge halted at a
quarter of its strength lost, the defender destroyed by support fire) are noted once
for a column. Its odds are the reference's (melee_odds.stepwise in Fractions) to the
last weight, here on every such end, made sure of: a weak lead against lances, first
fire and supporters, a weak defender under support fire (random melees reach them by
chance only).
"""
import itertools

import pytest

from builders import build_table, piece
from manager.rules.common import Melee
from manager.rules.featherstone import melee_odds as mo

from test_featherstone_odds_exact import same


def melee(a_kind, a_hits, d_kind, d_hits, reaction, lost_before=0, d_traits=(),
          supporters=False, check="charged_column", formation=None):
    units = [piece("b", "blue", a_kind, (20, 20), hits=a_hits),
             piece("r", "red", d_kind, (20, 18.5), hits=d_hits, traits=list(d_traits))]
    if supporters:
        units += [piece("r2", "red", "line_infantry", (25, 18), facing=270, hits=24),
                  piece("b3", "blue", "line_infantry", (15, 18), facing=90, hits=24)]
    options = {"pursuit": False, "support_fire": supporters, "charger_check": check,
               "melee_disorder": "halve"}
    battle = build_table(units, "featherstone", options=options)
    if formation:
        battle.update_unit("r", formation=formation)
    battle.mark_unit("b", charging="r", charge_strength=a_hits + lost_before)
    battle.mark_unit("r", reaction=reaction)
    return battle, Melee("r", ("b",))


def check(battle, m, ends: str) -> None:
    ref = mo.stepwise(battle, m, exact=True)
    same(mo.melee_odds(battle, m), ref)
    assert ref.outcomes.get(ends), (ends, ref.outcomes)     # the end is reached


@pytest.mark.parametrize("a_hits,reaction,check_on", itertools.product(
    (1, 2, 3, 5), ("stand", "counter", "waver"), ("charged_column", "none")))
def test_a_lancers_first_strike_that_fells_the_lead(a_hits, reaction, check_on):
    battle, m = melee("light_cavalry", a_hits, "heavy_cavalry", 12, reaction,
                      d_traits=["lancers"], check=check_on)
    check(battle, m, "defender wins")


@pytest.mark.parametrize("a_hits,lost_before,supporters", itertools.product(
    (1, 2, 4, 8), (0, 1, 2, 5), (False, True)))
def test_first_fire_that_fells_or_halts_the_lead(a_hits, lost_before, supporters):
    battle, m = melee("light_cavalry", a_hits, "line_infantry", 24, "first_fire",
                      lost_before, supporters=supporters)
    check(battle, m, "charge halted" if a_hits + lost_before >= 4 else "defender wins")


@pytest.mark.parametrize("a_hits,d_hits,formation", itertools.product(
    (1, 2, 12), (1, 2, 3), (None, "square")))
def test_support_fire_that_destroys_either_side(a_hits, d_hits, formation):
    battle, m = melee("light_cavalry", a_hits, "line_infantry", d_hits, "stand",
                      supporters=True, formation=formation)
    ref = mo.stepwise(battle, m, exact=True)
    same(mo.melee_odds(battle, m), ref)
    assert ref.lines[0].dist.weights[d_hits] or ref.lines[1].dist.weights[-1]
