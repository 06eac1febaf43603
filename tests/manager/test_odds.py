"""Exact odds: checked against hand values and against enumerating every face."""
import itertools
from fractions import Fraction

from builders import build, session, unit
from manager import game_actions as ga
from manager.odds import Dist, compare
from manager.rules.morschauser.fire import fire_spec


def test_two_dice_hitting_on_five_or_six_by_hand():
    d = Dist.die([0, 0, 0, 0, 1, 1]).times(2)
    assert d.probabilities() == [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]
    assert d.mean() == Fraction(2, 3)


def test_compare_matches_enumeration():
    a = Dist.die([0, 0, 1, 1, 1, 2]).times(2)
    b = Dist.die([0, 0, 0, 1, 1, 1]).times(3)
    lt = eq = gt = 0
    for fa in itertools.product(range(6), repeat=2):
        for fb in itertools.product(range(6), repeat=3):
            x = sum([0, 0, 1, 1, 1, 2][f] for f in fa)
            y = sum([0, 0, 0, 1, 1, 1][f] for f in fb)
            lt += x < y
            eq += x == y
            gt += x > y
    n = 6 ** 5
    assert compare(a, b) == (Fraction(lt, n), Fraction(eq, n), Fraction(gt, n))


def test_fire_odds_equal_the_enumerated_outcome_of_the_rolled_dice():
    units = [unit("b", "blue", "foot_artillery", (3, 5), guard=True),
             unit("r", "red", "line_infantry", (8, 5), hits=3)]
    s, _ = session(build(units))
    b = s.battle
    odds = s.ruleset.odds(b, ga.Fire("b", "r"))
    spec = fire_spec(b, b.units["b"], b.units["r"])
    counts = {}
    for faces in itertools.product(range(1, 7), repeat=spec.dice):
        h = sum(spec.hits_for(f) for f in faces)
        counts[h] = counts.get(h, 0) + 1
    n = 6 ** spec.dice
    line = odds.lines[0].dist
    assert [line.p(k) for k in range(len(line.weights))] == [Fraction(counts.get(k, 0), n)
                                                              for k in range(len(line.weights))]
    assert odds.outcomes["r eliminated"] == Fraction(sum(c for h, c in counts.items() if h >= 3), n)
    assert odds.outcomes["r falls back"] == Fraction(counts.get(2, 0), n)


def test_melee_odds_equal_enumeration_of_both_sides_dice():
    units = [unit("b", "blue", "light_cavalry", (5, 5), hits=3), unit("r", "red", "militia", (6, 5), hits=2)]
    s, _ = session(build(units), phase="melee")
    odds = s.ruleset.odds(s.battle, ga.ResolveMelee("r"))
    lt = gt = elim = 0
    for fa in itertools.product(range(1, 7), repeat=3):        # cavalry front 3
        for fb in itertools.product(range(1, 7), repeat=2):    # militia front 2
            a = sum(f <= 3 for f in fa)
            d = sum(f <= 2 for f in fb)
            lt += a < d and d < 3               # falls back only if it is still there
            gt += a > d and a < 2
            elim += a >= 2
    n = 6 ** 5
    assert odds.outcomes["attackers fall back"] == Fraction(lt, n)
    assert odds.outcomes["defenders fall back"] == Fraction(gt, n)
    assert odds.outcomes["r eliminated"] == Fraction(elim, n)


def test_odds_do_not_change_the_battle_or_roll_dice():
    units = [unit("b", "blue", "line_infantry", (5, 5)), unit("r", "red", "line_infantry", (7, 5))]
    s, src = session(build(units))
    before = s.battle.fingerprint()
    s.ruleset.odds(s.battle, ga.Fire("b", "r"))
    assert s.battle.fingerprint() == before and s.battle.state.dice_seq == 1
